//! Where hookd keeps per-user files, following the XDG base directories.
//!
//! Per-repository ledgers live in the repository itself (`.hookd/`); only
//! what belongs to no repository (the registry of known repositories and the
//! ledger for events outside any git work tree) lives here.

use std::env;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// Environment variable that overrides hookd's data directory (tests, portable setups).
pub const DATA_DIR_ENV: &str = "HOOKD_DATA_DIR";

/// Directory inside a repository that holds its ledger.
pub const REPO_STATE_DIR: &str = ".hookd";

/// File name of a ledger database.
pub const LEDGER_FILE_NAME: &str = "mutations.db";

/// hookd's per-user data directory: `$HOOKD_DATA_DIR`, else `$XDG_DATA_HOME/hookd`,
/// else `~/.local/share/hookd`.
pub fn data_dir() -> Result<PathBuf> {
    if let Some(dir) = non_empty_env(DATA_DIR_ENV) {
        return Ok(PathBuf::from(dir));
    }
    if let Some(dir) = non_empty_env("XDG_DATA_HOME") {
        return Ok(PathBuf::from(dir).join("hookd"));
    }
    Ok(home_dir()?.join(".local/share/hookd"))
}

/// The user's home directory, from `$HOME`.
pub fn home_dir() -> Result<PathBuf> {
    non_empty_env("HOME")
        .map(PathBuf::from)
        .ok_or(Error::NoHome)
}

/// The ledger of a repository: `{git_root}/.hookd/mutations.db`.
pub fn repo_ledger_path(git_root: &Path) -> PathBuf {
    git_root.join(REPO_STATE_DIR).join(LEDGER_FILE_NAME)
}

/// The one ledger for events that happened outside any git repository.
pub fn unversioned_ledger_path(data_dir: &Path) -> PathBuf {
    data_dir.join("outside-git").join(LEDGER_FILE_NAME)
}

/// Whether `path` names a ledger: the ledger outside git of `data_dir`, or
/// an absolute `…/.hookd/mutations.db` (a repository's; which repositories
/// exist is for the caller to find out).
pub fn is_ledger_path(data_dir: &Path, path: &Path) -> bool {
    if path == unversioned_ledger_path(data_dir) {
        return true;
    }
    path.is_absolute()
        && path.file_name() == Some(std::ffi::OsStr::new(LEDGER_FILE_NAME))
        && path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|dir| dir == REPO_STATE_DIR)
        && path.components().all(|part| {
            matches!(
                part,
                std::path::Component::RootDir | std::path::Component::Normal(_)
            )
        })
}

/// The registry of known repositories.
pub fn registry_path(data_dir: &Path) -> PathBuf {
    data_dir.join("registry.db")
}

fn non_empty_env(name: &str) -> Option<std::ffi::OsString> {
    env::var_os(name).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ledger_path_is_the_one_outside_git_or_an_absolute_repository_ledger() {
        let data = Path::new("/data/hookd");
        assert!(is_ledger_path(data, &unversioned_ledger_path(data)));
        assert!(is_ledger_path(
            data,
            &repo_ledger_path(Path::new("/src/app"))
        ));
        for not in [
            "/etc/passwd",
            "/src/app/mutations.db",
            "/src/app/.hookd/other.db",
            "src/app/.hookd/mutations.db",
            "/src/app/../x/.hookd/mutations.db",
            "/data/other/outside-git/mutations.db",
        ] {
            assert!(!is_ledger_path(data, Path::new(not)), "{not}");
        }
    }
}
