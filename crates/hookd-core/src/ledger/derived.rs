//! The derived tables the timeline reads (counts per hour, per hour alone
//! and per file, the agents, the search indexes, the runs of hours;
//! migrations 0004–0006, 0008 and 0010),
//! brought up to date once per appended batch, in the batch's transaction.
//!
//! Why gathered in memory: the rows of a batch are in hand while they are
//! inserted, so their counts are summed in hash maps as each insert succeeds
//! and written as one upsert per hour, file and agent the batch touched.
//! Per-row triggers cut the daemon's ingest rate to a fifth, and set-based
//! statements over the batch's rows (`id >` the highest id before it) read
//! every row back again and sorted it once per table, which cost as much as
//! inserting the rows. The migrations build the same tables from the rows
//! already stored, with SQL expressions these functions mirror (`hour` is
//! `substr(event_timestamp, 1, 13)`; a missing session or tool counts as
//! ''), and `hookd ledger verify` checks the counts agree with the rows.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use rusqlite::{Transaction, params};
use serde::Deserialize;

use crate::record::{HookEvent, MutationRecord, RepoFacts};

/// One row of `mutation_hours` or `event_hours` without its count: hour,
/// agent, session, tool, hook type, branch.
type HourKey<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str, &'a str);

/// What one batch adds to the derived tables, gathered as its rows are
/// inserted ([`Derived::event`], [`Derived::mutation`]) and written by
/// [`Derived::write`] before the batch commits.
#[derive(Default)]
pub(crate) struct Derived<'a> {
    mutation_hours: HashMap<HourKey<'a>, i64>,
    event_hours: HashMap<HourKey<'a>, i64>,
    mutation_totals: HashMap<&'a str, i64>,
    event_totals: HashMap<&'a str, i64>,
    /// Per file: rows, newest timestamp.
    files: HashMap<&'a str, (i64, &'a str)>,
    /// The first event of each agent in the batch, in the batch's order.
    agents: Vec<&'a HookEvent>,
    /// The agents of `agents`, to look up.
    seen: HashSet<&'a str>,
    mutation_search: Vec<(i64, String)>,
    event_search: Vec<(i64, String)>,
    /// Where the batch's rows change hour, in id order: (first id, hour).
    mutation_runs: Vec<(i64, &'a str)>,
    event_runs: Vec<(i64, &'a str)>,
}

/// Notes a row `id` of `hour`: a new run when its hour is not the one of
/// the row before it in the batch.
fn run<'a>(runs: &mut Vec<(i64, &'a str)>, id: i64, hour: &'a str) {
    if runs.last().is_none_or(|&(_, last)| last != hour) {
        runs.push((id, hour));
    }
}

/// The hour a timestamp falls in, as the hour tables key it:
/// `substr(event_timestamp, 1, 13)` (`2026-11-21T10`), in characters.
pub(crate) fn hour(timestamp: &str) -> &str {
    match timestamp.char_indices().nth(13) {
        Some((end, _)) => &timestamp[..end],
        None => timestamp,
    }
}

impl<'a> Derived<'a> {
    /// Counts an event the batch stored as row `id`.
    pub(crate) fn event(&mut self, id: i64, event: &'a HookEvent, repo: &'a RepoFacts) {
        let hour = hour(&event.event_timestamp);
        let key = (
            hour,
            event.agent_id.as_str(),
            event.session_id.as_deref().unwrap_or(""),
            event.tool_name.as_deref().unwrap_or(""),
            event.hook_type.as_str(),
            repo.branch.as_str(),
        );
        *self.event_hours.entry(key).or_default() += 1;
        *self.event_totals.entry(hour).or_default() += 1;
        run(&mut self.event_runs, id, hour);
        if self.seen.insert(event.agent_id.as_str()) {
            self.agents.push(event);
        }
        let path = event
            .file_path
            .as_deref()
            .map(|p| p.to_string_lossy())
            .unwrap_or_default();
        let said = event_text(event).unwrap_or_default();
        self.event_search.push((id, format!("{path} {said}")));
    }

    /// Counts a mutation the batch stored as row `id`.
    pub(crate) fn mutation(&mut self, id: i64, m: &'a MutationRecord) {
        let hour = hour(&m.event_timestamp);
        let key = (
            hour,
            m.agent_id.as_str(),
            m.session_id.as_deref().unwrap_or(""),
            m.tool_name.as_str(),
            m.hook_type.as_str(),
            m.branch.as_str(),
        );
        *self.mutation_hours.entry(key).or_default() += 1;
        *self.mutation_totals.entry(hour).or_default() += 1;
        run(&mut self.mutation_runs, id, hour);
        if let Some(file) = m.file_path.as_deref() {
            let (rows, newest) = self.files.entry(file).or_insert((0, ""));
            *rows += 1;
            if m.event_timestamp.as_str() > *newest {
                *newest = m.event_timestamp.as_str();
            }
        }
        self.mutation_search.push((
            id,
            format!(
                "{} {}",
                m.file_path.as_deref().unwrap_or(""),
                m.command.as_deref().unwrap_or("")
            ),
        ));
    }

    /// Writes what the batch added: one upsert per hour, file and new agent,
    /// one search-index row per stored row.
    pub(crate) fn write(self, tx: &Transaction<'_>) -> rusqlite::Result<()> {
        for (table, hours) in [
            ("mutation_hours", &self.mutation_hours),
            ("event_hours", &self.event_hours),
        ] {
            let mut upsert = tx.prepare_cached(&format!(
                "INSERT INTO {table} VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
                 ON CONFLICT DO UPDATE SET rows = rows + excluded.rows"
            ))?;
            for ((hour, agent, session, tool, hook_type, branch), rows) in hours {
                upsert.execute(params![hour, agent, session, tool, hook_type, branch, rows])?;
            }
        }
        for (table, totals) in [
            ("mutation_totals", &self.mutation_totals),
            ("event_totals", &self.event_totals),
        ] {
            let mut upsert = tx.prepare_cached(&format!(
                "INSERT INTO {table} VALUES (?1, ?2) \
                 ON CONFLICT DO UPDATE SET rows = rows + excluded.rows"
            ))?;
            for (hour, rows) in totals {
                upsert.execute(params![hour, rows])?;
            }
        }
        let mut upsert = tx.prepare_cached(
            "INSERT INTO mutation_files VALUES (?1, ?2, ?3) \
             ON CONFLICT DO UPDATE SET rows = rows + excluded.rows, newest = max(newest, excluded.newest)",
        )?;
        for (file, (rows, newest)) in &self.files {
            upsert.execute(params![file, rows, newest])?;
        }
        let mut known = tx.prepare_cached("SELECT 1 FROM agents WHERE agent_id = ?1")?;
        let mut insert =
            tx.prepare_cached(
                "INSERT OR IGNORE INTO agents (agent_id, agent_type, session_id, first_seen, agent_kind) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
        for event in &self.agents {
            if known.exists([&event.agent_id])? {
                continue;
            }
            insert.execute(params![
                event.agent_id,
                agent_type(&event.raw_payload),
                event.session_id,
                event.event_timestamp,
                event.agent_kind
            ])?;
        }
        for (table, runs) in [
            ("mutation_runs", &self.mutation_runs),
            ("event_runs", &self.event_runs),
        ] {
            // The batch's first run continues the stored last one when it is
            // of the same hour; the runs after it differ from the one before.
            let mut first = tx.prepare_cached(&format!(
                "INSERT INTO {table} SELECT ?1, ?2 \
                 WHERE ?2 IS NOT (SELECT hour FROM {table} ORDER BY first_id DESC LIMIT 1)"
            ))?;
            let mut rest = tx.prepare_cached(&format!("INSERT INTO {table} VALUES (?1, ?2)"))?;
            for (i, (first_id, hour)) in runs.iter().enumerate() {
                let insert = if i == 0 { &mut first } else { &mut rest };
                insert.execute(params![first_id, hour])?;
            }
        }
        for (table, rows) in [
            ("mutation_search", &self.mutation_search),
            ("event_search", &self.event_search),
        ] {
            let mut insert = tx.prepare_cached(&format!(
                "INSERT INTO {table} (rowid, text) VALUES (?1, ?2)"
            ))?;
            for (id, text) in rows {
                insert.execute(params![id, text])?;
            }
        }
        Ok(())
    }
}

/// The free text of an event the search index keeps beside its file: a
/// prompt's text, a shell command (as migration 0006 reads them).
fn event_text(event: &HookEvent) -> Option<Cow<'_, str>> {
    if event.hook_type == "user_prompt_submit" {
        #[derive(Deserialize)]
        struct Prompt {
            prompt: Option<serde_json::Value>,
        }
        let prompt = serde_json::from_str::<Prompt>(&event.raw_payload)
            .ok()?
            .prompt?;
        return json_text(prompt).map(Cow::Owned);
    }
    if event.tool_name.as_deref() == Some("Bash") {
        return event.command.as_deref().map(Cow::Borrowed);
    }
    None
}

/// The agent type a payload names (`agent_type`), as `json_extract` reads it.
fn agent_type(payload: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Agent {
        agent_type: Option<serde_json::Value>,
    }
    json_text(serde_json::from_str::<Agent>(payload).ok()?.agent_type?)
}

/// A JSON value as SQLite's `json_extract` gives it as text: a string
/// unquoted, null as nothing, anything else as its JSON text.
fn json_text(value: serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s),
        other => Some(other.to_string()),
    }
}
