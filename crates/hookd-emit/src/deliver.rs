//! Fire-and-forget delivery of one line to the daemon's Unix socket.
//!
//! Only to a daemon of the caller's own: before connecting, the socket's
//! directory must be the caller's and private; after connecting, the peer
//! must run as the caller (`hookd_proto::trust`). Otherwise nothing is sent,
//! and so no answer can come back to relay.
//!
//! The agent waits for its hook to exit, so every step here has a hard time
//! bound and nothing waits for a reply: connect, write the line, shut down the
//! write half, done. A stalled or absent daemon costs the agent at most
//! `connect + write` time, never a hang.
//!
//! Why not `socket2::Socket::connect_timeout`: for Unix sockets a full accept
//! backlog makes a non-blocking `connect` fail with `EAGAIN` (it never goes
//! "in progress"), and socket2 then polls an unconnected socket, which
//! returns at once. The wait the timeout promises never happens. On Linux a
//! *blocking* `connect` on a Unix socket honours `SO_SNDTIMEO` instead
//! (socket(7)), sleeping until the daemon frees a backlog slot or the budget
//! runs out; elsewhere a full backlog is refused immediately. Both are
//! bounded, and the Linux one gives a busy daemon a chance to take the event.

use std::io::{self, Read};
use std::net::Shutdown;
use std::path::Path;
use std::time::{Duration, Instant};

use hookd_proto::trust;
use socket2::{Domain, SockAddr, Socket, Type};

use crate::error::EmitError;

/// Shortest timeout ever handed to the kernel: a sub-microsecond remainder
/// would round to a zero `timeval`, which means "block forever".
const MIN_TIMEOUT: Duration = Duration::from_millis(1);

/// Time budgets for one delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// Longest wait for the daemon to accept the connection.
    pub connect: Duration,
    /// Longest total time spent writing the line, however many writes it takes.
    pub write: Duration,
}

/// A line handed to the daemon; the connection stays open until dropped.
pub struct Delivered {
    socket: Socket,
}

impl Delivered {
    /// Waits up to `budget` for the daemon to close its side, which it does
    /// only after it has handled the line (for a Bash `pre_tool_use`: after
    /// it recorded the repository's state). The daemon sends nothing.
    pub fn wait_for_close(&self, budget: Duration) -> io::Result<()> {
        let deadline = Instant::now() + budget;
        let mut scratch = [std::mem::MaybeUninit::<u8>::uninit(); 64];
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("the daemon did not finish within {} ms", budget.as_millis()),
                ));
            }
            self.socket
                .set_read_timeout(Some(remaining.max(MIN_TIMEOUT)))?;
            match self.socket.recv(&mut scratch) {
                Ok(0) => return Ok(()),
                Ok(_) => {}
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(explain_timeout(err, "the daemon did not finish", budget)),
            }
        }
    }
}

impl Delivered {
    /// Waits up to `budget` for the daemon's acknowledgement
    /// ([`hookd_proto::ACK`]) that the line is journaled on its side.
    /// `Ok(false)`: the daemon closed without one (it was killed, or it
    /// predates acknowledgements), so the line may be lost unless kept.
    pub fn wait_for_ack(&self, budget: Duration) -> io::Result<bool> {
        let deadline = Instant::now() + budget;
        let mut byte = [0_u8; 1];
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("no acknowledgement within {} ms", budget.as_millis()),
                ));
            }
            self.socket
                .set_read_timeout(Some(remaining.max(MIN_TIMEOUT)))?;
            match (&self.socket).read(&mut byte) {
                Ok(0) => return Ok(false),
                Ok(_) => return Ok(byte[0] == hookd_proto::ACK),
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(explain_timeout(err, "no acknowledgement", budget)),
            }
        }
    }

    /// Reads the daemon's one-line [`hookd_proto::Reply`] (managed mode),
    /// giving up after `budget`.
    pub fn read_reply(&self, budget: Duration) -> io::Result<hookd_proto::Reply> {
        let deadline = Instant::now() + budget;
        let mut line = Vec::with_capacity(512);
        let mut chunk = [0_u8; 8192];
        while !line.contains(&b'\n') {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "no answer from the daemon within {:.1} s",
                        budget.as_secs_f64()
                    ),
                ));
            }
            self.socket
                .set_read_timeout(Some(remaining.max(MIN_TIMEOUT)))?;
            match (&self.socket).read(&mut chunk) {
                Ok(0) => break,
                Ok(read) => line.extend_from_slice(&chunk[..read]),
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(explain_timeout(err, "no answer from the daemon", budget)),
            }
        }
        if line.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the daemon closed the connection without answering",
            ));
        }
        let end = line.iter().position(|b| *b == b'\n').unwrap_or(line.len());
        serde_json::from_slice(&line[..end]).map_err(|err| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("unreadable answer from the daemon: {err}"),
            )
        })
    }
}

/// Sends `line` to the socket at `path` within `timeouts`, then closes our
/// write half so the daemon sees end-of-stream right after the line.
pub fn deliver(path: &Path, line: &[u8], timeouts: Timeouts) -> Result<Delivered, EmitError> {
    trust::check_socket_dir(trust::socket_dir(path)).map_err(EmitError::Untrusted)?;
    let address = SockAddr::unix(path).map_err(|source| EmitError::Address {
        path: path.to_owned(),
        source,
    })?;
    let socket = Socket::new(Domain::UNIX, Type::STREAM, None).map_err(EmitError::Socket)?;

    let connect_error = |source| EmitError::Connect {
        path: path.to_owned(),
        source,
    };
    socket
        .set_write_timeout(Some(timeouts.connect.max(MIN_TIMEOUT)))
        .map_err(connect_error)?;
    socket.connect(&address).map_err(|err| {
        connect_error(explain_timeout(
            err,
            "the daemon's accept backlog stayed full",
            timeouts.connect,
        ))
    })?;
    // Checked on the connected socket, so a socket swapped in after the
    // directory check is caught too. Nothing has been written yet.
    trust::check_peer(&socket).map_err(EmitError::Untrusted)?;

    write_within(&socket, line, timeouts.write).map_err(|(written, source)| EmitError::Write {
        path: path.to_owned(),
        written,
        total: line.len(),
        source,
    })?;

    // The line is already queued in the daemon's receive buffer; a failed
    // shutdown cannot lose it, and the close on exit ends the stream anyway.
    let _ = socket.shutdown(Shutdown::Write);
    Ok(Delivered { socket })
}

/// Writes all of `line` before `budget` elapses, or reports how far it got.
///
/// `SO_SNDTIMEO` bounds each `send`, not the total: a daemon that drains a
/// few bytes at a time would restart it forever. So the remaining budget is
/// recomputed before every call.
fn write_within(socket: &Socket, line: &[u8], budget: Duration) -> Result<(), (usize, io::Error)> {
    let deadline = Instant::now() + budget;
    let mut written = 0;
    while written < line.len() {
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            let err = io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "timed out after {} ms (the daemon is not reading)",
                    budget.as_millis()
                ),
            );
            return Err((written, err));
        }
        socket
            .set_write_timeout(Some(remaining.max(MIN_TIMEOUT)))
            .map_err(|err| (written, err))?;
        match socket.send(&line[written..]) {
            Ok(0) => return Err((written, io::ErrorKind::WriteZero.into())),
            Ok(sent) => written += sent,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => {
                let err = explain_timeout(err, "the daemon is not reading", budget);
                return Err((written, err));
            }
        }
    }
    Ok(())
}

/// An expired `SO_SNDTIMEO` surfaces as `EAGAIN` ("resource temporarily
/// unavailable"), which reads like a bug; say what it means instead.
fn explain_timeout(err: io::Error, why: &str, budget: Duration) -> io::Error {
    if err.kind() == io::ErrorKind::WouldBlock {
        io::Error::new(
            io::ErrorKind::TimedOut,
            format!("timed out after {} ms ({why})", budget.as_millis()),
        )
    } else {
        err
    }
}
