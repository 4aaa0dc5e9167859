// The other agents' hooks files in the Hooks screen: the user's Codex CLI
// ~/.codex/hooks.json and a project's Cursor .cursor/hooks.json each get a
// tab after hookd's, with their hooks (the agent's event beside Claude
// Code's, matcher, command, timeout), hookd's own entry marked, and the
// entry Cursor would drop named with its JSON path. Then a hook is added to
// the Codex CLI file through the review dialog (the file on disk gains only
// the new group's bytes) and removed again (the file is back byte for
// byte). The same in Codex CLI's ~/.codex/config.toml, whose [hooks] have
// a tab of their own: a hook added in Codex's documented TOML shape, every
// other line (comments, the model, [hooks.state]) kept, and removed again.
// Last, a hook of the Cursor file is disabled (taken out of the file, kept
// by hookd, listed greyed) and enabled again: the file is back byte for byte.
// In a repository of its own, so the other specs' files are untouched. See
// run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, makeRepo }) {
  const repo = makeRepo('agent-files');
  const home = process.env.HOME;
  const codexFile = path.join(process.env.CODEX_HOME || path.join(home, '.codex'), 'hooks.json');
  const cursorFile = path.join(repo, '.cursor', 'hooks.json');

  await test('each agent file is a tab of its own with its hooks and what its agent would drop', async () => {
    // The user's Codex CLI file: a guard of the user's and hookd's own entry
    // (kept beside whatever another spec connected there).
    const existing = fs.existsSync(codexFile) ? JSON.parse(fs.readFileSync(codexFile, 'utf8')) : {};
    const codex = {
      ...existing,
      hooks: {
        ...(existing.hooks ?? {}),
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/no-rm-rf.sh', timeout: 5 }] },
          { matcher: '*', hooks: [{ type: 'command', command: 'hookd-emit --agent codex PreToolUse', timeout: 10 }] },
        ],
      },
    };
    fs.mkdirSync(path.dirname(codexFile), { recursive: true });
    fs.writeFileSync(codexFile, `${JSON.stringify(codex, null, 2)}\n`);
    // The project's Cursor file: one entry fine, one without a command.
    fs.mkdirSync(path.dirname(cursorFile), { recursive: true });
    fs.writeFileSync(
      cursorFile,
      `${JSON.stringify({ version: 1, hooks: { beforeSubmitPrompt: [{ command: './audit-prompt.sh', timeout: 3 }], afterFileEdit: [{ command: 'cargo fmt --all' }], stop: [{ timeout: 30 }] } }, null, 2)}\n`,
    );

    await browser.execute((hash) => { window.location.hash = hash; }, `#/hooks?project=${repo}&tab=agent-project`);
    await browser.waitUntil(async () => (await browser.$$('.hooks-agent-tab').length) >= 2, {
      timeout: 15000,
      timeoutMsg: 'the Codex CLI and Cursor files get tabs',
    });
    const tabs = async () =>
      browser.execute(() =>
        [...document.querySelectorAll('#hooks-tabs > *, #hooks-agent-tabs > *')]
          .map((e) => e.dataset.agentFile ? `agent:${e.getAttribute('aria-label').replace(/ \d+$/, '')}|${e.getAttribute('title')}` : e.dataset.tab ?? (e.classList.contains('hooks-tab-group') ? `group:${e.textContent}` : null))
          .filter(Boolean),
      );
    const order = await tabs();
    const codexTab = order.indexOf(`agent:Codex CLI · Global|${codexFile}`);
    const cursorTab = order.indexOf(`agent:Cursor · Project|${cursorFile}`);
    assert.ok(codexTab >= 0 && cursorTab > codexTab, JSON.stringify(order));
    assert.ok(order.indexOf('managed-local') < codexTab && cursorTab < order.indexOf('effective'), `after hookd's tabs, before Effective: ${JSON.stringify(order)}`);
    assert.ok(order.includes('group:Codex CLI') && order.includes('group:Cursor'), JSON.stringify(order));
    assert.match(
      await browser.execute(() => document.querySelector('.hooks-agent-tab[data-agent-file="cursor-project"]')?.textContent ?? ''),
      /Project\s*3\s*⚠/,
      'the Cursor tab counts its 3 hooks and marks its problem',
    );

    // Codex CLI's file: both hooks, hookd's own marked.
    await browser.$('.hooks-agent-tab[data-agent-file="codex-global"]').click();
    await browser.waitUntil(async () => (await browser.$('#hooks-agent-file-path').isExisting()) && (await browser.$('#hooks-agent-file-path').getText()) === codexFile, {
      timeout: 10000,
      timeoutMsg: 'the Codex CLI tab shows its file',
    });
    assert.match(await browser.execute(() => window.location.hash), /agent_file=codex-global/);
    const rows = async () =>
      browser.execute(() =>
        [...document.querySelectorAll('[data-testid="agent-hook"]')].map((r) => [
          r.dataset.event,
          r.dataset.claudeEvent,
          r.cells[2].textContent,
          r.querySelector('[data-testid="agent-hook-command"]').textContent,
          r.cells[4].textContent,
          r.dataset.hookd,
        ]),
      );
    const codexRows = (await rows()).filter(([event]) => event === 'PreToolUse');
    assert.deepEqual(codexRows, [
      ['PreToolUse', 'PreToolUse', 'Bash', './scripts/no-rm-rf.sh', '5 s', 'false'],
      ['PreToolUse', 'PreToolUse', '*', 'hookd-emit --agent codex PreToolUserecords for hookd', '10 s', 'true'],
    ]);
    assert.match(await browser.$('#hooks-agent-file-edit').getText(), /Add, edit, disable or remove a hook here.*hookd connect --agent codex.*hookd hooks convert --to codex --write/);
    assert.ok(!(await browser.$('#hooks-agent-file-errors').isExisting()), 'a file Codex CLI reads whole has no errors');

    // Cursor's file: its events beside Claude Code's, and the entry it drops.
    await browser.$('.hooks-agent-tab[data-agent-file="cursor-project"]').click();
    await browser.waitUntil(async () => (await browser.$('#hooks-agent-file-path').getText()) === cursorFile, {
      timeout: 10000,
      timeoutMsg: 'the Cursor tab shows its file',
    });
    const cursorRows = await rows();
    assert.deepEqual(cursorRows.slice(0, 2), [
      ['beforeSubmitPrompt', 'UserPromptSubmit', '', './audit-prompt.sh', '3 s', 'false'],
      ['afterFileEdit', '', '', 'cargo fmt --all', '', 'false'],
    ]);
    const [stopEvent, stopClaude, , stopCommand, stopTimeout] = cursorRows[2];
    assert.deepEqual([stopEvent, stopClaude, stopTimeout], ['stop', 'Stop', '30 s']);
    assert.match(stopCommand, /^\(no command\)⚠ \S/, 'the broken entry says what is wrong in its row');
    assert.equal(await browser.$$('tr.hooks-agent-row-error').length, 1);
    const errors = await browser.$('#hooks-agent-file-errors');
    assert.ok(await errors.isDisplayed(), 'the file\u2019s errors are shown at the top');
    const errorText = await errors.getText();
    assert.match(errorText, /Cursor would drop this file or these hooks/);
    assert.match(errorText, /hooks\.stop\[0\]/);
    // The table fits its panel: no sideways scroll, no button cut off (at
    // the default 1100 px, and at 800×600 with narrower columns).
    const fits = async (where) => {
      const m = await browser.execute(() => {
        const wrap = document.querySelector('#hooks-agent-file .hooks-table-wrap');
        const box = wrap.getBoundingClientRect();
        const cut = [...wrap.querySelectorAll('button')]
          .filter((b) => { const r = b.getBoundingClientRect(); return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.width < 1; })
          .map((b) => b.getAttribute('aria-label'));
        return { scroll: wrap.scrollWidth, client: wrap.clientWidth, cut, buttons: wrap.querySelectorAll('button').length };
      });
      assert.ok(m.scroll <= m.client, `${where}: the table scrolls sideways (${m.scroll} > ${m.client})`);
      assert.deepEqual(m.cut, [], `${where}: buttons cut off`);
      assert.equal(m.buttons, 14, `${where}: Edit, Disable, up, down and Remove on two rows, all but Edit on the third`);
    };
    assert.equal((await browser.getWindowSize()).width, 1100);
    await fits('1100 px');
    await shot(browser, 'hooks-agent-files');
    const original = await browser.getWindowSize();
    let sized = false;
    try {
      await browser.setWindowSize(800, 600);
      await browser.waitUntil(async () => (await browser.execute(() => window.innerWidth)) <= 800, { timeout: 5000 });
      sized = true;
    } catch (err) {
      console.log(`e2e: cannot resize the window (${err.message.split('\n')[0]}); 800×600 not measured`);
    }
    try {
      if (sized) {
        await fits('800×600');
        await shot(browser, 'hooks-agent-files-800');
      }
    } finally {
      if (sized) await browser.setWindowSize(original.width, original.height);
    }

    // Keyboard: from Cursor's tab, ArrowLeft goes to Codex CLI's.
    await browser.execute(() => document.querySelector('.hooks-agent-tab[data-agent-file="cursor-project"]').focus());
    await browser.keys(['ArrowLeft']);
    await browser.waitUntil(async () => /agent_file=codex-global/.test(await browser.execute(() => window.location.hash)), {
      timeout: 5000,
      timeoutMsg: 'ArrowLeft moves to the Codex CLI tab',
    });

    // Back to Claude Code's Project tab: the editor again.
    await browser.$('#hooks-tab-agent-project').click();
    await browser.$('#hooks-file-path').waitForExist({ timeout: 10000 });
    assert.ok(!(await browser.$('#hooks-agent-file').isExisting()));
    assert.doesNotMatch(await browser.execute(() => window.location.hash), /agent_file=/);
  });

  await test('a hook is added to the Codex CLI file after a review of its diff, changed in place, and removed again byte for byte', async () => {
    const before = fs.readFileSync(codexFile, 'utf8');
    await browser.execute((hash) => { window.location.hash = hash; }, `#/hooks?project=${repo}&tab=agent-project&agent_file=codex-global`);
    await browser.$('#hooks-agent-add').waitForClickable({ timeout: 10000 });
    // hookd's own entry has no Remove: hookd disconnect removes it.
    assert.equal(await browser.execute(() => document.querySelector('[data-testid="agent-hook"][data-hookd="true"] [data-testid="agent-hook-remove"]') === null), true);
    await browser.$('#hooks-agent-add').click();
    await browser.waitUntil(async () => (await browser.$$('#agent-hook-event option').length) > 5, { timeout: 10000, timeoutMsg: 'the Codex CLI events fill the form' });
    const events = await browser.execute(() => [...document.querySelectorAll('#agent-hook-event option')].map((o) => o.value));
    assert.ok(events.includes('PermissionRequest') && events.includes('Interrupt') && !events.includes('BeforeTool'), `Codex CLI's own events: ${events}`);
    assert.equal(await browser.execute(() => document.querySelector('#agent-hook-timeout-field label').textContent), 'Timeout (seconds)');
    // A matcher only on the tool events.
    await browser.$('#agent-hook-event').selectByAttribute('value', 'Stop');
    assert.equal(await browser.$('#agent-hook-matcher').isEnabled(), false, 'Stop takes no matcher');
    await browser.$('#agent-hook-event').selectByAttribute('value', 'PreToolUse');
    assert.equal(await browser.$('#agent-hook-matcher').isEnabled(), true);
    await browser.$('#agent-hook-matcher').setValue('apply_patch');
    await browser.$('#agent-hook-command').setValue('./scripts/check-edit.sh');
    await browser.$('#agent-hook-timeout').setValue('30');
    await browser.$('#agent-hook-review').click();
    await browser.waitUntil(async () => browser.$('#agent-hook-apply').isEnabled(), { timeout: 10000, timeoutMsg: 'the change is previewed' });
    const diff = await browser.$('#agent-hook-dialog [data-testid="hooks-diff"]').getText();
    assert.match(diff, /check-edit\.sh/);
    assert.match(await browser.$('#agent-hook-notes').getText(), /trust it/, 'the Codex CLI trust note');
    assert.equal(fs.readFileSync(codexFile, 'utf8'), before, 'nothing written before Apply');
    await shot(browser, 'hooks-agent-edit');
    await browser.$('#agent-hook-apply').click();
    await browser.waitUntil(async () => (await browser.$('#hooks-agent-file-done').isExisting()) && /Added a PreToolUse hook/.test(await browser.$('#hooks-agent-file-done').getText()), {
      timeout: 10000,
      timeoutMsg: 'the tab says the hook was added',
    });
    assert.match(await browser.$('#hooks-agent-file-done').getText(), /open \/hooks in Codex/, 'Codex runs it only once trusted');

    // On disk: the new group after the event's groups; every other byte as it was.
    const after = fs.readFileSync(codexFile, 'utf8');
    const groups = JSON.parse(after).hooks.PreToolUse;
    assert.deepEqual(groups.at(-1), { matcher: 'apply_patch', hooks: [{ type: 'command', command: './scripts/check-edit.sh', timeout: 30 }] });
    assert.equal(groups.length, JSON.parse(before).hooks.PreToolUse.length + 1);
    let prefix = 0;
    while (prefix < before.length && before[prefix] === after[prefix]) prefix++;
    let suffix = 0;
    while (suffix < before.length - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
    assert.equal(prefix + suffix, before.length, `only bytes inserted, none changed: ${JSON.stringify(after.slice(prefix, after.length - suffix))}`);
    assert.ok(prefix > before.indexOf('hookd-emit --agent codex PreToolUse'), 'inserted after the event’s groups');

    // The focus is on the new row, never on <body>.
    await browser.waitUntil(
      async () => browser.execute(() => document.activeElement?.dataset?.event === 'PreToolUse' && document.activeElement.querySelector('[data-testid="agent-hook-command"]')?.getAttribute('title') === './scripts/check-edit.sh'),
      { timeout: 5000, timeoutMsg: 'the focus lands on the added row' },
    );

    // Change it where it stands: the form comes filled in, the event fixed;
    // only the timeout's value changes on disk.
    const added = after;
    await browser.execute(() => document.activeElement.querySelector('[data-testid="agent-hook-change"]').click());
    await browser.waitUntil(async () => (await browser.$('#agent-hook-command').getValue()) === './scripts/check-edit.sh', { timeout: 10000, timeoutMsg: 'the form is filled in with the hook' });
    assert.equal(await browser.$('#agent-hook-event').isEnabled(), false, 'a change keeps the event');
    assert.equal(await browser.$('#agent-hook-matcher').getValue(), 'apply_patch');
    assert.equal(await browser.$('#agent-hook-timeout').getValue(), '30');
    await browser.$('#agent-hook-timeout').setValue('45');
    await browser.$('#agent-hook-review').click();
    await browser.waitUntil(async () => browser.$('#agent-hook-apply').isEnabled(), { timeout: 10000, timeoutMsg: 'the change is previewed' });
    assert.equal(await browser.$('#agent-hook-apply').getText(), 'Change hook');
    await browser.$('#agent-hook-apply').click();
    await browser.waitUntil(async () => /Changed a PreToolUse hook/.test(await browser.$('#hooks-agent-file-done').getText()), { timeout: 10000, timeoutMsg: 'the tab says the hook was changed' });
    const at = added.lastIndexOf('"timeout": 30');
    assert.equal(fs.readFileSync(codexFile, 'utf8'), `${added.slice(0, at)}"timeout": 45${added.slice(at + '"timeout": 30'.length)}`, 'only the timeout changed');
    await browser.waitUntil(
      async () => browser.execute(() => document.activeElement?.querySelector('[data-testid="agent-hook-command"]')?.getAttribute('title') === './scripts/check-edit.sh'),
      { timeout: 5000, timeoutMsg: 'the focus lands on the changed row' },
    );

    // Remove it again: the file is back byte for byte.
    await browser.execute(() => document.activeElement.querySelector('[data-testid="agent-hook-remove"]').click());
    await browser.waitUntil(async () => browser.$('#agent-hook-apply').isEnabled(), { timeout: 10000, timeoutMsg: 'the removal is previewed' });
    assert.match(await browser.$('#agent-hook-dialog [data-testid="hooks-diff"]').getText(), /check-edit\.sh/);
    await browser.$('#agent-hook-apply').click();
    await browser.waitUntil(async () => /Removed a PreToolUse hook/.test(await browser.$('#hooks-agent-file-done').getText()), { timeout: 10000, timeoutMsg: 'the tab says the hook was removed' });
    assert.equal(fs.readFileSync(codexFile, 'utf8'), before, 'back byte for byte');
    await browser.waitUntil(async () => browser.execute(() => document.activeElement !== document.body && document.activeElement !== null), { timeout: 5000, timeoutMsg: 'the focus is not lost to <body>' });
  });

  await test('a hook is added to Codex CLI\u2019s config.toml in its documented shape and removed again byte for byte', async () => {
    const configFile = path.join(path.dirname(codexFile), 'config.toml');
    const kept = fs.existsSync(configFile) ? fs.readFileSync(configFile) : null;
    const text = [
      '# my Codex configuration',
      'model = "o3"',
      '',
      '[[hooks.Stop]]',
      'hooks = [{ type = "command", command = "./done.sh" }]',
      '',
      '[hooks.state."/nowhere/hooks.json:stop:0:0"]',
      'enabled = false',
      '',
    ].join('\n');
    fs.writeFileSync(configFile, text);
    try {
      // The Hooks screen reads the agents' files when it opens: leave it and come back.
      await browser.execute(() => { window.location.hash = '#/settings'; });
      await browser.waitUntil(async () => (await browser.$$('.hooks-agent-tab').length) === 0, { timeout: 10000, timeoutMsg: 'the Hooks screen is left' });
      await browser.execute((hash) => { window.location.hash = hash; }, `#/hooks?project=${repo}&tab=agent-project&agent_file=codex-global-config.toml`);
      await browser.waitUntil(async () => (await browser.$('#hooks-agent-file-path').isExisting()) && (await browser.$('#hooks-agent-file-path').getText()) === configFile, {
        timeout: 10000,
        timeoutMsg: 'the config.toml tab is shown',
      });
      assert.match(await browser.$('#hooks-agent-file-edit').getText(), /every other line of config\.toml/);
      await browser.$('#hooks-agent-add').waitForClickable({ timeout: 10000 });
      await browser.$('#hooks-agent-add').click();
      await browser.waitUntil(async () => (await browser.$$('#agent-hook-event option').length) > 5, { timeout: 10000, timeoutMsg: 'the Codex CLI events fill the form' });
      await browser.$('#agent-hook-event').selectByAttribute('value', 'PreToolUse');
      await browser.$('#agent-hook-matcher').setValue('^Bash$');
      await browser.$('#agent-hook-command').setValue('./scripts/guard.sh');
      await browser.$('#agent-hook-timeout').setValue('30');
      await browser.$('#agent-hook-review').click();
      await browser.waitUntil(async () => browser.$('#agent-hook-apply').isEnabled(), { timeout: 10000, timeoutMsg: 'the change is previewed' });
      assert.match(await browser.$('#agent-hook-dialog [data-testid="hooks-diff"]').getText(), /\[\[hooks\.PreToolUse\.hooks\]\]/);
      assert.equal(fs.readFileSync(configFile, 'utf8'), text, 'nothing written before Apply');
      await browser.$('#agent-hook-apply').click();
      await browser.waitUntil(async () => (await browser.$('#hooks-agent-file-done').isExisting()) && /Added a PreToolUse hook/.test(await browser.$('#hooks-agent-file-done').getText()), {
        timeout: 10000,
        timeoutMsg: 'the tab says the hook was added',
      });
      const added = '\n[[hooks.PreToolUse]]\nmatcher = "^Bash$"\n\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "./scripts/guard.sh"\ntimeout = 30\n';
      const stop = 'hooks = [{ type = "command", command = "./done.sh" }]\n';
      assert.equal(fs.readFileSync(configFile, 'utf8'), text.replace(stop, `${stop}${added}`), 'only the new hook\u2019s lines, before [hooks.state]');

      await browser.waitUntil(
        async () => browser.execute(() => document.activeElement?.querySelector('[data-testid="agent-hook-command"]')?.getAttribute('title') === './scripts/guard.sh'),
        { timeout: 5000, timeoutMsg: 'the focus lands on the added row' },
      );
      await browser.execute(() => document.activeElement.querySelector('[data-testid="agent-hook-remove"]').click());
      await browser.waitUntil(async () => browser.$('#agent-hook-apply').isEnabled(), { timeout: 10000, timeoutMsg: 'the removal is previewed' });
      await browser.$('#agent-hook-apply').click();
      await browser.waitUntil(async () => /Removed a PreToolUse hook/.test(await browser.$('#hooks-agent-file-done').getText()), { timeout: 10000, timeoutMsg: 'the tab says the hook was removed' });
      assert.equal(fs.readFileSync(configFile, 'utf8'), text, 'back byte for byte');
    } finally {
      if (kept === null) fs.rmSync(configFile, { force: true });
      else fs.writeFileSync(configFile, kept);
    }
  });

  await test('a hook of the Cursor file is disabled and enabled again through its row: the file is back byte for byte', async () => {
    const before = fs.readFileSync(cursorFile, 'utf8');
    await browser.execute((hash) => { window.location.hash = hash; }, `#/hooks?project=${repo}&tab=agent-project&agent_file=cursor-project`);
    const disable = '[data-testid="agent-hook"][data-event="afterFileEdit"] [data-testid="agent-hook-disable"]';
    await browser.$(disable).waitForClickable({ timeout: 10000 });
    await browser.$(disable).click();
    await browser.waitUntil(async () => (await browser.$$('[data-testid="agent-hook-disabled"]').length) === 1, { timeout: 10000 }).catch(async (err) => {
      const banner = await browser.execute(() => document.getElementById('error-banner-message')?.textContent ?? '');
      throw new Error(`the disabled hook is not listed greyed (${banner || err.message})`);
    });
    const off = fs.readFileSync(cursorFile, 'utf8');
    assert.equal(JSON.parse(off).hooks.afterFileEdit, undefined, 'taken out of the file');
    assert.ok(off.includes('./audit-prompt.sh'), 'the other hooks stay');
    assert.match(await browser.$('#hooks-agent-file-done').getText(), /Disabled the afterFileEdit hook.*hookd keeps it/);
    const row = await browser.$('[data-testid="agent-hook-disabled"]');
    assert.equal(await row.getAttribute('data-event'), 'afterFileEdit');
    assert.match(await row.getText(), /cargo fmt --all\s*disabled/);
    assert.equal(await browser.execute(() => document.activeElement?.dataset?.testid), 'agent-hook-disabled', 'the focus is on its row');
    const wrap = await browser.execute(() => { const w = document.querySelector('#hooks-agent-file .hooks-table-wrap'); return [w.scrollWidth, w.clientWidth]; });
    assert.ok(wrap[0] <= wrap[1], `no sideways scroll with a disabled row: ${wrap}`);
    await shot(browser, 'hooks-agent-disabled');
    await browser.$('[data-testid="agent-hook-enable"]').click();
    await browser.waitUntil(async () => (await browser.$$('[data-testid="agent-hook-disabled"]').length) === 0, { timeout: 10000, timeoutMsg: 'the hook is enabled again' });
    assert.equal(fs.readFileSync(cursorFile, 'utf8'), before, 'back byte for byte');
    assert.match(await browser.$('#hooks-agent-file-done').getText(), /Enabled the afterFileEdit hook/);
  });

  await test('a hook of the Codex CLI file is moved down past hookd\u2019s entry and up again: only the two groups swap', async () => {
    const before = fs.readFileSync(codexFile, 'utf8');
    await browser.execute((hash) => { window.location.hash = hash; }, `#/hooks?project=${repo}&tab=agent-project&agent_file=codex-global`);
    const down = '[data-testid="agent-hook"][data-path="hooks.PreToolUse[0].hooks[0]"] [data-testid="agent-hook-down"]';
    await browser.$(down).waitForClickable({ timeout: 10000 });
    await browser.$(down).click();
    await browser.waitUntil(async () => (await browser.$('#hooks-agent-file-done').isExisting()) && /Moved the PreToolUse hook down/.test(await browser.$('#hooks-agent-file-done').getText()), { timeout: 10000, timeoutMsg: 'the tab says the hook moved' });
    const moved = fs.readFileSync(codexFile, 'utf8');
    assert.deepEqual(JSON.parse(moved).hooks.PreToolUse.map((g) => g.hooks[0].command), ['hookd-emit --agent codex PreToolUse', './scripts/no-rm-rf.sh']);
    await browser.waitUntil(async () => browser.execute(() => document.activeElement?.dataset?.path === 'hooks.PreToolUse[1].hooks[0]'), { timeout: 5000, timeoutMsg: 'the focus follows the moved row' });
    await browser.execute(() => document.activeElement.querySelector('[data-testid="agent-hook-up"]').click());
    await browser.waitUntil(async () => /Moved the PreToolUse hook up/.test(await browser.$('#hooks-agent-file-done').getText()), { timeout: 10000, timeoutMsg: 'the tab says the hook moved back' });
    assert.equal(fs.readFileSync(codexFile, 'utf8'), before, 'back byte for byte');
  });
}
