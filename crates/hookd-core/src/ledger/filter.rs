//! Which rows a query wants, turned into one parameterised SQL statement.
//!
//! The same filter reads the `mutations` table (the timeline) and the
//! `events` table (an agent's whole activity): both carry the agent, session,
//! hook type, tool, branch and time of each row.

use chrono::{DateTime, Utc};
use rusqlite::types::Value;

use super::MUTATION_COLUMNS;
use crate::names::normalize_hook_type;
use crate::timefmt;

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
    /// Only this agent session (`session_id`).
    pub session: Option<String>,
    /// Only this hook event type, in any spelling (`PostToolUse`,
    /// `post_tool_use`): compared with the stored `hook_type`.
    pub event_type: Option<String>,
    /// Only this branch.
    pub branch: Option<String>,
    /// Only this tool, compared case-insensitively (`write` matches `Write`).
    pub tool: Option<String>,
    /// Only the newest N (still returned oldest first).
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

    /// The table of its row counts per hour (migration 0004).
    pub fn hours(self) -> &'static str {
        match self {
            Self::Mutations => "mutation_hours",
            Self::Events => "event_hours",
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

    /// Whether the per-hour counts can answer this filter: every filter but
    /// the file is one of their columns.
    pub(crate) fn counted_by_hour(&self) -> bool {
        self.file.is_none()
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
        if let Some(file) = &self.file {
            match table {
                Table::Mutations => w.push("file_path = ?", [text(file)]),
                // An event stores the path from its payload (absolute), and a
                // Bash event names no file at all: an event concerns the file
                // when one of its mutations changed it, or its path is the
                // file or ends with it.
                Table::Events => {
                    let suffix = format!("/{}", file.trim_start_matches('/'));
                    w.push(
                        "(event_id IN (SELECT event_id FROM mutations WHERE file_path = ?) \
                         OR file_path = ? OR substr(file_path, -length(?)) = ?)",
                        [text(file), text(file), text(&suffix), text(&suffix)],
                    );
                }
            }
        }
        self.push_counted(&mut w);
        w
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
        if let Some(agent) = &self.agent {
            w.push("agent_id = ?", [text(agent)]);
        }
        if let Some(session) = &self.session {
            w.push("session_id = ?", [text(session)]);
        }
        if let Some(event_type) = &self.event_type {
            w.push(
                "hook_type = ?",
                [Value::Text(normalize_hook_type(event_type))],
            );
        }
        if let Some(branch) = &self.branch {
            w.push("branch = ?", [text(branch)]);
        }
        if let Some(tool) = &self.tool {
            w.push("tool_name = ? COLLATE NOCASE", [text(tool)]);
        }
    }
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
