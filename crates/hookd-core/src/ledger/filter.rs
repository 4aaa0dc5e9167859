//! Which mutations a query wants, turned into one parameterised SQL statement.

use chrono::{DateTime, Utc};

use super::MUTATION_COLUMNS;
use crate::timefmt;

/// Filters for reading mutations; every field narrows the result.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MutationFilter {
    /// Only mutations at or after this time.
    pub since: Option<DateTime<Utc>>,
    /// Only mutations strictly before this time.
    pub until: Option<DateTime<Utc>>,
    /// Only this file, as stored (relative to the git root inside a repository).
    pub file: Option<String>,
    /// Only this agent.
    pub agent: Option<String>,
    /// Only this branch.
    pub branch: Option<String>,
    /// Only this tool, compared case-insensitively (`write` matches `Write`).
    pub tool: Option<String>,
    /// Only the newest N (still returned oldest first).
    pub limit: Option<u64>,
}

impl MutationFilter {
    /// The SQL and its bound values.
    pub(crate) fn to_sql(&self) -> (String, Vec<String>) {
        let mut clauses = Vec::new();
        let mut values = Vec::new();
        let mut push = |clause: &str, value: String| {
            values.push(value);
            clauses.push(clause.replace('?', &format!("?{}", values.len())));
        };
        if let Some(since) = self.since {
            push("event_timestamp >= ?", timefmt::format(since));
        }
        if let Some(until) = self.until {
            push("event_timestamp < ?", timefmt::format(until));
        }
        if let Some(file) = &self.file {
            push("file_path = ?", file.clone());
        }
        if let Some(agent) = &self.agent {
            push("agent_id = ?", agent.clone());
        }
        if let Some(branch) = &self.branch {
            push("branch = ?", branch.clone());
        }
        if let Some(tool) = &self.tool {
            push("tool_name = ? COLLATE NOCASE", tool.clone());
        }
        let where_clause = if clauses.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", clauses.join(" AND "))
        };
        let sql = match self.limit {
            Some(limit) => format!(
                "SELECT * FROM (SELECT {MUTATION_COLUMNS} FROM mutations{where_clause} \
                 ORDER BY event_timestamp DESC, id DESC LIMIT {limit}) ORDER BY event_timestamp, id"
            ),
            None => format!(
                "SELECT {MUTATION_COLUMNS} FROM mutations{where_clause} ORDER BY event_timestamp, id"
            ),
        };
        (sql, values)
    }
}
