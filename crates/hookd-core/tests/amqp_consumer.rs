//! The ledger consumer against the real RabbitMQ on 127.0.0.1:5672: events
//! published by an independent client end up in the right repository's
//! ledger exactly once, are acked only once stored, unreadable messages are
//! parked without stalling the queue, a failing ledger loses nothing, a
//! dropped connection is reconnected, and shutdown acks only what it stored.

mod common;

use std::time::Duration;

use common::amqp::{Publisher, Running, depth, require_broker};
use hookd_core::amqp::AmqpError;
use hookd_core::amqp::consumer::{self, ConsumerConfig};
use hookd_testkit::amqp::{Topology, broker_url, rabbitmqctl};
use hookd_testkit::{GitRepo, ledger_count, open_ledger, poll_until_async, wait_until_async};

const LONG: Duration = Duration::from_secs(30);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_land_in_each_repositorys_ledger_and_are_acked() {
    let topology = Topology::new();
    let data = tempfile::tempdir().unwrap();
    let (a, b) = (GitRepo::new(), GitRepo::new());
    let connection = require_broker().await;

    // Declared before publishing, as `hookd amqp declare` does, so nothing
    // published before the consumer starts is unroutable.
    let channel = connection.create_channel().await.unwrap();
    consumer::declare_ledger_queue(&channel, &topology.exchange, &topology.queue)
        .await
        .unwrap();
    let mut events = vec![a.session_event(), b.session_event()];
    events.extend((0..5).map(|i| a.write_event(&format!("src/a{i}.rs"), 3)));
    events.extend((0..4).map(|i| b.write_event(&format!("lib/b{i}.py"), 1)));
    let mut outside = a.session_event();
    outside.repo.git_root = None;
    outside.repo.branch = String::new();
    outside.repo.head_sha = String::new();
    events.push(outside.clone());
    Publisher::new(&topology.exchange)
        .await
        .events(&events)
        .await;
    assert_eq!(depth(&connection, &topology.queue).await, 12);

    let running = Running::start(topology.config(data.path()));
    wait_until_async(LONG, "both ledgers filled", async || {
        ledger_count(&a.ledger_path(), "events") == 6
            && ledger_count(&b.ledger_path(), "events") == 5
    })
    .await;
    let outside_ledger = hookd_core::dirs::unversioned_ledger_path(data.path());
    wait_until_async(LONG, "the ledger outside git", async || {
        ledger_count(&outside_ledger, "events") == 1
    })
    .await;
    let report = running.stop().await;

    assert_eq!(report.stored, 12);
    assert_eq!(report.duplicates, 0);
    assert_eq!(report.dead_lettered, 0);
    assert_eq!(ledger_count(&a.ledger_path(), "mutations"), 5);
    assert_eq!(ledger_count(&b.ledger_path(), "mutations"), 4);
    assert_eq!(ledger_count(&outside_ledger, "mutations"), 0);
    // Acked: nothing left, nothing parked.
    assert_eq!(depth(&connection, &topology.queue).await, 0);
    assert_eq!(depth(&connection, &topology.parking()).await, 0);

    // The rows are the ones the daemon would have written.
    let ledger = open_ledger(&a.ledger_path());
    let (file, ext, lines, branch, head, tool, event_type, pid): (
        String,
        String,
        i64,
        String,
        String,
        String,
        String,
        i64,
    ) = ledger
        .query_row(
            "SELECT file_path, file_ext, lines_changed, branch, head_sha, tool_name, event_type, source_pid \
             FROM mutations WHERE event_id = ?1",
            [&events[2].event_id],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                ))
            },
        )
        .unwrap();
    assert_eq!(file, "src/a0.rs");
    assert_eq!(ext, "rs");
    assert_eq!(lines, 3);
    assert_eq!(branch, "main");
    assert_eq!(head, a.head_sha());
    assert_eq!(tool, "Write");
    assert_eq!(event_type, "tool.mutation.write");
    assert_eq!(pid, 4242);
    let hook_type: String = ledger
        .query_row(
            "SELECT hook_type FROM events WHERE event_id = ?1",
            [&events[0].event_id],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(hook_type, "session_start");
    let b_files: Vec<String> = open_ledger(&b.ledger_path())
        .prepare("SELECT file_path FROM mutations ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut expected: Vec<String> = (0..4).map(|i| format!("lib/b{i}.py")).collect();
    expected.sort();
    let mut got = b_files;
    got.sort();
    assert_eq!(got, expected);
    let outside_id: String = open_ledger(&outside_ledger)
        .query_row("SELECT event_id FROM events", [], |r| r.get(0))
        .unwrap();
    assert_eq!(outside_id, outside.event_id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_event_delivered_twice_is_stored_once() {
    let topology = Topology::new();
    let data = tempfile::tempdir().unwrap();
    let repo = GitRepo::new();
    let connection = require_broker().await;
    let channel = connection.create_channel().await.unwrap();
    consumer::declare_ledger_queue(&channel, &topology.exchange, &topology.queue)
        .await
        .unwrap();
    let event = repo.write_event("src/main.rs", 2);
    let publisher = Publisher::new(&topology.exchange).await;
    publisher
        .events(&[event.clone(), event.clone(), repo.session_event()])
        .await;

    let running = Running::start(topology.config(data.path()));
    wait_until_async(LONG, "the queue drained", async || {
        ledger_count(&repo.ledger_path(), "events") == 2
    })
    .await;
    wait_for_depth(&connection, &topology.queue, 0).await;
    let first = running.stop().await;
    assert_eq!((first.stored, first.duplicates), (2, 1));

    // A redelivery after the consumer restarted (as after a crash between
    // commit and ack) is recognised too.
    publisher.events(std::slice::from_ref(&event)).await;
    let running = Running::start(topology.config(data.path()));
    wait_for_depth(&connection, &topology.queue, 0).await;
    let second = running.stop().await;
    assert_eq!((second.stored, second.duplicates), (0, 1));

    assert_eq!(ledger_count(&repo.ledger_path(), "events"), 2);
    assert_eq!(ledger_count(&repo.ledger_path(), "mutations"), 1);
    assert_eq!(depth(&connection, &topology.parking()).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_consumers_on_one_queue_store_each_event_exactly_once() {
    const EVENTS: usize = 500;
    let topology = Topology::new();
    let data = tempfile::tempdir().unwrap();
    let (a, b) = (GitRepo::new(), GitRepo::new());
    let connection = require_broker().await;
    let channel = connection.create_channel().await.unwrap();
    consumer::declare_ledger_queue(&channel, &topology.exchange, &topology.queue)
        .await
        .unwrap();

    let config = |data: &std::path::Path| {
        let mut config = topology.config(data);
        config.prefetch = 25;
        config
    };
    // Both consumers run before anything is published, so the broker
    // spreads the stream over both.
    let first = Running::start(config(data.path()));
    let second = Running::start(config(data.path()));
    wait_for_consumers(&topology.queue, 2).await;

    let events: Vec<_> = (0..EVENTS)
        .map(|i| {
            let repo = if i % 2 == 0 { &a } else { &b };
            repo.write_event(&format!("f{i}.rs"), 1)
        })
        .collect();
    Publisher::new(&topology.exchange)
        .await
        .events(&events)
        .await;
    wait_until_async(LONG, "every event stored", async || {
        ledger_count(&a.ledger_path(), "events") + ledger_count(&b.ledger_path(), "events")
            == EVENTS as i64
    })
    .await;
    wait_for_depth(&connection, &topology.queue, 0).await;
    let (r1, r2) = (first.stop().await, second.stop().await);

    assert_eq!(r1.stored + r2.stored, EVENTS as u64, "{r1:?} {r2:?}");
    assert_eq!(r1.duplicates + r2.duplicates, 0, "{r1:?} {r2:?}");
    for (repo, expected) in [(&a, EVENTS / 2), (&b, EVENTS / 2)] {
        let ledger = open_ledger(&repo.ledger_path());
        let (rows, distinct): (i64, i64) = ledger
            .query_row(
                "SELECT COUNT(*), COUNT(DISTINCT event_id) FROM mutations",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(rows, expected as i64);
        assert_eq!(distinct, rows);
        assert_eq!(ledger_count(&repo.ledger_path(), "events"), expected as i64);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn poison_messages_are_parked_and_the_queue_keeps_flowing() {
    let topology = Topology::new();
    let data = tempfile::tempdir().unwrap();
    let repo = GitRepo::new();
    let connection = require_broker().await;
    let channel = connection.create_channel().await.unwrap();
    consumer::declare_ledger_queue(&channel, &topology.exchange, &topology.queue)
        .await
        .unwrap();

    let publisher = Publisher::new(&topology.exchange).await;
    let valid: Vec<_> = (0..4)
        .map(|i| repo.write_event(&format!("ok{i}.rs"), 1))
        .collect();
    let mut newer = repo.session_event();
    newer.schema_version = 99;
    let gone = tempfile::tempdir().unwrap();
    let missing_root = gone.path().join("not-a-repo-here");
    let mut elsewhere = repo.write_event("x.rs", 1);
    elsewhere.repo.git_root = Some(missing_root.to_string_lossy().into_owned());

    publisher.events(&valid[..1]).await;
    publisher.raw("tool.mutation.write", b"not json").await;
    publisher.events(&valid[1..2]).await;
    publisher
        .raw(
            "tool.mutation.edit",
            br#"{"hello": "world", "schema_version": 1}"#,
        )
        .await;
    publisher.events(&valid[2..3]).await;
    publisher
        .raw("session.start", &serde_json::to_vec(&newer).unwrap())
        .await;
    publisher.events(std::slice::from_ref(&elsewhere)).await;
    publisher.events(&valid[3..]).await;

    // A small prefetch spreads the poison over several batches.
    let mut config = topology.config(data.path());
    config.prefetch = 2;
    let running = Running::start(config);
    wait_until_async(LONG, "valid events stored", async || {
        ledger_count(&repo.ledger_path(), "events") == 4
    })
    .await;
    wait_for_depth(&connection, &topology.parking(), 4).await;
    wait_for_depth(&connection, &topology.queue, 0).await;
    let report = running.stop().await;

    assert_eq!(report.stored, 4);
    assert_eq!(report.dead_lettered, 4);
    assert_eq!(ledger_count(&repo.ledger_path(), "mutations"), 4);
    assert!(
        !missing_root.exists(),
        "the consumer must not create a repository that is not on this host"
    );
    // The parked messages are the originals, untouched, for inspection.
    let parked = channel
        .basic_get(
            topology.parking().as_str().into(),
            lapin::options::BasicGetOptions { no_ack: true },
        )
        .await
        .unwrap()
        .expect("a parked message");
    assert_eq!(parked.delivery.data, b"not json");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_mid_stream_acks_exactly_what_it_stored() {
    const EVENTS: usize = 3000;
    let topology = Topology::new();
    let data = tempfile::tempdir().unwrap();
    let repo = GitRepo::new();
    let connection = require_broker().await;
    let channel = connection.create_channel().await.unwrap();
    consumer::declare_ledger_queue(&channel, &topology.exchange, &topology.queue)
        .await
        .unwrap();
    let events: Vec<_> = (0..EVENTS)
        .map(|i| repo.write_event(&format!("f{i}.rs"), 1))
        .collect();
    Publisher::new(&topology.exchange)
        .await
        .events(&events)
        .await;

    // Small batches, so the stream is long enough to interrupt.
    let mut config = topology.config(data.path());
    config.prefetch = 3;
    let running = Running::start(config.clone());
    wait_until_async(LONG, "some events stored", async || {
        ledger_count(&repo.ledger_path(), "events") >= 50
    })
    .await;
    let report = running.stop().await;

    let stored = ledger_count(&repo.ledger_path(), "events");
    assert!(
        (stored as usize) < EVENTS,
        "shutdown came too late to interrupt anything"
    );
    assert_eq!(report.stored, stored as u64);
    assert_eq!(report.duplicates, 0);
    // Everything not stored is still in the queue (unacked deliveries are
    // requeued when the consumer's channel closes), and nothing stored is.
    wait_for_depth(&connection, &topology.queue, EVENTS as u32 - stored as u32).await;

    // A second consumer finishes the job: every event exactly once.
    let running = Running::start(config);
    wait_until_async(LONG, "the rest stored", async || {
        ledger_count(&repo.ledger_path(), "events") == EVENTS as i64
    })
    .await;
    wait_for_depth(&connection, &topology.queue, 0).await;
    let rest = running.stop().await;
    assert_eq!(report.stored + rest.stored, EVENTS as u64);
    assert_eq!(
        ledger_count(&repo.ledger_path(), "mutations"),
        EVENTS as i64
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ledger_that_cannot_be_written_keeps_its_events_in_the_queue() {
    let topology = Topology::new();
    let data = tempfile::tempdir().unwrap();
    let repo = GitRepo::new();
    let connection = require_broker().await;
    let channel = connection.create_channel().await.unwrap();
    consumer::declare_ledger_queue(&channel, &topology.exchange, &topology.queue)
        .await
        .unwrap();
    // A file where the ledger's directory should be: every write fails.
    let blocker = repo.root().join(".hookd");
    std::fs::write(&blocker, "not a directory").unwrap();
    Publisher::new(&topology.exchange)
        .await
        .events(&[repo.write_event("a.rs", 1), repo.write_event("b.rs", 1)])
        .await;

    let running = Running::start(topology.config(data.path()));
    // Let it fail (and requeue) a few times.
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(
        blocker.is_file(),
        "the consumer must not replace user files"
    );
    assert_eq!(
        depth(&connection, &topology.parking()).await,
        0,
        "a write failure is not the message's fault: nothing may be dead-lettered"
    );

    std::fs::remove_file(&blocker).unwrap();
    wait_until_async(
        LONG,
        "events stored once the ledger is writable",
        async || ledger_count(&repo.ledger_path(), "events") == 2,
    )
    .await;
    wait_for_depth(&connection, &topology.queue, 0).await;
    let report = running.stop().await;
    assert_eq!(report.stored, 2);
    assert_eq!(report.dead_lettered, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_closed_by_the_broker_is_reconnected() {
    let topology = Topology::new();
    let data = tempfile::tempdir().unwrap();
    let repo = GitRepo::new();
    let connection = require_broker().await;
    let publisher = Publisher::new(&topology.exchange).await;

    let running = Running::start(topology.config(data.path()));
    wait_for_consumers(&topology.queue, 1).await;
    publisher.events(&[repo.write_event("before.rs", 1)]).await;
    wait_until_async(LONG, "the first event", async || {
        ledger_count(&repo.ledger_path(), "events") == 1
    })
    .await;

    // Only this consumer's connection: other tests share the broker.
    let before = consumers(&topology.queue);
    close_consumer_connections(&topology.queue);
    publisher.events(&[repo.write_event("during.rs", 1)]).await;
    // Reconnected: one consumer again, on a new channel.
    let mut now = Vec::new();
    poll_until_async(LONG, async || {
        now = consumers(&topology.queue);
        (now.len() == 1 && now != before).then_some(())
    })
    .await
    .unwrap_or_else(|| panic!("no new consumer after the connection was closed: {now:?}"));
    publisher.events(&[repo.write_event("after.rs", 1)]).await;
    wait_until_async(LONG, "events after the reconnection", async || {
        ledger_count(&repo.ledger_path(), "events") == 3
    })
    .await;
    wait_for_depth(&connection, &topology.queue, 0).await;
    let report = running.stop().await;
    assert_eq!(report.stored, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_retrying_cannot_fix_is_an_error_not_a_loop() {
    let data = tempfile::tempdir().unwrap();
    let topology = Topology::new();

    let mut bad_scheme = topology.config(data.path());
    bad_scheme.url = "amqps://guest:secret@127.0.0.1:5671/%2f".to_owned();
    let err = consumer::run(bad_scheme, Default::default())
        .await
        .unwrap_err();
    assert!(matches!(err, AmqpError::InvalidUrl { .. }), "{err}");
    assert!(!err.to_string().contains("secret"), "{err}");

    let mut refused = topology.config(data.path());
    refused.url = broker_url().replacen("guest:guest", "guest:wrong-password", 1);
    let err = tokio::time::timeout(
        LONG,
        consumer::run(refused, tokio_util::sync::CancellationToken::new()),
    )
    .await
    .expect("refused credentials must end the consumer, not retry forever")
    .unwrap_err();
    assert!(err.to_string().contains("connecting"), "{err}");

    // A queue that exists with other arguments conflicts with the topology.
    let connection = require_broker().await;
    let channel = connection.create_channel().await.unwrap();
    channel
        .queue_declare(
            topology.queue.as_str().into(),
            lapin::options::QueueDeclareOptions {
                durable: true,
                ..Default::default()
            },
            lapin::types::FieldTable::default(),
        )
        .await
        .unwrap();
    let err = tokio::time::timeout(
        LONG,
        consumer::run(
            topology.config(data.path()),
            tokio_util::sync::CancellationToken::new(),
        ),
    )
    .await
    .expect("a conflicting queue must end the consumer")
    .unwrap_err();
    assert!(err.to_string().contains(&topology.queue), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_while_the_broker_is_unreachable_returns_promptly() {
    let data = tempfile::tempdir().unwrap();
    // Nothing listens on port 1: every attempt fails and backs off.
    let config = ConsumerConfig::new("amqp://guest:guest@127.0.0.1:1/%2f", data.path().into());
    let running = Running::start(config);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !running.task.is_finished(),
        "an unreachable broker is retried"
    );
    let report = running.stop().await;
    assert_eq!(report, Default::default());
}

/// Waits until `queue` holds exactly `expected` ready messages.
async fn wait_for_depth(connection: &lapin::Connection, queue: &str, expected: u32) {
    let mut now = 0;
    poll_until_async(LONG, async || {
        now = depth(connection, queue).await;
        (now == expected).then_some(())
    })
    .await
    .unwrap_or_else(|| panic!("{queue}: expected {expected} messages, has {now}"));
}

/// Waits until `queue` has exactly `expected` consumers.
async fn wait_for_consumers(queue: &str, expected: usize) {
    let mut now = 0;
    poll_until_async(LONG, async || {
        now = consumers(queue).len();
        (now == expected).then_some(())
    })
    .await
    .unwrap_or_else(|| panic!("{queue}: expected {expected} consumers, has {now}"));
}

/// Channel pids of `queue`'s consumers, from `rabbitmqctl`.
fn consumers(queue: &str) -> Vec<String> {
    rabbitmqctl(&["list_consumers", "queue_name", "channel_pid"])
        .into_iter()
        .filter(|row| row.first().is_some_and(|q| q == queue))
        .filter_map(|row| row.get(1).cloned())
        .collect()
}

/// Closes the connections of `queue`'s consumers, as a broker restart or a
/// network cut would.
fn close_consumer_connections(queue: &str) {
    let channels = consumers(queue);
    assert!(!channels.is_empty(), "no consumer on {queue}");
    for row in rabbitmqctl(&["list_channels", "pid", "connection"]) {
        if let [channel, connection] = row.as_slice()
            && channels.contains(channel)
        {
            rabbitmqctl(&[
                "close_connection",
                connection,
                "hookd test: simulated outage",
            ]);
        }
    }
}
