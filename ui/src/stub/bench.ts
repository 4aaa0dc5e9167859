// The Test bench's commands in the stub backend: ready payloads, and a few
// canned hooks per project whose matching and runs are canned too.
//
// No matcher is evaluated: each canned hook lists the targets it runs for
// and the reason the core gives, and the match is a lookup of the payload's
// target (its `tool_name`, `source`, ...) in that list. A run answers the
// hook's canned result (the Bash guard refuses a command containing
// `rm -rf`, as the script it stands for would), and the merged reply is the
// first deciding run's own reply; hookd-core's matching, running and merging
// are tested in Rust.

import type { AgentAnswer, BacktestProgressEvent, BenchHook, BenchHookRun, BenchMatch, BenchSample, JsonValue, ProjectInfo } from '../lib/types';
import { STUB_EVENTS } from './hooks';
import { fail, RUNS, type StubPart } from './types';

export type BenchCommands = 'bench_samples' | 'bench_match' | 'bench_run' | 'bench_cancel' | 'bench_backtest';

const HOME = '/home/dev';
const EMIT = '/usr/local/bin/hookd-emit';
const SESSION = '3f2a9c4e-7b1d-4e8a-9c5f-0d6e2b7a1c93';

/** A canned run of a hook. */
interface CannedRun {
  exit: number;
  stdout: string;
  stderr: string;
  ms: number;
  decision: string | null;
  reason: string | null;
}

/** A canned hook and how it matches. */
interface CannedHook {
  kind: 'agent' | 'managed';
  scope: 'global' | 'project' | 'local';
  file: string;
  event: string;
  matcher: string | null;
  type: string;
  summary: string;
  timeout: number | null;
  /** The targets it runs for (`all`: every one). */
  runsFor: string[] | 'all';
  /** Why it runs for `target`, in the core's words. */
  ran: (target: string | null) => string;
  /** Why it does not run for `target`. */
  missed: (target: string) => string;
  /** One of hookd's own hookd-emit entries (never run by the bench). */
  recorder?: boolean;
  /** What running it gives for a payload. */
  run?: (payload: { [key in string]: JsonValue }) => CannedRun;
}

const quiet = (ms: number): CannedRun => ({ exit: 0, stdout: '', stderr: '', ms, decision: null, reason: null });
const exactNames = (names: string[]): Pick<CannedHook, 'runsFor' | 'ran' | 'missed'> => ({
  runsFor: names,
  ran: (t) => `exact name ${t ?? ''}`,
  missed: (t) => `"${t}" is not one of the exact names`,
});

/** The canned hooks of a project; hookd's recorder when the project is connected. */
function hooksOf(project: ProjectInfo): CannedHook[] {
  const root = project.root;
  const recorder: CannedHook[] = project.connected.project
    ? [
        {
          kind: 'agent',
          scope: 'project',
          file: `${root}/.claude/settings.json`,
          event: 'PreToolUse',
          matcher: '*',
          type: 'command',
          summary: `${EMIT} pre_tool_use`,
          timeout: 10,
          runsFor: 'all',
          ran: () => 'matches all; hookd\u2019s own recorder, not run here (it would record this test as a real event)',
          missed: () => '',
          recorder: true,
        },
      ]
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
      runsFor: ['mcp__filesystem__write_file'],
      ran: (t) => `regex matched ${JSON.stringify(t)}`,
      missed: (t) => `regex found nothing in "${t}"`,
      run: () => ({
        exit: 0,
        stdout: '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "MCP writes need a look"}}\n',
        stderr: '',
        ms: 18,
        decision: 'ask',
        reason: 'MCP writes need a look',
      }),
    },
    { kind: 'agent', scope: 'global', file: `${HOME}/.claude/settings.json`, event: 'Stop', matcher: null, type: 'command', summary: 'notify-send "Claude is done"', timeout: null, runsFor: 'all', ran: () => '', missed: () => '', run: () => quiet(9) },
    {
      kind: 'agent',
      scope: 'local',
      file: `${root}/.claude/settings.local.json`,
      event: 'PreToolUse',
      matcher: 'Bash',
      type: 'command',
      summary: `${root}/.claude/hooks/guard-rm.sh`,
      timeout: 5,
      ...exactNames(['Bash']),
      run: (payload) => {
        const input = payload.tool_input;
        const command = input && typeof input === 'object' && !Array.isArray(input) && typeof input.command === 'string' ? input.command : '';
        return command.includes('rm -rf') ? { exit: 2, stdout: '', stderr: 'refusing rm -rf\n', ms: 6, decision: 'deny', reason: 'refusing rm -rf' } : quiet(5);
      },
    },
    { kind: 'managed', scope: 'project', file: `${root}/.hookd/settings.json`, event: 'PreToolUse', matcher: 'Write|Edit|MultiEdit', type: 'command', summary: 'hookd-fmt --check', timeout: null, ...exactNames(['Write', 'Edit', 'MultiEdit']), run: () => quiet(41) },
    { kind: 'managed', scope: 'project', file: `${root}/.hookd/settings.json`, event: 'PostToolUse', matcher: 'Write|Edit', type: 'http', summary: 'https://ci.example.invalid/hooks/edit', timeout: null, ...exactNames(['Write', 'Edit']) },
  ];
}

/** The ready payloads of a project. */
function samples(root: string): BenchSample[] {
  const base = (event: string): { [key in string]: JsonValue } => ({
    session_id: SESSION,
    transcript_path: `${HOME}/.claude/projects/${root.replaceAll('/', '-')}/${SESSION}.jsonl`,
    cwd: root,
    permission_mode: 'default',
    hook_event_name: event,
  });
  const tool = (event: string, name: string, input: { [key in string]: JsonValue }, extra: { [key in string]: JsonValue } = {}): JsonValue => ({
    ...base(event),
    tool_name: name,
    tool_input: input,
    tool_use_id: 'toolu_01HookdSampleToolUse000001',
    ...extra,
  });
  const write = { file_path: `${root}/src/hello.rs`, content: 'pub fn hello() -> &\'static str {\n    "hello"\n}\n' };
  // SessionStart carries no permission mode.
  const { permission_mode: _none, ...session } = base('SessionStart');
  const start = { ...session, source: 'startup', model: 'claude-sonnet-4-5' };
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
    { id: 'write-done', label: 'Write, after it ran (PostToolUse)', event: 'PostToolUse', payload: tool('PostToolUse', 'Write', write, { tool_response: { filePath: write.file_path, success: true }, duration_ms: 12 }) },
    { id: 'user-prompt-submit', label: 'UserPromptSubmit: a prompt', event: 'UserPromptSubmit', payload: { ...base('UserPromptSubmit'), prompt: 'Add a --verbose flag to the CLI and document it in the README.' } },
    { id: 'stop', label: 'Stop: the agent finished its turn', event: 'Stop', payload: { ...base('Stop'), stop_hook_active: false, last_assistant_message: 'I added the --verbose flag, documented it and the tests pass.' } },
    { id: 'session-start', label: 'SessionStart: a new session', event: 'SessionStart', payload: start },
  ];
}

/** The Test bench's part of the stub. */
export interface BenchStub {
  commands: StubPart<BenchCommands>;
}

export function createBenchStub(projects: ProjectInfo[], emit?: (event: 'backtest-progress', payload: BacktestProgressEvent) => void): BenchStub {
  function project(root: string): ProjectInfo {
    const p = projects.find((x) => x.root === root);
    if (!p) throw fail('not_found', `project directory ${root}: No such file or directory (os error 2)`);
    return p;
  }

  function match(root: string, event: string, payload: JsonValue): { matched: BenchMatch; hooks: CannedHook[] } {
    const spec = STUB_EVENTS.find((e) => e.name === event);
    if (!spec) throw fail('invalid_input', `unknown event ${JSON.stringify(event)}: pick one of the catalogue (PreToolUse, Stop, ...)`);
    const field = spec.match_field;
    const raw = field !== null && payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? payload[field] : undefined;
    const target = typeof raw === 'string' ? raw : null;
    const all = hooksOf(project(root));
    const hooks: BenchHook[] = all
      .filter((h) => h.event === event)
      .map((h) => {
        let outcome = 'runs';
        let reason: string;
        if (field === null) reason = 'matcher not supported by this event (runs always)';
        else if (h.runsFor === 'all' || (target !== null && h.runsFor.includes(target))) reason = h.ran(target);
        else {
          outcome = 'no_match';
          reason = target === null ? `payload has no ${field}` : `${field} ${h.missed(target)}`;
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
          reason,
          executes: outcome === 'runs' && h.type === 'command' && !h.recorder,
          recorder: h.recorder === true,
          runs: RUNS,
        };
      });
    return { matched: { event, match_field: field, target, hooks, all_hooks_disabled_by: [] }, hooks: all };
  }

  /**
   * Each agent's answer, canned as the core's executor::agents gives it for
   * a deny (or nothing) on PreToolUse; other events are Claude Code's and
   * Codex CLI's only here.
   */
  function agentAnswers(event: string, denied: string | null, claude: { exit_code: number; stdout: string; stderr: string }): AgentAnswer[] {
    const before = event === 'PreToolUse';
    const rows: [string, string, string | null, Record<string, unknown> | null][] = [
      ['codex', 'Codex CLI', event, null],
      ['gemini', 'Gemini CLI', before ? 'BeforeTool' : null, { decision: 'deny', reason: denied }],
      ['cursor', 'Cursor', before ? 'preToolUse' : null, { permission: 'deny', user_message: denied, agent_message: denied }],
      ['copilot', 'GitHub Copilot', before ? 'preToolUse' : null, { permissionDecision: 'deny', permissionDecisionReason: denied }],
    ];
    return [
      { agent: 'claude', label: 'Claude Code', event, ...claude, losses: [] },
      ...rows.map(([agent, label, own, deny]): AgentAnswer => {
        if (own === null) return { agent, label, event: null, exit_code: 0, stdout: '', stderr: '', losses: [`${label} has no ${event} event: it never asks for this answer`] };
        if (agent === 'codex') return { agent, label, event: own, ...claude, losses: [] };
        return { agent, label, event: own, exit_code: 0, stdout: denied === null ? '' : JSON.stringify(deny), stderr: '', losses: [] };
      }),
    ];
  }

  const commands: StubPart<BenchCommands> = {
    bench_samples: ({ project: root }) => {
      const p = project(root);
      return { project: p.root, events: STUB_EVENTS.map((e) => ({ name: e.name, description: e.description, match_field: e.match_field })), samples: samples(p.root) };
    },
    bench_match: ({ project: root, event, payload }) => match(root, event, payload).matched,
    bench_run: ({ project: root, event, payload }) => {
      const { matched, hooks } = match(root, event, payload);
      const input = payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? payload : {};
      const canned = matched.hooks.filter((h) => h.executes).map((h) => [h, hooks[h.index]!.run?.(input) ?? quiet(3)] as const);
      const runs: BenchHookRun[] = canned.map(([h, r]) => ({
        index: h.index,
        command: h.summary,
        file: h.file,
        exit_code: r.exit,
        timed_out: false,
        duration_ms: r.ms,
        stdout: r.stdout,
        stderr: r.stderr,
        truncated: false,
        decision: r.decision,
        reason: r.reason,
        json_error: null,
        error: null,
      }));
      const decided = canned.find(([, r]) => r.decision !== null)?.[1];
      const result = decided
        ? { exit_code: decided.exit, stdout: decided.stdout, stderr: decided.stderr, decision: decided.decision, reason: decided.reason, errors: [] }
        : { exit_code: 0, stdout: '', stderr: '', decision: null, reason: null, errors: [] };
      return {
        matched,
        runs,
        result,
        agents: agentAnswers(event, result.decision === 'deny' ? (result.reason ?? '') : null, result),
        duration_ms: Math.max(0, ...runs.map((r) => r.duration_ms)) + 2,
      };
    },
    // The stub's runs answer at once: there is never one in flight.
    bench_cancel: () => 0,
    // Canned: the stub has no ledger; one blocked call, as the core would report it.
    // The replay's progress is sent as the core reports it: once, then per event.
    bench_backtest: ({ request }) => {
      project(request.project);
      for (const replayed of [1, 2, 3]) emit?.('backtest-progress', { project: request.project, kind: request.kind, scope: request.scope, progress: { replayed, events: 3 } });
      return {
        events: 3,
        matched: 3,
        runs: 3,
        span: ['2026-01-07T10:00:00Z', '2026-01-07T10:05:00Z'],
        changes: [
          { event_id: 'e2', timestamp: '2026-01-07T10:02:00Z', event: request.hook?.event ?? 'PreToolUse', tool_name: 'Bash', subject: 'sudo rm -rf /var/cache', before: null, before_unknown: false, after: 'deny', reason: 'no sudo', rewritten_input: null, failures: [] },
        ],
      };
    },
  };
  return { commands };
}
