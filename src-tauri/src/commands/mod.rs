//! The commands the window invokes, each declared once.
//!
//! A command is one function written in `command!`
//! in the file of its screen, plus its line in the `register!`
//! list below; `scripts/gen-types` then writes its TypeScript signature into
//! the UI's command map (`ui/src/lib/bindings/commands.ts`), which the UI's
//! typed `invoke` and `api` read. [`registry`] explains the macro,
//! [`typescript`] what is generated.
//!
//! Each command is a thin wrapper: it moves the work off the main thread
//! and calls a plain function taking `&AppState` (in [`crate::projects`],
//! [`crate::timeline`], [`crate::editor`], ...), which is what the Rust tests
//! call without a window. Errors are [`AppError`]s,
//! serialised as `{kind, message}`.
//!
//! Argument names are single words on purpose: Tauri maps JavaScript's
//! camelCase argument keys to Rust's snake_case ones, and single words make
//! that mapping a non-issue. Inside the arguments and results every JSON key
//! is snake_case, exactly as serde writes the Rust field names.

use tauri::{AppHandle, Manager, Runtime};

use crate::error::{AppError, Result};
use crate::state::AppState;
use registry::{EventSignature, register};

pub mod registry;
pub mod typescript;

mod app;
mod bench;
mod connect;
mod health;
mod hooks;
mod projects;
mod rewind;
mod templates;
mod timeline;
mod window;

register! {
    app::app_info,
    app::daemon_status,
    app::launch_on_login,
    app::set_launch_on_login,
    app::ui_mark,
    projects::list_projects,
    projects::add_projects,
    timeline::timeline_page,
    timeline::activity_page,
    timeline::timeline_histogram,
    timeline::activity_histogram,
    timeline::activity_event,
    timeline::prompt_group,
    timeline::mutation_row,
    timeline::previous_content,
    timeline::mutation_diff,
    timeline::payload_diff,
    timeline::event_mutations,
    timeline::known_values,
    timeline::agent_names,
    timeline::set_agent_label,
    rewind::rewind_preview,
    rewind::rewind_apply,
    rewind::rewind_undo,
    hooks::hook_events,
    hooks::hook_files,
    hooks::agent_hook_files,
    hooks::agent_hook_rules, hooks::agent_hook_preview, hooks::agent_hook_apply,
    hooks::set_agent_hook_enabled,
    hooks::agent_verdicts,
    hooks::effective_hooks,
    hooks::check_matcher,
    hooks::copy_hook,
    hooks::trust_review,
    hooks::trust_approve,
    hooks::preview_hooks_save,
    hooks::save_hooks,
    hooks::set_hook_enabled,
    hooks::preview_move_hook,
    hooks::move_hook,
    hooks::watch_settings,
    templates::templates_catalog,
    templates::install_template,
    templates::uninstall_template,
    bench::bench_samples,
    bench::bench_match,
    bench::bench_run,
    bench::bench_cancel,
    bench::bench_backtest,
    connect::connect_preview,
    connect::connect_apply,
    connect::disconnect_preview,
    connect::disconnect_apply,
    health::project_health,
    window::stash_hook_drafts,
    window::take_hook_drafts,
    window::finish_window_close,
}

/// Every event the backend emits to the window, with its payload.
pub fn events() -> Vec<EventSignature> {
    use crate::{backtest, bridge, closing, projects, settings_watch, tray};
    vec![
        EventSignature::of::<String>(
            tray::NAVIGATE_EVENT,
            "Show a route (a hash without `#/`): the tray, or a second launch with `--open`.",
        ),
        EventSignature::of::<()>(
            closing::WINDOW_CLOSING_EVENT,
            "The window is closing: hand over what must not be lost, then `finish_window_close`.",
        ),
        EventSignature::of::<bridge::LedgerCommit>(
            bridge::LEDGER_COMMIT_EVENT,
            "Ledgers committed new events (batched).",
        ),
        EventSignature::of::<projects::AddProjectsResult>(
            projects::PROJECTS_CHANGED_EVENT,
            "Folders dropped on the window were added as projects (or refused).",
        ),
        EventSignature::of::<settings_watch::SettingsChanged>(
            settings_watch::SETTINGS_CHANGED_EVENT,
            "A watched hook settings file changed on disk (Hook editor).",
        ),
        EventSignature::of::<backtest::BacktestProgressEvent>(
            backtest::BACKTEST_PROGRESS_EVENT,
            "How far a backtest is: events replayed of how many (at most ten a second, and the last).",
        ),
    ]
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
