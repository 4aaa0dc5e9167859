//! Quick-checks big ledgers on a thread of its own, so the thread that
//! stores events never waits for one.
//!
//! The [`LedgerSink`](super::sink::LedgerSink) checks a ledger when it opens
//! it (`PRAGMA quick_check`, [`super::integrity`]), so that it never keeps
//! appending to a damaged file. The check reads every page: about a minute
//! for a ledger of a million rows on a cold cache, three to ten at ten
//! million. Run on the ingest thread, every event of that first minute waited
//! (the accepted-line journal kept them, but nothing was stored or answered
//! as stored). A small ledger is still checked before its first write; a big
//! one is handed to this thread, which checks it on a read-only connection
//! of its own, at a lowered CPU priority, while the writer goes on. The sink
//! collects the outcome before its next write ([`Checker::finished`]).
//!
//! One ledger is checked at a time: two checks of big files at once would
//! only compete for the same disk. Dropping the checker interrupts the check
//! under way (`sqlite3_interrupt`) and joins the thread, so a daemon stops at
//! once even in the middle of ten million rows.
//!
//! While a check runs, the checkpoint thread cannot copy the write-ahead log
//! past the check's snapshot, so the log grows by what is written meanwhile;
//! it is cut back by the first checkpoint after the check.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;

use rusqlite::InterruptHandle;

use crate::error::ErrorChain;
use crate::ledger::integrity;
use crate::ledger::sink::FileIdentity;

/// How much the checking thread lowers its CPU priority (`nice`): the check
/// is background work, the daemon's other threads answer agents.
const NICENESS: i32 = 10;

/// What a background check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// `PRAGMA quick_check` passed.
    Sound,
    /// The ledger is damaged; what the check found.
    Damaged(String),
    /// No verdict: the file was replaced while it was checked, could not be
    /// opened, or the check was interrupted; why.
    Unknown(String),
}

/// The outcome of one background check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The ledger checked.
    pub path: PathBuf,
    /// The file (device, inode) that was checked.
    pub identity: FileIdentity,
    /// What the check found.
    pub verdict: Verdict,
}

/// The queue, the finished checks, the check under way and whether to stop.
#[derive(Default)]
struct State {
    queue: VecDeque<(PathBuf, FileIdentity)>,
    finished: Vec<Outcome>,
    /// A ledger was taken from the queue and its outcome is not in yet.
    checking: bool,
    /// Interrupts the check under way.
    running: Option<InterruptHandle>,
    stop: bool,
    /// Queued checks wait (tests: a check still under way, at will).
    #[cfg(test)]
    paused: bool,
}

type Shared = Arc<(Mutex<State>, Condvar)>;

/// A thread that quick-checks the ledgers it is given, one at a time.
pub struct Checker {
    shared: Shared,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Checker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checker").finish_non_exhaustive()
    }
}

impl Checker {
    /// Starts the thread; `None` (and a warning) when it cannot be spawned,
    /// in which case the sink checks every ledger before writing to it.
    pub fn start() -> Option<Self> {
        let shared: Shared = Arc::default();
        let theirs = Arc::clone(&shared);
        match std::thread::Builder::new()
            .name("hookd-check".into())
            .spawn(move || run(&theirs))
        {
            Ok(thread) => Some(Self {
                shared,
                thread: Some(thread),
            }),
            Err(err) => {
                tracing::warn!(error = %err, "could not start the ledger check thread; ledgers are checked before their first write");
                None
            }
        }
    }

    /// Queues a check of the ledger at `path`, which must still be the file
    /// `identity` when the check starts and ends.
    pub fn check(&self, path: &Path, identity: FileIdentity) {
        let (state, wake) = &*self.shared;
        let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
        state.queue.push_back((path.to_path_buf(), identity));
        wake.notify_one();
    }

    /// The checks finished since the last call (never blocks).
    pub fn finished(&self) -> Vec<Outcome> {
        let (state, _) = &*self.shared;
        std::mem::take(
            &mut state
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .finished,
        )
    }

    /// What holds this checker's queued checks back at will (tests).
    #[cfg(test)]
    pub(crate) fn gate(&self) -> CheckGate {
        CheckGate(Arc::clone(&self.shared))
    }

    /// Whether a check is queued or under way.
    pub fn busy(&self) -> bool {
        let (state, _) = &*self.shared;
        let state = state.lock().unwrap_or_else(PoisonError::into_inner);
        !state.queue.is_empty() || state.checking
    }
}

/// Holds a checker's queued checks back, so that a test finds a check still
/// under way for as long as it needs.
#[cfg(test)]
#[derive(Clone)]
pub(crate) struct CheckGate(Shared);

#[cfg(test)]
impl CheckGate {
    /// Queued checks wait until [`Self::open`].
    pub(crate) fn close(&self) {
        self.0
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .paused = true;
    }

    /// Queued checks run again.
    pub(crate) fn open(&self) {
        let (state, wake) = &*self.0;
        state.lock().unwrap_or_else(PoisonError::into_inner).paused = false;
        wake.notify_one();
    }
}

impl Drop for Checker {
    fn drop(&mut self) {
        {
            let (state, wake) = &*self.shared;
            let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
            state.stop = true;
            if let Some(running) = &state.running {
                running.interrupt();
            }
            wake.notify_one();
        }
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            tracing::warn!("the ledger check thread panicked");
        }
    }
}

/// The thread: waits for a queued ledger, checks it, reports; returns when
/// told to stop (dropping what is still queued: those ledgers stay
/// unchecked, and are checked when a daemon next opens them).
fn run(shared: &Shared) {
    if let Err(err) = rustix::process::setpriority_process(None, NICENESS) {
        tracing::debug!(error = %err, "could not lower the ledger check thread's priority");
    }
    let (state, wake) = &**shared;
    loop {
        let (path, identity) = {
            let mut guard = state.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                if guard.stop {
                    return;
                }
                #[cfg(test)]
                let paused = guard.paused;
                #[cfg(not(test))]
                let paused = false;
                if !paused && let Some(next) = guard.queue.pop_front() {
                    guard.checking = true;
                    break next;
                }
                guard = wake.wait(guard).unwrap_or_else(PoisonError::into_inner);
            }
        };
        let verdict = check(&path, identity, state);
        tracing::debug!(ledger = %path.display(), ?verdict, "background ledger check finished");
        let mut guard = state.lock().unwrap_or_else(PoisonError::into_inner);
        guard.running = None;
        guard.finished.push(Outcome {
            path,
            identity,
            verdict,
        });
        guard.checking = false;
    }
}

/// Checks one ledger on a read-only connection, registering the check so a
/// stop can interrupt it.
fn check(path: &Path, identity: FileIdentity, state: &Mutex<State>) -> Verdict {
    if FileIdentity::of(path) != Some(identity) {
        return Verdict::Unknown("replaced before its check started".into());
    }
    let conn = match integrity::open_read_only(path) {
        Ok(conn) => conn,
        Err(err) if integrity::is_damage(&err) => {
            return Verdict::Damaged(ErrorChain(&err).to_string());
        }
        Err(err) => return Verdict::Unknown(ErrorChain(&err).to_string()),
    };
    {
        let mut guard = state.lock().unwrap_or_else(PoisonError::into_inner);
        if guard.stop {
            return Verdict::Unknown("the daemon stopped".into());
        }
        guard.running = Some(conn.get_interrupt_handle());
    }
    let found = integrity::quick_check(&conn, path);
    if FileIdentity::of(path) != Some(identity) {
        return Verdict::Unknown("replaced while it was checked".into());
    }
    match found {
        Ok(problems) if problems.is_empty() => Verdict::Sound,
        Ok(problems) => Verdict::Damaged(problems.join("; ")),
        Err(err) if integrity::is_damage(&err) => Verdict::Damaged(ErrorChain(&err).to_string()),
        Err(err) => Verdict::Unknown(ErrorChain(&err).to_string()),
    }
}
