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

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

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
