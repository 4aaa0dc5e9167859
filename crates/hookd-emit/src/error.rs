//! Every way one emit can fail, as a typed value.
//!
//! None of these ever changes the exit code (see `main.rs`): they exist so
//! `HOOKD_DEBUG=1` can say precisely what went wrong, and so the flow in
//! `main` stays a plain `?` chain. Written by hand because this binary keeps
//! its dependency list to the bare minimum.

use std::error::Error;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why an event was not (fully) delivered to the daemon.
#[derive(Debug)]
pub enum EmitError {
    /// Reading the hook payload from stdin failed.
    ReadStdin(io::Error),
    /// The envelope could not be serialised (not expected with `serde_json::Value`).
    Encode(serde_json::Error),
    /// The socket path cannot be a Unix socket address (too long, NUL byte...).
    Address {
        /// The path that was resolved for the socket.
        path: PathBuf,
        /// What the OS said about it.
        source: io::Error,
    },
    /// The OS refused to give us a socket at all.
    Socket(io::Error),
    /// No daemon listening, or it did not accept within the connect budget.
    Connect {
        /// The socket path we tried.
        path: PathBuf,
        /// Why the connection failed.
        source: io::Error,
    },
    /// The socket's directory, or the process behind the socket, is not the
    /// caller's own: nothing was sent.
    Untrusted(hookd_proto::trust::Untrusted),
    /// The daemon accepted but the line could not be written in time.
    Write {
        /// The socket path we were writing to.
        path: PathBuf,
        /// Bytes of the line that did reach the socket before the failure.
        written: usize,
        /// Length of the whole line, newline included.
        total: usize,
        /// Why writing stopped.
        source: io::Error,
    },
    /// Managed mode: the daemon's answer did not arrive or could not be read.
    Reply {
        /// What went wrong.
        source: io::Error,
    },
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ReadStdin(source) => write!(f, "cannot read stdin: {source}"),
            Self::Encode(source) => write!(f, "cannot encode the envelope: {source}"),
            Self::Address { path, source } => {
                write!(f, "invalid socket path {}: {source}", path.display())
            }
            Self::Socket(source) => write!(f, "cannot create a socket: {source}"),
            Self::Connect { path, source } => {
                write!(f, "cannot connect to {}: {source}", path.display())
            }
            Self::Reply { source } => write!(f, "no usable answer: {source}"),
            Self::Untrusted(why) => write!(f, "{why}; nothing sent"),
            Self::Write {
                path,
                written,
                total,
                source,
            } => write!(
                f,
                "cannot write to {} (sent {written} of {total} bytes): {source}",
                path.display()
            ),
        }
    }
}

impl Error for EmitError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            Self::ReadStdin(source) | Self::Socket(source) => Some(source),
            Self::Encode(source) => Some(source),
            Self::Untrusted(why) => Some(why),
            Self::Address { source, .. }
            | Self::Connect { source, .. }
            | Self::Write { source, .. }
            | Self::Reply { source } => Some(source),
        }
    }
}
