//! One repository's rewind: its ledger, its content store and its root,
//! opened once, with every question `hookd rewind`, `hookd show` and the
//! desktop app ask of them. The rules live here so the command line and
//! the app cannot differ.

use std::path::{Path, PathBuf};

use super::apply::{Applied, OnConflict};
use super::plan::{Plan, REWIND_ID_PREFIX, Target, load};
use super::{RewindError, apply, plan};
use crate::daemon::enrich::Enricher;
use crate::dirs;
use crate::ledger::Ledger;
use crate::ledger::content_store::ContentStore;
use crate::ledger::query::resolve_repo_root;
use crate::ledger::versions::{self, RecordedChange, Selection};
use crate::timefmt;

/// A repository whose recorded changes can be given back.
pub struct RewindRepo {
    root: PathBuf,
    ledger: Ledger,
    store: ContentStore,
}

impl RewindRepo {
    /// Opens the ledger and content store of the repository holding `dir`
    /// (any directory inside it). A repository without a ledger is an
    /// error: there is nothing to give back.
    pub fn open(dir: &Path) -> Result<Self, RewindError> {
        let root = resolve_repo_root(dir)?;
        let path = dirs::repo_ledger_path(&root);
        if !path.exists() {
            return Err(RewindError::NoLedger { root });
        }
        let ledger = Ledger::open_existing(&path)?;
        let state_dir = path.parent().unwrap_or(&root).to_path_buf();
        let store = ContentStore::open(&state_dir)?;
        Ok(Self {
            root,
            ledger,
            store,
        })
    }

    /// The repository's root (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `file` as the ledger stores it: relative to the root when inside
    /// it. A relative `file` is taken from `cwd`.
    pub fn stored_path(&self, file: &Path, cwd: &Path) -> String {
        let full = crate::project::clean_path(&cwd.join(file));
        // The root is canonical; so is the file's directory, when it exists.
        let full = match (
            full.parent().and_then(|d| d.canonicalize().ok()),
            full.file_name(),
        ) {
            (Some(dir), Some(name)) => dir.join(name),
            _ => full,
        };
        crate::project::stored_path(&full, Some(&self.root))
    }

    /// The last recorded change of `file` (stored path) at `point`: a time
    /// (RFC 3339, or a duration ago such as `2h`) or a tool call id (the
    /// change that call made). `None`: the point is before its first
    /// recorded change.
    pub fn change_at(
        &self,
        file: &str,
        point: &str,
    ) -> Result<Option<RecordedChange>, RewindError> {
        let history =
            versions::changes(self.ledger.connection(), &Selection::File(file.to_owned()))?;
        if let Ok(time) = timefmt::parse_time_bound(point, chrono::Utc::now()) {
            let time = timefmt::format(time);
            return Ok(history
                .into_iter()
                .rev()
                .find(|c| c.event_timestamp <= time));
        }
        history
            .into_iter()
            .rev()
            .find(|c| c.tool_use_id.as_deref() == Some(point))
            .map(Some)
            .ok_or_else(|| RewindError::NoSuchPoint {
                point: point.to_owned(),
                file: file.to_owned(),
            })
    }

    /// The target that puts `file` (stored path) back as it was at `point`
    /// ([`RewindRepo::change_at`]).
    pub fn file_target(&self, file: &str, point: &str) -> Result<Target, RewindError> {
        let after_id = self.change_at(file, point)?.map_or(0, |c| c.id);
        Ok(Target::File {
            path: file.to_owned(),
            after_id,
        })
    }

    /// The newest rewind recorded here (what `--undo` undoes by default).
    pub fn last_rewind(&self) -> Result<Option<String>, RewindError> {
        Ok(versions::newest_call_with_prefix(
            self.ledger.connection(),
            REWIND_ID_PREFIX,
        )?)
    }

    /// What rewinding `target` would do ([`plan::plan`]).
    pub fn plan(&self, target: &Target) -> Result<Plan, RewindError> {
        plan::plan(self.ledger.connection(), &self.store, &self.root, target)
    }

    /// Carries `plan` out and records it ([`apply::apply`]).
    pub fn apply(&mut self, plan: &Plan, on_conflict: OnConflict) -> Result<Applied, RewindError> {
        let facts = Enricher::new().facts_for_dir(&self.root);
        apply::apply(plan, &mut self.ledger, &self.store, &facts, on_conflict)
    }

    /// `file` (stored path) as recorded at `point`: after the last change
    /// at or before it, else as its first recorded change found it.
    /// `None`: it did not exist then.
    pub fn content_at(&self, file: &str, point: &str) -> Result<Option<Vec<u8>>, RewindError> {
        let unknown = |why: String| RewindError::NotRestorable {
            path: file.to_owned(),
            why,
        };
        match self.change_at(file, point)? {
            Some(change) => load(&self.store, change.after.as_ref(), "after").map_err(unknown),
            None => {
                let first =
                    versions::changes(self.ledger.connection(), &Selection::File(file.to_owned()))?
                        .into_iter()
                        .next()
                        .ok_or_else(|| RewindError::NoSuchPoint {
                            point: point.to_owned(),
                            file: file.to_owned(),
                        })?;
                load(&self.store, first.before.as_ref(), "before").map_err(unknown)
            }
        }
    }
}
