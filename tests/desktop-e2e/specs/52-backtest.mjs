// backtest: three Bash calls recorded through the real hookd-emit and the
// app's daemon, then, on the Test bench, "Backtest on recent history" with
// a guard that refuses sudo lists exactly the sudo call as one it would
// have blocked, with the guard's reason; nothing is saved.
// See run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, emit, makeRepo, WORK }) {
  const dir = makeRepo('backtest-history');
  const guard = path.join(WORK, 'bin', 'no-sudo.sh');

  await test('backtest: a draft guard lists the recorded sudo call it would have blocked', async () => {
    fs.mkdirSync(path.dirname(guard), { recursive: true });
    fs.writeFileSync(guard, "#!/bin/sh\n[ \"$HOOKD_BACKTEST\" = 1 ] || exit 3\npayload=$(cat)\ncase \"$payload\" in\n  *'\"command\":\"sudo'*) echo 'no sudo' >&2; exit 2 ;;\nesac\nexit 0\n", { mode: 0o755 });
    ['ls -la', 'sudo rm -rf /var/cache', 'cargo test'].forEach((command, n) =>
      emit('pre_tool_use', { session_id: 'e2e-backtest', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: `toolu_bt_${n}`, tool_input: { command } }),
    );

    await browser.execute((h) => { window.location.hash = h; }, `#/bench?project=${dir}&event=PreToolUse`);
    const button = await browser.$('#backtest-run');
    await button.waitForExist({ timeout: 10000 });
    await browser.$('#backtest-matcher').setValue('Bash');
    await browser.$('#backtest-command').setValue(guard);
    // The daemon commits in batches: try again until all three are in the ledger.
    await browser.waitUntil(
      async () => {
        await browser.execute(() => document.querySelector('.error-banner [data-action=dismiss], #error-dismiss')?.click());
        if (!(await button.isEnabled())) return false;
        await button.click();
        await browser.waitUntil(async () => await button.isEnabled(), { timeout: 30000 });
        const report = await browser.$('#backtest-report');
        return (await report.isExisting()) && Number(await report.getAttribute('data-events')) >= 3;
      },
      { timeout: 30000, interval: 1000, timeoutMsg: 'the three recorded calls were replayed' },
    );
    const changes = await browser.execute(() =>
      [...document.querySelectorAll('[data-testid="backtest-change"]')].map((c) => ({ kind: c.dataset.kind, after: c.dataset.after, text: c.textContent })),
    );
    assert.equal(changes.length, 1, JSON.stringify(changes));
    assert.equal(changes[0].kind, 'blocks');
    assert.equal(changes[0].after, 'deny');
    assert.match(changes[0].text, /sudo rm -rf \/var\/cache/);
    assert.match(changes[0].text, /no sudo/);
    assert.ok(!fs.existsSync(path.join(dir, '.hookd', 'settings.json')), 'nothing was saved');
    await browser.execute(() => document.getElementById('bench-backtest')?.scrollIntoView({ block: 'start' }));
    await shot(browser, 'bench-backtest');
  });
}
