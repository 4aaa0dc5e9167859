// The Timeline's extra commands for the in-memory stub backend (stub.ts):
// `agent_activity` (hook events with hook runs), `mutation_row` (one row
// whole), `previous_content` (what a Write replaced) and `event_mutations`
// (the files of one Bash command),
// with the same JSON shapes and error values as src-tauri.
//
// The events are derived from the sample mutation rows the first time they
// are asked for (each mutation gets its PreToolUse and PostToolUse, some get
// a prompt before or a Stop after; Bash calls and prompts get managed hook
// runs, some of which deny or block), so 100,000 rows cost nothing until
// the activity mode is opened. Previous content follows the real rules:
// the newest earlier Write of the file, else a stand-in for the file in git.

import { normalizeHookType } from './activity';
import { parseWhen } from './time';
import type { ActivityEvent, ApiError, HookRunRecord, LedgerCommit, MutationRow, PreviousContent, ProjectInfo, TimelineQuery } from './types';

export interface ActivityStub {
  /** Answers the three commands; undefined for any other. */
  dispatch(cmd: string, args: Record<string, unknown> | undefined): { value: unknown } | undefined;
  /** Every event, oldest first (built on first use). */
  events(): ActivityEvent[];
  /** New mutation rows were added: their events join the activity. */
  rowsAdded(rows: MutationRow[]): ActivityEvent[];
  /** A Bash command that changed `files` in `repo`: one row per file, one event; emits `ledger-commit`. */
  addBash(files: string[], repo: string, agent?: string): MutationRow[];
  /** A UserPromptSubmit by `agent`, blocked by a hook when `blocked`; emits `ledger-commit`. */
  addPrompt(prompt: string, repo: string, agent?: string, blocked?: boolean): ActivityEvent;
}

const fail = (kind: string, message: string): ApiError => ({ kind, message });

/** `/root/x/y` is inside project `/root`. */
function projectOf(projects: ProjectInfo[], dir: string | null): ProjectInfo | undefined {
  if (dir === null) return undefined;
  const d = dir.replace(/(.)\/+$/, '$1');
  return projects.find((p) => d === p.root || d.startsWith(`${p.root}/`));
}

function run(event: ActivityEvent, id: string, command: string, verdict: 'allow' | 'deny' | 'block' | 'ok', stderr = ''): HookRunRecord {
  const decision = verdict === 'ok' ? null : verdict;
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
    decision,
    duration_ms: 8 + (id.length % 7) * 3.5,
    stdout,
    stderr,
    output_truncated: false,
    error: null,
    started_at: event.event_timestamp,
  };
}

export function createActivityStub(
  rows: MutationRow[],
  projects: ProjectInfo[],
  emit: (event: string, payload: unknown) => void,
  now: () => number,
): ActivityStub {
  let built: ActivityEvent[] | null = null;
  let serial = 0;

  function event(row: MutationRow, hook: string, at: number, extra: Partial<ActivityEvent> = {}): ActivityEvent {
    return {
      id: ++serial,
      event_id: `${row.event_id}${hook === 'post_tool_use' ? '' : `-${hook}`}`,
      hook_type: hook,
      tool_name: row.tool_name,
      agent_id: row.agent_id,
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
        ? run(ev, `${ev.event_id}-r`, './hooks/scan-prompt.sh', 'block', 'the prompt contains what looks like an API key')
        : run(ev, `${ev.event_id}-r`, './hooks/scan-prompt.sh', 'ok'),
    ];
    return ev;
  }

  const PROMPTS = ['Fix the failing test in checkout', 'Refactor the ledger filter', 'Add a --session flag to hookd query', 'Why is the daemon slow?', 'Format everything'];

  function eventsFor(row: MutationRow, index: number, filesOf: (eventId: string) => number): ActivityEvent[] {
    // Bash rows of one command share an event: only its first row makes events.
    if (row.mutation_seq > 0) return [];
    const t = Date.parse(row.event_timestamp);
    const out: ActivityEvent[] = [];
    if (index % 7 === 0) out.push(prompt(row, t - 2500, PROMPTS[index % PROMPTS.length]!, index % 35 === 0));
    const pre = event(row, 'pre_tool_use', t - 1200);
    if (row.tool_name === 'Bash') {
      const denied = (row.command ?? '').startsWith('sed -i');
      pre.hook_runs = [run(pre, `${pre.event_id}-r`, './hooks/guard-bash.sh', denied ? 'deny' : 'allow')];
    }
    out.push(pre);
    const post = event(row, 'post_tool_use', t);
    post.mutations = filesOf(row.event_id);
    out.push(post);
    if (index % 11 === 0) {
      const payload = JSON.stringify({ session_id: row.session_id, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done: the change is in place and the tests pass.' });
      const stop = event(row, 'stop', t + 900, { tool_name: null, tool_use_id: null, file_path: null, raw_payload: payload });
      out.push(stop);
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
    const payload: LedgerCommit = {
      notices: [
        {
          ledger: `${repo}/.hookd/mutations.db`,
          events: evs.map((e) => ({ event_id: e.event_id, hook_type: e.hook_type, tool_name: e.tool_name, tool_use_id: e.tool_use_id })),
          mutations,
          hook_runs: 0,
        },
      ],
    };
    emit('ledger-commit', payload);
  }

  function scope(q: TimelineQuery): string | null {
    if (q.all) return null;
    const project = projectOf(projects, q.repo);
    if (!project) throw fail('not_a_repository', `${q.repo ?? '(no directory)'} is not inside a known repository`);
    return project.root;
  }

  function agentActivity(q: TimelineQuery): ActivityEvent[] {
    const repo = scope(q);
    const bound = (text: string | null): number | null => {
      if (text === null) return null;
      const t = parseWhen(text, now());
      if (t === null) throw fail('invalid_input', `invalid time "${text}": use a duration (30m, 1h, 2d) or an RFC 3339 time`);
      return t;
    };
    const since = bound(q.since);
    const until = bound(q.until);
    const hook = q.event_type !== null ? normalizeHookType(q.event_type) : null;
    const tool = q.tool?.toLowerCase() ?? null;
    const changedFile = q.file !== null ? new Set(rows.filter((r) => r.file_path === q.file).map((r) => r.event_id)) : null;
    let out = events().filter((e) => {
      if (repo !== null && e.repo !== repo) return false;
      if (q.agent !== null && e.agent_id !== q.agent) return false;
      if (q.session !== null && e.session_id !== q.session) return false;
      if (hook !== null && e.hook_type !== hook) return false;
      if (tool !== null && e.tool_name?.toLowerCase() !== tool) return false;
      if (q.branch !== null && e.branch !== q.branch) return false;
      if (q.file !== null && !(e.file_path === q.file || e.file_path?.endsWith(`/${q.file}`) || changedFile!.has(e.event_id))) return false;
      if (since !== null || until !== null) {
        const t = Date.parse(e.event_timestamp);
        if (since !== null && t < since) return false;
        if (until !== null && t >= until) return false;
      }
      return true;
    });
    if (q.limit !== null && out.length > q.limit) out = out.slice(out.length - q.limit);
    return q.all ? out : out.map(({ repo: _repo, ...rest }) => rest);
  }

  /** The row `id` of the ledger of `repo` (stub ids are per project). */
  function findRow(repo: string | null, id: number): { row: MutationRow; index: number; root: string } {
    const project = projectOf(projects, repo);
    if (!project) throw fail('not_found', `no ledger for ${repo ?? '(outside git)'}`);
    const index = rows.findIndex((r) => r.repo === project.root && r.id === id);
    if (index < 0) throw fail('not_found', `no row ${id} in ${project.root}/.hookd/mutations.db`);
    return { row: rows[index]!, index, root: project.root };
  }

  function writtenContent(row: MutationRow): string | null {
    try {
      const p = JSON.parse(row.raw_payload) as { tool_input?: { content?: unknown } };
      return typeof p.tool_input?.content === 'string' ? p.tool_input.content : null;
    } catch {
      return null;
    }
  }

  function previousContent(ref: { repo: string | null; id: number }): PreviousContent {
    const { row, index, root } = findRow(ref.repo, ref.id);
    let between = 0;
    for (let i = index - 1; i >= 0; i--) {
      const r = rows[i]!;
      if (r.repo !== root || r.file_path !== row.file_path) continue;
      const content = r.tool_name === 'Write' ? writtenContent(r) : null;
      if (content !== null) {
        return {
          source: { kind: 'write', id: r.id, event_id: r.event_id, event_timestamp: r.event_timestamp, agent_id: r.agent_id },
          content,
          changes_between: between,
          note: null,
        };
      }
      between++;
    }
    const written = writtenContent(row);
    if (written === null || row.file_path === null || row.file_path.startsWith('new/')) {
      return { source: { kind: 'none' }, content: null, changes_between: 0, note: null };
    }
    // A stand-in for the committed file: the written content one version older.
    const lines = written.split('\n');
    const committed = [`${lines[0] ?? ''} (committed)`, ...lines.slice(2)].join('\n');
    return { source: { kind: 'git', sha: row.head_sha }, content: committed, changes_between: between, note: null };
  }

  function eventMutations(ref: { repo: string | null; event_id: string }): MutationRow[] {
    const project = projectOf(projects, ref.repo);
    if (!project) throw fail('not_found', `no ledger for ${ref.repo ?? '(outside git)'}`);
    return rows
      .filter((r) => r.repo === project.root && r.event_id === ref.event_id)
      .sort((a, b) => a.mutation_seq - b.mutation_seq)
      .map(({ repo: _repo, ...rest }) => rest);
  }

  function addBash(files: string[], repo: string, agent = 'claude-main'): MutationRow[] {
    const project = projectOf(projects, repo);
    if (!project) throw new Error(`addBash: ${repo} is not a stub project`);
    const at = new Date(now()).toISOString();
    const command = `./scripts/gen ${files.join(' ')}`;
    const eventId = `bash-${++serial}-${Date.now().toString(36)}`;
    const nextId = Math.max(0, ...rows.filter((r) => r.repo === project.root).map((r) => r.id)) + 1;
    const added = files.map((file, seq): MutationRow => ({
      id: nextId + seq,
      event_type: 'tool.mutation.bash',
      hook_type: 'post_tool_use',
      tool_name: 'Bash',
      agent_id: agent,
      file_path: file,
      file_ext: file.includes('.') ? file.slice(file.lastIndexOf('.') + 1) : null,
      lines_changed: null,
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
      repo: project.root,
    }));
    rows.push(...added);
    project.mutations += added.length;
    rowsAdded(added);
    commit(project.root, [{ event_id: eventId, hook_type: 'post_tool_use', tool_name: 'Bash', tool_use_id: added[0]?.tool_use_id ?? null }], added.length);
    return added;
  }

  function addPrompt(text: string, repo: string, agent = 'claude-main', blocked = false): ActivityEvent {
    const project = projectOf(projects, repo);
    if (!project) throw new Error(`addPrompt: ${repo} is not a stub project`);
    const base = rows.find((r) => r.repo === project.root) ?? rows[0]!;
    const ev = prompt({ ...base, agent_id: agent, session_id: `session-${agent}`, event_id: `p${++serial}` }, now(), text, blocked);
    events().push(ev);
    commit(project.root, [ev], 0);
    return ev;
  }

  return {
    dispatch(cmd, args) {
      switch (cmd) {
        case 'agent_activity': {
          const query = args?.query as TimelineQuery | undefined;
          if (!query || typeof query !== 'object') throw fail('invalid_input', 'agent_activity expects { query }');
          return { value: agentActivity(query) };
        }
        case 'mutation_row': {
          const row = args?.row as { repo: string | null; id: number } | undefined;
          if (!row || typeof row.id !== 'number') throw fail('invalid_input', 'mutation_row expects { row: { repo, id } }');
          const { row: found } = findRow(row.repo, row.id);
          const { repo: _repo, ...whole } = found;
          return { value: whole };
        }
        case 'previous_content': {
          const row = args?.row as { repo: string | null; id: number } | undefined;
          if (!row || typeof row.id !== 'number') throw fail('invalid_input', 'previous_content expects { row: { repo, id } }');
          return { value: previousContent(row) };
        }
        case 'event_mutations': {
          const ev = args?.event as { repo: string | null; event_id: string } | undefined;
          if (!ev || typeof ev.event_id !== 'string') throw fail('invalid_input', 'event_mutations expects { event: { repo, event_id } }');
          return { value: eventMutations(ev) };
        }
        default:
          return undefined;
      }
    },
    events,
    rowsAdded,
    addBash,
    addPrompt,
  };
}
