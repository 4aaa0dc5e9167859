//! Harness only the emitter's integration tests need: a stand-in daemon (a
//! real `UnixListener` in a temp dir), the emitter pointed at it, and the
//! checks of the line it sends. Running a program with a stdin (hookd-testkit's
//! `run`) and the bash baseline's path (`bash_emitter`) come from hookd-testkit.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use hookd_testkit::poll_until;
use serde_json::Value;
use tempfile::TempDir;

/// The binary under test.
pub const EMIT: &str = env!("CARGO_BIN_EXE_hookd-emit");

/// The five envelope keys every emitter writes first, in wire order.
pub const REQUIRED_KEYS: [&str; 5] = ["event_type", "tool_name", "payload", "timestamp", "pid"];

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
        let dir = hookd_testkit::private_tempdir();
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
        let (mut stream, _) = poll_until(within, || match self.listener.accept() {
            Ok(accepted) => Some(accepted),
            Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => None,
            Err(err) => panic!("accept failed: {err}"),
        })?;
        stream.set_nonblocking(false).expect("blocking stream");
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .expect("read timeout");
        let mut bytes = Vec::new();
        stream.read_to_end(&mut bytes).expect("read the line");
        // As the daemon does once the line is journaled; the emitter has
        // usually not exited yet (it waits for this).
        let _ = std::io::Write::write_all(&mut stream, &[hookd_proto::ACK]);
        Some(bytes)
    }

    /// Like [`FakeDaemon::receive`] but insists on a connection within a second.
    pub fn receive_line(&self) -> Vec<u8> {
        self.receive(Duration::from_secs(1))
            .expect("the emitter never connected")
    }
}

/// A command for `program` pointed at `socket`, with the environment
/// variables the emitter reads cleared so the developer's shell cannot leak in,
/// and its journal (what no daemon took) beside the socket, in the test's
/// temp dir, never in the developer's data dir.
pub fn emitter(program: impl AsRef<OsStr>, socket: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(program);
    command
        .args(args)
        .env("HOOKD_SOCKET", socket)
        .env("HOOKD_DATA_DIR", data_dir_beside(socket))
        .env_remove("HOOKD_DEBUG")
        .env_remove("CLAUDE_AGENT_ID");
    command
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

/// The data dir [`emitter`] gives the emitter: beside the socket.
pub fn data_dir_beside(socket: &Path) -> PathBuf {
    socket
        .parent()
        .unwrap_or(Path::new("."))
        .join("emitter-data")
}
