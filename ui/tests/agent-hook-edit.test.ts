// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeOf, editDone, fieldsOf, focusTarget, newHookOf, removalOf, takesMatcher, timeoutLabel, type AddFields } from '../src/components/agent-hook-dialog';
import { createErrorBanner } from '../src/components/error-banner';
import { disconnectHint, renderAgentFile } from '../src/components/hooks-agent-file';
import { setBackend } from '../src/lib/api';
import type { AgentHookRules } from '../src/lib/bindings/AgentHookRules';
import { parseHash } from '../src/lib/route';
import type { AgentHook, AgentHookFile } from '../src/lib/types';
import { createStub } from '../src/stub';
import { createHooksView, forgetHookDrafts } from '../src/views/hooks';
import type { View } from '../src/views/view';

const gemini: AgentHookRules = { agent: 'gemini', label: 'Gemini CLI', events: ['BeforeTool', 'AfterAgent'], matcher_events: ['BeforeTool'], timeout_unit: 'milliseconds', timeout_key: 'timeout', named: true };
const copilot: AgentHookRules = { agent: 'copilot', label: 'GitHub Copilot', events: ['preToolUse', 'agentStop'], matcher_events: ['preToolUse'], timeout_unit: 'seconds', timeout_key: 'timeoutSec', named: false };
const fields = (over: Partial<AddFields> = {}): AddFields => ({ event: 'BeforeTool', matcher: 'write_file', command: ' ./guard.sh ', timeout: '5000', name: 'guard', ...over });
const hook = (over: Partial<AgentHook> = {}): AgentHook => ({ event: 'Stop', claude_event: 'Stop', matcher: null, handler_type: 'command', command: './done.sh', timeout_secs: null, hookd: false, name: null, json_path: 'hooks.Stop[0].hooks[0]', ...over });

describe('the Add hook form', () => {
  it('builds the hook in the agent\u2019s own terms', () => {
    expect(newHookOf(gemini, fields())).toEqual({ hook: { event: 'BeforeTool', matcher: 'write_file', command: './guard.sh', timeout: 5000, name: 'guard' } });
    // No matcher where the event takes none, no name where the agent has none, empty timeout: the default.
    expect(newHookOf(gemini, fields({ event: 'AfterAgent', timeout: '', name: ' ' }))).toEqual({ hook: { event: 'AfterAgent', matcher: null, command: './guard.sh', timeout: null, name: null } });
    expect(newHookOf(copilot, fields({ event: 'agentStop', timeout: '30' }))).toEqual({ hook: { event: 'agentStop', matcher: null, command: './guard.sh', timeout: 30, name: null } });
  });

  it('refuses an empty command, a timeout that is not whole units, an event not the agent\u2019s', () => {
    expect(newHookOf(gemini, fields({ command: '  ' }))).toEqual({ error: expect.stringContaining('empty') });
    for (const t of ['0', '-3', '1.5', 'soon']) expect(newHookOf(gemini, fields({ timeout: t }))).toEqual({ error: expect.stringContaining('whole milliseconds') });
    expect(newHookOf(copilot, fields())).toEqual({ error: expect.stringContaining('GitHub Copilot') });
  });

  it('says the unit and where a matcher goes', () => {
    expect(timeoutLabel(gemini)).toBe('Timeout (milliseconds)');
    expect(timeoutLabel(copilot)).toBe('Timeout (seconds)');
    expect(takesMatcher(gemini, 'BeforeTool')).toBe(true);
    expect(takesMatcher(gemini, 'AfterAgent')).toBe(false);
  });
});

describe('removing and what happened', () => {
  it('removes a hook by its place and command, and says what was done', () => {
    expect(removalOf(hook())).toEqual({ kind: 'remove', json_path: 'hooks.Stop[0].hooks[0]', command: './done.sh' });
    const result = { path: '/h/.codex/hooks.json', written: true, backup: '/h/.codex/hooks.json.hookd-backup', events: ['Stop'], notes: [] };
    expect(editDone(removalOf(hook()), result, 'Codex CLI · Global')).toBe('Removed a Stop hook from Codex CLI · Global. The previous version is kept (hookd hooks restore-backup brings it back).');
    expect(editDone({ kind: 'add', hook: { event: 'Stop', matcher: null, command: 'x', timeout: null, name: null } }, { ...result, backup: null }, 'Cursor · Project')).toBe('Added a Stop hook to Cursor · Project.');
  });

  it('fills the form with a listed hook in the agent\u2019s units and changes it by its place and command', () => {
    const listed = hook({ event: 'BeforeTool', matcher: 'write_file', command: './guard.sh', timeout_secs: 5, name: 'guard', json_path: 'hooks.BeforeTool[0].hooks[0]' });
    expect(fieldsOf(gemini, listed)).toEqual({ event: 'BeforeTool', matcher: 'write_file', command: './guard.sh', timeout: '5000', name: 'guard' });
    expect(fieldsOf(copilot, hook({ timeout_secs: null }))).toEqual({ event: 'Stop', matcher: '', command: './done.sh', timeout: '', name: '' });
    const to = { event: 'BeforeTool', matcher: 'write_file', command: './guard2.sh', timeout: 8000, name: 'guard' };
    const change = changeOf(listed, to);
    expect(change).toEqual({ kind: 'change', json_path: 'hooks.BeforeTool[0].hooks[0]', command: './guard.sh', hook: to });
    const result = { path: '/h/.gemini/settings.json', written: true, backup: null, events: ['BeforeTool'], notes: [] };
    expect(editDone(change, result, 'Gemini CLI · Global')).toBe('Changed a BeforeTool hook in Gemini CLI · Global.');
  });

  it('puts the focus on the added row, or the row after the removed one', () => {
    const row = (event: string, command: string): HTMLElement => {
      const tr = document.createElement('tr');
      tr.dataset.event = event;
      const td = document.createElement('td');
      td.dataset.testid = 'agent-hook-command';
      td.title = command;
      tr.append(td);
      return tr;
    };
    const rows = [row('Stop', './a.sh'), row('Stop', './b.sh'), row('PreToolUse', './b.sh')];
    expect(focusTarget(rows, { kind: 'add', hook: { event: 'Stop', matcher: null, command: './b.sh', timeout: null, name: null } }, -1)).toBe(rows[1]);
    expect(focusTarget(rows, removalOf(hook()), 1)).toBe(rows[1]);
    expect(focusTarget(rows, removalOf(hook()), 3)).toBe(rows[2]);
    expect(focusTarget([], removalOf(hook()), 0)).toBeNull();
    expect(focusTarget(rows, changeOf(hook(), { event: 'Stop', matcher: null, command: './c.sh', timeout: null, name: null }), 2)).toBe(rows[2]);
  });

  it('offers Remove on every row but hookd\u2019s own, which points to hookd disconnect', () => {
    const f: AgentHookFile = { agent: 'codex', label: 'Codex CLI', scope: 'global', extension: null, path: '/h/.codex/hooks.json', name: 'hooks.json', error: null, hooks: [hook(), hook({ command: 'hookd-emit --agent codex Stop', hookd: true, json_path: 'hooks.Stop[1].hooks[0]' })], errors: [], warnings: [], timeout_note: null, disabled: [], version: 'v1' };
    const el = renderAgentFile(f, { project: '/p', reload: () => Promise.resolve(), onError: () => {} });
    const rows = [...el.querySelectorAll<HTMLElement>('[data-testid=agent-hook]')];
    expect(rows[0]!.querySelector('[data-testid=agent-hook-remove]')).not.toBeNull();
    expect(rows[1]!.querySelector('[data-testid=agent-hook-remove]')).toBeNull();
    expect(rows[0]!.querySelector('[data-testid=agent-hook-change]')!.getAttribute('aria-label')).toBe('Edit the Stop hook ./done.sh');
    expect(rows[1]!.querySelector('[data-testid=agent-hook-change]')).toBeNull();
    expect(rows[1]!.querySelector('[data-testid=agent-hook-own]')!.getAttribute('title')).toBe(disconnectHint(f));
    expect(disconnectHint(f)).toContain('hookd disconnect --agent codex');
    expect(el.querySelector('#hooks-agent-add')).not.toBeNull();
    expect(el.textContent).not.toContain('read-only');
    // A file that cannot be read offers no edit.
    const broken = renderAgentFile({ ...f, error: 'not valid JSON', hooks: [] }, { project: '/p', reload: () => Promise.resolve(), onError: () => {} });
    expect(broken.querySelector('#hooks-agent-add')).toBeNull();
  });
});

describe('editing an agent file in the hooks view', () => {
  let view: View | null = null;
  afterEach(() => {
    forgetHookDrafts();
    view?.destroy();
    view = null;
    setBackend(null);
    document.body.replaceChildren();
  });

  it('adds a hook after a review, says so, focuses it, and removes it again', async () => {
    setBackend(createStub({ rows: 5 }));
    const root = '/home/dev/src/hookd';
    const route = parseHash(`#/hooks?project=${root}&tab=agent-project&agent_file=codex-global`);
    if (route.view !== 'hooks') throw new Error('not a hooks route');
    const errors = createErrorBanner();
    view = createHooksView({ errors, appInfo: Promise.resolve(null), navigate: (h) => view?.update(parseHash(h)) }, route);
    document.body.replaceChildren(errors.el, view.el);
    await vi.waitFor(() => expect(document.querySelector('#hooks-agent-add')).not.toBeNull());
    (document.querySelector('#hooks-agent-add') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(document.querySelectorAll('#agent-hook-event option').length).toBeGreaterThan(3));
    const event = document.querySelector<HTMLSelectElement>('#agent-hook-event')!;
    event.value = 'Stop';
    event.dispatchEvent(new Event('change'));
    expect(document.querySelector<HTMLInputElement>('#agent-hook-matcher')!.disabled).toBe(true);
    expect(document.querySelector('#agent-hook-timeout-field label')!.textContent).toBe('Timeout (seconds)');
    document.querySelector<HTMLInputElement>('#agent-hook-command')!.value = './notify.sh';
    document.querySelector<HTMLInputElement>('#agent-hook-timeout')!.value = '15';
    document.querySelector<HTMLFormElement>('#agent-hook-form')!.requestSubmit();
    await vi.waitFor(() => expect(document.querySelector<HTMLButtonElement>('#agent-hook-apply')!.disabled).toBe(false));
    expect(document.querySelector('[data-testid=hooks-diff]')!.textContent).toContain('./notify.sh');
    expect(document.querySelector('[data-testid=agent-hook-note]')!.textContent).toContain('/hooks');
    document.querySelector<HTMLButtonElement>('#agent-hook-apply')!.click();
    await vi.waitFor(() => expect(document.querySelector('#hooks-agent-file-done')?.textContent).toContain('Added a Stop hook to Codex CLI · Global'));
    expect(document.querySelector('#agent-hook-dialog')).toBeNull();
    expect(document.querySelector('#hooks-agent-file-done')!.textContent).toContain('trust it');
    await vi.waitFor(() => expect((document.activeElement as HTMLElement).dataset.event).toBe('Stop'));
    const rows = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('[data-testid=agent-hook]')];
    expect(rows()).toHaveLength(3);

    // Remove the first (the user's guard): the focus goes to the row after it.
    rows()[0]!.querySelector<HTMLButtonElement>('[data-testid=agent-hook-remove]')!.click();
    await vi.waitFor(() => expect(document.querySelector<HTMLButtonElement>('#agent-hook-apply')!.disabled).toBe(false));
    expect(document.activeElement!.id).toBe('agent-hook-cancel');
    document.querySelector<HTMLButtonElement>('#agent-hook-apply')!.click();
    await vi.waitFor(() => expect(document.querySelector('#hooks-agent-file-done')?.textContent).toContain('Removed a PreToolUse hook'));
    expect(rows()).toHaveLength(2);
    await vi.waitFor(() => expect(document.activeElement).toBe(rows()[0]));
    expect(document.activeElement).not.toBe(document.body);

    // Change the Stop hook where it stands: the form is filled in, the event fixed.
    const stop = rows().findIndex((r) => r.dataset.event === 'Stop' && r.querySelector('[data-testid=agent-hook-change]') !== null);
    rows()[stop]!.querySelector<HTMLButtonElement>('[data-testid=agent-hook-change]')!.click();
    await vi.waitFor(() => expect(document.querySelector<HTMLInputElement>('#agent-hook-command')!.value).toBe('./notify.sh'));
    expect(document.querySelector<HTMLSelectElement>('#agent-hook-event')!.value).toBe('Stop');
    expect(document.querySelector<HTMLSelectElement>('#agent-hook-event')!.disabled).toBe(true);
    expect(document.querySelector<HTMLInputElement>('#agent-hook-timeout')!.value).toBe('15');
    expect(document.querySelector('#agent-hook-title')!.textContent).toBe('Change a hook of Codex CLI · Global');
    document.querySelector<HTMLInputElement>('#agent-hook-command')!.value = './notify.sh --loud';
    document.querySelector<HTMLFormElement>('#agent-hook-form')!.requestSubmit();
    await vi.waitFor(() => expect(document.querySelector<HTMLButtonElement>('#agent-hook-apply')!.disabled).toBe(false));
    expect(document.querySelector('#agent-hook-apply')!.textContent).toBe('Change hook');
    document.querySelector<HTMLButtonElement>('#agent-hook-apply')!.click();
    await vi.waitFor(() => expect(document.querySelector('#hooks-agent-file-done')?.textContent).toContain('Changed a Stop hook in Codex CLI · Global'));
    expect(rows()).toHaveLength(2);
    expect(rows()[stop]!.querySelector('[data-testid=agent-hook-command]')!.getAttribute('title')).toBe('./notify.sh --loud');
    await vi.waitFor(() => expect(document.activeElement).toBe(rows()[stop]));
  });
});
