//! No event `hookd-emit` exited 0 for is lost: not while no daemon listens,
//! not across restarts, not when the daemon is SIGKILLed mid-burst.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use hookd_testkit::{GitRepo, TestEnv, envelope_line, tool_payload, wait_for_count, wait_until};
use serde_json::json;

/// Emits one Write of `file` in `repo`; asserts exit 0.
fn emit_write(env: &TestEnv, root: &Path, file: &str, tool_use_id: &str) {
    let input = json!({"file_path": root.join(file), "content": "x\n"});
    let out = env.emit(
        &["post_tool_use"],
        &tool_payload("PostToolUse", "Write", root, tool_use_id, input),
        root,
    );
    assert!(out.status.success(), "emit exited {:?}", out.status);
}

#[test]
fn events_emitted_with_no_daemon_are_stored_once_when_it_starts() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    for i in 0..50 {
        emit_write(&env, &repo.root(), &format!("f{i}.rs"), &format!("t{i}"));
    }
    let status = env.hookd(&repo.root(), &["status"]);
    assert!(
        status.stderr.contains("50 events wait in the journal"),
        "hookd status shows the backlog: {}",
        status.stderr
    );
    let mut daemon = env.start_daemon();
    wait_for_count(&repo, "events", 50);
    wait_for_count(&repo, "mutations", 50);
    assert!(daemon.terminate().success());

    // Two more restarts store nothing twice.
    for _ in 0..2 {
        let mut daemon = env.start_daemon();
        std::thread::sleep(Duration::from_millis(500));
        assert!(daemon.terminate().success());
    }
    assert_eq!(repo.count("events"), 50);
    assert_eq!(repo.count("mutations"), 50);
    assert_eq!(repo.distinct_mutations("file_path"), 50);
}

#[test]
fn sigkilling_the_daemon_during_a_burst_loses_no_event_and_stores_none_twice() {
    const EMITTERS: usize = 4;
    const EACH: usize = 150;
    let env = Arc::new(TestEnv::new());
    let repo = GitRepo::new();
    let root = repo.root();
    let mut daemon = env.start_daemon();
    let done = Arc::new(AtomicUsize::new(0));
    let emitters: Vec<_> = (0..EMITTERS)
        .map(|e| {
            let (env, root, done) = (Arc::clone(&env), root.clone(), Arc::clone(&done));
            std::thread::spawn(move || {
                for i in 0..EACH {
                    emit_write(&env, &root, &format!("e{e}-{i}.rs"), &format!("t{e}-{i}"));
                }
                done.fetch_add(1, Ordering::SeqCst);
            })
        })
        .collect();
    let mut kills = 0;
    while done.load(Ordering::SeqCst) < EMITTERS {
        std::thread::sleep(Duration::from_millis(250));
        assert!(!daemon.kill_hard().success());
        kills += 1;
        daemon = env.start_daemon();
    }
    for emitter in emitters {
        emitter.join().unwrap();
    }
    assert!(kills >= 2, "the burst outlasted {kills} kill(s) only");
    let total = i64::try_from(EMITTERS * EACH).unwrap();
    wait_for_count(&repo, "events", total);
    // Once more, to replay whatever the last kill left, and give a
    // duplicate the time to appear.
    assert!(!daemon.kill_hard().success());
    let mut daemon = env.start_daemon();
    std::thread::sleep(Duration::from_secs(3));
    assert!(daemon.terminate().success());
    assert_eq!(repo.count("events"), total, "every event exactly once");
    assert_eq!(repo.distinct_mutations("file_path"), total);
    assert_eq!(repo.count("mutations"), total);
}

#[test]
fn spooled_events_reach_the_ledger_with_their_mutations_once_it_is_writable() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    // A file where the ledger's directory should be: nothing can be stored.
    std::fs::write(root.join(".hookd"), "in the way").unwrap();
    let mut daemon = env.start_daemon();
    for i in 0..3 {
        emit_write(&env, &root, &format!("s{i}.rs"), &format!("s{i}"));
    }
    wait_until(Duration::from_secs(10), "3 events spooled", || {
        env.spooled().len() == 3
    });
    assert!(daemon.terminate().success());

    // The count of what waits survives a restart.
    let mut daemon = env.start_daemon();
    wait_until(Duration::from_secs(10), "status: 3 spooled", || {
        env.daemon_status()
            .is_some_and(|s| s["stats"]["events_spooled"] == 3)
    });
    let status = env.hookd(&root, &["status"]);
    assert!(
        status.stdout.contains("3 spooled") && status.stdout.contains("3 in the spool"),
        "hookd status shows the spool: {}",
        status.stdout
    );

    // Fixed while it runs: the timer retries the spool.
    std::fs::remove_file(root.join(".hookd")).unwrap();
    wait_for_count(&repo, "events", 3);
    wait_for_count(&repo, "mutations", 3);
    wait_until(Duration::from_secs(10), "spool emptied", || {
        env.spooled().is_empty()
            && env
                .daemon_status()
                .is_some_and(|s| s["stats"]["events_spooled"] == 0)
    });
    assert!(daemon.terminate().success());
    let mut daemon = env.start_daemon();
    std::thread::sleep(Duration::from_millis(500));
    assert!(daemon.terminate().success());
    assert_eq!(repo.count("events"), 3);
    assert_eq!(repo.count("mutations"), 3);
}

#[test]
fn a_socket_activated_daemon_leaves_the_socket_and_its_queue_to_the_next_one() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    // What hookd.socket does: systemd binds and holds the socket.
    let listener = std::os::unix::net::UnixListener::bind(env.socket()).unwrap();
    let mut daemon = env.start_daemon_on(&listener);
    emit_write(&env, &root, "a.rs", "a");
    wait_for_count(&repo, "events", 1);
    assert!(daemon.terminate().success(), "log:\n{}", daemon.log_text());
    assert!(env.socket().exists(), "the socket outlives the daemon");

    // Between two daemons the socket still takes connections; the emitter
    // gets no acknowledgement and keeps its line too.
    for i in 0..3 {
        emit_write(&env, &root, &format!("b{i}.rs"), &format!("b{i}"));
    }
    let mut daemon = env.start_daemon_on(&listener);
    wait_for_count(&repo, "events", 4);
    // Give the journal's copies the time to be replayed: still once each.
    std::thread::sleep(Duration::from_secs(3));
    assert!(daemon.terminate().success());
    assert_eq!(repo.count("events"), 4);
    assert_eq!(repo.count("mutations"), 4);
}

#[test]
fn a_journal_line_that_does_not_parse_is_set_aside_and_the_rest_stored() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let payload: serde_json::Value = serde_json::from_str(&tool_payload(
        "PostToolUse",
        "Write",
        &root,
        "good",
        json!({"file_path": root.join("good.rs"), "content": "x\n"}),
    ))
    .unwrap();
    let good = envelope_line(
        "post_tool_use",
        None,
        payload,
        "2026-11-26T08:00:00.000Z",
        1,
    );
    let journal = env.journal_dir();
    std::fs::write(journal.join("pending.jsonl"), format!("{{not json\n{good}")).unwrap();
    let mut daemon = env.start_daemon();
    wait_for_count(&repo, "events", 1);
    wait_until(Duration::from_secs(10), "journal taken over", || {
        !journal.join("pending.jsonl").exists()
    });
    assert!(daemon.terminate().success());
    assert_eq!(
        std::fs::read_to_string(journal.join("rejected.jsonl")).unwrap(),
        "{not json\n"
    );
    let left: Vec<_> = std::fs::read_dir(&journal)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, ["rejected.jsonl"], "nothing else left behind");
}
