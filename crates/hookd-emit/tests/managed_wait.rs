//! `hookd-emit --wait`: relays the daemon's answer exactly (stdout, stderr,
//! exit code) and fails open, or closed with `--fail-closed`, when there is
//! no answer.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::thread;
use std::time::Duration;

use common::{EMIT, FakeDaemon, emitter, parse_line};
use hookd_testkit::run;

/// A daemon stand-in that reads one line, hands it back, and answers `reply` (if any).
fn answering_daemon(
    reply: Option<&'static str>,
) -> (
    tempfile::TempDir,
    std::path::PathBuf,
    thread::JoinHandle<Vec<u8>>,
) {
    let FakeDaemon {
        dir,
        path,
        listener,
    } = FakeDaemon::start();
    let handle = thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut line = Vec::new();
        reader.read_until(b'\n', &mut line).unwrap();
        match reply {
            Some(reply) => {
                let mut writer = stream;
                writer.write_all(reply.as_bytes()).unwrap();
                writer.write_all(b"\n").unwrap();
            }
            // Never answer; hold the connection until the emitter gives up.
            None => thread::sleep(Duration::from_secs(3)),
        }
        line
    });
    (dir, path, handle)
}

#[test]
fn a_deny_is_relayed_with_exit_code_two_and_the_reason_on_stderr() {
    let (_dir, path, daemon) = answering_daemon(Some(
        r#"{"exit_code":2,"stdout":"","stderr":"rm -rf is not allowed here\n"}"#,
    ));
    let result = run(
        emitter(EMIT, &path, &["--wait", "PreToolUse"]),
        br#"{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#,
    );
    assert_eq!(result.status.code(), Some(2));
    assert!(result.stdout.is_empty());
    assert_eq!(result.stderr, "rm -rf is not allowed here\n");
    let sent = parse_line(&daemon.join().unwrap());
    assert_eq!(sent["wait"], true, "the envelope asks for a reply");
    assert_eq!(sent["event_type"], "PreToolUse");
}

#[test]
fn json_decisions_are_printed_verbatim_on_stdout() {
    let decision = r#"{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\"}}"#;
    let reply: &'static str = Box::leak(
        format!(r#"{{"exit_code":0,"stdout":"{decision}","stderr":""}}"#).into_boxed_str(),
    );
    let (_dir, path, _daemon) = answering_daemon(Some(reply));
    let result = run(
        emitter(EMIT, &path, &["--wait", "pre_tool_use", "Bash"]),
        br#"{"tool_name":"Bash"}"#,
    );
    result.assert_exit_0_silent_stderr();
    assert_eq!(
        result.stdout,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}"#
    );
}

#[test]
fn no_daemon_fails_open_or_closed_as_asked() {
    let dir = hookd_testkit::private_tempdir();
    let path = dir.path().join("absent.sock");
    let open = run(
        emitter(EMIT, &path, &["--wait", "PreToolUse"]),
        br#"{"tool_name":"Bash"}"#,
    );
    open.assert_exit_0_silent_stdout();
    assert_eq!(open.stderr, "");

    let closed = run(
        emitter(EMIT, &path, &["--wait", "--fail-closed", "PreToolUse"]),
        br#"{"tool_name":"Bash"}"#,
    );
    assert_eq!(closed.status.code(), Some(2));
    assert!(closed.stdout.is_empty());
    assert!(
        closed.stderr.contains("managed hooks unavailable"),
        "{}",
        closed.stderr
    );
}

#[test]
fn a_daemon_that_never_answers_costs_only_the_timeout() {
    let (_dir, path, _daemon) = answering_daemon(None);
    let mut command = emitter(EMIT, &path, &["--wait", "--timeout", "0.3", "Stop"]);
    command.env("HOOKD_DEBUG", "1");
    let result = run(command, br#"{"session_id":"s"}"#);
    result.assert_exit_0_silent_stdout();
    assert!(result.stderr.contains("failing open"), "{}", result.stderr);
    assert!(
        result.elapsed < Duration::from_secs(2),
        "{:?}",
        result.elapsed
    );
}
