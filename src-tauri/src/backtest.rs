//! The Test bench's "Backtest on recent history": replays the project's
//! last recorded events against a draft (one hook added to a settings
//! file, or a whole file as the editor would save it) and lists what it
//! would have decided differently from the current configuration — calls
//! it would have blocked or let through, inputs it would rewrite, runs
//! that would fail — before anything is saved.
//!
//! It is `hookd hooks backtest` for the window: the core's
//! [`hookd_core::executor::backtest`] does the work (only the hooks that
//! differ run, with `HOOKD_BACKTEST=1`, and no answer reaches any agent).
//! It is bounded by [`BacktestRequest`]'s events, jobs and per-hook
//! timeout (the core's defaults 200 / 2 / 10 s), runs on the blocking pool,
//! and the bench's Cancel stops it and its hooks.
//!
//! The Hook editor's "Backtest these edits" sends the whole file as its
//! save would write it (`draft`); the Test bench sends one hook. A long
//! replay reports how far it is as [`BACKTEST_PROGRESS_EVENT`]s, at most
//! one per [`PROGRESS_EVERY`] and always the last (Tauri's events are not
//! built for a stream per event).

use std::time::{Duration, Instant};

use hookd_core::executor::backtest::{
    self, BacktestLimits, BacktestProgress, BacktestReport, Draft,
};
use hookd_core::settings::{Kind, Scope};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::editor::settings_error;
use crate::error::{AppError, ErrorKind, Result, core};
use crate::project::project_root;
use crate::state::AppState;

/// What to backtest, and how much.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
pub struct BacktestRequest {
    /// The project (its root).
    pub project: String,
    /// Which file the draft is of (agent or managed).
    pub kind: Kind,
    /// Global, project or local.
    pub scope: Scope,
    /// The whole file as it would be saved; else `hook` is added to it as it is.
    pub draft: Option<Value>,
    /// One hook to add to the file as it is.
    pub hook: Option<DraftHook>,
    /// Events replayed, the newest (default 200).
    pub last: Option<u32>,
    /// Events replayed at once (default 2).
    pub jobs: Option<u32>,
    /// Longest any one hook may run, in seconds (default 10).
    pub timeout: Option<f64>,
}

/// A command hook to try.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, TS)]
pub struct DraftHook {
    /// Its event.
    pub event: String,
    /// Its group's matcher (absent: none).
    pub matcher: Option<String>,
    /// The command.
    pub command: String,
}

/// Name of the event that says how far a backtest is.
pub const BACKTEST_PROGRESS_EVENT: &str = "backtest-progress";

/// Shortest time between two [`BACKTEST_PROGRESS_EVENT`]s of one backtest.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Payload of [`BACKTEST_PROGRESS_EVENT`]: which backtest (its project and
/// file, as requested) and how far it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct BacktestProgressEvent {
    /// The project, as the request named it.
    pub project: String,
    /// The draft's file kind.
    pub kind: Kind,
    /// The draft's file scope.
    pub scope: Scope,
    /// Events replayed so far, of how many.
    pub progress: BacktestProgress,
}

/// Calls `send` with the progress of the backtest `request` asked for: the
/// first report, the last, and at most one per `every` in between.
pub fn throttled_progress(
    request: &BacktestRequest,
    every: Duration,
    mut send: impl FnMut(BacktestProgressEvent),
) -> impl FnMut(BacktestProgress) {
    let (project, kind, scope) = (request.project.clone(), request.kind, request.scope);
    let mut last: Option<Instant> = None;
    move |progress| {
        let due = last.is_none_or(|at| at.elapsed() >= every);
        if due || progress.replayed == progress.events {
            last = Some(Instant::now());
            send(BacktestProgressEvent {
                project: project.clone(),
                kind,
                scope,
                progress,
            });
        }
    }
}

/// Replays the project's recent events against the draft, telling
/// `progress` how far it is; blocks until done or cancelled through
/// [`crate::bench::bench_cancel`].
pub fn backtest(
    state: &AppState,
    request: &BacktestRequest,
    progress: impl FnMut(BacktestProgress),
) -> Result<BacktestReport> {
    let root = project_root(&request.project)?;
    let roots = state.roots()?;
    let location = roots
        .location(request.kind, request.scope, Some(&root))
        .map_err(settings_error)?;
    let draft = match (&request.draft, &request.hook) {
        (Some(value), _) => Draft::File(value.clone()),
        (None, Some(hook)) => {
            if hook.command.trim().is_empty() {
                return Err(AppError::invalid_input("type the command the hook runs"));
            }
            Draft::Hook {
                event: hook.event.clone(),
                matcher: hook.matcher.clone(),
                command: hook.command.clone(),
            }
        }
        (None, None) => {
            return Err(AppError::invalid_input(
                "give the draft: a whole file, or a hook to add",
            ));
        }
    };
    let defaults = BacktestLimits::default();
    let timeout = request.timeout.unwrap_or(defaults.timeout.as_secs_f64());
    if !(timeout.is_finite() && timeout > 0.0) {
        return Err(AppError::invalid_input(
            "the per-hook timeout must be a positive number of seconds",
        ));
    }
    let limits = BacktestLimits {
        events: request.last.map_or(defaults.events, |n| n.max(1) as usize),
        jobs: request
            .jobs
            .map_or(defaults.jobs, |n| n.clamp(1, 8) as usize),
        timeout: Duration::from_secs_f64(timeout),
    };
    // Registered before the ledger is read, so a Cancel pressed meanwhile stops it too.
    let in_flight = state.bench_runs.start();
    let prepared =
        backtest::prepare(roots, &root, &location, &draft, limits.events).map_err(core)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(limits.jobs.clamp(1, 4))
        .enable_all()
        .build()
        .map_err(|err| AppError::internal(format!("cannot start a runtime to run hooks: {err}")))?;
    let report = runtime.block_on(async {
        tokio::select! {
            report = backtest::backtest(
                prepared.recorded, &root, &prepared.current, &prepared.draft, limits, progress,
            ) => Some(report),
            // Dropping the replay kills its hooks' process groups (the executor's guard).
            () = in_flight.token.cancelled() => None,
        }
    });
    let Some(report) = report else {
        return Err(AppError::new(
            ErrorKind::Cancelled,
            "the backtest was cancelled: its hooks were stopped before they finished",
        ));
    };
    tracing::info!(project = %root.display(), events = report.events, changes = report.changes.len(), "test bench backtest");
    Ok(report)
}
