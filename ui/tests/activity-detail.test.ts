// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createActivityDetail } from '../src/components/activity-detail';
import { setBackend } from '../src/lib/api';
import { loadCatalogue } from '../src/lib/catalogue';
import { createStub } from '../src/stub';
import type { ActivityEvent } from '../src/lib/types';

afterEach(() => document.body.replaceChildren());

const denied: ActivityEvent = {
  id: 7,
  event_id: 'ev-7',
  hook_type: 'pre_tool_use',
  tool_name: 'Bash',
  agent_id: 'claude-main',
  agent_kind: 'claude',
  session_id: 'sess-1',
  tool_use_id: 'toolu_1',
  cwd: '/repo',
  file_path: null,
  branch: 'main',
  head_sha: 'abc',
  remote_url: null,
  payload_valid: true,
  raw_payload: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } }),
  event_timestamp: '2026-11-21T10:00:00.000Z',
  received_at: '2026-11-21T10:00:00.002Z',
  source_pid: 1,
  mutations: 0,
  hook_runs: [
    {
      run_id: 'r1',
      event_id: 'ev-7',
      hook_type: 'pre_tool_use',
      tool_name: 'Bash',
      session_id: 'sess-1',
      tool_use_id: 'toolu_1',
      scope: 'project',
      source: '/repo/.hookd/settings.json',
      matcher: 'Bash',
      command: './hooks/guard.sh',
      exit_code: 0,
      timed_out: false,
      decision: 'deny',
      duration_ms: 12.4,
      stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf here' } }),
      stderr: '',
      output_truncated: false,
      error: null,
      started_at: '2026-11-21T10:00:00.001Z',
      skipped: null,
    },
    {
      run_id: 'r2',
      event_id: 'ev-7',
      hook_type: 'pre_tool_use',
      tool_name: 'Bash',
      session_id: 'sess-1',
      tool_use_id: 'toolu_1',
      scope: 'global',
      source: '/home/u/.hookd/settings.json',
      matcher: null,
      command: './slow.sh',
      exit_code: null,
      timed_out: true,
      decision: null,
      duration_ms: 600000,
      stdout: '',
      stderr: 'still thinking\n',
      output_truncated: false,
      error: null,
      started_at: '2026-11-21T10:00:00.001Z',
      skipped: null,
    },
  ],
};

// Event names are shown in the agent's spelling from the backend's catalogue,
// which the app loads when the timeline opens.
beforeAll(async () => {
  setBackend(createStub());
  await loadCatalogue();
});
afterAll(() => setBackend(null));

describe('activity detail', () => {
  it('shows each hook run with its verdict, reason, exit code, duration and output', () => {
    const filtered: [string, string][] = [];
    let closed = 0;
    const d = createActivityDetail(() => closed++, (field, value) => filtered.push([field, value]));
    document.body.appendChild(d.el);
    d.show(denied);
    expect(d.el.hidden).toBe(false);
    expect(d.el.dataset.eventId).toBe('ev-7');
    expect(document.getElementById('activity-detail-title')!.textContent).toBe('PreToolUse Bash $ rm -rf build');
    const runs = [...d.el.querySelectorAll<HTMLElement>('[data-testid=hook-run]')];
    expect(runs.map((r) => r.dataset.verdict)).toEqual(['deny', 'timeout']);
    expect(runs[0]!.querySelector('[data-testid=hook-run-reason]')!.textContent).toBe('Reason: no rm -rf here');
    expect(runs[0]!.querySelector('[data-testid=hook-run-facts]')!.textContent).toBe('exit 0 · 12 ms · project · matcher Bash');
    expect(runs[1]!.querySelector('[data-testid=hook-run-facts]')!.textContent).toBe('timed out · 600000 ms · global');
    expect(runs[1]!.querySelector('details summary')!.textContent).toBe('stderr (1 line)');
    // The tool call itself, from the PreToolUse payload.
    expect(d.el.querySelector('[data-testid=change][data-kind=bash] [data-testid=change-command]')!.textContent).toBe('rm -rf build');
    expect(d.el.querySelector('[data-field=session_id]')!.textContent).toBe('sess-1');

    document.getElementById('activity-detail-filter-session')!.click();
    document.getElementById('activity-detail-filter-agent')!.click();
    expect(filtered).toEqual([['session', 'sess-1'], ['agent', 'claude-main']]);
    d.el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(closed).toBe(1);
    d.hide();
    expect(d.el.hidden).toBe(true);
  });

  it("shows an Edit's diff as the backend computed it", async () => {
    const d = createActivityDetail(() => {}, () => {});
    document.body.appendChild(d.el);
    const payload = JSON.stringify({ tool_name: 'Edit', tool_input: { file_path: '/r/a.rs', old_string: 'let a = 1;', new_string: 'let a = 2;\nlet b = 3;' } });
    d.show({ ...denied, tool_name: 'Edit', raw_payload: payload });
    const change = d.el.querySelector<HTMLElement>('[data-testid=change][data-kind=edit]')!;
    expect(change.querySelector('[data-testid=change-diff-pending]')).not.toBeNull();
    await vi.waitFor(() => expect(change.querySelector('[data-testid=change-diff]')).not.toBeNull());
    const ops = [...change.querySelectorAll<HTMLElement>('.diff-line')].map((l) => l.dataset.op);
    expect(ops).toEqual(['del', 'add', 'add']);
    expect(change.querySelector('.diff-stat')!.textContent).toBe('+2 \u22121');
    d.el.remove();
  });

  it('says when no managed hook ran', () => {
    const d = createActivityDetail(() => {}, () => {});
    d.show({ ...denied, hook_runs: [] });
    expect(d.el.querySelector('[data-testid=hook-runs]')!.textContent).toContain('No managed hook ran for this event.');
  });
});
