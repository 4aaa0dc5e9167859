// timeline: see run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, emit, env, repo }) {
  await test('an Edit piped through hookd-emit appears live in the timeline with its diff', async () => {
    await browser.$(`[data-testid="project"][data-root="${repo}"]`).click();
    await browser.$('#timeline-list').waitForExist({ timeout: 10000 });
    emit('post_tool_use', {
      session_id: 'e2e-session',
      cwd: repo,
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_use_id: 'toolu_e2e_1',
      tool_input: { file_path: path.join(repo, 'README.md'), old_string: 'hello', new_string: 'hello, hookd' },
      tool_response: { success: true },
    });
    const row = await browser.$('[data-testid="timeline-row"]');
    await row.waitForExist({ timeout: 10000 });
    // textContent, not the rendered text: narrow columns may clip what is painted.
    const rowText = await browser.execute((el) => el.textContent, row);
    assert.match(rowText, /README\.md/);
    assert.equal(await row.getAttribute('data-tool'), 'Edit');
    // A one-line Edit: one line added, one removed, as its diff shows.
    const lines = await browser.execute((el) => el.querySelector('.col-lines').textContent, row);
    assert.equal(lines, '+1 \u22121');
    await row.click();
    const detail = await browser.$('#row-detail');
    await detail.waitForExist({ timeout: 5000 });
    const diff = await browser.$('#row-detail [data-testid="change-diff"]');
    await diff.waitForExist({ timeout: 5000 });
    const text = await browser.execute((el) => el.textContent, detail);
    assert.match(text, /hello, hookd/, 'the new text is shown');
    const ops = await browser.execute((el) => [...el.querySelectorAll('.diff-line')].map((l) => l.dataset.op), diff);
    assert.deepEqual(ops, ['del', 'add'], 'the backend diff of the one-line Edit');
    // The chart counts the live row too (once its throttle lets it count again).
    const chart = await browser.$('#timeline-chart');
    await browser.waitUntil(async () => (await chart.getAttribute('data-total')) === '1', {
      timeout: 5000,
      timeoutMsg: 'the chart does not count the row that arrived live',
    });
    await shot(browser, 'timeline');
  });
}
