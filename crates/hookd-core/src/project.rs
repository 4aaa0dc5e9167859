//! What a project is, in one place: the root of the git work tree that
//! holds a directory, and how a file path is stored relative to it.
//!
//! Two questions, each answered once:
//! - [`project_root`]: the project a user names (`--project DIR`, a folder
//!   dropped on the app, the Test bench's project). The directory must
//!   exist; its root is the nearest ancestor holding a `.git` entry (a
//!   directory, or the file of a worktree or submodule), else the directory
//!   itself. The CLI and the desktop app both call it.
//! - [`discover_root`]: the repository an event's directory belongs to,
//!   found by libgit2 (the daemon then reads branch and HEAD from it). A
//!   directory that no longer exists belongs to its nearest existing
//!   ancestor's repository.
//!
//! [`stored_path`] is how the ledger stores a file: relative to the root.
//! Paths reach it cleaned by [`clean_path`] (lexically: `.`, `//` and `..`
//! resolved without reading the filesystem), so `repo/./src//b.rs` is stored
//! as `src/b.rs` and `repo/../x.rs` is recognised as outside `repo`. A path
//! absolute on another OS ([`is_foreign_path`]: `C:\x`, `\\server\share`)
//! is never joined onto a directory or cleaned: it is stored as given.

use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Component, Path, PathBuf};

use git2::Repository;

/// Why a directory cannot be a project.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    /// The directory does not exist or cannot be resolved.
    #[error("project directory {path}")]
    Unreadable {
        /// The directory as given.
        path: PathBuf,
        /// The underlying I/O error.
        #[source]
        source: io::Error,
    },
    /// The path exists but is not a directory.
    #[error("project directory {0} is not a directory")]
    NotADirectory(PathBuf),
}

impl ProjectError {
    /// True when the directory does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(self, Self::Unreadable { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }
}

/// Walks up from `dir` to the enclosing work tree's root.
pub fn discover_root(dir: &Path) -> Option<PathBuf> {
    // Directories that no longer exist (a deleted temp dir) still belong to the
    // repository of their nearest existing ancestor.
    let existing = dir.ancestors().find(|d| d.is_dir())?;
    let repo = Repository::discover(existing).ok()?;
    let workdir = repo.workdir()?;
    Some(normalize_root(workdir))
}

fn normalize_root(workdir: &Path) -> PathBuf {
    // libgit2 reports work dirs with a trailing slash.
    let text = workdir.to_string_lossy();
    let trimmed = text.trim_end_matches('/');
    if trimmed.is_empty() {
        PathBuf::from("/")
    } else {
        PathBuf::from(trimmed)
    }
}

/// A path as the ledger stores it: relative to `git_root` when inside it,
/// otherwise as given.
pub fn stored_path(path: &Path, git_root: Option<&Path>) -> String {
    git_root
        .and_then(|root| path.strip_prefix(root).ok())
        .filter(|rel| !rel.as_os_str().is_empty())
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// `path` cleaned lexically, like Go's `filepath.Clean`: `.` components
/// dropped, repeated separators collapsed, each `..` resolved against the
/// component before it (`/..` is `/`; a relative path keeps the leading `..`
/// it cannot resolve), no trailing separator; an empty result is `.`.
///
/// The filesystem is not read, so symlinks are not followed: `a/link/..` is
/// `a` wherever `link` points. That is what the agent meant by the path it
/// wrote, and it cannot be changed by someone planting a symlink later.
pub fn clean_path(path: &Path) -> PathBuf {
    let mut kept: Vec<Component<'_>> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match kept.last() {
                Some(Component::Normal(_)) => {
                    kept.pop();
                }
                // `/..` is `/`.
                Some(Component::RootDir | Component::Prefix(_)) => {}
                Some(Component::ParentDir | Component::CurDir) | None => kept.push(component),
            },
            other => kept.push(other),
        }
    }
    if kept.is_empty() {
        return PathBuf::from(".");
    }
    kept.iter().collect()
}

/// True for a path that is absolute on another OS, which this one would
/// take for a relative path: a Windows drive path (`C:\x`, `C:/x`, `C:`), a
/// UNC or device path (`\\server\share`, `\\wsl$\Ubuntu\…`, `\\?\C:\…`)
/// or a rooted Windows path (`\x`). Such a path names no file here; it is
/// stored as given, never joined onto the event's directory.
pub fn is_foreign_path(path: &Path) -> bool {
    match path.as_os_str().as_bytes() {
        [b'\\', ..] => true,
        [drive, b':', rest @ ..] if drive.is_ascii_alphabetic() => {
            matches!(rest.first(), None | Some(b'\\' | b'/'))
        }
        _ => false,
    }
}

/// The project root for `dir`: the nearest ancestor holding a `.git` entry
/// (a directory, or a file in worktrees and submodules), else `dir` itself.
pub fn project_root(dir: &Path) -> Result<PathBuf, ProjectError> {
    let dir = fs::canonicalize(dir).map_err(|source| ProjectError::Unreadable {
        path: dir.to_path_buf(),
        source,
    })?;
    if !dir.is_dir() {
        return Err(ProjectError::NotADirectory(dir));
    }
    let root = dir
        .ancestors()
        .find(|a| fs::symlink_metadata(a.join(".git")).is_ok())
        .unwrap_or(&dir)
        .to_path_buf();
    Ok(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_path_resolves_dots_and_separators_lexically() {
        let cases = [
            ("/repo/./src//b.rs", "/repo/src/b.rs"),
            ("/repo/../outside/x.rs", "/outside/x.rs"),
            ("/repo/src/../../../../etc/passwd", "/etc/passwd"),
            ("/..", "/"),
            ("/", "/"),
            ("/repo/src/", "/repo/src"),
            ("./a/./b/", "a/b"),
            ("a/../..", ".."),
            ("../../a/../b", "../../b"),
            ("a/..", "."),
            ("", "."),
            ("//repo///x", "/repo/x"),
        ];
        for (given, cleaned) in cases {
            assert_eq!(
                clean_path(Path::new(given)),
                PathBuf::from(cleaned),
                "{given}"
            );
        }
    }

    #[test]
    fn foreign_paths_are_windows_drive_and_unc_paths() {
        for foreign in [
            "C:\\Users\\me\\a.rs",
            "c:/Users/me/a.rs",
            "D:",
            "\\\\server\\share\\a.rs",
            "\\\\wsl$\\Ubuntu\\home\\me\\a.rs",
            "\\\\?\\C:\\a.rs",
            "\\Windows\\a.rs",
        ] {
            assert!(is_foreign_path(Path::new(foreign)), "{foreign}");
        }
        for local in [
            "/repo/a.rs",
            "src/a.rs",
            "C:x",
            "1:/x",
            "",
            "a\\b",
            "//server/share",
        ] {
            assert!(!is_foreign_path(Path::new(local)), "{local}");
        }
    }

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn project_root_walks_up_to_git() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        let sub = repo.join("src/deep");
        fs::create_dir_all(&sub).unwrap();
        fs::create_dir(repo.join(".git")).unwrap();
        let canonical_repo = fs::canonicalize(&repo).unwrap();
        assert_eq!(project_root(&sub).unwrap(), canonical_repo);
        assert_eq!(project_root(&repo).unwrap(), canonical_repo);

        // A `.git` file (worktree, submodule) marks a root as well.
        let worktree = tmp.path().join("wt");
        fs::create_dir_all(worktree.join("a")).unwrap();
        fs::write(worktree.join(".git"), "gitdir: /elsewhere\n").unwrap();
        assert_eq!(
            project_root(&worktree.join("a")).unwrap(),
            fs::canonicalize(&worktree).unwrap()
        );

        let plain = tmp.path().join("plain");
        fs::create_dir(&plain).unwrap();
        // Only meaningful if no ancestor of the temp dir is a repository.
        if fs::canonicalize(tmp.path())
            .unwrap()
            .ancestors()
            .all(|a| !a.join(".git").exists())
        {
            assert_eq!(
                project_root(&plain).unwrap(),
                fs::canonicalize(&plain).unwrap()
            );
        }

        assert!(matches!(
            project_root(&tmp.path().join("missing")),
            Err(ProjectError::Unreadable { .. })
        ));
        let file = write(tmp.path(), "file", "");
        assert!(matches!(
            project_root(&file),
            Err(ProjectError::NotADirectory(_))
        ));
    }
}
