//! Which rows a query wants, turned into one parameterised SQL statement.
//!
//! The same filter reads the `mutations` table (the timeline) and the
//! `events` table (an agent's whole activity): both carry the agent, session,
//! hook type, tool, branch and time of each row.

use chrono::{DateTime, Utc};
use globset::GlobBuilder;
use rusqlite::types::Value;

use super::known::Field;
use super::runs::IdRange;
use super::window::{hour_of, query_rows};
use super::{Ledger, MUTATION_COLUMNS};
use crate::names::normalize_hook_type;
use crate::timefmt;
use crate::{Error, Result};

/// Filters for reading mutations (or events); every field narrows the result.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MutationFilter {
    /// Only rows at or after this time.
    pub since: Option<DateTime<Utc>>,
    /// Only rows strictly before this time.
    pub until: Option<DateTime<Utc>>,
    /// Only this file, as stored (relative to the git root inside a repository).
    pub file: Option<String>,
    /// Only this agent.
    pub agent: Option<String>,
    /// Only this coding agent's rows (`claude`, `codex`, `gemini`,
    /// `cursor`, `copilot`: the rows' `agent_kind`).
    pub agent_kind: Option<String>,
    /// Only this agent session (`session_id`).
    pub session: Option<String>,
    /// Only this hook event type, in any spelling (`PostToolUse`,
    /// `post_tool_use`): compared with the stored `hook_type`.
    pub event_type: Option<String>,
    /// Only this branch.
    pub branch: Option<String>,
    /// Only this tool, compared case-insensitively (`write` matches `Write`).
    pub tool: Option<String>,
    /// Only rows whose file path, shell command or prompt (events) has
    /// words starting with each word of this text (full-text search).
    pub search: Option<String>,
    /// Only the newest N (still returned oldest first), for a whole read
    /// ([`super::query::run`], [`Ledger::mutations`]). A page
    /// ([`super::page::page`]) takes its size as its own argument and a
    /// chart ([`super::histogram::histogram`]) counts every matching row, so
    /// both ignore it.
    pub limit: Option<u64>,
}

/// The table a filter reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    /// `mutations`: file changes.
    Mutations,
    /// `events`: every hook event.
    Events,
}

impl Table {
    /// The table's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Mutations => "mutations",
            Self::Events => "events",
        }
    }

    /// The table of its row counts per hour, agent, session, tool, hook
    /// type and branch (migration 0004).
    pub fn hours(self) -> &'static str {
        match self {
            Self::Mutations => "mutation_hours",
            Self::Events => "event_hours",
        }
    }

    /// The table of the runs of hours of its ids (migration 0010).
    pub fn runs(self) -> &'static str {
        match self {
            Self::Mutations => "mutation_runs",
            Self::Events => "event_runs",
        }
    }

    /// Its full-text search index (migrations 0006, 0008).
    pub fn search_index(self) -> &'static str {
        match self {
            Self::Mutations => "mutation_search",
            Self::Events => "event_search",
        }
    }

    /// The table of its row counts per hour alone (migration 0005).
    pub fn totals(self) -> &'static str {
        match self {
            Self::Mutations => "mutation_totals",
            Self::Events => "event_totals",
        }
    }
}

/// A `WHERE` clause under construction: conditions joined by `AND`, with
/// positional `?` parameters bound in the order they appear.
#[derive(Debug, Clone, Default)]
pub(crate) struct Where {
    clauses: Vec<String>,
    /// The bound values, in statement order.
    pub(crate) values: Vec<Value>,
}

impl Where {
    /// Adds `clause`, whose `?` placeholders take `values` in order.
    pub(crate) fn push(
        &mut self,
        clause: impl Into<String>,
        values: impl IntoIterator<Item = Value>,
    ) {
        self.clauses.push(clause.into());
        self.values.extend(values);
    }

    /// ` WHERE …`, or nothing without conditions.
    pub(crate) fn sql(&self) -> String {
        if self.clauses.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", self.clauses.join(" AND "))
        }
    }
}

/// A text value to bind.
pub(crate) fn text(value: &str) -> Value {
    Value::Text(value.to_owned())
}

impl MutationFilter {
    /// The SQL reading the filtered mutations, and its bound values.
    pub(crate) fn to_sql(&self) -> (String, Vec<Value>) {
        self.select(Table::Mutations, MUTATION_COLUMNS)
    }

    /// `SELECT columns FROM table WHERE …`, oldest first (the newest `limit`
    /// when limited), and its bound values.
    pub(crate) fn select(&self, table: Table, columns: &str) -> (String, Vec<Value>) {
        let conditions = self.conditions(table);
        let where_clause = conditions.sql();
        let name = table.name();
        let sql = match self.limit {
            Some(limit) => format!(
                "SELECT * FROM (SELECT {columns} FROM {name}{where_clause} \
                 ORDER BY event_timestamp DESC, id DESC LIMIT {limit}) ORDER BY event_timestamp, id"
            ),
            None => {
                format!("SELECT {columns} FROM {name}{where_clause} ORDER BY event_timestamp, id")
            }
        };
        (sql, conditions.values)
    }

    /// The filter's conditions on the rows of `table`, every text filter
    /// an exact value (as `Ledger::mutations` has always read them).
    pub(crate) fn conditions(&self, table: Table) -> Where {
        Resolved::exact(self).conditions(table)
    }
}

/// The values a text filter stands for in one ledger: `None` for any, else
/// the stored values it matches (none at all matches no row).
type Values = Option<Vec<String>>;

/// A filter as one ledger answers it: each text filter resolved to the
/// stored values it matches there.
///
/// A text filter matches a value the ledger knows exactly (a tool
/// case-insensitively); otherwise, given as a glob (`src/**/*.ts`; `*` stays
/// inside a directory, `**` crosses them) it matches the known values the
/// glob matches, and given as part of a value (`cart.ts`, the start of an
/// agent id) the known values containing it, case-insensitively. The known
/// values come from small derived tables ([`crate::ledger::known`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Resolved {
    /// Only rows at or after this time.
    pub since: Option<DateTime<Utc>>,
    /// Only rows strictly before this time.
    pub until: Option<DateTime<Utc>>,
    file: Values,
    agent: Values,
    session: Values,
    branch: Values,
    tool: Values,
    /// Agents left out: a coding agent's rows when nearly every agent is
    /// its ([`AGENTS_BY_ID`]).
    agents_not: Option<Vec<String>>,
    /// A coding agent's rows by the rows' own `agent_kind`: when neither
    /// its agents nor the others are few (then the counts per hour cannot
    /// answer).
    agent_kind: Option<String>,
    event_type: Option<String>,
    /// The full-text query (FTS5 syntax), when searching.
    search: Option<String>,
    /// When searching with time bounds: the ids the bounds' rows lie in,
    /// so only the matches among them are read ([`crate::ledger::runs`]).
    search_ids: IdRange,
}

/// Whether a filter value is a glob rather than a value or part of one.
pub(crate) fn is_glob(value: &str) -> bool {
    value.contains(['*', '?', '[', '{'])
}

impl Resolved {
    /// `filter` with every text filter taken as an exact value.
    pub(crate) fn exact(filter: &MutationFilter) -> Self {
        let one = |v: &Option<String>| v.as_ref().map(|v| vec![v.clone()]);
        Self {
            since: filter.since,
            until: filter.until,
            file: one(&filter.file),
            agent: one(&filter.agent),
            session: one(&filter.session),
            branch: one(&filter.branch),
            tool: one(&filter.tool),
            agents_not: None,
            agent_kind: filter.agent_kind.clone(),
            event_type: filter.event_type.as_deref().map(normalize_hook_type),
            search: filter.search.as_deref().and_then(fts_query),
            search_ids: IdRange::default(),
        }
    }

    /// The full-text query, when it is the whole filter but for time
    /// bounds.
    pub(crate) fn search_alone(&self) -> Option<&str> {
        if self.file.is_some() || self.has_dimensions() || self.agent_kind.is_some() {
            return None;
        }
        self.search.as_deref()
    }

    /// The files a file filter stands for (tests).
    #[cfg(test)]
    pub(crate) fn files(&self) -> Option<Vec<String>> {
        self.file.clone()
    }

    /// Whether a full-text search is part of the filter.
    pub(crate) fn searches(&self) -> bool {
        self.search.is_some()
    }

    /// Whether the rows matching the filter cannot be read in the
    /// timeline's order from one index, so that a page of them would read
    /// every match and sort it: a search (its matches come from the search
    /// index, by id), or several files (a glob, a part of a path: the file
    /// index holds each file's rows in order, not theirs together). Such a
    /// filter's pages are read through windows of time
    /// ([`Ledger::rows_from`]).
    pub(crate) fn reads_through_windows(&self) -> bool {
        self.searches() || self.file.as_ref().is_some_and(|files| files.len() > 1)
    }

    /// The ids a search reads its matches among.
    pub(crate) fn search_ids(&self) -> IdRange {
        self.search_ids
    }

    /// The filter narrowed to `[since, until)` as well: its time bounds the
    /// later start and the earlier end, and when searching, the ids those
    /// bounds' rows lie in.
    pub(crate) fn within(
        &self,
        ledger: &Ledger,
        table: Table,
        since: Option<DateTime<Utc>>,
        until: Option<DateTime<Utc>>,
    ) -> Result<Self> {
        let mut narrowed = self.clone();
        narrowed.since = self.since.max(since);
        narrowed.until = match (self.until, until) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        narrowed.bound_search(ledger, table)?;
        Ok(narrowed)
    }

    /// The filter narrowed to the rows with an id above `id` (what was
    /// committed since a reader looked): a search then asks its index for
    /// those ids only, not for every match in the history (0.8 s for a
    /// word of 650,000 rows at 10M). The caller adds `id > ?` for the rows.
    pub(crate) fn above_id(&self, id: i64) -> Self {
        let mut narrowed = self.clone();
        if narrowed.search.is_some() {
            let low = id.saturating_add(1);
            narrowed.search_ids.low = Some(narrowed.search_ids.low.map_or(low, |l| l.max(low)));
        }
        narrowed
    }

    /// When searching with time bounds: the ids the bounds' rows lie in.
    fn bound_search(&mut self, ledger: &Ledger, table: Table) -> Result<()> {
        if self.search.is_none() || (self.since.is_none() && self.until.is_none()) {
            self.search_ids = IdRange::default();
            return Ok(());
        }
        let since = self.since.map(timefmt::format);
        let until = self.until.map(timefmt::format);
        self.search_ids = ledger.id_range(
            table,
            since.as_deref().map(hour_of),
            until.as_deref().map(hour_of),
        )?;
        Ok(())
    }

    /// The table as the filter reads it: by row id when searching (the
    /// matches are found in the search index, then their rows read and
    /// ordered), else through whichever index fits the filter.
    pub(crate) fn from(&self, table: Table) -> String {
        if self.search.is_some() {
            format!("{} NOT INDEXED", table.name())
        } else {
            table.name().to_owned()
        }
    }

    /// `filter` as the ledger answers it (see the type).
    pub(crate) fn new(ledger: &Ledger, table: Table, filter: &MutationFilter) -> Result<Self> {
        let mut resolved = Self::exact(filter);
        if let Some(file) = &filter.file
            && (is_glob(file) || !ledger.knows_file(file)?)
        {
            let known = ledger.candidates(table, Field::File)?;
            resolved.file = Some(matching(file, &known, true)?);
        }
        for (field, value, slot) in [
            (Field::Agent, &filter.agent, &mut resolved.agent),
            (Field::Session, &filter.session, &mut resolved.session),
            (Field::Branch, &filter.branch, &mut resolved.branch),
            (Field::Tool, &filter.tool, &mut resolved.tool),
        ] {
            let Some(value) = value else { continue };
            // A value the ledger has stays exact (a tool compares without
            // case): one look-up, not a list of every known value.
            if !is_glob(value) && ledger.knows(table, field, value)? {
                continue;
            }
            let known = ledger.candidates(table, field)?;
            *slot = Some(matching(value, &known, false)?);
        }
        if let Some(kind) = &filter.agent_kind {
            resolved.agent_kind = None;
            match ledger.agents_of_kind(kind)? {
                KindAgents::These(ids) => {
                    resolved.agent = Some(match resolved.agent.take() {
                        None => ids,
                        Some(agents) => agents.into_iter().filter(|a| ids.contains(a)).collect(),
                    });
                }
                KindAgents::AllBut(others) => resolved.agents_not = Some(others),
                KindAgents::Many => resolved.agent_kind = Some(kind.clone()),
            }
        }
        if let Some(search) = &filter.search {
            resolved.search = ledger.search_query(table, search)?;
        }
        resolved.bound_search(ledger, table)?;
        Ok(resolved)
    }

    /// Whether the per-hour counts can answer this filter: every filter but
    /// the file and the search is one of their columns.
    pub(crate) fn counted_by_hour(&self) -> bool {
        self.file.is_none() && self.search.is_none() && self.agent_kind.is_none()
    }

    /// The filter's conditions on the rows of `table`.
    pub(crate) fn conditions(&self, table: Table) -> Where {
        let mut w = Where::default();
        if let Some(since) = self.since {
            w.push(
                "event_timestamp >= ?",
                [Value::Text(timefmt::format(since))],
            );
        }
        if let Some(until) = self.until {
            w.push("event_timestamp < ?", [Value::Text(timefmt::format(until))]);
        }
        if let Some(files) = &self.file {
            match (table, files.as_slice()) {
                (_, []) => w.push("0", []),
                (Table::Mutations, _) => push_in(&mut w, "file_path", files),
                // An event stores the path from its payload (absolute), and a
                // Bash event names no file at all: an event concerns the file
                // when one of its mutations changed it, or its path is the
                // file or ends with it.
                (Table::Events, [file]) => {
                    let suffix = format!("/{}", file.trim_start_matches('/'));
                    w.push(
                        "(event_id IN (SELECT event_id FROM mutations WHERE file_path = ?) \
                         OR file_path = ? OR substr(file_path, -length(?)) = ?)",
                        [text(file), text(file), text(&suffix), text(&suffix)],
                    );
                }
                // Several files: the events whose mutations changed one.
                (Table::Events, _) => {
                    let mut inner = Where::default();
                    push_in(&mut inner, "file_path", files);
                    w.push(
                        format!(
                            "event_id IN (SELECT event_id FROM mutations{})",
                            inner.sql()
                        ),
                        inner.values,
                    );
                }
            }
        }
        if let Some(kind) = &self.agent_kind {
            w.push("agent_kind = ?", [text(kind)]);
        }
        if let Some(search) = &self.search {
            let index = table.search_index();
            let IdRange { low, high } = self.search_ids;
            w.push(
                format!(
                    "id IN (SELECT rowid FROM {index} WHERE {index} MATCH ? \
                     AND rowid >= ? AND rowid <= ?)"
                ),
                [
                    text(search),
                    Value::Integer(low.unwrap_or(i64::MIN)),
                    Value::Integer(high.unwrap_or(i64::MAX)),
                ],
            );
        }
        self.push_counted(&mut w);
        w
    }

    /// Whether a column of the counts per hour is filtered (agent, session,
    /// branch, tool, event type): without, the totals per hour answer.
    pub(crate) fn has_dimensions(&self) -> bool {
        self.agent.is_some()
            || self.agents_not.is_some()
            || self.session.is_some()
            || self.branch.is_some()
            || self.tool.is_some()
            || self.event_type.is_some()
    }

    /// The filter's conditions on `table`'s counts per hour, except the
    /// time bounds (an hour may be cut by them; see `ledger::window`).
    /// Only meaningful when [`Self::counted_by_hour`].
    pub(crate) fn hour_conditions(&self) -> Where {
        let mut w = Where::default();
        self.push_counted(&mut w);
        w
    }

    /// The conditions on columns the counts per hour share with the rows.
    fn push_counted(&self, w: &mut Where) {
        for (column, values) in [
            ("agent_id", &self.agent),
            ("session_id", &self.session),
            ("branch", &self.branch),
            // The tool's index compares without case.
            ("tool_name COLLATE NOCASE", &self.tool),
        ] {
            if let Some(values) = values {
                push_in(w, column, values);
            }
        }
        if let Some(others) = self.agents_not.as_deref().filter(|o| !o.is_empty()) {
            let marks = vec!["?"; others.len()].join(", ");
            w.push(
                format!("agent_id NOT IN ({marks})"),
                others.iter().map(|v| text(v)),
            );
        }
        if let Some(event_type) = &self.event_type {
            w.push("hook_type = ?", [text(event_type)]);
        }
    }
}

/// Most agents a coding-agent filter names (`agent_id IN (…)`, or
/// `NOT IN` for the others): beyond, on both sides, it compares each
/// row's `agent_kind`.
pub(crate) const AGENTS_BY_ID: usize = 500;

/// The agents of one coding agent, as a filter reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KindAgents {
    /// These agents (at most [`AGENTS_BY_ID`]), sorted.
    These(Vec<String>),
    /// Every agent but these (at most [`AGENTS_BY_ID`]), sorted.
    AllBut(Vec<String>),
    /// Too many on both sides.
    Many,
}

impl Ledger {
    /// The agents of the coding agent `kind` (`agents.agent_kind`,
    /// migration 0014), or the others when they are fewer: so a filter on
    /// the coding agent reads the agent indexes and the counts per hour.
    pub(crate) fn agents_of_kind(&self, kind: &str) -> Result<KindAgents> {
        let read = |sql: &str| -> Result<Vec<String>> {
            let mut ids: Vec<String> = query_rows(
                self,
                &format!("{sql} LIMIT {}", AGENTS_BY_ID + 1),
                &[text(kind)],
                |r| r.get(0),
            )?;
            ids.sort();
            Ok(ids)
        };
        let these = read("SELECT agent_id FROM agents WHERE agent_kind = ?")?;
        if these.len() <= AGENTS_BY_ID {
            return Ok(KindAgents::These(these));
        }
        let others = read("SELECT agent_id FROM agents WHERE agent_kind <> ?")?;
        if others.len() <= AGENTS_BY_ID {
            return Ok(KindAgents::AllBut(others));
        }
        Ok(KindAgents::Many)
    }
}

/// The FTS5 query for what a user typed: every word as a prefix (`"npm"*
/// "test"*`), all required; `None` when it has no word.
pub(crate) fn fts_query(input: &str) -> Option<String> {
    let words: Vec<String> = search_words(input).map(|w| format!("\"{w}\"*")).collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The words of what a user typed into the search: runs of letters and
/// digits, as the index splits the text it holds.
fn search_words(input: &str) -> impl Iterator<Item = &str> {
    input
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// Most words a typed word may start for the search to name them all
/// instead of asking FTS5 for the prefix.
const MAX_WORDS_OF_PREFIX: usize = 32;

impl Ledger {
    /// What the search index of `table` is asked for `input`: each word a
    /// prefix, as [`fts_query`]; but a word that starts at most
    /// [`MAX_WORDS_OF_PREFIX`] indexed words is asked as those words
    /// (`("module" OR "modules")`). Same matches: FTS5 reads a prefix's
    /// whole list of rows into memory (0.2 s for a word of every row of a
    /// million) even when a page asks for an hour of them, and reads a
    /// word's list only where asked. A word the index does not hold
    /// matches nothing. `None` when `input` has no word.
    ///
    /// The words a typed word starts are found without counting the typed
    /// word's own rows: `fts5vocab` counts the rows of every term it
    /// returns by reading that term's whole list, 0.4 s for a word of
    /// every row at 10M (`module` of `module_0158`). So whether the word
    /// itself is indexed is asked of the index (one row, `LIMIT 1`), and
    /// the vocabulary only for the longer words, from `word0` on: the
    /// index's words are runs of letters and digits, and `0` is the least
    /// of those characters.
    pub(crate) fn search_query(&self, table: Table, input: &str) -> Result<Option<String>> {
        let sqlite = |e| Error::sqlite(self.path(), e);
        let mut words_stmt = self
            .connection()
            .prepare_cached(&format!(
                "SELECT term FROM {}_words WHERE term >= ?1 AND term < ?2 LIMIT {}",
                table.search_index(),
                MAX_WORDS_OF_PREFIX + 1
            ))
            .map_err(sqlite)?;
        let mut parts = Vec::new();
        let mut indexed_stmt = self
            .connection()
            .prepare_cached(&format!(
                "SELECT 1 FROM {0} WHERE {0} MATCH ?1 LIMIT 1",
                table.search_index()
            ))
            .map_err(sqlite)?;
        for word in search_words(input) {
            // The index folds case (and, beyond ASCII, diacritics: those
            // words stay prefixes).
            if !word.is_ascii() {
                parts.push(format!("\"{word}\"*"));
                continue;
            }
            let folded = word.to_ascii_lowercase();
            let mut words = Vec::new();
            if indexed_stmt
                .exists([format!("\"{folded}\"")])
                .map_err(sqlite)?
            {
                words.push(folded.clone());
            }
            let longer = words_stmt
                .query_map([format!("{folded}0"), format!("{folded}\u{10FFFF}")], |r| {
                    r.get::<_, String>(0)
                })
                .map_err(sqlite)?;
            for term in longer {
                words.push(term.map_err(sqlite)?);
            }
            if words.is_empty() || words.len() > MAX_WORDS_OF_PREFIX {
                parts.push(format!("\"{folded}\"*"));
            } else {
                let quoted: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
                parts.push(format!("({})", quoted.join(" OR ")));
            }
        }
        Ok((!parts.is_empty()).then(|| parts.join(" AND ")))
    }
}

/// `column = ?` for one value, `column IN (?, …)` for several, false for none.
fn push_in(w: &mut Where, column: &str, values: &[String]) {
    match values {
        [] => w.push("0", []),
        [one] => w.push(format!("{column} = ?"), [text(one)]),
        many => {
            let marks = vec!["?"; many.len()].join(", ");
            w.push(
                format!("{column} IN ({marks})"),
                many.iter().map(|v| text(v)),
            );
        }
    }
}

/// The known values `pattern` matches: as a glob when it is one (paths:
/// `*` within a directory, `**` across), else those containing it; both
/// case-insensitively except a path glob. Sorted: a filter resolved to the
/// same values is the same filter, whatever order they were known in (the
/// per-hour counts are remembered per filter: `super::hour_cache`).
fn matching(pattern: &str, known: &[String], path: bool) -> Result<Vec<String>> {
    let mut found: Vec<String> = if is_glob(pattern) {
        let glob = GlobBuilder::new(pattern)
            .literal_separator(path)
            .case_insensitive(!path)
            .build()
            .map_err(|e| Error::InvalidPattern {
                pattern: pattern.to_owned(),
                reason: e.kind().to_string(),
            })?
            .compile_matcher();
        known
            .iter()
            .filter(|k| glob.is_match(k.as_str()))
            .cloned()
            .collect()
    } else {
        let part = pattern.to_lowercase();
        known
            .iter()
            .filter(|k| k.to_lowercase().contains(&part))
            .cloned()
            .collect()
    };
    found.sort_unstable();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_bound_in_statement_order() {
        let filter = MutationFilter {
            agent: Some("a".into()),
            file: Some("src/x.rs".into()),
            session: Some("s".into()),
            ..MutationFilter::default()
        };
        let (sql, values) = filter.select(Table::Events, "id");
        let values: Vec<Value> = values;
        let expected = ["src/x.rs", "src/x.rs", "/src/x.rs", "/src/x.rs", "a", "s"];
        assert_eq!(values, expected.map(text));
        assert!(
            sql.contains("file_path = ? OR substr(file_path, -length(?)) = ?"),
            "{sql}"
        );
        assert!(sql.contains("agent_id = ? AND session_id = ?"), "{sql}");
    }

    #[test]
    fn event_types_are_compared_in_the_stored_spelling() {
        for spelling in ["PostToolUse", "post_tool_use", "post-tool-use"] {
            let filter = MutationFilter {
                event_type: Some(spelling.into()),
                ..MutationFilter::default()
            };
            let (sql, values) = filter.to_sql();
            assert!(sql.contains("WHERE hook_type = ?"), "{sql}");
            assert_eq!(values, [text("post_tool_use")], "{spelling}");
        }
    }
}
