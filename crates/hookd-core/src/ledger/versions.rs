//! The recorded changes a rewind works from: mutation rows with what each
//! file held before and after ([`crate::record::ContentRef`]), picked by
//! tool call, session, agent, time or file.
//!
//! Every selection reads rows through an index (a call's through
//! `mutations_tool_use_id`, a session's through the events' session index,
//! a file's through `mutations_file_path`, a time's through the timestamp
//! index), so the cost follows what is rewound, not the ledger's size; an
//! agent's whole history is as long as that agent's rows.

use rusqlite::{Connection, OptionalExtension as _, params_from_iter, types::Value};

use crate::record::ContentRef;
use crate::{Error, Result};

/// One recorded change of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedChange {
    /// The mutation row's id (rows are appended in arrival order).
    pub id: i64,
    /// The event it came from.
    pub event_id: String,
    /// The file, as stored: relative to the repository's root when inside it.
    pub file_path: String,
    /// The tool that made it (`Edit`, `Bash`, `hookd.rewind`).
    pub tool_name: String,
    /// Its tool call.
    pub tool_use_id: Option<String>,
    /// Its session.
    pub session_id: Option<String>,
    /// Who made it.
    pub agent_id: String,
    /// When.
    pub event_timestamp: String,
    /// The file before the change; `None` on rows recorded before hookd
    /// kept contents.
    pub before: Option<ContentRef>,
    /// The file after the change, as `before`.
    pub after: Option<ContentRef>,
    /// The hook payload (an Edit's `old_string` and `new_string` give back
    /// a before that was not seen).
    pub raw_payload: String,
}

/// Which recorded changes to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// One tool call's (`tool_use_id`).
    Call(String),
    /// One session's.
    Session(String),
    /// Everything one agent did.
    Agent(String),
    /// Everything at or after a time (the stored timestamp format).
    Since(String),
    /// Every change of one file (stored path), oldest first.
    File(String),
    /// One prompt's: the changes of its session recorded after its
    /// `UserPromptSubmit` event and before the session's next one.
    Prompt(String),
    /// The prompt an event belongs to (by its `event_id`): the last
    /// `UserPromptSubmit` of its session recorded before it.
    PromptOf(String),
}

use crate::ledger::prompts::PROMPT_HOOK;

/// Where one prompt's events lie: its session and the event row ids
/// between which its events were recorded.
struct PromptRange {
    session: String,
    start: i64,
    end: i64,
}

/// The prompt `id`: a `UserPromptSubmit` event's `event_id` (found through
/// its unique index), else the `prompt_id` its payload carries (read from
/// the prompts' events only).
fn prompt_range(conn: &Connection, id: &str) -> Result<Option<PromptRange>> {
    let path = conn.path().unwrap_or(":memory:").to_owned();
    let sqlite = |e| Error::sqlite(&path, e);
    let found = conn
        .query_row(
            "SELECT id, session_id FROM events WHERE event_id = ?1 AND hook_type = ?2 \
             UNION ALL \
             SELECT id, session_id FROM events WHERE hook_type = ?2 \
               AND json_valid(raw_payload) AND json_extract(raw_payload, '$.prompt_id') = ?1 \
             LIMIT 1",
            [id, PROMPT_HOOK],
            |row| Ok((row.get::<_, i64>(0)?, row.get::<_, Option<String>>(1)?)),
        )
        .optional()
        .map_err(sqlite)?;
    let Some((start, Some(session))) = found else {
        return Ok(None);
    };
    let end: Option<i64> = conn
        .query_row(
            "SELECT min(id) FROM events WHERE session_id = ?1 AND hook_type = ?2 AND id > ?3",
            rusqlite::params![session, PROMPT_HOOK, start],
            |row| row.get(0),
        )
        .map_err(sqlite)?;
    Ok(Some(PromptRange {
        session,
        start,
        end: end.unwrap_or(i64::MAX),
    }))
}

const COLUMNS: &str = concat!(
    "id, event_id, file_path, tool_name, tool_use_id, session_id, agent_id, \
     event_timestamp, before_content, after_content, ",
    crate::ledger::mutation_payload!()
);

/// The changes of `selection` with a file, oldest first.
pub fn changes(conn: &Connection, selection: &Selection) -> Result<Vec<RecordedChange>> {
    if let Selection::PromptOf(event_id) = selection {
        return match prompt_of(conn, event_id)? {
            Some(prompt) => changes(conn, &Selection::Prompt(prompt)),
            None => Ok(Vec::new()),
        };
    }
    if let Selection::Prompt(id) = selection {
        let Some(range) = prompt_range(conn, id)? else {
            return Ok(Vec::new());
        };
        return read(
            conn,
            &format!(
                "SELECT {COLUMNS} FROM mutations WHERE event_id IN \
                 (SELECT event_id FROM events WHERE session_id = ?1 AND id > ?2 AND id < ?3) \
                 AND file_path IS NOT NULL ORDER BY id"
            ),
            vec![
                Value::Text(range.session),
                Value::Integer(range.start),
                Value::Integer(range.end),
            ],
        );
    }
    let (condition, value) = match selection {
        Selection::Prompt(_) | Selection::PromptOf(_) => unreachable!("read above"),
        Selection::Call(id) => ("tool_use_id = ?1", id),
        Selection::Session(id) => (
            "event_id IN (SELECT event_id FROM events WHERE session_id = ?1)",
            id,
        ),
        Selection::Agent(id) => ("agent_id = ?1", id),
        Selection::Since(time) => ("event_timestamp >= ?1", time),
        Selection::File(path) => ("file_path = ?1", path),
    };
    read(
        conn,
        &format!(
            "SELECT {COLUMNS} FROM mutations WHERE {condition} AND file_path IS NOT NULL ORDER BY id"
        ),
        vec![Value::Text(value.clone())],
    )
}

/// The changes of the files in `paths` made after row `after_id`, oldest
/// first: what a rewind must keep, or check, when it reverts an earlier one.
pub fn later_changes(
    conn: &Connection,
    paths: &[String],
    after_id: i64,
) -> Result<Vec<RecordedChange>> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let marks = (2..paths.len() + 2)
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut values = vec![Value::Integer(after_id)];
    values.extend(paths.iter().cloned().map(Value::Text));
    read(
        conn,
        &format!(
            "SELECT {COLUMNS} FROM mutations WHERE file_path IN ({marks}) AND id > ?1 ORDER BY id"
        ),
        values,
    )
}

/// The change of `path` recorded last before row `before_id`, if any:
/// where a before that was not seen may come from. One row is read, not
/// the file's history.
pub fn previous_change(
    conn: &Connection,
    path: &str,
    before_id: i64,
) -> Result<Option<RecordedChange>> {
    Ok(read(
        conn,
        &format!(
            "SELECT {COLUMNS} FROM mutations WHERE file_path = ?1 AND id < ?2 ORDER BY id DESC LIMIT 1"
        ),
        vec![Value::Text(path.to_owned()), Value::Integer(before_id)],
    )?
    .pop())
}

/// The prompt the event `event_id` belongs to: the `event_id` of the
/// `UserPromptSubmit` heading it, by the rule the Timeline's groups use
/// ([`crate::ledger::prompts::head_of`]); `None` outside a session, before
/// its first prompt, or after a session start with no prompt since.
pub fn prompt_of(conn: &Connection, event_id: &str) -> Result<Option<String>> {
    let path = conn.path().unwrap_or(":memory:").to_owned();
    let sqlite = |e| Error::sqlite(&path, e);
    let row: Option<i64> = conn
        .query_row(
            "SELECT id FROM events WHERE event_id = ?1",
            [event_id],
            |row| row.get(0),
        )
        .optional()
        .map_err(sqlite)?;
    let Some(head) = row
        .map(|id| crate::ledger::prompts::head_of(conn, id))
        .transpose()?
        .flatten()
    else {
        return Ok(None);
    };
    conn.query_row("SELECT event_id FROM events WHERE id = ?1", [head], |row| {
        row.get(0)
    })
    .optional()
    .map_err(sqlite)
}

/// The newest tool call id starting with `prefix` (ids that sort by time,
/// as a rewind's do), read from the end of the `tool_use_id` index.
pub fn newest_call_with_prefix(conn: &Connection, prefix: &str) -> Result<Option<String>> {
    let path = conn.path().unwrap_or(":memory:").to_owned();
    // Every id with the prefix sorts below the prefix followed by U+10FFFF.
    let end = format!("{prefix}\u{10FFFF}");
    conn.query_row(
        "SELECT max(tool_use_id) FROM mutations WHERE tool_use_id >= ?1 AND tool_use_id < ?2",
        [prefix, end.as_str()],
        |row| row.get(0),
    )
    .map_err(|e| Error::sqlite(&path, e))
}

fn read(conn: &Connection, sql: &str, values: Vec<Value>) -> Result<Vec<RecordedChange>> {
    let path = conn.path().unwrap_or(":memory:").to_owned();
    let sqlite = |e| Error::sqlite(&path, e);
    let mut stmt = conn.prepare(sql).map_err(sqlite)?;
    let rows = stmt
        .query_map(params_from_iter(values), |row| {
            Ok(RecordedChange {
                id: row.get(0)?,
                event_id: row.get(1)?,
                file_path: row.get(2)?,
                tool_name: row.get(3)?,
                tool_use_id: row.get(4)?,
                session_id: row.get(5)?,
                agent_id: row.get(6)?,
                event_timestamp: row.get(7)?,
                before: ContentRef::from_column(row.get::<_, Option<String>>(8)?.as_deref()),
                after: ContentRef::from_column(row.get::<_, Option<String>>(9)?.as_deref()),
                raw_payload: row.get(10)?,
            })
        })
        .map_err(sqlite)?;
    rows.collect::<rusqlite::Result<Vec<_>>>().map_err(sqlite)
}
