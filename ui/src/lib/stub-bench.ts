// The stub backend's Test bench and Connect commands (see stub.ts): a few
// realistic hooks per project, Claude Code's matcher rules, canned runs
// (a Bash guard that refuses `rm -rf` with exit 2, an MCP hook that asks),
// and settings files held in memory that Connect previews and writes.
//
// Answers have the shapes src-tauri returns, so the views and their tests
// work in a plain browser. The logic is deliberately small: the real
// matching, running and merging live in hookd-core.

import type {
  ApiError,
  BenchCatalog,
  BenchHook,
  BenchHookRun,
  BenchMatch,
  BenchRun,
  BenchSample,
  ConnectMode,
  ConnectPreview,
  ConnectResult,
  ConnectScope,
  ProjectInfo,
} from './types';

/** Home of the stub's user. */
const HOME = '/home/dev';
/** Where the stub's hookd-emit lives. */
const EMIT = '/usr/local/bin/hookd-emit';

const EVENTS: { name: string; description: string; field: string | null }[] = [
  { name: 'PreToolUse', description: 'Before a tool runs; exit 2 or a deny decision blocks the call', field: 'tool_name' },
  { name: 'PermissionRequest', description: 'When the agent is about to ask for permission to use a tool', field: 'tool_name' },
  { name: 'PostToolUse', description: 'After a tool call succeeded; sees the tool\u2019s input and response', field: 'tool_name' },
  { name: 'PostToolUseFailure', description: 'After a tool call failed; sees the error', field: 'tool_name' },
  { name: 'SessionStart', description: 'When a session starts, resumes, is cleared or compacted', field: 'source' },
  { name: 'SessionEnd', description: 'When a session ends (clear, logout, exit, ...)', field: 'reason' },
  { name: 'UserPromptSubmit', description: 'When the user submits a prompt, before the model sees it', field: null },
  { name: 'Stop', description: 'When the agent finishes its turn; exit 2 keeps it working', field: null },
  { name: 'SubagentStop', description: 'When a subagent finishes; exit 2 keeps it working', field: 'agent_type' },
  { name: 'Notification', description: 'When the agent sends a notification (permission prompt, idle, ...)', field: 'notification_type' },
  { name: 'PreCompact', description: 'Before the conversation is compacted (manual or auto)', field: 'trigger' },
];

const RECORD_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SessionStart', 'SessionEnd', 'UserPromptSubmit', 'Stop', 'SubagentStart', 'SubagentStop', 'Notification', 'PreCompact'];
const MANAGED_EVENTS = ['PreToolUse', 'PermissionRequest', ...RECORD_EVENTS.slice(1), 'PostCompact'];
const TOOL_EVENTS = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure']);

interface StubHook {
  kind: 'agent' | 'managed';
  scope: 'global' | 'project' | 'local';
  file: string;
  event: string;
  matcher: string | null;
  type: string;
  summary: string;
  timeout: number | null;
  /** One of hookd's own hookd-emit entries (never run by the bench). */
  recorder?: boolean;
  /** What running it gives for a payload. */
  run?: (payload: Record<string, unknown>) => { exit: number; stdout: string; stderr: string; ms: number };
}

function fail(kind: string, message: string): ApiError {
  return { kind, message };
}

function snake(event: string): string {
  return event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Claude Code's matcher rules: all, exact names, or an unanchored regex. */
function explain(matcher: string | null, target: string | null): { runs: boolean; reason: string } | 'bad' {
  const text = matcher?.trim() ?? '';
  if (text === '' || text === '*') return { runs: true, reason: 'matches all' };
  if (/^[A-Za-z0-9_\- ,|]+$/.test(matcher!)) {
    const names = matcher!.split(/[|,]/).map((n) => n.trim()).filter(Boolean);
    if (target !== null && names.includes(target)) return { runs: true, reason: `exact name ${target}` };
    return { runs: false, reason: target === null ? '' : `"${target}" is not one of the exact names` };
  }
  let re: RegExp;
  try {
    re = new RegExp(matcher!);
  } catch {
    return 'bad';
  }
  const found = target === null ? null : re.exec(target);
  if (found) return { runs: true, reason: `regex matched ${JSON.stringify(found[0])}` };
  return { runs: false, reason: target === null ? '' : `regex found nothing in "${target}"` };
}

function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

function version(text: string | undefined): string {
  return text === undefined ? 'missing' : `${text.length}-${fnv(text)}`;
}

/** The stub's Test bench and Connect commands over the shared sample projects. */
export function createBenchStub(projects: ProjectInfo[]) {
  const files = new Map<string, string>();
  const hookdEntry = (event: string, wait: boolean): unknown => ({
    ...(TOOL_EVENTS.has(event) ? { matcher: '*' } : {}),
    hooks: [{ type: 'command', command: `${EMIT}${wait ? ' --wait' : ''} ${snake(event)}`, timeout: wait ? 610 : 10 }],
  });
  const connected = (events: string[], wait: boolean): string =>
    `${JSON.stringify({ hooks: Object.fromEntries(events.map((e) => [e, [hookdEntry(e, wait)]])) }, null, 2)}\n`;
  for (const p of projects) {
    if (p.connected.project) files.set(`${p.root}/.claude/settings.json`, connected(RECORD_EVENTS, false));
    if (p.connected.local) files.set(`${p.root}/.claude/settings.local.json`, connected(RECORD_EVENTS, false));
  }
  if (projects.some((p) => p.connected.user)) files.set(`${HOME}/.claude/settings.json`, connected(RECORD_EVENTS, false));

  function project(root: string): ProjectInfo {
    if (!root.startsWith('/')) throw fail('invalid_input', `project ${JSON.stringify(root)} is not an absolute path`);
    const p = projects.find((x) => root === x.root || root.startsWith(`${x.root}/`));
    if (!p) throw fail('not_found', `project directory ${root}: No such file or directory (os error 2)`);
    return p;
  }

  function hooksOf(root: string): StubHook[] {
    const projectFile = `${root}/.claude/settings.json`;
    const recorder: StubHook[] = (files.get(projectFile) ?? '').includes(`${EMIT} pre_tool_use`)
      ? [{ kind: 'agent', scope: 'project', file: projectFile, event: 'PreToolUse', matcher: '*', type: 'command', summary: `${EMIT} pre_tool_use`, timeout: 10, recorder: true }]
      : [];
    return [
      ...recorder,
      {
        kind: 'agent',
        scope: 'global',
        file: `${HOME}/.claude/settings.json`,
        event: 'PreToolUse',
        matcher: 'mcp__.*',
        type: 'command',
        summary: '~/bin/mcp-audit.sh',
        timeout: 10,
        run: () => ({
          exit: 0,
          stdout: '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "MCP writes need a look"}}\n',
          stderr: '',
          ms: 18,
        }),
      },
      { kind: 'agent', scope: 'global', file: `${HOME}/.claude/settings.json`, event: 'Stop', matcher: null, type: 'command', summary: 'notify-send "Claude is done"', timeout: null, run: () => ({ exit: 0, stdout: '', stderr: '', ms: 9 }) },
      {
        kind: 'agent',
        scope: 'local',
        file: `${root}/.claude/settings.local.json`,
        event: 'PreToolUse',
        matcher: 'Bash',
        type: 'command',
        summary: `${root}/.claude/hooks/guard-rm.sh`,
        timeout: 5,
        run: (payload) => {
          const input = payload.tool_input as Record<string, unknown> | undefined;
          const command = typeof input?.command === 'string' ? input.command : '';
          return command.includes('rm -rf') ? { exit: 2, stdout: '', stderr: 'refusing rm -rf\n', ms: 6 } : { exit: 0, stdout: '', stderr: '', ms: 5 };
        },
      },
      { kind: 'managed', scope: 'project', file: `${root}/.hookd/settings.json`, event: 'PreToolUse', matcher: 'Write|Edit|MultiEdit', type: 'command', summary: 'hookd-fmt --check', timeout: null, run: () => ({ exit: 0, stdout: '', stderr: '', ms: 41 }) },
      { kind: 'managed', scope: 'project', file: `${root}/.hookd/settings.json`, event: 'PostToolUse', matcher: 'Write|Edit', type: 'http', summary: 'https://ci.example.invalid/hooks/edit', timeout: null },
    ];
  }

  function samples(root: string): BenchSample[] {
    const base = (event: string): Record<string, unknown> => ({
      session_id: '3f2a9c4e-7b1d-4e8a-9c5f-0d6e2b7a1c93',
      transcript_path: `${HOME}/.claude/projects/${root.replace(/[^A-Za-z0-9]/g, '-')}/3f2a9c4e-7b1d-4e8a-9c5f-0d6e2b7a1c93.jsonl`,
      cwd: root,
      permission_mode: 'default',
      hook_event_name: event,
    });
    const tool = (event: string, name: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
      ...base(event),
      tool_name: name,
      tool_input: input,
      tool_use_id: 'toolu_01HookdSampleToolUse000001',
      ...extra,
    });
    const write = { file_path: `${root}/src/hello.rs`, content: 'pub fn hello() -> &\'static str {\n    "hello"\n}\n' };
    const start: Record<string, unknown> = { ...base('SessionStart'), source: 'startup', model: 'claude-sonnet-4-5' };
    delete start.permission_mode; // SessionStart carries no permission mode
    return [
      { id: 'write', label: 'Write: create a file', event: 'PreToolUse', payload: tool('PreToolUse', 'Write', write) },
      { id: 'edit', label: 'Edit: replace a string in a file', event: 'PreToolUse', payload: tool('PreToolUse', 'Edit', { file_path: `${root}/README.md`, old_string: 'hello\n', new_string: 'hello, hookd\n', replace_all: false }) },
      {
        id: 'multiedit',
        label: 'MultiEdit: several edits to one file',
        event: 'PreToolUse',
        payload: tool('PreToolUse', 'MultiEdit', { file_path: `${root}/src/config.rs`, edits: [{ old_string: 'const LIMIT: u32 = 100;', new_string: 'const LIMIT: u32 = 1_000;' }] }),
      },
      { id: 'bash', label: 'Bash: run a command', event: 'PreToolUse', payload: tool('PreToolUse', 'Bash', { command: 'cargo test --workspace', description: 'Run the test suite', timeout: 120000, run_in_background: false }) },
      {
        id: 'notebook-edit',
        label: 'NotebookEdit: replace a cell',
        event: 'PreToolUse',
        payload: tool('PreToolUse', 'NotebookEdit', { notebook_path: `${root}/notebooks/analysis.ipynb`, cell_id: 'cell-3', new_source: 'df.describe()\n', cell_type: 'code', edit_mode: 'replace' }),
      },
      { id: 'mcp', label: 'MCP tool: mcp__filesystem__write_file', event: 'PreToolUse', payload: tool('PreToolUse', 'mcp__filesystem__write_file', { path: `${root}/notes/todo.md`, content: '- [ ] ship the test bench\n' }) },
      {
        id: 'write-done',
        label: 'Write, after it ran (PostToolUse)',
        event: 'PostToolUse',
        payload: tool('PostToolUse', 'Write', write, { tool_response: { filePath: write.file_path, success: true }, duration_ms: 12 }),
      },
      { id: 'user-prompt-submit', label: 'UserPromptSubmit: a prompt', event: 'UserPromptSubmit', payload: { ...base('UserPromptSubmit'), prompt: 'Add a --verbose flag to the CLI and document it in the README.' } },
      { id: 'stop', label: 'Stop: the agent finished its turn', event: 'Stop', payload: { ...base('Stop'), stop_hook_active: false, last_assistant_message: 'I added the --verbose flag, documented it and the tests pass.' } },
      { id: 'session-start', label: 'SessionStart: a new session', event: 'SessionStart', payload: start },
    ] as BenchSample[];
  }

  function catalog(root: string): BenchCatalog {
    const p = project(root);
    return {
      project: p.root,
      events: EVENTS.map((e) => ({ name: e.name, description: e.description, match_field: e.field })),
      samples: samples(p.root),
    };
  }

  function match(root: string, event: string, payload: unknown): { m: BenchMatch; hooks: StubHook[] } {
    const p = project(root);
    const spec = EVENTS.find((e) => e.name === event);
    if (!spec) throw fail('invalid_input', `unknown event ${JSON.stringify(event)}: pick one of the catalogue (PreToolUse, Stop, ...)`);
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) throw fail('invalid_input', 'the payload must be a JSON object (what the agent sends on stdin)');
    const raw = spec.field ? (payload as Record<string, unknown>)[spec.field] : undefined;
    const target = typeof raw === 'string' ? raw : null;
    const all = hooksOf(p.root);
    const mine = all.filter((h) => h.event === event);
    const hooks: BenchHook[] = mine.map((h) => {
      let outcome = 'runs';
      let reason: string;
      if (spec.field === null) reason = 'matcher not supported by this event (runs always)';
      else {
        const e = explain(h.matcher, target);
        if (e === 'bad') {
          outcome = 'bad_matcher';
          reason = 'invalid matcher';
        } else if (e.runs) reason = e.reason;
        else {
          outcome = 'no_match';
          reason = target === null ? `payload has no ${spec.field}` : `${spec.field} ${e.reason}`;
        }
      }
      return {
        index: all.indexOf(h),
        kind: h.kind,
        scope: h.scope,
        file: h.file,
        matcher: h.matcher,
        handler_type: h.type,
        summary: h.summary,
        timeout: h.timeout,
        outcome,
        reason: outcome === 'runs' && h.recorder ? `${reason}; hookd's own recorder, not run here (it would record this test as a real event)` : reason,
        executes: outcome === 'runs' && h.type === 'command' && !h.recorder,
        recorder: h.recorder === true,
      };
    });
    return { m: { event, match_field: spec.field, target, hooks, all_hooks_disabled_by: [] }, hooks: all };
  }

  function run(root: string, event: string, payload: unknown): BenchRun {
    const { m, hooks } = match(root, event, payload);
    const runs: BenchHookRun[] = m.hooks
      .filter((h) => h.executes)
      .map((h) => {
        const hook = hooks[h.index]!;
        const r = hook.run?.(payload as Record<string, unknown>) ?? { exit: 0, stdout: '', stderr: '', ms: 3 };
        let decision: string | null = null;
        let reason: string | null = null;
        if (r.exit === 2 && TOOL_EVENTS.has(event)) {
          decision = event === 'PreToolUse' ? 'deny' : 'block';
          reason = r.stderr;
        } else if (r.exit === 0 && r.stdout.trim().startsWith('{')) {
          const out = JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
          decision = out.hookSpecificOutput?.permissionDecision ?? null;
          reason = out.hookSpecificOutput?.permissionDecisionReason ?? null;
        }
        return {
          index: h.index,
          command: h.summary,
          file: h.file,
          exit_code: r.exit,
          timed_out: false,
          duration_ms: r.ms,
          stdout: r.stdout,
          stderr: r.stderr,
          truncated: false,
          decision,
          reason,
          json_error: null,
          error: r.exit !== 0 && r.exit !== 2 ? `exited with code ${r.exit}: ${r.stderr.split('\n')[0]}` : null,
        };
      });
    const rank = ['deny', 'block', 'defer', 'ask', 'allow'];
    const winner = rank.find((d) => runs.some((r) => r.decision === d)) ?? null;
    const reasons = runs.filter((r) => r.decision === winner && r.reason).map((r) => r.reason!.trim());
    const viaExit2 = winner !== null && runs.filter((r) => r.decision === winner).every((r) => r.exit_code === 2);
    let exit = 0;
    let stdout = '';
    let stderr = '';
    if (winner !== null && viaExit2) {
      exit = 2;
      stderr = `${reasons.join('\n')}\n`;
    } else if (winner !== null) {
      stdout = JSON.stringify({ hookSpecificOutput: { hookEventName: event, permissionDecision: winner, permissionDecisionReason: reasons.join('\n') } });
    }
    return {
      matched: m,
      runs,
      result: { exit_code: exit, stdout, stderr, decision: winner, reason: reasons.length > 0 ? reasons.join('\n') : null, errors: [] },
      duration_ms: Math.max(0, ...runs.map((r) => r.duration_ms)) + 2,
    };
  }

  function settingsPath(root: string, scope: ConnectScope): string {
    if (scope === 'user') return `${HOME}/.claude/settings.json`;
    const p = project(root);
    return `${p.root}/.claude/${scope === 'local' ? 'settings.local.json' : 'settings.json'}`;
  }

  function edit(path: string, mode: ConnectMode | 'disconnect'): { before: string | undefined; after: string | undefined; events: string[] } {
    const before = files.get(path);
    let value: { hooks?: Record<string, unknown[]> } & Record<string, unknown>;
    try {
      value = before === undefined ? {} : (JSON.parse(before) as typeof value);
    } catch {
      throw fail('invalid_input', `refusing to edit ${path}: not valid JSON`);
    }
    const isOurs = (h: unknown): boolean => typeof (h as { command?: unknown }).command === 'string' && (h as { command: string }).command.startsWith(EMIT);
    const hooks = { ...(value.hooks ?? {}) };
    const events: string[] = [];
    const wait = mode === 'managed';
    for (const [event, groups] of Object.entries(hooks)) {
      const kept = (groups as { hooks?: unknown[] }[])
        .map((g) => ({ ...g, hooks: (g.hooks ?? []).filter((h) => !(isOurs(h) && (mode === 'disconnect' || (h as { command: string }).command.includes('--wait') !== wait))) }))
        .filter((g, i) => g.hooks.length > 0 || ((groups as { hooks?: unknown[] }[])[i]!.hooks ?? []).length === 0);
      if (mode === 'disconnect' && kept.length !== groups.length) events.push(event);
      if (kept.length === 0) delete hooks[event];
      else hooks[event] = kept;
    }
    if (mode !== 'disconnect') {
      for (const event of wait ? MANAGED_EVENTS : RECORD_EVENTS) {
        const groups = (hooks[event] ?? []) as { hooks?: unknown[] }[];
        if (groups.some((g) => (g.hooks ?? []).some(isOurs))) continue;
        hooks[event] = [...groups, hookdEntry(event, wait)];
        events.push(event);
      }
    }
    if (events.length === 0) return { before, after: before, events };
    const next: Record<string, unknown> = { ...value };
    if (Object.keys(hooks).length > 0) next.hooks = hooks;
    else delete next.hooks;
    return { before, after: `${JSON.stringify(next, null, 2)}\n`, events };
  }

  function preview(root: string, scope: ConnectScope, mode: ConnectMode | 'disconnect'): ConnectPreview {
    const path = settingsPath(root, scope);
    const { before, after, events } = edit(path, mode);
    return {
      path,
      exists: before !== undefined,
      changes: after !== before,
      before: before ?? '',
      after: after ?? '',
      events,
      emit_command: mode === 'disconnect' ? '' : EMIT,
      emit_found: true,
      hooks_disabled: false,
      version: version(before),
    };
  }

  function apply(root: string, scope: ConnectScope, mode: ConnectMode | 'disconnect', expected: string): ConnectResult {
    const path = settingsPath(root, scope);
    const { before, after, events } = edit(path, mode);
    if (version(before) !== expected) throw fail('conflict', `${path} changed since the preview; nothing was written. Review the new change and apply again`);
    const written = after !== before && after !== undefined;
    if (written) files.set(path, after);
    const on = mode !== 'disconnect';
    if (written) {
      if (scope === 'user') for (const p of projects) p.connected.user = on;
      else project(root).connected[scope] = on;
    }
    return { path, written, created: written && before === undefined, backup: written && before !== undefined ? `${path}.hookd-backup` : null, events };
  }

  const str = (args: Record<string, unknown> | undefined, key: string): string => {
    const v = args?.[key];
    if (typeof v !== 'string') throw fail('invalid_argument', `expected a string ${key}`);
    return v;
  };
  const scopeArg = (args: Record<string, unknown> | undefined): ConnectScope => {
    const s = str(args, 'scope');
    if (s !== 'user' && s !== 'project' && s !== 'local') throw fail('invalid_argument', `unknown scope ${s}`);
    return s;
  };
  const modeArg = (args: Record<string, unknown> | undefined): ConnectMode => {
    const m = str(args, 'mode');
    if (m !== 'record' && m !== 'managed') throw fail('invalid_argument', `unknown mode ${m}`);
    return m;
  };

  return {
    /** The in-memory settings files (path → text), for tests. */
    files,
    /** Answers one of this file's commands; `undefined` for any other command. */
    dispatch(cmd: string, args: Record<string, unknown> | undefined): { value: unknown } | undefined {
      switch (cmd) {
        case 'bench_samples':
          return { value: catalog(str(args, 'project')) };
        case 'bench_match':
          return { value: match(str(args, 'project'), str(args, 'event'), args?.payload).m };
        case 'bench_run':
          return { value: run(str(args, 'project'), str(args, 'event'), args?.payload) };
        case 'bench_cancel':
          // The stub's runs answer at once: there is never one in flight.
          return { value: 0 };
        case 'connect_preview':
          return { value: preview(str(args, 'project'), scopeArg(args), modeArg(args)) };
        case 'connect_apply':
          return { value: apply(str(args, 'project'), scopeArg(args), modeArg(args), str(args, 'version')) };
        case 'disconnect_preview':
          return { value: preview(str(args, 'project'), scopeArg(args), 'disconnect') };
        case 'disconnect_apply':
          return { value: apply(str(args, 'project'), scopeArg(args), 'disconnect', str(args, 'version')) };
        default:
          return undefined;
      }
    },
  };
}

/** The stub's bench and connect part. */
export type BenchStub = ReturnType<typeof createBenchStub>;
