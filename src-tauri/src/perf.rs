//! Paint marks: the window reports when it has painted something worth
//! timing (the app shell, the first rows of the timeline), and the app logs
//! each mark with the wall-clock time. The log tells a user how long the app
//! took to show, and `hookd-bench --only desktop` reads the same lines to
//! measure launch-to-window and timeline paint from outside the process.

use std::sync::OnceLock;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde::Deserialize;
use ts_rs::TS;

/// The `tracing` target of the mark lines; the benchmark looks for it.
pub const TARGET: &str = "hookd_desktop::perf";

static LAUNCHED: OnceLock<Instant> = OnceLock::new();

/// Remembers when the app started; called first thing in [`crate::run`].
pub fn note_launch() {
    LAUNCHED.get_or_init(Instant::now);
}

/// Something the window painted.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
pub struct UiMark {
    /// What was painted: `shell` (the first frame of the app) or `timeline`
    /// (the first rows of a timeline view).
    pub name: String,
    /// Milliseconds the window spent getting there, by its own clock: since
    /// the page started loading for `shell`, since the view asked for its
    /// rows for `timeline`.
    pub ms: f64,
    /// Number of rows painted from, for lists.
    pub rows: Option<u64>,
}

/// Logs `mark` (info level, target [`TARGET`]) with the Unix time in ms and
/// the time since launch.
pub fn record(mark: &UiMark) {
    let unix_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let since_launch_ms = LAUNCHED.get().map(|t| t.elapsed().as_millis());
    tracing::info!(
        target: TARGET,
        mark = %mark.name,
        ms = mark.ms,
        rows = mark.rows,
        unix_ms,
        since_launch_ms,
        "window painted"
    );
}
