//! The Timeline's Revert actions: `hookd rewind` for the window, previewed
//! before anything is written.
//!
//! Every rule is hookd-core's ([`hookd_core::rewind`]): which changes a
//! target selects, the three-way merge per file, what is not restorable,
//! and the apply's checks (a file changed since the plan is refused, never
//! written through a link, atomic per file, recorded so it can be undone).
//! This module only carries a [`Plan`] from the preview to the apply: the
//! preview plans and keeps the plan in the app's state under a preview id,
//! and shows it as [`RewindPreview`] (per file, the core's own line diff
//! from the file now to what it becomes); the apply carries out exactly
//! that kept plan, so what the user approved is what is written, or
//! nothing is (the core refuses files that changed since).

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use hookd_core::diff::{self, DiffLine, LineCounts};
use hookd_core::rewind::{Applied, FilePlan, OnConflict, Outcome, Plan, RewindRepo, Target};
use hookd_core::timefmt;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{AppError, ErrorKind, Result};
use crate::state::AppState;

/// How many previews the app keeps at once: each holds the files it read,
/// and only the newest dialogs can still be applied.
pub const KEPT_PREVIEWS: usize = 8;

/// What to revert, as the window names it: the core's
/// [`Target`], spelled for JSON.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RewindTarget {
    /// One tool call's changes (its `tool_use_id`).
    Call {
        /// The tool call id.
        id: String,
    },
    /// One prompt's changes (the `UserPromptSubmit` event's id or its `prompt_id`).
    Prompt {
        /// The prompt.
        id: String,
    },
    /// The changes of the prompt a row's event belongs to (the session's
    /// last `UserPromptSubmit` before it, up to its next one).
    PromptOf {
        /// The row's `event_id`.
        event_id: String,
    },
    /// Everything one session changed.
    Session {
        /// The session id.
        id: String,
    },
    /// Everything one agent changed.
    Agent {
        /// The agent id.
        id: String,
    },
    /// Everything changed at or after a time (RFC 3339, or a duration ago: `2h`).
    Since {
        /// The time.
        time: String,
    },
    /// One file back to how it was right after the row `after_id` (`0`:
    /// before its first recorded change).
    File {
        /// The file as the ledger stores it (a row's `file_path`).
        path: String,
        /// The row whose result is kept; every later change is reverted.
        after_id: i64,
    },
}

impl RewindTarget {
    /// The core's target (a time given as a duration is read now).
    fn to_core(&self) -> Result<Target> {
        Ok(match self {
            Self::Call { id } => Target::Call(id.clone()),
            Self::Prompt { id } => Target::Prompt(id.clone()),
            Self::PromptOf { event_id } => Target::PromptOf(event_id.clone()),
            Self::Session { id } => Target::Session(id.clone()),
            Self::Agent { id } => Target::Agent(id.clone()),
            Self::Since { time } => {
                let bound = timefmt::parse_time_bound(time, chrono::Utc::now())?;
                Target::Since(timefmt::format(bound))
            }
            Self::File { path, after_id } => Target::File {
                path: path.clone(),
                after_id: *after_id,
            },
        })
    }
}

/// What to do with a file whose revert overlaps later changes (the core's
/// [`OnConflict`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RewindConflicts {
    /// Write nothing at all while a file conflicts.
    Refuse,
    /// Leave the conflicting files as they are; write the others.
    Skip,
    /// Write the conflicting files with git's conflict markers, to resolve by hand.
    Markers,
}

impl From<RewindConflicts> for OnConflict {
    fn from(conflicts: RewindConflicts) -> Self {
        match conflicts {
            RewindConflicts::Refuse => OnConflict::Refuse,
            RewindConflicts::Skip => OnConflict::Skip,
            RewindConflicts::Markers => OnConflict::Markers,
        }
    }
}

/// What a revert does to one file, as the preview lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RewindFileKind {
    /// Written with other content.
    Modify,
    /// Created again: the reverted changes deleted it.
    Create,
    /// Deleted: the reverted changes created it and nothing changed it since.
    Delete,
    /// Already as the revert would leave it.
    Unchanged,
    /// Overlaps later changes: written only with conflict markers, or skipped.
    Conflict,
    /// Cannot be given back (a content was not kept); the revert cannot be applied.
    NotRestorable,
}

/// One file of a preview.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct RewindFilePreview {
    /// The file, relative to the repository's root (as the ledger stores it).
    pub path: String,
    /// What happens to it.
    pub kind: RewindFileKind,
    /// The line diff from the file now to what it becomes (`modify`,
    /// `create`; for a `conflict`, to the file with conflict markers);
    /// empty otherwise, and for content that is not text.
    pub diff: Vec<DiffLine>,
    /// The lines `diff` adds and removes.
    pub counts: LineCounts,
    /// The content is not text (not UTF-8): no line diff is shown.
    pub binary: bool,
    /// Why it conflicts or cannot be restored; null otherwise.
    pub why: Option<String>,
    /// A `conflict` can be written with conflict markers (overlapping lines);
    /// false when it cannot (then `markers` refuses it like `refuse`).
    pub markers: bool,
    /// How many recorded changes of this file are reverted.
    pub changes: u32,
    /// Befores that were derived rather than seen, in words.
    pub derived: Vec<String>,
}

/// What a revert would do, kept by the app until it is applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct RewindPreview {
    /// Give it to `rewind_apply` to carry out exactly this plan.
    pub preview: String,
    /// The repository's root.
    pub root: String,
    /// How many recorded changes are reverted, in every file.
    pub changes: u32,
    /// Per file, in path order.
    pub files: Vec<RewindFilePreview>,
    /// The id of the rewind this preview undoes (`rewind_undo`); null otherwise.
    pub undo_of: Option<String>,
}

/// What an applied revert did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct RewindApplied {
    /// The rewind's own id, recorded in the ledger: `rewind_undo` takes it.
    pub rewind_id: String,
    /// The repository's root.
    pub root: String,
    /// Files written.
    pub written: Vec<String>,
    /// Files deleted.
    pub deleted: Vec<String>,
    /// Files left as they were (conflicts skipped).
    pub skipped: Vec<String>,
    /// Files written with conflict markers.
    pub marked: Vec<String>,
}

/// The plans previewed and not yet applied, newest last, at most
/// [`KEPT_PREVIEWS`].
#[derive(Debug, Default)]
pub struct Previews {
    next: AtomicU64,
    plans: Mutex<VecDeque<(String, Plan)>>,
}

impl Previews {
    /// Keeps `plan` and returns its new preview id, dropping the oldest
    /// kept plan when there are too many.
    fn keep(&self, plan: Plan) -> String {
        let id = format!(
            "rewind-preview-{}",
            self.next.fetch_add(1, Ordering::Relaxed) + 1
        );
        let mut plans = self.lock();
        plans.push_back((id.clone(), plan));
        while plans.len() > KEPT_PREVIEWS {
            plans.pop_front();
        }
        id
    }

    /// The plan previewed under `id`.
    fn get(&self, id: &str) -> Result<Plan> {
        self.lock()
            .iter()
            .find(|(kept, _)| kept == id)
            .map(|(_, plan)| plan.clone())
            .ok_or_else(|| {
                AppError::new(
                    ErrorKind::NotFound,
                    format!(
                        "the preview {id} is no longer kept (the app restarted, or newer previews replaced it); preview the revert again"
                    ),
                )
            })
    }

    /// Forgets the plan of `id` (applied: applying it again would fail).
    fn forget(&self, id: &str) {
        self.lock().retain(|(kept, _)| kept != id);
    }

    /// How many plans are kept.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// No plan is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<(String, Plan)>> {
        // A panic while holding the lock leaves whole entries: still usable.
        self.plans
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// What reverting `target` in the repository holding `repo` would do;
/// writes nothing, keeps the plan for [`rewind_apply`].
pub fn rewind_preview(
    state: &AppState,
    repo: &str,
    target: &RewindTarget,
) -> Result<RewindPreview> {
    let repo = open(repo)?;
    let plan = repo.plan(&target.to_core()?)?;
    Ok(preview_of(state, plan, None))
}

/// What undoing the rewind `rewind` (the newest recorded one when `None`)
/// would do: a preview like any other, applied with [`rewind_apply`].
pub fn rewind_undo(state: &AppState, repo: &str, rewind: Option<&str>) -> Result<RewindPreview> {
    let opened = open(repo)?;
    let id = match rewind.map(str::trim).filter(|id| !id.is_empty()) {
        Some(id) => id.to_owned(),
        None => opened.last_rewind()?.ok_or_else(|| {
            AppError::new(
                ErrorKind::NotFound,
                format!(
                    "no revert is recorded in {}: there is nothing to undo",
                    opened.root().display()
                ),
            )
        })?,
    };
    let plan = opened.plan(&Target::Call(id.clone()))?;
    Ok(preview_of(state, plan, Some(id)))
}

/// Carries out exactly the plan previewed as `preview`. The core refuses,
/// writing nothing, when a file is not restorable (`invalid_input`), when
/// one conflicts and `conflicts` is `refuse` (`conflict`), or when a file
/// changed since the preview (`conflict`: preview again). An applied
/// preview is forgotten; a refused one is kept, to apply with another
/// choice.
pub fn rewind_apply(
    state: &AppState,
    preview: &str,
    conflicts: RewindConflicts,
) -> Result<RewindApplied> {
    let plan = state.rewinds.get(preview)?;
    let mut repo = RewindRepo::open(&plan.root)?;
    let applied = repo.apply(&plan, conflicts.into())?;
    state.rewinds.forget(preview);
    tracing::info!(
        root = %plan.root.display(),
        rewind = %applied.rewind_id,
        written = applied.written.len(),
        deleted = applied.deleted.len(),
        "reverted recorded changes"
    );
    Ok(applied_of(&plan, applied))
}

/// The rewind side of the repository holding `repo`, an absolute directory.
fn open(repo: &str) -> Result<RewindRepo> {
    if repo.trim().is_empty() || !Path::new(repo).is_absolute() {
        return Err(AppError::invalid_input(format!(
            "repository {repo:?} is not an absolute path"
        )));
    }
    Ok(RewindRepo::open(Path::new(repo))?)
}

fn preview_of(state: &AppState, plan: Plan, undo_of: Option<String>) -> RewindPreview {
    let files = plan.files.iter().map(file_preview).collect();
    let changes = u32::try_from(plan.reverted().len()).unwrap_or(u32::MAX);
    let root = plan.root.display().to_string();
    RewindPreview {
        preview: state.rewinds.keep(plan),
        root,
        changes,
        files,
        undo_of,
    }
}

fn file_preview(file: &FilePlan) -> RewindFilePreview {
    let (kind, new, why, markers) = match &file.outcome {
        Outcome::Unchanged => (RewindFileKind::Unchanged, None, None, false),
        Outcome::Write(bytes) if file.now.is_some() => {
            (RewindFileKind::Modify, Some(bytes), None, false)
        }
        Outcome::Write(bytes) => (RewindFileKind::Create, Some(bytes), None, false),
        Outcome::Delete => (RewindFileKind::Delete, None, None, false),
        Outcome::Conflict { why, marked } => (
            RewindFileKind::Conflict,
            marked.as_ref(),
            Some(why.clone()),
            marked.is_some(),
        ),
        Outcome::NotRestorable { why } => (
            RewindFileKind::NotRestorable,
            None,
            Some(why.clone()),
            false,
        ),
    };
    let (diff, binary) = match new {
        None => (Vec::new(), false),
        Some(new) => {
            let now = std::str::from_utf8(file.now.as_deref().unwrap_or_default());
            match (now, std::str::from_utf8(new)) {
                (Ok(now), Ok(new)) => (diff::line_diff(now, new), false),
                _ => (Vec::new(), true),
            }
        }
    };
    RewindFilePreview {
        path: file.path.clone(),
        kind,
        counts: LineCounts::of(&diff),
        diff,
        binary,
        why,
        markers,
        changes: u32::try_from(file.changes.len()).unwrap_or(u32::MAX),
        derived: file.derived.clone(),
    }
}

fn applied_of(plan: &Plan, applied: Applied) -> RewindApplied {
    RewindApplied {
        rewind_id: applied.rewind_id,
        root: plan.root.display().to_string(),
        written: applied.written,
        deleted: applied.deleted,
        skipped: applied.skipped,
        marked: applied.marked,
    }
}
