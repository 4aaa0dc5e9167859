// runs: a project connected record-only (hookd-emit without --wait) runs no
// managed hook. Installing the shell guard into its hookd file says so with
// the core's reason; the Effective view and the hook editor show the guard
// as "does not run" (record_only); the offer opens the connect dialog on the
// file that records now, in managed mode, with the diff; applying it makes
// the reason go away.
// See run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, makeRepo, EMIT }) {
  const dir = makeRepo('runs-record-only');
  const local = path.join(dir, '.claude', 'settings.local.json');
  const go = (hash) => browser.execute((h) => { window.location.hash = h; }, hash);
  const guardRow = () =>
    browser.execute(() => {
      const row = [...document.querySelectorAll('[data-testid="effective-hook"]')].find((r) => r.dataset.kind === 'managed' && r.dataset.command.includes('block-dangerous-shell'));
      // The reasons are a row of their own under the hook's.
      const why = row?.nextElementSibling?.dataset.testid === 'effective-reasons' ? row.nextElementSibling : null;
      return row ? { runs: row.dataset.runs, codes: [...row.querySelectorAll('[data-testid="runs-reason"]'), ...(why?.querySelectorAll('[data-testid="runs-reason"]') ?? [])].map((r) => r.dataset.code) } : null;
    });

  await test('runs: a managed guard in a record-only project does not run, says why, and the offer opens the managed connect diff', async () => {
    fs.mkdirSync(path.dirname(local), { recursive: true });
    const record = { hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `${EMIT} pre_tool_use` }] }] } };
    fs.writeFileSync(local, `${JSON.stringify(record, null, 2)}\n`);

    await go(`#/hooks?project=${dir}&tab=templates`);
    const card = await browser.$('[data-testid="template"][data-name="block-dangerous-shell"]');
    await card.waitForExist({ timeout: 10000 });
    await card.$('[data-testid="template-target"]').selectByAttribute('value', 'managed-local');
    await card.$('[data-testid="template-install"]').click();
    const idle = await browser.$('[data-testid="template-idle"]');
    await idle.waitForExist({ timeout: 10000, timeoutMsg: 'the install says the guard does not run' });
    const codes = await browser.execute((el) => [...el.querySelectorAll('[data-testid="runs-reason"]')].map((r) => r.dataset.code), idle);
    assert.ok(codes.includes('record_only'), `record-only is a reason: ${codes}`);
    assert.match(await idle.getText(), /record only/);
    const offer = await idle.$('[data-testid="template-switch-managed"]');
    assert.equal(await offer.getAttribute('data-scope'), 'local', 'the file that records now');
    await shot(browser, 'hooks-template-does-not-run');

    // The Effective view and the hook editor say the same.
    await go(`#/hooks?project=${dir}&tab=effective`);
    await browser.waitUntil(async () => (await guardRow()) !== null, { timeout: 10000, timeoutMsg: 'the guard is in the Effective view' });
    const row = await guardRow();
    assert.equal(row.runs, 'false');
    assert.ok(row.codes.includes('record_only'), JSON.stringify(row));
    await browser.execute(() => document.querySelector('[data-testid="effective-hook"][data-runs="false"]')?.scrollIntoView({ block: 'center' }));
    await shot(browser, 'hooks-effective-does-not-run');
    // At the default 1100 px, the reasons do not squeeze what the hook runs.
    assert.equal((await browser.getWindowSize()).width, 1100);
    const widths = await browser.execute(() => {
      const row = document.querySelector('[data-testid="effective-hook"][data-runs="false"]');
      const width = (sel) => row.querySelector(sel).getBoundingClientRect().width;
      return { runs: width('td.hooks-summary'), state: width('td.hooks-state-cell') };
    });
    assert.ok(widths.runs >= 190 && widths.runs > widths.state, `"What runs" keeps its room: ${JSON.stringify(widths)}`);
    await go(`#/hooks?project=${dir}&tab=managed-local`);
    const handler = await browser.$('[data-testid="hook-handler"][data-runs="false"]');
    await handler.waitForExist({ timeout: 10000, timeoutMsg: 'the editor shows the guard as not running' });
    assert.match(await handler.getText(), /does not run/);

    // The offer: the connect dialog on the local file, managed mode, with the diff.
    await go(`#/hooks?project=${dir}&tab=templates`);
    const again = await browser.$('[data-testid="template-switch-managed"]');
    await again.waitForExist({ timeout: 10000 });
    await again.click();
    const diff = await browser.$('#connect-diff');
    await browser.waitUntil(async () => (await diff.isExisting()) && (await browser.$('#connect-apply').isEnabled()), { timeout: 10000, timeoutMsg: 'the diff is shown' });
    assert.equal(await browser.$('#connect-scope').getValue(), 'local');
    assert.equal(await browser.$('#connect-mode').getValue(), 'managed');
    const added = await browser.execute(() => [...document.querySelectorAll('#connect-diff [data-op="add"] .diff-text')].map((e) => e.textContent));
    assert.ok(added.some((t) => /--wait/.test(t)), `the diff adds managed entries: ${added.join('\n')}`);
    await shot(browser, 'hooks-switch-to-managed');
    await browser.$('#connect-apply').click();
    await browser.waitUntil(async () => !(await browser.$('#connect-dialog').isExisting()), { timeout: 10000, timeoutMsg: 'the dialog closes' });
    assert.match(fs.readFileSync(local, 'utf8'), /--wait/);

    await go(`#/hooks?project=${dir}&tab=effective`);
    await browser.waitUntil(async () => { const r = await guardRow(); return r !== null && !r.codes.includes('record_only'); }, { timeout: 10000, timeoutMsg: 'record-only is no longer a reason' });
  });
}
