//! The broker path end to end with the real binaries and a real RabbitMQ on
//! 127.0.0.1:5672: `hookd-emit` → `hookd daemon --amqp` → exchange →
//! `hookd ledger consume` → SQLite → `hookd query`, including a daemon
//! restarted while the broker could not be reached.
//!
//! Each test uses its own exchange and queue, so tests can share the broker;
//! none of them stops it.

use std::time::Duration;

use hookd_testkit::amqp::{
    Topology, UNREACHABLE_BROKER_URL, broker_port_open, broker_url, no_broker,
};
use hookd_testkit::{ChildProcess, GitRepo, TestEnv, poll_until, tool_payload, wait_for_count};
use serde_json::json;

fn broker_is_up() {
    if !broker_port_open() {
        no_broker("nothing listens on 127.0.0.1:5672");
    }
}

/// A running `hookd ledger consume` on its own exchange and queue; stopped
/// with SIGTERM by `stop`, killed on drop, and its queues deleted.
struct Consumer {
    process: ChildProcess,
    // Dropped after the process, so the consumer no longer holds the queue.
    topology: Topology,
}

impl Consumer {
    fn start(env: &TestEnv) -> Self {
        let topology = Topology::new();
        let process = env.start_ledger_consumer(&topology, &[]);
        Self { process, topology }
    }

    fn exchange(&self) -> &str {
        &self.topology.exchange
    }

    fn stop(&mut self) -> String {
        let status = self.process.terminate();
        assert!(
            status.success(),
            "consumer exit {status:?}:\n{}",
            self.process.log_text()
        );
        self.process.log_text()
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
    let mut consumer = Consumer::start(&env);
    let exchange = consumer.exchange().to_owned();
    // The consumer declares its queue; give it a moment before events flow.
    std::thread::sleep(Duration::from_millis(500));
    let _daemon = env.start_daemon_with(&[
        "--amqp",
        &broker_url(),
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
    let mut consumer = Consumer::start(&env);
    let exchange = consumer.exchange().to_owned();
    std::thread::sleep(Duration::from_millis(500));

    let mut first = env.start_daemon_with(&[
        "--amqp",
        UNREACHABLE_BROKER_URL,
        "--amqp-exchange",
        &exchange,
        "--ledger-mode",
        "amqp",
    ]);
    emit_writes(&env, &repo, "held", 20);
    let mut text = String::new();
    poll_until(Duration::from_secs(10), || {
        let out = env.command("hookd").arg("status").output().unwrap();
        text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.contains("backlog 20").then_some(())
    })
    .unwrap_or_else(|| panic!("status never showed the backlog:\n{text}"));
    assert!(text.contains("last error"), "{text}");
    assert!(first.terminate().success(), "{}", first.log_text());
    assert_eq!(repo.count("mutations"), 0, "nothing reached a ledger yet");

    // Same data dir (same outbox), now with a reachable broker.
    let _second = env.start_daemon_with(&[
        "--amqp",
        &broker_url(),
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

#[test]
fn the_contents_a_change_refers_to_travel_with_it_to_a_consumer_whose_store_lacks_them() {
    broker_is_up();
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    std::fs::write(root.join("a.rs"), "old\n").unwrap();
    repo.commit_all("a.rs");
    let mut consumer = Consumer::start(&env);
    let exchange = consumer.exchange().to_owned();
    std::thread::sleep(Duration::from_millis(500));

    // Recorded while the broker cannot be reached, so the message waits in
    // the outbox with what the daemon kept of the file.
    let mut first = env.start_daemon_with(&[
        "--amqp",
        UNREACHABLE_BROKER_URL,
        "--amqp-exchange",
        &exchange,
        "--ledger-mode",
        "amqp",
    ]);
    let input = json!({"file_path": root.join("a.rs"), "content": "new\n"});
    for hook in ["PreToolUse", "PostToolUse"] {
        if hook == "PostToolUse" {
            std::fs::write(root.join("a.rs"), "new\n").unwrap();
        }
        let out = env.emit(
            &[hook],
            &tool_payload(hook, "Write", &root, "toolu_carried", input.clone()),
            &root,
        );
        assert!(out.status.success(), "{out:?}");
    }
    let mut text = String::new();
    poll_until(Duration::from_secs(10), || {
        let out = env.command("hookd").arg("status").output().unwrap();
        text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.contains("backlog 2").then_some(())
    })
    .unwrap_or_else(|| panic!("status never showed the backlog:\n{text}"));
    assert!(first.terminate().success(), "{}", first.log_text());

    // The consumer's machine has no store of the daemon's: only what the
    // message carries.
    let store = root.join(".hookd/content");
    assert!(store.is_dir(), "the daemon kept the contents");
    std::fs::remove_dir_all(&store).unwrap();
    let _second = env.start_daemon_with(&[
        "--amqp",
        &broker_url(),
        "--amqp-exchange",
        &exchange,
        "--ledger-mode",
        "amqp",
    ]);
    wait_for_count(&repo, "mutations", 1);

    let rows = env.query_json(&[], &root);
    assert_eq!(repo.stored_content(&rows[0]["before"]), b"old\n");
    assert_eq!(repo.stored_content(&rows[0]["after"]), b"new\n");
    let out = env.hookd(&root, &["rewind", "--call", "toolu_carried", "--apply"]);
    assert!(out.ok(), "{out:?}");
    assert_eq!(std::fs::read_to_string(root.join("a.rs")).unwrap(), "old\n");
    consumer.stop();
}
