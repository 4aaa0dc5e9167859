// Typed access to the backend: `invoke` and `api` for commands, `listen` for
// events.
//
// No command is spelled here: the command map (name → argument object and
// result) and the event map are generated from the Rust side into
// ./bindings/commands.ts by scripts/gen-types, and `invoke`, `api` and
// `listen` take their types from it. A command added in
// src-tauri/src/commands/ is callable as `api.<name>({...})` once the
// bindings are regenerated.
//
// Inside the app, Tauri exposes `window.__TAURI__` (withGlobalTauri: true), so
// the UI needs no npm dependency on @tauri-apps/api. In a plain browser (vite
// dev/preview, jsdom tests) there is no `__TAURI__`, and the stub backend
// (src/stub/) answers with canned sample data instead, so the UI can be
// developed and tested without the Rust side.
//
// Every rejection is normalised to an `ApiError` ({kind, message}) so callers
// have one shape to show, whatever the failure was (a command's typed error,
// a bare string from Tauri's IPC layer, or a JS exception).

import { COMMAND_NAMES, type Commands, type Events as BackendEvents } from './bindings/commands';
import type { ApiError } from './types';

/** A command's name. */
export type CommandName = keyof Commands;
/** The argument object a command takes (keys as the Rust parameters are named). */
export type CommandArgs<C extends CommandName> = Commands[C]['args'];
/** What a command resolves with. */
export type CommandResult<C extends CommandName> = Commands[C]['result'];
/** A command's parameter list: its argument object, which may be left out when it takes none. */
export type CommandParams<C extends CommandName> =
  Record<string, never> extends CommandArgs<C> ? [args?: CommandArgs<C>] : [args: CommandArgs<C>];

/** Events: the backend's (generated) and Tauri's own drag-and-drop ones. */
export type Events = BackendEvents & {
  /** Tauri's own window drag-and-drop events; used only to highlight the drop zone. */
  'tauri://drag-enter': unknown;
  'tauri://drag-leave': unknown;
  'tauri://drag-drop': unknown;
};

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
  stubLoading ??= import('../stub').then(({ browserStub }) => {
    current ??= browserStub();
    return current;
  });
  return stubLoading;
}

/** Runs `cmd` on the active backend; rejects with a `HookdError`. */
async function call(cmd: string, args: Record<string, unknown> | undefined): Promise<unknown> {
  try {
    const backend = await getBackend();
    return await backend.invoke(cmd, args);
  } catch (err) {
    throw new HookdError(normalizeError(err));
  }
}

/** Runs a backend command; rejects with a `HookdError`. */
export function invoke<C extends CommandName>(cmd: C, ...[args]: CommandParams<C>): Promise<CommandResult<C>> {
  return call(cmd, args) as Promise<CommandResult<C>>;
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

/** Every command as a method: `api.hook_files({ project })`. */
export type Api = { readonly [C in CommandName]: (...args: CommandParams<C>) => Promise<CommandResult<C>> };

/** The backend's commands, typed from the generated map. */
export const api: Api = Object.freeze(
  Object.fromEntries(COMMAND_NAMES.map((name) => [name, (args?: Record<string, unknown>) => call(name, args)])),
) as unknown as Api;

/** The system's folder picker (tauri-plugin-dialog's `open`, not one of ours); `[]` when cancelled. */
export async function pickFolders(): Promise<string[]> {
  const picked = (await call('plugin:dialog|open', {
    options: { directory: true, multiple: true, title: 'Add project folders' },
  })) as string[] | string | null;
  if (picked === null) return [];
  return Array.isArray(picked) ? picked : [picked];
}
