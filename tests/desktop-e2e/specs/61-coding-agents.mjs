// The timeline of several coding agents: a change Codex CLI made (through
// the real `hookd-emit --agent codex`) is named by its coding agent in the
// list, and the "Coding agent" filter keeps one coding agent's changes. In
// a repository of its own, so the other specs' counts are untouched. See
// run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, makeRepo, EMIT }) {
  const repo = makeRepo('agents');

  await test('a coding agent is named in the timeline and filtered by', async () => {
    const write = (agent, file) => {
      const payload = {
        session_id: `e2e-${agent}`,
        cwd: repo,
        hook_event_name: 'PostToolUse',
        tool_name: 'Write',
        tool_use_id: `toolu_${agent}_${file}`,
        tool_input: { file_path: path.join(repo, file), content: `${agent}\n` },
        tool_response: { success: true },
      };
      const out = spawnSync(EMIT, ['--agent', agent, 'PostToolUse'], { input: JSON.stringify(payload), env: { ...process.env, HOOKD_DEBUG: '1' } });
      assert.equal(out.status, 0, `hookd-emit --agent ${agent} failed: ${out.stderr}`);
      assert.match(String(out.stderr), /delivered/, `hookd-emit did not deliver: ${out.stderr}`);
    };
    write('claude', 'by-claude.md');
    write('codex', 'by-codex.md');
    write('codex', 'by-codex-too.md');

    await browser.execute((hash) => { window.location.hash = hash; }, `#/timeline?repo=${repo}`);
    await browser.waitUntil(async () => (await browser.$('#timeline-count').getText()) === '3 mutations', {
      timeout: 15000,
      timeoutMsg: 'the three changes of the two coding agents did not arrive',
    });
    const agents = async () =>
      browser.execute(() =>
        [...document.querySelectorAll('[data-testid="timeline-row"]:not([hidden])')].map((r) => [
          r.querySelector('.col-file').textContent,
          r.querySelector('.col-agent').textContent,
          r.querySelector('.col-agent').dataset.agentKind ?? null,
        ]).sort(),
      );
    const shown = await agents();
    assert.equal(shown.length, 3, JSON.stringify(shown));
    assert.deepEqual(shown.map(([file, , kind]) => [file, kind]), [
      ['by-claude.md', null],
      ['by-codex-too.md', 'codex'],
      ['by-codex.md', 'codex'],
    ]);
    assert.match(shown[1][1], /^Codex · /, 'the coding agent comes before the agent');
    assert.doesNotMatch(shown[0][1], /Claude/, "Claude Code's rows stay as they were");

    if ((await browser.$('#filter-toggle').getAttribute('aria-expanded')) !== 'true') await browser.$('#filter-toggle').click();
    await browser.$('#filter-agent_kind').setValue('codex');
    await browser.$('#filter-apply').click();
    await browser.waitUntil(async () => (await browser.$('#timeline-count').getText()) === '2 mutations', {
      timeout: 10000,
      timeoutMsg: 'the coding agent filter did not keep the 2 changes of Codex CLI',
    });
    assert.match(await browser.execute(() => window.location.hash), /agent_kind=codex/);
    assert.deepEqual((await agents()).map(([file]) => file), ['by-codex-too.md', 'by-codex.md']);
    await browser.waitUntil(async () => (await browser.$('#timeline-chart').getAttribute('data-total')) === '2', {
      timeout: 5000,
      timeoutMsg: 'the chart does not count the 2 changes of Codex CLI',
    });
    await shot(browser, 'timeline-coding-agent');
    // Folded, the bar's line says which coding agent is shown.
    await browser.$('#filter-toggle').click();
    const summary = await browser.$('[data-testid="filter-summary"]');
    await summary.waitForExist({ timeout: 5000 });
    assert.match(await browser.execute((e) => e.textContent, summary), /Coding agent codex/);
    await browser.$('#filter-toggle').click();
    await browser.$('#filter-agent_kind').waitForDisplayed({ timeout: 5000 });

    // A name hookd does not know: said, and nothing applied.
    await browser.$('#filter-agent_kind').setValue('vim');
    await browser.$('#filter-apply').click();
    const error = await browser.$('#filter-error');
    await error.waitForDisplayed({ timeout: 5000 });
    assert.match(await error.getText(), /Coding agent: "vim" is not one of claude, codex/);
    assert.match(await browser.execute(() => window.location.hash), /agent_kind=codex/);
    await browser.$('#filter-clear').click();
    await browser.waitUntil(async () => (await browser.$('#timeline-count').getText()) === '3 mutations', {
      timeout: 10000,
      timeoutMsg: 'Clear did not bring back every coding agent',
    });

    // All activity names the coding agent of each event too.
    await browser.execute((hash) => { window.location.hash = hash; }, `#/timeline?repo=${repo}&agent_kind=codex&mode=activity`);
    await browser.waitUntil(
      async () => (await browser.$$('[data-testid="activity-row"]:not([hidden])').length) === 2,
      { timeout: 10000, timeoutMsg: 'the 2 events of Codex CLI are listed in All activity' },
    );
    const named = await browser.execute(() =>
      [...document.querySelectorAll('[data-testid="activity-row"]:not([hidden]) .col-agent')].map((c) => [c.textContent, c.dataset.agentKind]),
    );
    assert.ok(named.every(([text, kind]) => text.startsWith('Codex · ') && kind === 'codex'), JSON.stringify(named));

    // The Projects screen says which coding agents called hookd here.
    await browser.execute(() => { window.location.hash = '#/projects'; });
    const kinds = async () =>
      browser.execute((root) => document.querySelector(`[data-testid="project"][data-root="${root}"] [data-testid="project-agents"]`)?.textContent ?? null, repo);
    await browser.waitUntil(async () => (await kinds()) !== null, { timeout: 10000, timeoutMsg: 'the project lists its coding agents' });
    assert.equal(await kinds(), 'Claude Code · Codex CLI');
  });

  await test('Copy to… shows a hook as another agent\'s entry, with what degrades, and writes nothing', async () => {
    const settings = path.join(repo, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    const text = `${JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash|Read', hooks: [{ type: 'command', command: './guard.sh', timeout: 5, onFailure: 'block' }] }] } }, null, 2)}\n`;
    fs.writeFileSync(settings, text);
    await browser.execute((hash) => { window.location.hash = hash; }, `#/hooks?project=${repo}&tab=agent-project`);
    const copy = await browser.$('[data-testid="hook-event"][data-event="PreToolUse"] [data-testid="handler-copy"]');
    await copy.waitForExist({ timeout: 10000, timeoutMsg: 'the hook has a Copy to… button' });
    await copy.click();
    const result = await browser.$('#copy-result');
    await browser.waitUntil(async () => (await result.getAttribute('data-agent')) === 'codex', { timeout: 10000, timeoutMsg: 'the Codex CLI entry is shown' });
    await (await browser.$('#copy-agent')).selectByAttribute('value', 'cursor');
    await browser.waitUntil(async () => (await result.getAttribute('data-agent')) === 'cursor', { timeout: 10000, timeoutMsg: 'the Cursor entry is shown' });
    const entry = JSON.parse(await browser.execute(() => document.getElementById('copy-text').textContent));
    assert.deepEqual(entry, { version: 1, hooks: { preToolUse: [{ command: './guard.sh', matcher: 'Shell|Read', timeout: 5, failClosed: true }] } });
    const check = await browser.execute(() => document.querySelector('[data-testid="copy-check"]').textContent);
    assert.match(check, /exit 2 with the reason on stderr blocks on Cursor's preToolUse too/);
    await shot(browser, 'hooks-copy');
    await browser.$('#copy-close').click();
    await browser.$('#copy-dialog').waitForExist({ reverse: true, timeout: 5000 });
    assert.equal(fs.readFileSync(settings, 'utf8'), text, 'Copy to… writes nothing');
  });
}
