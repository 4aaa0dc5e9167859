//! The diff one mutation row shows, computed here with the rule its stored
//! counts were computed with ([`crate::diff`]), so the desktop app renders
//! the backend's diff lines instead of diffing a second time.
//!
//! An Edit, MultiEdit or NotebookEdit is diffed from its payload alone, and
//! its diff's counts are the row's `lines_added` and `lines_removed`. A
//! Write whose payload reports the file as it was (Claude Code's
//! `tool_response.originalFile`) is diffed against that, as its counts were
//! when it was recorded. A Write whose *before* the daemon kept (it read the
//! file at the `PreToolUse`, [`crate::daemon::capture`]) is diffed against
//! exactly that. Any other Write is diffed against its previous
//! content from the ledger or git ([`super::previous`]), which the daemon
//! does not look up when it records the Write: its stored counts are then
//! against no earlier content (every line added), and the diff says what
//! it was compared with.
//!
//! A file a shell command changed (a Bash row) is diffed whole, from the
//! content the daemon kept before the command to the one after it
//! ([`kept_text`]); its stored counts were counted the same way when it
//! was recorded.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::Result;
use crate::diff::{self, ChangeDiff, ChangeKind, LineCounts};
use crate::ledger::Ledger;
use crate::ledger::content_store::{ContentHash, ContentStore};
use crate::ledger::previous::{PreviousContent, PreviousSource, previous_content};
use crate::record::{ContentRef, MutationRow};

/// What the row detail shows of a mutation's change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MutationDiff {
    /// The diff; `None` when the payload holds no file text (Bash, an
    /// oversized payload's stand-in, a payload that is not JSON).
    pub change: Option<ChangeDiff>,
    /// For a Write: what it was compared with, its `content` left out (the
    /// diff holds it).
    pub previous: Option<PreviousContent>,
    /// The counts stored with the row (what the LINES column shows); `None`
    /// for a row recorded before hookd counted them, or with nothing to count.
    pub recorded: Option<LineCounts>,
}

/// A payload's JSON text, when it is JSON with a tool input.
fn with_tool_input(raw_payload: &str) -> Option<Value> {
    let payload: Value = serde_json::from_str(raw_payload).ok()?;
    payload.get("tool_input").is_some().then_some(payload)
}

/// The diff of the tool input in a hook payload's JSON text (any hook
/// event; a Write against the content the payload reports, else against
/// none): what the activity detail shows of a tool call.
pub fn payload_diff(raw_payload: &str) -> Option<ChangeDiff> {
    let payload = with_tool_input(raw_payload)?;
    diff::tool_input_diff(&payload["tool_input"], diff::reported_previous(&payload))
}

/// The diff of `row` (read whole, payload included), a Write's against
/// its previous content from `ledger` and, inside a repository, from git
/// at `git_root`.
pub fn mutation_diff(
    ledger: &Ledger,
    git_root: Option<&Path>,
    row: &MutationRow,
) -> Result<MutationDiff> {
    let recorded = match (row.record.lines_added, row.record.lines_removed) {
        (Some(added), Some(removed)) => Some(LineCounts {
            added: u32::try_from(added).unwrap_or(u32::MAX),
            removed: u32::try_from(removed).unwrap_or(u32::MAX),
        }),
        _ => None,
    };
    // A command's or a patch's change: its kept contents are the diff.
    if hookd_proto::snapshot::is_repository_tool(&row.record.tool_name) {
        return Ok(MutationDiff {
            change: shell_diff(ledger, row),
            previous: None,
            recorded,
        });
    }
    let Some(payload) = with_tool_input(&row.record.raw_payload) else {
        // An input not in Claude Code's fields (GitHub Copilot's `toolArgs`):
        // the contents kept around the call are the diff, as a command's.
        return Ok(MutationDiff {
            change: shell_diff(ledger, row),
            previous: None,
            recorded,
        });
    };
    let input = &payload["tool_input"];
    let mut previous = match (diff::change_kind(input), diff::reported_previous(&payload)) {
        (Some(ChangeKind::Write), Some(reported)) => Some(PreviousContent {
            source: PreviousSource::Reported,
            content: Some(reported.to_owned()),
            changes_between: 0,
            note: None,
        }),
        (Some(ChangeKind::Write), None) => Some(match kept_before(ledger, row) {
            Some(kept) => kept,
            None => previous_content(ledger, git_root, row)?,
        }),
        _ => None,
    };
    let change = diff::tool_input_diff(input, previous.as_ref().and_then(|p| p.content.as_deref()))
        .or_else(|| shell_diff(ledger, row));
    if let Some(p) = previous.as_mut() {
        p.content = None;
    }
    Ok(MutationDiff {
        change,
        previous,
        recorded,
    })
}

/// The text a content reference names: `Some(None)` for no file, `None`
/// when it was not kept, cannot be read back or is not UTF-8 text.
pub fn kept_text(store: &ContentStore, content: &ContentRef) -> Option<Option<String>> {
    match content {
        ContentRef::Absent => Some(None),
        ContentRef::Kept { hash, .. } => {
            let bytes = store.get(&ContentHash::parse(hash).ok()?).ok()?;
            String::from_utf8(bytes).ok().map(Some)
        }
        ContentRef::TooLarge { .. } | ContentRef::Unknown { .. } => None,
    }
}

/// A Bash row's whole-file diff, when both of its contents are known text.
fn shell_diff(ledger: &Ledger, row: &MutationRow) -> Option<ChangeDiff> {
    let (before, after) = (row.record.before.as_ref()?, row.record.after.as_ref()?);
    let (before, after) = ledger.with_content_store(|store| {
        Some((kept_text(store, before)?, kept_text(store, after)?))
    })??;
    Some(diff::whole_file_diff(before.as_deref(), after.as_deref()))
}

/// What the row's file held before it, as the content store keeps it
/// (the daemon read it at the Write's `PreToolUse`); `None` when it was not
/// kept, cannot be read back or is not text.
fn kept_before(ledger: &Ledger, row: &MutationRow) -> Option<PreviousContent> {
    let before = row.record.before.as_ref()?;
    let content = match before {
        ContentRef::Absent => None,
        _ => ledger.with_content_store(|store| kept_text(store, before))??,
    };
    let existed = content.is_some();
    Some(PreviousContent {
        source: PreviousSource::Kept { existed },
        content,
        changes_between: 0,
        note: None,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::daemon::extract::{direct_mutation, hook_event};
    use crate::record::{LedgerEntry, MutationRecord, RepoFacts};

    /// Records a post_tool_use of `tool` with `input` the way the daemon
    /// does (extract, then append) and reads its row back whole.
    fn record(ledger: &mut Ledger, id: &str, tool: &str, input: &serde_json::Value) -> MutationRow {
        record_payload(
            ledger,
            id,
            tool,
            json!({"tool_name": tool, "session_id": "s", "tool_input": input}),
        )
    }

    /// The entry the daemon builds for a post_tool_use of `tool` with
    /// the whole hook `payload` (extract, place).
    fn entry(id: &str, tool: &str, payload: serde_json::Value) -> LedgerEntry {
        let envelope = crate::Envelope::new(
            "post_tool_use",
            Some(tool.into()),
            payload,
            "2026-11-21T10:00:00.000Z",
            None,
        );
        let event = hook_event(
            &envelope,
            id.into(),
            envelope.timestamp.clone(),
            "now".into(),
        );
        let repo = RepoFacts {
            git_root: None,
            branch: "main".into(),
            head_sha: String::new(),
            remote_url: None,
        };
        let mutations = direct_mutation(&event, &repo).into_iter().collect();
        LedgerEntry {
            event,
            repo,
            mutations,
        }
    }

    /// Appends `entry` and reads its mutation back whole.
    fn append(ledger: &mut Ledger, entry: LedgerEntry) -> MutationRow {
        let id = entry.event.event_id.clone();
        ledger.append(&[entry]).unwrap();
        let rows = ledger.event_mutations(&id).unwrap();
        ledger.mutation(rows[0].id).unwrap().unwrap()
    }

    /// [`record`] with the whole hook payload given.
    fn record_payload(
        ledger: &mut Ledger,
        id: &str,
        tool: &str,
        payload: serde_json::Value,
    ) -> MutationRow {
        append(ledger, entry(id, tool, payload))
    }

    #[test]
    fn a_file_a_shell_command_changed_is_diffed_whole_from_its_kept_contents() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join(".hookd");
        let mut ledger = Ledger::open_or_create(&state.join("mutations.db")).unwrap();
        let store = ContentStore::open(&state).unwrap();
        let keep = |text: &str| crate::daemon::capture::keep(&store, text.as_bytes());
        let mut bash = entry(
            "b",
            "Bash",
            json!({"tool_name": "Bash", "session_id": "s", "tool_input": {"command": "sed -i s/2/two/ a.txt; rm c.txt"}}),
        );
        let event = bash.event.clone();
        let repo = bash.repo.clone();
        let row = |seq, path: &str, before, after| {
            let mut m =
                MutationRecord::for_event(&event, &repo, "Bash", seq, Some(path.into()), None);
            m.before = Some(before);
            m.after = Some(after);
            m
        };
        bash.mutations = vec![
            row(0, "a.txt", keep("1\n2\n3\n"), keep("1\ntwo\n3\n")),
            row(1, "c.txt", keep("gone\n"), ContentRef::Absent),
            row(
                2,
                "big.bin",
                ContentRef::TooLarge { size: 1 << 30 },
                ContentRef::Absent,
            ),
        ];
        ledger.append(&[bash]).unwrap();
        let rows = ledger.event_mutations("b").unwrap();
        let shown: Vec<Option<(ChangeKind, u32, u32)>> = rows
            .iter()
            .map(|r| {
                let whole = ledger.mutation(r.id).unwrap().unwrap();
                mutation_diff(&ledger, None, &whole)
                    .unwrap()
                    .change
                    .map(|c| (c.kind, c.counts.added, c.counts.removed))
            })
            .collect();
        assert_eq!(
            shown,
            [
                Some((ChangeKind::Shell, 1, 1)),
                Some((ChangeKind::Shell, 0, 1)),
                None
            ],
            "a file too large to keep has no diff"
        );
    }

    #[test]
    fn a_file_tool_whose_input_is_not_claudes_is_diffed_from_its_kept_contents() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join(".hookd");
        let mut ledger = Ledger::open_or_create(&state.join("mutations.db")).unwrap();
        let store = ContentStore::open(&state).unwrap();
        let keep = |text: &str| crate::daemon::capture::keep(&store, text.as_bytes());
        // GitHub Copilot's edit: `toolArgs`, no `tool_input`.
        let mut edit = entry(
            "c",
            "Edit",
            json!({"sessionId": "s", "toolName": "edit", "toolArgs": "{\"path\": \"a.txt\"}"}),
        );
        let mut m = MutationRecord::for_event(
            &edit.event,
            &edit.repo,
            "Edit",
            0,
            Some("a.txt".into()),
            None,
        );
        m.before = Some(keep("1\n2\n3\n"));
        m.after = Some(keep("1\ntwo\n3\n4\n"));
        edit.mutations = vec![m];
        ledger.append(&[edit]).unwrap();
        let id = ledger.event_mutations("c").unwrap()[0].id;
        let whole = ledger.mutation(id).unwrap().unwrap();
        let change = mutation_diff(&ledger, None, &whole)
            .unwrap()
            .change
            .unwrap();
        assert_eq!((change.counts.added, change.counts.removed), (2, 1));
    }

    #[test]
    fn a_write_whose_before_was_kept_is_diffed_against_exactly_that() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join(".hookd");
        let mut ledger = Ledger::open_or_create(&state.join("mutations.db")).unwrap();
        let store = ContentStore::open(&state).unwrap();
        let input = json!({"file_path": "/x/a.txt", "content": "kept\nnew\n"});
        let mut write = entry(
            "w",
            "Write",
            json!({"tool_name": "Write", "session_id": "s", "tool_input": input}),
        );
        write.mutations[0].before = Some(crate::daemon::capture::keep(&store, b"kept\nold\n"));
        let row = append(&mut ledger, write);

        let shown = mutation_diff(&ledger, None, &row).unwrap();
        let previous = shown.previous.unwrap();
        assert_eq!(previous.source, PreviousSource::Kept { existed: true });
        let counts = shown.change.unwrap().counts;
        assert_eq!(
            (counts.added, counts.removed),
            (1, 1),
            "only the changed line"
        );
    }

    #[test]
    fn the_diff_shown_and_the_counts_stored_agree() {
        let mut ledger = Ledger::in_memory().unwrap();
        let cases = [
            (
                "Edit",
                json!({"file_path": "/x/a.rs", "old_string": "a = 1", "new_string": "a = 2"}),
                (1, 1),
            ),
            (
                "Write",
                json!({"file_path": "/x/n.txt", "content": "1\n2\n3\n"}),
                (3, 0),
            ),
            (
                "MultiEdit",
                json!({"file_path": "/x/a.rs", "edits": [
                    {"old_string": "a\nb", "new_string": "a\nc"},
                    {"old_string": "d", "new_string": "d\ne\nf", "replace_all": true},
                ]}),
                (3, 1),
            ),
            (
                "NotebookEdit",
                json!({"notebook_path": "/x/n.ipynb", "new_source": "p\nq"}),
                (2, 0),
            ),
        ];
        for (i, (tool, input, (added, removed))) in cases.into_iter().enumerate() {
            let row = record(&mut ledger, &format!("e{i}"), tool, &input);
            let shown = mutation_diff(&ledger, None, &row).unwrap();
            let change = shown.change.unwrap();
            let lines = change.lines_shown();
            assert_eq!(
                lines,
                LineCounts { added, removed },
                "{tool}: the lines shown"
            );
            assert_eq!(shown.recorded, Some(lines), "{tool}: the counts stored");
            assert_eq!(
                (row.record.lines_added, row.record.lines_removed),
                (Some(added.into()), Some(removed.into()))
            );
        }
    }

    #[test]
    fn a_write_is_shown_against_the_previous_write_and_says_so() {
        let mut ledger = Ledger::in_memory().unwrap();
        record(
            &mut ledger,
            "w1",
            "Write",
            &json!({"file_path": "/x/f.txt", "content": "a\nb\nc\n"}),
        );
        let second = record(
            &mut ledger,
            "w2",
            "Write",
            &json!({"file_path": "/x/f.txt", "content": "a\nB\nc\n"}),
        );
        let shown = mutation_diff(&ledger, None, &second).unwrap();
        let change = shown.change.unwrap();
        assert_eq!(change.kind, ChangeKind::Write);
        assert_eq!(
            change.counts,
            LineCounts {
                added: 1,
                removed: 1
            }
        );
        let previous = shown.previous.unwrap();
        assert!(matches!(
            previous.source,
            crate::ledger::previous::PreviousSource::Write { .. }
        ));
        assert_eq!(previous.content, None, "the diff holds it");
        // Recorded without the previous content: every line added.
        assert_eq!(
            shown.recorded,
            Some(LineCounts {
                added: 3,
                removed: 0
            })
        );
    }

    #[test]
    fn a_write_that_reports_the_file_before_it_is_counted_and_shown_against_that() {
        let mut ledger = Ledger::in_memory().unwrap();
        let row = record_payload(
            &mut ledger,
            "w",
            "Write",
            json!({"tool_name": "Write", "session_id": "s",
                   "tool_input": {"file_path": "/x/f.txt", "content": "a\nB\nc\nd\n"},
                   "tool_response": {"type": "update", "filePath": "/x/f.txt",
                                     "originalFile": "a\nb\nc\n"}}),
        );
        let want = LineCounts {
            added: 2,
            removed: 1,
        };
        assert_eq!(
            (row.record.lines_added, row.record.lines_removed),
            (Some(2), Some(1)),
            "counted against the reported content when recorded"
        );
        let shown = mutation_diff(&ledger, None, &row).unwrap();
        let change = shown.change.unwrap();
        let lines = change.lines_shown();
        assert_eq!(
            (lines, change.counts, shown.recorded),
            (want, want, Some(want))
        );
        assert_eq!(shown.previous.unwrap().source, PreviousSource::Reported);
        assert_eq!(
            payload_diff(&row.record.raw_payload).map(|d| d.counts),
            Some(want)
        );
    }

    #[test]
    fn rows_without_file_text_have_no_diff() {
        let mut ledger = Ledger::in_memory().unwrap();
        let bash = record(&mut ledger, "b", "Write", &json!({"file_path": "/x/big"}));
        let shown = mutation_diff(&ledger, None, &bash).unwrap();
        assert_eq!(
            (shown.change, shown.previous, shown.recorded),
            (None, None, None)
        );
        assert_eq!(payload_diff("not json"), None);
        assert_eq!(
            payload_diff(r#"{"tool_input": {"old_string": "a", "new_string": "b"}}"#)
                .map(|d| d.counts),
            Some(LineCounts {
                added: 1,
                removed: 1
            })
        );
    }
}
