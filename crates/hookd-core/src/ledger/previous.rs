//! What a file held before a Write replaced it, so the timeline can show a
//! Write as a diff instead of a wall of added lines.
//!
//! A Write carries only the new content. The previous content is the newest
//! earlier Write of the same file in the ledger (exact, since a Write
//! replaces the whole file); without one, the file as committed at the
//! HEAD the Write was recorded at (read with git2, the work tree may have
//! moved on); without either, nothing is known and the Write is all new.
//! Edits or Bash changes recorded in between are counted, not replayed, so
//! the caller can say the diff includes them.

use std::path::Path;

use git2::{Oid, Repository};
use serde::Serialize;

use crate::Result;
use crate::ledger::Ledger;
use crate::record::MutationRow;

/// Largest previous content returned; a bigger file is named but not sent.
pub const MAX_PREVIOUS_BYTES: usize = 8 * 1024 * 1024;

/// Where the previous content came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PreviousSource {
    /// An earlier Write of the file recorded in the ledger.
    Write {
        /// Its row id.
        id: i64,
        /// Its hook event.
        event_id: String,
        /// When it happened.
        event_timestamp: String,
        /// Who wrote it.
        agent_id: String,
    },
    /// The file as committed at the HEAD recorded with the Write.
    Git {
        /// That commit.
        sha: String,
    },
    /// The file as the agent reported it with the Write (Claude Code's
    /// `tool_response.originalFile`): what the row's LINES were counted
    /// against when it was recorded.
    Reported,
    /// The file as the daemon read it when the Write's `PreToolUse`
    /// arrived, from the content store (`existed`: false when there was no
    /// file): exactly what the Write replaced.
    Kept {
        /// Whether there was a file.
        existed: bool,
    },
    /// Nothing earlier is known: a new file, or no ledger or git history of it.
    None,
}

/// The content a Write replaced, as far as hookd knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PreviousContent {
    /// Where it came from.
    pub source: PreviousSource,
    /// The text; `None` with source `none`, or when it is binary or too large (see `note`).
    pub content: Option<String>,
    /// Other mutations of the file recorded between the source and the
    /// Write; their changes are part of the diff.
    pub changes_between: u64,
    /// Why a known source has no content (binary, too large).
    pub note: Option<String>,
}

/// The content `row`'s file had before `row`, from `ledger` and, inside a
/// repository, from git at `git_root`.
///
/// Git failures (a pruned commit, a file that was not committed, a path
/// outside the repository) mean "not known", never an error: only the
/// ledger's own failures are.
pub fn previous_content(
    ledger: &Ledger,
    git_root: Option<&Path>,
    row: &MutationRow,
) -> Result<PreviousContent> {
    if let Some(write) = ledger.previous_write(row)? {
        let changes_between = ledger.file_changes_between(Some(&write.row), row, None)?;
        let (content, note) = capped(write.content.into_bytes());
        return Ok(PreviousContent {
            source: PreviousSource::Write {
                id: write.row.id,
                event_id: write.row.record.event_id,
                event_timestamp: write.row.record.event_timestamp,
                agent_id: write.row.record.agent_id,
            },
            content,
            changes_between,
            note,
        });
    }
    let sha = row.record.head_sha.as_str();
    if let (Some(root), Some(file)) = (git_root, row.record.file_path.as_deref())
        && let Some(bytes) = committed_file(root, sha, file)
    {
        let changes_between = ledger.file_changes_between(None, row, Some(sha))?;
        let (content, note) = capped(bytes);
        return Ok(PreviousContent {
            source: PreviousSource::Git {
                sha: sha.to_owned(),
            },
            content,
            changes_between,
            note,
        });
    }
    Ok(PreviousContent {
        source: PreviousSource::None,
        content: None,
        changes_between: 0,
        note: None,
    })
}

/// The bytes of `file` (relative to `root`) in commit `sha`, if it was committed there.
pub fn committed_file(root: &Path, sha: &str, file: &str) -> Option<Vec<u8>> {
    let path = Path::new(file);
    if sha.is_empty() || path.is_absolute() {
        return None;
    }
    let repo = Repository::open(root).ok()?;
    let commit = repo.find_commit(Oid::from_str(sha).ok()?).ok()?;
    let entry = commit.tree().ok()?.get_path(path).ok()?;
    let blob = entry.to_object(&repo).ok()?.peel_to_blob().ok()?;
    Some(blob.content().to_vec())
}

/// Text within [`MAX_PREVIOUS_BYTES`], or why not.
fn capped(bytes: Vec<u8>) -> (Option<String>, Option<String>) {
    if bytes.len() > MAX_PREVIOUS_BYTES {
        let note = format!(
            "the previous content is {} bytes, more than the {} shown",
            bytes.len(),
            MAX_PREVIOUS_BYTES
        );
        return (None, Some(note));
    }
    match String::from_utf8(bytes) {
        Ok(text) => (Some(text), None),
        Err(_) => (
            None,
            Some("the previous content is not UTF-8 text".to_owned()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use git2::Signature;
    use serde_json::json;

    use super::*;
    use crate::record::{HookEvent, LedgerEntry, RepoFacts};

    /// A real repository with `src/a.txt` committed; returns its HEAD.
    fn repo_with_file(dir: &Path) -> String {
        let repo = Repository::init(dir).unwrap();
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/a.txt"), "committed\nline two\n").unwrap();
        let mut index = repo.index().unwrap();
        index
            .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
            .unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = Signature::now("t", "t@hookd.invalid").unwrap();
        repo.commit(Some("HEAD"), &sig, &sig, "init", &tree, &[])
            .unwrap()
            .to_string()
    }

    /// One post_tool_use event of `tool` on `file`, recorded at `head`.
    fn entry(
        id: &str,
        ts: &str,
        tool: &str,
        file: &str,
        input: &serde_json::Value,
        head: &str,
    ) -> LedgerEntry {
        let payload = json!({"tool_name": tool, "tool_input": input});
        let event = HookEvent {
            event_id: id.into(),
            hook_type: "post_tool_use".into(),
            tool_name: Some(tool.into()),
            agent_id: format!("agent-{id}"),
            session_id: Some("s".into()),
            tool_use_id: Some(format!("tu-{id}")),
            cwd: None,
            file_path: Some(PathBuf::from(file)),
            lines_changed: Some(1),
            lines_added: None,
            lines_removed: None,
            command: None,
            payload_valid: true,
            raw_payload: payload.to_string(),
            event_timestamp: ts.into(),
            received_at: ts.into(),
            source_pid: None,
            flags: Vec::new(),
            agent_kind: crate::record::claude(),
        };
        let repo = RepoFacts {
            git_root: None,
            branch: "main".into(),
            head_sha: head.into(),
            remote_url: None,
        };
        let mutation = crate::record::MutationRecord::for_event(
            &event,
            &repo,
            tool,
            0,
            Some(file.into()),
            Some(1),
        );
        LedgerEntry {
            event,
            repo,
            mutations: vec![mutation],
        }
    }

    fn write(id: &str, ts: &str, content: &str, head: &str) -> LedgerEntry {
        entry(
            id,
            ts,
            "Write",
            "src/a.txt",
            &json!({"file_path": "src/a.txt", "content": content}),
            head,
        )
    }

    fn edit(id: &str, ts: &str, head: &str) -> LedgerEntry {
        entry(
            id,
            ts,
            "Edit",
            "src/a.txt",
            &json!({"file_path": "src/a.txt", "old_string": "a", "new_string": "b"}),
            head,
        )
    }

    fn row(ledger: &Ledger, event_id: &str) -> MutationRow {
        ledger
            .mutations(&crate::ledger::MutationFilter::default())
            .unwrap()
            .into_iter()
            .find(|r| r.record.event_id == event_id)
            .unwrap()
    }

    #[test]
    fn the_newest_earlier_write_wins_then_git_then_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let head = repo_with_file(dir.path());
        let mut ledger = Ledger::in_memory().unwrap();
        ledger
            .append(&[
                write("w1", "2026-01-01T00:00:00.000Z", "first\n", &head),
                edit("e1", "2026-01-01T00:01:00.000Z", &head),
                write("w2", "2026-01-01T00:02:00.000Z", "second\n", &head),
                edit("e2", "2026-01-01T00:03:00.000Z", &head),
                edit("e3", "2026-01-01T00:04:00.000Z", &head),
                write("w3", "2026-01-01T00:05:00.000Z", "third\n", &head),
            ])
            .unwrap();

        let third = previous_content(&ledger, Some(dir.path()), &row(&ledger, "w3")).unwrap();
        assert_eq!(third.content.as_deref(), Some("second\n"));
        assert_eq!(third.changes_between, 2, "two Edits between the Writes");
        match &third.source {
            PreviousSource::Write {
                event_id, agent_id, ..
            } => {
                assert_eq!(event_id, "w2");
                assert_eq!(agent_id, "agent-w2");
            }
            other => panic!("expected the Write w2, got {other:?}"),
        }

        // The first Write has no earlier one: the file as committed at its HEAD.
        let first = previous_content(&ledger, Some(dir.path()), &row(&ledger, "w1")).unwrap();
        assert_eq!(first.source, PreviousSource::Git { sha: head });
        assert_eq!(first.content.as_deref(), Some("committed\nline two\n"));
        assert_eq!(first.changes_between, 0);

        // Outside git (or without a repository) nothing earlier is known.
        let none = previous_content(&ledger, None, &row(&ledger, "w1")).unwrap();
        assert_eq!(none.source, PreviousSource::None);
        assert_eq!(none.content, None);
    }

    #[test]
    fn git_lookups_fail_soft() {
        let dir = tempfile::tempdir().unwrap();
        let head = repo_with_file(dir.path());
        assert_eq!(
            committed_file(dir.path(), &head, "src/a.txt").as_deref(),
            Some(&b"committed\nline two\n"[..])
        );
        assert_eq!(
            committed_file(dir.path(), &head, "src/new.txt"),
            None,
            "not committed"
        );
        assert_eq!(
            committed_file(dir.path(), "", "src/a.txt"),
            None,
            "no commit yet"
        );
        assert_eq!(
            committed_file(dir.path(), &"0".repeat(40), "src/a.txt"),
            None,
            "unknown commit"
        );
        assert_eq!(committed_file(dir.path(), &head, "/abs/a.txt"), None);

        // A new file: no earlier Write, not in git.
        let mut ledger = Ledger::in_memory().unwrap();
        ledger
            .append(&[entry(
                "n",
                "2026-01-01T00:00:00.000Z",
                "Write",
                "src/new.txt",
                &json!({"file_path": "src/new.txt", "content": "x\n"}),
                &head,
            )])
            .unwrap();
        let new = previous_content(&ledger, Some(dir.path()), &row(&ledger, "n")).unwrap();
        assert_eq!(new.source, PreviousSource::None);
    }

    #[test]
    fn edits_at_the_same_head_before_a_first_write_are_counted() {
        let dir = tempfile::tempdir().unwrap();
        let head = repo_with_file(dir.path());
        let mut ledger = Ledger::in_memory().unwrap();
        ledger
            .append(&[
                edit(
                    "old",
                    "2026-01-01T00:00:00.000Z",
                    "0000000000000000000000000000000000000000",
                ),
                edit("e1", "2026-01-01T00:01:00.000Z", &head),
                write("w", "2026-01-01T00:02:00.000Z", "new\n", &head),
            ])
            .unwrap();
        let prev = previous_content(&ledger, Some(dir.path()), &row(&ledger, "w")).unwrap();
        assert_eq!(prev.source, PreviousSource::Git { sha: head });
        assert_eq!(
            prev.changes_between, 1,
            "only the Edit made since that commit"
        );
    }

    #[test]
    fn binary_previous_content_is_named_not_sent() {
        assert_eq!(capped(b"ok".to_vec()), (Some("ok".to_owned()), None));
        let (content, note) = capped(vec![0xff, 0xfe]);
        assert_eq!(content, None);
        assert!(note.unwrap().contains("UTF-8"));
    }
}
