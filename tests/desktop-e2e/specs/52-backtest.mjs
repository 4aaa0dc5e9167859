// backtest: three Bash calls recorded through the real hookd-emit and the
// app's daemon, then, on the Test bench, "Backtest on recent history" with
// a guard that refuses sudo lists exactly the sudo call as one it would
// have blocked, with the guard's reason; nothing is saved. In the Hook
// editor, "Backtest these edits" replays the same calls with the edited
// file as Save would write it, says "N of 3 events replayed" as it goes,
// lists the same blocked call, saves nothing, and its Cancel stops a
// replay whose hook hangs.
// See run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, axe, theme, emit, makeRepo, WORK }) {
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

  await test('backtest: the Hook editor backtests its unsaved edits with progress, and Cancel stops it', async () => {
    // A guard that takes a moment per call, so the progress is seen.
    const slow = path.join(WORK, 'bin', 'slow-no-sudo.sh');
    fs.writeFileSync(slow, `#!/bin/sh\nsleep 1\nexec ${guard}\n`, { mode: 0o755 });
    await browser.execute((h) => { window.location.hash = h; }, `#/hooks?project=${dir}&tab=managed-project`);
    await browser.$('#hooks-add').waitForExist({ timeout: 10000 });
    await browser.$('#hooks-add-event').selectByAttribute('value', 'PreToolUse');
    await browser.$('#hooks-add-matcher').setValue('Bash');
    await browser.$('#hooks-add-command').setValue(slow);
    const add = await browser.$('#hooks-add-submit');
    await browser.waitUntil(async () => await add.isEnabled(), { timeout: 5000 });
    await add.click();
    await browser.waitUntil(async () => (await browser.$('#hooks-dirty').getAttribute('data-dirty')) === 'true', { timeout: 5000, timeoutMsg: 'the hook is in the draft' });

    const button = await browser.$('#hooks-backtest');
    assert.equal(await button.getText(), 'Backtest these edits');
    await button.click();
    const statuses = new Set();
    await browser.waitUntil(
      async () => {
        const panel = await browser.$('#hooks-backtest-panel');
        if (!(await panel.isExisting())) return false;
        statuses.add(await browser.$('#hooks-backtest-status').getText());
        return (await panel.getAttribute('data-running')) === 'false';
      },
      { timeout: 30000, interval: 100, timeoutMsg: 'the backtest of the edits finished' },
    );
    assert.ok([...statuses].some((t) => /\d of 3 events replayed/.test(t)), `progress was shown: ${[...statuses].join(' | ')}`);
    const changes = await browser.execute(() =>
      [...document.querySelectorAll('#hooks-backtest-panel [data-testid="backtest-change"]')].map((c) => ({ kind: c.dataset.kind, after: c.dataset.after, text: c.textContent })),
    );
    assert.equal(changes.length, 1, JSON.stringify(changes));
    assert.equal(changes[0].kind, 'blocks');
    assert.match(changes[0].text, /sudo rm -rf \/var\/cache/);
    assert.match(changes[0].text, /no sudo/);
    assert.ok(!fs.existsSync(path.join(dir, '.hookd', 'settings.json')), 'nothing was saved');
    assert.equal(await browser.$('#hooks-dirty').getAttribute('data-dirty'), 'true', 'the edits are still unsaved');
    await browser.$('#hooks-backtest-panel').scrollIntoView({ block: 'center' });
    await shot(browser, 'hooks-backtest-edits');
    // axe (WCAG 2.1 AA, as spec 93 on every screen) on the panel with its report, both themes.
    for (const dark of [true, false]) {
      await theme(browser, dark);
      await axe(browser, `Hooks backtest panel (${dark ? 'dark' : 'light'})`);
    }

    // A hook that hangs: Cancel stops the replay long before the hook would end.
    const command = await browser.$(`[data-testid="hook-handler"][data-command="${slow}"] [data-testid="handler-command"]`);
    await command.setValue('sleep 30');
    await button.click();
    await browser.waitUntil(async () => /0 of 3 events replayed/.test(await browser.$('#hooks-backtest-status').getText()), { timeout: 10000, timeoutMsg: 'the replay started' });
    const started = Date.now();
    await browser.$('#hooks-backtest-cancel').click();
    await browser.waitUntil(async () => /Cancelled/.test(await browser.$('#hooks-backtest-status').getText()), { timeout: 10000, timeoutMsg: 'the backtest was cancelled' });
    assert.ok(Date.now() - started < 10000);
    assert.equal(await browser.$('#hooks-backtest-panel').getAttribute('data-running'), 'false');
    await browser.$('#hooks-discard').click();
    await browser.waitUntil(async () => (await browser.$('#hooks-dirty').getAttribute('data-dirty')) === 'false', { timeout: 5000 });
    assert.ok(!fs.existsSync(path.join(dir, '.hookd', 'settings.json')), 'nothing was saved');
  });
}
