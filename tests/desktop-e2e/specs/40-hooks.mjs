// hooks: the Hook editor adds a PreToolUse hook to the project's Claude Code
// settings and the file on disk keeps every other key. See run.mjs for the
// context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const COMMAND = './scripts/guard-bash.sh';

export default async function ({ browser, test, shot, repo }) {
  const file = path.join(repo, '.claude', 'settings.json');

  await test('hook editor: add a PreToolUse hook in the Project tab; the file keeps its other keys', async () => {
    // A settings file with other keys and a hook of its own. Another spec
    // (connect) may have written hookd's handlers here already: keep them.
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const existing = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
    const before = {
      ...existing,
      model: 'opus',
      permissions: { allow: ['Bash(git status)', 'Read(./**)'], deny: ['Read(./.env)'] },
      env: { RUST_LOG: 'info', HOOKD_E2E: '1' },
      hooks: {
        ...(existing.hooks ?? {}),
        PostToolUse: [
          ...(existing.hooks?.PostToolUse ?? []),
          { matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'cargo fmt --all', statusMessage: 'formatting' }] },
        ],
      },
      statusLine: { type: 'command', command: 'echo hookd' },
    };
    fs.writeFileSync(file, `${JSON.stringify(before, null, 2)}\n`);

    // Open the editor from the project's card.
    await browser.$('#nav-projects').click();
    const link = await browser.$(`[data-testid="project"][data-root="${repo}"] [data-testid="project-hooks"]`);
    await link.waitForExist({ timeout: 10000 });
    await link.click();
    const tab = await browser.$('#hooks-tab-agent-project');
    await tab.waitForExist({ timeout: 10000 });
    assert.equal(await tab.getAttribute('aria-selected'), 'true');
    const filePath = await browser.$('#hooks-file-path');
    await browser.waitUntil(async () => (await filePath.getText()) === file, { timeout: 10000, timeoutMsg: `the Project tab shows ${file}` });
    await browser.$('[data-testid="hook-event"][data-event="PostToolUse"]').waitForExist({ timeout: 10000 });
    assert.match(await browser.$('#hooks-other-keys').getText(), /permissions/);

    // Add the hook: event picker, live-checked matcher, command, timeout.
    await browser.$('#hooks-add-event').selectByAttribute('value', 'PreToolUse');
    assert.match(await browser.$('#hooks-add-event-desc').getText(), /Before a tool runs/);
    await browser.$('#hooks-add-matcher').setValue('Bash(');
    const status = await browser.$('#hooks-add-matcher-status');
    await browser.waitUntil(async () => (await status.getAttribute('data-state')) === 'error', { timeout: 5000, timeoutMsg: 'a broken regex is flagged' });
    assert.match(await status.getText(), /at position 4/);
    await browser.$('#hooks-add-matcher').setValue('Bash');
    await browser.waitUntil(async () => (await status.getAttribute('data-state')) === 'ok' && /matches 1 of \d+ known tools: Bash/.test(await status.getText()), {
      timeout: 5000,
      timeoutMsg: 'the matcher matches Bash',
    });
    await browser.$('#hooks-add-command').setValue(COMMAND);
    await browser.$('#hooks-add-timeout').setValue('30');
    await browser.$('#hooks-add-submit').click();
    await browser.$('[data-testid="hook-event"][data-event="PreToolUse"]').waitForExist({ timeout: 5000 });
    assert.equal(await browser.$('#hooks-dirty').getAttribute('data-dirty'), 'true');

    // Review the diff of the whole file, then save.
    await browser.$('#hooks-review').click();
    const diff = await browser.$('[data-testid="hooks-diff"]');
    await diff.waitForExist({ timeout: 10000 });
    const added = await browser.execute(() => [...document.querySelectorAll('[data-testid="hooks-diff"] .diff-add')].map((l) => l.textContent));
    assert.ok(added.some((t) => t.includes('"matcher": "Bash"')), `diff adds the matcher: ${added.join('\n')}`);
    assert.ok(added.some((t) => t.includes(COMMAND)), 'diff adds the command');
    const removed = await browser.execute(() => document.querySelectorAll('[data-testid="hooks-diff"] .diff-del').length);
    assert.equal(removed, 0, 'nothing is removed');
    assert.equal(fs.readFileSync(file, 'utf8'), `${JSON.stringify(before, null, 2)}\n`, 'nothing written before Save');
    // The review sits under the file's header: show the tabs, the path and the diff.
    await browser.execute(() => {
      const scroller = document.querySelector('.hooks-scroll');
      if (scroller) scroller.scrollTop = 0;
    });
    await shot(browser, 'hooks');
    await browser.$('#hooks-save').click();
    await browser.waitUntil(async () => /Saved/.test(await browser.$('#hooks-status').getText()), { timeout: 10000, timeoutMsg: 'saved' });
    await browser.waitUntil(async () => (await browser.$('#hooks-dirty').getAttribute('data-dirty')) === 'false', { timeout: 5000 });

    // The file on disk: the new hook, and every other key exactly as it was.
    const after = JSON.parse(fs.readFileSync(file, 'utf8'));
    const pre = after.hooks.PreToolUse.find((g) => g.matcher === 'Bash');
    assert.ok(pre, `a Bash group: ${JSON.stringify(after.hooks)}`);
    assert.deepEqual(pre.hooks.at(-1), { type: 'command', command: COMMAND, timeout: 30 });
    for (const key of Object.keys(before).filter((k) => k !== 'hooks')) {
      assert.deepEqual(after[key], before[key], `${key} unchanged`);
    }
    for (const event of Object.keys(before.hooks)) {
      if (event !== 'PreToolUse') assert.deepEqual(after.hooks[event], before.hooks[event], `hooks.${event} unchanged`);
    }
    assert.deepEqual(Object.keys(after), Object.keys(before), 'top-level keys in the same order');
  });

  await test('hook editor: the Effective view lists the new hook with its source file', async () => {
    await browser.$('#hooks-tab-effective').click();
    const row = await browser.$(`[data-testid="effective-hook"][data-event="PreToolUse"][data-command="${COMMAND}"]`);
    await row.waitForExist({ timeout: 10000 });
    assert.equal(await row.getAttribute('data-kind'), 'agent');
    assert.equal(await row.getAttribute('data-scope'), 'project');
    assert.equal(await row.getAttribute('data-state'), 'enabled');
    const source = await row.$('[data-testid="effective-source"]');
    assert.equal(await source.getAttribute('data-path'), file);
    assert.match(await source.getText(), /Claude Code · Project\s*\.claude\/settings\.json/);
    const post = await browser.$('[data-testid="effective-hook"][data-event="PostToolUse"][data-command="cargo fmt --all"]');
    assert.ok(await post.isExisting(), 'the file\u2019s own PostToolUse hook is listed too');
    await shot(browser, 'hooks-effective');
  });

  await test('hook editor: a change made on disk by someone else shows up live', async () => {
    await browser.$('#hooks-tab-agent-project').click();
    await browser.$('[data-testid="hook-event"][data-event="PreToolUse"]').waitForExist({ timeout: 10000 });
    // Another editor adds a Stop hook; the settings watcher tells the window.
    const text = JSON.parse(fs.readFileSync(file, 'utf8'));
    text.hooks.Stop = [{ hooks: [{ type: 'command', command: 'notify-send "Claude is done"' }] }];
    fs.writeFileSync(file, `${JSON.stringify(text, null, 2)}\n`);
    // Wait for the new command itself: after the Connect spec the file
    // already has a Stop group (hookd-emit's).
    const status = await browser.$('#hooks-status');
    await browser.waitUntil(async () => /changed on disk/.test(await status.getText()), {
      timeout: 10000,
      timeoutMsg: 'the window says the file changed on disk',
    });
    const stop = await browser.$('[data-testid="hook-event"][data-event="Stop"] [data-testid="hook-handler"][data-command=\'notify-send "Claude is done"\']');
    await stop.waitForExist({ timeout: 5000, timeoutMsg: 'the Stop hook written on disk appears without a reload' });
    assert.equal(await browser.$('#hooks-disk-banner').isDisplayed(), false, 'no banner: there were no unsaved edits');
  });
}
