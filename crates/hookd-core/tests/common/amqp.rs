//! Helpers for the AMQP suites that need lapin itself (hookd-testkit does
//! not depend on it): a connection of the test's own, an independent
//! consumer that reconnects after a broker restart, an independent
//! publisher with confirms, queue depths, the publisher's ledger entries
//! and the consumer running in the background. The broker's URL, unique
//! names, the throw-away topology, ledger reads and waiting come from
//! hookd-testkit.
//!
//! No broker is a loud failure, never a skip: these tests exist to prove
//! the broker path works.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hookd_core::amqp::consumer::{ConsumerConfig, ConsumerReport};
use hookd_core::amqp::outbox::OutboxMessage;
use hookd_core::amqp::{ToolMutationEvent, topology};
use hookd_core::record::{HookEvent, LedgerEntry, MutationRecord, RepoFacts};
use hookd_testkit::amqp::{broker_url, no_broker};
use lapin::message::DeliveryResult;
use lapin::options::{
    BasicAckOptions, BasicConsumeOptions, BasicPublishOptions, BasicQosOptions,
    ConfirmSelectOptions, ExchangeDeleteOptions, QueueBindOptions, QueueDeclareOptions,
    QueueDeleteOptions,
};
use lapin::types::{AMQPValue, FieldTable};
use lapin::{BasicProperties, Channel, Confirmation, Connection, ConnectionProperties};
use tokio::sync::{Notify, mpsc};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// A connection of the test's own to the test broker, independent of the
/// code under test; fails the test loudly when there is no broker.
pub async fn require_broker() -> Connection {
    match topology::connect(&broker_url()).await {
        Ok(connection) => connection,
        Err(err) => no_broker(err),
    }
}

/// A ledger entry like the ingest thread builds: `tool` events get one
/// mutation row, others none.
pub fn entry(i: usize, hook_type: &str, tool: Option<&str>) -> LedgerEntry {
    let event_id = uuid::Uuid::now_v7().to_string();
    let payload = serde_json::json!({
        "session_id": "sess-1",
        "tool_name": tool,
        "seq": i,
        "tool_input": {"file_path": format!("/repo/src/f{i}.rs"), "content": "a\nb\n"},
    });
    let event = HookEvent {
        event_id: event_id.clone(),
        hook_type: hook_type.to_owned(),
        tool_name: tool.map(str::to_owned),
        agent_id: "claude-code".to_owned(),
        session_id: Some("sess-1".to_owned()),
        tool_use_id: tool.map(|_| format!("toolu_{i}")),
        cwd: Some("/repo".into()),
        file_path: tool.map(|_| format!("/repo/src/f{i}.rs").into()),
        lines_changed: tool.map(|_| 2),
        lines_added: None,
        lines_removed: None,
        command: (tool == Some("Bash")).then(|| "touch x".to_owned()),
        payload_valid: true,
        raw_payload: payload.to_string(),
        event_timestamp: "2026-11-21T10:00:00.123Z".to_owned(),
        received_at: "2026-11-21T10:00:00.200Z".to_owned(),
        source_pid: Some(4242),
        flags: Vec::new(),
        // Every other event another agent's, to carry the field through.
        agent_kind: if i % 2 == 1 { "codex" } else { "claude" }.to_owned(),
    };
    let repo = RepoFacts {
        git_root: Some("/repo".into()),
        branch: "main".to_owned(),
        head_sha: "0123abcd".to_owned(),
        remote_url: Some("git@example.invalid:r.git".to_owned()),
    };
    let mutations = match tool {
        Some(tool) => vec![MutationRecord {
            event_type: format!("tool.mutation.{}", tool.to_lowercase()),
            hook_type: hook_type.to_owned(),
            tool_name: tool.to_owned(),
            agent_id: "claude-code".to_owned(),
            file_path: Some(format!("src/f{i}.rs")),
            file_ext: Some("rs".to_owned()),
            lines_changed: Some(2),
            lines_added: None,
            lines_removed: None,
            branch: "main".to_owned(),
            head_sha: "0123abcd".to_owned(),
            raw_payload: payload.to_string(),
            event_timestamp: event.event_timestamp.clone(),
            received_at: event.received_at.clone(),
            event_id,
            mutation_seq: 0,
            session_id: Some("sess-1".to_owned()),
            tool_use_id: event.tool_use_id.clone(),
            remote_url: repo.remote_url.clone(),
            command: event.command.clone(),
            source_pid: Some(4242),
            flags: Vec::new(),
            before: None,
            after: None,
            agent_kind: event.agent_kind.clone(),
        }],
        None => Vec::new(),
    };
    LedgerEntry {
        event,
        repo,
        mutations,
    }
}

/// `n` Write events as outbox messages, in order.
pub fn write_messages(n: usize) -> Vec<OutboxMessage> {
    (0..n)
        .map(|i| OutboxMessage::from_entry(&entry(i, "post_tool_use", Some("Write"))))
        .collect()
}

/// One message as the test consumer saw it.
#[derive(Debug, Clone)]
pub struct Received {
    /// Exchange it was published to.
    pub exchange: String,
    /// Its routing key.
    pub routing_key: String,
    /// Its properties (content type, delivery mode, message id, headers...).
    pub properties: BasicProperties,
    /// Its body.
    pub data: Vec<u8>,
}

impl Received {
    /// The `message_id` property.
    pub fn message_id(&self) -> String {
        self.properties
            .message_id()
            .as_ref()
            .map(|id| id.as_str().to_owned())
            .unwrap_or_default()
    }

    /// A header, if present.
    pub fn header(&self, name: &str) -> Option<AMQPValue> {
        self.properties
            .headers()
            .as_ref()
            .and_then(|h| h.inner().get(name).cloned())
    }
}

/// An independent consumer: its own connection and durable queue bound to
/// the test exchange; reconnects (and re-consumes) after the broker restarts.
pub struct TestConsumer {
    /// The queue's name.
    pub queue: String,
    exchange: String,
    received: mpsc::UnboundedReceiver<Received>,
    sender: mpsc::UnboundedSender<Received>,
    stop: CancellationToken,
    task: Option<tokio::task::JoinHandle<()>>,
    cleaned: bool,
}

impl TestConsumer {
    /// Declares the exchange (durable topic, as the publisher does) and a
    /// durable queue bound with `bindings`, and starts consuming.
    pub async fn start(exchange: &str, bindings: &[&str]) -> Self {
        let mut consumer = Self::declare(exchange, bindings, FieldTable::default()).await;
        consumer.consume();
        consumer
    }

    /// Declares the exchange and a queue with extra `arguments` (`x-max-length`...),
    /// bound with `bindings`, without consuming yet (see [`TestConsumer::consume`]).
    pub async fn declare(exchange: &str, bindings: &[&str], arguments: FieldTable) -> Self {
        let connection = require_broker().await;
        let channel = connection.create_channel().await.unwrap();
        // Declaring with durable+topic after the publisher did fails
        // (PRECONDITION_FAILED) unless the publisher declared it the same way.
        topology::declare_exchange(&channel, exchange)
            .await
            .expect("exchange must be a durable topic exchange");
        let queue = format!("{exchange}.q.{}", uuid::Uuid::now_v7());
        channel
            .queue_declare(
                queue.as_str().into(),
                QueueDeclareOptions {
                    durable: true,
                    ..QueueDeclareOptions::default()
                },
                queue_arguments(arguments),
            )
            .await
            .unwrap();
        for binding in bindings {
            channel
                .queue_bind(
                    queue.as_str().into(),
                    exchange.into(),
                    (*binding).into(),
                    QueueBindOptions::default(),
                    FieldTable::default(),
                )
                .await
                .unwrap();
        }
        connection.close(200, "bound".into()).await.unwrap();

        let (sender, received) = mpsc::unbounded_channel();
        Self {
            queue,
            exchange: exchange.to_owned(),
            received,
            sender,
            stop: CancellationToken::new(),
            task: None,
            cleaned: false,
        }
    }

    /// Starts consuming (and acking) the queue.
    pub fn consume(&mut self) {
        if self.task.is_none() {
            self.task = Some(tokio::spawn(consume_forever(
                self.queue.clone(),
                self.sender.clone(),
                self.stop.clone(),
            )));
        }
    }

    /// The next message, or `None` after `wait`.
    pub async fn next(&mut self, wait: Duration) -> Option<Received> {
        tokio::time::timeout(wait, self.received.recv())
            .await
            .ok()
            .flatten()
    }

    /// Exactly `n` messages (panics with how many came if fewer arrive within `wait`).
    pub async fn take(&mut self, n: usize, wait: Duration) -> Vec<Received> {
        let deadline = tokio::time::Instant::now() + wait;
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            match tokio::time::timeout_at(deadline, self.received.recv()).await {
                Ok(Some(message)) => out.push(message),
                _ => panic!("only {} of {n} messages arrived within {wait:?}", out.len()),
            }
        }
        out
    }

    /// Receives until `distinct` different message ids have arrived; returns
    /// every delivery (duplicates included).
    pub async fn take_distinct(&mut self, distinct: usize, wait: Duration) -> Vec<Received> {
        let deadline = tokio::time::Instant::now() + wait;
        let mut ids = HashSet::new();
        let mut out = Vec::new();
        while ids.len() < distinct {
            match tokio::time::timeout_at(deadline, self.received.recv()).await {
                Ok(Some(message)) => {
                    ids.insert(message.message_id());
                    out.push(message);
                }
                _ => panic!(
                    "only {} distinct of {distinct} messages arrived within {wait:?}",
                    ids.len()
                ),
            }
        }
        out
    }

    /// Stops consuming and deletes the queue and the exchange.
    pub async fn cleanup(mut self) {
        self.stop.cancel();
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
        delete_topology(&self.queue, &self.exchange)
            .await
            .expect("deleting the test queue and exchange");
        self.cleaned = true;
    }
}

impl Drop for TestConsumer {
    /// A test that failed before `cleanup` still removes its queue and
    /// exchange from the shared broker (on a thread of its own: Drop cannot await).
    fn drop(&mut self) {
        self.stop.cancel();
        if self.cleaned {
            return;
        }
        let (queue, exchange) = (self.queue.clone(), self.exchange.clone());
        let deleted = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .ok()?;
            // The timer must be created inside the runtime, hence the async block.
            runtime
                .block_on(async {
                    tokio::time::timeout(
                        Duration::from_secs(10),
                        delete_topology(&queue, &exchange),
                    )
                    .await
                })
                .ok()?
                .ok()
        })
        .join();
        if !matches!(deleted, Ok(Some(()))) {
            eprintln!(
                "could not delete test queue {} / exchange {}",
                self.queue, self.exchange
            );
        }
    }
}

async fn delete_topology(queue: &str, exchange: &str) -> Result<(), lapin::Error> {
    let connection = Connection::connect(&broker_url(), ConnectionProperties::default()).await?;
    let channel = connection.create_channel().await?;
    channel
        .queue_delete(queue.into(), QueueDeleteOptions::default())
        .await?;
    channel
        .exchange_delete(exchange.into(), ExchangeDeleteOptions::default())
        .await?;
    connection.close(200, "cleanup".into()).await
}

/// Queues expire when unused for 10 minutes, so a failed test that never
/// reached its cleanup does not leave them on the shared broker for good.
fn queue_arguments(mut arguments: FieldTable) -> FieldTable {
    arguments.insert("x-expires".into(), AMQPValue::LongInt(600_000));
    arguments
}

/// Consumes `queue` until `stop`, reconnecting whenever the connection ends.
async fn consume_forever(
    queue: String,
    tx: mpsc::UnboundedSender<Received>,
    stop: CancellationToken,
) {
    while !stop.is_cancelled() {
        if let Err(err) = consume_once(&queue, &tx, &stop).await {
            eprintln!("test consumer: {err}; reconnecting");
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(Duration::from_millis(200)) => {}
        }
    }
}

async fn consume_once(
    queue: &str,
    tx: &mpsc::UnboundedSender<Received>,
    stop: &CancellationToken,
) -> Result<(), lapin::Error> {
    let connection = Connection::connect(&broker_url(), ConnectionProperties::default()).await?;
    let channel = connection.create_channel().await?;
    channel.basic_qos(200, BasicQosOptions::default()).await?;
    let consumer = channel
        .basic_consume(
            queue.into(),
            format!("test-{}", uuid::Uuid::now_v7()).into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await?;
    let ended = Arc::new(Notify::new());
    let delegate_tx = tx.clone();
    let delegate_ended = Arc::clone(&ended);
    // lapin runs each delegate future as its own task (in any order), but
    // calls the closure itself in delivery order: forward there, ack later.
    consumer.set_delegate(move |delivery: DeliveryResult| {
        let delivery = match delivery {
            Ok(Some(delivery)) => {
                let _ = delegate_tx.send(Received {
                    exchange: delivery.exchange.as_str().to_owned(),
                    routing_key: delivery.routing_key.as_str().to_owned(),
                    properties: delivery.properties.clone(),
                    data: delivery.data.clone(),
                });
                Some(delivery)
            }
            Ok(None) | Err(_) => {
                delegate_ended.notify_one();
                None
            }
        };
        async move {
            if let Some(delivery) = delivery {
                // A lost ack means a redelivery: the tests dedupe by message id.
                let _ = delivery.ack(BasicAckOptions::default()).await;
            }
        }
    });
    // lapin does not always tell the consumer when the broker closes the
    // connection (stop_app), so the connection's state is watched too.
    while connection.status().connected() {
        tokio::select! {
            () = stop.cancelled() => break,
            () = ended.notified() => break,
            () = tokio::time::sleep(Duration::from_millis(100)) => {}
        }
    }
    if connection.status().connected() {
        let _ = connection.close(200, "done".into()).await;
    }
    Ok(())
}

/// Records values (status snapshots, timings) from several tasks.
pub type Log<T> = Arc<Mutex<Vec<T>>>;

/// An independent publisher with confirms, like a daemon's.
pub struct Publisher {
    /// Its own connection to the test broker.
    pub connection: Connection,
    /// A channel in confirm mode.
    pub channel: Channel,
    /// Where it publishes.
    pub exchange: String,
}

impl Publisher {
    /// Connects and turns publisher confirms on.
    pub async fn new(exchange: &str) -> Self {
        let connection = require_broker().await;
        let channel = connection.create_channel().await.expect("channel");
        channel
            .confirm_select(ConfirmSelectOptions::default())
            .await
            .expect("confirm_select");
        Self {
            connection,
            channel,
            exchange: exchange.to_owned(),
        }
    }

    /// Publishes each event as a daemon would and waits for every confirm.
    pub async fn events(&self, events: &[ToolMutationEvent]) {
        let mut confirms = Vec::with_capacity(events.len());
        for event in events {
            let body = serde_json::to_vec(event).expect("serialize event");
            confirms.push(
                self.raw_with_id(&event.event_type, &body, &event.event_id)
                    .await,
            );
        }
        for confirm in confirms {
            assert!(
                matches!(confirm.await.expect("confirm"), Confirmation::Ack(_)),
                "broker did not ack a publish"
            );
        }
    }

    /// Publishes `body` as is under `key` and waits for the confirm.
    pub async fn raw(&self, key: &str, body: &[u8]) {
        let id = uuid::Uuid::now_v7().to_string();
        let confirm = self.raw_with_id(key, body, &id).await;
        assert!(matches!(
            confirm.await.expect("confirm"),
            Confirmation::Ack(_)
        ));
    }

    async fn raw_with_id(&self, key: &str, body: &[u8], id: &str) -> lapin::PublisherConfirm {
        let properties = BasicProperties::default()
            .with_content_type("application/json".into())
            .with_delivery_mode(2)
            .with_message_id(id.into());
        self.channel
            .basic_publish(
                self.exchange.as_str().into(),
                key.into(),
                BasicPublishOptions::default(),
                body,
                properties,
            )
            .await
            .expect("publish")
    }
}

/// Messages ready in `queue` (passive declare), from a fresh channel so a
/// missing queue cannot break the caller's channel.
pub async fn depth(connection: &Connection, queue: &str) -> u32 {
    let channel = connection.create_channel().await.expect("channel");
    let declared = channel
        .queue_declare(
            queue.into(),
            QueueDeclareOptions {
                passive: true,
                ..QueueDeclareOptions::default()
            },
            FieldTable::default(),
        )
        .await
        .unwrap_or_else(|err| panic!("queue {queue}: {err}"));
    let _ = channel.close(200, "ok".into()).await;
    declared.message_count()
}

/// A consumer running in the background.
pub struct Running {
    /// Stops it.
    pub shutdown: CancellationToken,
    /// The consumer's task, which ends with its report.
    pub task: JoinHandle<Result<ConsumerReport, hookd_core::amqp::AmqpError>>,
}

impl Running {
    /// Spawns `hookd_core::amqp::consumer::run` with `config`.
    pub fn start(config: ConsumerConfig) -> Self {
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(hookd_core::amqp::consumer::run(config, shutdown.clone()));
        Self { shutdown, task }
    }

    /// Fires the shutdown and waits (bounded) for the report.
    pub async fn stop(self) -> ConsumerReport {
        self.shutdown.cancel();
        tokio::time::timeout(Duration::from_secs(20), self.task)
            .await
            .expect("consumer did not stop within 20 s of shutdown")
            .expect("consumer task panicked")
            .expect("consumer failed")
    }
}
