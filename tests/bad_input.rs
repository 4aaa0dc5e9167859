//! Bad input never stops the daemon: each kind is rejected with a logged
//! reason, and good lines around it, on the same connection or others, are
//! stored.

use std::io::Write as _;
use std::os::unix::net::UnixStream;
use std::time::Duration;

use hookd_testkit::{GitRepo, TestEnv, envelope_line, poll_until, tool_payload, wait_for_count};
use serde_json::json;

fn good_line(root: &std::path::Path, id: &str) -> Vec<u8> {
    let payload = serde_json::from_str(&tool_payload(
        "PostToolUse",
        "Write",
        root,
        id,
        json!({"file_path": root.join(format!("{id}.rs")), "content": "x\n"}),
    ))
    .unwrap();
    envelope_line(
        "post_tool_use",
        Some("write"),
        payload,
        "2026-11-21T10:00:00.000Z",
        1,
    )
    .into_bytes()
}

#[test]
fn every_kind_of_bad_input_is_rejected_and_the_daemon_keeps_serving() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let mut daemon = env.start_daemon_with(&["--idle-timeout", "1"]);

    // A client that connects, sends half a line and hangs.
    let mut hanging = UnixStream::connect(env.socket()).unwrap();
    hanging.write_all(b"{\"event_type\":\"post_tool_").unwrap();
    // A client that connects and sends nothing at all.
    let _silent = UnixStream::connect(env.socket()).unwrap();

    // All bad kinds on one connection, each followed by a good line.
    let mut stream = UnixStream::connect(env.socket()).unwrap();
    let oversized = {
        let mut line = b"{\"event_type\":\"post_tool_use\",\"payload\":\"".to_vec();
        line.extend(std::iter::repeat_n(b'a', 8 * 1024 * 1024 + 1));
        line.extend_from_slice(b"\",\"timestamp\":\"2026-11-21T10:00:00.000Z\"}\n");
        line
    };
    let bad: Vec<(&str, Vec<u8>)> = vec![
        ("malformed_json", b"{this is not json\n".to_vec()),
        (
            "invalid_envelope",
            b"{\"event_type\":\"post_tool_use\",\"timestamp\":\"2026-11-21T10:00:00.000Z\"}\n"
                .to_vec(),
        ),
        ("invalid_envelope", b"[1,2,3]\n".to_vec()),
        (
            "bad_timestamp",
            b"{\"event_type\":\"x\",\"payload\":{},\"timestamp\":\"tuesday\"}\n".to_vec(),
        ),
        (
            "invalid_utf8",
            b"{\"event_type\":\"\xff\xfe\",\"payload\":{}}\n".to_vec(),
        ),
        ("too_long", oversized),
    ];
    for (i, (_, bytes)) in bad.iter().enumerate() {
        stream.write_all(bytes).unwrap();
        stream
            .write_all(&good_line(&root, &format!("good{i}")))
            .unwrap();
    }
    drop(stream);
    // A writer that gives up mid-line, then one whose last line lacks its newline.
    env.send_raw(b"{\"event_type\":\"post_tool_use\",\"payl");
    let mut unterminated = good_line(&root, "unterminated");
    unterminated.pop();
    env.send_raw(&unterminated);
    let good = i64::try_from(bad.len()).unwrap() + 1;
    wait_for_count(&repo, "mutations", good);

    // The hanging client is dropped after the idle timeout, counted as incomplete.
    poll_until(Duration::from_secs(10), || {
        daemon.log_text().contains("incomplete_line").then_some(())
    })
    .unwrap_or_else(|| panic!("hanging client not reported; log:\n{}", daemon.log_text()));
    drop(hanging);

    // Still serving new connections and real emitters afterwards.
    let input = json!({"file_path": root.join("after.rs"), "content": "x\n"});
    let out = env.emit(
        &["post_tool_use"],
        &tool_payload("PostToolUse", "Write", &root, "after", input),
        &root,
    );
    assert!(out.status.success());
    wait_for_count(&repo, "mutations", good + 1);

    let status = daemon.terminate();
    assert!(status.success());
    let log = daemon.log_text();
    for (reason, _) in &bad {
        assert!(
            log.contains(&format!("reason=\"{reason}\""))
                || log.contains(&format!("reason={reason}")),
            "no {reason} in log:\n{log}"
        );
    }
    // The final report counts the six bad lines, the abandoned one and the hanging client.
    assert!(log.contains("rejected=8"), "{log}");
    assert_eq!(repo.count("events"), good + 1);
}

#[test]
fn invalid_json_on_stdin_is_still_recorded_and_flagged() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();
    let out = env.emit(&["post_tool_use", "Write"], "this is {not json", &root);
    assert!(out.status.success());
    wait_for_count(&repo, "events", 1);
    let (valid, raw): (bool, String) = repo
        .ledger()
        .query_row("SELECT payload_valid, raw_payload FROM events", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert!(!valid);
    assert_eq!(raw, "\"this is {not json\"");
}
