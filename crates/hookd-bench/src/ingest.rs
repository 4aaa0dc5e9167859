//! Figure 2: how many events per second the daemon takes from the socket all
//! the way into the ledger, under a burst from several agents at once.
//!
//! Eight clients each hold one connection and write their share of
//! pre-built envelope lines as fast as the socket takes them, so the figure
//! is the daemon's (framing, parsing, git enrichment, SQLite commits), not
//! the clients'. The clock runs from the first byte sent to the commit
//! notice that brings the committed count to the total; the ledger is then
//! counted to prove nothing was lost or doubled.

use std::io::{BufWriter, Write as _};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail, ensure};
use hookd_core::daemon::stats::StatsSnapshot;
use hookd_core::ledger::Ledger;
use serde::Serialize;

use crate::env::{self, RunningDaemon, Workspace};

/// Concurrent clients, each with one connection.
pub const CLIENTS: usize = 8;

/// Distinct directories the written files are spread over.
const DIRS: usize = 100;

/// Result of the ingest measurement.
#[derive(Debug, Clone, Serialize)]
pub struct IngestReport {
    /// Events sent.
    pub events: u64,
    /// Client connections.
    pub clients: usize,
    /// Mean envelope line size, in bytes.
    pub line_bytes: usize,
    /// First byte sent to the commit notice of the last event, in seconds.
    pub seconds: f64,
    /// `events / seconds`.
    pub events_per_sec: f64,
    /// First byte sent to the last client's last byte, in seconds (context: how
    /// far the socket buffers and the daemon's queue run ahead of the commits).
    pub send_seconds: f64,
    /// Rows in the ledger's `events` table afterwards.
    pub ledger_events: i64,
    /// Rows in the ledger's `mutations` table afterwards.
    pub ledger_mutations: i64,
    /// The daemon's counters after it stopped.
    pub daemon: StatsSnapshot,
}

impl IngestReport {
    /// True when the ledger holds exactly one event and one mutation per line sent.
    pub fn exact(&self) -> bool {
        self.ledger_events == self.events as i64 && self.ledger_mutations == self.events as i64
    }
}

/// Sends `events` Write events over [`CLIENTS`] connections and times their ingestion.
pub fn run(events: u64) -> Result<IngestReport> {
    ensure!(events > 0, "--ingest-events must be at least 1");
    let ws = Workspace::new()?;
    eprintln!("[ingest] building {events} envelope lines");
    let shares = build_lines(&ws, events)?;
    let total_bytes: usize = shares.iter().flatten().map(Vec::len).sum();
    let daemon = RunningDaemon::start(&ws, false)?;

    eprintln!(
        "[ingest] {CLIENTS} clients sending {events} events ({} MB)",
        total_bytes / 1_000_000
    );
    let (first_byte, last_byte) = send_all(&ws.socket, shares)?;
    // Generous: a machine at 1,000 events/s still finishes.
    let timeout = Duration::from_secs(60 + events / 1_000);
    let Some(done) = daemon.watch.wait_for(events, timeout) else {
        bail!(
            "only {} of {events} events committed within {timeout:?} (notices missed: {}; daemon: {:?})",
            daemon.watch.committed(),
            daemon.watch.lagged_notices(),
            daemon.stats()
        );
    };
    let seconds = done.duration_since(first_byte).as_secs_f64();
    eprintln!(
        "[ingest] all {events} committed in {seconds:.2} s; stopping the daemon and counting the ledger"
    );
    let stats = daemon.stop()?;
    let (ledger_events, ledger_mutations) = Ledger::open_existing(&ws.ledger_path())?.counts()?;
    Ok(IngestReport {
        events,
        clients: CLIENTS,
        line_bytes: total_bytes / events as usize,
        seconds,
        events_per_sec: events as f64 / seconds,
        send_seconds: last_byte.duration_since(first_byte).as_secs_f64(),
        ledger_events,
        ledger_mutations,
        daemon: stats,
    })
}

/// Connects one client per share, then lets them all write at once; returns
/// the instants of the first byte any client sent and of the last.
pub(crate) fn send_all(socket: &Path, shares: Vec<Vec<Vec<u8>>>) -> Result<(Instant, Instant)> {
    let barrier = Arc::new(Barrier::new(shares.len() + 1));
    let clients: Vec<_> = shares
        .into_iter()
        .map(|lines| {
            // Connect before the start line so connection setup is not timed.
            let stream = UnixStream::connect(socket).context("cannot connect to the daemon")?;
            let barrier = Arc::clone(&barrier);
            Ok(std::thread::spawn(move || send(&stream, &lines, &barrier)))
        })
        .collect::<Result<_>>()?;
    barrier.wait();

    let mut first_byte: Option<Instant> = None;
    let mut last_byte: Option<Instant> = None;
    for client in clients {
        let (first, last) = client
            .join()
            .map_err(|_| anyhow::anyhow!("a client thread panicked"))??;
        first_byte = Some(first_byte.map_or(first, |f| f.min(first)));
        last_byte = Some(last_byte.map_or(last, |l| l.max(last)));
    }
    match (first_byte, last_byte) {
        (Some(first), Some(last)) => Ok((first, last)),
        _ => bail!("no client ran"),
    }
}

/// One client: waits for the start, writes every line, closes its write half.
/// Returns the instants of its first and last byte.
fn send(stream: &UnixStream, lines: &[Vec<u8>], start: &Barrier) -> Result<(Instant, Instant)> {
    let mut out = BufWriter::with_capacity(64 * 1024, stream);
    start.wait();
    let first = Instant::now();
    for line in lines {
        out.write_all(line)?;
    }
    out.flush()?;
    let last = Instant::now();
    drop(out);
    stream.shutdown(std::net::Shutdown::Write)?;
    Ok((first, last))
}

/// Every event's envelope line, dealt round-robin into one share per client.
///
/// Built with [`hookd_proto::Envelope`] (`env::write_line`) itself so the lines have exactly the wire shape
/// emitters send; each has its own `tool_use_id` and its own file.
pub(crate) fn build_lines(ws: &Workspace, events: u64) -> Result<Vec<Vec<Vec<u8>>>> {
    let sessions: Vec<String> = (0..CLIENTS as u64).map(env::session_id).collect();
    let mut shares: Vec<Vec<Vec<u8>>> = (0..CLIENTS)
        .map(|_| Vec::with_capacity(events as usize / CLIENTS + 1))
        .collect();
    for i in 0..events {
        let client = (i % CLIENTS as u64) as usize;
        let rel_path = format!("src/gen/m{:03}/file_{i:07}.rs", i % DIRS as u64);
        let line = env::write_line(
            &ws.root,
            &sessions[client],
            &format!("toolu_ingest_{i:07}"),
            &rel_path,
        )?;
        shares[client].push(line);
    }
    Ok(shares)
}
