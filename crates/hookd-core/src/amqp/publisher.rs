//! The publishing task: drains the [`Outbox`] to RabbitMQ, in order, with
//! publisher confirms.
//!
//! The daemon never talks to the broker itself: the ingest thread commits
//! each event to the outbox and calls [`Publisher::wake`], both of which work
//! whatever the broker's state. This task does the rest, one batch at a time:
//! peek the oldest messages, publish them persistently, wait for the broker's
//! confirms, and only then delete them from the outbox. So an event is lost
//! neither when the broker is down (it waits in the outbox, in order), nor
//! when the connection drops mid-batch (unconfirmed messages stay and are
//! published again: consumers dedupe on `message_id`), nor when the daemon
//! restarts (the outbox is a file). Because backlog and live events share one
//! FIFO, the backlog drains in order before live events follow.
//!
//! Connecting is retried forever with exponential backoff (100 ms doubling to
//! `max_backoff`); [`Publisher::status`] shows where it stands.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use lapin::options::{BasicPublishOptions, ConfirmSelectOptions};
use lapin::types::{AMQPValue, FieldArray, FieldTable, LongString, ShortString};
use lapin::{BasicProperties, Channel, Confirmation, Connection};
use serde_json::{Map, Value};
use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::AmqpError;
use super::message::{CONTENT_TYPE, DEFAULT_EXCHANGE};
use super::outbox::{Outbox, OutboxMessage, truncate_utf8};
use super::topology::{self, redact};
use crate::error::ErrorChain;
use crate::timefmt;

/// Messages published per batch (and held in memory at a time) by default.
pub const DEFAULT_BATCH: usize = 1000;

/// Longest wait between two connection attempts, by default.
pub const DEFAULT_MAX_BACKOFF: Duration = Duration::from_secs(30);

/// First wait after a failure; it doubles up to `max_backoff`.
pub const MIN_BACKOFF: Duration = Duration::from_millis(100);

/// How long a batch's confirms (or the channel setup) may take before the
/// connection is treated as dead: a half-open TCP connection would otherwise
/// stall publishing until the heartbeat notices.
pub const CONFIRM_TIMEOUT: Duration = Duration::from_secs(30);

/// How often the idle task looks at the outbox and the connection without
/// being woken: a safety net for a missed wake (another process pushing to
/// the same outbox) and to notice a connection lost while idle.
const IDLE_TICK: Duration = Duration::from_secs(1);

/// Once shutdown is requested, how long in-flight confirms may still take.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// How long closing the connection may take.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);

/// Most body bytes in one batch, so large payloads (up to the 8 MiB line
/// limit each) cannot make a 1,000-message batch use gigabytes.
const MAX_BATCH_BYTES: usize = 32 << 20;

/// The AMQP `app_id` of every message.
const APP_ID: &str = "hookd";

/// Longest AMQP short string (routing key, message id, header name).
const MAX_SHORT_STRING: usize = 255;

/// What the publisher needs.
#[derive(Debug, Clone)]
pub struct PublisherConfig {
    /// Broker URL (`amqp://user:pass@host:5672/%2f`).
    pub url: String,
    /// Topic exchange to publish to (normally [`DEFAULT_EXCHANGE`]).
    pub exchange: String,
    /// The outbox database (normally `{data_dir}/amqp-outbox.db`).
    pub outbox_path: PathBuf,
    /// Messages published per batch, and so held in memory at a time (at least 1).
    pub batch: usize,
    /// Longest wait between two connection attempts.
    pub max_backoff: Duration,
}

impl PublisherConfig {
    /// A configuration with the default exchange, batch and backoff.
    pub fn new(url: impl Into<String>, outbox_path: impl Into<PathBuf>) -> Self {
        Self {
            url: url.into(),
            exchange: DEFAULT_EXCHANGE.to_owned(),
            outbox_path: outbox_path.into(),
            batch: DEFAULT_BATCH,
            max_backoff: DEFAULT_MAX_BACKOFF,
        }
    }
}

pub use crate::daemon::status::{ConnectionState, PublisherStatus};

/// A handle on the publishing task; cheap to clone.
#[derive(Clone, Debug)]
pub struct Publisher {
    shared: Arc<Shared>,
}

/// What the handle and the task share.
#[derive(Debug)]
struct Shared {
    wake: Notify,
    status: Mutex<PublisherStatus>,
}

impl Shared {
    fn update(&self, change: impl FnOnce(&mut PublisherStatus)) {
        // A panic while holding the lock leaves a status at worst stale, never unsafe.
        let mut status = self.status.lock().unwrap_or_else(PoisonError::into_inner);
        change(&mut status);
    }
}

impl Publisher {
    /// Starts the publishing task on `tracker`; it stops when `shutdown` fires
    /// (finishing in-flight confirms, leaving the rest in the outbox).
    ///
    /// Checks the URL and exchange name and opens the outbox before returning
    /// (a quick, blocking SQLite open), so what no retry can fix is reported
    /// here rather than in a log. Must be called inside a tokio runtime.
    pub fn spawn(
        config: PublisherConfig,
        shutdown: CancellationToken,
        tracker: &TaskTracker,
    ) -> Result<Self, AmqpError> {
        tokio::runtime::Handle::try_current()
            .map_err(|_| AmqpError::NoRuntime("Publisher::spawn"))?;
        topology::check_url(&config.url)?;
        let exchange = topology::short_string("exchange", &config.exchange)?;
        let outbox = Outbox::open(&config.outbox_path)?;
        let backlog = outbox.len()?;
        let shared = Arc::new(Shared {
            wake: Notify::new(),
            status: Mutex::new(PublisherStatus {
                state: ConnectionState::Connecting,
                url: redact(&config.url),
                exchange: config.exchange.clone(),
                backlog,
                published: 0,
                last_error: None,
                last_error_at: None,
                connected_since: None,
            }),
        });
        let task = Task {
            exchange,
            batch: config.batch.max(1),
            max_backoff: config.max_backoff.max(MIN_BACKOFF),
            config,
            outbox: Arc::new(Mutex::new(outbox)),
            shared: Arc::clone(&shared),
            shutdown,
            backoff: MIN_BACKOFF,
        };
        tracker.spawn(task.run());
        Ok(Self { shared })
    }

    /// Tells the task new messages were pushed to the outbox (cheap; never blocks).
    pub fn wake(&self) {
        // notify_one keeps a permit when the task is busy, so a wake during a
        // batch is not lost: the task looks at the outbox again right after.
        self.shared.wake.notify_one();
    }

    /// Current status for `hookd status`.
    pub fn status(&self) -> PublisherStatus {
        self.shared
            .status
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// The publishing task's state.
struct Task {
    config: PublisherConfig,
    exchange: ShortString,
    batch: usize,
    max_backoff: Duration,
    /// The task's own connection to the outbox file, used on blocking threads.
    outbox: Arc<Mutex<Outbox>>,
    shared: Arc<Shared>,
    shutdown: CancellationToken,
    /// Wait before the next retry; reset once publishing works again.
    backoff: Duration,
}

/// Why a batch stopped short.
enum Problem {
    /// The broker refused some messages, the connection is fine: retry after a backoff.
    Nacked(AmqpError),
    /// The connection or channel is unusable: reconnect.
    Broken(AmqpError),
}

/// The outcome of publishing one batch.
struct Sent {
    /// Sequence numbers the broker acknowledged.
    acked: Vec<i64>,
    /// What went wrong, if anything (the worst of it).
    problem: Option<Problem>,
}

impl Sent {
    fn note(&mut self, problem: Problem) {
        // A broken connection outranks a nack: it decides whether we reconnect.
        match (&self.problem, &problem) {
            (None, _) | (Some(Problem::Nacked(_)), Problem::Broken(_)) => {
                self.problem = Some(problem);
            }
            _ => {}
        }
    }
}

impl Task {
    async fn run(mut self) {
        self.refresh_backlog().await;
        while !self.shutdown.is_cancelled() {
            self.shared
                .update(|s| s.state = ConnectionState::Connecting);
            let opened = tokio::select! {
                biased;
                () = self.shutdown.cancelled() => break,
                opened = self.open() => opened,
            };
            match opened {
                Ok((connection, channel)) => {
                    tracing::info!(broker = %redact(&self.config.url), exchange = %self.config.exchange, "RabbitMQ publisher connected");
                    self.shared.update(|s| {
                        s.state = ConnectionState::Connected;
                        s.connected_since = Some(timefmt::now());
                    });
                    let outcome = self.pump(&connection, &channel).await;
                    close(&connection).await;
                    self.shared.update(|s| {
                        s.state = ConnectionState::Disconnected;
                        s.connected_since = None;
                    });
                    match outcome {
                        Ok(()) => break,
                        Err(err) => self.record_error(&err),
                    }
                }
                Err(err) => {
                    self.shared
                        .update(|s| s.state = ConnectionState::Disconnected);
                    self.record_error(&err);
                }
            }
            self.pause().await;
        }
        self.shared.update(|s| {
            s.state = ConnectionState::Disconnected;
            s.connected_since = None;
        });
        tracing::debug!("RabbitMQ publisher stopped");
    }

    /// Connects, opens a channel with publisher confirms, declares the exchange.
    async fn open(&self) -> Result<(Connection, Channel), AmqpError> {
        let connection = topology::connect(&self.config.url).await?;
        let setup = async {
            let channel = connection
                .create_channel()
                .await
                .map_err(|e| AmqpError::broker("opening a channel", e))?;
            channel
                .confirm_select(ConfirmSelectOptions::default())
                .await
                .map_err(|e| AmqpError::broker("enabling publisher confirms", e))?;
            topology::declare_exchange(&channel, &self.config.exchange).await?;
            Ok(channel)
        };
        let outcome = match tokio::time::timeout(CONFIRM_TIMEOUT, setup).await {
            Ok(outcome) => outcome,
            Err(_) => Err(AmqpError::Timeout {
                context: "setting up the publishing channel".into(),
                after: CONFIRM_TIMEOUT,
            }),
        };
        match outcome {
            Ok(channel) => Ok((connection, channel)),
            Err(err) => {
                close(&connection).await;
                Err(err)
            }
        }
    }

    /// Publishes batches while connected; returns `Ok` on shutdown, `Err`
    /// when the connection must be re-established.
    async fn pump(&mut self, connection: &Connection, channel: &Channel) -> Result<(), AmqpError> {
        loop {
            if self.shutdown.is_cancelled() {
                return Ok(());
            }
            if !connection.status().connected() || !channel.status().connected() {
                return Err(AmqpError::ConnectionLost {
                    url: redact(&self.config.url),
                });
            }
            let limit = self.batch;
            // An unreadable outbox ends the session like a broker error: the
            // retry with backoff is what we want for both, and it shows in status.
            let batch = self
                .with_outbox(move |outbox| outbox.peek_bounded(limit, MAX_BATCH_BYTES))
                .await?;
            if batch.is_empty() {
                self.shared.update(|s| s.backlog = 0);
                // Idle on a healthy connection: the next failure starts small again.
                self.backoff = MIN_BACKOFF;
                tokio::select! {
                    biased;
                    () = self.shutdown.cancelled() => return Ok(()),
                    () = self.shared.wake.notified() => {}
                    () = tokio::time::sleep(IDLE_TICK) => {}
                }
                continue;
            }
            let sent = self.publish(channel, batch).await;
            if !sent.acked.is_empty() {
                let confirmed = sent.acked.len() as u64;
                let seqs = sent.acked;
                // If this fails the messages are published again later: a
                // duplicate, which consumers absorb, never a loss.
                let backlog = self
                    .with_outbox(move |outbox| {
                        outbox.remove(&seqs)?;
                        outbox.len()
                    })
                    .await?;
                // One update, so a reader never sees the new count with the old backlog.
                self.shared.update(|s| {
                    s.published += confirmed;
                    s.backlog = backlog;
                });
            } else {
                self.refresh_backlog().await;
            }
            match sent.problem {
                None => self.backoff = MIN_BACKOFF,
                Some(Problem::Nacked(err)) => {
                    self.record_error(&err);
                    self.pause().await;
                }
                Some(Problem::Broken(err)) => return Err(err),
            }
        }
    }

    /// Publishes one batch in order and waits for every confirm.
    async fn publish(&self, channel: &Channel, batch: Vec<(i64, OutboxMessage)>) -> Sent {
        let mut sent = Sent {
            acked: Vec::with_capacity(batch.len()),
            problem: None,
        };
        let mut pending = Vec::with_capacity(batch.len());
        for (seq, message) in batch {
            // On shutdown, publish nothing new; what is in flight still counts.
            if self.shutdown.is_cancelled() {
                break;
            }
            let published = channel
                .basic_publish(
                    self.exchange.clone(),
                    short(&message.routing_key),
                    BasicPublishOptions::default(),
                    &message.body,
                    properties(&message),
                )
                .await;
            match published {
                Ok(confirm) => pending.push((seq, message.event_id, confirm)),
                Err(source) => {
                    sent.note(Problem::Broken(AmqpError::broker(
                        format!("publishing to exchange {}", self.config.exchange),
                        source,
                    )));
                    break;
                }
            }
        }

        let grace = |now: Instant| {
            now + if self.shutdown.is_cancelled() {
                SHUTDOWN_GRACE
            } else {
                CONFIRM_TIMEOUT
            }
        };
        let mut deadline = grace(Instant::now());
        let mut shortened = self.shutdown.is_cancelled();
        for (seq, event_id, confirm) in pending {
            let mut confirm = std::pin::pin!(confirm);
            // A timed-out wait still polls the confirm once, so confirms that
            // already arrived are counted even after the deadline.
            let outcome = loop {
                tokio::select! {
                    biased;
                    outcome = tokio::time::timeout_at(deadline, &mut confirm) => break outcome,
                    () = self.shutdown.cancelled(), if !shortened => {
                        shortened = true;
                        deadline = deadline.min(grace(Instant::now()));
                    }
                }
            };
            match outcome {
                Ok(Ok(Confirmation::Ack(_))) => sent.acked.push(seq),
                Ok(Ok(Confirmation::Nack(_))) => {
                    sent.note(Problem::Nacked(AmqpError::NotConfirmed {
                        event_id,
                        reason: "the broker nacked it".into(),
                    }));
                }
                Ok(Ok(Confirmation::NotRequested)) => {
                    sent.note(Problem::Broken(AmqpError::NotConfirmed {
                        event_id,
                        reason: "publisher confirms are off on the channel".into(),
                    }));
                }
                Ok(Err(source)) => sent.note(Problem::Broken(AmqpError::broker(
                    format!("waiting for the confirm of {event_id}"),
                    source,
                ))),
                Err(_) => sent.note(Problem::Broken(AmqpError::Timeout {
                    context: format!("waiting for the confirm of {event_id}"),
                    after: CONFIRM_TIMEOUT,
                })),
            }
        }
        sent
    }

    /// Waits `backoff` (doubling it for next time), refreshing the backlog on
    /// wakes so status stays current while the broker is away.
    async fn pause(&mut self) {
        let deadline = Instant::now() + self.backoff;
        self.backoff = (self.backoff * 2).min(self.max_backoff);
        loop {
            tokio::select! {
                biased;
                () = self.shutdown.cancelled() => return,
                () = tokio::time::sleep_until(deadline) => return,
                () = self.shared.wake.notified() => self.refresh_backlog().await,
            }
        }
    }

    fn record_error(&self, err: &AmqpError) {
        let message = ErrorChain(err)
            .to_string()
            .replace(&self.config.url, &redact(&self.config.url));
        tracing::warn!(broker = %redact(&self.config.url), error = %message, retry_in = ?self.backoff, "RabbitMQ publisher");
        self.shared.update(|s| {
            s.last_error = Some(message);
            s.last_error_at = Some(timefmt::now());
        });
    }

    async fn refresh_backlog(&self) {
        match self.with_outbox(|outbox| outbox.len()).await {
            Ok(backlog) => self.shared.update(|s| s.backlog = backlog),
            Err(err) => tracing::warn!(error = %ErrorChain(&err), "cannot count the AMQP outbox"),
        }
    }

    /// Runs blocking outbox work off the async workers.
    async fn with_outbox<T, F>(&self, work: F) -> Result<T, AmqpError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Outbox) -> Result<T, AmqpError> + Send + 'static,
    {
        let outbox = Arc::clone(&self.outbox);
        tokio::task::spawn_blocking(move || {
            let mut outbox = outbox.lock().unwrap_or_else(PoisonError::into_inner);
            work(&mut outbox)
        })
        .await
        .map_err(AmqpError::OutboxWorker)?
    }
}

/// Closes a connection politely, if it is still up; errors only mean it is
/// already gone.
async fn close(connection: &Connection) {
    if !connection.status().connected() {
        return;
    }
    match tokio::time::timeout(
        CLOSE_TIMEOUT,
        connection.close(200, "hookd publisher stopping".into()),
    )
    .await
    {
        Ok(Ok(())) => {}
        Ok(Err(err)) => tracing::debug!(error = %err, "closing the RabbitMQ connection"),
        Err(_) => tracing::debug!("closing the RabbitMQ connection timed out"),
    }
}

/// The AMQP properties of a message: JSON, persistent, identified by its event id.
fn properties(message: &OutboxMessage) -> BasicProperties {
    BasicProperties::default()
        .with_content_type(CONTENT_TYPE.into())
        .with_delivery_mode(2)
        .with_message_id(short(&message.event_id))
        .with_timestamp(message.timestamp)
        .with_app_id(APP_ID.into())
        .with_headers(field_table(&message.headers))
}

/// A short string cut to 255 bytes: lapin's `From` panics on longer ones,
/// and one odd message must not stop the publisher.
fn short(text: &str) -> ShortString {
    ShortString::from(truncate_utf8(text, MAX_SHORT_STRING))
}

/// JSON headers as an AMQP field table.
fn field_table(map: &Map<String, Value>) -> FieldTable {
    let mut table = FieldTable::default();
    for (key, value) in map {
        table.insert(short(key), amqp_value(value));
    }
    table
}

fn amqp_value(value: &Value) -> AMQPValue {
    match value {
        Value::Null => AMQPValue::Void,
        Value::Bool(b) => AMQPValue::Boolean(*b),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => AMQPValue::LongLongInt(i),
            (None, Some(f)) => AMQPValue::Double(f),
            (None, None) => AMQPValue::LongString(LongString::from(n.to_string())),
        },
        Value::String(s) => AMQPValue::LongString(LongString::from(s.as_str())),
        Value::Array(items) => AMQPValue::FieldArray(FieldArray::from(
            items.iter().map(amqp_value).collect::<Vec<_>>(),
        )),
        Value::Object(map) => AMQPValue::FieldTable(field_table(map)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_become_amqp_values() {
        let mut map = Map::new();
        map.insert("schema_version".into(), 1.into());
        map.insert("hook_type".into(), "post_tool_use".into());
        map.insert("missing".into(), Value::Null);
        map.insert("flag".into(), true.into());
        let table = field_table(&map);
        let inner = table.inner();
        assert_eq!(
            inner.get("schema_version"),
            Some(&AMQPValue::LongLongInt(1))
        );
        assert_eq!(
            inner.get("hook_type"),
            Some(&AMQPValue::LongString("post_tool_use".into()))
        );
        assert_eq!(inner.get("missing"), Some(&AMQPValue::Void));
        assert_eq!(inner.get("flag"), Some(&AMQPValue::Boolean(true)));
    }

    #[test]
    fn overlong_names_are_cut_not_fatal() {
        assert_eq!(short(&"k".repeat(300)).as_str().len(), 255);
    }

    #[test]
    fn status_state_serialises_snake_case() {
        let text = serde_json::to_string(&ConnectionState::Disconnected).unwrap();
        assert_eq!(text, "\"disconnected\"");
    }
}
