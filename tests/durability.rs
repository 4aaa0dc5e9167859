//! No event `hookd-emit` exited 0 for is lost: not while no daemon listens,
//! not across restarts, not when the daemon is SIGKILLed mid-burst.

use std::time::Duration;

use hookd_testkit::{GitRepo, TestEnv, tool_payload, wait_for_count};
use serde_json::json;

/// Emits one Write of `file` in `repo`; asserts exit 0.
fn emit_write(env: &TestEnv, repo: &GitRepo, file: &str, tool_use_id: &str) {
    let root = repo.root();
    let input = json!({"file_path": root.join(file), "content": "x\n"});
    let out = env.emit(
        &["post_tool_use"],
        &tool_payload("PostToolUse", "Write", &root, tool_use_id, input),
        &root,
    );
    assert!(out.status.success(), "emit exited {:?}", out.status);
}

#[test]
fn events_emitted_with_no_daemon_are_stored_once_when_it_starts() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    for i in 0..50 {
        emit_write(&env, &repo, &format!("f{i}.rs"), &format!("t{i}"));
    }
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
