//! The RabbitMQ publisher against the real broker on 127.0.0.1:5672: what
//! a message looks like on the wire, order, confirms emptying the outbox, and
//! a daemon restarted while the broker was unreachable. Every test uses its
//! own exchange and queues (the broker is shared) and fails loudly when no
//! broker is reachable.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::amqp::{Received, TestConsumer, entry, require_broker, write_messages};
use hookd_core::amqp::message::{CONTENT_TYPE, SCHEMA_VERSION, ToolMutationEvent};
use hookd_core::amqp::outbox::{OUTBOX_FILE, Outbox, OutboxMessage};
use hookd_core::amqp::publisher::{ConnectionState, Publisher, PublisherConfig, PublisherStatus};
use hookd_testkit::amqp::{UNREACHABLE_BROKER_URL, broker_url};
use hookd_testkit::{unique_name, wait_until_async};
use lapin::types::{AMQPValue, FieldTable};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// A running publisher with what it takes to stop it.
struct Running {
    publisher: Publisher,
    shutdown: CancellationToken,
    tracker: TaskTracker,
}

impl Running {
    fn start(config: PublisherConfig) -> Self {
        let shutdown = CancellationToken::new();
        let tracker = TaskTracker::new();
        let publisher = Publisher::spawn(config, shutdown.clone(), &tracker).unwrap();
        Self {
            publisher,
            shutdown,
            tracker,
        }
    }

    fn status(&self) -> PublisherStatus {
        self.publisher.status()
    }

    /// Fires shutdown and checks the task actually ends.
    async fn stop(self) -> PublisherStatus {
        self.shutdown.cancel();
        self.tracker.close();
        tokio::time::timeout(Duration::from_secs(10), self.tracker.wait())
            .await
            .expect("the publisher task must stop within 10 s of shutdown");
        self.publisher.status()
    }
}

fn config(url: &str, exchange: &str, outbox: &Path) -> PublisherConfig {
    let mut config = PublisherConfig::new(url, outbox);
    config.exchange = exchange.to_owned();
    config
}

fn push(outbox_path: &Path, messages: &[OutboxMessage]) {
    Outbox::open(outbox_path).unwrap().push(messages).unwrap();
}

fn long_header(message: &Received, name: &str) -> String {
    match message.header(name) {
        Some(AMQPValue::LongString(s)) => s.to_string(),
        other => panic!("header {name}: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn messages_carry_exchange_routing_key_properties_headers_and_body() {
    require_broker().await;
    let dir = tempfile::tempdir().unwrap();
    let outbox_path = dir.path().join(OUTBOX_FILE);
    let exchange = unique_name("hookd.test");
    let running = Running::start(config(&broker_url(), &exchange, &outbox_path));
    // The publisher declares the exchange on connect; the consumers below
    // then redeclare it as a durable topic exchange, which the broker refuses
    // if the publisher declared anything else.
    wait_until_async(
        Duration::from_secs(20),
        "the publisher to connect",
        async || running.status().state == ConnectionState::Connected,
    )
    .await;
    let mut tools = TestConsumer::start(&exchange, &["tool.mutation.*"]).await;
    let mut everything = TestConsumer::start(&exchange, &["#"]).await;

    let entries = [
        entry(0, "post_tool_use", Some("Write")),
        entry(1, "session_start", None),
        entry(2, "pre_tool_use", Some("Bash")),
        entry(3, "post_tool_use", Some("MultiEdit")),
    ];
    let messages: Vec<OutboxMessage> = entries.iter().map(OutboxMessage::from_entry).collect();
    push(&outbox_path, &messages);
    running.publisher.wake();

    let all = everything.take(4, Duration::from_secs(20)).await;
    let keys: Vec<&str> = all.iter().map(|m| m.routing_key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "tool.mutation.write",
            "session.start",
            "tool.mutation.bash",
            "tool.mutation.multiedit"
        ]
    );
    let got = tools.take(3, Duration::from_secs(20)).await;
    for (message, entry) in got.iter().zip([&entries[0], &entries[2], &entries[3]]) {
        let event = &entry.event;
        assert_eq!(message.exchange, exchange);
        let props = &message.properties;
        assert_eq!(
            props.content_type().as_ref().map(|c| c.as_str()),
            Some(CONTENT_TYPE)
        );
        assert_eq!(*props.delivery_mode(), Some(2), "persistent");
        assert_eq!(message.message_id(), event.event_id);
        assert_eq!(props.app_id().as_ref().map(|a| a.as_str()), Some("hookd"));
        // 2026-11-21T10:00:00.123Z
        assert_eq!(*props.timestamp(), Some(1_795_255_200));
        assert_eq!(long_header(message, "hook_type"), event.hook_type);
        assert_eq!(long_header(message, "agent_id"), "claude-code");
        assert_eq!(
            Some(long_header(message, "tool_name")),
            event.tool_name.clone()
        );
        assert_eq!(long_header(message, "event_type"), message.routing_key);
        assert_eq!(
            message.header("schema_version"),
            Some(AMQPValue::LongLongInt(i64::from(SCHEMA_VERSION)))
        );
        let body: ToolMutationEvent = serde_json::from_slice(&message.data).unwrap();
        assert_eq!(body, ToolMutationEvent::from_entry(entry));
        assert_eq!(body.event_type, message.routing_key);
    }
    // session.start was published (the `#` queue got it) but is not a tool event.
    let extra = tools.next(Duration::from_millis(500)).await;
    assert!(
        extra.is_none(),
        "tool.mutation.* got a non-tool event: {:?}",
        extra.map(|m| m.routing_key)
    );

    let status = running.stop().await;
    assert_eq!(status.published, 4);
    assert_eq!(status.backlog, 0);
    assert_eq!(status.exchange, exchange);
    assert_eq!(status.url, "amqp://guest:***@127.0.0.1:5672/%2f");
    assert_eq!(status.state, ConnectionState::Disconnected);
    tools.cleanup().await;
    everything.cleanup().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn five_hundred_messages_arrive_in_outbox_order() {
    require_broker().await;
    let dir = tempfile::tempdir().unwrap();
    let outbox_path = dir.path().join(OUTBOX_FILE);
    let exchange = unique_name("hookd.test");
    let mut consumer = TestConsumer::start(&exchange, &["#"]).await;
    let mut cfg = config(&broker_url(), &exchange, &outbox_path);
    // Small batches, so order must hold across batch boundaries too.
    cfg.batch = 64;
    let running = Running::start(cfg);

    let messages = write_messages(500);
    let expected: Vec<String> = messages.iter().map(|m| m.event_id.clone()).collect();
    // Pushed in chunks while the publisher runs, as the ingest thread does.
    let mut outbox = Outbox::open(&outbox_path).unwrap();
    for chunk in messages.chunks(37) {
        outbox.push(chunk).unwrap();
        running.publisher.wake();
    }

    let got = consumer.take(500, Duration::from_secs(30)).await;
    let ids: Vec<String> = got.iter().map(Received::message_id).collect();
    assert_eq!(ids, expected, "messages must arrive in outbox order");
    assert!(consumer.next(Duration::from_millis(300)).await.is_none());
    running.stop().await;
    consumer.cleanup().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn confirmed_messages_leave_the_outbox_and_are_counted() {
    require_broker().await;
    let dir = tempfile::tempdir().unwrap();
    let outbox_path = dir.path().join(OUTBOX_FILE);
    let exchange = unique_name("hookd.test");
    let mut consumer = TestConsumer::start(&exchange, &["tool.mutation.*"]).await;
    // More than one default batch (1,000).
    let total = 1_200;
    push(&outbox_path, &write_messages(total));
    let started = Instant::now();
    let running = Running::start(config(&broker_url(), &exchange, &outbox_path));
    assert_eq!(
        running.status().backlog,
        total as u64,
        "backlog read at start"
    );

    wait_until_async(Duration::from_secs(30), "1,200 confirms", async || {
        running.status().published >= total as u64
    })
    .await;
    let elapsed = started.elapsed();
    // Removal precedes the count, so once counted they are gone.
    let outbox = Outbox::open(&outbox_path).unwrap();
    assert_eq!(
        outbox.len().unwrap(),
        0,
        "confirmed messages left the outbox"
    );
    let status = running.status();
    assert_eq!(status.published, total as u64);
    assert_eq!(status.backlog, 0);
    assert_eq!(status.state, ConnectionState::Connected);
    assert!(status.connected_since.is_some());
    assert!(status.last_error.is_none(), "{:?}", status.last_error);
    eprintln!("published {total} with confirms in {elapsed:?}");

    let got = consumer.take(total, Duration::from_secs(30)).await;
    assert_eq!(got.len(), total);
    let status = running.stop().await;
    assert_eq!(status.state, ConnectionState::Disconnected);
    assert!(status.connected_since.is_none());
    consumer.cleanup().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unreachable_broker_blocks_nothing_and_a_restart_drains_the_backlog_in_order() {
    require_broker().await;
    let dir = tempfile::tempdir().unwrap();
    let outbox_path = dir.path().join(OUTBOX_FILE);
    let exchange = unique_name("hookd.test");

    // First daemon: the broker is unreachable.
    let mut cfg = config(UNREACHABLE_BROKER_URL, &exchange, &outbox_path);
    cfg.max_backoff = Duration::from_millis(400);
    let down = Running::start(cfg);
    let backlog = write_messages(300);
    let expected_backlog: Vec<String> = backlog.iter().map(|m| m.event_id.clone()).collect();
    // Pushed from a plain thread, as the ingest thread does; every push and
    // wake must return promptly whatever the broker's state.
    let handle = down.publisher.clone();
    let path = outbox_path.clone();
    let slowest = tokio::task::spawn_blocking(move || {
        let mut outbox = Outbox::open(&path).unwrap();
        let mut slowest_push = Duration::ZERO;
        let mut slowest_wake = Duration::ZERO;
        for chunk in backlog.chunks(10) {
            let t = Instant::now();
            outbox.push(chunk).unwrap();
            slowest_push = slowest_push.max(t.elapsed());
            let t = Instant::now();
            handle.wake();
            slowest_wake = slowest_wake.max(t.elapsed());
            std::thread::sleep(Duration::from_millis(10));
        }
        (slowest_push, slowest_wake)
    })
    .await
    .unwrap();
    eprintln!("slowest push {:?}, slowest wake {:?}", slowest.0, slowest.1);
    assert!(
        slowest.0 < Duration::from_secs(1),
        "push blocked: {:?}",
        slowest.0
    );
    assert!(
        slowest.1 < Duration::from_millis(50),
        "wake blocked: {:?}",
        slowest.1
    );

    wait_until_async(
        Duration::from_secs(10),
        "the error and backlog in status",
        async || {
            let s = down.status();
            s.last_error.is_some() && s.backlog == 300
        },
    )
    .await;
    let status = down.status();
    assert_ne!(status.state, ConnectionState::Connected);
    assert_eq!(status.published, 0);
    assert_eq!(status.url, "amqp://guest:***@127.0.0.1:1/");
    let error = status.last_error.clone().unwrap();
    assert!(
        error.contains("127.0.0.1:1"),
        "error names the broker: {error}"
    );
    assert!(
        !error.contains("guest:guest"),
        "error leaks the password: {error}"
    );
    assert!(status.last_error_at.is_some());
    let status = down.stop().await;
    assert_eq!(status.state, ConnectionState::Disconnected);
    assert_eq!(Outbox::open(&outbox_path).unwrap().len().unwrap(), 300);

    // The daemon restarts with the broker back: the backlog drains in order,
    // then live events follow.
    let mut consumer = TestConsumer::start(&exchange, &["#"]).await;
    let up = Running::start(config(&broker_url(), &exchange, &outbox_path));
    let live = write_messages(20);
    let expected_live: Vec<String> = live.iter().map(|m| m.event_id.clone()).collect();
    push(&outbox_path, &live);
    up.publisher.wake();

    let got = consumer.take(320, Duration::from_secs(30)).await;
    let ids: Vec<String> = got.iter().map(Received::message_id).collect();
    assert_eq!(ids[..300], expected_backlog[..], "backlog first, in order");
    assert_eq!(ids[300..], expected_live[..], "then live events");
    wait_until_async(
        Duration::from_secs(10),
        "all confirms counted",
        async || up.status().published == 320,
    )
    .await;
    assert_eq!(Outbox::open(&outbox_path).unwrap().len().unwrap(), 0);
    up.stop().await;
    consumer.cleanup().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn nacked_messages_stay_in_the_outbox_and_are_retried_in_order() {
    require_broker().await;
    let dir = tempfile::tempdir().unwrap();
    let outbox_path = dir.path().join(OUTBOX_FILE);
    let exchange = unique_name("hookd.test");
    // A full queue that rejects publishes makes the broker nack them: the
    // only way to get real nacks from a healthy broker.
    let mut arguments = FieldTable::default();
    arguments.insert("x-max-length".into(), AMQPValue::LongInt(5));
    arguments.insert(
        "x-overflow".into(),
        AMQPValue::LongString("reject-publish".into()),
    );
    let mut consumer = TestConsumer::declare(&exchange, &["#"], arguments).await;
    let mut cfg = config(&broker_url(), &exchange, &outbox_path);
    cfg.max_backoff = Duration::from_millis(300);
    let messages = write_messages(12);
    let expected: Vec<String> = messages.iter().map(|m| m.event_id.clone()).collect();
    push(&outbox_path, &messages);
    let running = Running::start(cfg);

    wait_until_async(
        Duration::from_secs(20),
        "the nacks to show in status",
        async || {
            let s = running.status();
            s.published == 5 && s.last_error.as_deref().is_some_and(|e| e.contains("nack"))
        },
    )
    .await;
    // Nacked messages are still waiting, and only they.
    let outbox = Outbox::open(&outbox_path).unwrap();
    let waiting: Vec<String> = outbox
        .peek(100)
        .unwrap()
        .into_iter()
        .map(|(_, m)| m.event_id)
        .collect();
    assert_eq!(
        waiting,
        expected[5..],
        "only the acked ones left the outbox"
    );
    let status = running.status();
    assert_eq!(
        status.state,
        ConnectionState::Connected,
        "a nack is no disconnection"
    );
    assert_eq!(status.backlog, 7);

    // Room in the queue again: the retries go through, in order.
    consumer.consume();
    let got = consumer.take(12, Duration::from_secs(30)).await;
    let ids: Vec<String> = got.iter().map(Received::message_id).collect();
    assert_eq!(ids, expected);
    wait_until_async(
        Duration::from_secs(20),
        "the retried messages to be confirmed",
        async || running.status().published == 12,
    )
    .await;
    assert_eq!(outbox.len().unwrap(), 0);
    running.stop().await;
    consumer.cleanup().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn shutdown_finishes_in_flight_confirms_and_leaves_the_rest_in_order() {
    require_broker().await;
    let dir = tempfile::tempdir().unwrap();
    let outbox_path = dir.path().join(OUTBOX_FILE);
    let exchange = unique_name("hookd.test");
    let mut consumer = TestConsumer::start(&exchange, &["#"]).await;
    let total = 5_000;
    let messages = write_messages(total);
    let expected: Vec<String> = messages.iter().map(|m| m.event_id.clone()).collect();
    push(&outbox_path, &messages);
    // One batch for everything, so shutdown lands while it is in flight:
    // as soon as the broker routes the first message, nothing is confirmed yet.
    let mut cfg = config(&broker_url(), &exchange, &outbox_path);
    cfg.batch = total;
    let running = Running::start(cfg);
    let first = consumer
        .next(Duration::from_secs(20))
        .await
        .expect("publishing started");
    let status = running.stop().await;
    let published = usize::try_from(status.published).unwrap();
    assert!(published > 0, "in-flight confirms were abandoned");
    assert!(published < total, "shutdown came too late to test anything");
    assert_eq!(first.message_id(), expected[0]);
    eprintln!("published {published} of {total} before shutdown");

    // What was published was confirmed and removed; the rest waits, in order.
    let left: Vec<String> = Outbox::open(&outbox_path)
        .unwrap()
        .peek(total)
        .unwrap()
        .into_iter()
        .map(|(_, m)| m.event_id)
        .collect();
    assert_eq!(left, expected[published..]);
    // Nothing went out unconfirmed: the broker got exactly the counted ones.
    let got = consumer.take(published - 1, Duration::from_secs(20)).await;
    let ids: Vec<String> = got.iter().map(Received::message_id).collect();
    assert_eq!(ids, expected[1..published]);
    assert!(consumer.next(Duration::from_millis(500)).await.is_none());
    consumer.cleanup().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_configuration_is_refused_at_spawn() {
    let dir = tempfile::tempdir().unwrap();
    let outbox_path = dir.path().join(OUTBOX_FILE);
    let tracker = TaskTracker::new();
    let refused = Publisher::spawn(
        config("amqps://u:secret@host/", "x", &outbox_path),
        CancellationToken::new(),
        &tracker,
    );
    let err = refused.unwrap_err().to_string();
    assert!(!err.contains("secret"), "{err}");
    let refused = Publisher::spawn(
        config(&broker_url(), &"x".repeat(300), &outbox_path),
        CancellationToken::new(),
        &tracker,
    );
    assert!(refused.is_err());
    assert!(tracker.is_empty(), "no task started for a refused config");
}
