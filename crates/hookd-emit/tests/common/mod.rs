//! Shared harness for the integration tests: a stand-in daemon (a real
//! `UnixListener` in a temp dir) and a runner that drives the real emitter
//! binaries with a given stdin, capturing everything they print.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::TempDir;

/// The binary under test.
pub const EMIT: &str = env!("CARGO_BIN_EXE_hookd-emit");

/// The bash + jq + socat baseline that hookd-emit must stay compatible with.
pub const BASH_EMITTER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/bash-emitter.sh"
);

/// The five envelope keys every emitter writes first, in wire order.
pub const REQUIRED_KEYS: [&str; 5] = ["event_type", "tool_name", "payload", "timestamp", "pid"];

/// A run that outlives this is hung: fail the test instead of hanging CI.
const WATCHDOG: Duration = Duration::from_secs(20);

/// A socket path in a fresh temp dir, with a listener bound to it.
pub struct FakeDaemon {
    /// Keeps the directory (and so the socket file) alive for the test.
    pub dir: TempDir,
    /// Where the emitter is told to connect (`$HOOKD_SOCKET`).
    pub path: PathBuf,
    /// Bound and listening, but accepting only when a test asks it to.
    pub listener: UnixListener,
}

impl FakeDaemon {
    /// Binds a listener at `<tempdir>/hookd.sock`.
    pub fn start() -> Self {
        let dir = tempfile::tempdir().expect("create temp dir");
        let path = dir.path().join("hookd.sock");
        let listener = UnixListener::bind(&path).expect("bind listener");
        Self {
            dir,
            path,
            listener,
        }
    }

    /// Accepts one connection within `within` and reads it to end-of-stream;
    /// `None` when nobody connected in time.
    pub fn receive(&self, within: Duration) -> Option<Vec<u8>> {
        self.listener.set_nonblocking(true).expect("nonblocking");
        let deadline = Instant::now() + within;
        loop {
            match self.listener.accept() {
                Ok((mut stream, _)) => {
                    stream.set_nonblocking(false).expect("blocking stream");
                    stream
                        .set_read_timeout(Some(Duration::from_secs(5)))
                        .expect("read timeout");
                    let mut bytes = Vec::new();
                    stream.read_to_end(&mut bytes).expect("read the line");
                    return Some(bytes);
                }
                Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => {
                    if Instant::now() >= deadline {
                        return None;
                    }
                    thread::sleep(Duration::from_millis(5));
                }
                Err(err) => panic!("accept failed: {err}"),
            }
        }
    }

    /// Like [`FakeDaemon::receive`] but insists on a connection within a second.
    pub fn receive_line(&self) -> Vec<u8> {
        self.receive(Duration::from_secs(1))
            .expect("the emitter never connected")
    }
}

/// What one emitter run did.
pub struct Run {
    /// Exit status (a signal death has no code, which the tests reject).
    pub status: ExitStatus,
    /// Everything printed on stdout.
    pub stdout: Vec<u8>,
    /// Everything printed on stderr.
    pub stderr: String,
    /// Wall time from spawn to exit.
    pub elapsed: Duration,
}

impl Run {
    /// Asserts the contract every run must keep: exit 0 and a silent stdout.
    pub fn assert_exit_0_silent_stdout(&self) {
        assert_eq!(
            self.status.code(),
            Some(0),
            "status {:?}, stderr: {}",
            self.status,
            self.stderr
        );
        assert!(
            self.stdout.is_empty(),
            "stdout must stay empty, got {:?}",
            String::from_utf8_lossy(&self.stdout)
        );
    }
}

/// A command for `program` pointed at `socket`, with the environment
/// variables the emitter reads cleared so the developer's shell cannot leak in.
pub fn emitter(program: &str, socket: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(program);
    command
        .args(args)
        .env("HOOKD_SOCKET", socket)
        .env_remove("HOOKD_DEBUG")
        .env_remove("CLAUDE_AGENT_ID");
    command
}

/// Runs `command` to completion with `stdin` fed in, capturing its output.
pub fn run(mut command: Command, stdin: &[u8]) -> Run {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = command.spawn().expect("spawn emitter");

    let mut stdin_pipe = child.stdin.take().expect("stdin pipe");
    let input = stdin.to_vec();
    // The emitter may stop reading early (e.g. --help), so a broken pipe is fine.
    let writer = thread::spawn(move || {
        let _ = stdin_pipe.write_all(&input);
    });
    let mut stdout_pipe = child.stdout.take().expect("stdout pipe");
    let stdout = thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout_pipe.read_to_end(&mut bytes);
        bytes
    });
    let mut stderr_pipe = child.stderr.take().expect("stderr pipe");
    let stderr = thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stderr_pipe.read_to_end(&mut bytes);
        bytes
    });

    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for emitter") {
            break status;
        }
        if start.elapsed() > WATCHDOG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("emitter still running after {WATCHDOG:?}");
        }
        thread::sleep(Duration::from_millis(1));
    };
    let elapsed = start.elapsed();
    writer.join().expect("stdin writer");
    Run {
        status,
        stdout: stdout.join().expect("stdout reader"),
        stderr: String::from_utf8_lossy(&stderr.join().expect("stderr reader")).into_owned(),
        elapsed,
    }
}

/// Parses one received line, checking the framing first: exactly one
/// newline, at the very end.
pub fn parse_line(bytes: &[u8]) -> serde_json::Map<String, Value> {
    let text = std::str::from_utf8(bytes).expect("line is UTF-8");
    assert!(
        text.ends_with('\n'),
        "line must end with a newline: {text:?}"
    );
    assert_eq!(
        text.matches('\n').count(),
        1,
        "exactly one newline expected: {text:?}"
    );
    match serde_json::from_str(text).expect("line is JSON") {
        Value::Object(map) => map,
        other => panic!("envelope must be an object, got {other}"),
    }
}

/// The first five keys of an envelope, in the order they were sent.
pub fn leading_keys(envelope: &serde_json::Map<String, Value>) -> Vec<&str> {
    envelope.keys().take(5).map(String::as_str).collect()
}

/// True for `YYYY-MM-DDTHH:MM:SS.mmmZ`, the one timestamp format on the wire.
pub fn is_rfc3339_millis(stamp: &str) -> bool {
    const PATTERN: &[u8] = b"dddd-dd-ddTdd:dd:dd.dddZ";
    stamp.len() == PATTERN.len()
        && stamp
            .bytes()
            .zip(PATTERN.iter().copied())
            .all(|(byte, expected)| match expected {
                b'd' => byte.is_ascii_digit(),
                _ => byte == expected,
            })
}

impl Run {
    /// Exit 0 and nothing on stderr; stdout is the relayed reply (checked by the caller).
    pub fn assert_exit_0_silent_stdout_except_reply(&self) {
        assert_eq!(
            self.status.code(),
            Some(0),
            "status {:?}, stderr: {}",
            self.status,
            self.stderr
        );
        assert_eq!(self.stderr, "");
    }
}
