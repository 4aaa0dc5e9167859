//! What a project is, in one place: the root of the git work tree that
//! holds a directory, and how a file path is stored relative to it.
//!
//! The daemon (which ledger an event goes to), the queries (which ledger a
//! `--file` argument means) and the desktop app (which folder a dropped path
//! belongs to) all ask these questions; they must get the same answer.

use std::path::{Path, PathBuf};

use git2::Repository;

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
