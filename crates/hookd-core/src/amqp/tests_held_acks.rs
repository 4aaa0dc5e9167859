//! The consumer against the real RabbitMQ on 127.0.0.1:5672 while a ledger
//! is checked in the background (held back with the check gate): its
//! deliveries stay unacked until the check passes, a consumer stopped
//! meanwhile leaves them to the broker, and a ledger then found damaged gets
//! them again.

use std::path::Path;
use std::time::Duration;

use lapin::options::BasicPublishOptions;
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties};
use tokio_util::sync::CancellationToken;

use super::consumer::{self, ConsumerConfig, ConsumerReport};
use crate::ledger::checker::CheckGate;
use crate::ledger::sink::LedgerSink;
use crate::ledger::tests_sink_check::{damaged_off_the_write_path, with_old_rows};
use hookd_testkit::amqp::{Topology, broker_url, no_broker, rabbitmqctl};
use hookd_testkit::{GitRepo, ledger_count, wait_until_async};

const LONG: Duration = Duration::from_secs(30);
/// Events published in each test.
const EVENTS: u32 = 5;

/// A channel on the test broker with the topology's ledger queue declared.
async fn channel(topology: &Topology) -> (Connection, Channel) {
    let connection = Connection::connect(&broker_url(), ConnectionProperties::default())
        .await
        .unwrap_or_else(|err| no_broker(err));
    let channel = connection.create_channel().await.unwrap();
    consumer::declare_ledger_queue(&channel, &topology.exchange, &topology.queue)
        .await
        .unwrap();
    (connection, channel)
}

/// Publishes `EVENTS` writes in `repo` as a daemon would.
async fn publish(channel: &Channel, topology: &Topology, repo: &GitRepo) {
    for i in 0..EVENTS {
        let body = serde_json::to_vec(&repo.write_event(&format!("src/f{i}.rs"), 2)).unwrap();
        channel
            .basic_publish(
                topology.exchange.as_str().into(),
                "tool.mutation.write".into(),
                BasicPublishOptions::default(),
                &body,
                BasicProperties::default().with_delivery_mode(2),
            )
            .await
            .unwrap();
    }
}

/// Ready messages in the queue (not delivered, or delivered and given
/// back), as `hookd amqp declare` counts them.
async fn ready(topology: &Topology) -> u32 {
    consumer::declare_topology(&broker_url(), &topology.exchange, &topology.queue)
        .await
        .unwrap()
        .ready
}

/// Deliveries of `queue` the broker waits to have acked, as
/// `rabbitmqctl list_queues` reads them from the queue itself (current, not
/// the management plugin's sampled statistics).
async fn unacked(queue: &str) -> u32 {
    let queue = queue.to_owned();
    tokio::task::spawn_blocking(move || {
        rabbitmqctl(&["list_queues", "name", "messages_unacknowledged"])
            .into_iter()
            .find(|row| row.first() == Some(&queue))
            .and_then(|row| row.get(1)?.parse().ok())
            .unwrap_or(0)
    })
    .await
    .unwrap()
}

/// A sink that checks every existing ledger in the background; `held`
/// closes the gate so those checks wait.
fn sink(data_dir: &Path, held: bool) -> (LedgerSink, CheckGate) {
    let mut sink = LedgerSink::new(data_dir.to_path_buf());
    sink.set_check_limits(0, 1 << 20);
    let gate = sink.check_gate();
    if held {
        gate.close();
    }
    (sink, gate)
}

/// A consumer on its own task, stopped with [`Self::stop`].
struct Running {
    shutdown: CancellationToken,
    task: tokio::task::JoinHandle<ConsumerReport>,
}

impl Running {
    fn start(topology: &Topology, data_dir: &Path, sink: LedgerSink) -> Self {
        let mut config = ConsumerConfig::new(broker_url(), data_dir.to_path_buf());
        config.exchange.clone_from(&topology.exchange);
        config.queue.clone_from(&topology.queue);
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(consumer::run_with_sink(config, sink, shutdown.clone()));
        Self { shutdown, task }
    }

    async fn stop(self) -> ConsumerReport {
        self.shutdown.cancel();
        self.task.await.unwrap()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deliveries_stay_unacked_until_their_ledgers_check_passes() {
    let topology = Topology::new();
    let data = tempfile::tempdir().unwrap();
    let repo = GitRepo::new();
    let ledger = repo.ledger_path();
    std::fs::create_dir_all(ledger.parent().unwrap()).unwrap();
    with_old_rows(&ledger, 20);
    let (_connection, channel) = channel(&topology).await;
    publish(&channel, &topology, &repo).await;

    // Stored while the check waits, but not acked: a consumer stopped now
    // leaves every one of them to the broker.
    let (held_sink, gate) = sink(data.path(), true);
    let running = Running::start(&topology, data.path(), held_sink);
    wait_until_async(LONG, "the events are stored", async || {
        ledger_count(&ledger, "events") == 20 + i64::from(EVENTS)
    })
    .await;
    assert_eq!(ready(&topology).await, 0, "all delivered");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let report = running.stop().await;
    assert_eq!(report.stored, u64::from(EVENTS));
    assert_eq!(ready(&topology).await, EVENTS);
    gate.open();

    // The next consumer stores nothing new, and acks them once the check
    // it asked for passed.
    let (held_sink, gate) = sink(data.path(), true);
    let running = Running::start(&topology, data.path(), held_sink);
    wait_until_async(LONG, "delivered again", async || {
        ready(&topology).await == 0
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(unacked(&topology.queue).await, EVENTS, "held while checked");
    gate.open();
    wait_until_async(LONG, "acked once the check passed", async || {
        unacked(&topology.queue).await == 0
    })
    .await;
    let report = running.stop().await;
    assert_eq!(report.duplicates, u64::from(EVENTS));
    assert_eq!(ledger_count(&ledger, "events"), 20 + i64::from(EVENTS));
    // Acked once the check passed; nothing comes back after the stop.
    assert_eq!(ready(&topology).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ledger_found_damaged_after_a_stop_gets_its_events_again() {
    let topology = Topology::new();
    let data = tempfile::tempdir().unwrap();
    let repo = GitRepo::new();
    let ledger = repo.ledger_path();
    std::fs::create_dir_all(ledger.parent().unwrap()).unwrap();
    damaged_off_the_write_path(&ledger);
    let (_connection, channel) = channel(&topology).await;
    publish(&channel, &topology, &repo).await;

    // Written into the damaged file while its check waits; the consumer
    // stops (or dies) before the check ends.
    let (held_sink, gate) = sink(data.path(), true);
    let running = Running::start(&topology, data.path(), held_sink);
    wait_until_async(LONG, "all delivered", async || ready(&topology).await == 0).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    running.stop().await;
    gate.open();

    // The next consumer's check finds the damage: the ledger is moved
    // aside and the broker's copies fill the new one.
    let (checking_sink, _gate) = sink(data.path(), false);
    let running = Running::start(&topology, data.path(), checking_sink);
    wait_until_async(LONG, "the new ledger holds the events", async || {
        ledger
            .parent()
            .unwrap()
            .read_dir()
            .unwrap()
            .flatten()
            .any(|entry| entry.file_name().to_string_lossy().contains(".corrupt-"))
            && ledger_count(&ledger, "events") == i64::from(EVENTS)
    })
    .await;
    wait_until_async(LONG, "acked", async || ready(&topology).await == 0).await;
    running.stop().await;
    assert_eq!(ready(&topology).await, 0);
    assert_eq!(ledger_count(&ledger, "events"), i64::from(EVENTS));
}
