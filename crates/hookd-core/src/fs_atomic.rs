//! Crash-safe replacement of small files the user owns (agent settings).
//!
//! Peer tools have erased users' hooks by truncating a settings file and
//! dying mid-write. Here a file is only ever replaced whole: the new bytes go
//! to a temp file in the same directory, are fsynced, get the original's
//! permissions and owner, and are renamed over the target; the directory is
//! then fsynced so the rename itself survives a crash. (A settings file's
//! previous contents are kept by its writer in hookd's data directory,
//! [`crate::settings::backups`], never beside the file.)
//!
//! - [`lock`]: one writer at a time, from reading a file to renaming its new
//!   version in.
//! - [`confine`]: a write into a project never follows a link out of it.

pub mod confine;
pub mod lock;

pub use confine::ConfineError;
pub use lock::{DirLock, LOCK_WAIT, LockError};

use std::fs::{self, File, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Suffix of the backups earlier versions of hookd kept beside a settings
/// file (`settings.json.hookd-backup`); they are kept in hookd's data
/// directory now ([`crate::settings::backups`]).
pub const LEGACY_BACKUP_SUFFIX: &str = ".hookd-backup";

/// How many symlink hops [`write_atomic`] follows before giving up.
const MAX_SYMLINK_HOPS: usize = 40;

/// Errors from [`write_atomic`]; each names the file it was working on and
/// exposes the I/O error as `source()` (not repeated in the message).
#[derive(Debug, thiserror::Error)]
pub enum FsAtomicError {
    /// The target path has no file name or no parent directory to write in.
    #[error("{path} is not a file path that can be written atomically")]
    InvalidPath {
        /// The offending path.
        path: PathBuf,
    },
    /// Reading the existing file (its metadata or its bytes) failed.
    #[error("cannot read the existing file {path}")]
    Read {
        /// The file being read.
        path: PathBuf,
        /// The underlying I/O error.
        source: io::Error,
    },
    /// Creating, writing, syncing or renaming the temp file failed.
    #[error("cannot write {path}")]
    Write {
        /// The file that was being written (target or backup).
        path: PathBuf,
        /// The underlying I/O error.
        source: io::Error,
    },
    /// Syncing the directory after the rename failed (the new file is in place
    /// but might not survive a power loss).
    #[error("cannot sync directory {path}")]
    SyncDir {
        /// The directory that could not be synced.
        path: PathBuf,
        /// The underlying I/O error.
        source: io::Error,
    },
    /// Another writer holds the file's lock, or it cannot be taken.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// The path leads out of the project it must stay in.
    #[error(transparent)]
    Confine(#[from] ConfineError),
}

/// Result alias for this module.
pub type Result<T> = std::result::Result<T, FsAtomicError>;

/// What [`write_atomic`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOutcome {
    /// The file actually replaced (the given path with symlinks resolved).
    pub path: PathBuf,
    /// Where the previous contents were kept: filled by a writer that keeps
    /// them ([`crate::settings::backups`]); [`write_atomic`] itself keeps none.
    pub backup: Option<PathBuf>,
    /// True when the file did not exist before.
    pub created: bool,
}

/// Replaces `path` with `contents` atomically.
///
/// A symlinked target (dotfile managers do this) is followed, so the link
/// survives and its target is what gets replaced. An existing file keeps its
/// mode and, when the process may set it, its owner and group; a new file gets
/// the usual `0666 & !umask`. The parent directory must exist.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<WriteOutcome> {
    write_atomic_as(path, contents, None)
}

/// [`write_atomic`], giving a file it creates the permission bits
/// `new_mode` exactly (whatever the umask) when given: a file restored as
/// it was (`hookd rewind`). An existing file keeps its own mode.
pub fn write_atomic_as(
    path: &Path,
    contents: &[u8],
    new_mode: Option<u32>,
) -> Result<WriteOutcome> {
    let target = resolve_symlinks(path).map_err(|source| FsAtomicError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let dir = match target.parent() {
        Some(d) if target.file_name().is_some() => {
            if d.as_os_str().is_empty() {
                Path::new(".")
            } else {
                d
            }
        }
        _ => {
            return Err(FsAtomicError::InvalidPath {
                path: path.to_path_buf(),
            });
        }
    };

    let existing = match fs::metadata(&target) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(FsAtomicError::Read {
                path: target,
                source,
            });
        }
    };

    replace_file(dir, &target, contents, existing.as_ref(), new_mode)?;

    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|source| FsAtomicError::SyncDir {
            path: dir.to_path_buf(),
            source,
        })?;

    Ok(WriteOutcome {
        path: target,
        backup: None,
        created: existing.is_none(),
    })
}

/// Writes `contents` to a fresh temp file in `dir`, syncs it, gives it the
/// mode and owner of `like` (if any, else the mode `new_mode` if given),
/// and renames it over `target`.
fn replace_file(
    dir: &Path,
    target: &Path,
    contents: &[u8],
    like: Option<&fs::Metadata>,
    new_mode: Option<u32>,
) -> Result<()> {
    let write_err = |source| FsAtomicError::Write {
        path: target.to_path_buf(),
        source,
    };
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        // Subject to the umask, so a new file gets the same mode any other
        // editor would have given it (tempfile's default is 0600).
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(write_err)?;

    if let Some(meta) = like {
        let file = tmp.as_file();
        // Owner first: chown may clear setuid/setgid bits, chmod restores them.
        let current = file.metadata().map_err(write_err)?;
        if (current.uid(), current.gid()) != (meta.uid(), meta.gid()) {
            // Only root (or a group member) may do this; an unprivileged user
            // editing their own file never gets here.
            if let Err(e) = std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())) {
                tracing::debug!(path = %target.display(), error = %e, "cannot keep owner");
            }
        }
        file.set_permissions(Permissions::from_mode(meta.mode() & 0o7777))
            .map_err(write_err)?;
    } else if let Some(mode) = new_mode {
        tmp.as_file()
            .set_permissions(Permissions::from_mode(mode & 0o7777))
            .map_err(write_err)?;
    }

    tmp.write_all(contents).map_err(write_err)?;
    tmp.as_file().sync_all().map_err(write_err)?;
    tmp.persist(target).map_err(|e| write_err(e.error))?;
    Ok(())
}

/// Follows symlinks (also dangling ones) so the link itself is never replaced.
pub(crate) fn resolve_symlinks(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_SYMLINK_HOPS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            }
            Ok(_) => return Ok(current),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hookd_testkit::names_in;
    use std::os::unix::fs::symlink;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().mode() & 0o7777
    }

    #[test]
    fn creates_a_new_file_and_nothing_beside_it() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("settings.json");
        let out = write_atomic(&path, b"{}\n").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"{}\n");
        assert_eq!(
            out,
            WriteOutcome {
                path,
                backup: None,
                created: true
            }
        );
        // No temp file left behind.
        assert_eq!(names_in(tmp.path()), vec!["settings.json"]);
    }

    #[test]
    fn new_file_mode_follows_umask_not_tempfile_default() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("new.json");
        write_atomic(&path, b"x").unwrap();
        // Compare with what a plain create gets under the same umask.
        let reference = tmp.path().join("reference");
        File::create(&reference).unwrap();
        assert_eq!(mode(&path), mode(&reference));
    }

    #[test]
    fn replaces_and_keeps_nothing_beside_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("settings.json");
        fs::write(&path, b"old contents").unwrap();
        let out = write_atomic(&path, b"new contents").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new contents");
        assert_eq!((out.backup, out.created), (None, false));
        assert_eq!(names_in(tmp.path()), vec!["settings.json"]);
    }

    #[test]
    fn keeps_mode_of_existing_file() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("settings.json");
        fs::write(&path, b"secret").unwrap();
        fs::set_permissions(&path, Permissions::from_mode(0o600)).unwrap();
        write_atomic(&path, b"still secret").unwrap();
        assert_eq!(mode(&path), 0o600);

        fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, b"group readable").unwrap();
        assert_eq!(mode(&path), 0o640);
    }

    #[test]
    fn follows_symlink_and_keeps_link() {
        let tmp = tempfile::tempdir().unwrap();
        let real_dir = tmp.path().join("dotfiles");
        fs::create_dir(&real_dir).unwrap();
        let real = real_dir.join("settings.json");
        fs::write(&real, b"old").unwrap();
        let link = tmp.path().join("settings.json");
        symlink("dotfiles/settings.json", &link).unwrap();

        let out = write_atomic(&link, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&real).unwrap(), b"new");
        assert_eq!(out.path, real);
    }

    #[test]
    fn missing_directory_is_an_error_naming_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("nope").join("settings.json");
        let err = write_atomic(&path, b"x").unwrap_err();
        assert!(matches!(err, FsAtomicError::Write { .. }), "{err:?}");
        assert!(err.to_string().contains("nope/settings.json"), "{err}");
    }
}
