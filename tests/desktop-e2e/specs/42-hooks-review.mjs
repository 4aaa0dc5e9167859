// hooks (review): the Hook editor refuses a matcher that is no valid
// pattern in the add form, with the position, and so when an existing
// group's matcher is edited into one (the file cannot be reviewed for
// saving until it is fixed); lists and flags a group of a
// loaded file whose matcher is no valid pattern and still saves an
// unrelated edit of that file; keeps the save bar in view in a long file;
// and moves a hook to another file only after a review of both files and a
// confirmation. Runs after 40-hooks (the editor is open on alpha). Every
// file it writes is put back as it was, for the specs after it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const GUARD = './scripts/guard-bash.sh'; // added by 40-hooks

export default async function ({ browser, test, shot, repo }) {
  const project = path.join(repo, '.claude', 'settings.json');
  const local = path.join(repo, '.claude', 'settings.local.json');
  const clean = () => {
    for (const f of [local, `${local}.hookd-backup`]) fs.rmSync(f, { force: true });
  };
  const scrollTop = () =>
    browser.execute(() => {
      const scroller = document.querySelector('.hooks-scroll');
      if (scroller) scroller.scrollTop = 0;
    });
  // The editor is on alpha (40-hooks left it there); switch its tab.
  async function openTab(tab) {
    assert.equal(await browser.$('#hooks-project').getValue(), repo, 'the editor shows alpha');
    const button = await browser.$(`#hooks-tab-${tab}`);
    await button.click();
    await browser.waitUntil(async () => (await button.getAttribute('aria-selected')) === 'true', { timeout: 5000, timeoutMsg: `the ${tab} tab is shown` });
  }

  await test('hook editor: the add form refuses a matcher that is no valid pattern, naming the position', async () => {
    await openTab('agent-project');
    await browser.$('#hooks-add').waitForExist({ timeout: 10000 });
    const before = fs.readFileSync(project, 'utf8');
    await browser.$('#hooks-add-event').selectByAttribute('value', 'PreToolUse');
    await browser.$('#hooks-add-command').setValue('./scripts/docker-guard.sh');
    await browser.$('#hooks-add-matcher').setValue('Bash(*docker*)');
    const submit = await browser.$('#hooks-add-submit');
    await browser.waitUntil(async () => !(await submit.isEnabled()), { timeout: 5000, timeoutMsg: 'Add hook is disabled for an invalid pattern' });
    const error = await browser.$('#hooks-add-error');
    assert.match(await error.getText(), /not a valid pattern: invalid regex "Bash\(\*docker\*\)" at position 5: repetition operator missing expression/);
    assert.match(await browser.$('#hooks-add-matcher-status').getText(), /at position 5/);
    // Enter in the command field does not add it either.
    await browser.$('#hooks-add-command').click();
    await browser.keys('Enter');
    await browser.pause(400);
    assert.equal(await browser.$('[data-testid="hook-group"][data-matcher="Bash(*docker*)"]').isExisting(), false, 'no group with the invalid matcher');
    assert.equal(await browser.$('#hooks-dirty').getAttribute('data-dirty'), 'false', 'the draft is unchanged');
    await browser.$('#hooks-add').scrollIntoView({ block: 'start' });
    await shot(browser, 'hooks-add-invalid');

    // Fixed, it can be added; then dropped again.
    await browser.$('#hooks-add-matcher').setValue('Bash');
    await browser.waitUntil(async () => await submit.isEnabled(), { timeout: 5000, timeoutMsg: 'Add hook is enabled for a valid pattern' });
    assert.equal(await error.getText(), '');
    await browser.$('#hooks-add-command').clearValue();
    assert.equal(fs.readFileSync(project, 'utf8'), before, 'nothing written');
  });

  await test('hook editor: an existing group\u2019s matcher edited into no valid pattern is refused in the form, naming the position', async () => {
    await openTab('agent-project');
    const before = fs.readFileSync(project, 'utf8');
    const group = await browser.$(`[data-testid="hook-group"][data-matcher="Bash"]`);
    await group.waitForExist({ timeout: 10000 });
    const field = await group.$('[data-testid="group-matcher"]');
    await field.setValue('Bash(*docker*)');
    await browser.waitUntil(async () => (await group.getAttribute('data-refused')) === 'true', { timeout: 5000, timeoutMsg: 'the edited matcher is refused' });
    assert.match(
      await group.$('[data-testid="group-matcher-error"]').getText(),
      /^The matcher is not a valid pattern: invalid regex "Bash\(\*docker\*\)" at position 5: repetition operator missing expression\. Fix it to save the file\.$/,
    );
    assert.match(await group.$('[data-testid="matcher-caret"]').getText(), /\^/);
    assert.equal(await browser.$('#hooks-dirty').getAttribute('data-dirty'), 'true');
    assert.equal(await browser.$('#hooks-review').isEnabled(), false, 'the file cannot be reviewed for saving');
    await group.scrollIntoView({ block: 'center' });
    await shot(browser, 'hooks-edit-invalid-matcher');
    // Fixed, the file can be reviewed again; the edit is then dropped.
    await field.setValue('Bash');
    await browser.waitUntil(async () => (await group.getAttribute('data-refused')) === 'false', { timeout: 5000, timeoutMsg: 'the fixed matcher is accepted' });
    assert.equal(await group.$('[data-testid="group-matcher-error"]').getText(), '');
    await browser.$('#hooks-discard').click();
    await browser.waitUntil(async () => (await browser.$('#hooks-dirty').getAttribute('data-dirty')) === 'false', { timeout: 5000 });
    assert.equal(fs.readFileSync(project, 'utf8'), before, 'nothing written');
  });

  await test('hook editor: a loaded group whose matcher is no valid pattern is flagged, and the file still saves an unrelated edit', async () => {
    clean();
    const settings = {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash(*docker*)', hooks: [{ type: 'command', command: './scripts/docker-guard.sh' }] },
          { matcher: 'Edit', hooks: [{ type: 'command', command: './scripts/edit-guard.sh' }] },
        ],
      },
    };
    fs.mkdirSync(path.dirname(local), { recursive: true });
    fs.writeFileSync(local, `${JSON.stringify(settings, null, 2)}\n`);
    try {
      await openTab('agent-local');
      const warning = await browser.$('#hooks-bad-matchers');
      await warning.waitForExist({ timeout: 10000, timeoutMsg: 'the editor lists the group that never matches' });
      assert.match(await warning.getText(), /hooks\.PreToolUse\[0\]\.matcher/);
      assert.match(await warning.getText(), /at position 5/);
      const group = await browser.$('[data-testid="hook-group"][data-matcher="Bash(*docker*)"]');
      assert.equal(await group.getAttribute('data-bad-matcher'), 'true');
      assert.match(await group.$('[data-testid="group-bad-matcher"]').getText(), /Never matches: not a valid pattern — Claude Code ignores this group/);
      assert.equal(await browser.$('[data-testid="hook-group"][data-matcher="Edit"]').getAttribute('data-bad-matcher'), 'false');
      await scrollTop();
      await shot(browser, 'hooks-bad-matcher');

      // An unrelated edit: delete the Edit group's hook, review, save.
      await browser.$('[data-testid="hook-group"][data-matcher="Edit"] [data-testid="handler-delete"]').click();
      await browser.waitUntil(async () => (await browser.$('#hooks-dirty').getAttribute('data-dirty')) === 'true', { timeout: 5000 });
      await browser.$('#hooks-review').click();
      await browser.$('#hooks-save').waitForExist({ timeout: 10000 });
      await browser.$('#hooks-save').click();
      await browser.waitUntil(async () => /Saved/.test(await browser.$('#hooks-status').getText()), { timeout: 10000, timeoutMsg: 'saved' });
      const after = JSON.parse(fs.readFileSync(local, 'utf8'));
      assert.deepEqual(after.hooks.PreToolUse, [settings.hooks.PreToolUse[0]], 'the flagged group is kept, the Edit hook is gone');
      await browser.waitUntil(async () => (await browser.$('#hooks-dirty').getAttribute('data-dirty')) === 'false', { timeout: 5000 });
    } finally {
      clean();
    }
  });

  await test('hook editor: the save bar stays in view after scrolling a long file', async () => {
    clean();
    const groups = Array.from({ length: 40 }, (_, i) => ({ matcher: `Tool${i}`, hooks: [{ type: 'command', command: `./scripts/check-${i}.sh`, timeout: 10 }] }));
    fs.mkdirSync(path.dirname(local), { recursive: true });
    fs.writeFileSync(local, `${JSON.stringify({ hooks: { PreToolUse: groups } }, null, 2)}\n`);
    try {
      await openTab('agent-local');
      await browser.$('[data-testid="hook-group"][data-matcher="Tool39"]').waitForExist({ timeout: 10000, timeoutMsg: 'the long file is shown' });
      // An edit at the top makes the file dirty; then scroll to the middle of the file.
      const timeout = await browser.$('[data-testid="hook-group"][data-matcher="Tool0"] [data-testid="handler-timeout"]');
      await timeout.setValue('20');
      await browser.waitUntil(async () => (await browser.$('#hooks-dirty').getAttribute('data-dirty')) === 'true', { timeout: 5000 });
      const where = await browser.execute(() => {
        const scroller = document.querySelector('.hooks-scroll');
        scroller.scrollTop = Math.round((scroller.scrollHeight - scroller.clientHeight) / 2);
        const pane = scroller.getBoundingClientRect();
        const button = document.getElementById('hooks-review').getBoundingClientRect();
        const hit = document.elementFromPoint(button.left + button.width / 2, button.top + button.height / 2);
        return {
          scrollHeight: scroller.scrollHeight,
          clientHeight: scroller.clientHeight,
          pane: { top: pane.top, bottom: pane.bottom },
          button: { top: button.top, bottom: button.bottom },
          innerHeight: window.innerHeight,
          hit: hit ? hit.id || hit.closest('#hooks-review')?.id || hit.tagName : null,
        };
      });
      assert.ok(where.scrollHeight > where.clientHeight * 2, `the file is long: ${JSON.stringify(where)}`);
      assert.ok(where.button.top >= where.pane.top && where.button.bottom <= where.pane.bottom + 1, `the save bar is inside the visible pane: ${JSON.stringify(where)}`);
      assert.ok(where.button.bottom <= where.innerHeight, `the save bar is on screen: ${JSON.stringify(where)}`);
      assert.equal(where.hit, 'hooks-review', `nothing covers "Review and save": ${JSON.stringify(where)}`);
      assert.equal(await browser.$('#hooks-review').isClickable(), true);
      await shot(browser, 'hooks-save-bar');
      await browser.$('#hooks-discard').click();
      await browser.waitUntil(async () => (await browser.$('#hooks-dirty').getAttribute('data-dirty')) === 'false', { timeout: 5000 });
    } finally {
      clean();
    }
  });

  await test('hook editor: Move to… writes only after a review of both files and a confirmation', async () => {
    clean();
    const before = fs.readFileSync(project, 'utf8');
    try {
      await openTab('agent-project');
      await browser.waitUntil(async () => !(await browser.$('[data-testid="hook-group"][data-matcher="Tool0"]').isExisting()), { timeout: 10000 });
      const handler = await browser.$(`[data-testid="hook-handler"][data-command="${GUARD}"]`);
      await handler.waitForExist({ timeout: 10000 });
      await handler.$('[data-testid="handler-move"]').click();
      const dialog = await browser.$('#hooks-move-dialog');
      await dialog.waitForExist({ timeout: 5000 });
      // Arrow keys in the list of files only choose; nothing is written.
      await browser.keys('ArrowDown');
      await browser.keys('ArrowDown');
      await browser.pause(400);
      assert.equal(fs.readFileSync(project, 'utf8'), before, 'an arrow key moves nothing');
      assert.equal(fs.existsSync(local), false);
      await browser.$('[data-testid="move-target"][data-kind="agent"][data-scope="local"]').click();
      await browser.$('#hooks-move-review').click();
      await browser.waitUntil(async () => (await dialog.getAttribute('data-step')) === 'review', { timeout: 10000, timeoutMsg: 'the review of both files' });
      const from = await browser.$('[data-testid="move-from"]');
      const to = await browser.$('[data-testid="move-to"]');
      assert.equal(await from.getAttribute('data-path'), project);
      assert.equal(await to.getAttribute('data-path'), local);
      const removed = await browser.execute(() => [...document.querySelectorAll('[data-testid="move-from"] .diff-del')].map((l) => l.textContent));
      const added = await browser.execute(() => [...document.querySelectorAll('[data-testid="move-to"] .diff-add')].map((l) => l.textContent));
      assert.ok(removed.some((t) => t.includes(GUARD)), `the source loses the hook: ${removed.join('\n')}`);
      assert.ok(added.some((t) => t.includes(GUARD)), `the destination gets it: ${added.join('\n')}`);
      assert.equal(fs.readFileSync(project, 'utf8'), before, 'nothing written before Move');
      assert.equal(fs.existsSync(local), false, 'nothing created before Move');
      await browser.execute(() => {
        document.getElementById('hooks-move-dialog').scrollTop = 0;
      });
      await shot(browser, 'hooks-move-review');

      await browser.$('#hooks-move-confirm').click();
      await browser
        .waitUntil(async () => /Moved PreToolUse hook/.test(await browser.$('#hooks-status').getText()), { timeout: 10000 })
        .catch(async () => {
          const error = (await dialog.isExisting()) ? await browser.$('#hooks-move-error').getText() : '(the dialog closed)';
          throw new Error(`not moved: ${error}; status: ${await browser.$('#hooks-status').getText()}`);
        });
      assert.equal(await dialog.isExisting(), false, 'the dialog closed');
      assert.ok(!fs.readFileSync(project, 'utf8').includes(GUARD), 'the source lost the hook');
      const moved = JSON.parse(fs.readFileSync(local, 'utf8'));
      assert.deepEqual(moved.hooks.PreToolUse, [{ matcher: 'Bash', hooks: [{ type: 'command', command: GUARD, timeout: 30 }] }]);
    } finally {
      fs.writeFileSync(project, before);
      clean();
    }
    await browser.$(`[data-testid="hook-handler"][data-command="${GUARD}"]`).waitForExist({ timeout: 10000, timeoutMsg: 'the editor shows the file as it was put back' });
  });
}
