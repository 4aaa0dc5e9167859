//! A payload over the 8 MiB line limit travels as a stand-in that keeps
//! what the ledger needs: the tool call (`tool_use_id`, so a Bash call's pre
//! and post events still pair), the file written and its line count.
//! Real emitter, daemon, ledger and `hookd query`.

use hookd_testkit::{GitRepo, TestEnv, tool_payload, wait_for_count};
use serde_json::json;

/// Comfortably over `hookd_proto::MAX_LINE_BYTES`.
const NINE_MIB: usize = 9 * 1024 * 1024;

#[test]
fn a_9_mib_write_keeps_its_file_and_line_count() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let _daemon = env.start_daemon();
    let root = repo.root();
    let line = "0123456\n";
    let lines = NINE_MIB / line.len();
    let payload = tool_payload(
        "PostToolUse",
        "Write",
        &root,
        "toolu_big",
        json!({"file_path": root.join("big.txt"), "content": line.repeat(lines)}),
    );
    assert!(payload.len() > hookd_proto::MAX_LINE_BYTES);
    let out = env.emit(&["PostToolUse"], &payload, &root);
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");

    wait_for_count(&repo, "mutations", 1);
    let rows = env.query_json(&[], &root);
    assert_eq!(rows.len(), 1, "{rows:?}");
    let row = &rows[0];
    assert_eq!(row["tool_name"], "Write");
    assert_eq!(row["file_path"], "big.txt");
    assert_eq!(row["lines_changed"], i64::try_from(lines).unwrap());
    // The emitter links no diff: a stand-in's lines added and removed are unknown.
    assert_eq!(row["lines_added"], serde_json::Value::Null);
    assert_eq!(row["lines_removed"], serde_json::Value::Null);
    assert_eq!(row["tool_use_id"], "toolu_big");
    assert_eq!(row["session_id"], "session-1");
    assert_eq!(row["flags"], json!(["payload_summarised"]));
    let flags: Option<String> = repo
        .ledger()
        .query_row("SELECT flags FROM events", [], |r| r.get(0))
        .unwrap();
    assert_eq!(flags.as_deref(), Some("payload_summarised"));
}

#[test]
fn a_9_mib_bash_pre_tool_use_still_pairs_with_its_post() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let _daemon = env.start_daemon();
    let root = repo.root();
    let command = format!("echo made > created.txt # {}", "x".repeat(NINE_MIB));
    let pre = tool_payload(
        "PreToolUse",
        "Bash",
        &root,
        "toolu_bash",
        json!({"command": command, "description": "a huge command"}),
    );
    let out = env.emit(&["PreToolUse"], &pre, &root);
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    // What the command does, after hookd-emit returned (the snapshot exists).
    std::fs::write(root.join("created.txt"), "made\n").unwrap();
    let post = tool_payload(
        "PostToolUse",
        "Bash",
        &root,
        "toolu_bash",
        json!({"command": "echo made > created.txt"}),
    );
    let out = env.emit(&["PostToolUse"], &post, &root);
    assert!(out.status.success(), "{out:?}");

    wait_for_count(&repo, "mutations", 1);
    let rows = env.query_json(&[], &root);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["tool_name"], "Bash");
    assert_eq!(rows[0]["file_path"], "created.txt");
    assert_eq!(rows[0]["tool_use_id"], "toolu_bash");
}
