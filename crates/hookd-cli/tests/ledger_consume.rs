//! `hookd ledger consume` and `hookd amqp declare` end to end: the real
//! binary against the real RabbitMQ on 127.0.0.1:5672, a unique exchange and
//! queue per test, events published by the test itself, and the real
//! `hookd query` reading back what the consumer wrote.
//!
//! hookd-cli does not depend on lapin, so the test reaches the broker
//! through the connection `hookd_core::amqp::topology::connect` returns,
//! with lapin's option and property types left to inference.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::TempDir;
use hookd_core::Envelope;
use hookd_core::amqp::ToolMutationEvent;
use hookd_core::amqp::consumer::{dead_letter_exchange, parking_queue};
use hookd_core::record::LedgerEntry;

fn broker_url() -> String {
    std::env::var("HOOKD_TEST_AMQP_URL")
        .ok()
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| "amqp://guest:guest@127.0.0.1:5672/%2f".to_owned())
}

fn no_broker(err: impl std::fmt::Display) -> ! {
    panic!(
        "no RabbitMQ at {}: {err}. These tests need a real broker: start one with \
         `rabbitmq-server -detached` (Debian package rabbitmq-server) or set HOOKD_TEST_AMQP_URL",
        broker_url()
    )
}

/// A unique exchange and queue; the broker is shared, so they are deleted
/// on drop, even when the test panics.
struct Names {
    exchange: String,
    queue: String,
}

impl Names {
    fn new() -> Self {
        let id = format!(
            "{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        );
        Self {
            exchange: format!("hookd.test.{id}"),
            queue: format!("hookd.test.{id}.ledger"),
        }
    }
}

impl Drop for Names {
    fn drop(&mut self) {
        let queues = [parking_queue(&self.queue), self.queue.clone()];
        let exchanges = [dead_letter_exchange(&self.exchange), self.exchange.clone()];
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

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(future)
}

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
fn depths(names: &Names) -> (u32, u32) {
    let depths = block_on(hookd_core::amqp::consumer::declare_topology(
        &broker_url(),
        &names.exchange,
        &names.queue,
    ))
    .unwrap_or_else(|err| no_broker(err));
    (depths.ready, depths.parked)
}

/// A temp HOME and data dir, and a real git repository, for one test.
struct Env {
    dir: TempDir,
    repo: PathBuf,
}

impl Env {
    fn new() -> Self {
        let dir = TempDir::create();
        for sub in ["home", "data", "repo"] {
            std::fs::create_dir(dir.path().join(sub)).unwrap();
        }
        let repo = dir.path().join("repo").canonicalize().unwrap();
        git(&repo, &["init", "--quiet", "--initial-branch=main"]);
        std::fs::write(repo.join("README.md"), "hello\n").unwrap();
        git(&repo, &["add", "README.md"]);
        git(&repo, &["commit", "--quiet", "-m", "initial"]);
        Self { dir, repo }
    }

    /// `hookd args...` pointed at this environment, with no broker URL in it.
    fn hookd(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hookd"));
        cmd.args(args)
            .current_dir(&self.repo)
            .env("HOME", self.dir.path().join("home"))
            .env("HOOKD_DATA_DIR", self.dir.path().join("data"))
            .env("HOOKD_LOG", "info")
            .env_remove("HOOKD_AMQP_URL")
            .env_remove("HOOKD_AMQP_EXCHANGE")
            .env_remove("HOOKD_CONFIG")
            .env_remove("XDG_DATA_HOME")
            .env_remove("XDG_CONFIG_HOME");
        cmd
    }

    fn run(&self, args: &[&str]) -> Output {
        self.hookd(args).output().expect("run hookd")
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
        let start = Instant::now();
        loop {
            let last = match self.query() {
                Ok(found) if found.len() >= rows => return found,
                Ok(found) => format!("{} rows", found.len()),
                Err(err) => err,
            };
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "hookd query never showed {rows} rows; last: {last}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A `Write` in the repository, as the daemon would publish it.
    fn write_event(&self, file: &str, content: &str) -> ToolMutationEvent {
        let payload = serde_json::json!({
            "session_id": "session-cli", "cwd": self.repo, "hook_event_name": "PostToolUse",
            "tool_name": "Write", "tool_use_id": format!("tu-{file}"),
            "tool_input": {"file_path": self.repo.join(file), "content": content},
        });
        let envelope = Envelope::new(
            "post_tool_use",
            None,
            payload,
            "2026-11-21T10:00:00.000Z",
            Some(77),
        );
        let event = hookd_core::daemon::extract::hook_event(
            &envelope,
            format!("cli-{file}-{}", std::process::id()),
            envelope.timestamp.clone(),
            "2026-11-21T10:00:00.010Z".to_owned(),
        );
        let facts = hookd_core::daemon::enrich::Enricher::new().facts_for_dir(&self.repo);
        assert_eq!(facts.git_root.as_deref(), Some(self.repo.as_path()));
        let mutations = hookd_core::daemon::extract::direct_mutation(&event, &facts)
            .into_iter()
            .collect();
        ToolMutationEvent::from_entry(&LedgerEntry {
            event,
            repo: facts,
            mutations,
        })
    }
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=hookd tests",
            "-c",
            "user.email=tests@hookd.invalid",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A running `hookd ledger consume`, killed if the test fails first.
struct Consumer {
    child: Option<Child>,
    log: PathBuf,
}

impl Consumer {
    fn start(env: &Env, names: &Names) -> Self {
        let log = env.dir.path().join("consumer.log");
        let child = env
            .hookd(&[
                "ledger",
                "consume",
                "--amqp",
                &broker_url(),
                "--exchange",
                &names.exchange,
                "--queue",
                &names.queue,
                "--prefetch",
                "16",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("spawn hookd ledger consume");
        Self {
            child: Some(child),
            log,
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGTERM, then the exit status and stdout (bounded wait).
    fn terminate(&mut self) -> (std::process::ExitStatus, String) {
        let child = self.child.take().expect("running");
        let status = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
        let (done, output) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(child.wait_with_output());
        });
        let out = output
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| {
                panic!(
                    "hookd ledger consume did not stop within 20 s of SIGTERM; log:\n{}",
                    self.log()
                )
            })
            .expect("wait for hookd");
        (
            out.status,
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }
}

impl Drop for Consumer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn consume_writes_what_query_shows_and_stops_cleanly_on_sigterm() {
    let env = Env::new();
    let names = Names::new();

    // Declared ahead, so what is published before the consumer runs waits in the queue.
    let out = env.run(&[
        "amqp",
        "declare",
        "--amqp",
        &broker_url(),
        "--exchange",
        &names.exchange,
        "--queue",
        &names.queue,
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
        format!("  exchange {} (topic, durable)", names.exchange),
        format!(
            "  exchange {} (fanout, durable)",
            dead_letter_exchange(&names.exchange)
        ),
        format!(
            "  queue {} (durable, bound to {} with #",
            names.queue, names.exchange
        ),
        format!("  queue {} (durable", parking_queue(&names.queue)),
    ] {
        assert!(stdout.contains(&line), "missing {line:?} in:\n{stdout}");
    }

    let first = env.write_event("src/lib.rs", "a\nb\nc\n");
    let second = env.write_event("docs/guide.md", "one\n");
    let message =
        |event: &ToolMutationEvent| (event.event_type.clone(), serde_json::to_vec(event).unwrap());
    publish(
        &names.exchange,
        vec![
            message(&first),
            ("tool.mutation.write".to_owned(), b"not json".to_vec()),
            message(&second),
            // Redelivered duplicate: stored once.
            message(&first),
        ],
    );
    assert_eq!(depths(&names), (4, 0));

    let mut consumer = Consumer::start(&env, &names);
    env.wait_for_rows(2);
    // Published while it runs: picked up live.
    let third = env.write_event("src/main.rs", "fn main() {}\n");
    publish(&names.exchange, vec![message(&third)]);
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
    assert_eq!(row["agent_id"], "session-cli");
    // Acked after storing; the unreadable message is parked, not lost.
    assert_eq!(depths(&names), (0, 1));
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
        let run = common::hookd(&env.dir.path().join("home"), &env.repo, command);
        assert!(run.ok, "{}", run.stderr);
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
    let names = Names::new();
    let config_dir = env.dir.path().join("home/.config/hookd");
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
        &names.exchange,
        "--queue",
        &names.queue,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains(&names.queue));
}
