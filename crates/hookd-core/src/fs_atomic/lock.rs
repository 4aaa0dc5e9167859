//! One writer at a time for the files of a directory.
//!
//! An atomic rename alone does not stop two editors that both read a file,
//! each add something and each rename their version in: the second rename
//! silently drops the first one's change. Writers of a user's settings hold
//! a [`DirLock`] from reading the file to renaming the new one in, so the
//! second reads what the first wrote.
//!
//! The lock is `flock(2)` on the directory itself, not a `.lock` file beside
//! the settings file (git's `index.lock`): nothing is created, so nothing can
//! show up in a project's `git status`, and nothing is left behind when a
//! writer crashes — the kernel drops the lock with the process, so no stale
//! lock can wedge the user and no pid-based takeover (unreliable across pid
//! reuse and pid namespaces) is needed. Every hookd writer (CLI, app,
//! templates, `connect`) takes it; other programs (the agent's own editor)
//! do not, which is why a save still compares the file's bytes under the
//! lock. Where the file system cannot lock at all (some network mounts
//! refuse `flock` on a directory), the writer goes on unlocked, with a
//! warning in the log, rather than refusing every edit: the byte comparison
//! still refuses a change it would overwrite.

use std::fs::{self, File, TryLockError};
use std::io;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

/// How long a writer waits for another one to finish before giving up.
/// A writer holds the lock for a read, a parse and a write: milliseconds.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

/// The longest pause between two attempts.
const MAX_BACKOFF: Duration = Duration::from_millis(25);

/// Errors from taking a [`DirLock`].
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// The directory could not be opened or locked.
    #[error("cannot lock directory {dir} to write {path}")]
    Io {
        /// The file that was to be written.
        path: PathBuf,
        /// The directory.
        dir: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// Another process kept the lock for longer than the wait.
    #[error(
        "{path} is being written by another process (it holds the lock on directory {dir}); gave up after {}s and wrote nothing: try again",
        waited.as_secs()
    )]
    Busy {
        /// The file that was to be written.
        path: PathBuf,
        /// The locked directory.
        dir: PathBuf,
        /// How long this writer waited.
        waited: Duration,
    },
}

/// An exclusive lock on a directory, released when dropped (or when the
/// process dies).
#[derive(Debug)]
pub struct DirLock {
    dir: PathBuf,
    /// `None` where the file system cannot lock (see the module docs).
    _file: Option<File>,
}

impl DirLock {
    /// Locks `dir` (which must exist) for writing `path` in it, waiting with
    /// backoff up to `wait` while another process holds it. A directory that
    /// was removed or replaced while this writer waited is opened again, so
    /// the lock held is always on the directory now at `dir`; one that is
    /// gone is [`LockError::Io`] with [`io::ErrorKind::NotFound`], for the
    /// caller to make it again.
    pub fn acquire(dir: &Path, path: &Path, wait: Duration) -> Result<Self, LockError> {
        let io_err = |source| LockError::Io {
            path: path.to_path_buf(),
            dir: dir.to_path_buf(),
            source,
        };
        let start = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            let file = File::open(dir).map_err(io_err)?;
            match file.try_lock() {
                Ok(()) => {
                    let locked = file.metadata().map_err(io_err)?;
                    let now = fs::metadata(dir).map_err(io_err)?;
                    if (locked.dev(), locked.ino()) == (now.dev(), now.ino()) {
                        return Ok(Self {
                            dir: dir.to_path_buf(),
                            _file: Some(file),
                        });
                    }
                    // Removed and made again meanwhile: lock the new one.
                    continue;
                }
                Err(TryLockError::WouldBlock) => {}
                Err(TryLockError::Error(e)) if cannot_lock_here(&e) => {
                    tracing::warn!(dir = %dir.display(), error = %e, "this file system cannot lock the directory: writing unlocked");
                    return Ok(Self {
                        dir: dir.to_path_buf(),
                        _file: None,
                    });
                }
                Err(TryLockError::Error(e)) => return Err(io_err(e)),
            }
            let waited = start.elapsed();
            if waited >= wait {
                return Err(LockError::Busy {
                    path: path.to_path_buf(),
                    dir: dir.to_path_buf(),
                    waited,
                });
            }
            thread::sleep(pause.min(wait - waited));
            pause = (pause * 2).min(MAX_BACKOFF);
        }
    }

    /// The locked directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// True for the errors of a file system that has no `flock` for a
/// directory (NFS emulates it with write locks a read-only descriptor cannot
/// take), as opposed to a lock that failed.
fn cannot_lock_here(err: &io::Error) -> bool {
    use rustix::io::Errno;
    err.raw_os_error().is_some_and(|code| {
        [Errno::BADF, Errno::NOLCK, Errno::OPNOTSUPP, Errno::INVAL]
            .iter()
            .any(|e| e.raw_os_error() == code)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_waits_then_gives_up_naming_the_file_and_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("settings.json");
        let held = DirLock::acquire(tmp.path(), &file, LOCK_WAIT).unwrap();
        assert_eq!(held.dir(), tmp.path());
        let err = DirLock::acquire(tmp.path(), &file, Duration::from_millis(50)).unwrap_err();
        assert!(
            matches!(err, LockError::Busy { waited, .. } if waited >= Duration::from_millis(50))
        );
        let shown = err.to_string();
        assert!(shown.contains(&file.display().to_string()), "{shown}");
        assert!(shown.contains("wrote nothing"), "{shown}");
        drop(held);
        DirLock::acquire(tmp.path(), &file, Duration::from_millis(50)).unwrap();
    }

    #[test]
    fn the_lock_is_released_when_its_holder_goes_away() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("s.json");
        let dir = tmp.path().to_path_buf();
        let (tx, rx) = std::sync::mpsc::channel();
        let holder = thread::spawn({
            let (dir, file) = (dir.clone(), file.clone());
            move || {
                let _lock = DirLock::acquire(&dir, &file, LOCK_WAIT).unwrap();
                tx.send(()).unwrap();
                thread::sleep(Duration::from_millis(100));
            }
        });
        rx.recv().unwrap();
        // Waits for the holder instead of failing.
        let start = Instant::now();
        DirLock::acquire(&dir, &file, LOCK_WAIT).unwrap();
        assert!(start.elapsed() >= Duration::from_millis(50));
        holder.join().unwrap();
    }

    #[test]
    fn a_missing_directory_is_an_error_naming_it() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("nope");
        let err = DirLock::acquire(&dir, &dir.join("s.json"), LOCK_WAIT).unwrap_err();
        assert!(matches!(err, LockError::Io { .. }), "{err:?}");
        assert!(err.to_string().contains("nope"), "{err}");
    }
}
