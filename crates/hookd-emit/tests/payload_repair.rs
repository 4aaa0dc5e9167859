//! A payload with a lone UTF-16 surrogate escape (Node writes one when a
//! string is cut inside an emoji) is repaired, not stored as an opaque
//! string: tool, session, tool call and the mutation survive, flagged
//! `payload_repaired`. Real emitter, daemon, ledger and `hookd query`.

use std::path::Path;

use hookd_testkit::{GitRepo, TestEnv, tool_payload, wait_for_count};
use serde_json::{Value, json};

/// A Write PostToolUse whose content ends in half an emoji, as JSON text.
fn write_with_lone_surrogate(root: &Path) -> String {
    let payload = tool_payload(
        "PostToolUse",
        "Write",
        root,
        "toolu_cut",
        json!({"file_path": root.join("notes.md"), "content": "one\ntwo \u{1F600} cut: CUT\n"}),
    );
    // serde_json cannot produce the lone half itself: splice the escape in.
    let text = payload.replace("CUT", "\\uD83D");
    assert!(
        serde_json::from_str::<Value>(&text).is_err(),
        "not broken: {text}"
    );
    text
}

/// The `flags` and `payload_valid` of the only event of `repo`.
fn event_flags(repo: &GitRepo) -> (Option<String>, bool, String) {
    repo.ledger()
        .query_row(
            "SELECT flags, payload_valid, raw_payload FROM events",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("one event")
}

fn assert_repaired_row(env: &TestEnv, repo: &GitRepo) {
    let root = repo.root();
    wait_for_count(repo, "mutations", 1);
    let rows = env.query_json(&[], &root);
    assert_eq!(rows.len(), 1, "{rows:?}");
    let row = &rows[0];
    assert_eq!(row["tool_name"], "Write");
    assert_eq!(row["session_id"], "session-1");
    assert_eq!(row["tool_use_id"], "toolu_cut");
    assert_eq!(row["file_path"], "notes.md");
    assert_eq!(row["lines_changed"], 2);
    assert_eq!(row["flags"], json!(["payload_repaired"]));
    let (flags, valid, raw) = event_flags(repo);
    assert_eq!(flags.as_deref(), Some("payload_repaired"));
    assert!(valid, "the repaired payload is valid JSON");
    let payload: Value = serde_json::from_str(&raw).unwrap();
    assert_eq!(
        payload["tool_input"]["content"],
        "one\ntwo \u{1F600} cut: \u{FFFD}\n"
    );
}

#[test]
fn hookd_emit_repairs_a_lone_surrogate_and_the_event_keeps_its_mutation() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let _daemon = env.start_daemon();
    let root = repo.root();
    let out = env.emit(&["PostToolUse"], &write_with_lone_surrogate(&root), &root);
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    assert_repaired_row(&env, &repo);
}

#[test]
fn the_daemon_repairs_raw_text_an_older_emitter_sent_as_a_string() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let _daemon = env.start_daemon();
    let root = repo.root();
    // What an emitter that could not parse stdin sends: the text, flagged.
    let line = json!({
        "event_type": "post_tool_use",
        "tool_name": "Write",
        "payload": write_with_lone_surrogate(&root),
        "timestamp": "2026-11-21T10:00:00.123Z",
        "pid": 4242,
        "payload_invalid": true,
    });
    env.send_line(&line.to_string());
    assert_repaired_row(&env, &repo);
}

#[test]
fn raw_text_that_is_not_json_even_after_repair_stays_a_flagged_string() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let _daemon = env.start_daemon();
    let root = repo.root();
    let text = format!("{{\"cwd\": \"{}\", oops \\uD83D", root.display());
    let line = json!({
        "event_type": "post_tool_use",
        "tool_name": "Write",
        "payload": text,
        "timestamp": "2026-11-21T10:00:00.123Z",
        "pid": 4242,
        "payload_invalid": true,
        "cwd": root,
    });
    env.send_line(&line.to_string());
    wait_for_count(&repo, "events", 1);
    let (flags, valid, raw) = event_flags(&repo);
    assert_eq!(flags, None);
    assert!(!valid);
    assert_eq!(raw, Value::String(text).to_string());
}
