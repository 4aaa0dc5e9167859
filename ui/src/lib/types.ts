// The contract between the UI and the Tauri backend (src-tauri), as JSON.
//
// The data types are generated from the Rust types with ts-rs into
// ./bindings/ (run scripts/gen-types after changing a Rust type; CI fails
// when the committed bindings are stale) and re-exported here under the
// names the UI uses. Field names are snake_case because that is what the
// Rust side serialises. Only the command and event maps below, which say
// which Rust function answers which name, are written by hand.

export type { AppError } from './bindings/AppError';
export type { AppInfo } from './bindings/AppInfo';
export type { AddProjectsResult } from './bindings/AddProjectsResult';
export type { ConnectionState } from './bindings/ConnectionState';
export type { DaemonInfo } from './bindings/DaemonInfo';
export type { DaemonMode } from './bindings/DaemonMode';
export type { DaemonStatus } from './bindings/DaemonStatus';
export type { ErrorKind } from './bindings/ErrorKind';
export type { HookRunRecord } from './bindings/HookRunRecord';
export type { LedgerCommit } from './bindings/LedgerCommit';
export type { MutationRow } from './bindings/MutationRow';
export type { ProjectInfo } from './bindings/ProjectInfo';
export type { PublisherStatus } from './bindings/PublisherStatus';
export type { TimelineQuery } from './bindings/TimelineQuery';
export type { UiMark } from './bindings/UiMark';
/** The daemon's counters since it started (`hookd status`). */
export type { StatsSnapshot as DaemonStats } from './bindings/StatsSnapshot';
/** Per scope: whether the agent's hook config calls hookd. */
export type { Connected as ConnectedScopes } from './bindings/Connected';
/** A path `add_projects` refused, with the reason. */
export type { Rejected as RejectedPath } from './bindings/Rejected';
/** One ledger's share of a commit, in a `ledger-commit` event. */
export type { CommitNotice as LedgerNotice } from './bindings/CommitNotice';

// The Timeline's activity mode and row detail (src-tauri/src/{activity,history}.rs).
export type { ActivityEvent } from './bindings/ActivityEvent';
export type { EventRef } from './bindings/EventRef';
export type { PreviousContent } from './bindings/PreviousContent';
export type { PreviousSource } from './bindings/PreviousSource';
export type { RowRef } from './bindings/RowRef';
import type { ActivityEvent } from './bindings/ActivityEvent';
import type { EventRef } from './bindings/EventRef';
import type { PreviousContent } from './bindings/PreviousContent';
import type { RowRef } from './bindings/RowRef';

// The Hook editor (src-tauri/src/editor/, settings_watch.rs).
export type { DisabledEntry } from './bindings/DisabledEntry';
export type { EffectiveEntry } from './bindings/EffectiveEntry';
export type { EffectiveFile } from './bindings/EffectiveFile';
export type { EffectiveView } from './bindings/EffectiveView';
export type { EventHooks } from './bindings/EventHooks';
export type { FileKind } from './bindings/FileKind';
export type { FileRef } from './bindings/FileRef';
export type { FileScope } from './bindings/FileScope';
export type { HookEventInfo } from './bindings/HookEventInfo';
export type { HookFile } from './bindings/HookFile';
export type { HookGroup } from './bindings/HookGroup';
export type { HookHandler } from './bindings/HookHandler';
export type { HookRef } from './bindings/HookRef';
export type { MatcherCheck } from './bindings/MatcherCheck';
export type { MoveResult } from './bindings/MoveResult';
export type { Problem } from './bindings/Problem';
export type { SavePreview } from './bindings/SavePreview';
export type { SaveResult } from './bindings/SaveResult';
export type { SettingsChanged } from './bindings/SettingsChanged';

import type { EffectiveView } from './bindings/EffectiveView';
import type { FileRef } from './bindings/FileRef';
import type { HookEventInfo } from './bindings/HookEventInfo';
import type { HookFile } from './bindings/HookFile';
import type { HookRef } from './bindings/HookRef';
import type { MatcherCheck } from './bindings/MatcherCheck';
import type { MoveResult } from './bindings/MoveResult';
import type { SavePreview } from './bindings/SavePreview';
import type { SaveResult } from './bindings/SaveResult';
import type { SettingsChanged } from './bindings/SettingsChanged';
// The Test bench and the Connect button (src-tauri/src/{bench,connect}.rs).
export type { BenchCatalog } from './bindings/BenchCatalog';
export type { BenchEvent } from './bindings/BenchEvent';
export type { BenchHook } from './bindings/BenchHook';
export type { BenchHookRun } from './bindings/BenchHookRun';
export type { BenchMatch } from './bindings/BenchMatch';
export type { BenchResult } from './bindings/BenchResult';
export type { BenchRun } from './bindings/BenchRun';
export type { BenchSample } from './bindings/BenchSample';
export type { ConnectMode } from './bindings/ConnectMode';
export type { ConnectPreview } from './bindings/ConnectPreview';
export type { ConnectResult } from './bindings/ConnectResult';
export type { ConnectScope } from './bindings/ConnectScope';
import type { BenchCatalog } from './bindings/BenchCatalog';
import type { BenchMatch } from './bindings/BenchMatch';
import type { BenchRun } from './bindings/BenchRun';
import type { ConnectMode } from './bindings/ConnectMode';
import type { ConnectPreview } from './bindings/ConnectPreview';
import type { ConnectResult } from './bindings/ConnectResult';
import type { ConnectScope } from './bindings/ConnectScope';

// The Hook editor's Templates tab (src-tauri/src/templates.rs).
export type { ScriptChange } from './bindings/ScriptChange';
export type { TemplateChange } from './bindings/TemplateChange';
export type { TemplateHookInfo } from './bindings/TemplateHookInfo';
export type { TemplateCatalog } from './bindings/TemplateCatalog';
export type { TemplateInfo } from './bindings/TemplateInfo';
export type { UnreadableFile } from './bindings/UnreadableFile';
export type { TemplatePlacement } from './bindings/TemplatePlacement';
import type { TemplateChange } from './bindings/TemplateChange';
import type { TemplateCatalog } from './bindings/TemplateCatalog';

import type { AddProjectsResult } from './bindings/AddProjectsResult';
import type { AppInfo } from './bindings/AppInfo';
import type { DaemonStatus } from './bindings/DaemonStatus';
import type { LedgerCommit } from './bindings/LedgerCommit';
import type { MutationRow } from './bindings/MutationRow';
import type { ProjectInfo } from './bindings/ProjectInfo';
import type { TimelineQuery } from './bindings/TimelineQuery';
import type { UiMark } from './bindings/UiMark';

/**
 * The error every rejected command carries. Wider than the generated
 * `AppError`: the UI also sees IPC failures and its own exceptions
 * (kinds `ipc`, `client`, `unknown`; see `normalizeError`).
 */
export interface ApiError {
  kind: string;
  message: string;
}

/** Commands: name → [argument object, result]. */
export interface Commands {
  app_info: [Record<string, never>, AppInfo];
  daemon_status: [Record<string, never>, DaemonStatus | null];
  launch_on_login: [Record<string, never>, boolean];
  set_launch_on_login: [{ enabled: boolean }, boolean];
  list_projects: [Record<string, never>, ProjectInfo[]];
  add_projects: [{ paths: string[] }, AddProjectsResult];
  timeline: [{ query: TimelineQuery }, MutationRow[]];
  agent_activity: [{ query: TimelineQuery }, ActivityEvent[]];
  mutation_row: [{ row: RowRef }, MutationRow];
  previous_content: [{ row: RowRef }, PreviousContent];
  event_mutations: [{ event: EventRef }, MutationRow[]];
  hook_events: [Record<string, never>, HookEventInfo[]];
  hook_files: [{ project: string }, HookFile[]];
  effective_hooks: [{ project: string }, EffectiveView];
  check_matcher: [{ event: string; text: string | null }, MatcherCheck];
  preview_hooks_save: [{ file: FileRef; hooks: unknown; version: string }, SavePreview];
  save_hooks: [{ file: FileRef; hooks: unknown; version: string; force: boolean }, SaveResult];
  set_hook_enabled: [{ file: FileRef; hook: HookRef; enabled: boolean; version: string }, number];
  move_hook: [{ from: FileRef; to: FileRef; hook: HookRef; version: string }, MoveResult];
  watch_settings: [{ project: string }, string[]];
  bench_samples: [{ project: string }, BenchCatalog];
  bench_match: [{ project: string; event: string; payload: unknown }, BenchMatch];
  bench_run: [{ project: string; event: string; payload: unknown }, BenchRun];
  bench_cancel: [Record<string, never>, number];
  connect_preview: [{ project: string; scope: ConnectScope; mode: ConnectMode }, ConnectPreview];
  connect_apply: [{ project: string; scope: ConnectScope; mode: ConnectMode; version: string }, ConnectResult];
  disconnect_preview: [{ project: string; scope: ConnectScope }, ConnectPreview];
  disconnect_apply: [{ project: string; scope: ConnectScope; version: string }, ConnectResult];
  templates_catalog: [{ project: string | null }, TemplateCatalog];
  install_template: [{ name: string; file: FileRef }, TemplateChange];
  uninstall_template: [{ name: string; file: FileRef }, TemplateChange];
  ui_mark: [{ mark: UiMark }, null];
  /** Keeps the Hook editor's unsaved edits while the window is closed (null forgets them). */
  stash_hook_drafts: [{ drafts: unknown }, null];
  /** The edits a closed window left, once. */
  take_hook_drafts: [Record<string, never>, unknown];
  /** After `window-closing`: the window may go now. */
  finish_window_close: [Record<string, never>, null];
  /** tauri-plugin-dialog's open(): the chosen path(s), or null when cancelled. */
  'plugin:dialog|open': [
    { options: { directory: boolean; multiple: boolean; title: string } },
    string[] | string | null,
  ];
}

/** Events the backend emits: name → payload. */
export interface Events {
  /** The tray asks the window to show a route (a hash without `#/`). */
  navigate: string;
  /** The window is closing: hand over what must not be lost, then `finish_window_close`. */
  'window-closing': null;
  'ledger-commit': LedgerCommit;
  'projects-changed': AddProjectsResult;
  /** A watched hook settings file changed on disk (Hook editor). */
  'settings-changed': SettingsChanged;
  /** Tauri's own window drag-and-drop events; used only to highlight the drop zone. */
  'tauri://drag-enter': unknown;
  'tauri://drag-leave': unknown;
  'tauri://drag-drop': unknown;
}
