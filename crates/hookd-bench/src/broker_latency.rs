//! Figure 8: how long after a hook fires its event is in the ledger when the
//! ledger is written through RabbitMQ, at a steady 100 events per second,
//! beside the local (no broker) emit-to-commit latency of [`crate::latency`].
//!
//! The daemon runs in `amqp` ledger mode, so it only commits each event to
//! its durable outbox and publishes it, with confirms, to the run's own
//! exchange; a ledger consumer (`hookd_core::amqp::consumer::run`, as `hookd
//! ledger consume` runs it, with its default prefetch and batch wait, on a
//! runtime of its own) reads its own queue bound to that exchange and writes
//! the temp repository's ledger. The real `hookd-emit` is spawned every
//! 10 ms by absolute deadline, each with its own `tool_use_id`, as in
//! [`crate::latency`].
//!
//! The consumer gives no notice of its commits, so the ledger itself is
//! watched: a dedicated thread reads it read-only every millisecond
//! (`SELECT … FROM events WHERE id > last`) and stamps each new
//! `tool_use_id` with the instant the query returned. A row is visible only
//! once committed, so that instant is never before the commit and at most a
//! poll interval (plus the query) after it. Latency = that instant − the
//! instant just before the emitter's spawn. The daemon's commit notices,
//! which in this mode announce outbox commits, split off the daemon's share
//! as context. Every event must end up in the ledger exactly once.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, anyhow, ensure};
use hookd_core::amqp::consumer::{self, ConsumerConfig, ConsumerReport};
use hookd_core::daemon::server::AmqpTarget;
use hookd_core::daemon::stats::StatsSnapshot;
use rusqlite::{Connection, OpenFlags};
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::broker::Broker;
use crate::env::{self, RunningDaemon, Tools, Workspace};
use crate::latency::{PERIOD, WARMUP_EVENTS};
use crate::stats::Summary;

/// How often the ledger is read for new rows.
const LEDGER_POLL: Duration = Duration::from_millis(1);

/// How long events may take to reach the ledger after the last emit.
const SETTLE_TIMEOUT: Duration = Duration::from_secs(30);

/// `tool_use_id` prefix of the measured events.
const MEASURED_PREFIX: &str = "toolu_brk_";

/// What the ledger consumer did, as `hookd ledger consume` prints it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ConsumerCounts {
    /// Events newly written to a ledger.
    pub stored: u64,
    /// Events that were already in their ledger.
    pub duplicates: u64,
    /// Messages rejected to the parking queue.
    pub dead_lettered: u64,
}

impl From<ConsumerReport> for ConsumerCounts {
    fn from(report: ConsumerReport) -> Self {
        Self {
            stored: report.stored,
            duplicates: report.duplicates,
            dead_lettered: report.dead_lettered,
        }
    }
}

/// Result of the broker latency measurement.
#[derive(Debug, Clone, Serialize)]
pub struct BrokerLatencyReport {
    /// Measured events.
    pub events: usize,
    /// Target rate, events per second.
    pub rate_per_sec: f64,
    /// The consumer's prefetch (also its largest batch).
    pub prefetch: u16,
    /// How long the consumer waits for more deliveries after a batch's first, in ms.
    pub batch_wait_ms: f64,
    /// Spawn of `hookd-emit` to the event's row being visible in the ledger.
    pub emit_to_ledger: Summary,
    /// Spawn of `hookd-emit` to the daemon's commit of the event to its outbox (context).
    pub emit_to_outbox: Option<Summary>,
    /// Measured events whose row never showed up in the ledger.
    pub missing: usize,
    /// Measured events with exactly one row in the ledger's `events` table at the end.
    pub exactly_once: usize,
    /// Measured events with more than one row.
    pub duplicated: usize,
    /// Latest any spawn started after its deadline, in ms.
    pub max_schedule_slip_ms: f64,
    /// Failed reads of the ledger by the watcher (retried; context).
    pub ledger_poll_errors: u64,
    /// What the consumer did (warm-up events included).
    pub consumer: ConsumerCounts,
    /// The daemon's counters after it stopped.
    pub daemon: StatsSnapshot,
}

impl BrokerLatencyReport {
    /// True when every measured event is in the ledger exactly once and the
    /// consumer parked nothing.
    pub fn all_once(&self) -> bool {
        self.missing == 0
            && self.duplicated == 0
            && self.exactly_once == self.events
            && self.consumer.dead_lettered == 0
    }
}

/// Runs `events` emits at 100 events/s through the broker at `url`.
pub fn run(tools: &Tools, url: &str, events: usize) -> Result<BrokerLatencyReport> {
    ensure!(events > 0, "--broker-rate-events must be at least 1");
    let mut broker = Broker::connect(url)?;
    eprintln!("[broker-latency] exchange {}", broker.exchange());
    let measured = measure(tools, &mut broker, events);
    let cleaned = broker.cleanup();
    let report = measured?;
    cleaned.context("cannot delete the bench's exchange and queues")?;
    Ok(report)
}

fn measure(tools: &Tools, broker: &mut Broker, events: usize) -> Result<BrokerLatencyReport> {
    let ws = Workspace::new()?;
    // Declared before anything publishes, so no event is dropped as unroutable.
    let queue = broker.declare_ledger_queue("ledger")?;
    let mut config = ConsumerConfig::new(broker.url(), ws.data_dir.clone());
    config.exchange = broker.exchange().to_owned();
    config.queue = queue;
    let (prefetch, batch_wait) = (config.prefetch, config.batch_wait);
    let consumer = RunningConsumer::start(config)?;
    let daemon = RunningDaemon::start_amqp(
        &ws,
        true,
        AmqpTarget {
            url: broker.url().to_owned(),
            exchange: broker.exchange().to_owned(),
        },
    )?;
    let watch = LedgerWatch::start(ws.ledger_path())?;
    let session = env::session_id(8);
    let payload = |id: &str| -> Result<Vec<u8>> { Ok(env::emit_stdin(&ws.root, &session, id)?) };

    // Warm-ups open the connections, the ledger (which the consumer creates)
    // and the repository, and prove the whole path works before timing it.
    let warmups: Vec<String> = (0..WARMUP_EVENTS)
        .map(|i| format!("toolu_brkwarm_{i}"))
        .collect();
    for id in &warmups {
        let mut cmd = ws.command(&tools.emit);
        cmd.arg(env::EVENT_TYPE);
        env::time_with_stdin(&mut cmd, &payload(id)?)?;
    }
    ensure!(
        watch.wait_for(&warmups, SETTLE_TIMEOUT),
        "the warm-up events did not reach the ledger through the broker within {SETTLE_TIMEOUT:?} \
         (daemon: {:?}; ledger watcher: {})",
        daemon.stats(),
        watch.describe()
    );

    let secs = events as f64 * PERIOD.as_secs_f64();
    eprintln!(
        "[broker-latency] hookd-emit every {PERIOD:?} through the broker: {events} events ({secs:.0} s)"
    );
    let ids: Vec<String> = (0..events)
        .map(|i| format!("{MEASURED_PREFIX}{i:06}"))
        .collect();
    let payloads = ids
        .iter()
        .map(|id| payload(id))
        .collect::<Result<Vec<_>>>()?;
    let (sent, slip) = crate::latency::emit_on_schedule(&ws, tools, &payloads)?;
    if !watch.wait_for(&ids, SETTLE_TIMEOUT) {
        eprintln!(
            "[broker-latency] not every event reached the ledger {SETTLE_TIMEOUT:?} after the last emit"
        );
    }

    let mut latencies = Vec::with_capacity(events);
    let mut to_outbox = Vec::with_capacity(events);
    let mut missing = 0;
    for (id, at) in ids.iter().zip(&sent) {
        match watch.arrival(id) {
            Some(seen) => latencies.push(seen.saturating_duration_since(*at)),
            None => missing += 1,
        }
        if let Some(committed) = daemon.watch.arrival(id) {
            to_outbox.push(committed.saturating_duration_since(*at));
        }
    }
    let stats = daemon.stop()?;
    let consumer = consumer.stop()?;
    let ledger_poll_errors = watch.stop()?;
    let rows = rows_per_id(&ws.ledger_path())?;
    let exactly_once = ids.iter().filter(|id| rows.get(*id) == Some(&1)).count();
    let duplicated = ids
        .iter()
        .filter(|id| rows.get(*id).is_some_and(|n| *n > 1))
        .count();

    Ok(BrokerLatencyReport {
        events,
        rate_per_sec: 1.0 / PERIOD.as_secs_f64(),
        prefetch,
        batch_wait_ms: crate::stats::ms(batch_wait),
        emit_to_ledger: Summary::of(&latencies).context("no measured event reached the ledger")?,
        emit_to_outbox: Summary::of(&to_outbox),
        missing,
        exactly_once,
        duplicated,
        max_schedule_slip_ms: crate::stats::ms(slip),
        ledger_poll_errors,
        consumer,
        daemon: stats,
    })
}

/// Rows in the ledger's `events` table per measured `tool_use_id`.
fn rows_per_id(ledger: &Path) -> Result<HashMap<String, i64>> {
    let conn = Connection::open_with_flags(ledger, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .with_context(|| format!("cannot open the ledger {}", ledger.display()))?;
    let mut select = conn.prepare(
        "SELECT tool_use_id, COUNT(*) FROM events WHERE tool_use_id LIKE ?1 GROUP BY tool_use_id",
    )?;
    let rows = select.query_map([format!("{MEASURED_PREFIX}%")], |row| {
        Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A ledger consumer on a two-worker runtime of its own, as `hookd ledger
/// consume` runs it.
struct RunningConsumer {
    runtime: tokio::runtime::Runtime,
    shutdown: CancellationToken,
    task: tokio::task::JoinHandle<Result<ConsumerReport, hookd_core::amqp::AmqpError>>,
}

impl RunningConsumer {
    fn start(config: ConsumerConfig) -> Result<Self> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("hookd-bench-consumer")
            .enable_all()
            .build()
            .context("cannot start the consumer's runtime")?;
        let shutdown = CancellationToken::new();
        let task = runtime.spawn(consumer::run(config, shutdown.clone()));
        Ok(Self {
            runtime,
            shutdown,
            task,
        })
    }

    /// Stops it the way a signal would (finishing and acking its batch) and
    /// returns what it did.
    fn stop(self) -> Result<ConsumerCounts> {
        self.shutdown.cancel();
        let report = self
            .runtime
            .block_on(self.task)
            .context("the consumer task panicked")?
            .context("the consumer failed")?;
        self.runtime.shutdown_timeout(Duration::from_secs(5));
        Ok(report.into())
    }
}

/// Watches a ledger for new `events` rows from a dedicated thread, stamping
/// each `tool_use_id` with the instant its row was first seen.
struct LedgerWatch {
    stop: Arc<AtomicBool>,
    shared: Arc<Seen>,
    /// Taken by [`LedgerWatch::stop`].
    thread: Option<JoinHandle<()>>,
}

/// What the watcher thread shares.
#[derive(Default)]
struct Seen {
    /// First sighting of each `tool_use_id`.
    arrivals: Mutex<HashMap<String, Instant>>,
    /// Reads that failed (the ledger not created yet does not count).
    errors: AtomicU64,
    /// The last such failure.
    last_error: Mutex<Option<String>>,
}

impl Seen {
    fn arrivals(&self) -> MutexGuard<'_, HashMap<String, Instant>> {
        self.arrivals.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl LedgerWatch {
    fn start(ledger: PathBuf) -> Result<Self> {
        let stop = Arc::new(AtomicBool::new(false));
        let shared = Arc::new(Seen::default());
        let thread = std::thread::Builder::new()
            .name("hookd-bench-ledger-watch".into())
            .spawn({
                let (stop, shared) = (Arc::clone(&stop), Arc::clone(&shared));
                move || watch(&ledger, &stop, &shared)
            })
            .context("cannot start the ledger watcher")?;
        Ok(Self {
            stop,
            shared,
            thread: Some(thread),
        })
    }

    /// When the row of `tool_use_id` was first seen, if it was.
    fn arrival(&self, tool_use_id: &str) -> Option<Instant> {
        self.shared.arrivals().get(tool_use_id).copied()
    }

    /// Waits until every id in `ids` has been seen; false on timeout.
    fn wait_for(&self, ids: &[String], timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            if ids.iter().all(|id| self.shared.arrivals().contains_key(id)) {
                return true;
            }
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Rows seen and read errors so far, for an error message.
    fn describe(&self) -> String {
        let last = self
            .shared
            .last_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        format!(
            "{} rows seen, {} read errors{}",
            self.shared.arrivals().len(),
            self.shared.errors.load(Ordering::Relaxed),
            last.map(|e| format!(", last: {e}")).unwrap_or_default()
        )
    }

    /// Stops the thread; returns how many reads failed.
    fn stop(mut self) -> Result<u64> {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread
                .join()
                .map_err(|_| anyhow!("the ledger watcher panicked"))?;
        }
        Ok(self.shared.errors.load(Ordering::Relaxed))
    }
}

impl Drop for LedgerWatch {
    /// A measurement that failed half-way must not leave the thread polling
    /// through the rest of the run.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The watcher thread: reads new rows every [`LEDGER_POLL`] until stopped.
///
/// The ledger does not exist until the consumer's first write, and a failed
/// read (a lock held through a checkpoint, say) is retried on a fresh
/// connection, so the thread never gives up while the bench waits on it.
fn watch(ledger: &Path, stop: &AtomicBool, seen: &Seen) {
    let mut conn: Option<Connection> = None;
    let mut last_id = 0i64;
    while !stop.load(Ordering::Relaxed) {
        if conn.is_none() && ledger.exists() {
            match Connection::open_with_flags(ledger, OpenFlags::SQLITE_OPEN_READ_ONLY) {
                Ok(opened) => conn = Some(opened),
                Err(err) => note_error(seen, &err),
            }
        }
        if let Some(c) = &conn {
            match new_rows(c, last_id) {
                Ok(rows) => {
                    // Taken after the read: the rows were committed before it.
                    let at = Instant::now();
                    let mut arrivals = seen.arrivals();
                    for (id, tool_use_id) in rows {
                        last_id = last_id.max(id);
                        if let Some(tool_use_id) = tool_use_id {
                            arrivals.entry(tool_use_id).or_insert(at);
                        }
                    }
                }
                // The consumer creates the file before its tables.
                Err(err) if err.to_string().contains("no such table") => {}
                Err(err) => {
                    note_error(seen, &err);
                    conn = None;
                }
            }
        }
        std::thread::sleep(LEDGER_POLL);
    }
}

fn new_rows(conn: &Connection, after: i64) -> rusqlite::Result<Vec<(i64, Option<String>)>> {
    let mut select =
        conn.prepare_cached("SELECT id, tool_use_id FROM events WHERE id > ?1 ORDER BY id")?;
    let rows = select.query_map([after], |row| Ok((row.get(0)?, row.get(1)?)))?;
    rows.collect()
}

fn note_error(seen: &Seen, err: &rusqlite::Error) {
    seen.errors.fetch_add(1, Ordering::Relaxed);
    *seen
        .last_error
        .lock()
        .unwrap_or_else(PoisonError::into_inner) = Some(err.to_string());
}
