// The data types of the contract between the UI and the Tauri backend
// (src-tauri), as JSON, under the names the UI uses.
//
// Everything here is generated from the Rust side into ./bindings/ by
// scripts/gen-types (CI fails when the committed bindings are stale): the
// types with ts-rs, and the command and event maps (./bindings/commands.ts),
// which api.ts reads. This file only re-exports the types. Field names are
// snake_case because that is what the Rust side serialises.

export type { AppError } from './bindings/AppError';
export type { AppInfo } from './bindings/AppInfo';
export type { AddProjectsResult } from './bindings/AddProjectsResult';
export type { ConnectionState } from './bindings/ConnectionState';
export type { DaemonInfo } from './bindings/DaemonInfo';
export type { DaemonMode } from './bindings/DaemonMode';
export type { DaemonStatus } from './bindings/DaemonStatus';
export type { ErrorKind } from './bindings/ErrorKind';
/** Any JSON value (what a `serde_json::Value` argument takes). */
export type { JsonValue } from './bindings/serde_json/JsonValue';
export type { HookRunRecord } from './bindings/HookRunRecord';
export type { LedgerCommit } from './bindings/LedgerCommit';
export type { MutationRow } from './bindings/MutationRow';
// The diff a row shows and the lines it added and removed (hookd_core::diff).
export type { ChangeDiff } from './bindings/ChangeDiff';
export type { ChangeKind } from './bindings/ChangeKind';
export type { DiffBlock } from './bindings/DiffBlock';
export type { DiffLine } from './bindings/DiffLine';
export type { DiffOp } from './bindings/DiffOp';
export type { LineCounts } from './bindings/LineCounts';
export type { MutationDiff } from './bindings/MutationDiff';
export type { ProjectInfo } from './bindings/ProjectInfo';
export type { PublisherStatus } from './bindings/PublisherStatus';
export type { TimelineQuery } from './bindings/TimelineQuery';
export type { UiMark } from './bindings/UiMark';
export type { FileReview } from './bindings/FileReview';
export type { Trust } from './bindings/Trust';
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
/** A prompt, whole, and its group's exact counts (hookd-core `ledger::prompts`). */
export type { PromptGroup } from './bindings/PromptGroup';
export type { EventRef } from './bindings/EventRef';
export type { PreviousContent } from './bindings/PreviousContent';
export type { PreviousSource } from './bindings/PreviousSource';
export type { RowRef } from './bindings/RowRef';

// Pages and charts of the timeline (hookd_core::ledger::{page, histogram}).
export type { AgentInfo } from './bindings/AgentInfo';
export type { Anchor } from './bindings/Anchor';
export type { Cursor } from './bindings/Cursor';
export type { Page } from './bindings/Page';
export type { Bin } from './bindings/Bin';
export type { Field } from './bindings/Field';
export type { Histogram } from './bindings/Histogram';
export type { HistogramRequest } from './bindings/HistogramRequest';
export type { Known } from './bindings/Known';
export type { Series } from './bindings/Series';
export type { SeriesBy } from './bindings/SeriesBy';
import type { Page } from './bindings/Page';
/** The newest row id read from each ledger: what a live list has seen. */
export type Watermark = Page<unknown>['seen'];

// The Hook editor (src-tauri/src/editor/, settings_watch.rs).
export type { DisabledEntry } from './bindings/DisabledEntry';
export type { EffectiveEntry } from './bindings/EffectiveEntry';
// The Test bench's backtest (hookd_core::executor::backtest).
export type { BacktestChange } from './bindings/BacktestChange';
export type { BacktestProgress } from './bindings/BacktestProgress';
export type { BacktestProgressEvent } from './bindings/BacktestProgressEvent';
export type { BacktestReport } from './bindings/BacktestReport';
export type { BacktestRequest } from './bindings/BacktestRequest';
export type { DraftHook } from './bindings/DraftHook';
// The Health view: hookd_core::health (hookd doctor).
export type { Finding } from './bindings/Finding';
export type { FindingCode } from './bindings/FindingCode';
export type { HealthHookRef } from './bindings/HealthHookRef';
export type { HealthReport } from './bindings/HealthReport';
export type { HookEvidence } from './bindings/HookEvidence';
export type { Severity } from './bindings/Severity';
// Whether a hook really runs for a project, and why not (hookd_core::settings::runs).
export type { NotRun } from './bindings/NotRun';
export type { NotRunCode } from './bindings/NotRunCode';
export type { RunVerdict } from './bindings/RunVerdict';
export type { EffectiveFile } from './bindings/EffectiveFile';
export type { EffectiveView } from './bindings/EffectiveView';
export type { PluginHook } from './bindings/PluginHook';
export type { ComponentHook } from './bindings/ComponentHook';
export type { EventHooks } from './bindings/EventHooks';
export type { Kind } from './bindings/Kind';
export type { FileRef } from './bindings/FileRef';
export type { Scope } from './bindings/Scope';
export type { HookEventInfo } from './bindings/HookEventInfo';
export type { BadMatcher } from './bindings/BadMatcher';
export type { HookFile } from './bindings/HookFile';
export type { AgentHook } from './bindings/AgentHook';
export type { AgentHookFile } from './bindings/AgentHookFile';
export type { AgentFileVerdicts } from './bindings/AgentFileVerdicts';
export type { AgentVerdict } from './bindings/AgentVerdict';
export type { HookGroup } from './bindings/HookGroup';
export type { HookHandler } from './bindings/HookHandler';
export type { HookRef } from './bindings/HookRef';
export type { MatcherCheck } from './bindings/MatcherCheck';
export type { MovePreview } from './bindings/MovePreview';
export type { MoveResult } from './bindings/MoveResult';
export type { MoveVersions } from './bindings/MoveVersions';
export type { Problem } from './bindings/Problem';
export type { SavePreview } from './bindings/SavePreview';
export type { SaveResult } from './bindings/SaveResult';
export type { SettingsChanged } from './bindings/SettingsChanged';

// The Test bench and the Connect button (src-tauri/src/{bench,connect}.rs).
export type { BenchCatalog } from './bindings/BenchCatalog';
export type { BenchEvent } from './bindings/BenchEvent';
export type { BenchHook } from './bindings/BenchHook';
export type { BenchHookRun } from './bindings/BenchHookRun';
export type { BenchMatch } from './bindings/BenchMatch';
export type { BenchResult } from './bindings/BenchResult';
export type { BenchRun } from './bindings/BenchRun';
export type { AgentAnswer } from './bindings/AgentAnswer';
export type { HookCopy } from './bindings/HookCopy';
export type { BenchSample } from './bindings/BenchSample';
export type { ConnectMode } from './bindings/ConnectMode';
export type { ConnectPreview } from './bindings/ConnectPreview';
export type { ConnectResult } from './bindings/ConnectResult';

// The Timeline's Revert actions (src-tauri/src/rewind.rs over hookd_core::rewind).
export type { RewindApplied } from './bindings/RewindApplied';
export type { RewindConflicts } from './bindings/RewindConflicts';
export type { RewindFileKind } from './bindings/RewindFileKind';
export type { RewindFilePreview } from './bindings/RewindFilePreview';
export type { RewindPreview } from './bindings/RewindPreview';
export type { RewindTarget } from './bindings/RewindTarget';

// The Hook editor's Templates tab (src-tauri/src/templates.rs).
export type { ScriptChange } from './bindings/ScriptChange';
export type { TemplateChange } from './bindings/TemplateChange';
export type { TemplateHookInfo } from './bindings/TemplateHookInfo';
export type { TemplateCatalog } from './bindings/TemplateCatalog';
export type { TemplateInfo } from './bindings/TemplateInfo';
export type { UnreadableFile } from './bindings/UnreadableFile';
export type { TemplatePlacement } from './bindings/TemplatePlacement';

/**
 * The error every rejected command carries. Wider than the generated
 * `AppError`: the UI also sees IPC failures and its own exceptions
 * (kinds `ipc`, `client`, `unknown`; see `normalizeError`).
 */
export interface ApiError {
  kind: string;
  message: string;
}
