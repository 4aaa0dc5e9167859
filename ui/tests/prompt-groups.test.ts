// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createActivityDetail } from '../src/components/activity-detail';
import { renderRow } from '../src/components/timeline-row';
import { setBackend } from '../src/lib/api';
import { loadCatalogue } from '../src/lib/catalogue';
import { FetchedGroups, groupSummary, promptPlace, withFetched, type ListOrder, type PromptPlace } from '../src/lib/prompt-groups';
import { createStub } from '../src/stub';
import type { ActivityEvent, PromptGroup } from '../src/lib/types';

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
    agent_kind: 'claude',
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
    // The run asks the ledger about its first row held (pre), once for both.
    expect(ps[1]).toEqual({ role: 'member', head: null, from: rows[1] });
    expect(ps[5]).toEqual({ role: 'member', head: null, from: rows[1] });
    // B's group is untouched.
    expect(ps[4]).toEqual({ role: 'member', head: 'ev-4' });
    // Newest first, the head is at the far end.
    const rev = chronological().reverse() as (ActivityEvent | undefined)[];
    rev[7] = undefined;
    expect(places(rev, 'newest')[6]).toEqual({ role: 'member', head: null, from: rev[6] });
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

/** A promise and its resolver, to answer a question when the test says. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('groups the ledger answers', () => {
  it('asks once per run of rows, shares the answer by prompt, and drops an answer from before a reset', async () => {
    const rows: (ActivityEvent | undefined)[] = chronological();
    rows[0] = undefined; // p1 is not held
    const answers: { repo: string | null; id: number; d: ReturnType<typeof deferred<PromptGroup | null>> }[] = [];
    const ask = vi.fn((repo: string | null, id: number) => {
      const d = deferred<PromptGroup | null>();
      answers.push({ repo, id, d });
      return d.promise;
    });
    const repaint = vi.fn();
    const fetched = new FetchedGroups(ask, repaint);
    const resolve = (i: number) => withFetched(promptPlace((j) => rows[j], i, rows.length, 'oldest'), rows[i]!, '/repo', fetched);

    // pre, post and a2 are one run: one question, about pre (the first held).
    expect(resolve(1).place).toEqual({ role: 'member', head: null, from: rows[1] });
    expect(resolve(2).group).toBeUndefined();
    expect(resolve(5).group).toBeUndefined();
    expect(ask).toHaveBeenCalledTimes(1);
    expect(ask).toHaveBeenCalledWith('/repo', rows[1]!.id);

    const p1 = chronological()[0]!;
    answers[0]!.d.resolve({ head: p1, calls: 2, changes: 3 });
    await answers[0]!.d.promise;
    expect(repaint).toHaveBeenCalledTimes(1);
    for (const i of [1, 2, 5]) {
      const r = resolve(i);
      expect(r.place).toEqual({ role: 'member', head: 'ev-1' });
      expect(r.group?.head).toBe(p1);
    }
    // Scrolled away and back: still answered, never asked again.
    expect(ask).toHaveBeenCalledTimes(1);

    // A head whose group runs past the rows held gets the exact counts.
    const held: (ActivityEvent | undefined)[] = chronological();
    held[5] = undefined;
    const floor = promptPlace((j) => held[j], 0, held.length, 'oldest');
    expect(floor).toMatchObject({ complete: false });
    expect(withFetched(floor, held[0]!, '/repo', fetched).place).toEqual(floor);
    expect(ask).toHaveBeenCalledTimes(2);
    expect(ask).toHaveBeenLastCalledWith('/repo', held[0]!.id);
    answers[1]!.d.resolve({ head: held[0]!, calls: 2, changes: 3 });
    await answers[1]!.d.promise;
    expect(withFetched(floor, held[0]!, '/repo', fetched).place).toEqual({ role: 'head', calls: 2, changes: 3, complete: true });
    expect(groupSummary({ role: 'head', calls: 2, changes: 3, complete: true })).toBe('2 tool calls · 3 changes');

    // Another ledger is another question.
    withFetched(promptPlace((j) => rows[j], 1, rows.length, 'oldest'), rows[1]!, '/other', fetched);
    expect(ask).toHaveBeenCalledTimes(3);

    // A filter or ledger change: the answer on its way is dropped, the row asked again.
    fetched.reset();
    answers[2]!.d.resolve({ head: p1, calls: 9, changes: 9 });
    await answers[2]!.d.promise;
    expect(repaint).toHaveBeenCalledTimes(2);
    expect(resolve(1).group).toBeUndefined();
    expect(ask).toHaveBeenCalledTimes(4);

    // The ledger says the row is in no group (a session start the filter hid): no rule.
    answers[3]!.d.resolve(null);
    await answers[3]!.d.promise;
    expect(resolve(1).place).toEqual({ role: 'none' });
  });

  it('answers from the stub backend with the core\'s rule', async () => {
    const { api } = await import('../src/lib/api');
    setBackend(createStub());
    const { emptyFilter, normalizeFilter, toQuery } = await import('../src/lib/route');
    const query = toQuery(normalizeFilter({ ...emptyFilter(), all: true, mode: 'activity' }));
    const page = await api.activity_page({ query, anchor: { at: 'oldest' }, limit: 500 });
    const member = page.rows.find((r, i) => r.hook_type === 'post_tool_use' && page.rows.slice(0, i).some((p) => p.hook_type === 'user_prompt_submit' && p.session_id === r.session_id && p.repo === r.repo));
    expect(member).toBeDefined();
    const group = await api.prompt_group({ row: { repo: member!.repo ?? null, id: member!.id } });
    expect(group?.head.hook_type).toBe('user_prompt_submit');
    expect(group?.head.session_id).toBe(member!.session_id);
    expect(group!.calls).toBeGreaterThan(0);
    const own = await api.prompt_group({ row: { repo: member!.repo ?? null, id: group!.head.id } });
    expect(own).toEqual(group);
  });

  it('paints the fetched prompt on a member row and offers its revert from the row\'s detail', () => {
    const rows = chronological();
    const look = { all: false, fresh: false, selected: false, names: new Map<string, string>() };
    const el = document.createElement('div');
    renderRow(el, rows[1]!, { ...look, prompt: { role: 'member', head: 'ev-1' }, fetchedHead: { head: rows[0]!, caption: true } });
    expect(el.classList.contains('prompt-member')).toBe(true);
    expect(el.classList.contains('prompt-headless')).toBe(false);
    expect(el.classList.contains('prompt-fetched')).toBe(true);
    expect(el.dataset.promptOf).toBe('ev-1');
    expect(el.querySelector('[data-testid="prompt-caption"]')?.textContent).toBe('prompt: prompt 1');
    expect(el.querySelector<HTMLElement>('.col-subject')!.title).toContain('Prompt: prompt 1\nmore lines');
    // The next row of the run carries the rule and the tooltip, not the caption.
    renderRow(el, rows[2]!, { ...look, prompt: { role: 'member', head: 'ev-1' }, fetchedHead: { head: rows[0]!, caption: false } });
    expect(el.querySelector('[data-testid="prompt-caption"]')).toBeNull();
    // Recycled for a head: no caption, no fetched look.
    renderRow(el, rows[0]!, { ...look, prompt: { role: 'head', calls: 2, changes: 3, complete: true } });
    expect(el.classList.contains('prompt-fetched')).toBe(false);
    expect(el.querySelector('[data-testid="prompt-caption"]')).toBeNull();

    const onRevert = vi.fn();
    const detail = createActivityDetail(() => {}, () => {}, undefined, onRevert);
    document.body.append(detail.el);
    detail.show(rows[5]!, rows[0]!);
    const button = detail.el.querySelector<HTMLButtonElement>('#activity-detail-revert-prompt');
    expect(button?.textContent).toBe('Revert this prompt');
    button!.click();
    expect(onRevert.mock.calls[0]![0]).toBe(rows[0]);
    expect(onRevert.mock.calls[0]![1].target).toEqual({ kind: 'prompt', id: 'ev-1' });
  });
});
