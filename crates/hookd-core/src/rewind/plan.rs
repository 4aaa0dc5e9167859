//! What a rewind will do, file by file, before it does anything.
//!
//! The recorded changes of the target ([`Target`]) are grouped per file and
//! reverted newest first, each through [`super::merge::revert`] against the
//! file as it is now: later changes (the agent's own, another agent's, the
//! user's) are kept, overlaps are conflicts. A change whose contents were
//! not kept is not restorable and says why, unless its *before* can be
//! derived exactly (an Edit reversed on its after, or the file's previous
//! recorded after). Nothing here writes: the plan is
//! what `--dry-run` prints and what [`super::apply()`] carries out, and it
//! holds each file's content as read, so the apply can refuse a file that
//! changed in between.

use std::path::{Component, Path, PathBuf};

use rusqlite::Connection;
use serde_json::Value;

use super::RewindError;
use super::merge::{Conflict, Revert, revert};
use crate::daemon::capture;
use crate::ledger::content_store::{ContentHash, ContentStore};
use crate::ledger::versions::{self, RecordedChange, Selection};
use crate::record::ContentRef;

/// The tool name a rewind is recorded under; its tool call id starts with
/// [`REWIND_ID_PREFIX`].
pub const REWIND_TOOL: &str = "hookd.rewind";

/// How a rewind's own tool call id starts (then a UUID v7, so the newest
/// sorts last).
pub const REWIND_ID_PREFIX: &str = "hookd-rewind-";

/// What to rewind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// One tool call (`tool_use_id`); a rewind's own id undoes that rewind.
    Call(String),
    /// One prompt: a `UserPromptSubmit` event's id, or the `prompt_id` its
    /// payload carries.
    Prompt(String),
    /// The prompt an event (by its `event_id`) belongs to.
    PromptOf(String),
    /// One session.
    Session(String),
    /// Everything an agent did.
    Agent(String),
    /// Everything at or after a time (stored timestamp format).
    Since(String),
    /// One file (stored path) back to how it was right after row `after_id`
    /// (`0`: before its first recorded change).
    File {
        /// The file, as stored.
        path: String,
        /// The last change kept.
        after_id: i64,
    },
}

/// The whole rewind: one entry per file the target changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The repository's root.
    pub root: PathBuf,
    /// What it reverts.
    pub target: Target,
    /// Per file, in path order.
    pub files: Vec<FilePlan>,
}

/// What the rewind does to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePlan {
    /// As stored in the ledger (relative to the root).
    pub path: String,
    /// The changes reverted (mutation row ids), oldest first.
    pub changes: Vec<i64>,
    /// The file as read when planning (`None`: absent).
    pub now: Option<Vec<u8>>,
    /// Its permission bits then (`None`: absent).
    pub now_mode: Option<u32>,
    /// The permission bits it gets if the rewind creates it: the mode
    /// recorded with the content it goes back to, when recorded.
    pub mode: Option<u32>,
    /// What happens.
    pub outcome: Outcome,
    /// Befores that were derived rather than seen, in words (shown).
    pub derived: Vec<String>,
}

/// What happens to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing to do: it already is as the rewind would leave it.
    Unchanged,
    /// Written with this content (created if absent).
    Write(Vec<u8>),
    /// Deleted: the reverted changes created it and nothing changed it since.
    Delete,
    /// Not written unless asked: `why`, and for overlapping lines the file
    /// with conflict markers.
    Conflict {
        /// Why.
        why: String,
        /// The merged file with git's conflict markers, for overlaps.
        marked: Option<Vec<u8>>,
    },
    /// Cannot be given back: a content was not kept (and could not be
    /// derived exactly), or the path is not one hookd writes.
    NotRestorable {
        /// Why.
        why: String,
    },
}

impl Plan {
    /// The row ids the plan reverts, oldest first.
    pub fn reverted(&self) -> Vec<i64> {
        let mut ids: Vec<i64> = self.files.iter().flat_map(|f| f.changes.clone()).collect();
        ids.sort_unstable();
        ids
    }
}

/// Plans rewinding `target` in the repository at `root` from its ledger
/// `conn` and content `store`.
pub fn plan(
    conn: &Connection,
    store: &ContentStore,
    root: &Path,
    target: &Target,
) -> Result<Plan, RewindError> {
    let selected = match target {
        Target::Call(id) => versions::changes(conn, &Selection::Call(id.clone()))?,
        Target::Prompt(id) => versions::changes(conn, &Selection::Prompt(id.clone()))?,
        Target::PromptOf(id) => versions::changes(conn, &Selection::PromptOf(id.clone()))?,
        Target::Session(id) => versions::changes(conn, &Selection::Session(id.clone()))?,
        Target::Agent(id) => versions::changes(conn, &Selection::Agent(id.clone()))?,
        Target::Since(time) => versions::changes(conn, &Selection::Since(time.clone()))?,
        Target::File { path, after_id } => versions::changes(conn, &Selection::File(path.clone()))?
            .into_iter()
            .filter(|change| change.id > *after_id)
            .collect(),
    };
    if selected.is_empty() {
        return Err(RewindError::NothingRecorded {
            target: target.clone(),
        });
    }
    let mut by_file: std::collections::BTreeMap<String, Vec<RecordedChange>> =
        std::collections::BTreeMap::new();
    for change in selected {
        by_file
            .entry(change.file_path.clone())
            .or_default()
            .push(change);
    }
    let mut files = Vec::with_capacity(by_file.len());
    for (path, changes) in by_file {
        files.push(plan_file(conn, store, root, path, &changes)?);
    }
    Ok(Plan {
        root: root.to_path_buf(),
        target: target.clone(),
        files,
    })
}

fn plan_file(
    conn: &Connection,
    store: &ContentStore,
    root: &Path,
    path: String,
    changes: &[RecordedChange],
) -> Result<FilePlan, RewindError> {
    let ids = changes.iter().map(|c| c.id).collect();
    let mut file = FilePlan {
        path,
        changes: ids,
        now: None,
        now_mode: None,
        mode: None,
        outcome: Outcome::Unchanged,
        derived: Vec::new(),
    };
    let Some(full) = inside(root, &file.path) else {
        file.outcome = Outcome::NotRestorable {
            why: "the path is outside the repository; hookd only writes inside it".to_owned(),
        };
        return Ok(file);
    };
    file.now = match capture::read_file(&full, store.limit()) {
        Ok(read) => {
            file.now_mode = Some(read.mode);
            Some(read.bytes)
        }
        Err(ContentRef::Absent) => None,
        Err(ContentRef::TooLarge { size }) => {
            file.outcome = Outcome::NotRestorable {
                why: format!("the file is {size} bytes now, over the content store's limit"),
            };
            return Ok(file);
        }
        Err(other) => {
            file.outcome = Outcome::NotRestorable {
                why: why_of(&other, "the file as it is now"),
            };
            return Ok(file);
        }
    };
    let mut content = file.now.clone();
    for change in changes.iter().rev() {
        let after = match load(store, change.after.as_ref(), "after") {
            Ok(after) => after,
            Err(why) => {
                file.outcome = not_restorable(change, &why);
                return Ok(file);
            }
        };
        let before = match load(store, change.before.as_ref(), "before") {
            Ok(before) => before,
            Err(why) => match derive_before(conn, store, change, after.as_deref())? {
                Some(derived) => {
                    file.derived.push(derived.how);
                    derived.before
                }
                None => {
                    file.outcome = not_restorable(change, &why);
                    return Ok(file);
                }
            },
        };
        // The oldest change reverted says what the file held, and with
        // which mode, where the rewind takes it back to.
        file.mode = change
            .before
            .as_ref()
            .and_then(ContentRef::mode)
            .or(file.mode);
        match revert(before.as_deref(), after.as_deref(), content.as_deref()) {
            Revert::Unchanged => {}
            Revert::Write(bytes) => content = Some(bytes),
            Revert::Delete => content = None,
            Revert::Conflict(conflict) => {
                let marked = match &conflict {
                    Conflict::Overlap { marked } => Some(marked.clone()),
                    _ => None,
                };
                file.outcome = Outcome::Conflict {
                    why: conflict.to_string(),
                    marked,
                };
                return Ok(file);
            }
        }
    }
    file.outcome = match content {
        _ if content == file.now => Outcome::Unchanged,
        Some(bytes) => Outcome::Write(bytes),
        None => Outcome::Delete,
    };
    Ok(file)
}

fn not_restorable(change: &RecordedChange, why: &str) -> Outcome {
    Outcome::NotRestorable {
        why: format!(
            "{} by {} at {} (row {}): {why}",
            change.tool_name, change.agent_id, change.event_timestamp, change.id
        ),
    }
}

/// The full path of a stored path that lies inside `root`: relative, with
/// no `..`, no root or prefix component.
pub fn inside(root: &Path, stored: &str) -> Option<PathBuf> {
    let path = Path::new(stored);
    let plain = path
        .components()
        .all(|component| matches!(component, Component::Normal(_)));
    (plain && !stored.is_empty()).then(|| root.join(path))
}

/// The bytes a content reference names (`None`: no file), or why not.
pub fn load(
    store: &ContentStore,
    content: Option<&ContentRef>,
    side: &str,
) -> Result<Option<Vec<u8>>, String> {
    match content {
        None => Err(format!(
            "recorded before hookd kept file contents, so the {side} is not known"
        )),
        Some(ContentRef::Absent) => Ok(None),
        Some(ContentRef::Kept { hash, .. }) => ContentHash::parse(hash)
            .and_then(|hash| store.get(&hash))
            .map(Some)
            .map_err(|err| format!("the {side} cannot be read from the content store: {err}")),
        Some(other) => Err(why_of(other, &format!("the {side}"))),
    }
}

fn why_of(content: &ContentRef, what: &str) -> String {
    match content {
        ContentRef::TooLarge { size } => {
            format!("{what} was {size} bytes, too large to keep, so it cannot be restored")
        }
        ContentRef::Unknown { why } => format!("{what} is not known: {why}"),
        ContentRef::Absent | ContentRef::Kept { .. } => format!("{what} is known"),
    }
}

/// A before derived rather than seen.
struct Derived {
    /// The content (`None`: no file).
    before: Option<Vec<u8>>,
    /// How, in words.
    how: String,
}

/// A before that was not seen, derived where that is exact: an Edit whose
/// `new_string` occurs exactly once in its after is reversed there; else
/// the file's previous recorded after, when kept. With how, in words.
fn derive_before(
    conn: &Connection,
    store: &ContentStore,
    change: &RecordedChange,
    after: Option<&[u8]>,
) -> Result<Option<Derived>, RewindError> {
    if matches!(change.tool_name.as_str(), "Edit" | "MultiEdit")
        && let Some(after) = after
        && let Some(before) = reverse_edits(&change.raw_payload, after)
    {
        return Ok(Some(Derived {
            before: Some(before),
            how: format!(
                "row {}: the {} reversed on its after",
                change.id, change.tool_name
            ),
        }));
    }
    let previous = versions::previous_change(conn, &change.file_path, change.id)?;
    if let Some(previous) = &previous
        && let Ok(content) = load(store, previous.after.as_ref(), "after")
    {
        return Ok(Some(Derived {
            before: content,
            how: format!(
                "row {}: the before is row {}'s recorded after",
                change.id, previous.id
            ),
        }));
    }
    Ok(None)
}

/// The content before an Edit or a MultiEdit, from its after: each edit,
/// last first, undone by putting `old_string` back where `new_string` is,
/// only where `new_string` occurs exactly once (and the edit did not
/// replace every occurrence): then that occurrence is the one the edit
/// wrote.
fn reverse_edits(payload: &str, after: &[u8]) -> Option<Vec<u8>> {
    let payload: Value = serde_json::from_str(payload).ok()?;
    let input = payload.get("tool_input")?;
    let edits: Vec<&Value> = match input.get("edits") {
        Some(edits) => edits.as_array()?.iter().collect(),
        None => vec![input],
    };
    let mut content = after.to_vec();
    for edit in edits.iter().rev() {
        content = reverse_edit(edit, &content)?;
    }
    Some(content)
}

/// One edit (`old_string`, `new_string`, `replace_all`) undone on `after`.
fn reverse_edit(edit: &Value, after: &[u8]) -> Option<Vec<u8>> {
    if edit.get("replace_all").and_then(Value::as_bool) == Some(true) {
        return None;
    }
    let old = edit.get("old_string")?.as_str()?.as_bytes();
    let new = edit.get("new_string")?.as_str()?.as_bytes();
    if new.is_empty() {
        return None;
    }
    let mut found = after
        .windows(new.len())
        .enumerate()
        .filter(|(_, window)| *window == new)
        .map(|(at, _)| at);
    let at = found.next()?;
    if found.next().is_some() {
        return None;
    }
    let mut before = Vec::with_capacity(after.len() + old.len());
    before.extend_from_slice(&after[..at]);
    before.extend_from_slice(old);
    before.extend_from_slice(&after[at + new.len()..]);
    Some(before)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_paths_are_inside() {
        let root = Path::new("/r");
        assert_eq!(inside(root, "src/a.rs"), Some(PathBuf::from("/r/src/a.rs")));
        assert_eq!(inside(root, "../x"), None);
        assert_eq!(inside(root, "/etc/passwd"), None);
        assert_eq!(inside(root, "a/./b"), Some(PathBuf::from("/r/a/b")));
        assert_eq!(inside(root, ""), None);
    }

    #[test]
    fn an_edit_is_reversed_only_where_it_is_unambiguous() {
        let payload = |old: &str, new: &str, all: bool| {
            serde_json::json!({"tool_input": {"old_string": old, "new_string": new, "replace_all": all}})
                .to_string()
        };
        assert_eq!(
            reverse_edits(&payload("a", "bb", false), b"x bb y"),
            Some(b"x a y".to_vec())
        );
        assert_eq!(reverse_edits(&payload("a", "bb", false), b"bb bb"), None);
        assert_eq!(reverse_edits(&payload("a", "bb", true), b"x bb y"), None);
        assert_eq!(reverse_edits(&payload("a", "bb", false), b"nothing"), None);
        assert_eq!(reverse_edits(&payload("a", "", false), b"x"), None);
    }

    #[test]
    fn a_multiedit_is_reversed_last_edit_first() {
        // "one two" → (one→1) "1 two" → (1 two→1 2) "1 2".
        let payload = serde_json::json!({"tool_input": {"edits": [
            {"old_string": "one", "new_string": "1"},
            {"old_string": "1 two", "new_string": "1 2"},
        ]}})
        .to_string();
        assert_eq!(reverse_edits(&payload, b"1 2"), Some(b"one two".to_vec()));
        // Undone first-edit-first it would not be found: the order matters.
        let ambiguous = serde_json::json!({"tool_input": {"edits": [
            {"old_string": "a", "new_string": "b"},
        ]}})
        .to_string();
        assert_eq!(reverse_edits(&ambiguous, b"b b"), None);
    }
}
