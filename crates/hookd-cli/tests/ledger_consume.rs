//! `hookd ledger consume` and `hookd amqp declare` end to end: the real
//! binary against the real RabbitMQ on 127.0.0.1:5672, a unique exchange and
//! queue per test, events published by the test itself, and the real
//! `hookd query` reading back what the consumer wrote.
//!
//! hookd-cli does not depend on lapin, so the test reaches the broker
//! through the connection `hookd_core::amqp::topology::connect` returns,
//! with lapin's option and property types left to inference.

use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

use hookd_core::amqp::ToolMutationEvent;
use hookd_core::amqp::consumer::{dead_letter_exchange, parking_queue};
use hookd_testkit::amqp::{Topology, block_on, broker_url, no_broker};
use hookd_testkit::{ChildProcess, GitRepo, TestEnv, poll_until};

/// Publishes raw bodies (routing key, body) to `exchange` with publisher
/// confirms, as a daemon would.
fn publish(exchange: &str, messages: Vec<(String, Vec<u8>)>) {
    let exchange = exchange.to_owned();
    block_on(async move {
        let connection = hookd_core::amqp::topology::connect(&broker_url())
            .await
            .unwrap_or_else(|err| no_broker(err));
        let channel = connection.create_channel().await.expect("channel");
        channel
            .confirm_select(Default::default())
            .await
            .expect("confirm_select");
        for (key, body) in &messages {
            channel
                .basic_publish(
                    exchange.as_str().into(),
                    key.as_str().into(),
                    Default::default(),
                    body,
                    Default::default(),
                )
                .await
                .expect("publish");
        }
        let returned = channel.wait_for_confirms().await.expect("confirms");
        assert!(returned.is_empty(), "unroutable: {returned:?}");
        let _ = connection.close(200, "published".into()).await;
    });
}

/// Messages (ready, parked) in the ledger queue and its parking queue;
/// redeclaring is idempotent and reports both.
fn depths(topology: &Topology) -> (u32, u32) {
    let depths = block_on(hookd_core::amqp::consumer::declare_topology(
        &broker_url(),
        &topology.exchange,
        &topology.queue,
    ))
    .unwrap_or_else(|err| no_broker(err));
    (depths.ready, depths.parked)
}

/// A temp HOME and data dir, and a real git repository, for one test.
struct Env {
    test: TestEnv,
    git: GitRepo,
    /// The repository's root, where hookd runs.
    repo: PathBuf,
}

impl Env {
    fn new() -> Self {
        let git = GitRepo::new();
        Self {
            test: TestEnv::new(),
            repo: git.root(),
            git,
        }
    }

    /// `hookd args...` in the repository, pointed at this environment
    /// (which has no broker URL in it).
    fn run(&self, args: &[&str]) -> Output {
        self.test
            .command("hookd")
            .args(args)
            .current_dir(&self.repo)
            .env("HOOKD_LOG", "info")
            .output()
            .expect("run hookd")
    }

    /// `hookd query --repo <repo> --format json`, parsed, or its error.
    fn query(&self) -> Result<Vec<serde_json::Value>, String> {
        let repo = self.repo.to_str().unwrap();
        let out = self.run(&["query", "--repo", repo, "--format", "json"]);
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into_owned());
        }
        Ok(serde_json::from_slice(&out.stdout).expect("query prints a JSON array"))
    }

    /// Polls `hookd query` until it shows at least `rows` rows. Failures
    /// while the consumer creates the ledger (no file yet, schema being
    /// created) are retried; the last one is shown on timeout.
    fn wait_for_rows(&self, rows: usize) -> Vec<serde_json::Value> {
        let mut last = String::new();
        poll_until(Duration::from_secs(30), || match self.query() {
            Ok(found) if found.len() >= rows => Some(found),
            Ok(found) => {
                last = format!("{} rows", found.len());
                None
            }
            Err(err) => {
                last = err;
                None
            }
        })
        .unwrap_or_else(|| panic!("hookd query never showed {rows} rows; last: {last}"))
    }

    /// A `Write` of `lines` lines in the repository, as the daemon would publish it.
    fn write_event(&self, file: &str, lines: usize) -> ToolMutationEvent {
        self.git.write_event(file, lines)
    }
}

/// A running `hookd ledger consume`, killed if the test fails first.
struct Consumer {
    process: ChildProcess,
}

impl Consumer {
    fn start(env: &Env, topology: &Topology) -> Self {
        let process = env
            .test
            .start_ledger_consumer(topology, &["--prefetch", "16"]);
        Self { process }
    }

    fn log(&self) -> String {
        self.process.log_text()
    }

    /// SIGTERM, then the exit status and stdout (bounded wait).
    fn terminate(&mut self) -> (std::process::ExitStatus, String) {
        let status = self.process.terminate();
        (status, self.process.stdout_text())
    }
}

#[test]
fn consume_writes_what_query_shows_and_stops_cleanly_on_sigterm() {
    let env = Env::new();
    let topology = Topology::new();

    // Declared ahead, so what is published before the consumer runs waits in the queue.
    let out = env.run(&[
        "amqp",
        "declare",
        "--amqp",
        &broker_url(),
        "--exchange",
        &topology.exchange,
        "--queue",
        &topology.queue,
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "hookd amqp declare: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.starts_with("Declared on amqp://guest:***@"),
        "{stdout}"
    );
    assert!(!stdout.contains("guest:guest"), "password leaked: {stdout}");
    for line in [
        format!("  exchange {} (topic, durable)", topology.exchange),
        format!(
            "  exchange {} (fanout, durable)",
            dead_letter_exchange(&topology.exchange)
        ),
        format!(
            "  queue {} (durable, bound to {} with #",
            topology.queue, topology.exchange
        ),
        format!("  queue {} (durable", parking_queue(&topology.queue)),
    ] {
        assert!(stdout.contains(&line), "missing {line:?} in:\n{stdout}");
    }

    let first = env.write_event("src/lib.rs", 3);
    let second = env.write_event("docs/guide.md", 1);
    let message =
        |event: &ToolMutationEvent| (event.event_type.clone(), serde_json::to_vec(event).unwrap());
    publish(
        &topology.exchange,
        vec![
            message(&first),
            ("tool.mutation.write".to_owned(), b"not json".to_vec()),
            message(&second),
            // Redelivered duplicate: stored once.
            message(&first),
        ],
    );
    assert_eq!(depths(&topology), (4, 0));

    let mut consumer = Consumer::start(&env, &topology);
    env.wait_for_rows(2);
    // Published while it runs: picked up live.
    let third = env.write_event("src/main.rs", 1);
    publish(&topology.exchange, vec![message(&third)]);
    env.wait_for_rows(3);

    let (status, stdout) = consumer.terminate();
    assert!(
        status.success(),
        "exit {status:?}; log:\n{}",
        consumer.log()
    );
    assert_eq!(
        stdout,
        "hookd ledger consume: stored 3 events, 1 duplicates, 1 dead-lettered\n",
        "log:\n{}",
        consumer.log()
    );
    let log = consumer.log();
    assert!(
        log.contains("dead-lettering an unreadable message"),
        "{log}"
    );
    assert!(
        !log.contains("guest:guest"),
        "password leaked to the log: {log}"
    );

    let rows = env.query().expect("hookd query");
    assert_eq!(rows.len(), 3, "{rows:#?}");
    let files: Vec<&str> = rows
        .iter()
        .map(|r| r["file_path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["src/lib.rs", "docs/guide.md", "src/main.rs"]);
    let row = &rows[0];
    assert_eq!(row["event_id"], first.event_id.as_str());
    assert_eq!(row["tool_name"], "Write");
    assert_eq!(row["event_type"], "tool.mutation.write");
    assert_eq!(row["file_ext"], "rs");
    assert_eq!(row["lines_changed"], 3);
    assert_eq!(row["branch"], "main");
    assert_eq!(row["head_sha"], first.repo.head_sha.as_str());
    assert_eq!(row["agent_id"], "session-1");
    // Acked after storing; the unreadable message is parked, not lost.
    assert_eq!(depths(&topology), (0, 1));
}

#[test]
fn consume_and_declare_without_a_broker_url_fail_clearly() {
    let env = Env::new();
    for args in [&["ledger", "consume"][..], &["amqp", "declare"][..]] {
        let out = env.run(args);
        assert!(!out.status.success(), "{args:?} succeeded without a URL");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("no broker URL: pass --amqp or set HOOKD_AMQP_URL"),
            "{args:?}: {stderr}"
        );
    }
    // An unusable URL is an immediate error too, not a reconnect loop.
    let out = env.run(&["ledger", "consume", "--amqp", "amqps://u:secret@127.0.0.1/"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("invalid broker URL"), "{stderr}");
    assert!(!stderr.contains("secret"), "{stderr}");
}

#[test]
fn every_flag_is_documented() {
    let env = Env::new();
    for (command, flags) in [
        (
            &["ledger", "consume", "--help"][..],
            &[
                "--amqp",
                "--exchange",
                "--queue",
                "--prefetch",
                "--data-dir",
            ][..],
        ),
        (
            &["amqp", "declare", "--help"][..],
            &["--amqp", "--exchange", "--queue"][..],
        ),
    ] {
        let run = env.test.hookd(&env.repo, command);
        assert!(run.ok(), "{}", run.stderr);
        let help = run.stdout;
        assert!(help.contains("HOOKD_AMQP_URL"), "{help}");
        for flag in flags {
            let line = help
                .lines()
                .find(|l| l.trim_start().starts_with(flag))
                .unwrap_or_else(|| panic!("{flag} missing from {command:?}:\n{help}"));
            // Flag, value name, then a description.
            assert!(
                line.split_whitespace().count() > 2,
                "{flag} undocumented: {line}"
            );
        }
    }
    let out = env.run(&["ledger", "consume", "--prefetch", "0", "--amqp", "amqp://x"]);
    assert!(
        !out.status.success(),
        "a prefetch of 0 means unlimited to AMQP; refused"
    );
}

#[test]
fn the_broker_url_can_come_from_the_config_file() {
    let env = Env::new();
    let topology = Topology::new();
    let config_dir = env.test.home().join(".config/hookd");
    std::fs::create_dir_all(&config_dir).unwrap();
    std::fs::write(
        config_dir.join("config.toml"),
        format!("[amqp]\nurl = \"{}\"\n", broker_url()),
    )
    .unwrap();
    let out = env.run(&[
        "amqp",
        "declare",
        "--exchange",
        &topology.exchange,
        "--queue",
        &topology.queue,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains(&topology.queue));
}
