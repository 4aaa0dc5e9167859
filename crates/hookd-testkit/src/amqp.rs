//! The real RabbitMQ the AMQP suites run against (127.0.0.1:5672 unless
//! `$HOOKD_TEST_AMQP_URL` says otherwise): its URL, a loud failure when it
//! is missing (these tests must never pass by skipping), `rabbitmqctl`, a
//! throw-away exchange and ledger queue per test, and the messages a daemon
//! publishes for events in a repository.
//!
//! The testkit does not depend on lapin: the broker is reached through the
//! connection `hookd_core::amqp::topology::connect` returns, with lapin's
//! option types left to inference. Suites that need more of lapin keep
//! those helpers in their own `tests/common`.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use hookd_core::amqp::ToolMutationEvent;
use hookd_core::amqp::consumer::{ConsumerConfig, dead_letter_exchange, parking_queue};
use hookd_core::daemon::extract;
use hookd_proto::Envelope;
use serde_json::{Value, json};

use crate::env::TestEnv;
use crate::git::GitRepo;
use crate::ledger::ledger_entry;
use crate::names::unique_name;
use crate::process::ChildProcess;

/// A broker URL where nothing listens (port 1).
pub const UNREACHABLE_BROKER_URL: &str = "amqp://guest:guest@127.0.0.1:1/";

/// The broker under test: `$HOOKD_TEST_AMQP_URL`, else the local RabbitMQ.
pub fn broker_url() -> String {
    std::env::var("HOOKD_TEST_AMQP_URL")
        .ok()
        .filter(|url| !url.is_empty())
        .unwrap_or_else(|| "amqp://guest:guest@127.0.0.1:5672/%2f".to_owned())
}

/// Fails the test because the broker could not be reached, saying how to
/// start one.
pub fn no_broker(err: impl std::fmt::Display) -> ! {
    panic!(
        "no RabbitMQ at {}: {err}. These tests need a real broker: start one with \
         `rabbitmq-server -detached` (Debian package rabbitmq-server, scripts/setup does) \
         or set HOOKD_TEST_AMQP_URL",
        hookd_core::amqp::topology::redact(&broker_url())
    )
}

/// True when something accepts connections on the local broker's port.
pub fn broker_port_open() -> bool {
    std::net::TcpStream::connect_timeout(
        &std::net::SocketAddr::from(([127, 0, 0, 1], 5672)),
        Duration::from_secs(1),
    )
    .is_ok()
}

/// Runs `rabbitmqctl args --quiet`; its output rows, tab-separated fields
/// (the plain formatter: the JSON one prints pids in a form
/// `close_connection` does not accept). Panics with its output on failure.
pub fn rabbitmqctl(args: &[&str]) -> Vec<Vec<String>> {
    let out = Command::new("rabbitmqctl")
        .args(args)
        .arg("--quiet")
        .output()
        .expect("run rabbitmqctl (Debian package rabbitmq-server)");
    assert!(
        out.status.success(),
        "rabbitmqctl {args:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|line| !line.is_empty())
        .map(|line| line.split('\t').map(str::to_owned).collect())
        .collect()
}

/// Runs `future` to completion on a runtime of its own (lapin needs tokio),
/// for sync tests and for `Drop`, which cannot await.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(future)
}

/// A unique exchange and ledger queue for one test; the broker is shared,
/// so on drop they are deleted (with the dead-letter exchange and parking
/// queue the consumer declares), even when the test panics.
pub struct Topology {
    /// The events exchange.
    pub exchange: String,
    /// The ledger queue bound to it.
    pub queue: String,
}

impl Topology {
    /// Fresh names; nothing is declared yet.
    pub fn new() -> Self {
        let exchange = unique_name("hookd.test");
        Self {
            queue: format!("{exchange}.ledger"),
            exchange,
        }
    }

    /// The parking queue of the ledger queue.
    pub fn parking(&self) -> String {
        parking_queue(&self.queue)
    }

    /// The flags that point `hookd ledger consume` or `hookd amqp declare`
    /// at this topology on the test broker.
    pub fn flags(&self) -> Vec<String> {
        vec![
            "--amqp".to_owned(),
            broker_url(),
            "--exchange".to_owned(),
            self.exchange.clone(),
            "--queue".to_owned(),
            self.queue.clone(),
        ]
    }

    /// A ledger-consumer config for this topology on the test broker,
    /// writing to `data_dir`.
    pub fn config(&self, data_dir: &Path) -> ConsumerConfig {
        let mut config = ConsumerConfig::new(broker_url(), data_dir.to_path_buf());
        config.exchange.clone_from(&self.exchange);
        config.queue.clone_from(&self.queue);
        config
    }
}

impl Default for Topology {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Topology {
    fn drop(&mut self) {
        let queues = [parking_queue(&self.queue), self.queue.clone()];
        let exchanges = [dead_letter_exchange(&self.exchange), self.exchange.clone()];
        // Drop may run inside a test's runtime (or while it unwinds), where
        // another runtime cannot be entered: clean up from a plain thread.
        let cleanup = std::thread::spawn(move || {
            block_on(async move {
                let Ok(connection) = hookd_core::amqp::topology::connect(&broker_url()).await
                else {
                    return;
                };
                let Ok(channel) = connection.create_channel().await else {
                    return;
                };
                // Deleting what is already gone is not an error worth reporting.
                for queue in queues {
                    let _ = channel
                        .queue_delete(queue.as_str().into(), Default::default())
                        .await;
                }
                for exchange in exchanges {
                    let _ = channel
                        .exchange_delete(exchange.as_str().into(), Default::default())
                        .await;
                }
                let _ = connection.close(200, "cleanup".into()).await;
            });
        });
        let _ = cleanup.join();
    }
}

impl GitRepo {
    /// A `Write` of `lines` lines to `file` in this repository, as a daemon
    /// publishes it (built with the daemon's own extraction code).
    pub fn write_event(&self, file: &str, lines: usize) -> ToolMutationEvent {
        let root = self.root();
        let payload = json!({
            "session_id": "session-1",
            "cwd": root,
            "hook_event_name": "PostToolUse",
            "tool_name": "Write",
            "tool_use_id": unique_name("tu"),
            "tool_input": {"file_path": root.join(file), "content": "x\n".repeat(lines)},
        });
        self.published("post_tool_use", payload)
    }

    /// A `SessionStart` (no tool, no mutation) in this repository, as a
    /// daemon publishes it.
    pub fn session_event(&self) -> ToolMutationEvent {
        let payload = json!({"session_id": "session-1", "cwd": self.root(), "source": "startup"});
        self.published("session_start", payload)
    }

    fn published(&self, hook_type: &str, payload: Value) -> ToolMutationEvent {
        let envelope = Envelope::new(
            hook_type,
            None,
            payload,
            "2026-11-21T10:00:00.000Z",
            Some(4242),
        );
        let event = extract::hook_event(
            &envelope,
            unique_name("event"),
            envelope.timestamp.clone(),
            "2026-11-21T10:00:00.005Z".to_owned(),
        );
        ToolMutationEvent::from_entry(&ledger_entry(event, &self.facts()))
    }
}

impl TestEnv {
    /// Starts `hookd ledger consume` on `topology` (with `extra` flags),
    /// logging at info level into the environment.
    pub fn start_ledger_consumer(&self, topology: &Topology, extra: &[&str]) -> ChildProcess {
        let mut command = self.command("hookd");
        command
            .args(["ledger", "consume"])
            .args(topology.flags())
            .args(extra)
            .env("HOOKD_LOG", "info");
        ChildProcess::spawn(
            "hookd ledger consume",
            &mut command,
            &self.unique_file("consumer", "log"),
        )
    }
}
