//! Figure 7: how many events per second leave for RabbitMQ with publisher
//! confirms, the rate at which a backlog drains after a broker outage and
//! the ceiling of the broker-backed ledger modes.
//!
//! First the publisher alone: a fresh outbox is filled (in transactions of
//! [`FILL_BATCH`]) with messages built by `OutboxMessage::from_entry` from
//! realistic ~1 KB Write events, exactly as the daemon's ingest thread
//! builds them, then `Publisher::spawn` drains it to the run's own exchange,
//! where a durable queue bound to `#` routes and persists every message. The
//! clock runs from the spawn (connecting included, and shown apart) until
//! the publisher's status counts the last confirm, polled every
//! millisecond. The queue must then hold exactly the events sent and the
//! outbox nothing: a confirm that lost or doubled a message would not count.
//!
//! Then the same number of events through the whole daemon in `amqp` ledger
//! mode, as context: eight connections write envelope lines as in
//! [`crate::ingest`], and the clock runs from the first byte until a second
//! queue holds them all (its depth read by passive declare every 10 ms, as
//! the daemon owns its publisher). That adds framing, parsing, git
//! enrichment and the outbox commits to the publishing.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail, ensure};
use hookd_core::amqp::outbox::{self, Outbox, OutboxMessage};
use hookd_core::amqp::publisher::{
    ConnectionState, DEFAULT_BATCH, Publisher, PublisherConfig, PublisherStatus,
};
use hookd_core::daemon::enrich::Enricher;
use hookd_core::daemon::extract;
use hookd_core::daemon::server::AmqpTarget;
use hookd_core::daemon::stats::StatsSnapshot;
use hookd_core::record::LedgerEntry;
use hookd_core::{Envelope, timefmt};
use serde::Serialize;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::broker::Broker;
use crate::env::{self, RunningDaemon, Workspace};
use crate::ingest::{self, CLIENTS};

/// Messages per outbox transaction while filling it.
pub const FILL_BATCH: usize = 1_000;

/// How often the publisher's status is looked at.
const STATUS_POLL: Duration = Duration::from_millis(1);

/// How often the daemon run's queue depth is read.
const DEPTH_POLL: Duration = Duration::from_millis(10);

/// The publisher alone, draining a full outbox.
#[derive(Debug, Clone, Serialize)]
pub struct DirectRun {
    /// `Publisher::spawn` to the status counting the last confirm, in seconds.
    pub seconds: f64,
    /// `events / seconds`.
    pub events_per_sec: f64,
    /// Spawn to the status first showing `connected`, in ms (polled every
    /// ms; `None` if the drain finished before a poll saw it).
    pub connect_ms: Option<f64>,
    /// Confirms the publisher counted.
    pub published: u64,
    /// Messages in the bound queue afterwards.
    pub queue_messages: u32,
    /// Messages left in the outbox after the publisher stopped.
    pub outbox_left: u64,
    /// The publisher's last error, if it had one.
    pub last_error: Option<String>,
}

/// The whole daemon in `amqp` ledger mode.
#[derive(Debug, Clone, Serialize)]
pub struct DaemonRun {
    /// Client connections.
    pub clients: usize,
    /// Mean envelope line size, in bytes.
    pub line_bytes: usize,
    /// First byte sent to the queue holding every event, in seconds.
    pub seconds: f64,
    /// `events / seconds`.
    pub events_per_sec: f64,
    /// First byte sent to the commit notice of the last outbox append, in
    /// seconds (what the daemon itself takes; the rest is publishing).
    pub outbox_seconds: Option<f64>,
    /// Messages in the bound queue afterwards.
    pub queue_messages: u32,
    /// Messages left in the outbox after the daemon stopped.
    pub outbox_left: u64,
    /// Whether the daemon wrote the repository's ledger (it must not in `amqp` mode).
    pub ledger_written: bool,
    /// The daemon's counters after it stopped.
    pub daemon: StatsSnapshot,
}

/// Result of the publish-rate measurement.
#[derive(Debug, Clone, Serialize)]
pub struct PublishReport {
    /// Events published in each run.
    pub events: u64,
    /// Mean size of the hook payload the events carry, in bytes.
    pub payload_bytes: usize,
    /// Mean size of a message body (the `ToolMutationEvent` JSON), in bytes.
    pub body_bytes: usize,
    /// Messages the publisher sends before waiting for their confirms.
    pub batch: usize,
    /// Time to fill the outbox, in seconds (context).
    pub fill_seconds: f64,
    /// The publisher alone.
    pub direct: DirectRun,
    /// Through the whole daemon.
    pub daemon: DaemonRun,
}

impl PublishReport {
    /// True when each run's queue holds exactly the events sent, nothing was
    /// left in an outbox, and the daemon rejected, spooled and wrote nothing.
    pub fn exact(&self) -> bool {
        let n = self.events;
        let (d, w) = (&self.direct, &self.daemon);
        d.published == n
            && u64::from(d.queue_messages) == n
            && d.outbox_left == 0
            && u64::from(w.queue_messages) == n
            && w.outbox_left == 0
            && w.daemon.lines_rejected == 0
            && w.daemon.events_spooled == 0
            && !w.ledger_written
    }
}

/// Runs both publishing measurements with `events` events each against the broker at `url`.
pub fn run(url: &str, events: u64) -> Result<PublishReport> {
    ensure!(events > 0, "--publish-events must be at least 1");
    let mut broker = Broker::connect(url)?;
    eprintln!("[publish] exchange {}", broker.exchange());
    let measured = measure(&mut broker, events);
    let cleaned = broker.cleanup();
    let report = measured?;
    cleaned.context("cannot delete the bench's exchange and queues")?;
    Ok(report)
}

fn measure(broker: &mut Broker, events: u64) -> Result<PublishReport> {
    let ws = Workspace::new()?;
    let queue = broker.declare_queue("publish")?;
    let outbox_path = outbox::outbox_path(&ws.data_dir);
    eprintln!("[publish] filling an outbox with {events} Write events");
    let filled = fill_outbox(&ws, &outbox_path, events)?;

    eprintln!("[publish] draining it with `Publisher` (confirms on)");
    let direct = drain(broker, &outbox_path, events)?;
    // Confirmed means enqueued; the depth is read once more to be sure.
    let queue_messages = settled_depth(broker, &queue, events)?;
    broker.delete_queue(&queue)?;
    let direct = DirectRun {
        queue_messages,
        ..direct
    };
    eprintln!(
        "[publish] {events} confirmed in {:.2} s ({:.0} events/s)",
        direct.seconds, direct.events_per_sec
    );

    let daemon = through_daemon(broker, events)?;
    Ok(PublishReport {
        events,
        payload_bytes: filled.payload_bytes,
        body_bytes: filled.body_bytes,
        batch: DEFAULT_BATCH,
        fill_seconds: filled.seconds,
        direct,
        daemon,
    })
}

/// What filling the outbox took.
struct Filled {
    seconds: f64,
    payload_bytes: usize,
    body_bytes: usize,
}

/// Fills a fresh outbox at `path` with `events` Write events, in
/// transactions of [`FILL_BATCH`], built as the daemon builds them: envelope
/// → `extract::hook_event` → git facts → direct mutation → `OutboxMessage::from_entry`.
fn fill_outbox(ws: &Workspace, path: &Path, events: u64) -> Result<Filled> {
    let started = Instant::now();
    let mut outbox = Outbox::open(path).context("cannot create the outbox")?;
    ensure!(
        outbox.is_empty()?,
        "the outbox {} is not fresh",
        path.display()
    );
    let repo = Enricher::new().facts_for_dir(&ws.root);
    ensure!(
        repo.git_root.is_some(),
        "the bench repository has no git facts"
    );
    let session = env::session_id(7);
    let pid = std::process::id();
    let (mut payload_bytes, mut body_bytes) = (0usize, 0usize);
    let mut batch = Vec::with_capacity(FILL_BATCH);
    for i in 0..events {
        let rel_path = format!("src/gen/m{:03}/file_{i:07}.rs", i % 100);
        let payload =
            env::write_payload(&ws.root, &session, &format!("toolu_pub_{i:07}"), &rel_path);
        payload_bytes += payload.to_string().len();
        let envelope = Envelope::new(
            env::EVENT_TYPE,
            Some("Write".into()),
            payload,
            timefmt::now(),
            Some(pid),
        );
        let event = extract::hook_event(
            &envelope,
            uuid::Uuid::now_v7().to_string(),
            envelope.timestamp.clone(),
            timefmt::now(),
        );
        let mutations = extract::direct_mutation(&event, &repo)
            .into_iter()
            .collect();
        let message = OutboxMessage::from_entry(&LedgerEntry {
            event,
            repo: repo.clone(),
            mutations,
        });
        body_bytes += message.body.len();
        batch.push(message);
        if batch.len() == FILL_BATCH {
            outbox.push(&batch)?;
            batch.clear();
        }
    }
    outbox.push(&batch)?;
    let stored = outbox.len()?;
    ensure!(
        stored == events,
        "the outbox holds {stored} messages, not {events}"
    );
    let n = usize::try_from(events).unwrap_or(usize::MAX);
    Ok(Filled {
        seconds: started.elapsed().as_secs_f64(),
        payload_bytes: payload_bytes / n,
        body_bytes: body_bytes / n,
    })
}

/// Spawns a `Publisher` on the outbox at `path`, on a two-worker runtime as
/// the daemon's, and times it until it has `events` confirms.
fn drain(broker: &Broker, path: &Path, events: u64) -> Result<DirectRun> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("hookd-bench-publisher")
        .enable_all()
        .build()
        .context("cannot start the publisher's runtime")?;
    let shutdown = CancellationToken::new();
    let tracker = TaskTracker::new();
    let config = PublisherConfig {
        exchange: broker.exchange().to_owned(),
        ..PublisherConfig::new(broker.url(), path)
    };
    let spawned = Instant::now();
    let publisher = {
        let _entered = runtime.enter();
        Publisher::spawn(config, shutdown.clone(), &tracker)
            .context("cannot start the publisher")?
    };
    // Generous: a broker confirming 500 events/s still finishes.
    let timeout = Duration::from_secs(60 + events / 500);
    let mut connected = None;
    let outcome = loop {
        let status = publisher.status();
        let now = Instant::now();
        if connected.is_none() && status.state == ConnectionState::Connected {
            connected = Some(now);
        }
        if status.published >= events {
            break Ok((now, status));
        }
        if now.duration_since(spawned) > timeout {
            break Err(status);
        }
        std::thread::sleep(STATUS_POLL);
    };
    shutdown.cancel();
    tracker.close();
    runtime.block_on(tracker.wait());
    runtime.shutdown_timeout(Duration::from_secs(5));
    let (done, status) = match outcome {
        Ok(done) => done,
        Err(status) => bail!(
            "only {} of {events} events confirmed within {timeout:?} ({})",
            status.published,
            describe(&status)
        ),
    };
    let outbox_left = Outbox::open(path)?.len()?;
    let seconds = done.duration_since(spawned).as_secs_f64();
    Ok(DirectRun {
        seconds,
        events_per_sec: events as f64 / seconds,
        connect_ms: connected.map(|at| crate::stats::ms(at.duration_since(spawned))),
        published: status.published,
        queue_messages: 0,
        outbox_left,
        last_error: status.last_error,
    })
}

/// The publisher's state and last error, for an error message.
fn describe(status: &PublisherStatus) -> String {
    format!(
        "publisher {:?}, backlog {}, last error: {}",
        status.state,
        status.backlog,
        status.last_error.as_deref().unwrap_or("none")
    )
}

/// `events` envelope lines over [`CLIENTS`] connections into a daemon in
/// `amqp` mode; timed until a queue bound to the exchange holds them all.
fn through_daemon(broker: &mut Broker, events: u64) -> Result<DaemonRun> {
    let ws = Workspace::new()?;
    let queue = broker.declare_queue("daemon")?;
    eprintln!("[publish] building {events} envelope lines for the daemon");
    let shares = ingest::build_lines(&ws, events)?;
    let total_bytes: usize = shares.iter().flatten().map(Vec::len).sum();
    let daemon = RunningDaemon::start_amqp(
        &ws,
        false,
        AmqpTarget {
            url: broker.url().to_owned(),
            exchange: broker.exchange().to_owned(),
        },
    )?;
    eprintln!("[publish] {CLIENTS} clients sending {events} events to the daemon in `amqp` mode");
    let (first_byte, _) = ingest::send_all(&ws.socket, shares)?;
    let timeout = Duration::from_secs(60 + events / 500);
    let done = loop {
        let depth = broker.depth(&queue)?;
        let now = Instant::now();
        if u64::from(depth) >= events {
            break now;
        }
        if now.duration_since(first_byte) > timeout {
            bail!(
                "only {depth} of {events} events reached the queue within {timeout:?} (daemon: {:?})",
                daemon.stats()
            );
        }
        std::thread::sleep(DEPTH_POLL);
    };
    let in_outbox = daemon.watch.wait_for(events, Duration::from_secs(5));
    let stats = daemon.stop()?;
    let seconds = done.duration_since(first_byte).as_secs_f64();
    eprintln!(
        "[publish] daemon: {events} in the queue in {seconds:.2} s ({:.0} events/s)",
        events as f64 / seconds
    );
    let queue_messages = settled_depth(broker, &queue, events)?;
    broker.delete_queue(&queue)?;
    Ok(DaemonRun {
        clients: CLIENTS,
        line_bytes: total_bytes / usize::try_from(events).unwrap_or(usize::MAX),
        seconds,
        events_per_sec: events as f64 / seconds,
        outbox_seconds: in_outbox.map(|at| at.duration_since(first_byte).as_secs_f64()),
        queue_messages,
        outbox_left: Outbox::open(&outbox::outbox_path(&ws.data_dir))?.len()?,
        ledger_written: ws.ledger_path().exists(),
        daemon: stats,
    })
}

/// The depth of `queue`, read until it reaches `expected` (at most 2 s).
/// Called once the publisher has stopped, so nothing more can arrive: a
/// duplicate (a re-publish after a lost confirm) shows as a count above it.
fn settled_depth(broker: &Broker, queue: &str, expected: u64) -> Result<u32> {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let depth = broker.depth(queue)?;
        if u64::from(depth) >= expected || Instant::now() > deadline {
            return Ok(depth);
        }
        std::thread::sleep(DEPTH_POLL);
    }
}
