//! The daemon's memory around a burst (issue 16: "memory back within 10%
//! afterwards"), on `hookd daemon` alone, so that no window or WebKit
//! process blurs the figure.
//!
//! The release `hookd daemon` runs as its own process on a temp socket,
//! data dir and home. One event opens the repository's ledger; a few
//! seconds later its memory is read ("before"). Then, each round, a burst
//! of [`BURST_EVENTS`] `Write` events goes out over [`ingest::CLIENTS`]
//! connections at full speed while the process's RSS is sampled every
//! [`SAMPLE`]; the ledger is polled until it holds the whole burst, and the
//! memory is read again [`AFTER_BURST`] later ("after"). Later rounds show
//! whether what stays is a one-time warm-up or grows with every burst.
//! RSS and RssAnon come from `/proc/<pid>/status`, the peak also as the
//! kernel's high-water mark (`VmHWM`).

use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail, ensure};
use serde::Serialize;

use crate::env::{self, Tools, Workspace};
use crate::ingest;

/// Events in each burst, as in the desktop app's burst.
pub const BURST_EVENTS: u64 = 20_000;
/// How long after the burst committed memory is read again, as in the desktop app's burst.
const AFTER_BURST: Duration = Duration::from_secs(15);
/// How long the daemon sits after its first event before "before" is read.
const SETTLE: Duration = Duration::from_secs(3);
/// How often RSS is sampled during a burst.
const SAMPLE: Duration = Duration::from_millis(20);
/// How long a burst may take to commit.
const BURST_TIMEOUT: Duration = Duration::from_secs(120);

/// Memory of one process at one moment, MiB.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ProcessMemory {
    /// Resident set (`VmRSS`).
    pub rss_mib: f64,
    /// Its anonymous part (`RssAnon`): the heap, where a burst's events live.
    pub anon_mib: f64,
}

impl ProcessMemory {
    fn of(pid: u32) -> Result<Self> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .with_context(|| format!("cannot read the memory of process {pid}"))?;
        Ok(Self {
            rss_mib: status_mib(&status, "VmRSS:")?,
            anon_mib: status_mib(&status, "RssAnon:")?,
        })
    }
}

impl std::fmt::Display for ProcessMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.0} MiB (anon {:.0})", self.rss_mib, self.anon_mib)
    }
}

/// One burst.
#[derive(Debug, Clone, Serialize)]
pub struct Burst {
    /// Read just before the burst.
    pub before: ProcessMemory,
    /// The largest sample during the burst.
    pub peak: ProcessMemory,
    /// The kernel's high-water mark of the RSS after the burst, MiB.
    pub high_water_mib: f64,
    /// First byte sent to the whole burst in the ledger, seconds.
    pub commit_seconds: f64,
    /// [`AFTER_BURST`] after the burst committed.
    pub after: ProcessMemory,
}

/// Result of the daemon-memory measurement.
#[derive(Debug, Clone, Serialize)]
pub struct DaemonMemoryReport {
    /// Events per burst.
    pub events: u64,
    /// Seconds between the commit and the "after" reading.
    pub after_seconds: u64,
    /// After the first event, once settled.
    pub started: ProcessMemory,
    /// Each burst, in order.
    pub bursts: Vec<Burst>,
}

impl DaemonMemoryReport {
    /// RSS after the last burst over RSS before the first, in per cent.
    pub fn growth_percent(&self) -> f64 {
        self.bursts.last().map_or(0.0, |last| {
            (last.after.rss_mib / self.started.rss_mib - 1.0) * 100.0
        })
    }
}

/// Starts `hookd daemon`, sends `rounds` bursts and reads its memory around each.
pub fn run(tools: &Tools, rounds: usize) -> Result<DaemonMemoryReport> {
    ensure!(rounds > 0, "--daemon-memory-rounds must be at least 1");
    let ws = Workspace::new()?;
    let mut daemon = Daemon::start(tools, &ws)?;
    let pid = daemon.child.id();
    let ledger = ws.ledger_path();

    let warm = env::write_line(&ws.root, &env::session_id(0), "toolu_warm", "src/warm.rs")?;
    ingest::send_all(&ws.socket, vec![vec![warm]])?;
    wait_for_rows(&ledger, 1, BURST_TIMEOUT)?;
    std::thread::sleep(SETTLE);
    let started = ProcessMemory::of(pid)?;
    eprintln!("[daemon-memory] hookd daemon (pid {pid}) after its first event: {started}");

    let mut bursts = Vec::with_capacity(rounds);
    for round in 0..rounds {
        let shares = burst_lines(&ws, round)?;
        let before = ProcessMemory::of(pid)?;
        let expect = 1 + (round as u64 + 1) * BURST_EVENTS;
        let socket = ws.socket.clone();
        let sender = std::thread::spawn(move || ingest::send_all(&socket, shares));
        let (peak, committed) = sample_until(pid, &ledger, expect)?;
        let (first_byte, _) = sender
            .join()
            .map_err(|_| anyhow::anyhow!("the sending thread panicked"))??;
        let high_water_mib = status_mib(
            &std::fs::read_to_string(format!("/proc/{pid}/status"))?,
            "VmHWM:",
        )?;
        std::thread::sleep(AFTER_BURST);
        let after = ProcessMemory::of(pid)?;
        let burst = Burst {
            before,
            peak,
            high_water_mib,
            commit_seconds: committed.duration_since(first_byte).as_secs_f64(),
            after,
        };
        eprintln!(
            "[daemon-memory] burst {}: {} → peak {} (high-water {:.0} MiB), committed in {:.2} s → {} {} s later",
            round + 1,
            burst.before,
            burst.peak,
            burst.high_water_mib,
            burst.commit_seconds,
            burst.after,
            AFTER_BURST.as_secs()
        );
        bursts.push(burst);
    }
    daemon.stop()?;
    Ok(DaemonMemoryReport {
        events: BURST_EVENTS,
        after_seconds: AFTER_BURST.as_secs(),
        started,
        bursts,
    })
}

/// [`ingest::build_lines`]' shape with ids and files of their own per round.
fn burst_lines(ws: &Workspace, round: usize) -> Result<Vec<Vec<Vec<u8>>>> {
    let mut shares: Vec<Vec<Vec<u8>>> = vec![Vec::new(); ingest::CLIENTS];
    for i in 0..BURST_EVENTS {
        let client = (i % ingest::CLIENTS as u64) as usize;
        let line = env::write_line(
            &ws.root,
            &env::session_id(client as u64),
            &format!("toolu_mem_{round}_{i:05}"),
            &format!("src/mem/m{:03}/file_{round}_{i:05}.rs", i % 100),
        )?;
        shares[client].push(line);
    }
    Ok(shares)
}

/// Samples the RSS of `pid` every [`SAMPLE`] until the ledger holds `rows`
/// mutations; returns the largest sample and when the rows were there.
fn sample_until(pid: u32, ledger: &Path, rows: u64) -> Result<(ProcessMemory, Instant)> {
    let deadline = Instant::now() + BURST_TIMEOUT;
    let mut peak = ProcessMemory::of(pid)?;
    let mut last_poll = Instant::now();
    loop {
        let now = ProcessMemory::of(pid)?;
        if now.rss_mib > peak.rss_mib {
            peak = now;
        }
        // The ledger every 100 ms: a count is not free, the sample is.
        if last_poll.elapsed() >= Duration::from_millis(100) {
            last_poll = Instant::now();
            if ledger_rows(ledger)? >= rows {
                return Ok((peak, Instant::now()));
            }
        }
        if Instant::now() > deadline {
            bail!("the ledger did not reach {rows} rows within {BURST_TIMEOUT:?}");
        }
        std::thread::sleep(SAMPLE);
    }
}

fn wait_for_rows(ledger: &Path, rows: u64, timeout: Duration) -> Result<()> {
    let deadline = Instant::now() + timeout;
    while ledger_rows(ledger)? < rows {
        ensure!(
            Instant::now() < deadline,
            "the ledger did not reach {rows} rows within {timeout:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(())
}

/// Mutations in the ledger at `path` (0 before it exists).
fn ledger_rows(path: &Path) -> Result<u64> {
    if !path.exists() {
        return Ok(0);
    }
    let conn =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    // The schema may not be there yet in the first moment.
    let n: i64 = conn
        .query_row("SELECT count(*) FROM mutations", [], |r| r.get(0))
        .unwrap_or(0);
    Ok(u64::try_from(n).unwrap_or(0))
}

fn status_mib(status: &str, key: &str) -> Result<f64> {
    let kib: f64 = status
        .lines()
        .find_map(|line| line.strip_prefix(key))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .with_context(|| format!("no {key} in /proc/<pid>/status"))?;
    Ok(kib / 1024.0)
}

/// The `hookd daemon` process, killed if the run fails half-way.
struct Daemon {
    child: Child,
}

impl Daemon {
    fn start(tools: &Tools, ws: &Workspace) -> Result<Self> {
        let home = ws.data_dir.join("home");
        std::fs::create_dir_all(&home)?;
        let mut cmd: Command = ws.command(&tools.hookd);
        cmd.arg("daemon")
            .arg("--socket")
            .arg(&ws.socket)
            .arg("--data-dir")
            .arg(&ws.data_dir)
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("HOOKD_HOME", home.join(".hookd"))
            .env_remove("HOOKD_AMQP_URL")
            .env_remove("HOOKD_LEDGER_MODE")
            .env_remove("HOOKD_CONFIG");
        let child = cmd.spawn().context("cannot start `hookd daemon`")?;
        let daemon = Self { child };
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::os::unix::net::UnixStream::connect(&ws.socket).is_err() {
            ensure!(
                Instant::now() < deadline,
                "`hookd daemon` did not listen on {} within 10 s",
                ws.socket.display()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(daemon)
    }

    /// SIGTERM, then waits for the drain.
    fn stop(&mut self) -> Result<()> {
        let sent = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status()
            .context("cannot run `kill`")?;
        ensure!(sent.success(), "cannot stop `hookd daemon`");
        let status = self.child.wait()?;
        ensure!(status.success(), "`hookd daemon` exited with {status}");
        Ok(())
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mib_from_a_status_file() {
        let status =
            "Name:\thookd\nVmHWM:\t   95232 kB\nVmRSS:\t   25008 kB\nRssAnon:\t   13688 kB\n";
        assert_eq!(status_mib(status, "VmRSS:").unwrap(), 25008.0 / 1024.0);
        assert_eq!(status_mib(status, "VmHWM:").unwrap(), 93.0);
        assert!(status_mib(status, "VmSwap:").is_err());
    }
}
