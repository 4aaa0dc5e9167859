// Typed access to the backend: `invoke` for commands, `listen` for events.
//
// Inside the app, Tauri exposes `window.__TAURI__` (withGlobalTauri: true), so
// the UI needs no npm dependency on @tauri-apps/api. In a plain browser (vite
// dev/preview, jsdom tests) there is no `__TAURI__`, and an in-memory stub
// backend with sample data answers instead, so the UI can be developed and
// tested without the Rust side.
//
// Every rejection is normalised to an `ApiError` ({kind, message}) so callers
// have one shape to show, whatever the failure was (a command's typed error,
// a bare string from Tauri's IPC layer, or a JS exception).

import type {
  ActivityEvent,
  EventRef,
  PreviousContent,
  RowRef,
  AddProjectsResult,
  ApiError,
  AppInfo,
  Commands,
  DaemonStatus,
  Events,
  MutationRow,
  ProjectInfo,
  TimelineQuery,
  EffectiveView,
  FileRef,
  HookEventInfo,
  HookFile,
  HookRef,
  MatcherCheck,
  MoveResult,
  SavePreview,
  SaveResult,
  UiMark,
} from './types';

import type { BenchCatalog, BenchMatch, BenchRun, ConnectMode, ConnectPreview, ConnectResult, ConnectScope } from './types';
import type { TemplateCatalog, TemplateChange } from './types';

/** Stops a subscription. */
export type Unlisten = () => void;

/** The two primitives the UI needs from a backend. */
export interface Backend {
  /** Runs a command; rejects with anything (normalised by `invoke`). */
  invoke(cmd: string, args?: Record<string, unknown>): Promise<unknown>;
  /** Subscribes to an event; the handler receives the event's payload. */
  listen(event: string, handler: (payload: unknown) => void): Promise<Unlisten>;
  /** Which implementation this is, shown in the footer. */
  readonly kind: 'tauri' | 'stub';
}

/** The subset of `window.__TAURI__` this UI uses. */
interface TauriGlobal {
  core: { invoke(cmd: string, args?: Record<string, unknown>): Promise<unknown> };
  event: {
    listen(
      event: string,
      handler: (event: { event: string; id: number; payload: unknown }) => void,
    ): Promise<() => void>;
  };
}

declare global {
  interface Window {
    __TAURI__?: TauriGlobal;
  }
}

/** An `Error` carrying the backend's error kind, thrown by `invoke`. */
export class HookdError extends Error implements ApiError {
  readonly kind: string;
  constructor(err: ApiError) {
    super(err.message);
    this.name = 'HookdError';
    this.kind = err.kind;
  }
}

/**
 * Turns whatever a rejected invoke carried into `{kind, message}`.
 *
 * - `{kind, message}` (the app's typed error): kept as is.
 * - a string (Tauri's own IPC errors, e.g. an unknown command): kind `ipc`.
 * - an `Error` (a bug or exception on this side): kind `client`.
 * - anything else: kind `unknown`, with its JSON as the message.
 */
export function normalizeError(err: unknown): ApiError {
  if (err instanceof HookdError) return { kind: err.kind, message: err.message };
  if (typeof err === 'string') return { kind: 'ipc', message: err };
  if (err instanceof Error) return { kind: 'client', message: err.message || err.name };
  if (err && typeof err === 'object') {
    const o = err as Record<string, unknown>;
    const message = typeof o.message === 'string' ? o.message : undefined;
    const kind = typeof o.kind === 'string' && o.kind !== '' ? o.kind : undefined;
    if (message !== undefined) return { kind: kind ?? 'unknown', message };
    if (kind !== undefined) return { kind, message: kind };
  }
  let text: string;
  try {
    text = JSON.stringify(err) ?? String(err);
  } catch {
    text = String(err);
  }
  return { kind: 'unknown', message: text };
}

/** The backend over `window.__TAURI__`. */
export function tauriBackend(tauri: TauriGlobal): Backend {
  return {
    kind: 'tauri',
    invoke: (cmd, args) => tauri.core.invoke(cmd, args),
    listen: (event, handler) => tauri.event.listen(event, (e) => handler(e.payload)),
  };
}

let current: Backend | null = null;
let stubLoading: Promise<Backend> | null = null;

/** Replaces the backend (tests); `null` goes back to auto-detection. */
export function setBackend(backend: Backend | null): void {
  current = backend;
  stubLoading = null;
}

/** The active backend: Tauri when present, else the stub (loaded lazily). */
export function getBackend(): Promise<Backend> {
  if (current) return Promise.resolve(current);
  const tauri = typeof window !== 'undefined' ? window.__TAURI__ : undefined;
  if (tauri) {
    current = tauriBackend(tauri);
    return Promise.resolve(current);
  }
  // The stub and its sample data stay out of the main chunk: Vite splits
  // this dynamic import, and the app never loads it when __TAURI__ exists.
  stubLoading ??= import('./stub').then(({ browserStub }) => {
    current ??= browserStub();
    return current;
  });
  return stubLoading;
}

/** Runs a backend command; rejects with a `HookdError`. */
export async function invoke<C extends keyof Commands>(
  cmd: C,
  args?: Commands[C][0],
): Promise<Commands[C][1]> {
  try {
    const backend = await getBackend();
    return (await backend.invoke(cmd, args as Record<string, unknown> | undefined)) as Commands[C][1];
  } catch (err) {
    throw new HookdError(normalizeError(err));
  }
}

/** Subscribes to a backend event; resolves to the function that stops it. */
export async function listen<E extends keyof Events>(
  event: E,
  handler: (payload: Events[E]) => void,
): Promise<Unlisten> {
  try {
    const backend = await getBackend();
    return await backend.listen(event, (payload) => handler(payload as Events[E]));
  } catch (err) {
    throw new HookdError(normalizeError(err));
  }
}

/** The backend's commands, typed. */
export const api = {
  appInfo: (): Promise<AppInfo> => invoke('app_info', {}),
  daemonStatus: (): Promise<DaemonStatus | null> => invoke('daemon_status', {}),
  launchOnLogin: (): Promise<boolean> => invoke('launch_on_login', {}),
  setLaunchOnLogin: (enabled: boolean): Promise<boolean> => invoke('set_launch_on_login', { enabled }),
  listProjects: (): Promise<ProjectInfo[]> => invoke('list_projects', {}),
  addProjects: (paths: string[]): Promise<AddProjectsResult> => invoke('add_projects', { paths }),
  timeline: (query: TimelineQuery): Promise<MutationRow[]> => invoke('timeline', { query }),
  agentActivity: (query: TimelineQuery): Promise<ActivityEvent[]> => invoke('agent_activity', { query }),
  mutationRow: (row: RowRef): Promise<MutationRow> => invoke('mutation_row', { row }),
  previousContent: (row: RowRef): Promise<PreviousContent> => invoke('previous_content', { row }),
  eventMutations: (event: EventRef): Promise<MutationRow[]> => invoke('event_mutations', { event }),
  hookEvents: (): Promise<HookEventInfo[]> => invoke('hook_events', {}),
  hookFiles: (project: string): Promise<HookFile[]> => invoke('hook_files', { project }),
  effectiveHooks: (project: string): Promise<EffectiveView> => invoke('effective_hooks', { project }),
  checkMatcher: (event: string, text: string | null): Promise<MatcherCheck> => invoke('check_matcher', { event, text }),
  previewHooksSave: (file: FileRef, hooks: unknown, version: string): Promise<SavePreview> =>
    invoke('preview_hooks_save', { file, hooks, version }),
  saveHooks: (file: FileRef, hooks: unknown, version: string, force: boolean): Promise<SaveResult> =>
    invoke('save_hooks', { file, hooks, version, force }),
  setHookEnabled: (file: FileRef, hook: HookRef, enabled: boolean, version: string): Promise<number> =>
    invoke('set_hook_enabled', { file, hook, enabled, version }),
  moveHook: (from: FileRef, to: FileRef, hook: HookRef, version: string): Promise<MoveResult> =>
    invoke('move_hook', { from, to, hook, version }),
  watchSettings: (project: string): Promise<string[]> => invoke('watch_settings', { project }),
  benchSamples: (project: string): Promise<BenchCatalog> => invoke('bench_samples', { project }),
  benchMatch: (project: string, event: string, payload: unknown): Promise<BenchMatch> =>
    invoke('bench_match', { project, event, payload }),
  benchRun: (project: string, event: string, payload: unknown): Promise<BenchRun> => invoke('bench_run', { project, event, payload }),
  /** Stops the bench's runs in flight (their `benchRun` rejects with kind `cancelled`); resolves to how many. */
  benchCancel: (): Promise<number> => invoke('bench_cancel'),
  connectPreview: (project: string, scope: ConnectScope, mode: ConnectMode): Promise<ConnectPreview> =>
    invoke('connect_preview', { project, scope, mode }),
  connectApply: (project: string, scope: ConnectScope, mode: ConnectMode, version: string): Promise<ConnectResult> =>
    invoke('connect_apply', { project, scope, mode, version }),
  disconnectPreview: (project: string, scope: ConnectScope): Promise<ConnectPreview> => invoke('disconnect_preview', { project, scope }),
  disconnectApply: (project: string, scope: ConnectScope, version: string): Promise<ConnectResult> =>
    invoke('disconnect_apply', { project, scope, version }),
  templatesCatalog: (project: string | null): Promise<TemplateCatalog> => invoke('templates_catalog', { project }),
  installTemplate: (name: string, file: FileRef): Promise<TemplateChange> => invoke('install_template', { name, file }),
  uninstallTemplate: (name: string, file: FileRef): Promise<TemplateChange> => invoke('uninstall_template', { name, file }),
  uiMark: (mark: UiMark): Promise<null> => invoke('ui_mark', { mark }),
  stashHookDrafts: (drafts: unknown): Promise<null> => invoke('stash_hook_drafts', { drafts }),
  takeHookDrafts: (): Promise<unknown> => invoke('take_hook_drafts', {}),
  finishWindowClose: (): Promise<null> => invoke('finish_window_close', {}),
  /** The system's folder picker (tauri-plugin-dialog); `[]` when cancelled. */
  pickFolders: async (): Promise<string[]> => {
    const picked = await invoke('plugin:dialog|open', {
      options: { directory: true, multiple: true, title: 'Add project folders' },
    });
    if (picked === null) return [];
    return Array.isArray(picked) ? picked : [picked];
  },
};
