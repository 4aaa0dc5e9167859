//! The broker stopped mid-stream: `rabbitmqctl stop_app`, then `start_app` a
//! few seconds later, while 1,000 events are pushed steadily. Every event must
//! reach the broker (duplicates only from redelivery after a lost confirm),
//! the outbox must end empty, and the status must show the outage.
//!
//! This is the only suite that stops the shared broker, so CI runs it alone;
//! a guard restarts the broker even when the test fails.

mod common;

use std::collections::HashSet;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::amqp::{Log, Received, TestConsumer, require_broker, write_messages};
use hookd_core::amqp::outbox::{OUTBOX_FILE, Outbox};
use hookd_core::amqp::publisher::{ConnectionState, Publisher, PublisherConfig};
use hookd_testkit::amqp::{Topology, broker_port_open, broker_url, rabbitmqctl};
use hookd_testkit::{
    GitRepo, TestEnv, envelope_line, ledger_count, poll_until, unique_name, wait_until,
    wait_until_async,
};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// How long the broker may take to listen again after `start_app`.
const BROKER_RESTART: Duration = Duration::from_secs(60);

/// Restarts the broker's app when dropped, so a failing test never leaves
/// the shared broker stopped; waits for port 5672 before returning.
struct BrokerRestart;

impl Drop for BrokerRestart {
    fn drop(&mut self) {
        // start_app on a running app is a no-op, so this is safe after a
        // successful restart too.
        let started = Command::new("rabbitmqctl").arg("start_app").output();
        if let Err(err) = started {
            eprintln!("cannot run rabbitmqctl start_app: {err}");
        }
        if poll_until(BROKER_RESTART, || broker_port_open().then_some(())).is_none() {
            eprintln!("RabbitMQ did not come back on 127.0.0.1:5672 within 60 s");
        }
    }
}

/// The tests here stop the shared broker; they must never overlap (cargo
/// test runs a binary's tests on parallel threads; CI also runs nextest with -j 1).
static ONE_OUTAGE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[tokio::test(flavor = "multi_thread")]
async fn every_event_survives_a_broker_restart_mid_stream() {
    let _alone = ONE_OUTAGE_AT_A_TIME.lock().await;
    require_broker().await;
    let total = 1_000;
    let dir = tempfile::tempdir().unwrap();
    let outbox_path = dir.path().join(OUTBOX_FILE);
    let exchange = unique_name("hookd.test");
    let mut consumer = TestConsumer::start(&exchange, &["#"]).await;

    let mut config = PublisherConfig::new(broker_url(), &outbox_path);
    config.exchange = exchange.clone();
    config.max_backoff = Duration::from_secs(1);
    let shutdown = CancellationToken::new();
    let tracker = TaskTracker::new();
    let publisher = Publisher::spawn(config, shutdown.clone(), &tracker).unwrap();
    wait_until_async(
        Duration::from_secs(20),
        "the publisher to connect",
        async || publisher.status().state == ConnectionState::Connected,
    )
    .await;

    // Every state change the status goes through, sampled every 5 ms.
    let states: Log<ConnectionState> = Arc::new(Mutex::new(Vec::new()));
    let sampler = {
        let (publisher, states, stop) = (publisher.clone(), Arc::clone(&states), shutdown.clone());
        tokio::spawn(async move {
            while !stop.is_cancelled() {
                let state = publisher.status().state;
                {
                    let mut states = states.lock().unwrap();
                    if states.last() != Some(&state) {
                        states.push(state);
                    }
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
    };

    // The ingest thread's side: one push and wake every 5 ms, whatever the broker does.
    let messages = write_messages(total);
    let expected: HashSet<String> = messages.iter().map(|m| m.event_id.clone()).collect();
    let pusher = {
        let (publisher, path) = (publisher.clone(), outbox_path.clone());
        tokio::task::spawn_blocking(move || {
            let mut outbox = Outbox::open(&path).unwrap();
            let mut slowest = Duration::ZERO;
            for message in messages {
                let t = Instant::now();
                outbox.push(std::slice::from_ref(&message)).unwrap();
                publisher.wake();
                slowest = slowest.max(t.elapsed());
                std::thread::sleep(Duration::from_millis(5));
            }
            slowest
        })
    };

    let started = Instant::now();
    wait_until_async(
        Duration::from_secs(20),
        "the first events to be published",
        async || publisher.status().published >= 100,
    )
    .await;
    let restart = BrokerRestart;
    let before_stop = publisher.status().published;
    tokio::task::spawn_blocking(|| rabbitmqctl(&["stop_app"]))
        .await
        .unwrap();
    let stopped_at = started.elapsed();
    assert!(
        !broker_port_open(),
        "the broker still listens after stop_app"
    );
    tokio::time::sleep(Duration::from_secs(3)).await;
    let during_outage = publisher.status();
    tokio::task::spawn_blocking(|| {
        rabbitmqctl(&["start_app"]);
        wait_until(BROKER_RESTART, "the broker to come back", broker_port_open);
    })
    .await
    .unwrap();
    let restarted_at = started.elapsed();

    let slowest_push = pusher.await.unwrap();
    let deliveries = consumer
        .take_distinct(total, Duration::from_secs(120))
        .await;
    let ids: Vec<String> = deliveries.iter().map(Received::message_id).collect();
    let distinct: HashSet<String> = ids.iter().cloned().collect();
    assert_eq!(distinct.len(), total, "every event arrived");
    assert_eq!(distinct, expected, "and only the pushed events");
    wait_until_async(Duration::from_secs(30), "the outbox to drain", async || {
        publisher.status().backlog == 0 && publisher.status().published >= total as u64
    })
    .await;
    assert_eq!(Outbox::open(&outbox_path).unwrap().len().unwrap(), 0);
    let drained_at = started.elapsed();

    shutdown.cancel();
    tracker.close();
    tokio::time::timeout(Duration::from_secs(10), tracker.wait())
        .await
        .expect("publisher stops");
    sampler.await.unwrap();
    let states = states.lock().unwrap().clone();
    eprintln!(
        "published before stop: {before_stop}; stop_app done at {stopped_at:?}, start_app done at {restarted_at:?}, \
         all {total} confirmed at {drained_at:?}; deliveries {} ({} duplicates); slowest push+wake {slowest_push:?}; \
         states {states:?}; status during outage {during_outage:?}",
        ids.len(),
        ids.len() - total,
    );

    // A push that waited for the broker would have lasted the outage (at
    // least the 3 s between stop and start); measured against the outage,
    // not a fixed time, so a loaded machine's slow fsync is not mistaken
    // for blocking.
    let outage = restarted_at - stopped_at;
    assert!(
        slowest_push < outage / 2,
        "push blocked for {slowest_push:?} during an outage of {outage:?}"
    );
    // The outage really was mid-stream: events queued up while the broker was away.
    assert!(
        during_outage.published < total as u64 && during_outage.backlog > 0,
        "the broker stopped too late to test anything: {during_outage:?}"
    );
    assert!(
        during_outage.state != ConnectionState::Connected && during_outage.last_error.is_some(),
        "status during the outage: {during_outage:?}"
    );
    let down = states
        .iter()
        .position(|s| *s == ConnectionState::Disconnected)
        .expect("status went through disconnected");
    assert!(
        states[down..].contains(&ConnectionState::Connected),
        "and back to connected: {states:?}"
    );
    assert!(publisher.status().published >= total as u64);

    drop(restart);
    consumer.cleanup().await;
}

/// The whole path through an outage: the real daemon (ledger mode amqp, so
/// only the broker path writes ledgers) receives 1,000 events on its socket
/// while the broker is stopped and restarted; a ledger consumer writes the
/// repository's ledger. Every event must be in the ledger exactly once.
#[tokio::test(flavor = "multi_thread")]
async fn daemon_to_ledger_keeps_every_event_exactly_once_through_a_broker_restart() {
    use hookd_core::amqp::consumer;
    use hookd_core::config::LedgerMode;
    use hookd_core::daemon::server::{AmqpTarget, Daemon, DaemonConfig};
    use tokio::io::AsyncWriteExt as _;

    let _alone = ONE_OUTAGE_AT_A_TIME.lock().await;
    require_broker().await;
    let total = 1_000_usize;
    let env = TestEnv::new();
    let git = GitRepo::new();
    let root = git.root();
    let socket = env.socket();
    let topology = Topology::new();

    // The consumer's queue exists before the first event is published.
    consumer::declare_topology(&broker_url(), &topology.exchange, &topology.queue)
        .await
        .unwrap();
    let consumer_stop = CancellationToken::new();
    let consumer_task = tokio::spawn(consumer::run(
        topology.config(&env.dir.path().join("consumer-data")),
        consumer_stop.clone(),
    ));

    let mut config = DaemonConfig::new(socket.clone(), env.data_dir());
    config.ledger_mode = LedgerMode::Amqp;
    config.amqp = Some(AmqpTarget {
        url: broker_url(),
        exchange: topology.exchange.clone(),
    });
    let daemon = Daemon::bind(config).unwrap();
    let daemon_stop = CancellationToken::new();
    let daemon_task = tokio::spawn(daemon.run(daemon_stop.clone()));

    let ledger_path = git.ledger_path();
    let count = || ledger_count(&ledger_path, "events");

    // Steady events on the daemon's socket, whatever the broker does.
    let sender = {
        let (socket, root) = (socket.clone(), root.clone());
        tokio::spawn(async move {
            let mut stream = tokio::net::UnixStream::connect(&socket).await.unwrap();
            for i in 0..total {
                let line = envelope_line(
                    "post_tool_use",
                    Some("write"),
                    serde_json::json!({"session_id": "outage", "cwd": root, "tool_name": "Write",
                        "tool_use_id": format!("outage-{i}"),
                        "tool_input": {"file_path": root.join(format!("f{i}.rs")), "content": "x\n"}}),
                    "2026-11-21T10:00:00.000Z",
                    1,
                );
                stream.write_all(line.as_bytes()).await.unwrap();
                tokio::time::sleep(Duration::from_millis(4)).await;
            }
            stream.shutdown().await.unwrap();
        })
    };

    wait_until_async(
        Duration::from_secs(30),
        "the first events in the ledger",
        async || count() >= 100,
    )
    .await;
    let restart = BrokerRestart;
    tokio::task::spawn_blocking(|| rabbitmqctl(&["stop_app"]))
        .await
        .unwrap();
    let at_stop = count();
    tokio::time::sleep(Duration::from_secs(2)).await;
    tokio::task::spawn_blocking(|| {
        rabbitmqctl(&["start_app"]);
        wait_until(BROKER_RESTART, "the broker to come back", broker_port_open);
    })
    .await
    .unwrap();
    drop(restart);
    sender.await.unwrap();

    wait_until_async(
        Duration::from_secs(120),
        "all events in the ledger",
        async || count() >= total as i64,
    )
    .await;
    // Let any redelivery land before counting duplicates.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let ledger = rusqlite::Connection::open(&ledger_path).unwrap();
    let (rows, distinct): (i64, i64) = ledger
        .query_row(
            "SELECT COUNT(*), COUNT(DISTINCT tool_use_id) FROM mutations",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert!(
        at_stop < total as i64,
        "the outage happened mid-stream ({at_stop} stored at stop)"
    );
    assert_eq!(distinct, total as i64, "every event arrived");
    assert_eq!(rows, total as i64, "and exactly once");

    daemon_stop.cancel();
    daemon_task.await.unwrap().unwrap();
    consumer_stop.cancel();
    let report = consumer_task.await.unwrap().unwrap();
    eprintln!("ledger rows at stop_app: {at_stop}; consumer report {report:?}");
}
