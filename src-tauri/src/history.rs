//! Looking back from one timeline row: the row whole, payload included
//! (`mutation_row`, `activity_event`: the pages are sent without
//! payloads), what its file held
//! before a Write (`previous_content`), the diff it shows (`mutation_diff`,
//! computed by `hookd_core::diff`, the rule of its stored line counts), and
//! every file its hook event changed
//! (`event_mutations`, the files one Bash command touched), and the
//! prompt's group an event is in (`prompt_group`: the list's rows whose
//! prompt is not among the pages held). All read the
//! ledger the row came from; the logic is `hookd_core::ledger::previous` and the
//! ledger's read API.

use std::path::PathBuf;

use hookd_core::diff::ChangeDiff;
use hookd_core::ledger::change::{self, MutationDiff};
use hookd_core::ledger::previous::{self, PreviousContent};
use hookd_core::ledger::prompts::PromptGroup;
use hookd_core::ledger::query::{OUTSIDE_GIT, resolve_repo_root};
use hookd_core::ledger::{ActivityEvent, Ledger};
use hookd_core::record::MutationRow;
use serde::Deserialize;
use ts_rs::TS;

use crate::error::{AppError, ErrorKind, Result};
use crate::state::AppState;

/// One timeline row (a mutation, or a hook event in activity mode), by the
/// ledger it lives in and its row id.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, TS)]
pub struct RowRef {
    /// A directory inside the row's repository (a row's `repo`, or the
    /// timeline's project); null or `(outside git)` for the ledger of events
    /// outside any repository.
    pub repo: Option<String>,
    /// The row's `id` in that ledger.
    pub id: i64,
}

/// One hook event, by the ledger it lives in and its event id.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, TS)]
pub struct EventRef {
    /// As [`RowRef::repo`].
    pub repo: Option<String>,
    /// The event's `event_id`.
    pub event_id: String,
}

/// The ledger of `repo` and the repository's root (none outside git).
fn open(state: &AppState, repo: Option<&str>) -> Result<(Ledger, Option<PathBuf>)> {
    match repo
        .map(str::trim)
        .filter(|r| !r.is_empty() && *r != OUTSIDE_GIT)
    {
        None => {
            let path = hookd_core::dirs::unversioned_ledger_path(&state.data_dir);
            Ok((
                Ledger::open_existing(&path).map_err(not_found(&path))?,
                None,
            ))
        }
        Some(dir) => {
            let root = resolve_repo_root(&PathBuf::from(dir))?;
            let path = hookd_core::dirs::repo_ledger_path(&root);
            Ok((
                Ledger::open_existing(&path).map_err(not_found(&path))?,
                Some(root),
            ))
        }
    }
}

/// A ledger that cannot be opened because it is not there is "not found".
fn not_found(path: &std::path::Path) -> impl FnOnce(hookd_core::Error) -> AppError + '_ {
    move |err| {
        if path.exists() {
            err.into()
        } else {
            AppError::new(
                ErrorKind::NotFound,
                format!("no ledger at {}", path.display()),
            )
        }
    }
}

/// The row `row` of its ledger, or a typed `not_found`.
fn find(ledger: &Ledger, row: &RowRef) -> Result<MutationRow> {
    ledger.mutation(row.id)?.ok_or_else(|| {
        AppError::new(
            ErrorKind::NotFound,
            format!("no row {} in {}", row.id, ledger.path().display()),
        )
    })
}

/// The row `row`, whole: every column and its raw payload.
pub fn mutation_row(state: &AppState, row: &RowRef) -> Result<MutationRow> {
    let (ledger, _) = open(state, row.repo.as_deref())?;
    find(&ledger, row)
}

/// The hook event `row` (by its row `id`), whole: its payload and its hook runs.
pub fn activity_event(state: &AppState, row: &RowRef) -> Result<ActivityEvent> {
    let (ledger, _) = open(state, row.repo.as_deref())?;
    ledger.event(row.id)?.ok_or_else(|| {
        AppError::new(
            ErrorKind::NotFound,
            format!("no event {} in {}", row.id, ledger.path().display()),
        )
    })
}

/// The prompt's group the hook event `row` (by its row `id`) is in, with
/// its head whole and its exact counts; `None` when the event is in no
/// group. The rule is the core's ([`Ledger::prompt_group`]).
pub fn prompt_group(state: &AppState, row: &RowRef) -> Result<Option<PromptGroup>> {
    let (ledger, _) = open(state, row.repo.as_deref())?;
    Ok(ledger.prompt_group(row.id)?)
}

/// What the file of the Write `row` held before it: the newest earlier
/// Write of the file, else the file in git at the row's HEAD, else nothing.
pub fn previous_content(state: &AppState, row: &RowRef) -> Result<PreviousContent> {
    let (ledger, root) = open(state, row.repo.as_deref())?;
    let found = find(&ledger, row)?;
    Ok(previous::previous_content(
        &ledger,
        root.as_deref(),
        &found,
    )?)
}

/// The diff the row `row` shows: its change, a Write's against its
/// previous content, and the counts stored with it.
pub fn mutation_diff(state: &AppState, row: &RowRef) -> Result<MutationDiff> {
    let (ledger, root) = open(state, row.repo.as_deref())?;
    let found = find(&ledger, row)?;
    Ok(change::mutation_diff(&ledger, root.as_deref(), &found)?)
}

/// The diff of the tool input in a hook event's payload (JSON text), a
/// Write's against no earlier content; `None` when it holds no file text.
pub fn payload_diff(raw_payload: &str) -> Option<ChangeDiff> {
    change::payload_diff(raw_payload)
}

/// Every mutation of one hook event (the files a Bash command changed), in order.
pub fn event_mutations(state: &AppState, event: &EventRef) -> Result<Vec<MutationRow>> {
    let (ledger, _) = open(state, event.repo.as_deref())?;
    Ok(ledger.event_mutations(&event.event_id)?)
}
