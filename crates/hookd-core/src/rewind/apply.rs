//! Carrying out a [`Plan`]: each file written whole or deleted, only if it
//! is still what the plan read, and the rewind recorded in the ledger so it
//! can be undone.
//!
//! - **Checked first:** every file the plan touches is read again; if any
//!   differs from what the plan read (the agent or the user wrote in
//!   between), nothing is written and the error names it.
//! - **Never beyond a link:** no component of the path below the
//!   repository's root may be a symbolic link
//!   ([`crate::fs_atomic::confine::no_symlink_below`]).
//! - **Atomic per file:** a temporary file in the same directory, synced,
//!   given the old file's mode (a file created again: the mode recorded
//!   with its content), renamed over it ([`crate::fs_atomic`]).
//! - **Recorded:** one event of tool [`REWIND_TOOL`] under a new tool call
//!   id, with one mutation per file written or deleted holding its content
//!   before and after (both kept in the content store), so `--undo` is a
//!   rewind of that call and gives back exactly what was replaced.

use std::path::{Path, PathBuf};

use super::RewindError;
use super::plan::{Outcome, Plan, REWIND_ID_PREFIX, REWIND_TOOL, inside};
use crate::daemon::capture;
use crate::diff::LineCounts;
use crate::ledger::Ledger;
use crate::ledger::content_store::ContentStore;
use crate::record::{ContentRef, HookEvent, LedgerEntry, MutationRecord, RepoFacts};

/// One file the apply writes or deletes.
struct FileWrite<'a> {
    /// As stored.
    path: &'a str,
    /// On disk.
    full: PathBuf,
    /// What the plan read (`None`: absent).
    now: Option<&'a [u8]>,
    /// What it becomes (`None`: deleted).
    new: Option<&'a [u8]>,
    /// Its mode when the plan read it.
    now_mode: Option<u32>,
    /// The mode it gets if it is created.
    mode: Option<u32>,
}

/// What to do with a file whose revert conflicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnConflict {
    /// Refuse the whole rewind (the default): nothing is written.
    #[default]
    Refuse,
    /// Leave those files as they are and write the others.
    Skip,
    /// Write them with git's conflict markers, for the user to resolve.
    Markers,
}

/// What a rewind did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The rewind's own tool call id (what `--undo` takes).
    pub rewind_id: String,
    /// Files written.
    pub written: Vec<String>,
    /// Files deleted.
    pub deleted: Vec<String>,
    /// Files left as they were (conflicts skipped).
    pub skipped: Vec<String>,
    /// Files written with conflict markers.
    pub marked: Vec<String>,
}

/// Carries out `plan` and records it in `ledger`. Refused, with nothing
/// written, when a file is not restorable, when one conflicts and
/// `on_conflict` is [`OnConflict::Refuse`], or when one changed since the
/// plan read it.
pub fn apply(
    plan: &Plan,
    ledger: &mut Ledger,
    store: &ContentStore,
    repo: &RepoFacts,
    on_conflict: OnConflict,
) -> Result<Applied, RewindError> {
    let mut writes: Vec<FileWrite<'_>> = Vec::new();
    let mut skipped = Vec::new();
    let mut marked = Vec::new();
    for file in &plan.files {
        let new: Option<&[u8]> = match &file.outcome {
            Outcome::Unchanged => continue,
            Outcome::Write(bytes) => Some(bytes),
            Outcome::Delete => None,
            Outcome::NotRestorable { why } => {
                return Err(RewindError::NotRestorable {
                    path: file.path.clone(),
                    why: why.clone(),
                });
            }
            Outcome::Conflict { why, marked: text } => match (on_conflict, text) {
                (OnConflict::Skip, _) => {
                    skipped.push(file.path.clone());
                    continue;
                }
                (OnConflict::Markers, Some(text)) => {
                    marked.push(file.path.clone());
                    Some(text)
                }
                _ => {
                    return Err(RewindError::Conflict {
                        path: file.path.clone(),
                        why: why.clone(),
                    });
                }
            },
        };
        let full = inside(&plan.root, &file.path).ok_or_else(|| RewindError::NotRestorable {
            path: file.path.clone(),
            why: "outside the repository".to_owned(),
        })?;
        writes.push(FileWrite {
            path: &file.path,
            full,
            now: file.now.as_deref(),
            new,
            now_mode: file.now_mode,
            mode: file.mode,
        });
    }
    // Everything checked before anything is written.
    for FileWrite {
        path, full, now, ..
    } in &writes
    {
        crate::fs_atomic::confine::no_symlink_below(&plan.root, full)?;
        let current = match capture::read_file(full, store.limit()) {
            Ok(read) => Some(read.bytes),
            Err(ContentRef::Absent) => None,
            Err(_) => {
                return Err(RewindError::ChangedSincePlan {
                    path: (*path).to_owned(),
                });
            }
        };
        if current.as_deref() != *now {
            return Err(RewindError::ChangedSincePlan {
                path: (*path).to_owned(),
            });
        }
    }
    let rewind_id = format!("{REWIND_ID_PREFIX}{}", uuid::Uuid::now_v7());
    let mut applied = Applied {
        rewind_id: rewind_id.clone(),
        written: Vec::new(),
        deleted: Vec::new(),
        skipped,
        marked,
    };
    let mut records = Vec::new();
    for FileWrite {
        path,
        full,
        now,
        new,
        now_mode,
        mode,
    } in &writes
    {
        let before = with_mode(keep(store, *now), *now_mode);
        let mut after = keep(store, *new);
        match new {
            Some(bytes) => {
                write_file(&plan.root, full, bytes, *mode)?;
                // The mode it has now (kept, or given), so an undo that
                // deletes and creates it again gives it back.
                let written = std::fs::symlink_metadata(full)
                    .ok()
                    .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()));
                after = with_mode(after, written);
                applied.written.push((*path).to_owned());
            }
            None => {
                std::fs::remove_file(full).map_err(|source| RewindError::Write {
                    path: full.clone(),
                    source,
                })?;
                applied.deleted.push((*path).to_owned());
            }
        }
        // The lines it added and removed, by the timeline's one diff rule.
        let text =
            |bytes: Option<&[u8]>| String::from_utf8_lossy(bytes.unwrap_or_default()).into_owned();
        let counts = crate::diff::line_counts(&text(*now), &text(*new));
        records.push(((*path).to_owned(), before, after, counts));
    }
    record(ledger, repo, plan, &rewind_id, records)?;
    Ok(applied)
}

fn keep(store: &ContentStore, content: Option<&[u8]>) -> ContentRef {
    content.map_or(ContentRef::Absent, |bytes| capture::keep(store, bytes))
}

fn with_mode(content: ContentRef, mode: Option<u32>) -> ContentRef {
    match mode {
        Some(mode) => content.with_mode(mode),
        None => content,
    }
}

/// Writes `bytes` to `full` (a file it creates gets `mode` when given),
/// creating missing directories (none of them a link: checked again after
/// they exist).
fn write_file(
    root: &Path,
    full: &Path,
    bytes: &[u8],
    mode: Option<u32>,
) -> Result<(), RewindError> {
    if let Some(dir) = full.parent()
        && !dir.exists()
    {
        std::fs::create_dir_all(dir).map_err(|source| RewindError::Write {
            path: dir.to_path_buf(),
            source,
        })?;
        crate::fs_atomic::confine::no_symlink_below(root, full)?;
    }
    crate::fs_atomic::write_atomic_as(full, bytes, mode)?;
    Ok(())
}

/// Appends the rewind's event and its mutations to the ledger.
fn record(
    ledger: &mut Ledger,
    repo: &RepoFacts,
    plan: &Plan,
    rewind_id: &str,
    files: Vec<(String, ContentRef, ContentRef, LineCounts)>,
) -> Result<(), RewindError> {
    let now = crate::timefmt::now();
    let payload = serde_json::json!({
        "tool_name": REWIND_TOOL,
        "tool_use_id": rewind_id,
        "tool_input": {
            "target": format!("{:?}", plan.target),
            "reverted": plan.reverted(),
        },
    });
    let mut event = HookEvent::post_tool_use(
        uuid::Uuid::now_v7().to_string(),
        REWIND_TOOL,
        REWIND_AGENT,
        payload.to_string(),
        now,
    );
    event.tool_use_id = Some(rewind_id.to_owned());
    event.cwd = Some(plan.root.clone());
    event.source_pid = Some(std::process::id());
    let mutations = files
        .into_iter()
        .zip(0..)
        .map(|((path, before, after, counts), seq)| {
            let mut record =
                MutationRecord::for_event(&event, repo, REWIND_TOOL, seq, Some(path), None);
            record.lines_added = Some(i64::from(counts.added));
            record.lines_removed = Some(i64::from(counts.removed));
            record.before = Some(before);
            record.after = Some(after);
            record
        })
        .collect();
    ledger.append(&[LedgerEntry {
        event,
        repo: repo.clone(),
        mutations,
    }])?;
    Ok(())
}

/// The agent a rewind is recorded as.
pub const REWIND_AGENT: &str = "hookd";
