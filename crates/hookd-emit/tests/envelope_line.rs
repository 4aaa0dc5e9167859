//! What reaches the socket when all goes well: the exact line shape, the
//! tool name rules, invalid and oversized payloads, and the optional fields.

mod common;

use std::time::{Duration, SystemTime};

use common::{
    EMIT, FakeDaemon, REQUIRED_KEYS, emitter, is_rfc3339_millis, leading_keys, parse_line,
};
use hookd_testkit::run;
use serde_json::{Value, json};

const PRETTY_PAYLOAD: &str = r#"{
  "session_id": "abc123",
  "hook_event_name": "PostToolUse",
  "tool_name": "Write",
  "tool_input": {
    "file_path": "/tmp/x.txt",
    "content": "line one\nline two\n"
  }
}
"#;

#[test]
fn line_is_one_compact_json_object_in_wire_order() {
    let daemon = FakeDaemon::start();
    let result = run(
        emitter(EMIT, &daemon.path, &["PostToolUse", "Write"]),
        PRETTY_PAYLOAD.as_bytes(),
    );
    result.assert_exit_0_silent_stdout();
    assert_eq!(result.stderr, "");

    let line = daemon.receive_line();
    let envelope = parse_line(&line);
    assert_eq!(leading_keys(&envelope), REQUIRED_KEYS);
    assert_eq!(envelope["event_type"], "PostToolUse");
    assert_eq!(envelope["tool_name"], "Write");
    let expected: Value = serde_json::from_str(PRETTY_PAYLOAD).unwrap();
    assert_eq!(envelope["payload"], expected);
    // The payload's own key order survives the round trip.
    let payload_keys: Vec<&str> = envelope["payload"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        payload_keys,
        ["session_id", "hook_event_name", "tool_name", "tool_input"]
    );
    assert_eq!(envelope["pid"], std::process::id());
    assert_eq!(envelope["version"], hookd_proto::ENVELOPE_VERSION);
    assert_eq!(envelope.get("payload_invalid"), None);
    assert_eq!(envelope.get("agent_id"), None);

    let stamp = envelope["timestamp"].as_str().unwrap();
    assert!(is_rfc3339_millis(stamp), "bad timestamp {stamp}");
    let sent = humantime::parse_rfc3339(stamp).unwrap();
    let skew = SystemTime::now()
        .duration_since(sent)
        .unwrap_or_else(|err| err.duration());
    assert!(skew < Duration::from_secs(60), "timestamp {stamp} is off");
}

#[test]
fn line_fits_the_daemon_envelope_type() {
    let daemon = FakeDaemon::start();
    run(
        emitter(EMIT, &daemon.path, &["PreToolUse"]),
        PRETTY_PAYLOAD.as_bytes(),
    )
    .assert_exit_0_silent_stdout();
    let line = daemon.receive_line();
    let envelope: hookd_proto::Envelope = serde_json::from_slice(&line).unwrap();
    assert_eq!(envelope.event_type, "PreToolUse");
    assert_eq!(envelope.tool_name.as_deref(), Some("Write"));
    assert_eq!(envelope.pid, Some(std::process::id()));
    assert!(!envelope.payload_invalid);
}

#[test]
fn tool_name_argument_overrides_the_payload() {
    let daemon = FakeDaemon::start();
    run(
        emitter(EMIT, &daemon.path, &["PreToolUse", "Bash"]),
        br#"{"tool_name":"Write"}"#,
    )
    .assert_exit_0_silent_stdout();
    let envelope = parse_line(&daemon.receive_line());
    assert_eq!(envelope["tool_name"], "Bash");
    assert_eq!(envelope["payload"], json!({"tool_name": "Write"}));
}

#[test]
fn tool_name_falls_back_to_the_payload() {
    let daemon = FakeDaemon::start();
    run(
        emitter(EMIT, &daemon.path, &["PreToolUse"]),
        br#"{"tool_name":"mcp__memory__store","tool_input":{}}"#,
    )
    .assert_exit_0_silent_stdout();
    let envelope = parse_line(&daemon.receive_line());
    assert_eq!(envelope["tool_name"], "mcp__memory__store");
}

#[test]
fn empty_tool_name_argument_counts_as_omitted() {
    let daemon = FakeDaemon::start();
    run(
        emitter(EMIT, &daemon.path, &["PreToolUse", ""]),
        br#"{"tool_name":"Edit"}"#,
    )
    .assert_exit_0_silent_stdout();
    assert_eq!(parse_line(&daemon.receive_line())["tool_name"], "Edit");
}

#[test]
fn tool_name_is_null_when_known_nowhere() {
    let daemon = FakeDaemon::start();
    run(
        emitter(EMIT, &daemon.path, &["Stop"]),
        br#"{"session_id":"s","stop_hook_active":false}"#,
    )
    .assert_exit_0_silent_stdout();
    let envelope = parse_line(&daemon.receive_line());
    assert_eq!(leading_keys(&envelope), REQUIRED_KEYS);
    assert_eq!(envelope["tool_name"], Value::Null);
}

#[test]
fn invalid_json_is_delivered_as_a_flagged_string() {
    let daemon = FakeDaemon::start();
    let stdin = b"{\"tool_name\": \"Write\",\n oops \xff}\n";
    let result = run(emitter(EMIT, &daemon.path, &["PostToolUse"]), stdin);
    result.assert_exit_0_silent_stdout();
    assert_eq!(result.stderr, "");

    let envelope = parse_line(&daemon.receive_line());
    assert_eq!(leading_keys(&envelope), REQUIRED_KEYS);
    assert_eq!(
        envelope["payload"],
        "{\"tool_name\": \"Write\",\n oops \u{fffd}}\n"
    );
    assert_eq!(envelope["payload_invalid"], true);
    assert_eq!(envelope["tool_name"], Value::Null);
}

#[test]
fn oversized_payload_is_summarised_not_dropped() {
    let daemon = FakeDaemon::start();
    let content = "x".repeat(hookd_proto::MAX_LINE_BYTES + 1024);
    let stdin = json!({
        "session_id": "sess-1",
        "transcript_path": "/t.jsonl",
        "cwd": "/home/u/project",
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": "/big", "content": content},
    })
    .to_string();

    let mut command = emitter(EMIT, &daemon.path, &["PreToolUse"]);
    command.env("HOOKD_DEBUG", "1");
    let result = run(command, stdin.as_bytes());
    result.assert_exit_0_silent_stdout();
    assert!(
        result.stderr.contains("exceeds the"),
        "stderr: {}",
        result.stderr
    );

    let line = daemon.receive_line();
    assert!(line.len() < 4096, "summary line is {} bytes", line.len());
    let envelope = parse_line(&line);
    assert_eq!(leading_keys(&envelope), REQUIRED_KEYS);
    assert_eq!(envelope["tool_name"], "Write");
    assert_eq!(envelope["payload_invalid"], true);
    assert_eq!(
        envelope["payload"],
        json!({
            "hookd_error": "payload too large",
            "bytes": stdin.len(),
            "tool_name": "Write",
            "session_id": "sess-1",
            "cwd": "/home/u/project",
            "hook_event_name": "PreToolUse",
            "tool_input": {"file_path": "/big"},
            "lines_changed": 0,
        })
    );
    assert_eq!(envelope["payload_summarised"], true);
}

#[test]
fn payload_just_under_the_limit_is_sent_whole() {
    let daemon = FakeDaemon::start();
    let content = "y".repeat(hookd_proto::MAX_LINE_BYTES - 4096);
    let stdin = json!({"tool_name": "Write", "tool_input": {"content": content}}).to_string();
    // Read while the emitter writes: the line is far larger than the socket buffer.
    let (result, line) = std::thread::scope(|scope| {
        let reader = scope.spawn(|| daemon.receive(Duration::from_secs(10)));
        let result = run(
            emitter(EMIT, &daemon.path, &["PreToolUse"]),
            stdin.as_bytes(),
        );
        (result, reader.join().unwrap().expect("no connection"))
    });
    result.assert_exit_0_silent_stdout();
    assert!(line.len() - 1 <= hookd_proto::MAX_LINE_BYTES);
    let envelope = parse_line(&line);
    assert_eq!(
        envelope["payload"]["tool_input"]["content"],
        content.as_str()
    );
    assert_eq!(envelope.get("payload_invalid"), None);
}

#[test]
fn agent_id_and_cwd_describe_the_calling_process() {
    let daemon = FakeDaemon::start();
    let workdir = tempfile::tempdir().unwrap();
    let mut command = emitter(EMIT, &daemon.path, &["SubagentStart"]);
    command
        .env("CLAUDE_AGENT_ID", "agent-7f3")
        .current_dir(workdir.path());
    run(command, b"{}").assert_exit_0_silent_stdout();

    let envelope = parse_line(&daemon.receive_line());
    assert_eq!(envelope["agent_id"], "agent-7f3");
    let expected_cwd = workdir.path().canonicalize().unwrap();
    assert_eq!(envelope["cwd"], expected_cwd.to_str().unwrap());
    let optional: Vec<&str> = envelope.keys().skip(5).map(String::as_str).collect();
    assert_eq!(optional, ["agent_id", "cwd", "version", "event_id"]);
}

#[test]
fn empty_agent_id_is_left_out() {
    let daemon = FakeDaemon::start();
    let mut command = emitter(EMIT, &daemon.path, &["Stop"]);
    command.env("CLAUDE_AGENT_ID", "");
    run(command, b"{}").assert_exit_0_silent_stdout();
    assert_eq!(parse_line(&daemon.receive_line()).get("agent_id"), None);
}

#[test]
fn debug_reports_the_delivered_byte_count() {
    let daemon = FakeDaemon::start();
    let mut command = emitter(EMIT, &daemon.path, &["Notification"]);
    command.env("HOOKD_DEBUG", "1");
    // Received (and acknowledged) while the emitter runs, as a daemon does.
    let (result, line) = std::thread::scope(|scope| {
        let received = scope.spawn(|| daemon.receive(Duration::from_secs(5)));
        let result = run(command, br#"{"message":"hi"}"#);
        (result, received.join().unwrap().expect("a connection"))
    });
    result.assert_exit_0_silent_stdout();
    assert!(
        !common::data_dir_beside(&daemon.path).exists(),
        "an acknowledged line is not journaled"
    );
    assert_eq!(
        result.stderr,
        format!(
            "hookd-emit: delivered {} bytes to {}\n",
            line.len(),
            daemon.path.display()
        )
    );
}
