//! Which rows a query wants, turned into one parameterised SQL statement.
//!
//! The same filter reads the `mutations` table (the timeline) and the
//! `events` table (an agent's whole activity): both carry the agent, session,
//! hook type, tool, branch and time of each row.

use chrono::{DateTime, Utc};

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
pub(crate) enum Table {
    /// `mutations`: file changes.
    Mutations,
    /// `events`: every hook event.
    Events,
}

impl MutationFilter {
    /// The SQL reading the filtered mutations, and its bound values.
    pub(crate) fn to_sql(&self) -> (String, Vec<String>) {
        self.select(Table::Mutations, MUTATION_COLUMNS)
    }

    /// `SELECT columns FROM table WHERE …`, oldest first (the newest `limit`
    /// when limited), and its bound values.
    pub(crate) fn select(&self, table: Table, columns: &str) -> (String, Vec<String>) {
        let (where_clause, values) = self.where_clause(table);
        let name = match table {
            Table::Mutations => "mutations",
            Table::Events => "events",
        };
        let sql = match self.limit {
            Some(limit) => format!(
                "SELECT * FROM (SELECT {columns} FROM {name}{where_clause} \
                 ORDER BY event_timestamp DESC, id DESC LIMIT {limit}) ORDER BY event_timestamp, id"
            ),
            None => {
                format!("SELECT {columns} FROM {name}{where_clause} ORDER BY event_timestamp, id")
            }
        };
        (sql, values)
    }

    /// ` WHERE …` (empty without filters) and the values of its `?N` parameters.
    fn where_clause(&self, table: Table) -> (String, Vec<String>) {
        let mut clauses = Vec::new();
        let mut values: Vec<String> = Vec::new();
        // Each clause names its values `?1`, `?2`, … in the order given; they
        // are renumbered to their place in the whole statement.
        let mut push = |clause: &str, bound: Vec<String>| {
            let mut clause = clause.to_owned();
            for (i, _) in bound.iter().enumerate().rev() {
                clause = clause.replace(
                    &format!("?{}", i + 1),
                    &format!("?{}", values.len() + i + 1),
                );
            }
            values.extend(bound);
            clauses.push(clause);
        };
        if let Some(since) = self.since {
            push("event_timestamp >= ?1", vec![timefmt::format(since)]);
        }
        if let Some(until) = self.until {
            push("event_timestamp < ?1", vec![timefmt::format(until)]);
        }
        if let Some(file) = &self.file {
            match table {
                Table::Mutations => push("file_path = ?1", vec![file.clone()]),
                // An event stores the path from its payload (absolute), and a
                // Bash event names no file at all: an event concerns the file
                // when one of its mutations changed it, or its path is the
                // file or ends with it.
                Table::Events => push(
                    "(event_id IN (SELECT event_id FROM mutations WHERE file_path = ?1) \
                     OR file_path = ?1 OR substr(file_path, -length(?2)) = ?2)",
                    vec![file.clone(), format!("/{}", file.trim_start_matches('/'))],
                ),
            }
        }
        if let Some(agent) = &self.agent {
            push("agent_id = ?1", vec![agent.clone()]);
        }
        if let Some(session) = &self.session {
            push("session_id = ?1", vec![session.clone()]);
        }
        if let Some(event_type) = &self.event_type {
            push("hook_type = ?1", vec![normalize_hook_type(event_type)]);
        }
        if let Some(branch) = &self.branch {
            push("branch = ?1", vec![branch.clone()]);
        }
        if let Some(tool) = &self.tool {
            push("tool_name = ?1 COLLATE NOCASE", vec![tool.clone()]);
        }
        let where_clause = if clauses.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", clauses.join(" AND "))
        };
        (where_clause, values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_numbered_in_statement_order() {
        let filter = MutationFilter {
            agent: Some("a".into()),
            file: Some("src/x.rs".into()),
            session: Some("s".into()),
            ..MutationFilter::default()
        };
        let (sql, values) = filter.select(Table::Events, "id");
        assert_eq!(values, ["src/x.rs", "/src/x.rs", "a", "s"]);
        assert!(
            sql.contains("file_path = ?1 OR substr(file_path, -length(?2)) = ?2"),
            "{sql}"
        );
        assert!(sql.contains("agent_id = ?3 AND session_id = ?4"), "{sql}");
    }

    #[test]
    fn event_types_are_compared_in_the_stored_spelling() {
        for spelling in ["PostToolUse", "post_tool_use", "post-tool-use"] {
            let filter = MutationFilter {
                event_type: Some(spelling.into()),
                ..MutationFilter::default()
            };
            let (sql, values) = filter.to_sql();
            assert!(sql.contains("WHERE hook_type = ?1"), "{sql}");
            assert_eq!(values, ["post_tool_use"], "{spelling}");
        }
    }
}
