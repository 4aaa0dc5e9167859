//! The `.hookd/` directory inside a repository, its `.gitignore` policy, and
//! the rule that hookd never writes beyond a symbolic link there.
//!
//! The ledger, the project's managed settings and the templates' scripts all
//! live in `<project>/.hookd/`. What may be committed (shared settings,
//! project-scope hook scripts) and what must stay private (the ledger, local
//! settings) is decided here, once, for every writer.
//!
//! A repository is content someone else wrote: it can ship `.hookd` as a
//! link to `../elsewhere`, or `.hookd/mutations.db` as a (possibly dangling)
//! link to another application's database or to `~/.ssh/authorized_keys`.
//! Like git ("beyond a symbolic link"), hookd only writes into a `.hookd/`
//! that is a real directory (checked with `lstat`) owned by the user it
//! runs as, and only to files there that are not symbolic links
//! ([`check_state_dir`], [`check_file`]).

use std::fs;
use std::io;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

use crate::dirs::REPO_STATE_DIR;
use crate::fs_atomic::{self, FsAtomicError};
use crate::{Error, Result};

/// File name of hookd's `.gitignore` inside a project's `.hookd/`.
pub const GITIGNORE: &str = ".gitignore";

/// What `<project>/.hookd/.gitignore` holds once the project shares
/// something through git: the ledger, local settings and local-scope hook
/// scripts (`hooks-local/`) stay private; `settings.json` (committed like
/// `.claude/settings.json`), the project-scope hook scripts its handlers and
/// `.claude/settings.json`'s run (`hooks/`), and `stop-test-command` are
/// shared, so a teammate's checkout has every script a committed hook needs.
pub const SHARED_GITIGNORE: &str = "# hookd: the ledger, local settings and hooks-local/ stay private; settings.json, hooks/ and stop-test-command are shared.\n*\n!.gitignore\n!settings.json\n!/hooks/\n!/hooks/**\n!/stop-test-command\n";

/// Every `.gitignore` content earlier versions of hookd wrote as
/// [`SHARED_GITIGNORE`]. A file that is exactly one of these was written by
/// hookd, not edited by the user, so it is upgraded to the current one; any
/// other content is the user's and is never touched.
pub const PREVIOUS_SHARED_GITIGNORES: &[&str] = &[
    "# hookd: the ledger and local settings stay private; settings.json is shared.\n*\n!.gitignore\n!settings.json\n",
];

/// `.hookd/.gitignore` when the directory only holds hookd's private files
/// (the ledger, local settings and scripts).
pub const PRIVATE_GITIGNORE: &str = "# hookd's ledger: local history, never committed.\n*\n";

/// What the `.hookd/` directory about to be written needs from its
/// `.gitignore` (see [`gitignore_update`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GitignoreNeed {
    /// Only keep a hookd-written one current; never create one.
    Current,
    /// Something private is going in: create [`PRIVATE_GITIGNORE`] if there is none.
    Private,
    /// Something shared is going in (`settings.json`, `hooks/`): create
    /// [`SHARED_GITIGNORE`] if there is none, and open up hookd's
    /// ledger-only one.
    Shared,
}

/// The content `.hookd/.gitignore` must be rewritten with, given its current
/// content (`None`: no file) and what is about to go into the directory;
/// `None` when it must stay as it is. A `.gitignore` that is neither
/// hookd's ledger-only one nor one of its shared versions is the user's
/// and always stays.
pub fn gitignore_update(current: Option<&str>, need: GitignoreNeed) -> Option<&'static str> {
    match (current, need) {
        (None, GitignoreNeed::Current) => None,
        (None, GitignoreNeed::Private) => Some(PRIVATE_GITIGNORE),
        (None, GitignoreNeed::Shared) => Some(SHARED_GITIGNORE),
        (Some(text), _) if PREVIOUS_SHARED_GITIGNORES.contains(&text) => Some(SHARED_GITIGNORE),
        (Some(text), GitignoreNeed::Shared) if is_ledger_only_gitignore(text) => {
            Some(SHARED_GITIGNORE)
        }
        (Some(_), _) => None,
    }
}

/// Brings `<dir>/.gitignore` (`dir` being a project's `.hookd/`) in line
/// with `need` through [`gitignore_update`]; true when it was written.
///
/// Refused (as a write error whose source says why) when `dir` is not a real
/// directory owned by this user or the `.gitignore` is a symbolic link or
/// not a regular file: hookd never writes beyond a link a repository ships.
pub fn keep_gitignore(dir: &Path, need: GitignoreNeed) -> fs_atomic::Result<bool> {
    let path = dir.join(GITIGNORE);
    if let Err(unsafe_path) = check_state_dir(dir).and_then(|()| check_file(&path)) {
        return Err(FsAtomicError::Write {
            path,
            source: io::Error::other(unsafe_path),
        });
    }
    let current = match fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(source) => return Err(FsAtomicError::Read { path, source }),
    };
    let text = current.as_deref().map(String::from_utf8_lossy);
    match gitignore_update(text.as_deref(), need) {
        Some(content) => {
            fs_atomic::write_atomic(&path, content.as_bytes())?;
            Ok(true)
        }
        None => Ok(false),
    }
}

/// Creates the directory a ledger goes in; a repository's `.hookd/` is
/// ignored by git.
///
/// The `.gitignore` is also written when the directory already exists
/// without one (a user may create `.hookd/settings.json` by hand first):
/// otherwise the ledger would show up in `git status`, and every Bash
/// snapshot would hash it. One that an older hookd wrote is brought up to
/// date; any other existing `.gitignore` is the user's and is left alone.
///
/// The directory must be a real directory owned by this user
/// ([`check_state_dir`]); a missing one is created (its parents too).
pub fn prepare(dir: &Path) -> Result<()> {
    match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            fs::create_dir_all(dir).map_err(|e| Error::io("cannot create directory", dir, e))?;
        }
        _ => {}
    }
    check_state_dir(dir)?;
    if dir.file_name().is_some_and(|name| name == REPO_STATE_DIR) {
        // Never open up a `.gitignore` that exists: that is for the edit
        // that adds the shared file to decide. Without one, only what is
        // meant to be committed (shared settings, project-scope hook
        // scripts, the stop-test command) opens the directory up; without
        // any, the whole directory (this file included) stays invisible to
        // git.
        let need = if dir.join(GITIGNORE).exists() {
            GitignoreNeed::Current
        } else if ["settings.json", "hooks", "stop-test-command"]
            .iter()
            .any(|name| dir.join(name).exists())
        {
            GitignoreNeed::Shared
        } else {
            GitignoreNeed::Private
        };
        keep_gitignore(dir, need).map_err(core_io)?;
    }
    Ok(())
}

/// A failed `.gitignore` read or write as the core's I/O error, worded as
/// the ledger has always reported it.
fn core_io(err: FsAtomicError) -> Error {
    match err {
        FsAtomicError::Read { path, source } => Error::io("cannot read", path, source),
        FsAtomicError::Write { path, source } => Error::io("cannot write", path, source),
        FsAtomicError::SyncDir { path, source } => Error::io("cannot sync directory", path, source),
        FsAtomicError::InvalidPath { path } => Error::io(
            "cannot write",
            path,
            io::Error::from(io::ErrorKind::InvalidInput),
        ),
        // keep_gitignore takes no lock and confines nothing; kept whole.
        other @ (FsAtomicError::Lock(_) | FsAtomicError::Confine(_)) => {
            Error::io("cannot write", GITIGNORE, io::Error::other(other))
        }
    }
}

/// Why hookd refuses to write in a directory or to a file.
#[derive(Debug, thiserror::Error)]
pub enum UnsafePath {
    /// The path is a symbolic link (maybe dangling), which hookd never follows to write.
    #[error(
        "{path} is a symbolic link (to {target}); hookd does not write beyond a symbolic link a repository may ship"
    )]
    Symlink {
        /// The link.
        path: PathBuf,
        /// Where it points, as written in the link.
        target: PathBuf,
    },
    /// A directory was expected.
    #[error("{path} is not a directory")]
    NotADirectory {
        /// The path.
        path: PathBuf,
    },
    /// A regular file (or nothing yet) was expected.
    #[error("{path} is not a regular file")]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The directory belongs to another user.
    #[error("{path} is owned by uid {owner}, not by this user (uid {uid})")]
    ForeignOwner {
        /// The directory.
        path: PathBuf,
        /// Its owner.
        owner: u32,
        /// The user hookd runs as.
        uid: u32,
    },
    /// `lstat` itself failed.
    #[error("cannot inspect {path}")]
    Inspect {
        /// The path.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
}

/// Checks that `dir` (a `.hookd/` or the directory of any ledger) is a real
/// directory, not a symbolic link, owned by the user hookd runs as.
pub fn check_state_dir(dir: &Path) -> std::result::Result<(), UnsafePath> {
    let meta = fs::symlink_metadata(dir).map_err(|source| UnsafePath::Inspect {
        path: dir.to_path_buf(),
        source,
    })?;
    if meta.file_type().is_symlink() {
        return Err(symlink(dir));
    }
    if !meta.is_dir() {
        return Err(UnsafePath::NotADirectory {
            path: dir.to_path_buf(),
        });
    }
    let uid = rustix::process::geteuid().as_raw();
    if meta.uid() != uid {
        return Err(UnsafePath::ForeignOwner {
            path: dir.to_path_buf(),
            owner: meta.uid(),
            uid,
        });
    }
    Ok(())
}

/// Checks that `path` is either absent or a regular file, never a symbolic
/// link (dangling or not), a directory, a FIFO or a device.
pub fn check_file(path: &Path) -> std::result::Result<(), UnsafePath> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(UnsafePath::Inspect {
            path: path.to_path_buf(),
            source,
        }),
        Ok(meta) if meta.file_type().is_symlink() => Err(symlink(path)),
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(_) => Err(UnsafePath::NotAFile {
            path: path.to_path_buf(),
        }),
    }
}

fn symlink(path: &Path) -> UnsafePath {
    UnsafePath::Symlink {
        path: path.to_path_buf(),
        target: fs::read_link(path).unwrap_or_default(),
    }
}

/// True for the `.gitignore` the ledger writes: nothing but `*` once
/// comments and blank lines are set aside. Anything else is the user's.
fn is_ledger_only_gitignore(text: &str) -> bool {
    let rules: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    rules == ["*"]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitignore_detection() {
        assert!(is_ledger_only_gitignore(
            "# hookd's ledger: local history, never committed.\n*\n"
        ));
        assert!(is_ledger_only_gitignore("*"));
        assert!(!is_ledger_only_gitignore("*\n!keep\n"));
        assert!(!is_ledger_only_gitignore(SHARED_GITIGNORE));
        assert!(!is_ledger_only_gitignore(""));
    }

    #[test]
    fn gitignore_updates_only_what_hookd_wrote() {
        use GitignoreNeed::{Current, Private, Shared};
        let previous = PREVIOUS_SHARED_GITIGNORES[0];
        for need in [Current, Private, Shared] {
            assert_eq!(
                gitignore_update(Some(previous), need),
                Some(SHARED_GITIGNORE)
            );
            assert_eq!(gitignore_update(Some(SHARED_GITIGNORE), need), None);
            // The user's own, even a previous version with one more line.
            assert_eq!(gitignore_update(Some("mutations.db\n"), need), None);
            assert_eq!(
                gitignore_update(Some(&format!("{previous}!notes.md\n")), need),
                None
            );
        }
        assert_eq!(gitignore_update(None, Current), None);
        assert_eq!(gitignore_update(None, Private), Some(PRIVATE_GITIGNORE));
        assert_eq!(gitignore_update(None, Shared), Some(SHARED_GITIGNORE));
        assert_eq!(gitignore_update(Some(PRIVATE_GITIGNORE), Private), None);
        assert_eq!(gitignore_update(Some(PRIVATE_GITIGNORE), Current), None);
        assert_eq!(
            gitignore_update(Some(PRIVATE_GITIGNORE), Shared),
            Some(SHARED_GITIGNORE)
        );
    }
}
