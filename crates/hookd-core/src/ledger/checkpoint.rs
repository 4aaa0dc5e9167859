//! Checkpoints the ledgers' write-ahead logs on a thread of their own, so
//! the thread that commits events never waits for one.
//!
//! In WAL mode a commit appends pages to `mutations.db-wal`, and by default
//! the committing connection copies them back into the database file once
//! the log passes 1,000 pages (4 MiB). Under load every batch passes it, so
//! the daemon's ingest thread spent about a tenth of its time copying pages
//! and syncing the file instead of storing the next batch. The
//! [`LedgerSink`](super::sink::LedgerSink) now raises its connections'
//! threshold to [`BACKSTOP_PAGES`] and tells a [`Checkpointer`] which ledgers
//! it wrote; this thread checkpoints them (`PASSIVE`: it never blocks the
//! writer or a reader) a moment later on a short-lived connection of its
//! own. Durability is unchanged: a commit is in the log before it is
//! acknowledged either way, and the log is synced into the database at
//! least as often as before. If this thread falls behind, the writer's own
//! checkpoint at [`BACKSTOP_PAGES`] bounds the log.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// The writer's own checkpoint threshold (`PRAGMA wal_autocheckpoint`, in
/// pages of 4 KiB, so 64 MiB): a backstop the background checkpoints keep
/// the log under. A batch of the daemon's largest size (4,096 events) adds
/// about 3,000 pages, and under a burst several commit while the thread
/// gathers.
pub const BACKSTOP_PAGES: u32 = 16_384;

/// What the log is cut back to after a checkpoint let the writer start it
/// over (`PRAGMA journal_size_limit`, bytes): a burst's 64 MiB log does not
/// stay on disk.
pub const LOG_SIZE_LIMIT: i64 = 16 * 1024 * 1024;

/// How long the thread gathers written ledgers before checkpointing them:
/// under a burst, one checkpoint covers many commits.
const GATHER: Duration = Duration::from_millis(100);

/// Ledgers written since the last checkpoint, and whether to stop.
#[derive(Default)]
struct Pending {
    ledgers: HashSet<PathBuf>,
    stop: bool,
}

type Shared = Arc<(Mutex<Pending>, Condvar)>;

/// A thread that checkpoints the ledgers it is told were written. Dropping
/// it checkpoints what is pending and joins the thread.
pub struct Checkpointer {
    shared: Shared,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Checkpointer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checkpointer").finish_non_exhaustive()
    }
}

impl Checkpointer {
    /// Starts the thread; `None` (and a warning) when it cannot be spawned,
    /// in which case the writer checkpoints by itself as before.
    pub fn start() -> Option<Self> {
        let shared: Shared = Arc::default();
        let theirs = Arc::clone(&shared);
        match std::thread::Builder::new()
            .name("hookd-checkpoint".into())
            .spawn(move || run(&theirs))
        {
            Ok(thread) => Some(Self {
                shared,
                thread: Some(thread),
            }),
            Err(err) => {
                tracing::warn!(error = %err, "could not start the checkpoint thread; the writer checkpoints its ledgers itself");
                None
            }
        }
    }

    /// Notes that the ledger at `path` was committed to.
    pub fn written(&self, path: &Path) {
        let (pending, wake) = &*self.shared;
        let mut pending = pending.lock().unwrap_or_else(PoisonError::into_inner);
        if !pending.ledgers.contains(path) {
            pending.ledgers.insert(path.to_path_buf());
            wake.notify_one();
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        {
            let (pending, wake) = &*self.shared;
            pending.lock().unwrap_or_else(PoisonError::into_inner).stop = true;
            wake.notify_one();
        }
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            tracing::warn!("the checkpoint thread panicked");
        }
    }
}

/// The thread: waits for written ledgers, gathers for [`GATHER`], checkpoints
/// each; on stop, checkpoints what is left and returns.
fn run(shared: &Shared) {
    let (pending, wake) = &**shared;
    loop {
        let stop = {
            let mut guard = pending.lock().unwrap_or_else(PoisonError::into_inner);
            while guard.ledgers.is_empty() && !guard.stop {
                guard = wake.wait(guard).unwrap_or_else(PoisonError::into_inner);
            }
            guard.stop
        };
        if !stop {
            std::thread::sleep(GATHER);
        }
        let (ledgers, stop) = {
            let mut guard = pending.lock().unwrap_or_else(PoisonError::into_inner);
            (std::mem::take(&mut guard.ledgers), guard.stop)
        };
        for path in ledgers {
            if let Err(err) = checkpoint(&path) {
                tracing::debug!(ledger = %path.display(), error = %err, "background checkpoint failed; the writer's own checkpoint remains");
            }
        }
        if stop {
            return;
        }
    }
}

/// One `PASSIVE` checkpoint of the ledger at `path`, on a connection of its
/// own that neither creates the file nor follows a symbolic link to it.
pub fn checkpoint(path: &Path) -> rusqlite::Result<()> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_NOFOLLOW
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(Duration::from_secs(1))?;
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
}
