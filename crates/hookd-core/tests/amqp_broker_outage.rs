//! The broker stopped mid-stream: `rabbitmqctl stop_app`, then `start_app` a
//! few seconds later, while 1,000 events are pushed steadily. Every event must
//! reach the broker (duplicates only from redelivery after a lost confirm),
//! the outbox must end empty, and the status must show the outage.
//!
//! This is the only suite that stops the shared broker, so CI runs it alone;
//! a guard restarts the broker even when the test fails.

#[path = "amqp_support.rs"]
mod amqp_support;

use std::collections::HashSet;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use amqp_support::*;
use hookd_core::amqp::outbox::{OUTBOX_FILE, Outbox};
use hookd_core::amqp::publisher::{ConnectionState, Publisher, PublisherConfig};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Runs `rabbitmqctl <args>`, panicking with its output when it fails.
fn rabbitmqctl(args: &[&str]) {
    let output = Command::new("rabbitmqctl")
        .args(args)
        .output()
        .expect("rabbitmqctl must be installed to run the outage test");
    assert!(
        output.status.success(),
        "rabbitmqctl {args:?} failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// True when something accepts connections on the broker's port.
fn port_open() -> bool {
    std::net::TcpStream::connect_timeout(&"127.0.0.1:5672".parse().unwrap(), Duration::from_secs(1))
        .is_ok()
}

fn wait_for_port(wait: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < wait {
        if port_open() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

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
        if !wait_for_port(Duration::from_secs(60)) {
            eprintln!("RabbitMQ did not come back on 127.0.0.1:5672 within 60 s");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn every_event_survives_a_broker_restart_mid_stream() {
    require_broker().await;
    let total = 1_000;
    let dir = tempfile::tempdir().unwrap();
    let outbox_path = dir.path().join(OUTBOX_FILE);
    let exchange = unique_exchange();
    let mut consumer = TestConsumer::start(&exchange, &["#"]).await;

    let mut config = PublisherConfig::new(broker_url(), &outbox_path);
    config.exchange = exchange.clone();
    config.max_backoff = Duration::from_secs(1);
    let shutdown = CancellationToken::new();
    let tracker = TaskTracker::new();
    let publisher = Publisher::spawn(config, shutdown.clone(), &tracker).unwrap();
    wait_until("the publisher to connect", Duration::from_secs(20), || {
        publisher.status().state == ConnectionState::Connected
    })
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
    wait_until(
        "the first events to be published",
        Duration::from_secs(20),
        || publisher.status().published >= 100,
    )
    .await;
    let restart = BrokerRestart;
    let before_stop = publisher.status().published;
    tokio::task::spawn_blocking(|| rabbitmqctl(&["stop_app"]))
        .await
        .unwrap();
    let stopped_at = started.elapsed();
    assert!(!port_open(), "the broker still listens after stop_app");
    tokio::time::sleep(Duration::from_secs(3)).await;
    let during_outage = publisher.status();
    tokio::task::spawn_blocking(|| {
        rabbitmqctl(&["start_app"]);
        assert!(
            wait_for_port(Duration::from_secs(60)),
            "broker did not come back"
        );
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
    wait_until("the outbox to drain", Duration::from_secs(30), || {
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

    assert!(
        slowest_push < Duration::from_secs(1),
        "push blocked for {slowest_push:?}"
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
