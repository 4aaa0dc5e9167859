//! Trust: a repository's managed hooks run only once the user approved
//! their exact content.
//!
//! hookd runs the commands in `<project>/.hookd/settings.json` and
//! `<project>/.hookd/settings.local.json`. Those files come with whatever
//! was cloned, and an agent can write them, so running them unseen would
//! let anyone who controls a repository (or a prompt) run code through
//! hookd. Like direnv's `allow`, hookd keeps, in its own home and outside
//! every repository, the SHA-256 of each file's bytes the user approved
//! (`$HOOKD_HOME/trust.json`). A file runs only while its bytes hash to the
//! approved digest: any change, by anyone, makes it untrusted again until
//! `hookd trust` (or the app's Trust button) approves the new content.
//!
//! The global file (`$HOOKD_HOME/settings.json`) is the user's own and is
//! always trusted; agent settings files are run by the agent, not by hookd,
//! so trust does not apply to them.
//!
//! The store is read-modify-written under an exclusive `flock` on a lock
//! file beside it, so approvals from concurrent saves are never lost.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::document::read_if_exists;
use super::effective;
use super::error::{Result, SettingsError};
use super::format;
use super::location::{Kind, Scope, SettingsLocation, SettingsRoots};
use super::store;
use super::validate::validate;
use crate::ledger::content_store::ContentHash;

/// File name of the store in hookd's home.
pub const TRUST_FILE_NAME: &str = "trust.json";

/// Version of the store's file format.
pub const STORE_VERSION: u32 = 1;

/// Whether hookd may run the hooks of one settings file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum Trust {
    /// The file needs no approval (global managed file, agent files).
    NotRequired,
    /// Its current bytes are the ones the user approved.
    Trusted {
        /// When they were approved (RFC 3339).
        approved_at: String,
    },
    /// Never approved (or approval revoked).
    NotApproved,
    /// Approved once, but its bytes changed since.
    Changed {
        /// When the earlier content was approved (RFC 3339).
        approved_at: String,
    },
}

impl Trust {
    /// True when hookd may run the file's hooks.
    pub fn allows_running(&self) -> bool {
        matches!(self, Trust::NotRequired | Trust::Trusted { .. })
    }

    /// Why hooks of an untrusted file are skipped, for logs, `hook_runs.skipped`
    /// and the CLI; `None` when they may run.
    pub fn skip_reason(&self, file: &Path) -> Option<String> {
        match self {
            Trust::NotRequired | Trust::Trusted { .. } => None,
            Trust::NotApproved => Some(format!(
                "not trusted: {} was never approved (run `hookd trust` to review and approve it)",
                file.display()
            )),
            Trust::Changed { .. } => Some(format!(
                "not trusted: {} changed since it was approved (run `hookd trust` to review and approve it)",
                file.display()
            )),
        }
    }
}

/// True for the files whose hooks need the user's approval: hookd's
/// managed files inside a project (project and local scope).
pub fn needs_trust(location: &SettingsLocation) -> bool {
    location.kind == Kind::Managed && matches!(location.scope, Scope::Project | Scope::Local)
}

/// The digest the store keeps: `sha256:<hex>` of the exact bytes.
pub fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", ContentHash::of(bytes))
}

/// One approval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approval {
    /// The settings file, absolute.
    pub path: PathBuf,
    /// [`digest`] of the bytes approved.
    pub digest: String,
    /// When.
    pub approved_at: DateTime<Utc>,
}

/// The on-disk shape of the store.
#[derive(Debug, Default, Serialize, Deserialize)]
struct StoreFile {
    version: u32,
    #[serde(default)]
    approved: Vec<Approval>,
}

/// hookd's store of approved managed hook files (`$HOOKD_HOME/trust.json`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustStore {
    path: PathBuf,
}

impl TrustStore {
    /// The store at `path`.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    /// The store in hookd's home.
    pub fn for_roots(roots: &SettingsRoots) -> Self {
        Self::new(roots.hookd_home.join(TRUST_FILE_NAME))
    }

    /// The store in hookd's home, with roots from the environment.
    pub fn from_env() -> Result<Self> {
        Ok(Self::for_roots(&SettingsRoots::from_env()?))
    }

    /// The store's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every approval; a missing store has none.
    pub fn load(&self) -> Result<Vec<Approval>> {
        Ok(self.read()?.approved)
    }

    /// The trust of the file at `location` whose current bytes are `bytes`
    /// (`None`: the file does not exist, which runs nothing).
    pub fn check(&self, location: &SettingsLocation, bytes: Option<&[u8]>) -> Result<Trust> {
        if !needs_trust(location) {
            return Ok(Trust::NotRequired);
        }
        Ok(trust_in(&self.load()?, &location.path, bytes))
    }

    /// Approves `bytes` as the content of `file` (replacing any earlier approval).
    pub fn approve(&self, file: &Path, bytes: &[u8]) -> Result<()> {
        let digest = digest(bytes);
        self.update(|approved| {
            approved.retain(|a| a.path != file);
            approved.push(Approval {
                path: file.to_path_buf(),
                digest,
                approved_at: Utc::now(),
            });
        })
    }

    /// Revokes the approval of `file`; false when it had none.
    pub fn revoke(&self, file: &Path) -> Result<bool> {
        let mut found = false;
        self.update(|approved| {
            let before = approved.len();
            approved.retain(|a| a.path != file);
            found = approved.len() != before;
        })?;
        Ok(found)
    }

    fn read(&self) -> Result<StoreFile> {
        let file = store::read(
            &self.path,
            "store of trusted hook files",
            |f: &StoreFile| f.version,
            STORE_VERSION,
        )?;
        Ok(file.unwrap_or_default())
    }

    /// Read-modify-write under an exclusive lock, so concurrent approvals
    /// (two saves of two files at once) never lose one another.
    fn update(&self, change: impl FnOnce(&mut Vec<Approval>)) -> Result<()> {
        store::update_locked(
            &self.path,
            "store of trusted hook files",
            |f: &StoreFile| f.version,
            STORE_VERSION,
            |file: &mut StoreFile| {
                change(&mut file.approved);
                file.version = STORE_VERSION;
                true
            },
        )
    }
}

/// One managed hook file of a project as the user reviews it before approving.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FileReview {
    /// `project` or `local`.
    pub scope: Scope,
    /// The file.
    pub path: PathBuf,
    /// Whether it exists.
    pub exists: bool,
    /// Its trust now.
    pub trust: Trust,
    /// [`digest`] of the bytes reviewed; approving checks the file still has them.
    pub digest: Option<String>,
    /// Its hooks, in document order.
    pub hooks: Vec<ReviewedHook>,
    /// Why it cannot be approved (not valid JSON or hook settings), if so.
    pub problem: Option<String>,
}

impl FileReview {
    /// True when it exists, is valid and is not yet trusted.
    pub fn needs_approval(&self) -> bool {
        self.exists && self.problem.is_none() && !self.trust.allows_running()
    }
}

/// One hook of a reviewed file: what would run, on what.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReviewedHook {
    /// The event's key under `hooks`.
    pub event: String,
    /// The group's matcher, if any.
    pub matcher: Option<String>,
    /// The handler's type (`command`, `http`, ...).
    pub handler_type: String,
    /// What it runs: the command (or URL, prompt, JSON).
    pub runs: String,
}

/// The project's managed hook files (project and local scope) with their
/// trust and hooks, for `hookd trust` and the app's banner.
pub fn review(roots: &SettingsRoots, project: &Path) -> Result<Vec<FileReview>> {
    let store = TrustStore::for_roots(roots);
    let approved = store.load()?;
    [Scope::Project, Scope::Local]
        .into_iter()
        .map(|scope| {
            let location = roots.location(Kind::Managed, scope, Some(project))?;
            let bytes = read_if_exists(&location.path)?;
            let mut review = FileReview {
                scope,
                exists: bytes.is_some(),
                trust: trust_in(&approved, &location.path, bytes.as_deref()),
                digest: bytes.as_deref().map(digest),
                hooks: Vec::new(),
                problem: None,
                path: location.path.clone(),
            };
            if let Some(bytes) = &bytes {
                match format::parse(bytes) {
                    Ok((value, _)) => {
                        let problems = validate(&value);
                        if problems.is_empty() {
                            review.hooks = effective::file_hooks(&location, &value)
                                .iter()
                                .map(|hook| ReviewedHook {
                                    event: hook.event.name().to_owned(),
                                    matcher: hook.matcher.clone(),
                                    handler_type: hook.handler_type.clone(),
                                    runs: hook.summary(),
                                })
                                .collect();
                        } else {
                            review.problem = Some(
                                SettingsError::Invalid {
                                    path: location.path,
                                    errors: problems,
                                }
                                .to_string(),
                            );
                        }
                    }
                    Err(err) => {
                        review.problem = Some(format!(
                            "{}: not valid JSON: {err}",
                            location.path.display()
                        ));
                    }
                }
            }
            Ok(review)
        })
        .collect()
}

/// Approves the file at `path` if its bytes still hash to `expected` (the
/// [`FileReview::digest`] the user saw); otherwise nothing is approved and
/// the file is reported as changed.
pub fn approve_reviewed(roots: &SettingsRoots, path: &Path, expected: &str) -> Result<()> {
    let bytes = read_if_exists(path)?.unwrap_or_default();
    if digest(&bytes) != expected {
        return Err(SettingsError::ChangedOnDisk {
            path: path.to_path_buf(),
        });
    }
    TrustStore::for_roots(roots).approve(path, &bytes)
}

/// The trust of `file` with current bytes `bytes`, given the approvals.
pub fn trust_in(approved: &[Approval], file: &Path, bytes: Option<&[u8]>) -> Trust {
    let Some(approval) = approved.iter().find(|a| a.path == file) else {
        return Trust::NotApproved;
    };
    let approved_at = approval.approved_at.to_rfc3339();
    match bytes {
        Some(bytes) if digest(bytes) == approval.digest => Trust::Trusted { approved_at },
        _ => Trust::Changed { approved_at },
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn digest_is_sha256_of_the_exact_bytes() {
        assert_eq!(
            digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_ne!(digest(b"{}"), digest(b"{} "));
    }

    #[test]
    fn only_project_and_local_managed_files_need_trust() {
        let tmp = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(tmp.path());
        let project = tmp.path().join("p");
        let at = |kind, scope| roots.location(kind, scope, Some(&project)).unwrap();
        assert!(needs_trust(&at(Kind::Managed, Scope::Project)));
        assert!(needs_trust(&at(Kind::Managed, Scope::Local)));
        assert!(!needs_trust(&at(Kind::Managed, Scope::Global)));
        assert!(!needs_trust(&at(Kind::Agent, Scope::Project)));
    }

    #[test]
    fn approval_holds_for_those_bytes_only_and_can_be_revoked() {
        let tmp = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(tmp.path());
        let store = TrustStore::for_roots(&roots);
        let project = tmp.path().join("p");
        let loc = roots
            .location(Kind::Managed, Scope::Project, Some(&project))
            .unwrap();
        let v1 = br#"{"hooks":{}}"#.as_slice();
        assert_eq!(store.check(&loc, Some(v1)).unwrap(), Trust::NotApproved);
        store.approve(&loc.path, v1).unwrap();
        assert!(store.check(&loc, Some(v1)).unwrap().allows_running());
        let changed = store.check(&loc, Some(b"{\"hooks\":{ }}")).unwrap();
        assert!(matches!(changed, Trust::Changed { .. }), "{changed:?}");
        assert!(
            changed
                .skip_reason(&loc.path)
                .unwrap()
                .contains("changed since")
        );
        assert!(store.revoke(&loc.path).unwrap());
        assert!(!store.revoke(&loc.path).unwrap());
        assert_eq!(store.check(&loc, Some(v1)).unwrap(), Trust::NotApproved);
    }

    #[test]
    fn concurrent_approvals_are_all_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let store = TrustStore::new(tmp.path().join("home/trust.json"));
        std::thread::scope(|s| {
            for i in 0..16 {
                let store = &store;
                s.spawn(move || {
                    store
                        .approve(&PathBuf::from(format!("/p{i}/.hookd/settings.json")), b"{}")
                        .unwrap();
                });
            }
        });
        assert_eq!(store.load().unwrap().len(), 16);
    }

    #[test]
    fn a_store_from_a_newer_hookd_is_refused_not_overwritten() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("trust.json");
        fs::write(&path, r#"{"version": 99, "approved": []}"#).unwrap();
        let store = TrustStore::new(&path);
        let err = store.approve(Path::new("/x"), b"{}").unwrap_err();
        assert!(err.to_string().contains("newer hookd"), "{err}");
        assert!(fs::read_to_string(&path).unwrap().contains("99"));
    }
}
