// The Timeline's commands in the stub backend: the sample rows, the hook
// events around them (activity mode), one row whole, a Write's previous
// content and the files of one Bash command.
//
// Canned answers and lookups only. A query narrows the sample by exact
// equality of the fields the stub stores (project, file, agent, session,
// branch, tool); `limit` is the window's to apply, as with the core's
// pages, which count every matching row; `since`, `until` and
// `event_type` are not interpreted (parsing times and event names is the
// core's, tested in Rust), so the stub ignores them. `previous_content`
// answers what was canned with the row (`setPrevious` cans another answer);
// `mutation_diff` diffs a Write against the content its payload reports
// (`tool_response.originalFile`), else against that answer (see ./diff.ts).
// Agents are named `main` and a short id unless `set_agent_label` gave them
// a label (kept in memory; an empty one removes it), as the core does.
//
// Pages follow the core's semantics over the narrowed rows: the order is
// time, then repository, then id; a page says the position of its first row
// and the total; the watermark is the newest id per ledger (`""` for a
// one-project read) and `newer_than` answers the matching rows above it.
// Histograms count per minute, hour or day over the filter's range.
// `prompt_group` applies the core's rule (hookd-core `ledger::prompts`) to
// the events of the row's project, in the timeline's order.

import type {
  ActivityEvent,
  Anchor,
  Cursor,
  Histogram,
  HistogramRequest,
  HookRunRecord,
  LedgerCommit,
  LineCounts,
  MutationRow,
  Page,
  PreviousContent,
  ProjectInfo,
  TimelineQuery,
  Watermark,
} from '../lib/types';
import { changeDiff, reportedPreviousOf, shellDiff, toolInputOf } from './diff';
import { rowKey } from './sample';
import { fail, type StubPart } from './types';

export type TimelineCommands =
  | 'timeline_page'
  | 'activity_page'
  | 'timeline_histogram'
  | 'activity_histogram'
  | 'activity_event'
  | 'prompt_group'
  | 'mutation_row'
  | 'previous_content'
  | 'mutation_diff'
  | 'payload_diff'
  | 'event_mutations'
  | 'known_values'
  | 'agent_names'
  | 'set_agent_label';

/** What pages and charts read of a row. */
interface Timed {
  id: number;
  event_timestamp: string;
  agent_id: string;
  tool_name: string | null;
  hook_type: string;
  repo?: string | null;
}

/** The timeline's order: time, then repository, then id. */
function compare(a: Cursor, b: Cursor): number {
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? -1 : 1;
  const ra = a.repo ?? '';
  const rb = b.repo ?? '';
  if (ra !== rb) return ra < rb ? -1 : 1;
  return a.id - b.id;
}

const cursorOf = (r: Timed): Cursor => ({ timestamp: r.event_timestamp, id: r.id, repo: r.repo ?? undefined });

/**
 * The page of `sorted` (matching rows, in the timeline's order) at `anchor`;
 * `ledger` is every row of the scope (for the watermark), `key` a row's ledger key.
 */
export function pageOf<T extends Timed>(sorted: T[], ledger: Timed[], anchor: Anchor, limit: number, key: (r: Timed) => string): Page<T> {
  limit = Math.max(1, Math.min(10_000, Math.floor(limit)));
  const seen: Watermark = {};
  for (const r of ledger) seen[key(r)] = Math.max(seen[key(r)] ?? 0, r.id);
  const total = sorted.length;
  const firstAfter = (c: Cursor): number => {
    const i = sorted.findIndex((r) => compare(cursorOf(r), c) > 0);
    return i < 0 ? total : i;
  };
  let start: number;
  let end: number;
  let rows: T[] | null = null;
  switch (anchor.at) {
    case 'newest':
      end = total;
      start = Math.max(0, end - limit);
      break;
    case 'oldest':
      start = 0;
      end = Math.min(total, limit);
      break;
    case 'after':
      start = firstAfter(anchor.cursor);
      end = Math.min(total, start + limit);
      break;
    case 'before': {
      const i = sorted.findIndex((r) => compare(cursorOf(r), anchor.cursor) >= 0);
      end = i < 0 ? total : i;
      start = Math.max(0, end - limit);
      break;
    }
    case 'position':
      start = total === 0 ? 0 : Math.min(anchor.position, total - 1);
      end = Math.min(total, start + limit);
      break;
    case 'time': {
      const i = sorted.findIndex((r) => r.event_timestamp >= anchor.time);
      start = i < 0 ? total : i;
      end = Math.min(total, start + limit);
      break;
    }
    case 'newer_than': {
      const before = anchor.seen;
      const found = sorted.filter((r) => r.id > (before[key(r)] ?? 0));
      // The oldest ids first, as the core reads them, then in the timeline's order.
      found.sort((a, b) => a.id - b.id);
      rows = found.slice(0, limit);
      if (found.length > limit) {
        // More are waiting: each ledger's watermark stops at what was returned.
        for (const r of found.slice(limit)) seen[key(r)] = before[key(r)] ?? 0;
        for (const r of rows) seen[key(r)] = Math.max(before[key(r)] ?? 0, ...rows.filter((x) => key(x) === key(r)).map((x) => x.id));
      }
      rows.sort((a, b) => compare(cursorOf(a), cursorOf(b)));
      start = rows.length > 0 ? sorted.indexOf(rows[0]!) : total;
      end = start;
      break;
    }
  }
  rows ??= sorted.slice(start, end);
  return { rows, first: rows.length === 0 && anchor.at === 'oldest' ? 0 : start, total, seen };
}

const BIN_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** The chart of `rows` (matching, any order), as the core counts it. */
export function histogramOf(rows: Timed[], request: HistogramRequest, seen: Watermark, seriesOf: (r: Timed) => string): Histogram {
  const times = rows.map((r) => Date.parse(r.event_timestamp)).filter((t) => !Number.isNaN(t));
  const lo = times.length > 0 ? Math.min(...times) : Date.now();
  const hi = times.length > 0 ? Math.max(...times) + 1 : Date.now();
  const from = request.from ? Date.parse(request.from) : lo;
  const to = Math.max(request.to ? Date.parse(request.to) : hi, from + 60_000);
  const maxBins = Math.max(1, request.max_bins ?? 240);
  const span = to - from;
  const bin = span <= maxBins * BIN_MS.minute ? 'minute' : span <= maxBins * BIN_MS.hour ? 'hour' : 'day';
  const width = BIN_MS[bin];
  const start = Math.floor(from / width) * width;
  const bins = Math.max(1, Math.ceil((to - start) / width));
  const counts = new Map<string, number[]>();
  for (const r of rows) {
    const t = Date.parse(r.event_timestamp);
    if (Number.isNaN(t) || t < from || t >= to) continue;
    const b = Math.floor((t - start) / width);
    if (b < 0 || b >= bins) continue;
    const name = seriesOf(r);
    let c = counts.get(name);
    if (!c) counts.set(name, (c = new Array<number>(bins).fill(0)));
    c[b]!++;
  }
  let series = [...counts.entries()].map(([name, c]) => ({ name, counts: c, total: c.reduce((n, x) => n + x, 0) }));
  series.sort((a, b) => b.total - a.total || (a.name < b.name ? -1 : 1));
  const maxSeries = Math.max(1, request.max_series ?? 6);
  if (series.length > maxSeries) {
    const rest = series.slice(maxSeries - 1);
    series = series.slice(0, maxSeries - 1);
    const other = { name: 'other', counts: new Array<number>(bins).fill(0), total: 0 };
    for (const s of rest) {
      s.counts.forEach((n, i) => (other.counts[i]! += n));
      other.total += s.total;
    }
    series.push(other);
  }
  const iso = (ms: number): string => new Date(ms).toISOString();
  return {
    bin,
    start: iso(start),
    end: iso(start + bins * width),
    bins,
    series,
    total: series.reduce((n, s) => n + s.total, 0),
    first: times.length > 0 ? iso(lo) : null,
    last: times.length > 0 ? iso(hi - 1) : null,
    seen,
  };
}

/** The Timeline's part of the stub, with its controls. */
export interface TimelineStub {
  commands: StubPart<TimelineCommands>;
  /** Every hook event, oldest first (built from the rows on first use). */
  events(): ActivityEvent[];
  /** New mutation rows were added: their events join the activity. */
  rowsAdded(rows: MutationRow[]): ActivityEvent[];
  /**
   * A Bash command that changed `files` in `repo`: one row per file, one event; emits `ledger-commit`.
   * With `contents` (per file, what it held before and after the command, `null`: no file) a row is
   * counted and diffed as the daemon does from the contents it kept; without, it has neither.
   */
  addBash(files: string[], repo: string, agent?: string, contents?: Record<string, [string | null, string | null]>): MutationRow[];
  /** A UserPromptSubmit by `agent`, blocked by a hook when `blocked`; emits `ledger-commit`. */
  addPrompt(prompt: string, repo: string, agent?: string, blocked?: boolean): ActivityEvent;
  /** Cans what `previous_content` answers for row `id` of `repo`. */
  setPrevious(repo: string, id: number, answer: PreviousContent): void;
}

const NOTHING_BEFORE: PreviousContent = { source: { kind: 'none' }, content: null, changes_between: 0, note: null };

function hookRun(event: ActivityEvent, id: string, command: string, verdict: 'allow' | 'deny' | 'block' | 'ok', stderr = ''): HookRunRecord {
  const stdout =
    verdict === 'allow' || verdict === 'deny'
      ? JSON.stringify({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: verdict,
            permissionDecisionReason: verdict === 'deny' ? 'in-place sed edits are not allowed here; use the Edit tool' : 'read-only command',
          },
        })
      : '';
  return {
    run_id: id,
    event_id: event.event_id,
    hook_type: event.hook_type,
    tool_name: event.tool_name,
    session_id: event.session_id,
    tool_use_id: event.tool_use_id,
    scope: 'project',
    source: `${event.repo ?? ''}/.hookd/settings.json`,
    matcher: event.tool_name,
    command,
    exit_code: verdict === 'block' ? 2 : 0,
    timed_out: false,
    decision: verdict === 'ok' ? null : verdict,
    duration_ms: 8 + (id.length % 7) * 3.5,
    stdout,
    stderr,
    output_truncated: false,
    error: null,
    started_at: event.event_timestamp,
    skipped: null,
  };
}

const PROMPTS = ['Fix the failing test in checkout', 'Refactor the ledger filter', 'Add a --session flag to hookd query', 'Why is the daemon slow?', 'Format everything'];

export function createTimelineStub(
  rows: MutationRow[],
  projects: ProjectInfo[],
  previous: Map<string, PreviousContent>,
  emit: (event: 'ledger-commit', payload: LedgerCommit) => void,
  now: () => number,
): TimelineStub {
  let built: ActivityEvent[] | null = null;
  let serial = 0;
  /** The names `set_agent_label` gave, by agent id. */
  const labels = new Map<string, string>();
  /** What each Bash row's file held before and after its command, where `addBash` was told. */
  const shellContents = new Map<string, [string | null, string | null]>();

  function event(row: MutationRow, hook: string, at: number, extra: Partial<ActivityEvent> = {}): ActivityEvent {
    return {
      id: ++serial,
      event_id: `${row.event_id}${hook === 'post_tool_use' ? '' : `-${hook}`}`,
      hook_type: hook,
      tool_name: row.tool_name,
      agent_id: row.agent_id,
      agent_kind: row.agent_kind,
      session_id: row.session_id,
      tool_use_id: row.tool_use_id,
      cwd: row.repo ?? null,
      file_path: row.file_path !== null && row.tool_name !== 'Bash' ? `${row.repo ?? ''}/${row.file_path}` : null,
      branch: row.branch,
      head_sha: row.head_sha,
      remote_url: row.remote_url,
      payload_valid: true,
      raw_payload: row.raw_payload,
      event_timestamp: new Date(at).toISOString(),
      received_at: new Date(at + 2).toISOString(),
      source_pid: row.source_pid,
      mutations: hook === 'post_tool_use' ? 1 : 0,
      hook_runs: [],
      repo: row.repo,
      ...extra,
    };
  }

  function prompt(row: MutationRow, at: number, text: string, blocked: boolean): ActivityEvent {
    const payload = JSON.stringify({ session_id: row.session_id, cwd: row.repo, hook_event_name: 'UserPromptSubmit', prompt: text });
    const ev = event(row, 'user_prompt_submit', at, { tool_name: null, tool_use_id: null, file_path: null, raw_payload: payload });
    ev.event_id = `${row.event_id}-prompt`;
    ev.hook_runs = [
      blocked
        ? hookRun(ev, `${ev.event_id}-r`, './hooks/scan-prompt.sh', 'block', 'the prompt contains what looks like an API key')
        : hookRun(ev, `${ev.event_id}-r`, './hooks/scan-prompt.sh', 'ok'),
    ];
    return ev;
  }

  /** The sample events of a row: its PreToolUse and PostToolUse, now and then a prompt before and a Stop after. */
  function eventsFor(row: MutationRow, index: number, filesOf: (eventId: string) => number): ActivityEvent[] {
    // Bash rows of one command share an event: only its first row makes events.
    if (row.mutation_seq > 0) return [];
    const t = Date.parse(row.event_timestamp);
    const out: ActivityEvent[] = [];
    if (index % 7 === 0) out.push(prompt(row, t - 2500, PROMPTS[index % PROMPTS.length]!, index % 35 === 0));
    const pre = event(row, 'pre_tool_use', t - 1200);
    if (row.tool_name === 'Bash') {
      const denied = (row.command ?? '').startsWith('sed -i');
      pre.hook_runs = [hookRun(pre, `${pre.event_id}-r`, './hooks/guard-bash.sh', denied ? 'deny' : 'allow')];
    }
    out.push(pre);
    const post = event(row, 'post_tool_use', t);
    post.mutations = filesOf(row.event_id);
    out.push(post);
    if (index % 11 === 0) {
      const payload = JSON.stringify({ session_id: row.session_id, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done: the change is in place and the tests pass.' });
      out.push(event(row, 'stop', t + 900, { tool_name: null, tool_use_id: null, file_path: null, raw_payload: payload }));
    }
    return out;
  }

  function events(): ActivityEvent[] {
    if (built === null) {
      const all: ActivityEvent[] = [];
      const files = new Map<string, number>();
      for (const r of rows) files.set(r.event_id, (files.get(r.event_id) ?? 0) + 1);
      rows.forEach((r, i) => all.push(...eventsFor(r, i, (id) => files.get(id) ?? 1)));
      all.sort((a, b) => (a.event_timestamp < b.event_timestamp ? -1 : a.event_timestamp > b.event_timestamp ? 1 : a.id - b.id));
      built = all;
    }
    return built;
  }

  function rowsAdded(added: MutationRow[]): ActivityEvent[] {
    if (built === null) return [];
    const start = rows.length - added.length;
    const filesOf = (id: string): number => added.filter((r) => r.event_id === id).length || 1;
    const evs = added.flatMap((r, i) => eventsFor(r, start + i, filesOf));
    built.push(...evs);
    return evs;
  }

  function commit(repo: string, evs: Pick<ActivityEvent, 'event_id' | 'hook_type' | 'tool_name' | 'tool_use_id'>[], mutations: number): void {
    emit('ledger-commit', {
      notices: [
        {
          ledger: `${repo}/.hookd/mutations.db`,
          events: evs.map((e) => ({ event_id: e.event_id, hook_type: e.hook_type, tool_name: e.tool_name, tool_use_id: e.tool_use_id })),
          mutations,
          hook_runs: 0,
        },
      ],
    });
  }

  /** The project a query or a row reference names: a lookup by its root. */
  function project(root: string | null): ProjectInfo {
    const found = projects.find((p) => p.root === root);
    if (!found) throw fail('not_found', `${root ?? '(no directory)'} is not a known project`);
    return found;
  }

  /** What every query narrows by: exact equality of the stored fields. */
  function narrow<T extends { repo?: string | null; agent_id: string; agent_kind?: string; session_id: string | null; branch: string | null; tool_name: string | null }>(
    all: T[],
    q: TimelineQuery,
    repo: string | null,
  ): T[] {
    const out = all.filter(
      (r) =>
        (repo === null || r.repo === repo) &&
        (q.agent === null || r.agent_id === q.agent) &&
        // Activity rows carry no coding agent: the stub's are Claude Code's.
        (q.agent_kind === null || (r.agent_kind ?? 'claude') === q.agent_kind) &&
        (q.session === null || r.session_id === q.session) &&
        (q.branch === null || r.branch === q.branch) &&
        (q.tool === null || r.tool_name === q.tool),
    );
    return out;
  }

  /** Whether `text` has every word of the query's search (the stub matches words anywhere, case aside). */
  function searched(q: TimelineQuery, text: string): boolean {
    if (q.search === null) return true;
    const lower = text.toLowerCase();
    return q.search
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== '')
      .every((w) => lower.includes(w));
  }

  /** The mutations of a query, narrowed and in the timeline's order, and every row of its scope. */
  function mutationsOf(q: TimelineQuery): { matching: MutationRow[]; scope: MutationRow[] } {
    const repo = q.all ? null : project(q.repo).root;
    if (repo !== null && !project(repo).has_ledger) return { matching: [], scope: [] };
    const scope = repo === null ? rows : rows.filter((r) => r.repo === repo);
    const own = q.file === null ? rows : rows.filter((r) => r.file_path === q.file);
    const matching = narrow(own, q, repo)
      .filter((r) => searched(q, `${r.file_path ?? ''} ${r.command ?? ''}`))
      .map((r) => {
        const copy = { ...r, raw_payload: '' };
        if (!q.all) delete copy.repo;
        return copy;
      })
      .sort((a, b) => compare(cursorOf(a), cursorOf(b)));
    return { matching, scope };
  }

  /** The hook events of a query, likewise. */
  function eventsOf(q: TimelineQuery): { matching: ActivityEvent[]; scope: ActivityEvent[] } {
    const repo = q.all ? null : project(q.repo).root;
    const scope = repo === null ? events() : events().filter((e) => e.repo === repo);
    const matching = narrow(events(), q, repo)
      .filter((e) => searched(q, e.file_path ?? ''))
      .map((e) => {
        const copy = { ...e };
        if (!q.all) delete copy.repo;
        return copy;
      })
      .sort((a, b) => compare(cursorOf(a), cursorOf(b)));
    return { matching, scope };
  }

  /** A row's ledger in a watermark: its repository for every project, `""` for one. */
  const ledgerKey = (q: TimelineQuery) => (r: Timed): string => (q.all ? (r.repo ?? '') : '');

  const commands: StubPart<TimelineCommands> = {
    timeline_page: ({ query: q, anchor, limit }) => {
      const { matching, scope } = mutationsOf(q);
      return pageOf(matching, scope, anchor, limit, ledgerKey(q));
    },
    activity_page: ({ query: q, anchor, limit }) => {
      const { matching, scope } = eventsOf(q);
      return pageOf(matching, scope, anchor, limit, ledgerKey(q));
    },
    timeline_histogram: ({ query: q, request }) => {
      const { matching, scope } = mutationsOf(q);
      const seen = pageOf(matching, scope, { at: 'oldest' }, 1, ledgerKey(q)).seen;
      return histogramOf(matching, request, seen, (r) => (request.series === 'tool' ? (r.tool_name ?? r.hook_type) : r.agent_id));
    },
    activity_histogram: ({ query: q, request }) => {
      const { matching, scope } = eventsOf(q);
      const seen = pageOf(matching, scope, { at: 'oldest' }, 1, ledgerKey(q)).seen;
      return histogramOf(matching, request, seen, (r) => (request.series === 'tool' ? (r.tool_name ?? r.hook_type) : r.agent_id));
    },
    activity_event: ({ row: ref }) => {
      const root = project(ref.repo).root;
      const found = events().find((e) => e.repo === root && e.id === ref.id);
      if (!found) throw fail('not_found', `no event ${ref.id} in ${root}/.hookd/mutations.db`);
      const { repo: _repo, ...whole } = found;
      return whole;
    },
    prompt_group: ({ row: ref }) => {
      const root = project(ref.repo).root;
      const mine = events()
        .filter((e) => e.repo === root)
        .sort((a, b) => compare(cursorOf(a), cursorOf(b)));
      const at = mine.findIndex((e) => e.id === ref.id);
      const row = mine[at];
      if (row === undefined || row.session_id === null || row.hook_type === 'session_start') return null;
      const bound = (e: ActivityEvent): boolean =>
        e.session_id === row.session_id && (e.hook_type === 'user_prompt_submit' || e.hook_type === 'session_start');
      let h = at;
      if (row.hook_type !== 'user_prompt_submit') {
        h = at - 1;
        while (h >= 0 && !bound(mine[h]!)) h--;
        if (h < 0 || mine[h]!.hook_type !== 'user_prompt_submit') return null;
      }
      const calls = new Set<string>();
      let anonymous = 0;
      let changes = 0;
      for (const e of mine.slice(h + 1)) {
        if (e.session_id !== row.session_id) continue;
        if (bound(e)) break;
        if (e.tool_name !== null) {
          if (e.tool_use_id !== null) calls.add(e.tool_use_id);
          else if (e.hook_type !== 'pre_tool_use') anonymous++;
        }
        changes += e.mutations;
      }
      const { repo: _repo, ...head } = mine[h]!;
      return { head, calls: calls.size + anonymous, changes };
    },
    mutation_row: ({ row: ref }) => {
      const root = project(ref.repo).root;
      const found = rows.find((r) => r.repo === root && r.id === ref.id);
      if (!found) throw fail('not_found', `no row ${ref.id} in ${root}/.hookd/mutations.db`);
      const { repo: _repo, ...whole } = found;
      return whole;
    },
    previous_content: ({ row: ref }) => previous.get(rowKey(project(ref.repo).root, ref.id)) ?? NOTHING_BEFORE,
    mutation_diff: ({ row: ref }) => {
      const root = project(ref.repo).root;
      const found = rows.find((r) => r.repo === root && r.id === ref.id);
      if (!found) throw fail('not_found', `no row ${ref.id} in ${root}/.hookd/mutations.db`);
      const input = toolInputOf(found.raw_payload);
      const recorded = found.lines_added !== null && found.lines_removed !== null ? { added: found.lines_added, removed: found.lines_removed } : null;
      if (found.tool_name === 'Bash') {
        const kept = shellContents.get(rowKey(root, ref.id));
        return { change: kept ? shellDiff(kept[0], kept[1]) : null, previous: null, recorded };
      }
      const plain = changeDiff(input);
      if (plain?.kind !== 'write') return { change: plain, previous: null, recorded };
      const reported = reportedPreviousOf(found.raw_payload);
      if (reported !== null) {
        return { change: changeDiff(input, reported), previous: { source: { kind: 'reported' }, content: null, changes_between: 0, note: null }, recorded };
      }
      const prev = previous.get(rowKey(root, ref.id)) ?? NOTHING_BEFORE;
      return { change: changeDiff(input, prev.content), previous: { ...prev, content: null }, recorded };
    },
    payload_diff: ({ payload }) => changeDiff(toolInputOf(payload), reportedPreviousOf(payload)),
    known_values: ({ query: q, field, part, activity }) => {
      const repo = q.all ? null : project(q.repo).root;
      const all: Array<MutationRow | ActivityEvent> = activity ? events() : rows;
      const counts = new Map<string, number>();
      for (const r of all) {
        if (repo !== null && r.repo !== repo) continue;
        const value =
          field === 'file'
            ? 'mutation_seq' in r
              ? r.file_path
              : null
            : field === 'agent'
              ? r.agent_id
              : field === 'session'
                ? r.session_id
                : field === 'branch'
                  ? r.branch
                  : field === 'tool'
                    ? r.tool_name
                    : r.hook_type;
        if (value === null || value === '') continue;
        if (part !== null && !value.toLowerCase().includes(part.toLowerCase())) continue;
        counts.set(value, (counts.get(value) ?? 0) + 1);
      }
      return [...counts]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 200)
        .map(([value, n]) => ({ value, rows: n }));
    },
    agent_names: ({ ids }) =>
      ids.map((id) => ({
        agent_id: id,
        agent_type: null,
        session_id: null,
        first_seen: '',
        agent_kind: null,
        label: labels.get(id) ?? null,
        name: labels.get(id) ?? `main ${id.slice(0, 8)}`,
      })),
    set_agent_label: ({ agent, label }) => {
      const name = label.trim();
      if (name === '') labels.delete(agent);
      else labels.set(agent, name);
      return null;
    },
    event_mutations: ({ event: ref }) => {
      const root = project(ref.repo).root;
      return rows
        .filter((r) => r.repo === root && r.event_id === ref.event_id)
        .sort((a, b) => a.mutation_seq - b.mutation_seq)
        .map(({ repo: _repo, ...rest }) => rest);
    },
  };

  function addBash(files: string[], repo: string, agent = 'claude-main', contents: Record<string, [string | null, string | null]> = {}): MutationRow[] {
    const p = project(repo);
    const at = new Date(now()).toISOString();
    const command = `./scripts/gen ${files.join(' ')}`;
    const eventId = `bash-${++serial}-${Date.now().toString(36)}`;
    const nextId = Math.max(0, ...rows.filter((r) => r.repo === p.root).map((r) => r.id)) + 1;
    const counts = (file: string): LineCounts | null => {
      const kept = contents[file];
      return kept ? shellDiff(kept[0], kept[1]).counts : null;
    };
    const added = files.map((file, seq): MutationRow => ({
      id: nextId + seq,
      event_type: 'tool.mutation.bash',
      hook_type: 'post_tool_use',
      tool_name: 'Bash',
      agent_id: agent,
      agent_kind: 'claude',
      file_path: file,
      file_ext: file.includes('.') ? file.slice(file.lastIndexOf('.') + 1) : null,
      lines_changed: null,
      lines_added: counts(file)?.added ?? null,
      lines_removed: counts(file)?.removed ?? null,
      branch: 'main',
      head_sha: 'c0ffee'.padEnd(40, '0'),
      raw_payload: JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command, description: 'Generate files' } }),
      event_timestamp: at,
      received_at: at,
      event_id: eventId,
      mutation_seq: seq,
      session_id: `session-${agent}`,
      tool_use_id: `toolu_${eventId}`,
      remote_url: null,
      command,
      source_pid: 4242,
      flags: [],
      repo: p.root,
    }));
    rows.push(...added);
    for (const row of added) {
      const kept = row.file_path !== null ? contents[row.file_path] : undefined;
      if (kept) shellContents.set(rowKey(p.root, row.id), kept);
    }
    p.mutations += added.length;
    rowsAdded(added);
    commit(p.root, [{ event_id: eventId, hook_type: 'post_tool_use', tool_name: 'Bash', tool_use_id: added[0]?.tool_use_id ?? null }], added.length);
    return added;
  }

  function addPrompt(text: string, repo: string, agent = 'claude-main', blocked = false): ActivityEvent {
    const p = project(repo);
    const base = rows.find((r) => r.repo === p.root) ?? rows[0]!;
    const ev = prompt({ ...base, agent_id: agent, session_id: `session-${agent}`, event_id: `p${++serial}` }, now(), text, blocked);
    events().push(ev);
    commit(p.root, [ev], 0);
    return ev;
  }

  return {
    commands,
    events,
    rowsAdded,
    addBash,
    addPrompt,
    setPrevious(repo, id, answer) {
      previous.set(rowKey(repo, id), answer);
    },
  };
}
