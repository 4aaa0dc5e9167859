//! The commands the window invokes. Each one is a thin wrapper: it moves the
//! work off the main thread and calls a plain function taking `&AppState`
//! (in [`crate::projects`], [`crate::timeline`], [`crate::state`]), which is
//! what the Rust tests call without a window. Errors are [`AppError`]s,
//! serialised as `{kind, message}`.
//!
//! Argument names are single words on purpose: Tauri maps JavaScript's
//! camelCase argument keys to Rust's snake_case ones, and single words make
//! that mapping a non-issue. Inside the arguments and results every JSON key
//! is snake_case, exactly as serde writes the Rust field names.

// Tauri hands commands their extractors (`State`, `AppHandle`) by value.
#![allow(clippy::needless_pass_by_value)]

use std::path::PathBuf;

use hookd_core::daemon::status::DaemonStatus;
use hookd_core::record::MutationRow;
use tauri::{AppHandle, Manager, Runtime, State};
use tauri_plugin_autostart::AutoLaunchManager;

use crate::bench::{self, BenchCatalog, BenchMatch, BenchRun};
use crate::closing::{self, Handover};
use crate::connect::{self, ConnectMode, ConnectPreview, ConnectResult, ConnectScope};
use crate::editor;
use crate::error::{AppError, ErrorKind, Result};
use crate::perf::{self, UiMark};
use crate::projects::{self, AddProjectsResult, ProjectInfo};
use crate::settings_watch::SettingsWatch;
use crate::state::{AppInfo, AppState};
use crate::templates::{self, TemplateCatalog, TemplateChange};
use crate::timeline::{self, TimelineQuery};
use crate::{activity, history};

/// Every command, for `Builder::invoke_handler`.
pub fn handler<R: Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
    tauri::generate_handler![
        app_info,
        daemon_status,
        list_projects,
        add_projects,
        timeline,
        agent_activity,
        mutation_row,
        previous_content,
        event_mutations,
        set_launch_on_login,
        launch_on_login,
        bench_samples,
        bench_match,
        bench_run,
        bench_cancel,
        connect_preview,
        connect_apply,
        disconnect_preview,
        disconnect_apply,
        templates_catalog,
        install_template,
        uninstall_template,
        hook_events,
        hook_files,
        effective_hooks,
        check_matcher,
        preview_hooks_save,
        save_hooks,
        set_hook_enabled,
        move_hook,
        watch_settings,
        stash_hook_drafts,
        take_hook_drafts,
        finish_window_close,
        ui_mark
    ]
}

/// `app_info() -> AppInfo`: version, daemon status, data directory.
#[tauri::command]
pub fn app_info(state: State<'_, AppState>) -> AppInfo {
    state.app_info()
}

/// `daemon_status() -> DaemonStatus | null`: the status file of the daemon
/// on the app's socket (own or attached); null when there is none.
#[tauri::command]
pub async fn daemon_status<R: Runtime>(app: AppHandle<R>) -> Result<Option<DaemonStatus>> {
    blocking(&app, AppState::daemon_status).await
}

/// `list_projects() -> ProjectInfo[]`, newest activity first.
#[tauri::command]
pub async fn list_projects<R: Runtime>(app: AppHandle<R>) -> Result<Vec<ProjectInfo>> {
    blocking(&app, projects::list_projects).await
}

/// `add_projects(paths) -> { added, rejected }`.
#[tauri::command]
pub async fn add_projects<R: Runtime>(
    app: AppHandle<R>,
    paths: Vec<String>,
) -> Result<AddProjectsResult> {
    let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
    blocking(&app, move |state| projects::add_projects(state, &paths)).await
}

/// `timeline(query) -> MutationRow[]`, oldest first.
#[tauri::command]
pub async fn timeline<R: Runtime>(
    app: AppHandle<R>,
    query: TimelineQuery,
) -> Result<Vec<MutationRow>> {
    blocking(&app, move |state| timeline::timeline(state, &query)).await
}

/// `agent_activity(query) -> ActivityEvent[]`: every hook event matching
/// the timeline's filters, with its hook runs, oldest first.
#[tauri::command]
pub async fn agent_activity<R: Runtime>(
    app: AppHandle<R>,
    query: TimelineQuery,
) -> Result<Vec<hookd_core::ledger::ActivityEvent>> {
    blocking(&app, move |state| activity::agent_activity(state, &query)).await
}

/// `mutation_row(row) -> MutationRow`: one timeline row whole, payload included.
#[tauri::command]
pub async fn mutation_row<R: Runtime>(
    app: AppHandle<R>,
    row: history::RowRef,
) -> Result<MutationRow> {
    blocking(&app, move |state| history::mutation_row(state, &row)).await
}

/// `previous_content(row) -> PreviousContent`: what a Write's file held before it.
#[tauri::command]
pub async fn previous_content<R: Runtime>(
    app: AppHandle<R>,
    row: history::RowRef,
) -> Result<hookd_core::ledger::previous::PreviousContent> {
    blocking(&app, move |state| history::previous_content(state, &row)).await
}

/// `event_mutations(event) -> MutationRow[]`: every file one hook event changed.
#[tauri::command]
pub async fn event_mutations<R: Runtime>(
    app: AppHandle<R>,
    event: history::EventRef,
) -> Result<Vec<MutationRow>> {
    blocking(&app, move |state| history::event_mutations(state, &event)).await
}

/// `ui_mark(mark)`: the window painted something worth timing; logged.
#[tauri::command]
pub fn ui_mark(mark: UiMark) {
    perf::record(&mark);
}

/// `set_launch_on_login(enabled) -> bool`: turns the XDG autostart entry on
/// or off and returns the state afterwards.
#[tauri::command]
pub fn set_launch_on_login<R: Runtime>(app: AppHandle<R>, enabled: bool) -> Result<bool> {
    let autostart = autostart(&app)?;
    let changed = if enabled {
        autostart.enable()
    } else {
        autostart.disable()
    };
    changed.map_err(|err| AppError::new(ErrorKind::Io, format!("launch on login: {err}")))?;
    tracing::info!(enabled, "launch on login changed");
    autostart_enabled(&autostart)
}

/// `launch_on_login() -> bool`: whether the app starts on login.
#[tauri::command]
pub fn launch_on_login<R: Runtime>(app: AppHandle<R>) -> Result<bool> {
    autostart_enabled(autostart(&app)?.inner())
}

/// `hook_events() -> HookEventInfo[]`: the event catalogue for the editor's picker.
#[tauri::command]
pub fn hook_events() -> Vec<editor::HookEventInfo> {
    editor::hook_events()
}

/// `hook_files(project) -> HookFile[]`: the six settings files of a project, structured.
#[tauri::command]
pub async fn hook_files<R: Runtime>(
    app: AppHandle<R>,
    project: String,
) -> Result<Vec<editor::HookFile>> {
    blocking(&app, move |state| editor::hook_files(state, &project)).await
}

/// `effective_hooks(project) -> EffectiveView`: every hook that applies to a project.
#[tauri::command]
pub async fn effective_hooks<R: Runtime>(
    app: AppHandle<R>,
    project: String,
) -> Result<editor::EffectiveView> {
    blocking(&app, move |state| editor::effective_hooks(state, &project)).await
}

/// `check_matcher(event, text) -> MatcherCheck`: live validation of a matcher.
#[tauri::command]
pub fn check_matcher(event: String, text: Option<String>) -> Result<editor::MatcherCheck> {
    editor::check_matcher(&event, text.as_deref())
}

/// `preview_hooks_save(file, hooks, version) -> SavePreview`: the file before and after.
#[tauri::command]
pub async fn preview_hooks_save<R: Runtime>(
    app: AppHandle<R>,
    file: editor::FileRef,
    hooks: serde_json::Value,
    version: String,
) -> Result<editor::SavePreview> {
    blocking(&app, move |state| {
        editor::preview_hooks_save(state, &file, hooks, &version)
    })
    .await
}

/// `save_hooks(file, hooks, version, force) -> SaveResult`; a stale version is a `conflict`.
#[tauri::command]
pub async fn save_hooks<R: Runtime>(
    app: AppHandle<R>,
    file: editor::FileRef,
    hooks: serde_json::Value,
    version: String,
    force: bool,
) -> Result<editor::SaveResult> {
    blocking(&app, move |state| {
        editor::save_hooks(state, &file, hooks, &version, force)
    })
    .await
}

/// `set_hook_enabled(file, hook, enabled, version) -> number` of hooks changed.
#[tauri::command]
pub async fn set_hook_enabled<R: Runtime>(
    app: AppHandle<R>,
    file: editor::FileRef,
    hook: editor::HookRef,
    enabled: bool,
    version: String,
) -> Result<u64> {
    blocking(&app, move |state| {
        editor::set_hook_enabled(state, &file, &hook, enabled, &version)
    })
    .await
}

/// `move_hook(from, to, hook, version) -> MoveResult`.
#[tauri::command]
pub async fn move_hook<R: Runtime>(
    app: AppHandle<R>,
    from: editor::FileRef,
    to: editor::FileRef,
    hook: editor::HookRef,
    version: String,
) -> Result<editor::MoveResult> {
    blocking(&app, move |state| {
        editor::move_hook(state, &from, &to, &hook, &version)
    })
    .await
}

/// `watch_settings(project) -> string[]`: reports changes of the project's
/// settings files as `settings-changed` events; returns the files watched.
#[tauri::command]
pub fn watch_settings(watch: State<'_, SettingsWatch>, project: String) -> Result<Vec<String>> {
    let project = editor::project_dir(&project)?;
    watch.watch_project(&project)
}

/// `stash_hook_drafts(drafts)`: keeps the Hook editor's unsaved edits while
/// the window is closed (null forgets them); refused above 4 MiB.
#[tauri::command]
pub fn stash_hook_drafts(handover: State<'_, Handover>, drafts: serde_json::Value) -> Result<()> {
    handover.stash_drafts(drafts)
}

/// `take_hook_drafts() -> unknown | null`: the edits a closed window left, once.
#[tauri::command]
pub fn take_hook_drafts(handover: State<'_, Handover>) -> Option<serde_json::Value> {
    handover.take_drafts()
}

/// `finish_window_close()`: the page has handed over what it keeps; the
/// close it was asked about (`window-closing`) goes ahead.
#[tauri::command]
pub fn finish_window_close<R: Runtime>(app: AppHandle<R>) {
    closing::finish_close(&app);
}

/// `bench_samples(project) -> BenchCatalog`: the events and ready payloads of the test bench.
#[tauri::command]
pub async fn bench_samples<R: Runtime>(app: AppHandle<R>, project: String) -> Result<BenchCatalog> {
    blocking(&app, move |state| bench::bench_samples(state, &project)).await
}

/// `bench_match(project, event, payload) -> BenchMatch`: which hooks match, and why.
#[tauri::command]
pub async fn bench_match<R: Runtime>(
    app: AppHandle<R>,
    project: String,
    event: String,
    payload: serde_json::Value,
) -> Result<BenchMatch> {
    blocking(&app, move |state| {
        bench::bench_match(state, &project, &event, &payload)
    })
    .await
}

/// `bench_run(project, event, payload) -> BenchRun`: runs the matching hooks for real.
#[tauri::command]
pub async fn bench_run<R: Runtime>(
    app: AppHandle<R>,
    project: String,
    event: String,
    payload: serde_json::Value,
) -> Result<BenchRun> {
    blocking(&app, move |state| {
        bench::bench_run(state, &project, &event, &payload)
    })
    .await
}

/// `bench_cancel() -> number`: stops the test bench's runs in flight (their
/// `bench_run` fails with kind `cancelled`); returns how many were stopped.
#[tauri::command]
pub fn bench_cancel<R: Runtime>(app: AppHandle<R>) -> usize {
    bench::bench_cancel(&app.state::<AppState>())
}

/// `connect_preview(project, scope, mode) -> ConnectPreview`: the settings file before and after.
#[tauri::command]
pub async fn connect_preview<R: Runtime>(
    app: AppHandle<R>,
    project: String,
    scope: ConnectScope,
    mode: ConnectMode,
) -> Result<ConnectPreview> {
    blocking(&app, move |state| {
        connect::connect_preview(state, &project, scope, mode)
    })
    .await
}

/// `connect_apply(project, scope, mode, version) -> ConnectResult`; a stale version is a `conflict`.
#[tauri::command]
pub async fn connect_apply<R: Runtime>(
    app: AppHandle<R>,
    project: String,
    scope: ConnectScope,
    mode: ConnectMode,
    version: String,
) -> Result<ConnectResult> {
    blocking(&app, move |state| {
        connect::connect_apply(state, &project, scope, mode, &version)
    })
    .await
}

/// `disconnect_preview(project, scope) -> ConnectPreview`.
#[tauri::command]
pub async fn disconnect_preview<R: Runtime>(
    app: AppHandle<R>,
    project: String,
    scope: ConnectScope,
) -> Result<ConnectPreview> {
    blocking(&app, move |state| {
        connect::disconnect_preview(state, &project, scope)
    })
    .await
}

/// `disconnect_apply(project, scope, version) -> ConnectResult`; a stale version is a `conflict`.
#[tauri::command]
pub async fn disconnect_apply<R: Runtime>(
    app: AppHandle<R>,
    project: String,
    scope: ConnectScope,
    version: String,
) -> Result<ConnectResult> {
    blocking(&app, move |state| {
        connect::disconnect_apply(state, &project, scope, &version)
    })
    .await
}

/// `templates_catalog(project?) -> TemplateCatalog`: every ready-made hook, where it is installed, and the settings files that could not be read.
#[tauri::command]
pub async fn templates_catalog<R: Runtime>(
    app: AppHandle<R>,
    project: Option<String>,
) -> Result<TemplateCatalog> {
    blocking(&app, move |state| {
        templates::catalog(state, project.as_deref())
    })
    .await
}

/// `install_template(name, file) -> TemplateChange`: script copied, handlers added; twice changes nothing.
#[tauri::command]
pub async fn install_template<R: Runtime>(
    app: AppHandle<R>,
    name: String,
    file: editor::FileRef,
) -> Result<TemplateChange> {
    blocking(&app, move |state| templates::install(state, &name, &file)).await
}

/// `uninstall_template(name, file) -> TemplateChange`: removes exactly what install added.
#[tauri::command]
pub async fn uninstall_template<R: Runtime>(
    app: AppHandle<R>,
    name: String,
    file: editor::FileRef,
) -> Result<TemplateChange> {
    blocking(&app, move |state| templates::uninstall(state, &name, &file)).await
}

fn autostart<R: Runtime>(app: &AppHandle<R>) -> Result<State<'_, AutoLaunchManager>> {
    app.try_state::<AutoLaunchManager>().ok_or_else(|| {
        AppError::new(
            ErrorKind::Unavailable,
            "launch on login is not available in this build",
        )
    })
}

fn autostart_enabled(autostart: &AutoLaunchManager) -> Result<bool> {
    autostart
        .is_enabled()
        .map_err(|err| AppError::new(ErrorKind::Io, format!("launch on login: {err}")))
}

/// Runs `work` on the blocking pool: SQLite and git must not stall the main
/// thread (which paints the window) nor the async workers.
async fn blocking<R, T, F>(app: &AppHandle<R>, work: F) -> Result<T>
where
    R: Runtime,
    T: Send + 'static,
    F: FnOnce(&AppState) -> Result<T> + Send + 'static,
{
    let app = app.clone();
    tauri::async_runtime::spawn_blocking(move || work(app.state::<AppState>().inner()))
        .await
        .map_err(|err| AppError::internal(format!("the command's task failed: {err}")))?
}
