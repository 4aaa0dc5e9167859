// The other agents' hooks files in the Hooks screen: the user's Codex CLI
// ~/.codex/hooks.json and a project's Cursor .cursor/hooks.json each get a
// read-only tab after hookd's, with their hooks (the agent's event beside
// Claude Code's, matcher, command, timeout), hookd's own entry marked, and
// the entry Cursor would drop named with its JSON path. In a repository of
// its own, so the other specs' files are untouched. See run.mjs for the
// context every spec receives.
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
          .map((e) => e.dataset.agentFile ? `agent:${e.getAttribute('aria-label')}|${e.getAttribute('title')}` : e.dataset.tab ?? (e.classList.contains('hooks-tab-group') ? `group:${e.textContent}` : null))
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
    assert.match(await browser.$('#hooks-agent-file-edit').getText(), /Read-only here.*hookd connect --agent codex.*hookd hooks convert --to codex --write/);
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
    await shot(browser, 'hooks-agent-files');

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
}
