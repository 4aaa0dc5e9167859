//! hookd-emit and the bash + jq + socat baseline (tests/fixtures/bash-emitter.sh)
//! must put the same envelope on the wire, so the daemon treats a user's old
//! script and the new binary alike.

mod common;

use std::path::Path;
use std::time::Duration;

use common::{
    EMIT, FakeDaemon, REQUIRED_KEYS, emitter, is_rfc3339_millis, leading_keys, parse_line,
};
use hookd_testkit::{bash_emitter, run};
use serde_json::{Map, Value};

const PAYLOAD: &str = r#"{
  "session_id": "abc123",
  "cwd": "/home/u/project",
  "hook_event_name": "PostToolUse",
  "tool_name": "Edit",
  "tool_input": {"file_path": "/home/u/project/a.rs", "old_string": "a\n", "new_string": "b\t\"c\"\n"},
  "duration_ms": 12
}"#;

fn envelope_from(program: &Path, args: &[&str], stdin: &str) -> Map<String, Value> {
    let daemon = FakeDaemon::start();
    let result = run(emitter(program, &daemon.path, args), stdin.as_bytes());
    result.assert_exit_0_silent_stdout();
    let line = daemon.receive(Duration::from_secs(5)).unwrap_or_else(|| {
        panic!(
            "{} sent nothing; stderr: {}",
            program.display(),
            result.stderr
        )
    });
    parse_line(&line)
}

fn assert_same_envelope(args: &[&str]) {
    let ours = envelope_from(Path::new(EMIT), args, PAYLOAD);
    let theirs = envelope_from(&bash_emitter(), args, PAYLOAD);

    assert_eq!(leading_keys(&ours), REQUIRED_KEYS);
    assert_eq!(leading_keys(&theirs), REQUIRED_KEYS);
    for key in ["event_type", "tool_name", "payload", "pid"] {
        assert_eq!(ours[key], theirs[key], "{key} differs for {args:?}");
    }
    // Both report their caller, which is this test process.
    assert_eq!(ours["pid"], std::process::id());
    for envelope in [&ours, &theirs] {
        let stamp = envelope["timestamp"].as_str().unwrap();
        assert!(is_rfc3339_millis(stamp), "bad timestamp {stamp}");
    }
}

#[test]
fn same_envelope_with_tool_name_argument() {
    assert_same_envelope(&["PostToolUse", "MultiEdit"]);
}

#[test]
fn same_envelope_with_tool_name_from_payload() {
    assert_same_envelope(&["PostToolUse"]);
}

#[test]
fn bash_emitter_sends_null_tool_name_when_unknown() {
    let envelope = envelope_from(&bash_emitter(), &["Stop"], r#"{"session_id":"s"}"#);
    assert_eq!(envelope["tool_name"], Value::Null);
}

#[test]
fn bash_emitter_ignores_empty_stdin() {
    let daemon = FakeDaemon::start();
    let result = run(emitter(bash_emitter(), &daemon.path, &["Stop"]), b" \n");
    result.assert_exit_0_silent_stdout();
    assert_eq!(daemon.receive(Duration::from_millis(200)), None);
}

#[test]
fn bash_emitter_exits_0_without_a_daemon() {
    let dir = hookd_testkit::private_tempdir();
    let result = run(
        emitter(bash_emitter(), &dir.path().join("none.sock"), &["Stop"]),
        b"{}",
    );
    result.assert_exit_0_silent_stdout();
}
