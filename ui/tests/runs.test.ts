// @vitest-environment jsdom
// An honest "runs" in the window: the saved verdict belongs only to the very
// handler the file holds at that position; the badge and reasons are the
// core's words; a managed template that does not run offers to switch the
// file that records now, opening the connect dialog on it in managed mode;
// the Effective view gives the reasons a row of their own.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openConnectDialog } from '../src/components/connect-dialog';
import { agentCounts, agentVerdictText, renderEffective } from '../src/components/hooks-effective';
import { renderIdleTemplate } from '../src/components/hooks-templates';
import { renderVerdict } from '../src/components/runs-verdict';
import { setBackend } from '../src/lib/api';
import { savedVerdict } from '../src/lib/runs';
import type { EffectiveEntry, EffectiveView, HookFile, RunVerdict, TemplateChange } from '../src/lib/types';
import { createStub } from '../src/stub';

const RECORD_ONLY: RunVerdict = {
  runs: false,
  reasons: [{ code: 'record_only', message: 'the agent calls hookd for PreToolUse to record only' }],
};
const guard = { type: 'command', command: '/bin/guard.sh' };

function fileWith(runs: RunVerdict | null): HookFile {
  return {
    file: { project: '/p', kind: 'managed', scope: 'global' },
    path: '/h/.hookd/settings.json',
    exists: true,
    read_only: false,
    version: 'v',
    parse_error: null,
    problems: [],
    bad_matchers: [],
    editable: true,
    events: [{ event: 'PreToolUse', known: true, description: '', groups: [{ matcher: 'Bash', raw: {}, extra_keys: [], handlers: [{ raw: guard, handler_type: 'command', command: guard.command, timeout: null, editable: true, known_type: true, extra_keys: [], runs }] }] }],
    other_keys: [],
    disabled: [],
  };
}

afterEach(() => {
  setBackend(null);
  document.body.replaceChildren();
});

describe('savedVerdict', () => {
  it('gives the saved verdict of the same handler at the same place', () => {
    expect(savedVerdict(fileWith(RECORD_ONLY), 'PreToolUse', 0, 0, { ...guard })).toEqual(RECORD_ONLY);
  });
  it('gives none to an edited, moved or new handler', () => {
    const file = fileWith(RECORD_ONLY);
    expect(savedVerdict(file, 'PreToolUse', 0, 0, { ...guard, command: '/bin/other.sh' })).toBeNull();
    expect(savedVerdict(file, 'PreToolUse', 0, 1, guard)).toBeNull();
    expect(savedVerdict(file, 'Stop', 0, 0, guard)).toBeNull();
    expect(savedVerdict(fileWith(null), 'PreToolUse', 0, 0, guard)).toBeNull();
  });
});

describe('renderVerdict', () => {
  it('says "does not run" with every reason, in the core\u2019s words', () => {
    const el = renderVerdict(RECORD_ONLY);
    expect(el.dataset.runs).toBe('false');
    expect(el.textContent).toContain('does not run');
    const reasons = [...el.querySelectorAll<HTMLElement>('[data-testid=runs-reason]')];
    expect(reasons.map((r) => [r.dataset.code, r.textContent])).toEqual([['record_only', RECORD_ONLY.reasons[0]!.message]]);
  });
  it('says "runs" and lists nothing when it runs', () => {
    const el = renderVerdict({ runs: true, reasons: [] });
    expect(el.textContent).toBe('✓ runs');
    expect(el.querySelector('ul')).toBeNull();
  });
});

describe('the Effective view', () => {
  it('keeps the State column to badges: why a hook does not run is a row under it, across the table', () => {
    const entry = (index: number, runs: typeof RECORD_ONLY): EffectiveEntry => ({
      index, kind: 'managed', scope: 'local', path: '/p/.hookd/settings.local.json', event: 'PreToolUse', matcher: 'Bash', group_index: 0, handler_index: index,
      handler_type: 'command', summary: `/p/guard-${index}.sh`, command: `/p/guard-${index}.sh`, timeout: null, enabled: true, duplicate_of: null, untrusted: null, runs,
    });
    const view: EffectiveView = { files: [], hooks: [entry(0, { runs: true, reasons: [] }), entry(1, RECORD_ONLY)], errors: [], all_disabled_by: [], plugins: [], components: [], component_problems: [] };
    const el = renderEffective(view, '/p');
    const rows = [...el.querySelectorAll<HTMLElement>('#hooks-effective-table tbody tr')];
    expect(rows.map((r) => r.dataset.testid)).toEqual(['effective-hook', 'effective-hook', 'effective-reasons']);
    expect(rows[1]!.querySelector('[data-testid=runs-verdict]')!.textContent).toBe('✗ does not run');
    expect(rows[1]!.querySelector('[data-testid=runs-reason]')).toBeNull();
    const why = rows[2]!.querySelectorAll('td');
    expect([...why].map((td) => td.getAttribute('colspan'))).toEqual(['1', '6']);
    expect(rows[2]!.querySelector('[data-testid=runs-reason]')!.textContent).toBe(RECORD_ONLY.reasons[0]!.message);
  });
});

describe('the other agents in the Effective view', () => {
  const untrusted = { runs: false, reasons: [{ code: 'not_trusted_in_agent' as const, message: 'Codex CLI runs it only once you trust it: open /hooks in Codex' }], provided: [] };
  const ifTrusted = { runs: true, reasons: [], provided: ['Cursor trusts this workspace'] };
  it('says runs, runs if, or why not, and counts each', () => {
    expect(agentVerdictText({ runs: true, reasons: [], provided: [] })).toBe('runs');
    expect(agentVerdictText(ifTrusted)).toBe('runs if Cursor trusts this workspace');
    expect(agentVerdictText(untrusted)).toBe('Codex CLI runs it only once you trust it: open /hooks in Codex');
    expect(agentCounts([{ path: 'a', verdicts: [untrusted, ifTrusted] }, { path: 'b', verdicts: [{ runs: true, reasons: [], provided: [] }] }])).toEqual({ runs: 1, provided: 1, not: 1 });
  });
  it('lists each agent hook with its verdict and a row saying why', () => {
    const view: EffectiveView = { files: [], hooks: [], errors: [], all_disabled_by: [], plugins: [], components: [], component_problems: [] };
    const hook = { event: 'Stop', claude_event: 'Stop', matcher: null, handler_type: 'command', command: 'hookd-emit --agent codex Stop', timeout_secs: 10, hookd: true, name: null, json_path: 'hooks.Stop[0].hooks[0]' };
    const files = [{ agent: 'codex', label: 'Codex CLI', scope: 'project' as const, extension: null, path: '/p/.codex/hooks.json', name: 'hooks.json', error: null, hooks: [hook], errors: [], warnings: [], timeout_note: null, disabled: [], version: 'v1' }];
    const el = renderEffective(view, '/p', { files, verdicts: [{ path: '/p/.codex/hooks.json', verdicts: [untrusted] }] });
    const rows = [...el.querySelectorAll<HTMLElement>('#hooks-effective-agents tbody tr')];
    expect(rows[0]!.dataset.agent).toBe('codex');
    expect(rows[0]!.dataset.runs).toBe('false');
    expect(rows[0]!.textContent).toContain('records for hookd');
    expect(rows[1]!.textContent).toBe(`Does not run: ${untrusted.reasons[0]!.message}`);
    expect(el.querySelector('#hooks-effective-agents-summary')!.textContent).toContain('1 hooks in their files: 0 run, 0 run only if');
    // Without other agents' files, no section.
    expect(renderEffective(view, '/p', { files: [], verdicts: [] }).querySelector('#hooks-effective-agents')).toBeNull();
  });
});

describe('a managed template that does not run', () => {
  const change: TemplateChange = {
    template: 'protect-secrets',
    settings: '/p/.hookd/settings.json',
    handlers: ['PreToolUse (Read)'],
    written: true,
    backup: null,
    script: null,
    script_change: 'absent',
    unchanged: false,
    idle: RECORD_ONLY.reasons,
    switch_scope: 'local',
  };

  it('offers to switch the scope that records now, and hands it over', () => {
    const onSwitch = vi.fn();
    const el = renderIdleTemplate(change, onSwitch);
    expect(el.textContent).toContain('protect-secrets does not run for this project yet');
    expect(el.textContent).toContain(RECORD_ONLY.reasons[0]!.message);
    const button = el.querySelector<HTMLButtonElement>('[data-testid=template-switch-managed]')!;
    button.click();
    expect(onSwitch).toHaveBeenCalledWith('local', button);
  });

  it('offers nothing when connecting would not help', () => {
    const el = renderIdleTemplate({ ...change, switch_scope: null }, () => {});
    expect(el.querySelector('[data-testid=template-switch-managed]')).toBeNull();
  });

  it('the connect dialog opens on that scope in managed mode, with the diff', async () => {
    setBackend(createStub({ rows: 5, seed: 1 }));
    const dialog = openConnectDialog(document.body, {
      project: { root: '/home/dev/src/webshop', name: 'webshop' } as never,
      initial: { scope: 'local', action: 'managed' },
      onApplied: () => {},
      onError: () => {},
    });
    expect(document.querySelector<HTMLSelectElement>('#connect-scope')!.value).toBe('local');
    expect(document.querySelector<HTMLSelectElement>('#connect-mode')!.value).toBe('managed');
    await vi.waitFor(() => expect(document.getElementById('connect-diff')).not.toBeNull());
    expect(document.getElementById('connect-diff')!.textContent).toContain('--wait');
    dialog.close();
  });
});
