//! Connections that never send a byte cannot starve the daemon, through the
//! real binaries: with 2,000 of them open (more than its 1,024 slots), an
//! event from hookd-emit is still stored and a managed hook still answers
//! `hookd-emit --wait` within a few seconds, and the daemon's memory does
//! not grow by a buffer per connection.
//!
//! A functional test, not a benchmark: the bounds are generous and only
//! tell "seconds" from "the 30 s idle timeout", and "a few MiB" from "64 KiB
//! per connection".

use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use hookd_testkit::{
    GitRepo, TestEnv, poll_until, raise_open_files_limit, rss_kib, run_with_stdin, tool_payload,
    write_json_pretty,
};
use serde_json::json;

/// Silent connections opened: more than the daemon's 1,024 slots, fewer than
/// the slots plus its listen backlog (1,024), so every connect succeeds.
const SILENT: usize = 2_000;

/// How soon, with the slots full of silent connections, an event must be
/// stored and a managed hook must answer (the idle timeout is 30 s).
const PROMPTLY: Duration = Duration::from_secs(6);

/// Most the daemon's resident memory may grow while it holds its 1,024
/// silent connections, wave after wave (a 64 KiB buffer each pinned 64 MiB).
const RSS_GROWTH_LIMIT_KIB: u64 = 24 * 1024;

/// The daemon's connection slots.
const SLOTS: usize = 1_024;

/// Whether the kernel lets the daemon's listen backlog hold the 1,024
/// connections it asks for (`net.core.somaxconn` caps it); with less, the
/// silent connections would fill it and hookd-emit's 200 ms connect would fail.
fn backlog_is_large_enough() -> bool {
    std::fs::read_to_string("/proc/sys/net/core/somaxconn")
        .ok()
        .and_then(|text| text.trim().parse::<usize>().ok())
        .is_some_and(|max| max >= SLOTS)
}

fn wait_emit(env: &TestEnv, root: &Path, payload: &str) -> Output {
    let mut cmd = env.command("hookd-emit");
    cmd.args(["--wait", "PreToolUse"])
        .current_dir(root)
        .env("CLAUDE_PROJECT_DIR", root);
    run_with_stdin(cmd, payload.as_bytes())
}

#[test]
fn silent_connections_are_closed_early_and_hold_no_buffers() {
    // The connections, the daemon's copies and some room for the rest.
    let needed = 2 * SILENT as u64 + 256;
    if raise_open_files_limit(needed) < needed || !backlog_is_large_enough() {
        eprintln!("skipped: cannot hold {SILENT} connections (open files limit, somaxconn)");
        return;
    }
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    write_json_pretty(
        &root.join(".hookd/settings.json"),
        &json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo 'not now' >&2; exit 2"}]}
        ]}}),
    );
    // Approved, so the daemon runs it (tests/trust.rs covers unapproved files).
    let trust = env.hookd(&root, &["trust"]);
    assert!(trust.status.success(), "{trust:?}");
    let daemon = env.start_daemon();
    let pid = daemon.pid();
    // Settle: the start-up probe's connection, the first status write.
    std::thread::sleep(Duration::from_millis(1_500));
    let rss_before = rss_kib(pid);

    let silent: Vec<UnixStream> = (0..SILENT)
        .map(|i| {
            UnixStream::connect(env.socket())
                .unwrap_or_else(|err| panic!("silent connection {i}: {err}"))
        })
        .collect();
    // Let the daemon take all its slots.
    std::thread::sleep(Duration::from_millis(500));
    let rss_held = rss_kib(pid);
    let growth = rss_held.saturating_sub(rss_before);
    eprintln!("RSS {rss_before} KiB → {rss_held} KiB with the slots full");
    assert!(
        growth < RSS_GROWTH_LIMIT_KIB,
        "RSS grew by {growth} KiB holding silent connections ({rss_before} → {rss_held} KiB)"
    );

    // A real event, behind the silent connections.
    let started = Instant::now();
    let input = json!({"file_path": root.join("a.rs"), "content": "x\n"});
    let out = env.emit(
        &["post_tool_use", "Write"],
        &tool_payload("PostToolUse", "Write", &root, "w1", input),
        &root,
    );
    assert!(out.status.success(), "{out:?}");
    let stored = poll_until(PROMPTLY, || (repo.count("mutations") >= 1).then_some(()));
    assert!(
        stored.is_some(),
        "event not stored within {PROMPTLY:?} behind {SILENT} silent connections; log:\n{}",
        daemon.log_text()
    );
    let stored_after = started.elapsed();

    // A managed hook's answer, while silent connections still come in from the backlog.
    let silent_again: Vec<UnixStream> = (0..SILENT / 2)
        .map(|_| UnixStream::connect(env.socket()).expect("silent connection"))
        .collect();
    let started = Instant::now();
    let bash = tool_payload(
        "PreToolUse",
        "Bash",
        &root,
        "b1",
        json!({"command": "rm -rf /"}),
    );
    let denied = wait_emit(&env, &root, &bash);
    let answered_after = started.elapsed();
    assert_eq!(denied.status.code(), Some(2), "{denied:?}");
    assert_eq!(String::from_utf8_lossy(&denied.stderr).trim(), "not now");
    assert!(
        answered_after < PROMPTLY,
        "managed answer took {answered_after:?}"
    );
    eprintln!("stored after {stored_after:?}, answered after {answered_after:?}");

    drop(silent);
    drop(silent_again);
}

#[test]
fn waves_of_silent_connections_do_not_pin_a_buffer_each() {
    let needed = SLOTS as u64 + 256;
    if raise_open_files_limit(needed) < needed {
        eprintln!("skipped: cannot raise the open files limit to {needed}");
        return;
    }
    let env = TestEnv::new();
    let daemon = env.start_daemon();
    let pid = daemon.pid();
    std::thread::sleep(Duration::from_millis(1_500));
    let rss_before = rss_kib(pid);
    let mut peak = rss_before;
    // Each wave fills every slot, is held a moment, then hangs up: memory
    // freed by one wave and taken again by the next must not grow with the
    // number of connections.
    for wave in 0..4 {
        let held: Vec<UnixStream> = (0..SLOTS)
            .map(|i| {
                UnixStream::connect(env.socket())
                    .unwrap_or_else(|err| panic!("wave {wave}, connection {i}: {err}"))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(700));
        peak = peak.max(rss_kib(pid));
        drop(held);
        std::thread::sleep(Duration::from_millis(300));
    }
    let growth = peak.saturating_sub(rss_before);
    eprintln!("RSS {rss_before} KiB, at most {peak} KiB over four waves of {SLOTS}");
    assert!(
        growth < RSS_GROWTH_LIMIT_KIB,
        "RSS grew by {growth} KiB ({rss_before} → {peak} KiB) holding silent connections"
    );
}
