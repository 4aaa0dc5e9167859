//! The daemon's journal of accepted lines, so that a SIGKILL loses nothing
//! the daemon acknowledged.
//!
//! Between reading a line and committing it, an event lives only in the
//! daemon's memory (the ingest queue, a batch). So each accepted line is
//! first appended to `{data dir}/journal/accepted-<pid>-<n>.jsonl` (one
//! `write()`, no fsync: this guards against the process dying, not the
//! disk), and only then acknowledged to `hookd-emit`, which keeps the line
//! in its own journal when no acknowledgement comes. Every
//! [`ROTATE_INTERVAL`] the current segment is closed and a fresh one opened;
//! a closed segment is deleted once every line written to it has been queued
//! and an [`IngestItem::Barrier`] behind them answered, i.e. committed, to
//! ledgers known sound (else it is held: [`crate::daemon::held`]). The
//! segments of a daemon that died are replayed at the next start
//! (`crate::daemon::journal`), idempotently on the event id.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hookd_proto::journal::JournalError;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::daemon::held::{HeldFiles, settle};
use crate::daemon::ingest::IngestItem;
use crate::daemon::journal::ACCEPTED_PREFIX;

/// How often a segment that received lines is closed and a fresh one opened.
pub const ROTATE_INTERVAL: Duration = Duration::from_secs(1);

/// How often a retiring segment checks whether its last writer has queued its event.
const RETIRE_POLL: Duration = Duration::from_millis(5);

/// One segment file. Connection tasks hold an `Arc` of it from the append
/// until their event is in the ingest queue.
#[derive(Debug)]
pub struct Segment {
    path: PathBuf,
    file: OwnedFd,
    lines: AtomicU64,
}

/// Proof a line is journaled; drop it only once the event is queued.
pub type Journaled = Arc<Segment>;

/// The accepted-line journal of this daemon.
#[derive(Debug)]
pub struct AcceptedJournal {
    dir: PathBuf,
    current: Mutex<Arc<Segment>>,
    next: AtomicU64,
}

impl AcceptedJournal {
    /// Creates the journal directory if needed and opens the first segment.
    pub fn open(data_dir: &Path) -> Result<Self, JournalError> {
        let dir = hookd_proto::journal::prepare_dir(data_dir)?;
        let first = open_segment(&dir, 0)?;
        Ok(Self {
            dir,
            current: Mutex::new(Arc::new(first)),
            next: AtomicU64::new(1),
        })
    }

    /// Appends `line` (a newline is added) with one `write()`.
    pub fn append(&self, line: &[u8]) -> std::io::Result<Journaled> {
        let segment = match self.current.lock() {
            Ok(current) => Arc::clone(&current),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        };
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            match rustix::io::write(&segment.file, rest) {
                Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                Ok(written) => rest = &rest[written..],
                Err(rustix::io::Errno::INTR) => {}
                Err(errno) => return Err(errno.into()),
            }
        }
        segment.lines.fetch_add(1, Ordering::Relaxed);
        Ok(segment)
    }

    /// Rotates every [`ROTATE_INTERVAL`] until `shutdown`; retiring segments
    /// are tracked by `retiring`, which the caller waits for, and go to
    /// `held` when their events went to a ledger still being checked.
    pub async fn rotate_until(
        self: Arc<Self>,
        events: mpsc::Sender<IngestItem>,
        held: Arc<HeldFiles>,
        retiring: TaskTracker,
        shutdown: CancellationToken,
    ) {
        let mut ticks = tokio::time::interval(ROTATE_INTERVAL);
        loop {
            tokio::select! {
                _ = ticks.tick() => {}
                () = shutdown.cancelled() => return,
            }
            if let Some(old) = self.rotate() {
                retiring.spawn(retire(old, events.clone(), Arc::clone(&held)));
            }
        }
    }

    /// Swaps in a fresh segment when the current one holds lines.
    fn rotate(&self) -> Option<Arc<Segment>> {
        let mut current = self.current.lock().ok()?;
        if current.lines.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        match open_segment(&self.dir, n) {
            Ok(fresh) => Some(std::mem::replace(&mut *current, Arc::new(fresh))),
            Err(err) => {
                tracing::error!(error = %err, "cannot open a new accepted-line segment; keeping the current one");
                None
            }
        }
    }

    /// Deletes every segment of this daemon; call once the ingest thread has
    /// committed everything (at shutdown).
    pub fn remove_all(&self) {
        let own = format!("{ACCEPTED_PREFIX}{}-", std::process::id());
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.filter_map(std::result::Result::ok) {
            if entry.file_name().to_string_lossy().starts_with(&own)
                && let Err(err) = std::fs::remove_file(entry.path())
            {
                tracing::warn!(file = %entry.path().display(), error = %err, "cannot remove accepted-line segment");
            }
        }
    }
}

/// Waits until every line of `old` is queued, then until it committed, then
/// deletes the file, or holds it while a ledger is being checked.
async fn retire(old: Arc<Segment>, events: mpsc::Sender<IngestItem>, held: Arc<HeldFiles>) {
    while Arc::strong_count(&old) > 1 {
        tokio::time::sleep(RETIRE_POLL).await;
    }
    match settle(&events).await {
        None => {
            tracing::warn!(file = %old.path.display(), "ingest stopped; segment kept for the next start");
        }
        Some(settled) => held.settled(&old.path, &settled),
    }
}

fn open_segment(dir: &Path, n: u64) -> Result<Segment, JournalError> {
    let path = dir.join(format!("{ACCEPTED_PREFIX}{}-{n}.jsonl", std::process::id()));
    let file = hookd_proto::journal::open_append(&path)?;
    Ok(Segment {
        path,
        file,
        lines: AtomicU64::new(0),
    })
}
