// timeline, a long one: two thousand Writes recorded through the real
// hookd-emit into a project of their own. The list holds pages, not the
// history: a scroll to the middle paints rows from the middle, and a live
// burst is appended from what was committed since, not by reading the
// history again (the list says how many rows it has received from the
// backend: `data-rows-received`). See run.mjs for the context every spec
// receives.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROWS = 2000;
const ROW_HEIGHT = 28;
/** hookd-emit processes at once. */
const PARALLEL = 8;

export default async function ({ browser, test, shot, makeRepo, EMIT }) {
  const long = makeRepo('long');

  /** Sends one Write of `long-N.txt` through the real hookd-emit. */
  const write = (n) =>
    new Promise((resolve, reject) => {
      const child = spawn(EMIT, ['post_tool_use'], { stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, HOOKD_DEBUG: '1' } });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 && /delivered/.test(err) ? resolve() : reject(new Error(`hookd-emit: ${code} ${err}`))));
      child.stdin.end(
        JSON.stringify({
          session_id: 'e2e-long',
          cwd: long,
          hook_event_name: 'PostToolUse',
          tool_name: 'Write',
          tool_use_id: `toolu_long_${n}`,
          tool_input: { file_path: path.join(long, `long-${n}.txt`), content: `row ${n}\n` },
          tool_response: { success: true },
        }),
      );
    });
  /** Writes `from`..`to` (exclusive), PARALLEL at a time, in order within each wave. */
  const writes = async (from, to) => {
    for (let n = from; n < to; n += PARALLEL) {
      await Promise.all(Array.from({ length: Math.min(PARALLEL, to - n) }, (_, i) => write(n + i)));
    }
  };
  const count = () => browser.$('#timeline-count').getText();
  const received = async () => {
    const value = await browser.$('#timeline-list').getAttribute('data-rows-received');
    assert.ok(value !== null, 'the list says how many rows it has received');
    return Number(value);
  };

  await test('a long timeline pages: the middle paints rows from the middle, a live burst is appended', async () => {
    const started = Date.now();
    await writes(0, ROWS);
    console.log(`  recorded ${ROWS} Writes through hookd-emit in ${Date.now() - started} ms`);

    const opened = Date.now();
    await browser.execute((hash) => { window.location.hash = hash; }, `#/timeline?repo=${long}`);
    await browser.waitUntil(async () => (await count()) === '2,000 mutations', {
      timeout: 30000,
      timeoutMsg: `expected 2,000 mutations, got ${await count()}`,
    });
    await browser.$('[data-testid="timeline-row"]:not([hidden])').waitForExist({ timeout: 10000 });
    console.log(`  first rows painted ${Date.now() - opened} ms after navigating`);
    const atOpen = await received();
    assert.ok(atOpen <= 400, `the newest page, not the history: ${atOpen} rows received`);

    // The middle of the list: placeholders at first, then the rows of that page.
    const middle = ROWS / 2;
    await browser.execute((top) => {
      const list = document.getElementById('timeline-list');
      list.scrollTop = top;
      list.dispatchEvent(new Event('scroll'));
    }, middle * ROW_HEIGHT);
    const row = await browser.$(`[data-testid="timeline-row"][data-index="${middle}"]`);
    await row.waitForExist({ timeout: 10000, timeoutMsg: `row ${middle} is painted` });
    const text = await browser.execute((el) => el.textContent, row);
    const n = Number(/long-(\d+)\.txt/.exec(text)?.[1]);
    // Writes go PARALLEL at a time: within a wave the order is the daemon's.
    assert.ok(Math.abs(n - middle) < 2 * PARALLEL, `row ${middle} shows long-${n}.txt, a row from the middle`);
    const held = Number(await browser.$('#timeline-list').getAttribute('data-rows-held'));
    assert.ok(held < ROWS / 2, `the list holds pages, not the history: ${held} rows held`);
    console.log(`  at the middle: ${held} rows held, ${await received()} received in all`);
    await shot(browser, 'timeline-long-middle');

    // Back at the end, a burst of five: appended, nothing read again.
    await browser.$('#timeline-jump-latest').click();
    await browser.$(`[data-testid="timeline-row"][data-index="${ROWS - 1}"]`).waitForExist({ timeout: 10000 });
    const before = await received();
    const kept = await browser.$(`[data-testid="timeline-row"][data-index="${ROWS - 1}"]`);
    await writes(ROWS, ROWS + 5);
    await browser.waitUntil(async () => (await count()) === '2,005 mutations', {
      timeout: 15000,
      timeoutMsg: `expected 2,005 mutations, got ${await count()}`,
    });
    await browser.$(`[data-testid="timeline-row"][data-index="${ROWS + 4}"]`).waitForExist({ timeout: 10000 });
    const after = await received();
    assert.ok(after - before >= 5 && after - before < 50, `the burst was appended: ${after - before} rows received for 5 new`);
    assert.equal(await browser.execute((el) => el.dataset.index, kept), String(ROWS - 1), 'the rows on screen stayed where they were');
  });
}
