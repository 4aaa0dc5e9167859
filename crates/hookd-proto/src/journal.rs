//! The emitters' journal: where an envelope line goes when no trusted daemon
//! took it, so that an event for which `hookd-emit` exited 0 is never lost.
//!
//! `{data dir}/journal/pending.jsonl` holds one envelope line per event,
//! exactly as it would have travelled over the socket (with its `event_id`,
//! so a line that reached the daemon too is stored once). The daemon takes
//! the file over at start and every few seconds (`hookd_core::daemon::journal`)
//! and deletes it only once every line committed.
//!
//! Safety rules, shared by the emitter (which appends) and the daemon (which
//! takes over):
//! - The directory is the caller's own, mode 0700, not a symbolic link; the
//!   file is opened `O_NOFOLLOW`, created 0600, and must be a regular file
//!   of the caller. Nobody else can plant or read a line.
//! - One `write()` per line under `O_APPEND`: concurrent emitters never
//!   interleave. No fsync: the journal protects against a daemon that is
//!   down or dies, not against losing the disk, and the hot path stays fast.
//! - The appender holds `flock(LOCK_SH)` while it writes, and checks after
//!   locking that the path still names the file it opened. The daemon
//!   renames the file away and then takes `LOCK_EX` on it: that waits for
//!   appenders already inside, and any appender that locked the renamed file
//!   afterwards sees the path changed and starts again on a fresh file.

use std::fmt;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::{DirBuilderExt as _, MetadataExt as _};
use std::path::{Path, PathBuf};

use rustix::fs::{FlockOperation, Mode, OFlags};

/// Environment variable that overrides hookd's data directory (the same one
/// `hookd_core::dirs` reads).
pub const DATA_DIR_ENV: &str = "HOOKD_DATA_DIR";

/// The journal's directory inside the data directory.
pub const JOURNAL_DIR_NAME: &str = "journal";

/// The file emitters append to.
pub const PENDING_FILE_NAME: &str = "pending.jsonl";

/// How many times an append starts again because the daemon took the file
/// over under it; each retry needs a takeover in a window of microseconds.
const MAX_ATTEMPTS: usize = 8;

/// hookd's per-user data directory, by the same rule as the daemon's:
/// `$HOOKD_DATA_DIR`, else `$XDG_DATA_HOME/hookd`, else
/// `$HOME/.local/share/hookd`; `None` without any of them.
pub fn data_dir() -> Option<PathBuf> {
    let non_empty = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = non_empty(DATA_DIR_ENV) {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = non_empty("XDG_DATA_HOME") {
        return Some(PathBuf::from(dir).join("hookd"));
    }
    non_empty("HOME").map(|home| PathBuf::from(home).join(".local/share/hookd"))
}

/// `{data dir}/journal`.
pub fn journal_dir(data_dir: &Path) -> PathBuf {
    data_dir.join(JOURNAL_DIR_NAME)
}

/// `{data dir}/journal/pending.jsonl`.
pub fn pending_path(data_dir: &Path) -> PathBuf {
    journal_dir(data_dir).join(PENDING_FILE_NAME)
}

/// Why a line could not be journaled.
#[derive(Debug)]
pub enum JournalError {
    /// No data directory could be determined (no `$HOME`).
    NoDataDir,
    /// The journal directory is not the caller's private directory.
    UnsafeDir {
        /// The directory.
        dir: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The journal file is not a regular file of the caller.
    UnsafeFile {
        /// The file.
        path: PathBuf,
    },
    /// A file system call failed.
    Io {
        /// What was being done.
        action: &'static str,
        /// On which path.
        path: PathBuf,
        /// What the OS said.
        source: io::Error,
    },
    /// The daemon kept taking the file over; the line was not written.
    Contended {
        /// The file.
        path: PathBuf,
    },
}

impl fmt::Display for JournalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoDataDir => write!(f, "no data directory (set HOME or {DATA_DIR_ENV})"),
            Self::UnsafeDir { dir, reason } => {
                write!(f, "refusing journal directory {}: {reason}", dir.display())
            }
            Self::UnsafeFile { path } => write!(
                f,
                "refusing journal file {}: not a regular file of this user",
                path.display()
            ),
            Self::Io {
                action,
                path,
                source,
            } => write!(f, "cannot {action} {}: {source}", path.display()),
            Self::Contended { path } => {
                write!(
                    f,
                    "{} kept being taken over; line not written",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for JournalError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

fn io_error<'a>(
    action: &'static str,
    path: &'a Path,
) -> impl FnOnce(io::Error) -> JournalError + 'a {
    move |source| JournalError::Io {
        action,
        path: path.to_owned(),
        source,
    }
}

/// Creates `{data dir}/journal` 0700 when missing and checks it is the
/// caller's own private directory (not a symbolic link); returns its path.
pub fn prepare_dir(data_dir: &Path) -> Result<PathBuf, JournalError> {
    let dir = journal_dir(data_dir);
    match std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)
    {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
        Err(err) => return Err(io_error("create", &dir)(err)),
    }
    check_dir(&dir)?;
    Ok(dir)
}

/// The journal directory's rule: a real directory (no symbolic link), owned
/// by the caller, without group or other permission bits.
pub fn check_dir(dir: &Path) -> Result<(), JournalError> {
    let meta = std::fs::symlink_metadata(dir).map_err(io_error("inspect", dir))?;
    let unsafe_dir = |reason: String| JournalError::UnsafeDir {
        dir: dir.to_owned(),
        reason,
    };
    if !meta.file_type().is_dir() {
        return Err(unsafe_dir(
            "it is not a directory (or is a symbolic link)".into(),
        ));
    }
    let uid = rustix::process::getuid().as_raw();
    if meta.uid() != uid {
        return Err(unsafe_dir(format!(
            "owned by uid {}, not {uid}",
            meta.uid()
        )));
    }
    if meta.mode() & 0o077 != 0 {
        return Err(unsafe_dir(format!(
            "mode {:o} lets other users in",
            meta.mode() & 0o777
        )));
    }
    Ok(())
}

/// Opens `path` for appending without following a symbolic link, creating
/// it 0600, and checks it is a regular file of the caller.
pub fn open_append(path: &Path) -> Result<OwnedFd, JournalError> {
    let fd = rustix::fs::open(
        path,
        OFlags::WRONLY | OFlags::APPEND | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o600),
    )
    .map_err(|errno| io_error("open", path)(errno.into()))?;
    let stat = rustix::fs::fstat(&fd).map_err(|errno| io_error("inspect", path)(errno.into()))?;
    let is_regular = rustix::fs::FileType::from_raw_mode(stat.st_mode).is_file();
    if !is_regular || stat.st_uid != rustix::process::getuid().as_raw() {
        return Err(JournalError::UnsafeFile {
            path: path.to_owned(),
        });
    }
    Ok(fd)
}

/// Whether `path` still names the file open as `fd` (same device and inode).
fn still_named(fd: &impl AsFd, path: &Path) -> bool {
    let (Ok(open), Ok(named)) = (rustix::fs::fstat(fd), rustix::fs::lstat(path)) else {
        return false;
    };
    open.st_dev == named.st_dev && open.st_ino == named.st_ino
}

/// Appends one envelope line (ending in `\n`) to the pending journal of
/// `data_dir` with a single `write()`, under `flock(LOCK_SH)`; returns the
/// file's path.
pub fn append(data_dir: &Path, line: &[u8]) -> Result<PathBuf, JournalError> {
    prepare_dir(data_dir)?;
    let path = pending_path(data_dir);
    for _ in 0..MAX_ATTEMPTS {
        let fd = open_append(&path)?;
        rustix::fs::flock(&fd, FlockOperation::LockShared)
            .map_err(|errno| io_error("lock", &path)(errno.into()))?;
        if !still_named(&fd, &path) {
            // The daemon took this file over between our open and our lock.
            continue;
        }
        write_all(&fd, line).map_err(io_error("append to", &path))?;
        return Ok(path);
    }
    Err(JournalError::Contended { path })
}

/// One `write()` for the whole line in the usual case; a short write (a full
/// disk, a signal) continues where it stopped.
fn write_all(fd: &OwnedFd, mut bytes: &[u8]) -> io::Result<()> {
    while !bytes.is_empty() {
        match rustix::io::write(fd, bytes) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(written) => bytes = &bytes[written..],
            Err(rustix::io::Errno::INTR) => {}
            Err(errno) => return Err(errno.into()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    #[test]
    fn appends_lines_in_a_private_directory() {
        let data = tempfile::tempdir().unwrap();
        let data_dir = data.path().join("fresh");
        append(&data_dir, b"{\"a\":1}\n").unwrap();
        let path = append(&data_dir, b"{\"b\":2}\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"a\":1}\n{\"b\":2}\n"
        );
        let dir_mode = std::fs::metadata(journal_dir(&data_dir)).unwrap().mode();
        assert_eq!(dir_mode & 0o777, 0o700);
        assert_eq!(std::fs::metadata(&path).unwrap().mode() & 0o777, 0o600);
    }

    #[test]
    fn refuses_a_shared_directory_a_symlinked_directory_and_a_symlinked_file() {
        let data = tempfile::tempdir().unwrap();
        let dir = journal_dir(data.path());
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let err = append(data.path(), b"x\n").unwrap_err();
        assert!(matches!(err, JournalError::UnsafeDir { .. }), "{err}");

        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        let elsewhere = data.path().join("elsewhere");
        std::os::unix::fs::symlink(&elsewhere, pending_path(data.path())).unwrap();
        let err = append(data.path(), b"x\n").unwrap_err();
        assert!(matches!(err, JournalError::Io { .. }), "{err}");
        assert!(!elsewhere.exists(), "nothing written through the link");

        let other = tempfile::tempdir().unwrap();
        let linked = tempfile::tempdir().unwrap();
        std::fs::create_dir(other.path().join("real")).unwrap();
        std::fs::set_permissions(
            other.path().join("real"),
            std::fs::Permissions::from_mode(0o700),
        )
        .unwrap();
        std::os::unix::fs::symlink(other.path().join("real"), journal_dir(linked.path())).unwrap();
        let err = append(linked.path(), b"x\n").unwrap_err();
        assert!(matches!(err, JournalError::UnsafeDir { .. }), "{err}");
    }

    #[test]
    fn a_takeover_between_open_and_lock_sends_the_line_to_a_fresh_file() {
        let data = tempfile::tempdir().unwrap();
        let dir = prepare_dir(data.path()).unwrap();
        let path = pending_path(data.path());
        let old = open_append(&path).unwrap();
        std::fs::rename(&path, dir.join("taken.jsonl")).unwrap();
        assert!(!still_named(&old, &path));
        append(data.path(), b"late\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "late\n");
    }
}
