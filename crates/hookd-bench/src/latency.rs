//! Figure 3: how long after a hook fires its event is committed, at a steady
//! 100 events per second (an agent session at full tilt, not a burst).
//!
//! Two series on the same daemon. The first spawns the real `hookd-emit`
//! every 10 ms and measures from just before the spawn to the arrival of
//! the event's commit notice: what a user waiting for the ledger sees. The
//! emitter's own start-up cannot be subtracted from that, so the second
//! series writes one line every 10 ms on a persistent in-process connection,
//! measuring socket to commit, the daemon's share alone.
//!
//! Both schedule by absolute deadlines (start + i × period), so a slow call
//! does not push every later one back and the rate stays what it claims.
//! Emitter processes are reaped without blocking the schedule.

use std::io::Write as _;
use std::os::unix::net::UnixStream;
use std::process::Child;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, ensure};
use serde::Serialize;

use crate::env::{self, CommitWatch, RunningDaemon, Tools, Workspace};
use crate::stats::Summary;

/// Time between two events: 100 events per second.
pub(crate) const PERIOD: Duration = Duration::from_millis(10);

/// Unmeasured events first, so opening the ledger and the git repository is not timed.
pub(crate) const WARMUP_EVENTS: usize = 5;

/// One latency series.
#[derive(Debug, Clone, Serialize)]
pub struct Series {
    /// Latencies, over events whose commit was seen.
    pub latency: Summary,
    /// Events whose commit notice never arrived.
    pub missing: usize,
    /// Latest any send started after its deadline, in ms (a large value means
    /// the machine could not keep the rate).
    pub max_schedule_slip_ms: f64,
}

/// Result of the latency measurement.
#[derive(Debug, Clone, Serialize)]
pub struct LatencyReport {
    /// Events per series.
    pub events: usize,
    /// Target rate, events per second.
    pub rate_per_sec: f64,
    /// Spawn of `hookd-emit` to commit notice.
    pub emit_to_commit: Series,
    /// Write on an open connection to commit notice.
    pub socket_to_commit: Series,
}

/// Runs both series with `events` events each.
pub fn run(tools: &Tools, events: usize) -> Result<LatencyReport> {
    ensure!(events > 0, "--rate-events must be at least 1");
    let ws = Workspace::new()?;
    let daemon = RunningDaemon::start(&ws, true)?;
    let session = env::session_id(3);
    let payload = |id: &str| -> Result<Vec<u8>> { Ok(env::emit_stdin(&ws.root, &session, id)?) };

    for i in 0..WARMUP_EVENTS {
        let mut cmd = ws.command(&tools.emit);
        cmd.arg(env::EVENT_TYPE);
        env::time_with_stdin(&mut cmd, &payload(&format!("toolu_warmup_{i}"))?)?;
    }
    wait_committed(&daemon.watch, WARMUP_EVENTS as u64);

    let secs = events as f64 * PERIOD.as_secs_f64();
    eprintln!("[latency] hookd-emit every {PERIOD:?}: {events} events ({secs:.0} s)");
    let ids: Vec<String> = (0..events)
        .map(|i| format!("toolu_lat_emit_{i:06}"))
        .collect();
    let payloads = ids
        .iter()
        .map(|id| payload(id))
        .collect::<Result<Vec<_>>>()?;
    let (sent, slip) = emit_on_schedule(&ws, tools, &payloads)?;
    wait_committed(&daemon.watch, (WARMUP_EVENTS + events) as u64);
    let emit_to_commit = series(&daemon.watch, &ids, &sent, slip)?;

    eprintln!(
        "[latency] in-process client, one line every {PERIOD:?}: {events} events ({secs:.0} s)"
    );
    let ids: Vec<String> = (0..events)
        .map(|i| format!("toolu_lat_sock_{i:06}"))
        .collect();
    let lines = ids
        .iter()
        .map(|id| env::write_line(&ws.root, &session, id, env::EMIT_TARGET_FILE))
        .collect::<Result<Vec<_>>>()?;
    let mut stream = UnixStream::connect(&ws.socket).context("cannot connect to the daemon")?;
    let mut sent = Vec::with_capacity(events);
    let mut slip = Duration::ZERO;
    let start = Instant::now() + PERIOD;
    for (i, line) in lines.iter().enumerate() {
        let deadline = start + PERIOD * i as u32;
        env::sleep_until(deadline);
        let written_at = Instant::now();
        slip = slip.max(written_at - deadline);
        stream.write_all(line)?;
        sent.push(written_at);
    }
    stream.shutdown(std::net::Shutdown::Write)?;
    wait_committed(&daemon.watch, (WARMUP_EVENTS + 2 * events) as u64);
    let socket_to_commit = series(&daemon.watch, &ids, &sent, slip)?;
    daemon.stop()?;

    Ok(LatencyReport {
        events,
        rate_per_sec: 1.0 / PERIOD.as_secs_f64(),
        emit_to_commit,
        socket_to_commit,
    })
}

/// Spawns the real `hookd-emit` in `ws` once per payload, one every
/// [`PERIOD`] by absolute deadline (start + i × period), writing the payload
/// to its stdin; returns the instant just before each spawn and the worst
/// slip behind a deadline. Finished emitters are reaped without blocking the
/// schedule, and all of them have exited when this returns.
pub(crate) fn emit_on_schedule(
    ws: &Workspace,
    tools: &Tools,
    payloads: &[Vec<u8>],
) -> Result<(Vec<Instant>, Duration)> {
    let mut sent = Vec::with_capacity(payloads.len());
    let mut running: Vec<Child> = Vec::new();
    let mut slip = Duration::ZERO;
    let start = Instant::now() + PERIOD;
    for (i, stdin) in payloads.iter().enumerate() {
        let deadline = start + PERIOD * i as u32;
        env::sleep_until(deadline);
        let mut cmd = ws.command(&tools.emit);
        cmd.arg(env::EVENT_TYPE).stdin(std::process::Stdio::piped());
        let spawned_at = Instant::now();
        slip = slip.max(spawned_at - deadline);
        let mut child = cmd.spawn().context("cannot start hookd-emit")?;
        if let Some(mut pipe) = child.stdin.take() {
            pipe.write_all(stdin)?;
        }
        sent.push(spawned_at);
        running.push(child);
        // Reap whoever has finished; never wait on the schedule's time.
        running.retain_mut(|c| !matches!(c.try_wait(), Ok(Some(_))));
    }
    for mut child in running {
        child.wait()?;
    }
    Ok((sent, slip))
}

/// Waits for `count` commits; a shortfall is reported by the series as missing events.
fn wait_committed(watch: &CommitWatch, count: u64) {
    if watch.wait_for(count, Duration::from_secs(30)).is_none() {
        eprintln!(
            "[latency] only {} of {count} events committed after 30 s (notices missed: {})",
            watch.committed(),
            watch.lagged_notices()
        );
    }
}

fn series(watch: &CommitWatch, ids: &[String], sent: &[Instant], slip: Duration) -> Result<Series> {
    let mut latencies = Vec::with_capacity(ids.len());
    let mut missing = 0;
    for (id, at) in ids.iter().zip(sent) {
        match watch.arrival(id) {
            Some(committed) => latencies.push(committed.saturating_duration_since(*at)),
            None => missing += 1,
        }
    }
    Ok(Series {
        latency: Summary::of(&latencies).context("no event of the series was committed")?,
        missing,
        max_schedule_slip_ms: crate::stats::ms(slip),
    })
}
