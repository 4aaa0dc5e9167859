// An in-memory backend with sample data, used when `window.__TAURI__` is
// absent: `vite dev`/`vite preview` in a browser, and the unit tests.
//
// It answers the same commands with the same JSON shapes and error values as
// src-tauri is meant to, filters like `hookd query` (exact file/agent/branch,
// case-insensitive tool, since/until, newest-N limit, oldest first), and can
// emit `ledger-commit` / `projects-changed` so live updates can be exercised
// without a daemon. The data is generated from a seeded PRNG, so a test sees
// the same rows every run.
//
// In a browser, `window.hookdStub` exposes the helpers (add a mutation,
// simulate a folder drop, make the next call fail) for manual and browser
// tests; `?rows=N` sets the number of sample rows and `?live=0` turns off the
// periodic sample mutations.

import type { Backend, Unlisten } from './api';
import { createHooksStub, type HooksStub } from './hooks-stub';
import { createBenchStub, type BenchStub } from './stub-bench';
import { dispatchTemplates } from './stub-templates';
import { normalizeHookType } from './activity';
import { createActivityStub, type ActivityStub } from './stub-activity';
import { parseWhen } from './time';
import type {
  AddProjectsResult,
  ApiError,
  AppInfo,
  DaemonStatus,
  LedgerCommit,
  MutationRow,
  ProjectInfo,
  RejectedPath,
  TimelineQuery,
  UiMark,
} from './types';

export interface StubOptions {
  /** Number of sample mutation rows (default 2,000). */
  rows?: number;
  /** Clock (default Date.now); the newest sample row is a little before it. */
  now?: () => number;
  /** Seed of the sample data. */
  seed?: number;
  /** Delay of every answer, ms (default 0: next macrotask). */
  latencyMs?: number;
}

/** The stub backend plus the controls tests and the browser console use. */
export interface StubBackend extends Backend {
  readonly kind: 'stub';
  /** The sample projects (live objects). */
  projects: ProjectInfo[];
  /** Every sample row, oldest first, each with its `repo`. */
  rows: MutationRow[];
  /** Sends an event to the listeners. */
  emit(event: string, payload: unknown): void;
  /** Appends `count` new mutations to a project and emits `ledger-commit`. */
  addMutations(count?: number, repo?: string): MutationRow[];
  /** Adds folders as the backend does after a window drop; emits `projects-changed`. */
  drop(paths: string[]): AddProjectsResult;
  /** Makes the next call of `cmd` reject with `error`. */
  failNext(cmd: string, error: unknown): void;
  /** Number of active listeners of an event. */
  listenerCount(event: string): number;
  /** How many times each command was invoked. */
  calls: Map<string, number>;
  /** The daemon status `daemon_status` answers (live object; null: no file). */
  status: DaemonStatus | null;
  /** Whether launch on login is on. */
  launchOnLogin: boolean;
  /** The Timeline's activity, previous contents and Bash files (see stub-activity.ts). */
  activity: ActivityStub;
  /** The Test bench's hooks and Connect's settings files (see stub-bench.ts). */
  bench: BenchStub;
  /** The Hook editor's settings files (see hooks-stub.ts). */
  hooks: HooksStub;
  /** Paint marks the UI sent (`ui_mark`), oldest first. */
  marks: UiMark[];
  /** What `stash_hook_drafts` keeps for the next window (`take_hook_drafts` empties it). */
  stashedDrafts: unknown;
  /** How many times the page let a closing window go (`finish_window_close`). */
  windowCloses: number;
}

/** Deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface SampleRepo {
  root: string;
  name: string;
  weight: number;
  files: string[];
  branches: string[];
  remote: string | null;
  connected: ProjectInfo['connected'];
}

const REPOS: SampleRepo[] = [
  {
    root: '/home/dev/src/hookd',
    name: 'hookd',
    weight: 0.5,
    files: [
      'crates/hookd-core/src/server.rs',
      'crates/hookd-core/src/ledger/mod.rs',
      'crates/hookd-core/src/matcher.rs',
      'crates/hookd-cli/src/cmd/query.rs',
      'ui/src/views/timeline.ts',
      'ui/src/lib/api.ts',
      'README.md',
      'docs/benchmarks.md',
      'notebooks/latency.ipynb',
    ],
    branches: ['main', 'feat/desktop-app', 'fix/socket-perms'],
    remote: 'git@github.com:example/hookd.git',
    connected: { user: true, project: true, local: false },
  },
  {
    root: '/home/dev/src/webshop',
    name: 'webshop',
    weight: 0.3,
    files: [
      'src/cart/checkout.ts',
      'src/cart/checkout.test.ts',
      'src/api/orders.ts',
      'package.json',
      'migrations/0007_discounts.sql',
    ],
    branches: ['main', 'feature/discount-codes'],
    remote: 'https://github.com/example/webshop.git',
    connected: { user: true, project: false, local: false },
  },
  {
    root: '/home/dev/src/infra',
    name: 'infra',
    weight: 0.2,
    files: ['terraform/main.tf', 'terraform/variables.tf', 'ansible/site.yml', 'Makefile'],
    branches: ['main'],
    remote: null,
    connected: { user: true, project: false, local: true },
  },
];

const AGENTS = ['claude-main', 'claude-sub-reviewer', 'claude-sub-tests', 'codex-cli'];

const SNIPPETS: [string, string][] = [
  ['fn main() {\n    run();\n}\n', 'fn main() -> anyhow::Result<()> {\n    run()?;\n    Ok(())\n}\n'],
  ['const limit = 100;\n', 'const limit = 1_000;\n'],
  ['let total = items.length;\nreturn total;\n', 'let total = items.reduce((n, i) => n + i.qty, 0);\nreturn total;\n'],
  ['    timeout: 30,\n', '    timeout: 10,\n    retries: 3,\n'],
  ['# TODO\n', '# Runs the daemon in the foreground.\n'],
];

const COMMANDS = [
  'cargo fmt --all',
  'npm run lint -- --fix',
  'sed -i "s/foo/bar/" src/config.rs',
  'git mv docs/old.md docs/new.md',
  'terraform fmt -recursive',
];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length) % list.length]!;
}

function hex(rand: () => number, len: number): string {
  let s = '';
  while (s.length < len) s += Math.floor(rand() * 0x100000000).toString(16).padStart(8, '0');
  return s.slice(0, len);
}

function uuid(rand: () => number): string {
  const h = hex(rand, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function fail(kind: string, message: string): ApiError {
  return { kind, message };
}

/** Builds a stub backend with generated sample data. */
export function createStub(options: StubOptions = {}): StubBackend {
  const now = options.now ?? Date.now;
  const rand = prng(options.seed ?? 42);
  const total = Math.max(0, Math.floor(options.rows ?? 2000));
  const latency = options.latencyMs ?? 0;
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const failures = new Map<string, unknown>();
  const calls = new Map<string, number>();
  const nextId = new Map<string, number>();
  const sessions = REPOS.map(() => uuid(rand));

  const rows: MutationRow[] = [];
  const projects: ProjectInfo[] = [];

  function makeRow(repo: SampleRepo, at: number): MutationRow[] {
    const repoIndex = REPOS.indexOf(repo);
    const r = rand();
    let tool: string;
    const file = pick(rand, repo.files);
    if (file.endsWith('.ipynb')) tool = 'NotebookEdit';
    else if (r < 0.45) tool = 'Edit';
    else if (r < 0.6) tool = 'Write';
    else if (r < 0.7) tool = 'MultiEdit';
    else tool = 'Bash';
    const agent = pick(rand, AGENTS);
    const branch = pick(rand, repo.branches);
    const sessionId = sessions[repoIndex] ?? null;
    const toolUseId = `toolu_${hex(rand, 24)}`;
    const eventId = uuid(rand);
    const abs = `${repo.root}/${file}`;
    let toolInput: Record<string, unknown>;
    let lines: number | null;
    let command: string | null = null;
    const [oldS, newS] = pick(rand, SNIPPETS);
    const count = (s: string): number => s.split('\n').length - 1;
    switch (tool) {
      case 'Edit':
        toolInput = { file_path: abs, old_string: oldS, new_string: newS, replace_all: false };
        lines = count(newS);
        break;
      case 'MultiEdit': {
        const [o2, n2] = pick(rand, SNIPPETS);
        toolInput = {
          file_path: abs,
          edits: [
            { old_string: oldS, new_string: newS },
            { old_string: o2, new_string: n2, replace_all: true },
          ],
        };
        lines = count(newS) + count(n2);
        break;
      }
      case 'Write': {
        const content = `// ${file}\n${newS}${oldS}`;
        toolInput = { file_path: abs, content };
        lines = count(content);
        break;
      }
      case 'NotebookEdit': {
        const src = 'import pandas as pd\ndf = pd.read_csv("latency.csv")\ndf.describe()\n';
        toolInput = { notebook_path: abs, cell_id: `cell-${hex(rand, 4)}`, new_source: src, cell_type: 'code', edit_mode: 'replace' };
        lines = count(src);
        break;
      }
      default:
        command = pick(rand, COMMANDS);
        toolInput = { command, description: 'Tidy up', timeout: 120000 };
        lines = null;
    }
    const payload = {
      session_id: sessionId,
      transcript_path: `/home/dev/.claude/projects/${repo.name}/${sessionId}.jsonl`,
      cwd: repo.root,
      hook_event_name: 'PostToolUse',
      tool_name: tool,
      tool_input: toolInput,
      tool_response: tool === 'Bash' ? { stdout: '', stderr: '', interrupted: false } : { success: true },
      tool_use_id: toolUseId,
    };
    const ts = new Date(at).toISOString();
    const received = new Date(at + 2).toISOString();
    const id = (nextId.get(repo.root) ?? 0) + 1;
    nextId.set(repo.root, id);
    return [
      {
        id,
        event_type: `tool.mutation.${tool.toLowerCase()}`,
        hook_type: 'post_tool_use',
        tool_name: tool,
        agent_id: agent,
        file_path: file,
        file_ext: file.includes('.') ? file.slice(file.lastIndexOf('.') + 1) : null,
        lines_changed: lines,
        branch,
        head_sha: hex(rand, 40),
        raw_payload: JSON.stringify(payload),
        event_timestamp: ts,
        received_at: received,
        event_id: eventId,
        mutation_seq: 0,
        session_id: sessionId,
        tool_use_id: toolUseId,
        remote_url: repo.remote,
        command,
        source_pid: 4000 + Math.floor(rand() * 1000),
        repo: repo.root,
      },
    ];
  }

  function pickRepo(): SampleRepo {
    const r = rand();
    let acc = 0;
    for (const repo of REPOS) {
      acc += repo.weight;
      if (r < acc) return repo;
    }
    return REPOS[0]!;
  }

  // Sample history: `total` rows over the last three days, the newest 90 s ago.
  const end = now() - 90_000;
  const spanMs = 3 * 24 * 3600_000;
  const step = total > 1 ? spanMs / (total - 1) : 0;
  for (let i = 0; i < total; i++) rows.push(...makeRow(pickRepo(), Math.round(end - spanMs + i * step)));

  for (const repo of REPOS) {
    const own = rows.filter((r) => r.repo === repo.root);
    const first = own[0]?.event_timestamp ?? new Date(end - spanMs).toISOString();
    projects.push({
      root: repo.root,
      name: repo.name,
      origin: 'event',
      first_seen: first,
      last_activity: own[own.length - 1]?.event_timestamp ?? null,
      events: own.length * 2 + 3,
      mutations: own.length,
      has_ledger: true,
      connected: { ...repo.connected },
    });
  }
  projects.push({
    root: '/home/dev/scratch/notes',
    name: 'notes',
    origin: 'manual',
    first_seen: new Date(end - 7 * 24 * 3600_000).toISOString(),
    last_activity: null,
    events: 0,
    mutations: 0,
    has_ledger: false,
    connected: { user: true, project: false, local: false },
  });

  const hooksStub = createHooksStub(projects.map((p) => p.root));

  const benchStub = createBenchStub(projects);

  const activityStub = createActivityStub(rows, projects, (event, payload) => stub.emit(event, payload), now);

  function addProjects(paths: string[]): AddProjectsResult {
    const added: ProjectInfo[] = [];
    const rejected: RejectedPath[] = [];
    for (const raw of paths) {
      const path = raw.trim().replace(/(.)\/+$/, '$1');
      if (path === '') rejected.push({ path: raw, reason: 'empty path' });
      else if (!path.startsWith('/')) rejected.push({ path: raw, reason: 'not an absolute path' });
      else if (/(^|\/)(missing|nonexistent|does-not-exist)(\/|$)/.test(path))
        rejected.push({ path: raw, reason: 'no such directory' });
      else if (/\.[a-z0-9]{1,5}$/i.test(path)) rejected.push({ path: raw, reason: 'not a folder (a file was given)' });
      else if (projects.some((p) => p.root === path)) rejected.push({ path: raw, reason: 'already a project' });
      else {
        const project: ProjectInfo = {
          root: path,
          name: path.slice(path.lastIndexOf('/') + 1) || path,
          origin: 'manual',
          first_seen: new Date(now()).toISOString(),
          last_activity: null,
          events: 0,
          mutations: 0,
          has_ledger: false,
          connected: { user: true, project: false, local: false },
        };
        projects.push(project);
        added.push(project);
      }
    }
    return { added, rejected };
  }

  function timeline(q: TimelineQuery): MutationRow[] {
    let repo: string | null = null;
    if (!q.all) {
      const root = q.repo ?? '';
      const project = projects.find((p) => root === p.root || root.startsWith(`${p.root}/`));
      if (!project) throw fail('not_a_repository', `${root || '(no directory)'} is not inside a known repository`);
      if (!project.has_ledger) throw fail('no_ledger', `${project.root} has no ledger yet (.hookd/mutations.db)`);
      repo = project.root;
    }
    const bound = (text: string | null): number | null => {
      if (text === null) return null;
      const t = parseWhen(text, now());
      if (t === null) throw fail('invalid_time', `invalid time "${text}": use a duration (30m, 1h, 2d) or an RFC 3339 time`);
      return t;
    };
    const since = bound(q.since);
    const until = bound(q.until);
    const tool = q.tool?.toLowerCase() ?? null;
    const hookType = q.event_type ? normalizeHookType(q.event_type) : null;
    let out = rows.filter((r) => {
      if (repo !== null && r.repo !== repo) return false;
      if (q.file !== null && r.file_path !== q.file) return false;
      if (q.agent !== null && r.agent_id !== q.agent) return false;
      if (q.session && r.session_id !== q.session) return false;
      if (hookType !== null && r.hook_type !== hookType) return false;
      if (q.branch !== null && r.branch !== q.branch) return false;
      if (tool !== null && r.tool_name.toLowerCase() !== tool) return false;
      if (since !== null || until !== null) {
        const t = Date.parse(r.event_timestamp);
        if (since !== null && t < since) return false;
        if (until !== null && t > until) return false;
      }
      return true;
    });
    if (q.limit !== null && q.limit >= 0 && out.length > q.limit) out = out.slice(out.length - q.limit);
    return out.map((r) => {
      const copy = { ...r };
      if (!q.all) delete copy.repo;
      if (q.omit_payload) copy.raw_payload = '';
      return copy;
    });
  }

  function appInfo(): AppInfo {
    return {
      version: '0.1.0 (stub)',
      daemon: { mode: 'own', socket: '/run/user/1000/hookd.sock', error: null },
      data_dir: '/home/dev/.local/share/hookd',
    };
  }

  const started = now();
  function daemonStatus(): DaemonStatus | null {
    if (!stub.status) return null;
    // The daemon rewrites the file every second; counters follow the sample rows.
    const copy: DaemonStatus = JSON.parse(JSON.stringify(stub.status)) as DaemonStatus;
    copy.updated_at = new Date(now()).toISOString();
    return copy;
  }

  function dispatch(cmd: string, args: Record<string, unknown> | undefined): unknown {
    const benched = benchStub.dispatch(cmd, args);
    if (benched) return benched.value;
    const hooked = hooksStub.dispatch(cmd, args);
    if (hooked.handled) return hooked.value;
    const templated = dispatchTemplates(hooksStub, cmd, args);
    if (templated.handled) return templated.value;
    const timelineMore = activityStub.dispatch(cmd, args);
    if (timelineMore) return timelineMore.value;
    switch (cmd) {
      case 'app_info':
        return appInfo();
      case 'daemon_status':
        return daemonStatus();
      case 'launch_on_login':
        return stub.launchOnLogin;
      case 'set_launch_on_login': {
        const enabled = args?.enabled;
        if (typeof enabled !== 'boolean') throw fail('invalid_argument', 'set_launch_on_login expects { enabled: boolean }');
        stub.launchOnLogin = enabled;
        return enabled;
      }
      case 'list_projects':
        return projects.map((p) => ({ ...p, connected: { ...p.connected } }));
      case 'add_projects': {
        const paths = args?.paths;
        if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string'))
          throw fail('invalid_argument', 'add_projects expects { paths: string[] }');
        return addProjects(paths);
      }
      case 'plugin:dialog|open':
        // No native picker in a browser: the stub answers as if cancelled.
        return null;
      case 'stash_hook_drafts':
        stub.stashedDrafts = args?.drafts ?? null;
        return null;
      case 'take_hook_drafts': {
        const kept = stub.stashedDrafts;
        stub.stashedDrafts = null;
        return kept;
      }
      case 'finish_window_close':
        stub.windowCloses += 1;
        return null;
      case 'ui_mark': {
        const mark = args?.mark as UiMark | undefined;
        if (!mark || typeof mark.name !== 'string' || typeof mark.ms !== 'number')
          throw fail('invalid_argument', 'ui_mark expects { mark: { name, ms, rows } }');
        stub.marks.push(mark);
        return null;
      }
      case 'timeline': {
        const query = args?.query as TimelineQuery | undefined;
        if (!query || typeof query !== 'object') throw fail('invalid_argument', 'timeline expects { query }');
        return timeline(query);
      }
      default:
        // What Tauri itself rejects with for an unknown command: a bare string.
        throw `command ${cmd} not found`;
    }
  }

  const stub: StubBackend = {
    kind: 'stub',
    projects,
    rows,
    calls,
    launchOnLogin: false,
    bench: benchStub,
    hooks: hooksStub,
    activity: activityStub,
    marks: [],
    stashedDrafts: null,
    windowCloses: 0,
    status: {
      pid: 31337,
      socket: '/run/user/1000/hookd.sock',
      started_at: new Date(started - 3 * 3600_000).toISOString(),
      updated_at: new Date(started).toISOString(),
      ledger_mode: 'local',
      stats: {
        connections: rows.length + 12,
        lines_accepted: rows.length + 10,
        lines_rejected: 2,
        events_stored: rows.length,
        events_spooled: 0,
        events_unrecorded: 0,
      },
      recording_paused: false,
    },
    invoke(cmd, args) {
      calls.set(cmd, (calls.get(cmd) ?? 0) + 1);
      return new Promise((resolve, reject) => {
        setTimeout(() => {
          if (failures.has(cmd)) {
            const err = failures.get(cmd);
            failures.delete(cmd);
            reject(err);
            return;
          }
          try {
            resolve(dispatch(cmd, args));
          } catch (err) {
            reject(err);
          }
        }, latency);
      });
    },
    listen(event, handler) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const own = (payload: unknown): void => handler(payload);
      set.add(own);
      const unlisten: Unlisten = () => {
        listeners.get(event)?.delete(own);
      };
      return Promise.resolve(unlisten);
    },
    emit(event, payload) {
      for (const h of [...(listeners.get(event) ?? [])]) h(payload);
    },
    listenerCount(event) {
      return listeners.get(event)?.size ?? 0;
    },
    addMutations(count = 1, root) {
      const repo = REPOS.find((r) => r.root === root) ?? pickRepo();
      const added: MutationRow[] = [];
      for (let i = 0; i < count; i++) added.push(...makeRow(repo, now()));
      rows.push(...added);
      const addedEvents = activityStub.rowsAdded(added);
      if (stub.status) {
        stub.status.stats.connections += added.length;
        stub.status.stats.lines_accepted += added.length;
        stub.status.stats.events_stored += added.length;
      }
      const project = projects.find((p) => p.root === repo.root);
      if (project) {
        project.mutations += added.length;
        project.events += added.length * 2;
        project.last_activity = added[added.length - 1]?.event_timestamp ?? project.last_activity;
      }
      const commit: LedgerCommit = {
        notices: [
          {
            ledger: `${repo.root}/.hookd/mutations.db`,
            // Every event of the batch once the activity was built (pre and post), else the rows'.
            events: (addedEvents.length > 0 ? addedEvents : added).map((r) => ({
              event_id: r.event_id,
              hook_type: r.hook_type,
              tool_name: r.tool_name,
              tool_use_id: r.tool_use_id,
            })),
            mutations: added.length,
            hook_runs: 0,
          },
        ],
      };
      stub.emit('ledger-commit', commit);
      return added;
    },
    drop(paths) {
      const result = addProjects(paths);
      stub.emit('projects-changed', result);
      return result;
    },
    failNext(cmd, error) {
      failures.set(cmd, error);
    },
  };
  return stub;
}

declare global {
  interface Window {
    /** The stub's controls, in a plain browser only. */
    hookdStub?: StubBackend;
  }
}

/** The stub as the browser uses it: sized by `?rows=`, with periodic live mutations unless `?live=0`. */
export function browserStub(): StubBackend {
  const params = new URLSearchParams(window.location.search);
  const rows = Number(params.get('rows') ?? '2000');
  const stub = createStub({ rows: Number.isFinite(rows) ? rows : 2000, latencyMs: 40 });
  if (params.get('live') !== '0') {
    const tick = (): void => {
      stub.addMutations(1 + Math.floor(Math.random() * 2));
      window.setTimeout(tick, 4000 + Math.random() * 4000);
    };
    window.setTimeout(tick, 5000);
  }
  window.hookdStub = stub;
  console.info('hookd: no __TAURI__; using the stub backend (window.hookdStub)');
  return stub;
}
