//! Counters the daemon keeps about what it accepted, rejected and stored,
//! shared lock-free between connection tasks and the ingest thread.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use crate::ledger::integrity::MovedAside;

/// Why an input line (or connection) was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rejection {
    /// The line was longer than [`crate::MAX_LINE_BYTES`].
    TooLong,
    /// The line was not valid UTF-8.
    InvalidUtf8,
    /// The line was not JSON.
    MalformedJson,
    /// The JSON lacked a required field or had a wrong type.
    InvalidEnvelope,
    /// The timestamp was not an RFC 3339 time.
    BadTimestamp,
    /// A client went idle or away in the middle of a line.
    IncompleteLine,
    /// A peer running as another user connected.
    ForeignPeer,
}

impl Rejection {
    /// Stable snake-case name, used in logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::TooLong => "too_long",
            Self::InvalidUtf8 => "invalid_utf8",
            Self::MalformedJson => "malformed_json",
            Self::InvalidEnvelope => "invalid_envelope",
            Self::BadTimestamp => "bad_timestamp",
            Self::IncompleteLine => "incomplete_line",
            Self::ForeignPeer => "foreign_peer",
        }
    }
}

/// Running totals for one daemon.
#[derive(Debug, Default)]
pub struct DaemonStats {
    /// Connections accepted.
    pub connections: AtomicU64,
    /// Lines parsed into envelopes and queued for the ledger.
    pub lines_accepted: AtomicU64,
    /// Events committed to a ledger.
    pub events_stored: AtomicU64,
    /// Events that could not be committed and were written to the spool instead.
    pub events_spooled: AtomicU64,
    /// Events answered but left out of the ledgers while recording was paused.
    pub events_unrecorded: AtomicU64,
    /// Matching managed hooks not run because their file is not trusted.
    pub hooks_skipped_untrusted: AtomicU64,
    /// Events replayed from the journal (`crate::daemon::journal`).
    pub events_replayed: AtomicU64,
    /// Background checks of ledgers that ended (passed or not): each frees
    /// what the sink kept in memory while it ran.
    pub checks_ended: AtomicU64,
    rejected: [AtomicU64; 7],
    moved_aside: Mutex<Vec<MovedAside>>,
    being_checked: Mutex<Vec<PathBuf>>,
}

impl DaemonStats {
    /// Counts one rejected line or connection.
    pub fn reject(&self, why: Rejection) {
        self.rejected[why as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// Rejections so far for one reason.
    pub fn rejected(&self, why: Rejection) -> u64 {
        self.rejected[why as usize].load(Ordering::Relaxed)
    }

    /// Rejections so far for all reasons.
    pub fn rejected_total(&self) -> u64 {
        self.rejected
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum()
    }

    /// Remembers a damaged ledger the ingest thread moved aside.
    pub fn record_moved_aside(&self, moved: MovedAside) {
        if let Ok(mut list) = self.moved_aside.lock() {
            list.push(moved);
        }
    }

    /// Every damaged ledger moved aside since the daemon started, oldest first.
    pub fn moved_aside(&self) -> Vec<MovedAside> {
        self.moved_aside
            .lock()
            .map(|list| list.clone())
            .unwrap_or_default()
    }

    /// How many damaged ledgers were moved aside since the daemon started.
    pub fn moved_aside_count(&self) -> usize {
        self.moved_aside.lock().map_or(0, |list| list.len())
    }

    /// Sets the ledgers the ingest thread has being checked in the background.
    /// A ledger that was on the list and is no longer counts as a check
    /// that ended ([`Self::checks_ended`]).
    pub fn set_ledgers_being_checked(&self, paths: Vec<PathBuf>) {
        if let Ok(mut list) = self.being_checked.lock() {
            let ended = list.iter().filter(|path| !paths.contains(path)).count();
            self.checks_ended.fetch_add(ended as u64, Ordering::Relaxed);
            *list = paths;
        }
    }

    /// The ledgers being checked in the background, as of the last batch.
    pub fn ledgers_being_checked(&self) -> Vec<PathBuf> {
        self.being_checked
            .lock()
            .map(|list| list.clone())
            .unwrap_or_default()
    }

    /// A plain copy of the counters.
    pub fn snapshot(&self) -> StatsSnapshot {
        StatsSnapshot {
            connections: self.connections.load(Ordering::Relaxed),
            lines_accepted: self.lines_accepted.load(Ordering::Relaxed),
            lines_rejected: self.rejected_total(),
            events_stored: self.events_stored.load(Ordering::Relaxed),
            events_spooled: self.events_spooled.load(Ordering::Relaxed),
            events_unrecorded: self.events_unrecorded.load(Ordering::Relaxed),
            hooks_skipped_untrusted: self.hooks_skipped_untrusted.load(Ordering::Relaxed),
        }
    }
}

/// The daemon's counters at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StatsSnapshot {
    /// Connections accepted.
    pub connections: u64,
    /// Lines accepted.
    pub lines_accepted: u64,
    /// Lines and connections rejected.
    pub lines_rejected: u64,
    /// Events committed to a ledger.
    pub events_stored: u64,
    /// Events written to the spool because no ledger would take them.
    pub events_spooled: u64,
    /// Events left out while recording was paused (absent in older files).
    #[serde(default)]
    pub events_unrecorded: u64,
    /// Matching managed hooks not run because their file is not trusted
    /// (absent in older files).
    #[serde(default)]
    pub hooks_skipped_untrusted: u64,
}
