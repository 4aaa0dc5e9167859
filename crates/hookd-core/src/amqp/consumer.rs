//! The ledger consumer: reads every hook event from RabbitMQ and writes it
//! into its repository's ledger with the daemon's own [`LedgerSink`], so a
//! ledger filled through the broker holds exactly the rows the daemon would
//! have written itself.
//!
//! Why it is built this way:
//! - A delivery is acked only after the SQLite commit that stored it. A crash
//!   in between costs a redelivery, never an event; redeliveries, and several
//!   consumers sharing one queue, are harmless because ledger appends are
//!   idempotent on the event id.
//! - Deliveries are batched (up to `prefetch`, until a 2 ms lull, or `batch_wait` after the
//!   first) and each ledger gets one transaction per batch, written on a
//!   blocking thread: SQLite never runs on the async workers, and a busy
//!   queue costs one commit per batch, not one per event.
//! - A message that cannot be read is rejected without requeue. The queue
//!   dead-letters it to `<exchange>.dead`, which parks it in `<queue>.dead`
//!   for inspection, instead of it coming back forever and stalling the queue.
//! - A ledger that cannot be written is a local problem that may pass (disk
//!   full, permissions, a lock): those messages are requeued after a backoff.
//! - A lost broker connection is retried with exponential backoff; whatever
//!   was delivered but not acked comes back from the broker.
//! - A delivery stored in a ledger that is still being checked in the
//!   background is acked only once the check passed (`held_acks.rs`).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

use lapin::message::{Delivery, DeliveryResult};
use lapin::options::{
    BasicAckOptions, BasicCancelOptions, BasicConsumeOptions, BasicNackOptions, BasicQosOptions,
    BasicRejectOptions, ExchangeDeclareOptions, QueueBindOptions, QueueDeclareOptions,
};
use lapin::types::{AMQPValue, FieldTable, ShortString};
use lapin::{Acker, Channel, Connection, ExchangeKind};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::AmqpError;
use super::held_acks::{HeldAcks, Release};
use super::message::{CarriedContent, DEFAULT_EXCHANGE, SCHEMA_VERSION, ToolMutationEvent};
use super::topology::{check_url, connect, declare_exchange, redact, short_string};
use crate::error::ErrorChain;
use crate::ledger::sink::LedgerSink;
use crate::record::LedgerEntry;

/// The queue ledger consumers share unless told otherwise.
pub const DEFAULT_QUEUE: &str = "hookd.ledger";

/// Default prefetch: unacked deliveries in flight, and the largest batch.
pub const DEFAULT_PREFETCH: u16 = 256;

/// A batch is written as soon as no delivery arrives for this long (or
/// when it is full, or `batch_wait` after its first delivery).
pub const BATCH_IDLE_GAP: Duration = Duration::from_millis(2);

/// Default wait for more deliveries after the first of a batch.
pub const DEFAULT_BATCH_WAIT: Duration = Duration::from_millis(20);

/// How often an idle consumer holding acks asks whether the checks of
/// their ledgers are over.
const HELD_RECHECK: Duration = Duration::from_millis(250);

/// The ledger keeps every hook event, not only tool mutations, so the queue
/// takes every routing key.
pub const LEDGER_BINDING_KEY: &str = "#";

/// First delay before reconnecting to the broker; doubled on each failure.
const RECONNECT_MIN: Duration = Duration::from_millis(100);
/// Longest delay between reconnection attempts.
const RECONNECT_MAX: Duration = Duration::from_secs(30);
/// First delay before requeueing events whose ledger write failed.
const WRITE_RETRY_MIN: Duration = Duration::from_millis(100);
/// Longest delay before requeueing them: short, so a fixed disk shows up fast.
const WRITE_RETRY_MAX: Duration = Duration::from_secs(5);
/// How long cancelling the consumer or closing may wait for a broker that
/// stopped answering, so a stop signal is never stuck behind a dead socket.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);

/// What a ledger consumer connects to, reads and writes.
#[derive(Debug, Clone)]
pub struct ConsumerConfig {
    /// Broker URL, `amqp://user:password@host:5672/%2f`.
    pub url: String,
    /// Topic exchange the daemons publish to.
    pub exchange: String,
    /// Durable queue the ledger consumers share.
    pub queue: String,
    /// Most unacked deliveries at once, which is also the largest batch (at least 1).
    pub prefetch: u16,
    /// hookd's data directory: repository registry and the ledger of events outside git.
    pub data_dir: PathBuf,
    /// How long a batch waits for more deliveries after its first.
    pub batch_wait: Duration,
}

impl ConsumerConfig {
    /// A consumer of the default exchange and queue with default batching.
    pub fn new(url: impl Into<String>, data_dir: PathBuf) -> Self {
        Self {
            url: url.into(),
            exchange: DEFAULT_EXCHANGE.to_owned(),
            queue: DEFAULT_QUEUE.to_owned(),
            prefetch: DEFAULT_PREFETCH,
            data_dir,
            batch_wait: DEFAULT_BATCH_WAIT,
        }
    }
}

/// What a consumer did before it stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ConsumerReport {
    /// Events newly written to a ledger.
    pub stored: u64,
    /// Events that were already in their ledger (redeliveries, duplicates).
    pub duplicates: u64,
    /// Messages rejected to the parking queue (unreadable, or no such repository here).
    pub dead_lettered: u64,
}

/// The fanout exchange `exchange`'s ledger queues dead-letter to: `<exchange>.dead`.
pub fn dead_letter_exchange(exchange: &str) -> String {
    format!("{exchange}.dead")
}

/// The queue that parks what `queue` dead-letters: `<queue>.dead`.
pub fn parking_queue(queue: &str) -> String {
    format!("{queue}.dead")
}

/// Messages waiting in a ledger queue and its parking queue.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueueDepths {
    /// Ready (not delivered) messages in the ledger queue.
    pub ready: u32,
    /// Messages parked in `<queue>.dead`.
    pub parked: u32,
}

/// Declares the exchange, the durable queue (with dead-lettering) and its bindings.
///
/// Idempotent. The queue is bound with `#` (every event), dead-letters to
/// the durable fanout exchange `<exchange>.dead`, and `<queue>.dead` is bound
/// to that exchange. A queue that already exists with other arguments makes
/// the broker close the channel (PRECONDITION_FAILED), reported as an error.
///
/// The dead-letter exchange is a fanout: if several differently named ledger
/// queues share one exchange, each parking queue receives every queue's
/// dead letters (ledger consumers normally share one queue, so this is rare).
pub async fn declare_ledger_queue(
    channel: &Channel,
    exchange: &str,
    queue: &str,
) -> Result<(), AmqpError> {
    declare_and_count(channel, exchange, queue)
        .await
        .map(|_| ())
}

/// Connects, declares the ledger topology, and returns the queue depths;
/// what `hookd amqp declare` does.
pub async fn declare_topology(
    url: &str,
    exchange: &str,
    queue: &str,
) -> Result<QueueDepths, AmqpError> {
    check_url(url)?;
    let connection = connect(url).await?;
    let declared = async {
        let channel = connection
            .create_channel()
            .await
            .map_err(|e| AmqpError::broker("opening a channel", e))?;
        let depths = declare_and_count(&channel, exchange, queue).await?;
        channel
            .close(200, "declared".into())
            .await
            .map_err(|e| AmqpError::broker("closing the channel", e))?;
        Ok(depths)
    }
    .await;
    if let Err(err) = connection.close(200, "declared".into()).await {
        tracing::debug!(error = %err, "closing the connection after declaring");
    }
    declared
}

async fn declare_and_count(
    channel: &Channel,
    exchange: &str,
    queue: &str,
) -> Result<QueueDepths, AmqpError> {
    let dead_exchange = dead_letter_exchange(exchange);
    let parking = parking_queue(queue);
    let exchange_name = short_string("exchange", exchange)?;
    let dead_exchange_name = short_string("dead-letter exchange", &dead_exchange)?;
    let queue_name = short_string("queue", queue)?;
    let parking_name = short_string("parking queue", &parking)?;
    let durable_queue = QueueDeclareOptions {
        durable: true,
        ..QueueDeclareOptions::default()
    };

    declare_exchange(channel, exchange).await?;
    channel
        .exchange_declare(
            dead_exchange_name.clone(),
            ExchangeKind::Fanout,
            ExchangeDeclareOptions {
                durable: true,
                ..ExchangeDeclareOptions::default()
            },
            FieldTable::default(),
        )
        .await
        .map_err(|e| AmqpError::broker(format!("declaring exchange {dead_exchange}"), e))?;

    let parked = channel
        .queue_declare(parking_name.clone(), durable_queue, FieldTable::default())
        .await
        .map_err(|e| AmqpError::broker(format!("declaring queue {parking}"), e))?;
    channel
        .queue_bind(
            parking_name,
            dead_exchange_name,
            ShortString::default(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await
        .map_err(|e| AmqpError::broker(format!("binding {parking} to {dead_exchange}"), e))?;

    let mut arguments = FieldTable::default();
    arguments.insert(
        "x-dead-letter-exchange".into(),
        AMQPValue::LongString(dead_exchange.as_str().into()),
    );
    let ready = channel
        .queue_declare(queue_name.clone(), durable_queue, arguments)
        .await
        .map_err(|e| AmqpError::broker(format!("declaring queue {queue}"), e))?;
    channel
        .queue_bind(
            queue_name,
            exchange_name,
            LEDGER_BINDING_KEY.into(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await
        .map_err(|e| {
            AmqpError::broker(
                format!("binding {queue} to {exchange} with {LEDGER_BINDING_KEY}"),
                e,
            )
        })?;
    Ok(QueueDepths {
        ready: ready.message_count(),
        parked: parked.message_count(),
    })
}

/// Consumes until `shutdown` fires; then finishes the current batch, acks it, and returns.
///
/// Broker outages are retried forever (100 ms doubling to 30 s). It returns
/// an error only for what retrying cannot fix: an unusable URL or name, or
/// the broker refusing the credentials, the virtual host or the topology.
pub async fn run(
    config: ConsumerConfig,
    shutdown: CancellationToken,
) -> Result<ConsumerReport, AmqpError> {
    check_url(&config.url)?;
    for (what, name) in [
        ("exchange", dead_letter_exchange(&config.exchange)),
        ("queue", parking_queue(&config.queue)),
    ] {
        short_string(what, &name)?;
    }
    run_worker(Worker::new(config), shutdown).await
}

/// [`run`] writing through `sink` (tests: a sink whose checks are held back).
#[cfg(test)]
pub(crate) async fn run_with_sink(
    config: ConsumerConfig,
    sink: LedgerSink,
    shutdown: CancellationToken,
) -> ConsumerReport {
    let mut worker = Worker::new(config);
    worker.sink = Some(sink);
    run_worker(worker, shutdown)
        .await
        .expect("the consumer runs")
}

async fn run_worker(
    mut worker: Worker,
    shutdown: CancellationToken,
) -> Result<ConsumerReport, AmqpError> {
    let mut reconnect = Backoff::new(RECONNECT_MIN, RECONNECT_MAX);
    while !shutdown.is_cancelled() {
        match worker.session(&shutdown).await {
            SessionEnd::Shutdown => break,
            SessionEnd::Fatal(err) => {
                log_stopped(&worker.report);
                return Err(err);
            }
            SessionEnd::Lost {
                error,
                was_consuming,
            } => {
                if was_consuming {
                    reconnect.reset();
                }
                let delay = reconnect.next_delay();
                let broker = redact(&worker.config.url);
                let error = ErrorChain(&error).to_string();
                if was_consuming {
                    tracing::warn!(%broker, %error, retry_in = ?delay, "ledger consumer lost the broker; reconnecting");
                } else {
                    tracing::warn!(%broker, %error, retry_in = ?delay, "ledger consumer cannot reach the broker; retrying");
                }
                tokio::select! {
                    () = shutdown.cancelled() => break,
                    () = tokio::time::sleep(delay) => {}
                }
            }
        }
    }
    log_stopped(&worker.report);
    Ok(worker.report)
}

fn log_stopped(report: &ConsumerReport) {
    tracing::info!(
        stored = report.stored,
        duplicates = report.duplicates,
        dead_lettered = report.dead_lettered,
        "ledger consumer stopped"
    );
}

/// How one connection's life ended.
enum SessionEnd {
    /// `shutdown` fired and the session wound down cleanly.
    Shutdown,
    /// The broker went away or failed; reconnect.
    Lost {
        /// What happened.
        error: AmqpError,
        /// It got as far as consuming (resets the reconnect backoff).
        was_consuming: bool,
    },
    /// Retrying cannot help (refused credentials, conflicting topology).
    Fatal(AmqpError),
}

/// A live connection: the channel we consume on and where deliveries arrive.
struct Session {
    connection: Connection,
    channel: Channel,
    consumer_tag: ShortString,
    /// Kept alive: dropping lapin's consumer cancels it.
    _consumer: lapin::Consumer,
    deliveries: mpsc::UnboundedReceiver<DeliveryResult>,
}

/// State that outlives connections: the open ledgers and the running totals.
struct Worker {
    config: ConsumerConfig,
    /// Taken while a batch is written on the blocking pool; `None` after a
    /// panic there, recreated on next use.
    sink: Option<LedgerSink>,
    report: ConsumerReport,
    write_retry: Backoff,
    /// Deliveries stored in a ledger under check, not yet acked.
    held: HeldAcks<Acker>,
}

/// What one blocking write of a batch did.
struct WriteOutcome {
    /// One entry per ledger written (or not).
    groups: Vec<GroupOutcome>,
    /// Batch positions whose repository root does not exist on this host.
    missing_roots: Vec<(usize, PathBuf)>,
    /// What the sink says of its background checks after the writes.
    checks: Checks,
}

/// The sink's background checks at one moment.
#[derive(Debug, Default)]
struct Checks {
    /// The ledgers being checked.
    checking: Vec<PathBuf>,
    /// The ledgers moved aside (found damaged) since the last look.
    moved_aside: Vec<PathBuf>,
}

impl Checks {
    /// Takes in the finished checks of `sink` and reads what is left.
    fn of(sink: &mut LedgerSink) -> Self {
        sink.settle_checks();
        Self {
            checking: sink.being_checked(),
            moved_aside: sink
                .take_moved_aside()
                .into_iter()
                .map(|moved| moved.ledger)
                .collect(),
        }
    }
}

/// One ledger's share of a batch.
struct GroupOutcome {
    ledger: PathBuf,
    /// Batch positions of the entries written to it.
    positions: Vec<usize>,
    /// Events newly stored, or why the transaction failed.
    result: crate::Result<usize>,
}

impl Worker {
    fn new(config: ConsumerConfig) -> Self {
        Self {
            config,
            sink: None,
            report: ConsumerReport::default(),
            write_retry: Backoff::new(WRITE_RETRY_MIN, WRITE_RETRY_MAX),
            held: HeldAcks::default(),
        }
    }

    /// One connection: set up, consume until shutdown or loss, close.
    async fn session(&mut self, shutdown: &CancellationToken) -> SessionEnd {
        let setup = tokio::select! {
            biased;
            () = shutdown.cancelled() => return SessionEnd::Shutdown,
            setup = open_session(&self.config) => setup,
        };
        let mut session = match setup {
            Ok(session) => session,
            Err(error) if is_permanent(&error) => return SessionEnd::Fatal(error),
            Err(error) => {
                return SessionEnd::Lost {
                    error,
                    was_consuming: false,
                };
            }
        };
        tracing::info!(
            broker = %redact(&self.config.url),
            exchange = %self.config.exchange,
            queue = %self.config.queue,
            prefetch = self.config.prefetch,
            "ledger consumer consuming"
        );
        let consumed = self.consume(&mut session, shutdown).await;
        // The channel closes with them unacked: the broker delivers them again.
        self.held.forget();
        match consumed {
            Ok(()) => {
                close(&session).await;
                SessionEnd::Shutdown
            }
            Err(error) => {
                // Best effort: the connection is usually gone already, and
                // whatever we still hold unacked is redelivered either way.
                close(&session).await;
                SessionEnd::Lost {
                    error,
                    was_consuming: true,
                }
            }
        }
    }

    /// Batches and writes deliveries until shutdown (`Ok`) or the session breaks.
    async fn consume(
        &mut self,
        session: &mut Session,
        shutdown: &CancellationToken,
    ) -> Result<(), AmqpError> {
        let max_batch = usize::from(self.config.prefetch.max(1));
        loop {
            let first = tokio::select! {
                biased;
                () = shutdown.cancelled() => {
                    cancel_consumer(session).await;
                    return Ok(());
                }
                next = session.deliveries.recv() => delivery(next)?,
                () = tokio::time::sleep(HELD_RECHECK), if !self.held.is_empty() => {
                    self.recheck_held().await?;
                    continue;
                }
            };
            let deadline = Instant::now() + self.config.batch_wait;
            let mut batch = vec![first];
            let mut stopping = false;
            while batch.len() < max_batch {
                tokio::select! {
                    biased;
                    () = shutdown.cancelled() => {
                        stopping = true;
                        break;
                    }
                    next = session.deliveries.recv() => batch.push(delivery(next)?),
                    () = tokio::time::sleep_until(deadline) => break,
                    // A lull means the burst is over: write now rather than
                    // make a lone event wait for the whole batch window.
                    () = tokio::time::sleep(BATCH_IDLE_GAP) => break,
                }
            }
            if stopping {
                // No new deliveries while the last batch is written; what the
                // broker already sent beyond it is requeued when the channel closes.
                cancel_consumer(session).await;
            }
            self.process(batch, shutdown).await?;
            if stopping || shutdown.is_cancelled() {
                if !stopping {
                    cancel_consumer(session).await;
                }
                return Ok(());
            }
        }
    }

    /// Dead-letters unreadable messages, writes the rest, then acks or requeues.
    async fn process(
        &mut self,
        batch: Vec<Delivery>,
        shutdown: &CancellationToken,
    ) -> Result<(), AmqpError> {
        let mut ackers = Vec::with_capacity(batch.len());
        let mut entries = Vec::with_capacity(batch.len());
        for delivery in batch {
            match decode(&delivery.data) {
                Ok(mut event) => {
                    ackers.push(delivery.acker);
                    let contents = event.take_contents();
                    entries.push((event.into_entry(), contents));
                }
                Err(reason) => {
                    tracing::warn!(
                        message_id = message_id(&delivery),
                        routing_key = %delivery.routing_key,
                        reason = %reason,
                        "dead-lettering an unreadable message"
                    );
                    self.dead_letter(&delivery.acker).await?;
                }
            }
        }
        if entries.is_empty() {
            return Ok(());
        }

        let outcome = self.write(entries).await;
        let Some(outcome) = outcome else {
            // The blocking writer panicked; nothing is known to be committed.
            return self.requeue(&ackers, shutdown).await;
        };
        for (position, root) in &outcome.missing_roots {
            tracing::warn!(
                root = %root.display(),
                "dead-lettering an event: its repository does not exist on this host"
            );
            self.dead_letter(&ackers[*position]).await?;
        }
        let mut written = Vec::with_capacity(ackers.len());
        let mut under_check = Vec::new();
        let mut failed = Vec::new();
        for group in outcome.groups {
            match group.result {
                Ok(stored) => {
                    let stored = stored.min(group.positions.len());
                    self.report.stored += stored as u64;
                    self.report.duplicates += (group.positions.len() - stored) as u64;
                    if outcome.checks.checking.contains(&group.ledger) {
                        under_check.extend(
                            group
                                .positions
                                .into_iter()
                                .map(|p| (p, group.ledger.clone())),
                        );
                    } else {
                        written.extend(group.positions);
                    }
                }
                Err(err) => {
                    tracing::warn!(
                        ledger = %group.ledger.display(),
                        events = group.positions.len(),
                        error = %ErrorChain(&err),
                        "ledger write failed; the events go back to the queue"
                    );
                    failed.extend(group.positions);
                }
            }
        }
        written.sort_unstable();
        failed.sort_unstable();
        self.release_held(&outcome.checks).await?;
        if !under_check.is_empty() {
            let was = self.held.len();
            for (position, ledger) in under_check {
                self.held.hold(&ledger, ackers[position].clone());
            }
            let prefetch = usize::from(self.config.prefetch.max(1));
            if was < prefetch && self.held.len() >= prefetch {
                tracing::info!(
                    held = self.held.len(),
                    checking = ?outcome.checks.checking,
                    "every delivery the broker sends at once is stored in a ledger still being checked; more events wait in the queue until the check ends"
                );
            }
        }

        if failed.is_empty() && self.held.is_empty() {
            self.write_retry.reset();
            // Every earlier delivery on this channel is settled, and this
            // batch's rejects went out first, so one "multiple" ack up to the
            // last written delivery covers exactly this batch's writes.
            if let Some(&last) = written.last() {
                ack(&ackers[last], true).await?;
            }
            return Ok(());
        }
        for &position in &written {
            ack(&ackers[position], false).await?;
        }
        let failed: Vec<Acker> = failed.into_iter().map(|p| ackers[p].clone()).collect();
        self.requeue(&failed, shutdown).await
    }

    /// Acks the held deliveries whose ledger's check passed and requeues
    /// those of a ledger moved aside.
    async fn release_held(&mut self, checks: &Checks) -> Result<(), AmqpError> {
        for (acker, release) in self.held.settle(&checks.checking, &checks.moved_aside) {
            match release {
                Release::Ack => ack(&acker, false).await?,
                Release::Requeue => requeue_now(&acker).await?,
            }
        }
        Ok(())
    }

    /// Asks the sink whether the checks of the held deliveries' ledgers are
    /// over, and releases what it can.
    async fn recheck_held(&mut self) -> Result<(), AmqpError> {
        match self.on_sink(Checks::of).await {
            Some(checks) => self.release_held(&checks).await,
            None => {
                // A new sink checks the ledgers again; the held deliveries
                // wait for that.
                tracing::error!("looking at the ledger checks failed");
                Ok(())
            }
        }
    }

    /// Writes entries grouped by ledger, one transaction each, on the blocking
    /// pool; `None` if that thread panicked.
    async fn write(
        &mut self,
        entries: Vec<(LedgerEntry, Vec<CarriedContent>)>,
    ) -> Option<WriteOutcome> {
        let outcome = self.on_sink(move |sink| write_groups(sink, entries)).await;
        if outcome.is_none() {
            tracing::error!("ledger writer failed; the batch goes back to the queue");
        }
        outcome
    }

    /// Runs `work` on the sink on the blocking pool (SQLite never runs on
    /// the async workers); `None` if it panicked, and the sink is made anew
    /// at its next use.
    async fn on_sink<T: Send + 'static>(
        &mut self,
        work: impl FnOnce(&mut LedgerSink) -> T + Send + 'static,
    ) -> Option<T> {
        let sink = self.sink.take();
        let data_dir = self.config.data_dir.clone();
        let done = tokio::task::spawn_blocking(move || {
            let mut sink = sink.unwrap_or_else(|| LedgerSink::new(data_dir));
            let result = work(&mut sink);
            (sink, result)
        })
        .await;
        match done {
            Ok((sink, result)) => {
                self.sink = Some(sink);
                Some(result)
            }
            Err(err) => {
                tracing::error!(error = %err, "the ledger sink's blocking task failed");
                None
            }
        }
    }

    /// Waits a growing backoff (cut short by shutdown), then returns the
    /// messages to the queue, so a failing ledger neither loses events nor
    /// spins on them.
    async fn requeue(
        &mut self,
        ackers: &[Acker],
        shutdown: &CancellationToken,
    ) -> Result<(), AmqpError> {
        let delay = self.write_retry.next_delay();
        tokio::select! {
            () = shutdown.cancelled() => {}
            () = tokio::time::sleep(delay) => {}
        }
        for acker in ackers {
            requeue_now(acker).await?;
        }
        Ok(())
    }

    /// Rejects without requeue: the queue's dead-letter exchange parks it.
    async fn dead_letter(&mut self, acker: &Acker) -> Result<(), AmqpError> {
        let sent = acker
            .reject(BasicRejectOptions { requeue: false })
            .await
            .map_err(|e| AmqpError::broker("dead-lettering a message", e))?;
        settled(sent)?;
        self.report.dead_lettered += 1;
        Ok(())
    }
}

/// Connects, declares the topology and starts consuming with manual acks.
// A free function, not a method: the worker holds SQLite connections,
// which are not `Sync`, so `&Worker` must not live across an await.
async fn open_session(config: &ConsumerConfig) -> Result<Session, AmqpError> {
    let connection = connect(&config.url).await?;
    let channel = connection
        .create_channel()
        .await
        .map_err(|e| AmqpError::broker("opening a channel", e))?;
    declare_ledger_queue(&channel, &config.exchange, &config.queue).await?;
    channel
        .basic_qos(config.prefetch.max(1), BasicQosOptions::default())
        .await
        .map_err(|e| AmqpError::broker("setting the prefetch", e))?;
    let consumer_tag: ShortString = format!(
        "hookd-ledger-{}-{}",
        std::process::id(),
        uuid::Uuid::now_v7()
    )
    .into();
    let consumer = channel
        .basic_consume(
            short_string("queue", &config.queue)?,
            consumer_tag.clone(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await
        .map_err(|e| AmqpError::broker(format!("consuming from {}", config.queue), e))?;
    // lapin calls the delegate synchronously, in delivery order, from its
    // IO loop; sending right away (not inside the returned future, which
    // lapin spawns) keeps that order, which acking "multiple" relies on.
    // Unbounded is safe: the prefetch bounds what the broker sends.
    let (sender, deliveries) = mpsc::unbounded_channel();
    consumer.set_delegate(move |delivery: DeliveryResult| {
        // The receiver is gone only when the session ended; the broker
        // redelivers anything unacked.
        let _ = sender.send(delivery);
        std::future::ready(())
    });
    Ok(Session {
        connection,
        channel,
        consumer_tag,
        _consumer: consumer,
        deliveries,
    })
}

/// One ledger's part of a batch: the batch positions, their entries and
/// the contents their messages carried.
type Group = (Vec<usize>, Vec<LedgerEntry>, Vec<CarriedContent>);

/// Groups entries by ledger and appends each group in one transaction,
/// after keeping the contents its messages carried.
fn write_groups(
    sink: &mut LedgerSink,
    entries: Vec<(LedgerEntry, Vec<CarriedContent>)>,
) -> WriteOutcome {
    let mut groups: BTreeMap<PathBuf, Group> = BTreeMap::new();
    let mut missing_roots = Vec::new();
    let mut root_exists: HashMap<PathBuf, bool> = HashMap::new();
    for (position, (entry, contents)) in entries.into_iter().enumerate() {
        if let Some(root) = entry.repo.git_root.as_deref() {
            // The sink would create `<root>/.hookd` (and every missing parent):
            // an event from a repository that is not on this host must not
            // scatter directories around the file system.
            let exists = *root_exists
                .entry(root.to_path_buf())
                .or_insert_with(|| root.is_dir());
            if !exists {
                missing_roots.push((position, root.to_path_buf()));
                continue;
            }
        }
        let ledger = sink.ledger_path(entry.repo.git_root.as_deref());
        let group = groups.entry(ledger).or_default();
        group.0.push(position);
        group.1.push(entry);
        group.2.extend(contents);
    }
    let groups = groups
        .into_iter()
        .map(|(ledger, (positions, entries, contents))| {
            // The contents first, flushed, so the rows never refer to a
            // content this machine's store lacks.
            keep_carried(sink, &ledger, &contents);
            let result = sink.append(&ledger, &entries);
            GroupOutcome {
                ledger,
                positions,
                result,
            }
        })
        .collect();
    WriteOutcome {
        groups,
        missing_roots,
        checks: Checks::of(sink),
    }
}

/// Keeps the contents messages carried in the store beside the ledger at
/// `ledger`. One that does not match its name, or a store that cannot take
/// it, is logged and left out: the rows are stored anyway (a rewind then
/// names the content it lacks), as the daemon stores them when its own
/// store fails.
fn keep_carried(sink: &mut LedgerSink, ledger: &Path, contents: &[CarriedContent]) {
    if contents.is_empty() {
        return;
    }
    let bytes: Vec<(&str, Vec<u8>)> = contents
        .iter()
        .filter_map(|content| match content.bytes() {
            Some(bytes) => Some((content.hash.as_str(), bytes)),
            None => {
                tracing::warn!(hash = %content.hash, "a carried content is neither text nor base64; left out");
                None
            }
        })
        .collect();
    if let Err(err) = sink.keep_contents(ledger, &bytes) {
        tracing::warn!(ledger = %ledger.display(), error = %ErrorChain(&err), "cannot keep the contents the messages carried");
    }
}

/// Reads a message body; the error says why it cannot be stored.
fn decode(body: &[u8]) -> Result<ToolMutationEvent, AmqpError> {
    let bad = |reason: String| AmqpError::BadMessage(reason);
    let value: serde_json::Value =
        serde_json::from_slice(body).map_err(|e| bad(format!("not JSON: {e}")))?;
    // Checked before the shape, so a newer schema is reported as such rather
    // than as whichever field changed.
    match value
        .get("schema_version")
        .and_then(serde_json::Value::as_u64)
    {
        Some(version) if version == u64::from(SCHEMA_VERSION) => {}
        Some(version) => {
            return Err(bad(format!(
                "unknown schema_version {version} (this consumer reads {SCHEMA_VERSION})"
            )));
        }
        None => return Err(bad("no numeric schema_version".to_owned())),
    }
    let event: ToolMutationEvent =
        serde_json::from_value(value).map_err(|e| bad(format!("not a ToolMutationEvent: {e}")))?;
    if event.event_id.trim().is_empty() {
        return Err(bad("empty event_id".to_owned()));
    }
    if let Some(root) = event.repo.git_root.as_deref()
        && !Path::new(root).is_absolute()
    {
        return Err(bad(format!("repo.git_root {root:?} is not absolute")));
    }
    Ok(event)
}

/// Unwraps one item from the delivery channel; anything but a delivery ends the session.
fn delivery(next: Option<DeliveryResult>) -> Result<Delivery, AmqpError> {
    match next {
        Some(Ok(Some(delivery))) => Ok(delivery),
        Some(Err(err)) => Err(AmqpError::broker("receiving deliveries", err)),
        // Cancelled by the broker (queue deleted) or the channel died: a new
        // session redeclares the queue and consumes again.
        Some(Ok(None)) | None => Err(AmqpError::ConsumerCancelled),
    }
}

/// Gives one delivery back to the queue, now.
async fn requeue_now(acker: &Acker) -> Result<(), AmqpError> {
    let options = BasicNackOptions {
        requeue: true,
        ..BasicNackOptions::default()
    };
    let sent = acker
        .nack(options)
        .await
        .map_err(|e| AmqpError::broker("requeueing a message", e))?;
    settled(sent)
}

async fn ack(acker: &Acker, multiple: bool) -> Result<(), AmqpError> {
    let sent = acker
        .ack(BasicAckOptions { multiple })
        .await
        .map_err(|e| AmqpError::broker("acknowledging messages", e))?;
    settled(sent)
}

/// lapin answers `false` instead of sending when the channel is already
/// closed: the broker will redeliver, so the session is over.
fn settled(sent: bool) -> Result<(), AmqpError> {
    if sent {
        Ok(())
    } else {
        Err(AmqpError::ConsumerCancelled)
    }
}

async fn cancel_consumer(session: &Session) {
    let cancel = session
        .channel
        .basic_cancel(session.consumer_tag.clone(), BasicCancelOptions::default());
    match tokio::time::timeout(CLOSE_TIMEOUT, cancel).await {
        Ok(Ok(())) => {}
        Ok(Err(err)) => tracing::debug!(error = %err, "cancelling the consumer"),
        Err(_) => tracing::warn!("the broker did not confirm the consumer's cancellation"),
    }
}

/// Closes channel and connection; the channel close waits for the broker,
/// so every ack sent before it has been processed when this returns.
async fn close(session: &Session) {
    let channel = session.channel.close(200, "bye".into());
    match tokio::time::timeout(CLOSE_TIMEOUT, channel).await {
        Ok(Ok(())) => {}
        Ok(Err(err)) => tracing::debug!(error = %err, "closing the channel"),
        Err(_) => tracing::warn!("the broker did not confirm closing the channel"),
    }
    let connection = session.connection.close(200, "bye".into());
    match tokio::time::timeout(CLOSE_TIMEOUT, connection).await {
        Ok(Ok(())) => {}
        Ok(Err(err)) => tracing::debug!(error = %err, "closing the connection"),
        Err(_) => tracing::warn!("the broker did not confirm closing the connection"),
    }
}

fn message_id(delivery: &Delivery) -> String {
    delivery
        .properties
        .message_id()
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default()
}

/// Errors that retrying cannot fix: refused credentials (403), a missing
/// virtual host (530), topology conflicting with an existing queue (406).
fn is_permanent(error: &AmqpError) -> bool {
    match error {
        AmqpError::Broker { source, .. } => match source.kind() {
            lapin::ErrorKind::ProtocolError(amqp) => matches!(amqp.get_id(), 403 | 406 | 530),
            lapin::ErrorKind::AuthProviderError(_)
            | lapin::ErrorKind::InvalidProtocolVersion(_) => true,
            _ => false,
        },
        AmqpError::InvalidUrl { .. } | AmqpError::NameTooLong { .. } => true,
        _ => false,
    }
}

/// Exponential backoff: `min`, doubling, capped at `max`.
struct Backoff {
    min: Duration,
    max: Duration,
    next: Duration,
}

impl Backoff {
    fn new(min: Duration, max: Duration) -> Self {
        Self {
            min,
            max,
            next: min,
        }
    }

    fn next_delay(&mut self) -> Duration {
        let delay = self.next;
        self.next = (self.next * 2).min(self.max);
        delay
    }

    fn reset(&mut self) {
        self.next = self.min;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event_json() -> serde_json::Value {
        serde_json::json!({
            "schema_version": 1, "event_id": "e1", "event_type": "session.start",
            "hook_type": "session_start", "tool_name": null, "agent_id": "a",
            "session_id": "s", "tool_use_id": null, "cwd": "/r",
            "repo": {"git_root": "/r", "branch": "main", "head_sha": "abc", "remote_url": null},
            "file_path": null, "file_ext": null, "lines_changed": null,
            "raw_payload": {}, "payload_valid": true,
            "timestamp": "2026-11-21T10:00:00.000Z", "received_at": "2026-11-21T10:00:00.001Z",
            "source_pid": 7, "mutations": []
        })
    }

    fn reason(body: &[u8]) -> String {
        match decode(body) {
            Err(AmqpError::BadMessage(reason)) => reason,
            other => panic!("expected a bad message, got {other:?}"),
        }
    }

    #[test]
    fn decode_accepts_a_v1_event() {
        let event = decode(event_json().to_string().as_bytes()).unwrap();
        assert_eq!(event.event_id, "e1");
    }

    #[test]
    fn decode_says_why_a_message_is_unreadable() {
        assert!(reason(b"not json").starts_with("not JSON"));
        assert!(reason(br#"{"hello": 1}"#).contains("schema_version"));
        let mut v2 = event_json();
        v2["schema_version"] = 2.into();
        assert!(reason(v2.to_string().as_bytes()).contains("unknown schema_version 2"));
        let mut shapeless = event_json();
        shapeless["repo"] = "nowhere".into();
        assert!(reason(shapeless.to_string().as_bytes()).starts_with("not a ToolMutationEvent"));
        let mut no_id = event_json();
        no_id["event_id"] = "".into();
        assert_eq!(reason(no_id.to_string().as_bytes()), "empty event_id");
        let mut relative = event_json();
        relative["repo"]["git_root"] = "r".into();
        assert!(reason(relative.to_string().as_bytes()).contains("not absolute"));
    }

    #[test]
    fn backoff_doubles_to_its_cap_and_resets() {
        let mut backoff = Backoff::new(RECONNECT_MIN, RECONNECT_MAX);
        let delays: Vec<_> = (0..12).map(|_| backoff.next_delay()).collect();
        assert_eq!(delays[0], Duration::from_millis(100));
        assert_eq!(delays[1], Duration::from_millis(200));
        assert_eq!(delays[9], Duration::from_millis(51_200).min(RECONNECT_MAX));
        assert_eq!(*delays.last().unwrap(), Duration::from_secs(30));
        backoff.reset();
        assert_eq!(backoff.next_delay(), Duration::from_millis(100));
    }

    #[test]
    fn dead_letter_names_follow_the_queue_and_exchange() {
        assert_eq!(dead_letter_exchange("hookd.events"), "hookd.events.dead");
        assert_eq!(parking_queue("hookd.ledger"), "hookd.ledger.dead");
    }
}
