// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentFileKey, agentFileLabel, agentFileTabLabel, editedWith, eventBreakable, formatTimeout, hasProblems, movedText, problemsAt, renderAgentFile, toggledText } from '../src/components/hooks-agent-file';
import { createErrorBanner } from '../src/components/error-banner';
import { setBackend } from '../src/lib/api';
import { formatHash, hooksHash, parseHash } from '../src/lib/route';
import type { AgentHook, AgentHookFile } from '../src/lib/types';
import { createStub } from '../src/stub';
import { createHooksView, forgetHookDrafts } from '../src/views/hooks';
import type { View } from '../src/views/view';

const hook = (over: Partial<AgentHook> = {}): AgentHook => ({
  event: 'BeforeTool',
  claude_event: 'PreToolUse',
  matcher: 'run_shell_command',
  handler_type: 'command',
  command: './guard.sh',
  timeout_secs: 5,
  hookd: false,
  name: null,
  json_path: 'hooks.BeforeTool[0].hooks[0]',
  ...over,
});

const file = (over: Partial<AgentHookFile> = {}): AgentHookFile => ({
  agent: 'gemini',
  label: 'Gemini CLI',
  scope: 'global',
  extension: null,
  path: '/home/dev/.gemini/settings.json',
  name: 'settings.json',
  error: null,
  hooks: [hook()],
  errors: [],
  warnings: [],
  timeout_note: 'Gemini CLI counts timeouts in milliseconds; they are shown here in seconds',
  disabled: [],
  version: 'v1',
  ...over,
});

describe('agent file labels and keys', () => {
  it('names a file by agent and scope, Copilot\u2019s also by file name', () => {
    expect(agentFileKey(file())).toBe('gemini-global');
    expect(agentFileTabLabel(file())).toBe('Global');
    expect(agentFileLabel(file({ agent: 'codex', label: 'Codex CLI' }))).toBe('Codex CLI · Global');
    const copilot = file({ agent: 'copilot', label: 'GitHub Copilot', scope: 'project', name: 'guard.json', path: '/src/app/.github/hooks/guard.json' });
    expect(agentFileKey(copilot)).toBe('copilot-project-guard.json');
    expect(agentFileTabLabel(copilot)).toBe('Project · guard.json');
    expect(agentFileLabel(copilot)).toBe('GitHub Copilot · Project · guard.json');
    expect(editedWith(copilot)).toContain('hookd connect --agent copilot');
  });

  it('shows an administrator’s file by name and offers no edit', () => {
    const admin = file({ agent: 'codex', label: 'Codex CLI', scope: 'policy', name: 'requirements.toml', path: '/etc/codex/requirements.toml', timeout_note: null });
    expect(agentFileKey(admin)).toBe('codex-policy-requirements.toml');
    expect(agentFileLabel(admin)).toBe('Codex CLI · Policy · requirements.toml');
    expect(editedWith(admin)).toContain('never writes it');
    const el = renderAgentFile(admin, { project: '/p', reload: () => Promise.resolve(), onError: () => {} });
    expect(el.querySelector('#hooks-agent-add')).toBeNull();
    expect(el.querySelector('.hooks-agent-remove')).toBeNull();
    expect(el.querySelector('.hooks-agent-change')).toBeNull();
    expect(el.querySelectorAll('[data-testid="agent-hook"]').length).toBe(1);
  });

  it('shows an extension’s hooks file under the extension’s name and offers no edit', () => {
    const ext = file({ extension: 'audit', name: 'hooks.json', path: '/home/dev/.gemini/extensions/audit/hooks/hooks.json' });
    expect(agentFileKey(ext)).toBe('gemini-extension-audit');
    expect(agentFileLabel(ext)).toBe('Gemini CLI · Extension · audit');
    expect(editedWith(ext)).toContain('never writes it');
    const el = renderAgentFile(ext, { project: '/p', reload: () => Promise.resolve(), onError: () => {} });
    expect(el.querySelector('#hooks-agent-add')).toBeNull();
    expect(el.querySelector('.hooks-agent-remove')).toBeNull();
  });

  it('lets an event name wrap between its words, and the row’s buttons wrap in their own box', () => {
    const parts = eventBreakable('beforeShellExecution');
    expect(parts.map((n) => n.nodeName)).toEqual(['#text', 'WBR', '#text', 'WBR', '#text']);
    expect(parts.map((n) => n.textContent).join('')).toBe('beforeShellExecution');
    expect(eventBreakable('stop').length).toBe(1);
    const el = renderAgentFile(file({ hooks: [hook({ event: 'BeforeToolSelection', claude_event: null })] }), { project: '/p', reload: () => Promise.resolve(), onError: () => {} });
    const row = el.querySelector('[data-testid="agent-hook"]') as HTMLTableRowElement;
    expect(row.cells[0]!.querySelectorAll('wbr').length).toBe(2);
    expect(row.cells[0]!.textContent).toBe('BeforeToolSelection');
    const buttons = row.querySelector('.hooks-agent-actions > .hooks-agent-buttons');
    expect([...buttons!.children].map((b) => b.textContent)).toEqual(['Edit', 'Disable', '↑↓', 'Remove']);
    // Alone in its event: nowhere to move.
    expect([...buttons!.querySelectorAll<HTMLButtonElement>('.hooks-agent-move')].map((b) => b.disabled)).toEqual([true, true]);
  });

  it('shows timeouts in seconds and none as empty', () => {
    expect(formatTimeout(null)).toBe('');
    expect(formatTimeout(5)).toBe('5 s');
    expect(formatTimeout(0.25)).toBe('0.25 s');
    expect(formatTimeout(1 / 3)).toBe('0.333 s');
  });

  it('finds the findings of one hook by its JSON path, not its neighbours\u2019', () => {
    const x = hook({ json_path: 'hooks.stop[1]' });
    const problems = [
      { path: 'hooks.stop[1].command', message: 'missing' },
      { path: 'hooks.stop[10].command', message: 'other hook' },
      { path: 'hooks.stop[1]', message: 'itself' },
      { path: 'version', message: 'file' },
    ];
    expect(problemsAt(x, problems).map((p) => p.message)).toEqual(['missing', 'itself']);
    expect(hasProblems(file())).toBe(false);
    expect(hasProblems(file({ errors: problems }))).toBe(true);
    expect(hasProblems(file({ error: 'not valid JSON', hooks: [] }))).toBe(true);
  });

  it('renders the hooks, hookd\u2019s own entry, the findings and the timeout note', () => {
    const el = renderAgentFile(
      file({
        hooks: [hook(), hook({ command: 'hookd-emit --agent gemini BeforeTool', hookd: true, json_path: 'hooks.BeforeTool[1].hooks[0]', claude_event: null, event: 'BeforeModel' })],
        errors: [{ path: 'hooks.BeforeTool[0].hooks[0].timeout', message: 'expected a number' }],
        warnings: [{ path: 'hooks.Bogus', message: 'not a Gemini CLI event: it is skipped' }],
      }),
    );
    const rows = [...el.querySelectorAll<HTMLElement>('[data-testid=agent-hook]')];
    expect(rows.map((r) => [r.dataset.event, r.dataset.claudeEvent, r.dataset.hookd])).toEqual([
      ['BeforeTool', 'PreToolUse', 'false'],
      ['BeforeModel', '', 'true'],
    ]);
    expect(rows[0]!.querySelector('[data-testid=agent-hook-error]')!.textContent).toContain('expected a number');
    expect(rows[1]!.querySelector('[data-testid=agent-hook-hookd]')!.textContent).toBe('records for hookd');
    expect(rows[0]!.textContent).toContain('5 s');
    expect(el.querySelector('#hooks-agent-file-errors')!.textContent).toContain('hooks.BeforeTool[0].hooks[0].timeout');
    expect(el.querySelector('#hooks-agent-file-warnings')!.textContent).toContain('hooks.Bogus');
    expect(el.querySelector('#hooks-agent-file-timeouts')!.textContent).toContain('milliseconds');
    expect(el.querySelector('#hooks-agent-file-edit')!.textContent).toContain('Add, edit, disable or remove a hook here');
    // Without a project to edit in, no edit buttons.
    expect(el.querySelector('#hooks-agent-add')).toBeNull();
  });

  it('lists Codex CLI\u2019s config.toml hooks by name, with Add hook, Edit and Remove like the JSON files', () => {
    const toml = file({ agent: 'codex', label: 'Codex CLI', name: 'config.toml', path: '/h/.codex/config.toml', timeout_note: null });
    expect(agentFileKey(toml)).toBe('codex-global-config.toml');
    expect(agentFileTabLabel(toml)).toBe('Global · config.toml');
    expect(agentFileKey(file({ agent: 'codex', name: 'hooks.json' }))).toBe('codex-global');
    const el = renderAgentFile(toml, { project: '/p', reload: () => Promise.resolve(), onError: () => {} });
    expect(el.querySelector('#hooks-agent-add')).not.toBeNull();
    expect(el.querySelectorAll('[data-testid=agent-hook-change]')).toHaveLength(1);
    expect(el.querySelectorAll('[data-testid=agent-hook-remove]')).toHaveLength(1);
    // Up and down arrows as in the JSON files (the core moves config.toml's tables too).
    expect([...el.querySelectorAll<HTMLButtonElement>('.hooks-agent-move')].map((b) => b.dataset.testid)).toEqual(['agent-hook-up', 'agent-hook-down']);
    const says = el.querySelector('#hooks-agent-file-edit')!.textContent!;
    expect(says).toContain('every other line of config.toml');
    expect(says).not.toContain('does not edit');
    expect(el.querySelectorAll('[data-testid=agent-hook]')).toHaveLength(1);
    // Without the editing context (nothing to edit with) it only shows the file.
    expect(renderAgentFile(toml).querySelector('#hooks-agent-add')).toBeNull();
  });

  it('lists the hooks hookd keeps disabled greyed after the file’s, each with Enable, and no Disable on hookd’s own', () => {
    const el = renderAgentFile(
      file({
        hooks: [hook(), hook({ command: 'hookd-emit --agent gemini BeforeTool', hookd: true, json_path: 'hooks.BeforeTool[1].hooks[0]' })],
        disabled: [{ event: 'AfterTool', claude_event: 'PostToolUse', matcher: 'write_file', command: './after.sh', json_path: 'hooks.AfterTool[0].hooks[0]', disabled_at: '2026-11-29T09:00:00Z' }],
      }),
      { project: '/p', reload: () => Promise.resolve(), onError: () => {} },
    );
    const rows = [...el.querySelectorAll<HTMLTableRowElement>('#hooks-agent-table tbody tr')];
    expect(rows.map((r) => r.dataset.testid)).toEqual(['agent-hook', 'agent-hook', 'agent-hook-disabled']);
    const off = rows[2]!;
    expect(off.classList.contains('hooks-agent-row-disabled')).toBe(true);
    expect(off.dataset.path).toBe('hooks.AfterTool[0].hooks[0]');
    expect(off.querySelector('[data-testid=agent-hook-command]')!.textContent).toBe('./after.shdisabled');
    expect([...off.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Enable']);
    expect(rows[0]!.querySelector('[data-testid=agent-hook-disable]')).not.toBeNull();
    expect(rows[1]!.querySelector('[data-testid=agent-hook-disable]')).toBeNull();
    // A file whose hooks are all disabled still shows its table, not "No hooks".
    const empty = renderAgentFile(file({ hooks: [], disabled: [{ event: 'Stop', claude_event: 'Stop', matcher: null, command: './s.sh', json_path: 'hooks.Stop[0].hooks[0]', disabled_at: 'x' }] }));
    expect(empty.querySelector('#hooks-agent-file-empty')).toBeNull();
    expect(empty.querySelectorAll('[data-testid=agent-hook-disabled]')).toHaveLength(1);
    // Read only: listed, no Enable.
    expect(empty.querySelector('[data-testid=agent-hook-enable]')).toBeNull();
    expect(toggledText('stop', false, 'Cursor · Project')).toContain('hookd keeps it until you enable it');
  });

  it('shows why a file cannot be read instead of an empty table', () => {
    const el = renderAgentFile(file({ error: '/x/settings.json is not valid JSON: EOF', hooks: [] }));
    expect(el.querySelector('#hooks-agent-file-error')!.textContent).toContain('not valid JSON');
    expect(el.querySelector('#hooks-agent-table')).toBeNull();
    expect(el.querySelector('#hooks-agent-file-empty')).toBeNull();
  });
});

describe('agent file route', () => {
  it('keeps the agent file beside the tab, and leaves routes without one as they were', () => {
    expect(hooksHash('/src/app', 'agent-project', 'copilot-project-a b.json')).toBe('#/hooks?project=/src/app&tab=agent-project&agent_file=copilot-project-a%20b.json');
    expect(parseHash('#/hooks?project=/src/app&tab=effective&agent_file=codex-global')).toEqual({ view: 'hooks', project: '/src/app', tab: 'effective', agentFile: 'codex-global' });
    expect(parseHash('#/hooks?project=/src/app&agent_file=')).toEqual({ view: 'hooks', project: '/src/app', tab: 'agent-project' });
    const hash = hooksHash('/src/app', 'managed-global', 'cursor-project');
    expect(formatHash(parseHash(hash))).toBe(hash);
  });
});

describe('agent file tabs in the hooks view', () => {
  let view: View | null = null;
  afterEach(() => {
    forgetHookDrafts();
    view?.destroy();
    view = null;
    setBackend(null);
    document.body.replaceChildren();
  });

  it('adds one tab per agent file after hookd\u2019s and shows the chosen one', async () => {
    const stub = createStub({ rows: 5 });
    setBackend(stub);
    const root = '/home/dev/src/hookd';
    const route = parseHash(`#/hooks?project=${root}&tab=agent-project`);
    if (route.view !== 'hooks') throw new Error('not a hooks route');
    const errors = createErrorBanner();
    view = createHooksView({ errors, appInfo: Promise.resolve(null), navigate: (h) => view?.update(parseHash(h)) }, route);
    document.body.replaceChildren(errors.el, view.el);
    await vi.waitFor(() => expect(document.querySelectorAll('.hooks-agent-tab')).toHaveLength(2));
    const tabs = [...document.querySelectorAll<HTMLElement>('#hooks-tabs > *')].map((e) => e.dataset.agentFile ?? e.dataset.tab ?? e.textContent);
    // After hookd's Local tab, before Effective.
    expect(tabs.indexOf('managed-local')).toBeLessThan(tabs.indexOf('effective'));
    const agentTabs = [...document.querySelectorAll<HTMLElement>('.hooks-agent-tab')];
    // Named by the file and the count the tab shows (label in name).
    expect(agentTabs.map((t) => t.getAttribute('aria-label'))).toEqual(['Codex CLI · Global 2', 'Cursor · Project 2']);
    expect(agentTabs[1]!.getAttribute('title')).toBe(`${root}/.cursor/hooks.json`);
    expect(agentTabs[1]!.textContent).toContain('⚠');
    agentTabs[1]!.click();
    await vi.waitFor(() => expect(document.querySelector('#hooks-agent-file-path')?.textContent).toBe(`${root}/.cursor/hooks.json`));
    expect(document.querySelector('.hooks-agent-tab[data-agent-file=cursor-project]')!.getAttribute('aria-selected')).toBe('true');
    expect(document.querySelector('#hooks-tab-agent-project')!.getAttribute('aria-selected')).toBe('false');
    expect(document.querySelector('#hooks-agent-file-errors')!.textContent).toContain('hooks.stop[0].command');
    // Disable the first hook: it is listed greyed, with Enable, and focused;
    // Enable puts it back in its place.
    const commands = (): string[] => [...document.querySelectorAll<HTMLElement>('#hooks-agent-table tbody tr')].map((r) => `${r.dataset.testid}:${r.querySelector('[data-testid=agent-hook-command]')!.getAttribute('title') ?? ''}`);
    expect(commands()).toEqual(['agent-hook:./audit.sh', 'agent-hook:']);
    document.querySelector<HTMLElement>('[data-testid=agent-hook-disable]')!.click();
    await vi.waitFor(() => expect(commands()).toEqual(['agent-hook:', 'agent-hook-disabled:./audit.sh']));
    expect(document.querySelector('#hooks-agent-file-done')!.textContent).toContain('Disabled the beforeSubmitPrompt hook of Cursor · Project');
    await vi.waitFor(() => expect((document.activeElement as HTMLElement).dataset.testid).toBe('agent-hook-disabled'));
    document.querySelector<HTMLElement>('[data-testid=agent-hook-enable]')!.click();
    await vi.waitFor(() => expect(commands()).toEqual(['agent-hook:./audit.sh', 'agent-hook:']));
    expect(document.querySelector('#hooks-agent-file-done')!.textContent).toContain('Enabled the beforeSubmitPrompt hook');
    await vi.waitFor(() => expect((document.activeElement as HTMLElement).dataset.event).toBe('beforeSubmitPrompt'));
    // Codex CLI's file: its guard moved down past hookd's entry, and up again.
    document.querySelector<HTMLElement>('.hooks-agent-tab[data-agent-file=codex-global]')!.click();
    await vi.waitFor(() => expect(document.querySelector('#hooks-agent-file-path')?.textContent).toBe('/home/dev/.codex/hooks.json'));
    expect(commands()).toEqual(['agent-hook:./guard.sh', 'agent-hook:hookd-emit --agent codex PreToolUse']);
    const guardRow = document.querySelector<HTMLElement>('[data-testid=agent-hook]')!;
    expect(guardRow.querySelector<HTMLButtonElement>('[data-testid=agent-hook-up]')!.disabled).toBe(true);
    guardRow.querySelector<HTMLElement>('[data-testid=agent-hook-down]')!.click();
    await vi.waitFor(() => expect(commands()).toEqual(['agent-hook:hookd-emit --agent codex PreToolUse', 'agent-hook:./guard.sh']));
    expect(document.querySelector('#hooks-agent-file-done')!.textContent).toContain(movedText('PreToolUse', false, 'Codex CLI · Global'));
    await vi.waitFor(() => expect(document.activeElement?.querySelector('[data-testid=agent-hook-command]')?.getAttribute('title')).toBe('./guard.sh'));
    (document.activeElement as HTMLElement).querySelector<HTMLElement>('[data-testid=agent-hook-up]')!.click();
    await vi.waitFor(() => expect(commands()).toEqual(['agent-hook:./guard.sh', 'agent-hook:hookd-emit --agent codex PreToolUse']));
    // Disabling a Codex CLI hook says what Remove says of its trust by position.
    document.querySelector<HTMLElement>('[data-testid=agent-hook-disable]')!.click();
    await vi.waitFor(() => expect(commands()).toEqual(['agent-hook:hookd-emit --agent codex PreToolUse', 'agent-hook-disabled:./guard.sh']));
    expect([...document.querySelectorAll('[data-testid=agent-edit-note]')].map((n) => n.textContent).join('\n')).toContain('Codex CLI keeps its trust by position');
    document.querySelector<HTMLElement>('[data-testid=agent-hook-enable]')!.click();
    await vi.waitFor(() => expect(commands()).toEqual(['agent-hook:./guard.sh', 'agent-hook:hookd-emit --agent codex PreToolUse']));
    expect([...document.querySelectorAll('[data-testid=agent-edit-note]')].map((n) => n.textContent).join('\n')).toContain('move down');
    // Back to a settings file tab.
    view.update(parseHash(hooksHash(root, 'agent-project')));
    await vi.waitFor(() => expect(document.querySelector('#hooks-agent-file')).toBeNull());
    expect(document.querySelector('#hooks-tab-agent-project')!.getAttribute('aria-selected')).toBe('true');
  });
});
