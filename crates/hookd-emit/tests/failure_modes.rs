//! Whatever goes wrong, the agent must not notice: exit 0, empty stdout,
//! stderr only under `HOOKD_DEBUG=1`, and a bounded wall time even when the
//! daemon is present but stuck.

mod common;

use std::io::Read;
use std::os::fd::OwnedFd;
use std::os::unix::net::{UnixListener, UnixStream};
use std::thread;
use std::time::{Duration, Instant};

use common::{EMIT, FakeDaemon, emitter, parse_line};
use hookd_testkit::run;
use socket2::{Domain, SockAddr, Socket, Type};

/// Comfortably more than any Unix socket buffer, below the line limit.
const BIG: usize = 6 * 1024 * 1024;

/// The agent must never wait longer than this for a stuck daemon.
const AGENT_PATIENCE: Duration = Duration::from_secs(2);

fn big_payload() -> Vec<u8> {
    serde_json::json!({"tool_name": "Write", "tool_input": {"content": "z".repeat(BIG)}})
        .to_string()
        .into_bytes()
}

#[test]
fn empty_stdin_sends_nothing_and_says_nothing() {
    for stdin in [&b""[..], b"  \n\t\r\n"] {
        let daemon = FakeDaemon::start();
        let mut command = emitter(EMIT, &daemon.path, &["PostToolUse", "Write"]);
        command.env("HOOKD_DEBUG", "1");
        let result = run(command, stdin);
        result.assert_exit_0_silent_stdout();
        assert_eq!(result.stderr, "", "stdin {stdin:?}");
        assert_eq!(
            daemon.receive(Duration::from_millis(200)),
            None,
            "stdin {stdin:?} must not connect"
        );
    }
}

#[test]
fn missing_socket_is_silent_without_debug() {
    let dir = hookd_testkit::private_tempdir();
    let path = dir.path().join("no-daemon.sock");
    let result = run(emitter(EMIT, &path, &["PreToolUse"]), b"{}");
    result.assert_exit_0_silent_stdout();
    assert_eq!(result.stderr, "");
}

#[test]
fn missing_socket_is_explained_with_debug() {
    let dir = hookd_testkit::private_tempdir();
    let path = dir.path().join("no-daemon.sock");
    let mut command = emitter(EMIT, &path, &["PreToolUse"]);
    command.env("HOOKD_DEBUG", "1");
    let result = run(command, b"{}");
    result.assert_exit_0_silent_stdout();
    let expected = format!("hookd-emit: cannot connect to {}: ", path.display());
    assert!(
        result.stderr.starts_with(&expected),
        "stderr: {}",
        result.stderr
    );
    // Then where the event went instead, for the daemon to replay.
    let kept = common::data_dir_beside(&path).join("journal/pending.jsonl");
    assert_eq!(
        result.stderr.lines().nth(1),
        Some(
            format!(
                "hookd-emit: kept the event in {} for the daemon",
                kept.display()
            )
            .as_str()
        ),
        "stderr: {}",
        result.stderr
    );
    assert_eq!(
        result.stderr.lines().count(),
        2,
        "stderr: {}",
        result.stderr
    );
    let journaled = std::fs::read_to_string(&kept).unwrap();
    let envelope = parse_line(journaled.as_bytes());
    assert_eq!(envelope["event_type"], "PreToolUse");
    assert!(envelope["event_id"].is_string(), "{journaled}");
}

#[test]
fn socket_file_without_listener_is_refused_quietly() {
    let dir = hookd_testkit::private_tempdir();
    let path = dir.path().join("stale.sock");
    // A daemon that died without removing its socket leaves exactly this.
    drop(UnixListener::bind(&path).unwrap());
    assert!(path.exists());
    let mut command = emitter(EMIT, &path, &["PreToolUse"]);
    command.env("HOOKD_DEBUG", "1");
    let result = run(command, b"{}");
    result.assert_exit_0_silent_stdout();
    assert!(
        result.stderr.contains("cannot connect") && result.stderr.contains("refused"),
        "stderr: {}",
        result.stderr
    );
}

#[test]
fn daemon_that_accepts_but_never_reads_costs_a_bounded_time() {
    let daemon = FakeDaemon::start();
    let held = thread::scope(|scope| {
        // Accept and hold the connection open without reading a byte.
        let holder = scope.spawn(|| {
            let (stream, _) = daemon.listener.accept().unwrap();
            stream
        });
        let mut command = emitter(EMIT, &daemon.path, &["PostToolUse"]);
        command.env("HOOKD_DEBUG", "1");
        let result = run(command, &big_payload());
        result.assert_exit_0_silent_stdout();
        assert!(result.elapsed < AGENT_PATIENCE, "took {:?}", result.elapsed);
        assert!(
            result.stderr.contains("cannot write to") && result.stderr.contains("timed out"),
            "stderr: {}",
            result.stderr
        );
        holder.join().unwrap()
    });
    drop(held);
}

#[test]
fn daemon_that_never_accepts_costs_a_bounded_time() {
    // Bound and listening, never accepting: the kernel queues the connection
    // and its data until the send buffer is full.
    let daemon = FakeDaemon::start();
    let mut command = emitter(EMIT, &daemon.path, &["PostToolUse"]);
    command.env("HOOKD_DEBUG", "1");
    let result = run(command, &big_payload());
    result.assert_exit_0_silent_stdout();
    assert!(result.elapsed < AGENT_PATIENCE, "took {:?}", result.elapsed);
    assert!(
        result.stderr.contains("cannot write to"),
        "stderr: {}",
        result.stderr
    );
}

/// A listener with the smallest backlog, plus queued connections until the
/// kernel refuses another one without blocking.
fn full_backlog(path: &std::path::Path) -> (Socket, Vec<Socket>) {
    let address = SockAddr::unix(path).unwrap();
    let listener = Socket::new(Domain::UNIX, Type::STREAM, None).unwrap();
    listener.bind(&address).unwrap();
    listener.listen(0).unwrap();
    let mut queued = Vec::new();
    loop {
        let client = Socket::new(Domain::UNIX, Type::STREAM, None).unwrap();
        client.set_nonblocking(true).unwrap();
        match client.connect(&address) {
            Ok(()) => queued.push(client),
            Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(err) => panic!("filling the backlog: {err}"),
        }
        assert!(queued.len() < 64, "backlog never filled");
    }
    (listener, queued)
}

#[test]
fn full_accept_backlog_costs_a_bounded_time() {
    let dir = hookd_testkit::private_tempdir();
    let path = dir.path().join("busy.sock");
    let (_listener, _queued) = full_backlog(&path);

    let mut command = emitter(EMIT, &path, &["PreToolUse"]);
    command.env("HOOKD_DEBUG", "1");
    let result = run(command, b"{\"tool_name\":\"Bash\"}");
    result.assert_exit_0_silent_stdout();
    assert!(result.elapsed < AGENT_PATIENCE, "took {:?}", result.elapsed);
    assert!(
        result.stderr.contains("cannot connect to"),
        "stderr: {}",
        result.stderr
    );
    // On Linux the connect waits (up to its budget) for a free slot rather
    // than giving up at once; see the full_accept_backlog_that_clears test.
    #[cfg(target_os = "linux")]
    assert!(
        result.elapsed >= Duration::from_millis(150),
        "gave up after {:?} without waiting",
        result.elapsed
    );
}

#[cfg(target_os = "linux")]
#[test]
fn full_accept_backlog_that_clears_in_time_still_delivers() {
    let dir = hookd_testkit::private_tempdir();
    let path = dir.path().join("busy.sock");
    let (listener, queued) = full_backlog(&path);
    // Our ends of the queued connections can go; theirs stay in the backlog.
    drop(queued);

    let (result, line) = thread::scope(|scope| {
        let emitter_run = scope.spawn(|| {
            let mut command = emitter(EMIT, &path, &["PreToolUse"]);
            command.env("HOOKD_DEBUG", "1");
            run(command, b"{\"tool_name\":\"Bash\"}")
        });
        // The daemon catches up well within the emitter's connect budget.
        thread::sleep(Duration::from_millis(50));
        // Drain the backlog (the fillers first, then the emitter) with a
        // deadline, so an emitter that gave up fails the test instead of
        // hanging it.
        listener.set_nonblocking(true).unwrap();
        let deadline = Instant::now() + AGENT_PATIENCE;
        let mut line = Vec::new();
        while line.is_empty() && Instant::now() < deadline {
            match listener.accept() {
                Ok((connection, _)) => {
                    let mut stream = UnixStream::from(OwnedFd::from(connection));
                    stream.set_nonblocking(false).unwrap();
                    stream
                        .set_read_timeout(Some(Duration::from_secs(2)))
                        .unwrap();
                    stream.read_to_end(&mut line).unwrap();
                }
                Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => {
                    thread::sleep(Duration::from_millis(2));
                }
                Err(err) => panic!("accept failed: {err}"),
            }
        }
        (emitter_run.join().unwrap(), line)
    });
    result.assert_exit_0_silent_stdout();
    assert!(
        result.stderr.contains("delivered"),
        "stderr: {}",
        result.stderr
    );
    assert!(
        !line.is_empty(),
        "nothing delivered; stderr: {}",
        result.stderr
    );
    assert_eq!(parse_line(&line)["tool_name"], "Bash");
}

#[test]
fn daemon_hanging_up_mid_write_is_not_a_crash() {
    let daemon = FakeDaemon::start();
    thread::scope(|scope| {
        scope.spawn(|| {
            let (mut stream, _) = daemon.listener.accept().unwrap();
            let mut first = [0_u8; 1024];
            let _ = stream.read(&mut first);
            drop(stream);
        });
        let mut command = emitter(EMIT, &daemon.path, &["PostToolUse"]);
        command.env("HOOKD_DEBUG", "1");
        let result = run(command, &big_payload());
        // A SIGPIPE death would show as no exit code at all.
        result.assert_exit_0_silent_stdout();
        assert!(
            result.stderr.contains("cannot write to"),
            "stderr: {}",
            result.stderr
        );
    });
}
