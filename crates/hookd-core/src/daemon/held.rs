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
//! deleted but held, renamed `held-<pid>-<n>.jsonl`, beside a note of the
//! ledgers then being checked, `held-<pid>-<n>.ledgers` (a JSON list of
//! paths):
//! - each journal tick asks again, and the held files go once an answer is
//!   [`Settled::Durable`];
//! - when a ledger is moved aside, every held file is replayed (its events
//!   may have been in it; the ledgers ignore ids they already hold);
//! - a daemon stopped, or killed, with a check under way leaves them. The
//!   next start ([`crate::daemon::journal`]) opens the ledgers the note
//!   names, which has them checked again, and holds the file again until
//!   the checks pass, without reading it: the events are in those ledgers
//!   already, and replaying up to the limit below at every start cost a
//!   launch about 100 MiB and a few hundred ms while a big ledger's check
//!   never got to finish. The file is replayed instead when it has no note
//!   (a crash between the rename and the note), when a ledger it names is
//!   gone, or when one proves damaged;
//! - at most [`REPLAY_LIMIT_BYTES`] are held, as the sink keeps in memory;
//!   beyond it the oldest go (logged): should the ledger then prove damaged
//!   after a crash, their events are only in the file moved aside.
//!
//! The note is written before the rename and removed before the file, so a
//! crash at any step leaves either a held file with its true note, or one
//! with none (replayed whole), or a note alone (swept).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use rustix::fs::{Mode, OFlags};
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
    /// daemon's, beside a note of `ledgers`, those being checked) until its
    /// events are known to be stored for good.
    pub fn hold(&self, path: &Path, ledgers: &[PathBuf]) {
        let bytes = std::fs::symlink_metadata(path).map_or(0, |meta| meta.len());
        let mut state = self.state();
        let held = self.dir.join(format!(
            "{HELD_PREFIX}{}-{}.jsonl",
            std::process::id(),
            state.next
        ));
        state.next += 1;
        if let Err(err) = write_note(&note_path(&held), ledgers) {
            // Without a note the file is replayed whole at the next start.
            tracing::warn!(file = %held.display(), error = %err, "cannot note the ledgers a held journal file waits on");
        }
        if let Err(err) = std::fs::rename(path, &held) {
            tracing::warn!(file = %path.display(), error = %err, "cannot hold a journal file while its ledger is checked; it stays as it is");
            remove_quietly(&note_path(&held));
            return;
        }
        remove_quietly(&note_path(path));
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
    pub fn settled(&self, path: &Path, settled: &Settled) {
        match settled {
            Settled::Durable => remove_files(&[path.to_path_buf()]),
            Settled::UnderCheck(ledgers) => {
                tracing::info!(file = %path.display(), "its events went to a ledger still being checked; the journal file is held until the check passes");
                self.hold(path, ledgers);
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

/// Deletes journal files whose events are stored, each after its note.
fn remove_files(files: &[PathBuf]) {
    for file in files {
        remove_quietly(&note_path(file));
        if let Err(err) = std::fs::remove_file(file) {
            tracing::warn!(file = %file.display(), error = %err, "cannot remove a journal file whose events are stored");
        }
    }
}

fn remove_quietly(path: &Path) {
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => {
            tracing::warn!(file = %path.display(), error = %err, "cannot remove a held journal file's note");
        }
    }
}

/// Suffix of the note beside a held file.
const NOTE_SUFFIX: &str = "ledgers";

/// Largest note read: a list of ledger paths, not a file to load whole
/// whatever its size.
const NOTE_LIMIT_BYTES: u64 = 1 << 20;

/// The note beside the (held) journal file at `file`.
pub fn note_path(file: &Path) -> PathBuf {
    file.with_extension(NOTE_SUFFIX)
}

/// Writes the note at `path`: a new file (no symbolic link followed, mode
/// 0600), replacing one a crash left there.
fn write_note(path: &Path, ledgers: &[PathBuf]) -> std::io::Result<()> {
    let text = serde_json::to_vec(ledgers).map_err(std::io::Error::other)?;
    remove_quietly(path);
    let fd = rustix::fs::open(
        path,
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o600),
    )?;
    std::io::Write::write_all(&mut std::fs::File::from(fd), &text)
}

/// The ledgers the note beside the held file `file` names; `None` when it
/// has none, or one that cannot be read (the file is then replayed).
pub fn noted_ledgers(file: &Path) -> Option<Vec<PathBuf>> {
    let note = note_path(file);
    let fd = rustix::fs::open(
        &note,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .ok()?;
    let mut text = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(std::fs::File::from(fd), NOTE_LIMIT_BYTES + 1),
        &mut text,
    )
    .ok()?;
    if text.len() as u64 > NOTE_LIMIT_BYTES {
        tracing::warn!(note = %note.display(), "a held journal file's note is too big to be one; the file is replayed");
        return None;
    }
    match serde_json::from_slice(&text) {
        Ok(ledgers) => Some(ledgers),
        Err(err) => {
            tracing::warn!(note = %note.display(), error = %err, "a held journal file's note does not read; the file is replayed");
            None
        }
    }
}

/// Removes the notes a dead daemon left without their held file (a crash
/// between writing one and renaming its file); `dead` tells from a held
/// file's name whether its daemon is gone.
pub fn sweep_notes(dir: &Path, dead: impl Fn(&str) -> bool) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(std::result::Result::ok) {
        let path = entry.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let file = path.with_extension("jsonl");
        if name.starts_with(HELD_PREFIX)
            && path.extension().is_some_and(|ext| ext == NOTE_SUFFIX)
            && file.file_name().and_then(|n| n.to_str()).is_some_and(&dead)
            && std::fs::symlink_metadata(&file).is_err()
        {
            remove_quietly(&path);
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
