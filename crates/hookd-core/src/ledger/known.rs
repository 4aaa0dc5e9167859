//! The values a ledger knows for each text filter (files, agents, sessions,
//! branches, tools, event types), with how many rows each has: what the app
//! suggests as a user types, and what a filter given as part of a value or
//! as a glob is matched against. Read from the small derived tables
//! (`mutation_files`, the per-hour counts), never from the history.

use serde::{Deserialize, Serialize};

use super::Ledger;
use super::filter::{Table, text};
use super::window::query_rows;
use crate::Result;

/// A text filter of the timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// The file changed (as stored: relative to the repository root).
    File,
    /// The agent.
    Agent,
    /// The agent session.
    Session,
    /// The branch.
    Branch,
    /// The tool.
    Tool,
    /// The hook event type (stored spelling, `post_tool_use`).
    EventType,
}

impl Field {
    /// The column of the per-hour counts holding the field (files have their own table).
    fn column(self) -> &'static str {
        match self {
            Self::File => "file_path",
            Self::Agent => "agent_id",
            Self::Session => "session_id",
            Self::Branch => "branch",
            Self::Tool => "tool_name",
            Self::EventType => "hook_type",
        }
    }
}

/// A value a ledger knows, and how many rows have it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Known {
    /// The value as stored.
    pub value: String,
    /// Rows with it (mutations, or events in activity mode; files: mutations).
    pub rows: u64,
}

impl Ledger {
    /// The values of `field` among `table`'s rows, most rows first, at most
    /// `limit`; with `part`, only those containing it (case-insensitively).
    pub fn known(
        &self,
        table: Table,
        field: Field,
        part: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Known>> {
        let (source, column, sum) = match field {
            Field::File => ("mutation_files", "file_path", "rows"),
            other => (table.hours(), other.column(), "SUM(rows)"),
        };
        let mut values = Vec::new();
        let mut filter = format!(" WHERE {column} <> ''");
        if let Some(part) = part.filter(|p| !p.is_empty()) {
            filter.push_str(&format!(" AND instr(lower({column}), lower(?)) > 0"));
            values.push(text(part));
        }
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let sql = format!(
            "SELECT {column}, {sum} AS n FROM {source}{filter} GROUP BY {column} \
             ORDER BY n DESC, {column} LIMIT {limit}"
        );
        query_rows(self, &sql, &values, |r| {
            Ok(Known {
                value: r.get(0)?,
                rows: r.get::<_, i64>(1)?.try_into().unwrap_or(0),
            })
        })
    }

    /// The values a filter given as a part or a glob is matched against:
    /// [`Ledger::known`]'s values, except agents, which come from the
    /// `agents` table (one row per agent) rather than from summing the
    /// per-hour counts (one row per hour, agent, session, tool, hook type and
    /// branch: a hundred thousand and more in a year). An agent there may
    /// have events but no mutations; as a value of the filter it matches no
    /// row then.
    pub(crate) fn candidates(&self, table: Table, field: Field) -> Result<Vec<String>> {
        if field == Field::Agent {
            return query_rows(self, "SELECT agent_id FROM agents", &[], |r| r.get(0));
        }
        Ok(self
            .known(table, field, None, usize::MAX)?
            .into_iter()
            .map(|k| k.value)
            .collect())
    }

    /// Whether a row of `table` has `value` in `field` (a tool: in any case),
    /// from the per-hour counts; a file from the files mutations name.
    pub(crate) fn knows(&self, table: Table, field: Field, value: &str) -> Result<bool> {
        if field == Field::File {
            return self.knows_file(value);
        }
        let collate = if field == Field::Tool {
            " COLLATE NOCASE"
        } else {
            ""
        };
        let sql = format!(
            "SELECT 1 FROM {} WHERE {} = ?{collate} LIMIT 1",
            table.hours(),
            field.column()
        );
        Ok(!query_rows(self, &sql, &[text(value)], |_| Ok(()))?.is_empty())
    }

    /// Whether a mutation names `path` exactly.
    pub(crate) fn knows_file(&self, path: &str) -> Result<bool> {
        Ok(!query_rows(
            self,
            "SELECT 1 FROM mutation_files WHERE file_path = ?",
            &[text(path)],
            |_| Ok(()),
        )?
        .is_empty())
    }
}

/// The values of `field` among the rows `query` reads (every project's
/// with `--all`), summed over the ledgers, most rows first, at most `limit`;
/// with `part`, only those containing it. The query's own filters other
/// than its ledgers do not narrow them.
pub fn known_values(
    query: &super::query::Query,
    table: Table,
    field: Field,
    part: Option<&str>,
    limit: usize,
) -> Result<Vec<Known>> {
    let mut rows: std::collections::HashMap<String, u64> = std::collections::HashMap::new();
    let ledgers = query.ledgers_only();
    for source in super::query::sources(&ledgers, table)? {
        for known in source.ledger.known(table, field, part, limit)? {
            *rows.entry(known.value).or_default() += known.rows;
        }
    }
    let mut known: Vec<Known> = rows
        .into_iter()
        .map(|(value, rows)| Known { value, rows })
        .collect();
    known.sort_by(|a, b| b.rows.cmp(&a.rows).then_with(|| a.value.cmp(&b.value)));
    known.truncate(limit);
    Ok(known)
}
