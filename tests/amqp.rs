//! The broker path end to end with the real binaries and a real RabbitMQ on
//! 127.0.0.1:5672: `hookd-emit` → `hookd daemon --amqp` → exchange →
//! `hookd ledger consume` → SQLite → `hookd query`, including a daemon
//! restarted while the broker could not be reached.
//!
//! Each test uses its own exchange and queue, so tests can share the broker;
//! none of them stops it.

mod common;

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{GitRepo, TestEnv, tool_payload, wait_for_count};
use serde_json::json;

const BROKER: &str = "amqp://guest:guest@127.0.0.1:5672/%2f";
/// Nothing listens on port 1: a broker that cannot be reached.
const UNREACHABLE: &str = "amqp://guest:guest@127.0.0.1:1/%2f";

fn broker_is_up() {
    assert!(
        std::net::TcpStream::connect_timeout(
            &"127.0.0.1:5672".parse().unwrap(),
            Duration::from_secs(2)
        )
        .is_ok(),
        "no RabbitMQ on 127.0.0.1:5672: start one with `rabbitmq-server -detached` (scripts/setup does)"
    );
}

fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!(
        "{prefix}.{}.{nanos}.{}",
        std::process::id(),
        common::unique()
    )
}

/// A running `hookd ledger consume`; stopped with SIGTERM on drop.
struct Consumer {
    child: Option<Child>,
    queue: String,
    log: std::path::PathBuf,
}

impl Consumer {
    fn start(env: &TestEnv, exchange: &str) -> Self {
        let queue = unique("hookd.test.ledger");
        let log = env
            .dir
            .path()
            .join(format!("consumer-{}.log", common::unique()));
        let child = env
            .command("hookd")
            .args([
                "ledger",
                "consume",
                "--amqp",
                BROKER,
                "--exchange",
                exchange,
                "--queue",
                &queue,
            ])
            .env("HOOKD_LOG", "info")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        Self {
            child: Some(child),
            queue,
            log,
        }
    }

    fn stop(&mut self) -> String {
        if let Some(mut child) = self.child.take() {
            common::signal(child.id(), "TERM");
            let status = child.wait().unwrap();
            assert!(
                status.success(),
                "consumer exit {status:?}:\n{}",
                std::fs::read_to_string(&self.log).unwrap_or_default()
            );
        }
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Consumer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        for queue in [self.queue.clone(), format!("{}.dead", self.queue)] {
            let _ = Command::new("rabbitmqctl")
                .args(["delete_queue", &queue])
                .output();
        }
    }
}

fn emit_writes(env: &TestEnv, repo: &GitRepo, prefix: &str, count: usize) {
    let root = repo.root();
    for i in 0..count {
        let input = json!({"file_path": root.join(format!("{prefix}{i}.rs")), "content": "x\n"});
        let out = env.emit(
            &["post_tool_use"],
            &tool_payload(
                "PostToolUse",
                "Write",
                &root,
                &format!("{prefix}-{i}"),
                input,
            ),
            &root,
        );
        assert!(out.status.success());
    }
}

#[test]
fn daemon_to_broker_to_consumer_to_ledger_to_query() {
    broker_is_up();
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let exchange = unique("hookd.test.events");
    let mut consumer = Consumer::start(&env, &exchange);
    // The consumer declares its queue; give it a moment before events flow.
    std::thread::sleep(Duration::from_millis(500));
    let _daemon = env.start_daemon_with(&[
        "--amqp",
        BROKER,
        "--amqp-exchange",
        &exchange,
        "--ledger-mode",
        "amqp",
    ]);
    emit_writes(&env, &repo, "via-broker", 25);

    // Only the consumer writes this ledger (the daemon is in amqp mode).
    wait_for_count(&repo, "mutations", 25);
    let rows = env.query_json(&["--tool", "write"], &repo.root());
    assert_eq!(rows.len(), 25);
    assert_eq!(rows[0]["file_path"], "via-broker0.rs");
    assert_eq!(rows[0]["event_type"], "tool.mutation.write");
    assert_eq!(repo.distinct_mutations("event_id"), 25);
    let log = consumer.stop();
    assert!(log.contains("stored") || log.contains("25"), "{log}");
}

#[test]
fn a_daemon_restarted_while_the_broker_is_unreachable_drains_its_outbox() {
    broker_is_up();
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let exchange = unique("hookd.test.events");
    let mut consumer = Consumer::start(&env, &exchange);
    std::thread::sleep(Duration::from_millis(500));

    let mut first = env.start_daemon_with(&[
        "--amqp",
        UNREACHABLE,
        "--amqp-exchange",
        &exchange,
        "--ledger-mode",
        "amqp",
    ]);
    emit_writes(&env, &repo, "held", 20);
    let mut text = String::new();
    common::wait_until(Duration::from_secs(10), || {
        let out = env.command("hookd").arg("status").output().unwrap();
        text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.contains("backlog 20")
    })
    .unwrap_or_else(|()| panic!("status never showed the backlog:\n{text}"));
    assert!(text.contains("last error"), "{text}");
    assert!(first.terminate().success(), "{}", first.log_text());
    assert_eq!(repo.count("mutations"), 0, "nothing reached a ledger yet");

    // Same data dir (same outbox), now with a reachable broker.
    let _second = env.start_daemon_with(&[
        "--amqp",
        BROKER,
        "--amqp-exchange",
        &exchange,
        "--ledger-mode",
        "amqp",
    ]);
    emit_writes(&env, &repo, "live", 5);
    wait_for_count(&repo, "mutations", 25);
    assert_eq!(
        repo.distinct_mutations("event_id"),
        25,
        "each event exactly once"
    );
    // The backlog drained first: the consumer stored held events before live ones.
    let stored: Vec<String> = {
        let ledger = repo.ledger();
        let mut stmt = ledger
            .prepare("SELECT file_path FROM mutations ORDER BY id")
            .unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert!(
        stored[..20].iter().all(|f| f.starts_with("held")),
        "{stored:?}"
    );
    consumer.stop();
}
