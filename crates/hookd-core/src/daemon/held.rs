//! Journal files whose events are committed, but to a ledger still being
//! checked in the background, so that a crash in that time loses nothing.
//!
//! While a big ledger is checked ([`crate::ledger::checker`]: minutes at
//! millions of rows), what is written to it is only as safe as the file: if
//! the check finds it damaged, the sink moves it aside and writes again, into
//! a new ledger, the batches it kept in memory. A daemon that dies meanwhile
//! loses that copy, and the next start's check would find the damage with
//! nothing left to write again. So a journal file (an accepted-line segment,
//! a replayed file) whose barrier is answered [`Settled::UnderCheck`] is not
//! deleted but held, renamed `held-<pid>-<n>.jsonl`:
//! - each journal tick asks again, and the held files go once an answer is
//!   [`Settled::Durable`];
//! - when a ledger is moved aside, every held file is replayed (its events
//!   may have been in it; the ledgers ignore ids they already hold);
//! - a daemon stopped, or killed, with a check under way leaves them; the
//!   next start replays them as it replays any journal file a dead daemon
//!   left ([`crate::daemon::journal`]): that opens their ledgers, so they are
//!   checked again, and the files are held again until the checks pass (or
//!   written into the new ledger, should one prove damaged). Replaying them
//!   is what tells which ledgers they concern; it costs a restart at most
//!   the limit below;
//! - at most [`REPLAY_LIMIT_BYTES`] are held, as the sink keeps in memory;
//!   beyond it the oldest go (logged): should the ledger then prove damaged
//!   after a crash, their events are only in the file moved aside.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use tokio::sync::{mpsc, oneshot};

use crate::daemon::ingest::{IngestItem, Settled};
use crate::ledger::sink::REPLAY_LIMIT_BYTES;

/// Prefix of a held file's name.
pub const HELD_PREFIX: &str = "held-";

/// The held files of this daemon, oldest first.
#[derive(Debug)]
pub struct HeldFiles {
    dir: PathBuf,
    limit: u64,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    files: VecDeque<(PathBuf, u64)>,
    bytes: u64,
    next: u64,
    /// The limit was passed (logged once per daemon).
    overflowed: bool,
}

impl HeldFiles {
    /// Held files in the journal directory `dir`.
    pub fn new(dir: PathBuf) -> Self {
        Self::with_limit(dir, REPLAY_LIMIT_BYTES as u64)
    }

    /// [`Self::new`] holding at most `limit` bytes (tests).
    pub(crate) fn with_limit(dir: PathBuf, limit: u64) -> Self {
        Self {
            dir,
            limit,
            state: Mutex::new(State::default()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps the journal file at `path` (renamed to a held name of this
    /// daemon's) until its events are known to be stored for good.
    pub fn hold(&self, path: &Path) {
        let bytes = std::fs::symlink_metadata(path).map_or(0, |meta| meta.len());
        let mut state = self.state();
        let held = self.dir.join(format!(
            "{HELD_PREFIX}{}-{}.jsonl",
            std::process::id(),
            state.next
        ));
        state.next += 1;
        if let Err(err) = std::fs::rename(path, &held) {
            tracing::warn!(file = %path.display(), error = %err, "cannot hold a journal file while its ledger is checked; it stays as it is");
            return;
        }
        state.files.push_back((held, bytes));
        state.bytes += bytes;
        while state.bytes > self.limit && state.files.len() > 1 {
            let Some((oldest, size)) = state.files.pop_front() else {
                break;
            };
            state.bytes -= size;
            if !state.overflowed {
                state.overflowed = true;
                tracing::warn!(
                    limit = self.limit,
                    "more was written to ledgers being checked than the journal keeps for them; should one prove damaged after a crash, the oldest of these events are only in the file moved aside"
                );
            }
            remove_files(&[oldest]);
        }
    }

    /// What to do with a journal file whose events committed, as the
    /// barrier behind them answered: delete it when they are stored for
    /// good, hold it while a ledger is being checked.
    pub fn settled(&self, path: &Path, settled: Settled) {
        match settled {
            Settled::Durable => remove_files(&[path.to_path_buf()]),
            Settled::UnderCheck => {
                tracing::info!(file = %path.display(), "its events went to a ledger still being checked; the journal file is held until the check passes");
                self.hold(path);
            }
        }
    }

    /// How many files are held.
    pub fn len(&self) -> usize {
        self.state().files.len()
    }

    /// Whether no file is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The held files, oldest first.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.state().files.iter().map(|(p, _)| p.clone()).collect()
    }

    /// Asks the ingest thread whether what it committed is stored for good,
    /// and if so deletes the files held before the question; returns how
    /// many were deleted.
    pub async fn release(&self, events: &mpsc::Sender<IngestItem>) -> usize {
        let asked = self.len();
        if asked == 0 || settle(events).await != Some(Settled::Durable) {
            return 0;
        }
        let files: Vec<PathBuf> = {
            let mut state = self.state();
            let asked = asked.min(state.files.len());
            let taken: Vec<(PathBuf, u64)> = state.files.drain(..asked).collect();
            state.bytes -= taken.iter().map(|(_, size)| size).sum::<u64>();
            taken.into_iter().map(|(path, _)| path).collect()
        };
        remove_files(&files);
        files.len()
    }

    /// Deletes every held file; call once the ingest thread stopped with no
    /// check under way.
    pub fn remove_all(&self) {
        let files: Vec<PathBuf> = {
            let mut state = self.state();
            state.bytes = 0;
            state.files.drain(..).map(|(path, _)| path).collect()
        };
        remove_files(&files);
    }
}

fn remove_files(files: &[PathBuf]) {
    for file in files {
        if let Err(err) = std::fs::remove_file(file) {
            tracing::warn!(file = %file.display(), error = %err, "cannot remove a journal file whose events are stored");
        }
    }
}

/// Queues a barrier and waits for its answer; `None` when the ingest
/// thread stopped first.
pub async fn settle(events: &mpsc::Sender<IngestItem>) -> Option<Settled> {
    let (done, settled) = oneshot::channel();
    events.send(IngestItem::Barrier(done)).await.ok()?;
    settled.await.ok()
}
