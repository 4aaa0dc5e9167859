//! Looking back from one mutation: the row itself, the other files its
//! event changed (a Bash command can change several), and the newest earlier
//! Write of its file, which tells what the file held before.

use rusqlite::{OptionalExtension, params};

use super::{Ledger, MUTATION_COLUMNS, row_to_mutation};
use crate::record::MutationRow;
use crate::{Error, Result};

/// An earlier Write of a file and what it wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct PreviousWrite {
    /// The Write's row.
    pub row: MutationRow,
    /// The content it wrote (`tool_input.content` of its payload).
    pub content: String,
}

/// Earlier Writes tried before giving up on finding one with readable content.
const MAX_WRITES_TRIED: usize = 50;

impl Ledger {
    /// The mutation with row id `id`, if there is one.
    pub fn mutation(&self, id: i64) -> Result<Option<MutationRow>> {
        let sqlite = |e| Error::sqlite(self.path(), e);
        self.connection()
            .query_row(
                &format!("SELECT {MUTATION_COLUMNS} FROM mutations WHERE id = ?1"),
                [id],
                row_to_mutation,
            )
            .optional()
            .map_err(sqlite)
    }

    /// Every mutation of one hook event (all the files one Bash command
    /// changed), in `mutation_seq` order.
    pub fn event_mutations(&self, event_id: &str) -> Result<Vec<MutationRow>> {
        let sqlite = |e| Error::sqlite(self.path(), e);
        let mut stmt = self
            .connection()
            .prepare(&format!(
                "SELECT {MUTATION_COLUMNS} FROM mutations WHERE event_id = ?1 ORDER BY mutation_seq, id"
            ))
            .map_err(sqlite)?;
        let rows = stmt
            .query_map([event_id], row_to_mutation)
            .map_err(sqlite)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(sqlite)
    }

    /// The newest Write of `row`'s file before `row` (in timeline order:
    /// timestamp, then id) whose payload holds the written content.
    pub fn previous_write(&self, row: &MutationRow) -> Result<Option<PreviousWrite>> {
        let Some(file) = row.record.file_path.as_deref() else {
            return Ok(None);
        };
        let sqlite = |e| Error::sqlite(self.path(), e);
        let mut stmt = self
            .connection()
            .prepare(&format!(
                "SELECT {MUTATION_COLUMNS} FROM mutations \
                 WHERE file_path = ?1 AND tool_name = 'Write' COLLATE NOCASE \
                 AND (event_timestamp < ?2 OR (event_timestamp = ?2 AND id < ?3)) \
                 ORDER BY event_timestamp DESC, id DESC LIMIT {MAX_WRITES_TRIED}"
            ))
            .map_err(sqlite)?;
        let mut rows = stmt
            .query_map(
                params![file, row.record.event_timestamp, row.id],
                row_to_mutation,
            )
            .map_err(sqlite)?;
        // A payload the emitter could not parse has no content: look further back.
        rows.find_map(|found| match found {
            Ok(found) => written_content(&found.record.raw_payload).map(|content| {
                Ok(PreviousWrite {
                    row: found,
                    content,
                })
            }),
            Err(e) => Some(Err(sqlite(e))),
        })
        .transpose()
    }

    /// Number of mutations of `row`'s file after `after` (exclusive; from the
    /// start when `None`) and before `row`, in timeline order; with
    /// `head_sha`, only those recorded at that commit.
    pub fn file_changes_between(
        &self,
        after: Option<&MutationRow>,
        row: &MutationRow,
        head_sha: Option<&str>,
    ) -> Result<u64> {
        let Some(file) = row.record.file_path.as_deref() else {
            return Ok(0);
        };
        let sqlite = |e| Error::sqlite(self.path(), e);
        let (after_ts, after_id) = after.map_or((String::new(), 0), |a| {
            (a.record.event_timestamp.clone(), a.id)
        });
        let count: i64 = self
            .connection()
            .query_row(
                "SELECT COUNT(*) FROM mutations WHERE file_path = ?1 \
                 AND (event_timestamp > ?2 OR (event_timestamp = ?2 AND id > ?3)) \
                 AND (event_timestamp < ?4 OR (event_timestamp = ?4 AND id < ?5)) \
                 AND (?6 IS NULL OR head_sha = ?6)",
                params![
                    file,
                    after_ts,
                    after_id,
                    row.record.event_timestamp,
                    row.id,
                    head_sha
                ],
                |r| r.get(0),
            )
            .map_err(sqlite)?;
        Ok(u64::try_from(count).unwrap_or(0))
    }
}

/// `tool_input.content` of a Write payload.
pub(crate) fn written_content(raw_payload: &str) -> Option<String> {
    let payload: serde_json::Value = serde_json::from_str(raw_payload).ok()?;
    payload
        .get("tool_input")?
        .get("content")?
        .as_str()
        .map(str::to_owned)
}
