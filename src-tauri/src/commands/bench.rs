//! The Test bench's commands: the catalogue of events and sample payloads,
//! which hooks match a payload and why, and running them for real.

use serde_json::Value;
use tauri::{AppHandle, Emitter, Manager, Runtime};

use super::blocking;
use super::registry::command;
use crate::backtest::{self, BacktestRequest};
use crate::bench::{self, BenchCatalog, BenchMatch, BenchRun};
use crate::error::Result;
use crate::state::AppState;
use hookd_core::executor::backtest::BacktestReport;

command! {
    /// The events and ready payloads of the test bench for a project.
    pub(crate) async fn bench_samples<R: Runtime>[app: AppHandle<R>](
        project: String,
    ) -> Result<BenchCatalog> {
        blocking(&app, move |state| bench::bench_samples(state, &project)).await
    }
}

command! {
    /// Which hooks of the project match the event's payload, and why.
    pub(crate) async fn bench_match<R: Runtime>[app: AppHandle<R>](
        project: String,
        event: String,
        payload: Value,
    ) -> Result<BenchMatch> {
        blocking(&app, move |state| {
            bench::bench_match(state, &project, &event, &payload)
        })
        .await
    }
}

command! {
    /// Runs the matching hooks for real and merges their answers.
    pub(crate) async fn bench_run<R: Runtime>[app: AppHandle<R>](
        project: String,
        event: String,
        payload: Value,
    ) -> Result<BenchRun> {
        blocking(&app, move |state| {
            bench::bench_run(state, &project, &event, &payload)
        })
        .await
    }
}

command! {
    /// Stops the test bench's runs in flight (their `bench_run` fails with
    /// kind `cancelled`); resolves with how many were stopped.
    pub(crate) fn bench_cancel<R: Runtime>[app: AppHandle<R>]() -> usize {
        bench::bench_cancel(&app.state::<AppState>())
    }
}

command! {
    /// Replays the project's recent recorded events against a draft and
    /// lists what it would decide differently (see [`crate::backtest`]);
    /// says how far it is with `backtest-progress` events.
    pub(crate) async fn bench_backtest<R: Runtime>[app: AppHandle<R>](
        request: BacktestRequest,
    ) -> Result<BacktestReport> {
        let emitter = app.clone();
        blocking(&app, move |state| {
            let progress = backtest::throttled_progress(&request, backtest::PROGRESS_EVERY, |event| {
                if let Err(err) = emitter.emit(backtest::BACKTEST_PROGRESS_EVENT, event) {
                    tracing::warn!(%err, "cannot tell the window how far the backtest is");
                }
            });
            backtest::backtest(state, &request, progress)
        })
        .await
    }
}
