// The stub backend: what answers when `window.__TAURI__` is missing (`vite
// dev`/`vite preview` in a browser, and the unit tests), so the UI can be
// developed and tested without the Rust side.
//
// It answers every command of the generated command map (types.ts makes a
// missing or mistyped answer a type error) with canned sample data and
// simple lookups, never with a second implementation of hookd-core's rules:
// each part says what it leaves out. It can emit `ledger-commit` and
// `projects-changed` so live updates can be exercised without a daemon. The
// sample data comes from a seeded PRNG, so a test sees the same rows every
// run.
//
// In a browser, `window.hookdStub` exposes the controls (add a mutation,
// simulate a folder drop, make the next call fail) for manual and browser
// tests; `?rows=N` sets the number of sample rows and `?live=0` turns off the
// periodic sample mutations.

import type { Backend, CommandName, Unlisten } from '../lib/api';
import type { Events } from '../lib/bindings/commands';
import type { AddProjectsResult, DaemonStatus, LedgerCommit, MutationRow, ProjectInfo, UiMark } from '../lib/types';
import { createBenchStub } from './bench';
import { createHealthStub } from './health';
import { createConnectStub, type ConnectStub } from './connect';
import { createHooksStub, type HooksStub } from './hooks';
import { REPOS, rowMaker, sampleProjects, sampleRows } from './sample';
import { createRewindStub } from './rewind';
import { createTemplatesStub } from './templates';
import { createTimelineStub, type TimelineStub } from './timeline';
import type { StubCommands, StubPart } from './types';

export type { StubCommands } from './types';

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

/**
 * Paths `add_projects` refuses, with the reason the core gives, for trying
 * the refusal UI (the stub does not look at paths: any other one is added).
 */
export const REFUSED_PATHS: Record<string, string> = {
  '': 'empty path',
  'not/absolute': 'not an absolute path',
  'relative/path': 'not an absolute path',
  '/home/dev/missing': 'does not exist',
  '/home/dev/file.txt': 'not a folder (a file was given)',
};

/** The stub backend plus the controls tests and the browser console use. */
export interface StubBackend extends Backend {
  readonly kind: 'stub';
  /** The commands' answers, typed. */
  readonly commands: StubCommands;
  /** The sample projects (live objects). */
  projects: ProjectInfo[];
  /** Every sample row, oldest first, each with its `repo`. */
  rows: MutationRow[];
  /** Sends an event to the listeners. */
  emit<E extends keyof Events>(event: E, payload: Events[E]): void;
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
  /** The arguments of each command's last call. */
  lastArgs: Map<string, unknown>;
  /** The daemon status `daemon_status` answers (live object; null: no file). */
  status: DaemonStatus | null;
  /** Whether launch on login is on. */
  launchOnLogin: boolean;
  /** The Timeline's activity, previous contents and Bash files (see timeline.ts). */
  timeline: TimelineStub;
  /** The Hook editor's settings files (see hooks.ts). */
  hooks: HooksStub;
  /** The Connect dialog's settings files (see connect.ts). */
  connect: ConnectStub;
  /** Paint marks the UI sent (`ui_mark`), oldest first. */
  marks: UiMark[];
  /** What `stash_hook_drafts` keeps for the next window (`take_hook_drafts` empties it). */
  stashedDrafts: unknown;
  /** How many times the page let a closing window go (`finish_window_close`). */
  windowCloses: number;
}

/** Builds a stub backend with generated sample data. */
export function createStub(options: StubOptions = {}): StubBackend {
  const now = options.now ?? Date.now;
  const total = Math.max(0, Math.floor(options.rows ?? 2000));
  const latency = options.latencyMs ?? 0;
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const failures = new Map<string, unknown>();

  const maker = rowMaker(options.seed ?? 42);
  // The newest sample row is 90 s old.
  const end = now() - 90_000;
  const rows = sampleRows(maker, total, end);
  const projects = sampleProjects(rows, end);
  const started = now();

  const hooks = createHooksStub(projects.map((p) => p.root));
  const timeline = createTimelineStub(rows, projects, maker.previous, (event, payload) => stub.emit(event, payload), now);
  const connect = createConnectStub(projects);

  function addProjects(paths: string[]): AddProjectsResult {
    const result: AddProjectsResult = { added: [], known: [], rejected: [] };
    for (const path of paths) {
      const refused = REFUSED_PATHS[path];
      if (refused !== undefined) {
        result.rejected.push({ path, reason: refused });
        continue;
      }
      const listed = projects.find((p) => p.root === path);
      if (listed) {
        result.known.push(listed);
        continue;
      }
      const project: ProjectInfo = {
        root: path,
        name: path.slice(path.lastIndexOf('/') + 1) || path,
        origin: 'manual',
        first_seen: new Date(now()).toISOString(),
        last_activity: null,
        events: 0,
        mutations: 0,
        has_ledger: false,
        connected: { global: true, project: false, local: false },
        agent_kinds: [],
        agents_connected: [],
      };
      projects.push(project);
      result.added.push(project);
    }
    return result;
  }

  const app: StubPart<'app_info' | 'daemon_status' | 'launch_on_login' | 'set_launch_on_login' | 'ui_mark' | 'list_projects' | 'add_projects'> = {
    app_info: () => ({
      version: '0.1.0 (stub)',
      daemon: { mode: 'own', socket: '/run/user/1000/hookd.sock', error: null },
      data_dir: '/home/dev/.local/share/hookd',
    }),
    daemon_status: () => {
      if (!stub.status) return null;
      // The daemon rewrites the file every second.
      return { ...(JSON.parse(JSON.stringify(stub.status)) as DaemonStatus), updated_at: new Date(now()).toISOString() };
    },
    launch_on_login: () => stub.launchOnLogin,
    set_launch_on_login: ({ enabled }) => (stub.launchOnLogin = enabled),
    ui_mark: ({ mark }) => {
      stub.marks.push(mark);
      return null;
    },
    list_projects: () => projects.map((p) => ({ ...p, connected: { ...p.connected } })),
    add_projects: ({ paths }) => addProjects(paths),
  };

  const window_: StubPart<'stash_hook_drafts' | 'take_hook_drafts' | 'finish_window_close'> = {
    stash_hook_drafts: ({ drafts }) => {
      stub.stashedDrafts = drafts;
      return null;
    },
    take_hook_drafts: () => {
      const kept = stub.stashedDrafts as ReturnType<StubCommands['take_hook_drafts']>;
      stub.stashedDrafts = null;
      return kept;
    },
    finish_window_close: () => {
      stub.windowCloses += 1;
      return null;
    },
  };

  const commands: StubCommands = {
    ...app,
    ...timeline.commands,
    ...hooks.commands,
    ...createTemplatesStub(hooks).commands,
    ...createBenchStub(projects, (event, payload) => stub.emit(event, payload)).commands,
    ...createHealthStub(projects),
    ...connect.commands,
    ...createRewindStub().commands,
    ...window_,
  };

  /** Answers one command; a name outside the map fails as Tauri does, with a bare string. */
  function answer(cmd: string, args: Record<string, unknown> | undefined): unknown {
    // No native folder picker in a browser: the dialog plugin answers as if cancelled.
    if (cmd === 'plugin:dialog|open') return null;
    if (!Object.hasOwn(commands, cmd)) throw `command ${cmd} not found`;
    const handler = commands[cmd as CommandName] as (args: unknown) => unknown;
    return handler(args ?? {});
  }

  const stub: StubBackend = {
    kind: 'stub',
    commands,
    projects,
    rows,
    calls: new Map(),
    lastArgs: new Map(),
    launchOnLogin: false,
    timeline,
    hooks,
    connect,
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
        hooks_skipped_untrusted: 0,
      },
      recording_paused: false,
    },
    invoke(cmd, args) {
      stub.calls.set(cmd, (stub.calls.get(cmd) ?? 0) + 1);
      stub.lastArgs.set(cmd, args);
      return new Promise((resolve, reject) => {
        setTimeout(() => {
          if (failures.has(cmd)) {
            const err = failures.get(cmd);
            failures.delete(cmd);
            reject(err);
            return;
          }
          try {
            resolve(answer(cmd, args));
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
      const repo = REPOS.find((r) => r.root === root) ?? maker.pickRepo();
      const added: MutationRow[] = [];
      for (let i = 0; i < count; i++) added.push(maker.row(repo, now()));
      rows.push(...added);
      const addedEvents = timeline.rowsAdded(added);
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
