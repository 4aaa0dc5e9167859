// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createActivityDetail } from '../src/components/activity-detail';
import { renderRow } from '../src/components/timeline-row';
import { setBackend } from '../src/lib/api';
import { loadCatalogue } from '../src/lib/catalogue';
import { groupSummary, promptPlace, type ListOrder, type PromptPlace } from '../src/lib/prompt-groups';
import { createStub } from '../src/stub';
import type { ActivityEvent } from '../src/lib/types';

afterEach(() => document.body.replaceChildren());

let seq = 0;
function ev(session: string | null, hook: string, extra: Partial<ActivityEvent> = {}): ActivityEvent {
  seq++;
  const prompt = hook === 'user_prompt_submit' ? { prompt: `prompt ${seq}\nmore lines` } : {};
  return {
    id: seq,
    event_id: `ev-${seq}`,
    hook_type: hook,
    tool_name: hook.endsWith('tool_use') ? 'Edit' : null,
    agent_id: 'claude',
    session_id: session,
    tool_use_id: hook.endsWith('tool_use') ? `toolu-${session}-${seq}` : null,
    cwd: '/repo',
    file_path: null,
    branch: 'main',
    head_sha: 'abc',
    remote_url: null,
    payload_valid: true,
    raw_payload: JSON.stringify({ hook_event_name: hook, ...prompt }),
    event_timestamp: '2026-11-21T10:00:00.000Z',
    received_at: '2026-11-21T10:00:00.002Z',
    source_pid: 1,
    mutations: 0,
    hook_runs: [],
    ...extra,
  };
}

/** Oldest first: A's prompt, A's call (pre + post, one change), B's interleaved prompt and call, A's second call, A's next prompt, a tail. */
function chronological(): ActivityEvent[] {
  seq = 0;
  const p1 = ev('A', 'user_prompt_submit');
  const pre = ev('A', 'pre_tool_use');
  const post = ev('A', 'post_tool_use', { tool_use_id: pre.tool_use_id, mutations: 1 });
  const pB = ev('B', 'user_prompt_submit');
  const bCall = ev('B', 'post_tool_use', { mutations: 1 });
  const a2 = ev('A', 'post_tool_use', { mutations: 2 });
  const p2 = ev('A', 'user_prompt_submit');
  const a3 = ev('A', 'post_tool_use');
  return [p1, pre, post, pB, bCall, a2, p2, a3];
}

function places(rows: (ActivityEvent | undefined)[], order: ListOrder): PromptPlace[] {
  return rows.map((_, i) => promptPlace((j) => rows[j], i, rows.length, order));
}

const heads = (ps: PromptPlace[]): (string | null | 'H' | '-')[] =>
  ps.map((p) => (p.role === 'head' ? 'H' : p.role === 'member' ? p.head : '-'));

describe('promptPlace', () => {
  it('groups rows under their session\'s prompt, oldest first, skipping interleaved sessions', () => {
    const rows = chronological();
    const ps = places(rows, 'oldest');
    // p1 H, pre/post in p1, pB H, bCall in pB (not in p1), a2 in p1, p2 H, a3 in p2.
    expect(heads(ps)).toEqual(['H', 'ev-1', 'ev-1', 'H', 'ev-4', 'ev-1', 'H', 'ev-7']);
    // p1: one call paired pre/post plus a2 = 2 calls, 3 changes; B's call is not counted.
    expect(ps[0]).toEqual({ role: 'head', calls: 2, changes: 3, complete: true });
    expect(ps[3]).toEqual({ role: 'head', calls: 1, changes: 1, complete: true });
    // The last prompt runs to the end of the list: complete.
    expect(ps[6]).toEqual({ role: 'head', calls: 1, changes: 0, complete: true });
    expect(groupSummary(ps[0] as Extract<PromptPlace, { role: 'head' }>)).toBe('2 tool calls · 3 changes');
  });

  it('gives the same groups newest first', () => {
    const rows = chronological().reverse();
    const ps = places(rows, 'newest');
    expect(heads(ps)).toEqual(['ev-7', 'H', 'ev-1', 'ev-4', 'H', 'ev-1', 'ev-1', 'H']);
    expect(ps[7]).toEqual({ role: 'head', calls: 2, changes: 3, complete: true });
    // Read in the wrong order, the groups would differ: the order matters.
    expect(heads(places(rows, 'oldest'))).not.toEqual(heads(ps));
  });

  it('keeps the rule without a head when the head is not held', () => {
    const rows: (ActivityEvent | undefined)[] = chronological();
    rows[0] = undefined; // p1's page was evicted or is on its way
    const ps = places(rows, 'oldest');
    expect(ps[1]).toEqual({ role: 'member', head: null });
    expect(ps[5]).toEqual({ role: 'member', head: null });
    // B's group is untouched.
    expect(ps[4]).toEqual({ role: 'member', head: 'ev-4' });
    // Newest first, the head is at the far end.
    const rev = chronological().reverse() as (ActivityEvent | undefined)[];
    rev[7] = undefined;
    expect(places(rev, 'newest')[6]).toEqual({ role: 'member', head: null });
  });

  it('says a head\'s counts are a floor when its group runs past what is held', () => {
    const rows: (ActivityEvent | undefined)[] = chronological();
    rows[5] = undefined;
    const p = promptPlace((j) => rows[j], 0, rows.length, 'oldest');
    expect(p).toEqual({ role: 'head', calls: 1, changes: 1, complete: false });
    expect(groupSummary(p as Extract<PromptPlace, { role: 'head' }>)).toBe('1+ tool calls · 1+ changes');
    // A scan limit stops it the same way (a page at most).
    expect(promptPlace((j) => chronological()[j], 0, 8, 'oldest', 2)).toMatchObject({ complete: false });
  });

  it('puts rows before a session\'s first prompt, and rows without a session, in no group', () => {
    seq = 0;
    const rows = [ev('A', 'session_start'), ev('A', 'post_tool_use'), ev(null, 'post_tool_use'), ev('A', 'user_prompt_submit'), ev('A', 'stop')];
    expect(heads(places(rows, 'oldest'))).toEqual(['-', '-', '-', 'H', 'ev-4']);
  });
});

describe('prompt rows', () => {
  beforeAll(async () => {
    setBackend(createStub());
    await loadCatalogue();
  });

  it('paints a prompt as a group head and its rows with its rule', () => {
    const rows = chronological();
    const look = { all: false, fresh: false, selected: false, names: new Map<string, string>() };
    const head = document.createElement('div');
    renderRow(head, rows[0]!, { ...look, prompt: promptPlace((j) => rows[j], 0, rows.length, 'oldest') });
    expect(head.classList.contains('prompt-head')).toBe(true);
    expect(head.querySelector('.prompt-badge')?.textContent).toBe('Prompt');
    expect(head.querySelector('.col-subject .prompt-line')?.textContent).toBe('prompt 1');
    expect(head.querySelector('.col-subject .prompt-followed')?.textContent).toBe('2 tool calls · 3 changes');
    const member = document.createElement('div');
    renderRow(member, rows[5]!, { ...look, prompt: promptPlace((j) => rows[j], 5, rows.length, 'oldest') });
    expect(member.classList.contains('prompt-member')).toBe(true);
    expect(member.dataset.promptOf).toBe('ev-1');
    // The element is recycled for a row of no group: the look goes.
    renderRow(member, rows[5]!, { ...look, prompt: { role: 'none' } });
    expect(member.classList.contains('prompt-member')).toBe(false);
    // A head's element recycled for a tool call loses its badge.
    renderRow(head, rows[1]!, { ...look, prompt: { role: 'member', head: null } });
    expect(head.querySelector('.prompt-badge')).toBeNull();
    expect(head.classList.contains('prompt-head')).toBe(false);
    expect(head.classList.contains('prompt-headless')).toBe(true);
    expect(member.dataset.promptOf).toBeUndefined();
  });

  it('offers "Revert this prompt" on a prompt\'s detail, targeting the prompt\'s event id', () => {
    const rows = chronological();
    const onRevert = vi.fn();
    const detail = createActivityDetail(() => {}, () => {}, undefined, onRevert);
    document.body.append(detail.el);
    detail.show(rows[6]!);
    const button = detail.el.querySelector<HTMLButtonElement>('#activity-detail-revert-prompt');
    expect(button?.textContent).toBe('Revert this prompt');
    expect(detail.el.querySelector('[data-testid="activity-prompt"]')?.textContent).toBe('prompt 7\nmore lines');
    button!.click();
    expect(onRevert).toHaveBeenCalledTimes(1);
    expect(onRevert.mock.calls[0]![1].target).toEqual({ kind: 'prompt', id: 'ev-7' });
    expect(onRevert.mock.calls[0]![2]).toBe(button);
    // A tool call's detail offers no prompt revert.
    detail.show(rows[1]!);
    expect(detail.el.querySelector('#activity-detail-revert-prompt')).toBeNull();
  });
});
