//! The daemon's status file: a small JSON document beside the socket
//! (`hookd.status.json`), rewritten every second, that `hookd status` (and
//! the desktop app) read without talking to the daemon.
//!
//! A file rather than a socket request: the socket speaks the emitters'
//! envelope protocol, and a status reader must work even while the daemon is
//! busy or stuck.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::daemon::stats::StatsSnapshot;
use crate::ledger::integrity::MovedAside;

/// Everything `hookd status` shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DaemonStatus {
    /// Daemon process id.
    pub pid: u32,
    /// The socket it listens on.
    pub socket: PathBuf,
    /// When it started.
    pub started_at: String,
    /// When this file was written.
    pub updated_at: String,
    /// `local`, `amqp` or `both`.
    pub ledger_mode: String,
    /// Counters since start.
    pub stats: StatsSnapshot,
    /// The broker publisher, when publishing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub publisher: Option<PublisherStatus>,
    /// Recording is paused: events are answered but left out of the ledgers.
    #[serde(default)]
    pub recording_paused: bool,
    /// Damaged ledgers moved aside (kept) since the daemon started; a new
    /// ledger was started in each one's place.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moved_aside_ledgers: Vec<MovedAside>,
    /// Big ledgers being checked in the background (`PRAGMA quick_check`,
    /// minutes at millions of rows); events are stored meanwhile, and the
    /// journal keeps them until the check is over.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ledgers_being_checked: Vec<PathBuf>,
}

/// Where the publisher's connection stands.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ConnectionState {
    /// Connected, confirms on, exchange declared: publishing.
    Connected,
    /// A connection attempt is under way.
    Connecting,
    /// Not connected: waiting to retry, or stopped.
    Disconnected,
}

impl ConnectionState {
    /// The state as written in the status file (`connected`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Connected => "connected",
            Self::Connecting => "connecting",
            Self::Disconnected => "disconnected",
        }
    }
}

/// The broker publisher's state, for `hookd status` (written by
/// `crate::amqp::publisher` when the daemon publishes).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PublisherStatus {
    /// Connection state.
    pub state: ConnectionState,
    /// The broker, password redacted.
    pub url: String,
    /// The exchange published to.
    pub exchange: String,
    /// Messages waiting in the outbox (as of the last batch, wake or tick).
    pub backlog: u64,
    /// Messages the broker confirmed since the publisher started.
    pub published: u64,
    /// The last failure (connecting, publishing, a nack), with its causes.
    pub last_error: Option<String>,
    /// When it happened (RFC 3339 UTC).
    pub last_error_at: Option<String>,
    /// When the current connection was established; `None` when not connected.
    pub connected_since: Option<String>,
}

/// The status file of the daemon on `socket`.
pub fn status_path(socket: &Path) -> PathBuf {
    socket.with_extension("status.json")
}

/// Writes the status atomically (readers never see half a file).
pub fn write(path: &Path, status: &DaemonStatus) -> std::io::Result<()> {
    let bytes = serde_json::to_vec_pretty(status).map_err(std::io::Error::other)?;
    crate::fs_atomic::write_atomic(path, &bytes)
        .map(|_| ())
        .map_err(std::io::Error::other)
}

/// Reads a status file; `None` when there is none.
pub fn read(path: &Path) -> std::io::Result<Option<DaemonStatus>> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(std::io::Error::other),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}
