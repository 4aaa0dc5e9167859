//! A Bash `pre_tool_use`, and a file tool's pre and post, must not return
//! before the daemon has handled them (the daemon records the repository's
//! state, or reads the file, first, then closes the connection), yet must
//! never hang on a daemon that does not close.

mod common;

use std::io::Read;
use std::os::unix::net::UnixListener;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use common::{EMIT, FakeDaemon, emitter};
use hookd_testkit::run;

/// Accepts one connection, reads the line, acknowledges it, waits `hold`, then closes;
/// reports the instant it closed.
fn daemon_that_holds(listener: UnixListener, hold: Duration) -> mpsc::Receiver<Instant> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let (mut stream, _) = listener.accept().expect("accept");
        let mut line = Vec::new();
        let _ = stream.read_to_end(&mut line);
        // The line is journaled: acknowledged, as the daemon does before
        // it records the repository's state.
        let _ = std::io::Write::write_all(&mut stream, &[hookd_proto::ACK]);
        thread::sleep(hold);
        // Taken just before the close: after it, the emitter may exit
        // before this thread runs again.
        let closing = Instant::now();
        drop(stream);
        let _ = tx.send(closing);
    });
    rx
}

#[test]
fn snapshot_calls_return_only_after_the_daemon_closed() {
    for (event, payload) in [
        (
            "PreToolUse",
            r#"{"tool_name":"Bash","tool_use_id":"t","tool_input":{"command":"make"}}"#,
        ),
        (
            "PreToolUse",
            r#"{"tool_name":"Write","tool_use_id":"t","tool_input":{"file_path":"/r/a"}}"#,
        ),
        (
            "PostToolUse",
            r#"{"tool_name":"Edit","tool_use_id":"t","tool_input":{"file_path":"/r/a"}}"#,
        ),
    ] {
        let FakeDaemon {
            dir: _dir,
            path,
            listener,
        } = FakeDaemon::start();
        let closed = daemon_that_holds(listener, Duration::from_millis(200));
        let result = run(emitter(EMIT, &path, &[event]), payload.as_bytes());
        let returned = Instant::now();
        result.assert_exit_0_silent_stdout();
        let closed_at = closed
            .recv_timeout(Duration::from_secs(5))
            .expect("daemon closed");
        assert!(
            closed_at <= returned,
            "{event} {payload}: hookd-emit returned before the daemon closed the connection"
        );
    }
}

#[test]
fn a_daemon_that_never_closes_costs_a_bounded_wait_and_is_reported() {
    let FakeDaemon {
        dir: _dir,
        path,
        listener,
    } = FakeDaemon::start();
    let _closed = daemon_that_holds(listener, Duration::from_secs(10));
    let mut command = emitter(EMIT, &path, &["pre_tool_use", "Bash"]);
    command.env("HOOKD_DEBUG", "1");
    let result = run(command, br#"{"tool_use_id":"t"}"#);
    result.assert_exit_0_silent_stdout();
    assert!(result.stderr.contains("delivered"), "{}", result.stderr);
    assert!(
        result.stderr.contains("did not finish"),
        "{}",
        result.stderr
    );
    // Its 2 s wait for the snapshot, far short of the daemon's 10 s hold.
    assert!(
        result.elapsed < Duration::from_secs(5),
        "waited {:?}",
        result.elapsed
    );
}

#[test]
fn other_events_do_not_wait_for_the_daemon() {
    for (event, payload) in [
        ("PostToolUse", r#"{"tool_name":"Read"}"#),
        ("PreToolUse", r#"{"tool_name":"Read"}"#),
        ("PostToolUseFailure", r#"{"tool_name":"Write"}"#),
    ] {
        let FakeDaemon {
            dir: _dir,
            path,
            listener,
        } = FakeDaemon::start();
        let _closed = daemon_that_holds(listener, Duration::from_secs(10));
        let mut command = emitter(EMIT, &path, &[event]);
        command.env("HOOKD_DEBUG", "1");
        let result = run(command, payload.as_bytes());
        result.assert_exit_0_silent_stdout();
        assert!(result.stderr.contains("delivered"), "{}", result.stderr);
        assert!(
            !result.stderr.contains("did not finish"),
            "{event}: {}",
            result.stderr
        );
    }
}
