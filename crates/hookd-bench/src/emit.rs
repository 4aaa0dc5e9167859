//! Figure 1: what one hook call costs the agent, `hookd-emit` beside the
//! bash + jq + socat script users had before.
//!
//! The agent waits for its hook process to exit, so the figure is the wall
//! time from spawn to exit of a real process with a realistic payload on
//! stdin, against a real daemon. The two emitters alternate call by call, so
//! whatever else the machine is doing hits both equally; a few unmeasured
//! calls first bring both into the page cache. Every event must reach the
//! ledger, or the speed would mean nothing.

use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, ensure};
use hookd_core::ledger::Ledger;
use serde::Serialize;

use crate::env::{self, RunningDaemon, Tools, Workspace};
use crate::stats::Summary;

/// Environment variable naming another `hookd-emit` binary (an older
/// build) to interleave as a third series, so a change to the emitter is
/// judged against the previous one in the same run.
pub const BASELINE_ENV: &str = "HOOKD_BENCH_EMIT_BASELINE";

/// Unmeasured calls of each emitter before the measured ones.
const WARMUP_CALLS: usize = 5;

/// Result of the emit measurement.
#[derive(Debug, Clone, Serialize)]
pub struct EmitReport {
    /// Measured calls of each emitter.
    pub runs: usize,
    /// Size of the payload on stdin, in bytes.
    pub payload_bytes: usize,
    /// Wall time of `hookd-emit`, spawn to exit.
    pub hookd_emit: Summary,
    /// Wall time of the bash emitter, spawn to exit.
    pub bash: Summary,
    /// bash median / hookd-emit median.
    pub speedup: f64,
    /// Wall time of the [`BASELINE_ENV`] emitter, when one was given.
    pub baseline: Option<Summary>,
    /// Events the daemon had to receive (measured and warm-up calls of both).
    pub events_expected: u64,
    /// Events whose commit notice arrived, matched by `tool_use_id`.
    pub events_committed: u64,
    /// Rows in the ledger's `events` table afterwards.
    pub ledger_events: i64,
}

impl EmitReport {
    /// True when every call's event reached the ledger.
    pub fn all_delivered(&self) -> bool {
        self.events_committed == self.events_expected
            && self.ledger_events == self.events_expected as i64
    }
}

/// Runs `runs` calls of each emitter, interleaved.
pub fn run(tools: &Tools, runs: usize) -> Result<EmitReport> {
    ensure!(runs > 0, "--emit-runs must be at least 1");
    let ws = Workspace::new()?;
    let daemon = RunningDaemon::start(&ws, true)?;
    let session = env::session_id(1);
    let payload = |id: &str| -> Result<Vec<u8>> { Ok(env::emit_stdin(&ws.root, &session, id)?) };
    let payload_bytes = payload("toolu_emit_000000")?.len();

    let mut emit_times = Vec::with_capacity(runs);
    let mut bash_times = Vec::with_capacity(runs);
    let baseline_emit = std::env::var_os(BASELINE_ENV).filter(|p| !p.is_empty());
    let mut baseline_times = Vec::with_capacity(runs);
    let mut ids = Vec::with_capacity(2 * (runs + WARMUP_CALLS));
    let mut last_progress = Instant::now();
    eprintln!(
        "[emit] {WARMUP_CALLS} warm-up + {runs} measured calls of each emitter, alternating ({payload_bytes} B payload)"
    );
    for i in 0..WARMUP_CALLS + runs {
        let emit_id = format!("toolu_emit_{i:06}");
        let mut cmd = ws.command(&tools.emit);
        cmd.arg(env::EVENT_TYPE);
        let emit_time = env::time_with_stdin(&mut cmd, &payload(&emit_id)?)?;

        let bash_id = format!("toolu_bash_{i:06}");
        let mut cmd = ws.command("bash");
        cmd.arg(&tools.bash_emitter).arg(env::EVENT_TYPE);
        let bash_time = env::time_with_stdin(&mut cmd, &payload(&bash_id)?)?;

        if let Some(baseline) = &baseline_emit {
            let base_id = format!("toolu_base_{i:06}");
            let mut cmd = ws.command(baseline);
            cmd.arg(env::EVENT_TYPE);
            let base_time = env::time_with_stdin(&mut cmd, &payload(&base_id)?)?;
            ids.push(base_id);
            if i >= WARMUP_CALLS {
                baseline_times.push(base_time);
            }
        }
        ids.push(emit_id);
        ids.push(bash_id);
        if i >= WARMUP_CALLS {
            emit_times.push(emit_time);
            bash_times.push(bash_time);
        }
        if last_progress.elapsed() > Duration::from_secs(5) {
            eprintln!("[emit] {}/{} pairs", i + 1, WARMUP_CALLS + runs);
            last_progress = Instant::now();
        }
    }

    let expected = ids.len() as u64;
    if daemon
        .watch
        .wait_for(expected, Duration::from_secs(30))
        .is_none()
    {
        eprintln!(
            "[emit] only {} of {expected} events committed after 30 s (lagged notices: {})",
            daemon.watch.committed(),
            daemon.watch.lagged_notices()
        );
    }
    let committed = ids
        .iter()
        .filter(|id| daemon.watch.arrival(id).is_some())
        .count() as u64;
    daemon.stop()?;
    let (ledger_events, _) = Ledger::open_existing(&ws.ledger_path())?.counts()?;

    let hookd_emit = Summary::of(&emit_times).context("no hookd-emit samples")?;
    let bash = Summary::of(&bash_times).context("no bash emitter samples")?;
    Ok(EmitReport {
        runs,
        payload_bytes,
        speedup: bash.median_ms / hookd_emit.median_ms,
        baseline: Summary::of(&baseline_times),
        hookd_emit,
        bash,
        events_expected: expected,
        events_committed: committed,
        ledger_events,
    })
}
