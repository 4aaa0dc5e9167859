//! The Health view and the tray's alert: the core's [`hookd_core::health`]
//! check (what `hookd doctor` prints) for one project, and how many serious
//! findings the registered projects have, so a guard that does not guard or
//! hooks that silently stopped are seen without opening a terminal.
//!
//! The check reads every settings file, the ledger's hook runs and the
//! agent's transcripts: far too much for the tray's two-second refresher,
//! and the Health view's 30 days of runs grow with the history. The tray's
//! recount reads only each ledger's newest runs and events
//! ([`TRAY_NEWEST`]).
//! [`HealthCache`] recomputes the tray's counts at most once per
//! [`HEALTH_EVERY`], on the refresher's blocking task, never on the thread
//! that paints the window.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use hookd_core::health::{self, HealthInputs, HealthReport, Severity, TRAY_NEWEST};

use crate::error::{Result, core};
use crate::project::project_root;
use crate::projects;
use crate::state::AppState;

/// How far back the evidence goes unless asked otherwise: the core's, as
/// `hookd doctor`.
pub use hookd_core::health::DEFAULT_DAYS;
/// How often the tray's counts of serious findings are recomputed.
pub const HEALTH_EVERY: Duration = Duration::from_secs(60);

/// The health of `project`'s hooks over the last `days` (default
/// [`DEFAULT_DAYS`]): findings, the serious ones first, and the managed
/// hooks' evidence.
pub fn project_health(state: &AppState, project: &str, days: Option<u32>) -> Result<HealthReport> {
    check(state, project, days, None)
}

fn check(
    state: &AppState,
    project: &str,
    days: Option<u32>,
    newest: Option<u64>,
) -> Result<HealthReport> {
    let root = project_root(project)?;
    let roots = state.roots()?.clone();
    let mut inputs = HealthInputs::for_project(roots, &root, days.unwrap_or(DEFAULT_DAYS).max(1));
    inputs.newest = newest;
    health::check(&inputs).map_err(core)
}

/// Each registered project with serious findings, with how many (in the
/// registry's order). The evidence comes from each ledger's newest
/// [`TRAY_NEWEST`] hook runs and events, so a recount costs the same on a
/// ledger of any size. A project whose check fails is left out (and logged):
/// the tray must not turn one unreadable file into noise.
pub fn serious_problems(state: &AppState) -> SeriousCounts {
    let Ok(list) = projects::list_projects(state) else {
        return Vec::new();
    };
    list.into_iter()
        .filter_map(|p| match check(state, &p.root, None, Some(TRAY_NEWEST)) {
            Ok(report) => {
                let n = report.count(Severity::Serious);
                (n > 0).then_some((p.root, n))
            }
            Err(err) => {
                tracing::debug!(project = %p.root, error = %err, "health check failed");
                None
            }
        })
        .collect()
}

/// Each project's root with its number of serious findings.
pub type SeriousCounts = Vec<(String, usize)>;

/// The tray's counts of serious findings, recomputed at most once per
/// [`HEALTH_EVERY`].
#[derive(Debug, Default)]
pub struct HealthCache {
    last: Mutex<Option<(Instant, SeriousCounts)>>,
}

impl HealthCache {
    /// The counts, from the cache when it is fresh (see [`serious_problems`]).
    pub fn serious(&self, state: &AppState) -> SeriousCounts {
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((at, counts)) = last.as_ref()
            && at.elapsed() < HEALTH_EVERY
        {
            return counts.clone();
        }
        let counts = serious_problems(state);
        *last = Some((Instant::now(), counts.clone()));
        counts
    }

    /// Forgets the counts: the next call recomputes them (after a change the
    /// window made, say).
    pub fn invalidate(&self) {
        *self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }
}
