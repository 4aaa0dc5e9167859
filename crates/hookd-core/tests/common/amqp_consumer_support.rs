//! Helpers for the ledger consumer's tests against the real RabbitMQ on
//! 127.0.0.1:5672: a throw-away exchange and queue per test (deleted even
//! when the test panics, because other tests share the broker), an
//! independent publisher with confirms, real git repositories, ledger
//! entries built with the daemon's own extraction code, and direct reads of
//! the ledger files.
//!
//! No broker is a loud failure, never a skip: these tests exist to prove
//! the broker path works.

#![allow(dead_code)] // each test uses a different subset

use std::path::{Path, PathBuf};
use std::time::Duration;

use hookd_core::Envelope;
use hookd_core::amqp::ToolMutationEvent;
use hookd_core::amqp::consumer::{
    ConsumerConfig, ConsumerReport, dead_letter_exchange, parking_queue,
};
use hookd_core::daemon::extract;
use hookd_core::record::{LedgerEntry, RepoFacts};
use lapin::options::{
    BasicPublishOptions, ConfirmSelectOptions, ExchangeDeleteOptions, QueueDeclareOptions,
    QueueDeleteOptions,
};
use lapin::types::FieldTable;
use lapin::{BasicProperties, Channel, Confirmation, Connection, ConnectionProperties};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// The broker under test: `$HOOKD_TEST_AMQP_URL`, else the local RabbitMQ.
pub fn broker_url() -> String {
    std::env::var("HOOKD_TEST_AMQP_URL")
        .ok()
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| "amqp://guest:guest@127.0.0.1:5672/%2f".to_owned())
}

/// A connection of the test's own, independent of the code under test.
pub async fn connect() -> Connection {
    let url = broker_url();
    match Connection::connect(&url, ConnectionProperties::default()).await {
        Ok(connection) => connection,
        Err(err) => panic!(
            "no RabbitMQ at {url}: {err}. These tests need a real broker: start one with \
             `rabbitmq-server -detached` (Debian package rabbitmq-server) or set HOOKD_TEST_AMQP_URL"
        ),
    }
}

/// A unique exchange and ledger queue for one test, removed on drop.
pub struct Topology {
    pub exchange: String,
    pub queue: String,
}

impl Topology {
    pub fn new() -> Self {
        let id = uuid::Uuid::now_v7();
        Self {
            exchange: format!("hookd.test.{id}"),
            queue: format!("hookd.test.{id}.ledger"),
        }
    }

    /// A consumer config for this topology, writing to `data_dir`.
    pub fn config(&self, data_dir: &Path) -> ConsumerConfig {
        let mut config = ConsumerConfig::new(broker_url(), data_dir.to_path_buf());
        config.exchange = self.exchange.clone();
        config.queue = self.queue.clone();
        config
    }

    /// The parking queue of the ledger queue.
    pub fn parking(&self) -> String {
        parking_queue(&self.queue)
    }

    async fn delete(exchange: String, queue: String) {
        let connection = connect().await;
        let channel = connection.create_channel().await.expect("channel");
        // Each deletion is idempotent in RabbitMQ; errors would only mean
        // "already gone", so they are ignored.
        for q in [parking_queue(&queue), queue] {
            let _ = channel
                .queue_delete(q.as_str().into(), QueueDeleteOptions::default())
                .await;
        }
        for e in [dead_letter_exchange(&exchange), exchange] {
            let _ = channel
                .exchange_delete(e.as_str().into(), ExchangeDeleteOptions::default())
                .await;
        }
        let _ = connection.close(200, "cleanup".into()).await;
    }
}

impl Drop for Topology {
    fn drop(&mut self) {
        let exchange = self.exchange.clone();
        let queue = self.queue.clone();
        // Drop runs inside the test's runtime (or while it unwinds), where a
        // second runtime cannot be entered: clean up from a plain thread.
        let cleanup = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("cleanup runtime");
            runtime.block_on(Self::delete(exchange, queue));
        });
        let _ = cleanup.join();
    }
}

/// An independent publisher with confirms, like a daemon's.
pub struct Publisher {
    pub connection: Connection,
    pub channel: Channel,
    pub exchange: String,
}

impl Publisher {
    pub async fn new(exchange: &str) -> Self {
        let connection = connect().await;
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

/// A real git repository with one commit on `main`.
pub struct Repo {
    pub dir: tempfile::TempDir,
    pub root: PathBuf,
    pub facts: RepoFacts,
}

impl Repo {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("repo dir");
        let repo = git2::Repository::init(dir.path()).expect("git init");
        repo.set_head("refs/heads/main").expect("HEAD → main");
        std::fs::write(dir.path().join("README.md"), "hello\n").expect("README");
        let mut index = repo.index().expect("index");
        index
            .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
            .expect("add");
        index.write().expect("write index");
        let tree = repo
            .find_tree(index.write_tree().expect("tree"))
            .expect("find tree");
        let sig = git2::Signature::now("hookd tests", "tests@hookd.invalid").expect("signature");
        repo.commit(Some("HEAD"), &sig, &sig, "initial", &tree, &[])
            .expect("commit");
        let root = dir.path().canonicalize().expect("canonical root");
        let facts = hookd_core::daemon::enrich::read_facts(&repo, &root);
        assert_eq!(facts.branch, "main");
        assert_eq!(facts.head_sha.len(), 40);
        Self { dir, root, facts }
    }

    pub fn ledger_path(&self) -> PathBuf {
        hookd_core::dirs::repo_ledger_path(&self.root)
    }

    /// A `Write` of `lines` lines to `file` in this repository, as the daemon records it.
    pub fn write_event(&self, file: &str, lines: usize) -> ToolMutationEvent {
        let content = "x\n".repeat(lines);
        let payload = serde_json::json!({
            "session_id": "session-1",
            "cwd": self.root,
            "hook_event_name": "PostToolUse",
            "tool_name": "Write",
            "tool_use_id": format!("tu-{}", uuid::Uuid::now_v7()),
            "tool_input": {"file_path": self.root.join(file), "content": content},
        });
        ToolMutationEvent::from_entry(&entry("post_tool_use", payload, &self.facts))
    }

    /// A `SessionStart` (no tool, no mutation) in this repository.
    pub fn session_event(&self) -> ToolMutationEvent {
        let payload =
            serde_json::json!({"session_id": "session-1", "cwd": self.root, "source": "startup"});
        ToolMutationEvent::from_entry(&entry("session_start", payload, &self.facts))
    }
}

/// A ledger entry built with the daemon's own extraction code.
pub fn entry(hook_type: &str, payload: serde_json::Value, facts: &RepoFacts) -> LedgerEntry {
    let envelope = Envelope::new(
        hook_type,
        None,
        payload,
        "2026-11-21T10:00:00.000Z",
        Some(4242),
    );
    let event = extract::hook_event(
        &envelope,
        uuid::Uuid::now_v7().to_string(),
        envelope.timestamp.clone(),
        "2026-11-21T10:00:00.005Z".to_owned(),
    );
    let mutations = extract::direct_mutation(&event, facts)
        .into_iter()
        .collect();
    LedgerEntry {
        event,
        repo: facts.clone(),
        mutations,
    }
}

/// `SELECT COUNT(*)` of a ledger table; 0 while the ledger does not exist.
pub fn count(ledger: &Path, table: &str) -> i64 {
    if !ledger.exists() {
        return 0;
    }
    let connection =
        rusqlite::Connection::open_with_flags(ledger, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("open ledger");
    match connection.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0)) {
        Ok(n) => n,
        Err(err) if err.to_string().contains("no such table") => 0,
        Err(err) => panic!("count {table} in {}: {err}", ledger.display()),
    }
}

/// Opens a ledger read-only.
pub fn open(ledger: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open_with_flags(ledger, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open ledger")
}

/// Polls `condition` every 20 ms for up to `limit`; panics with `what` when it never holds.
pub async fn wait_for(what: &str, limit: Duration, mut condition: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        if condition() {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out after {limit:?} waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A consumer running in the background.
pub struct Running {
    pub shutdown: CancellationToken,
    pub task: JoinHandle<Result<ConsumerReport, hookd_core::amqp::AmqpError>>,
}

impl Running {
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
