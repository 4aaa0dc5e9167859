//! An agent's whole activity: every hook event the ledger stored (prompts,
//! tool calls before and after, stops, …), not only the ones that changed a
//! file, each with the managed hook runs that answered it and what they
//! decided. The mutation timeline shows what changed; this shows what
//! happened.

use std::collections::HashMap;

use rusqlite::{OptionalExtension, params_from_iter};
use serde::Serialize;

use super::filter::Table;
use super::{HOOK_RUN_COLUMNS, Ledger, MutationFilter, row_to_hook_run};
use crate::record::HookRunRecord;
use crate::{Error, Result};

/// One row of the ledger's `events` table, with what it led to.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ActivityEvent {
    /// The row's `id`.
    pub id: i64,
    /// Unique id of the event (`events.event_id`).
    pub event_id: String,
    /// Snake-case hook type: `user_prompt_submit`, `pre_tool_use`, `stop`, …
    pub hook_type: String,
    /// Tool in the agent's spelling, for tool events.
    pub tool_name: Option<String>,
    /// Who acted.
    pub agent_id: String,
    /// The agent session.
    pub session_id: Option<String>,
    /// The tool call, pairing pre and post events.
    pub tool_use_id: Option<String>,
    /// Directory the event happened in.
    pub cwd: Option<String>,
    /// File named in the tool input, as the payload gave it (usually absolute).
    pub file_path: Option<String>,
    /// Branch at the time.
    pub branch: String,
    /// HEAD commit at the time.
    pub head_sha: String,
    /// Remote URL of the repository.
    pub remote_url: Option<String>,
    /// False when the emitter could not parse the hook's stdin as JSON.
    pub payload_valid: bool,
    /// The hook payload as compact JSON text.
    pub raw_payload: String,
    /// When the emitter ran.
    pub event_timestamp: String,
    /// When the daemon received it.
    pub received_at: String,
    /// Process id of the emitter.
    pub source_pid: Option<u32>,
    /// Number of file mutations the event revealed.
    pub mutations: i64,
    /// The coding agent whose hook sent it (`claude`, `codex`, `gemini`,
    /// `cursor`, `copilot`).
    pub agent_kind: String,
    /// Managed hook runs for this event, in the order they were stored.
    pub hook_runs: Vec<HookRunRecord>,
    /// The repository the event belongs to (its git root), set by multi-repository queries.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub repo: Option<String>,
}

/// Columns read by [`Ledger::activity`], in [`row_to_event`]'s order.
pub(crate) const EVENT_COLUMNS: &str = "id, event_id, hook_type, tool_name, agent_id, session_id, tool_use_id, cwd, \
     file_path, branch, head_sha, remote_url, payload_valid, hookd_payload(raw_payload, payload_refs), \
     event_timestamp, received_at, \
     source_pid, (SELECT COUNT(*) FROM mutations m WHERE m.event_id = events.event_id) AS mutation_count, \
     agent_kind";

/// [`EVENT_COLUMNS`] for a list: instead of the payload, a small JSON
/// object with only what a row shows (the working directory, the prompt or
/// message, the tool input's command or path), each cut to 300 characters.
/// The detail of one event reads it whole ([`Ledger::event`]).
pub(crate) const EVENT_LIST_COLUMNS: &str = "id, event_id, hook_type, tool_name, agent_id, session_id, tool_use_id, cwd, \
     file_path, branch, head_sha, remote_url, payload_valid, \
     CASE WHEN json_valid(raw_payload) THEN json_object(\
       'cwd', json_extract(raw_payload, '$.cwd'), \
       'prompt', substr(json_extract(raw_payload, '$.prompt'), 1, 300), \
       'message', substr(json_extract(raw_payload, '$.message'), 1, 300), \
       'last_assistant_message', substr(json_extract(raw_payload, '$.last_assistant_message'), 1, 300), \
       'reason', substr(json_extract(raw_payload, '$.reason'), 1, 300), \
       'source', substr(json_extract(raw_payload, '$.source'), 1, 300), \
       'trigger', substr(json_extract(raw_payload, '$.trigger'), 1, 300), \
       'error', substr(json_extract(raw_payload, '$.error'), 1, 300), \
       'tool_input', json_object(\
         'command', substr(json_extract(raw_payload, '$.tool_input.command'), 1, 300), \
         'file_path', json_extract(raw_payload, '$.tool_input.file_path'), \
         'notebook_path', json_extract(raw_payload, '$.tool_input.notebook_path'), \
         'path', json_extract(raw_payload, '$.tool_input.path'), \
         'pattern', substr(json_extract(raw_payload, '$.tool_input.pattern'), 1, 300), \
         'url', substr(json_extract(raw_payload, '$.tool_input.url'), 1, 300))) \
     ELSE '' END AS raw_payload, \
     event_timestamp, received_at, \
     source_pid, (SELECT COUNT(*) FROM mutations m WHERE m.event_id = events.event_id) AS mutation_count, \
     agent_kind";

pub(crate) fn row_to_event(row: &rusqlite::Row<'_>) -> rusqlite::Result<ActivityEvent> {
    Ok(ActivityEvent {
        id: row.get(0)?,
        event_id: row.get(1)?,
        hook_type: row.get(2)?,
        tool_name: row.get(3)?,
        agent_id: row.get(4)?,
        session_id: row.get(5)?,
        tool_use_id: row.get(6)?,
        cwd: row.get(7)?,
        file_path: row.get(8)?,
        branch: row.get(9)?,
        head_sha: row.get(10)?,
        remote_url: row.get(11)?,
        payload_valid: row.get(12)?,
        raw_payload: row.get(13)?,
        event_timestamp: row.get(14)?,
        received_at: row.get(15)?,
        source_pid: row.get(16)?,
        mutations: row.get(17)?,
        agent_kind: row.get(18)?,
        hook_runs: Vec::new(),
        repo: None,
    })
}

impl Ledger {
    /// The event with row id `id`, whole (its payload too), with its hook runs.
    pub fn event(&self, id: i64) -> Result<Option<ActivityEvent>> {
        let sqlite = |e| Error::sqlite(self.path(), e);
        let event = self
            .connection()
            .query_row(
                &format!("SELECT {EVENT_COLUMNS} FROM events WHERE id = ?1"),
                [id],
                row_to_event,
            )
            .optional()
            .map_err(sqlite)?;
        let Some(mut event) = event else {
            return Ok(None);
        };
        event.hook_runs = self.hook_runs_for_event(&event.event_id)?;
        Ok(Some(event))
    }

    /// Hook events matching `filter` with their hook runs, oldest first (the
    /// newest `limit` when limited).
    ///
    /// `file` keeps the events that concern that file: those whose mutations
    /// changed it (a Bash call included) and those whose tool input names it.
    pub fn activity(&self, filter: &MutationFilter) -> Result<Vec<ActivityEvent>> {
        let sqlite = |e| Error::sqlite(self.path(), e);
        let (sql, values) = filter.select(Table::Events, EVENT_COLUMNS);
        let mut stmt = self.connection().prepare(&sql).map_err(sqlite)?;
        let mut events = stmt
            .query_map(params_from_iter(values.iter()), row_to_event)
            .map_err(sqlite)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(sqlite)?;
        if events.is_empty() {
            return Ok(events);
        }
        // One query for the runs of every event shown, through the same
        // filter (hook_runs is small next to events: only managed hooks run).
        let (events_sql, values) = filter.select(Table::Events, "event_id, event_timestamp, id");
        let runs_sql = format!(
            "SELECT {HOOK_RUN_COLUMNS} FROM hook_runs \
             WHERE event_id IN (SELECT event_id FROM ({events_sql})) ORDER BY id"
        );
        let mut stmt = self.connection().prepare(&runs_sql).map_err(sqlite)?;
        let runs = stmt
            .query_map(params_from_iter(values.iter()), row_to_hook_run)
            .map_err(sqlite)?;
        // Only managed hooks have runs: most events have none, so the index
        // is built on the first run found.
        let mut index: Option<HashMap<String, usize>> = None;
        for run in runs {
            let run = run.map_err(sqlite)?;
            let index = index.get_or_insert_with(|| {
                events
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (e.event_id.clone(), i))
                    .collect()
            });
            if let Some(&i) = index.get(&run.event_id) {
                events[i].hook_runs.push(run);
            }
        }
        Ok(events)
    }
}
