//! The RabbitMQ side of the fixture: a connection of the bench's own to the
//! real broker, a throw-away exchange and queues for one measurement, queue
//! depths read by passive declare, and deletion of all of it at the end.
//!
//! The broker is shared (other benches, tests and engineers use it), so
//! every run gets its own topic exchange `hookd.bench.<uuid>` and queues
//! named after it, and removes them when done, on error paths too. The
//! release profile aborts on panic, so queues the bench declares itself also
//! carry `x-expires`: a run killed half-way leaves nothing behind for long.
//! The ledger consumer's queue is declared with hookd's own arguments (any
//! other would conflict with the consumer's declaration), so it relies on
//! the explicit cleanup alone. The broker itself is never touched beyond
//! that.
//!
//! The bench's connection is separate from the publisher's and the
//! consumer's, and runs on its own one-worker runtime, so reading depths
//! takes nothing from the runtimes being measured.

use std::future::Future;
use std::time::Duration;

use anyhow::{Context as _, Result, anyhow};
use hookd_core::amqp::consumer::{self, dead_letter_exchange, parking_queue};
use hookd_core::amqp::topology::{self, redact};
use lapin::options::{
    ExchangeDeleteOptions, QueueBindOptions, QueueDeclareOptions, QueueDeleteOptions,
};
use lapin::types::{AMQPValue, FieldTable};
use lapin::{Channel, Connection};

/// The broker the bench uses unless told otherwise: the local RabbitMQ.
pub const DEFAULT_URL: &str = "amqp://guest:guest@127.0.0.1:5672/%2f";

/// Binding key of every queue the bench reads: all events.
pub const ALL_EVENTS: &str = "#";

/// How long an unused bench queue survives a run that died before its cleanup.
const QUEUE_EXPIRY: Duration = Duration::from_secs(15 * 60);

/// Longest any single broker call of the bench may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(15);

/// A connection to the broker with one unique exchange and the queues
/// declared on it; deleted by [`Broker::cleanup`], or on drop.
pub struct Broker {
    runtime: tokio::runtime::Runtime,
    connection: Connection,
    channel: Channel,
    url: String,
    exchange: String,
    /// Queues to delete at the end.
    queues: Vec<String>,
    /// Exchanges to delete at the end, after the queues.
    exchanges: Vec<String>,
    cleaned: bool,
}

impl Broker {
    /// Connects to `url` and declares a unique durable topic exchange, as the
    /// publisher declares `hookd.events`.
    pub fn connect(url: &str) -> Result<Self> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("hookd-bench-broker")
            .enable_all()
            .build()
            .context("cannot start the broker client's runtime")?;
        let connection = runtime.block_on(topology::connect(url)).context(
            "cannot connect to RabbitMQ; these measurements need a real broker \
             (start one with `rabbitmq-server -detached`, or pass --amqp-url)",
        )?;
        let exchange = format!("hookd.bench.{}", uuid::Uuid::now_v7());
        let broker = Self {
            channel: runtime
                .block_on(connection.create_channel())
                .context("cannot open a channel")?,
            runtime,
            connection,
            url: url.to_owned(),
            exchange: exchange.clone(),
            queues: Vec::new(),
            exchanges: vec![exchange],
            cleaned: false,
        };
        broker.call(
            "declaring the bench exchange",
            topology::declare_exchange(&broker.channel, &broker.exchange),
        )?;
        Ok(broker)
    }

    /// The broker URL (with its password: pass it to hookd, print [`redact`]ed).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The run's exchange, `hookd.bench.<uuid>`.
    pub fn exchange(&self) -> &str {
        &self.exchange
    }

    /// Declares the durable queue `<exchange>.<role>` bound to every event,
    /// so what is published to the exchange is routed and persisted.
    pub fn declare_queue(&mut self, role: &str) -> Result<String> {
        let queue = format!("{}.{role}", self.exchange);
        let mut arguments = FieldTable::default();
        let expiry = i32::try_from(QUEUE_EXPIRY.as_millis()).unwrap_or(i32::MAX);
        arguments.insert("x-expires".into(), AMQPValue::LongInt(expiry));
        self.queues.push(queue.clone());
        let channel = &self.channel;
        self.call(&format!("declaring queue {queue}"), async {
            channel
                .queue_declare(
                    queue.as_str().into(),
                    QueueDeclareOptions {
                        durable: true,
                        ..QueueDeclareOptions::default()
                    },
                    arguments,
                )
                .await?;
            channel
                .queue_bind(
                    queue.as_str().into(),
                    self.exchange.as_str().into(),
                    ALL_EVENTS.into(),
                    QueueBindOptions::default(),
                    FieldTable::default(),
                )
                .await
        })?;
        Ok(queue)
    }

    /// Declares the ledger topology a consumer of queue `<exchange>.<role>`
    /// uses (its queue, dead-letter exchange and parking queue), exactly as
    /// the consumer does, so nothing published before the consumer is up is
    /// dropped as unroutable.
    pub fn declare_ledger_queue(&mut self, role: &str) -> Result<String> {
        let queue = format!("{}.{role}", self.exchange);
        self.queues.push(queue.clone());
        self.queues.push(parking_queue(&queue));
        self.exchanges.push(dead_letter_exchange(&self.exchange));
        self.call(
            &format!("declaring the ledger queue {queue}"),
            consumer::declare_ledger_queue(&self.channel, &self.exchange, &queue),
        )?;
        Ok(queue)
    }

    /// Messages ready in `queue`, by passive declare.
    pub fn depth(&self, queue: &str) -> Result<u32> {
        let declared = self.call(
            &format!("counting the messages in {queue}"),
            self.channel.queue_declare(
                queue.into(),
                QueueDeclareOptions {
                    passive: true,
                    ..QueueDeclareOptions::default()
                },
                FieldTable::default(),
            ),
        )?;
        Ok(declared.message_count())
    }

    /// Deletes `queue` now (with its messages) instead of at the end.
    pub fn delete_queue(&mut self, queue: &str) -> Result<()> {
        self.call(
            &format!("deleting queue {queue}"),
            self.channel
                .queue_delete(queue.into(), QueueDeleteOptions::default()),
        )?;
        self.queues.retain(|q| q != queue);
        Ok(())
    }

    /// Deletes every queue, then every exchange, the run declared, and closes
    /// the connection; the first failure is returned after trying them all.
    pub fn cleanup(mut self) -> Result<()> {
        self.cleaned = true;
        self.delete_all()
    }

    fn delete_all(&mut self) -> Result<()> {
        let mut first_error = None;
        // A failed call (say, a passive declare of a missing queue) closes
        // the channel; the deletions need a working one.
        if !self.channel.status().connected() {
            match self.call("reopening a channel", self.connection.create_channel()) {
                Ok(channel) => self.channel = channel,
                Err(err) => return Err(err),
            }
        }
        let queues = std::mem::take(&mut self.queues);
        let exchanges = std::mem::take(&mut self.exchanges);
        for queue in &queues {
            let deleted = self.call(
                &format!("deleting queue {queue}"),
                self.channel
                    .queue_delete(queue.as_str().into(), QueueDeleteOptions::default()),
            );
            if let Err(err) = deleted {
                first_error.get_or_insert(err);
            }
        }
        let mut seen = Vec::new();
        for exchange in &exchanges {
            if seen.contains(&exchange) {
                continue;
            }
            seen.push(exchange);
            let deleted = self.call(
                &format!("deleting exchange {exchange}"),
                self.channel
                    .exchange_delete(exchange.as_str().into(), ExchangeDeleteOptions::default()),
            );
            if let Err(err) = deleted {
                first_error.get_or_insert(err);
            }
        }
        // Closing is a courtesy: the broker drops a vanished connection anyway.
        let _ = self.call(
            "closing the bench's connection",
            self.connection.close(200, "hookd-bench done".into()),
        );
        first_error.map_or(Ok(()), Err)
    }

    /// Runs one broker call on the client's runtime, bounded by [`CALL_TIMEOUT`].
    fn call<T, E>(&self, what: &str, call: impl Future<Output = Result<T, E>>) -> Result<T>
    where
        E: std::error::Error + Send + Sync + 'static,
    {
        self.runtime
            .block_on(async { tokio::time::timeout(CALL_TIMEOUT, call).await })
            .map_err(|_| anyhow!("{what}: no answer from the broker within {CALL_TIMEOUT:?}"))?
            .with_context(|| what.to_owned())
    }
}

impl Drop for Broker {
    /// A measurement that failed before [`Broker::cleanup`] still removes its
    /// exchange and queues from the shared broker.
    fn drop(&mut self) {
        if self.cleaned {
            return;
        }
        if let Err(err) = self.delete_all() {
            eprintln!(
                "could not delete the bench's broker objects on {} (exchange {}): {err:#}",
                redact(&self.url),
                self.exchange
            );
        }
    }
}
