//! The runs of hours (migration 0010): which ids a time range's rows have,
//! and how many of a search's matches fall in each hour, read from the
//! search index and the runs alone, never from the rows.
//!
//! A search's matches come out of the full-text index as row ids; their
//! times are in the rows, scattered over the whole file. Counting them per
//! hour, or finding the newest of them, by reading each row cost about 7 µs
//! a match: a third of a second for a common word in a million rows, and
//! ten times that at ten million. A run is the ids from one row to the
//! next whose hour differs, so one row per hour for rows appended in time
//! order (a late row adds a run of its own): a match's hour is its run's,
//! and the rows of a time range lie between the first id of the first run
//! of its first hour and the end of the last run of its last hour.

use std::collections::BTreeMap;

use rusqlite::OptionalExtension as _;

use super::Ledger;
use super::filter::Table;
use crate::{Error, Result};

/// The ids the rows of a time range lie between (inclusive). `None` at
/// either end: no bound that way. Empty when `low > high`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct IdRange {
    /// The lowest id a row of the range can have.
    pub low: Option<i64>,
    /// The highest id a row of the range can have.
    pub high: Option<i64>,
}

/// The runs of hours of `table` computed from its rows, as migration 0010
/// builds them: `(first_id, hour)` rows, for checking the stored ones.
pub(crate) fn runs_from_rows(table: Table) -> String {
    format!(
        "SELECT id, h FROM (SELECT id, h, lag(h) OVER (ORDER BY id) AS before \
         FROM (SELECT id, substr(event_timestamp, 1, 13) AS h FROM {})) \
         WHERE before IS NULL OR before <> h",
        table.name()
    )
}

impl Ledger {
    /// The ids the rows of the hours from `first_hour` to `last_hour`
    /// (inclusive; `2026-11-21T10`) can have: from the first run of an hour
    /// at or after the first, to the end of the last run of an hour at or
    /// before the last. An empty range (`1..=0`) when no row can be there.
    pub(crate) fn id_range(
        &self,
        table: Table,
        first_hour: Option<&str>,
        last_hour: Option<&str>,
    ) -> Result<IdRange> {
        let sqlite = |e| Error::sqlite(self.path(), e);
        let runs = table.runs();
        let mut range = IdRange::default();
        if let Some(hour) = first_hour {
            let low: Option<i64> = self
                .connection()
                .prepare_cached(&format!(
                    "SELECT min(first_id) FROM {runs} WHERE hour >= ?1"
                ))
                .and_then(|mut s| s.query_row([hour], |r| r.get(0)))
                .map_err(sqlite)?;
            match low {
                Some(low) => range.low = Some(low),
                None => return Ok(IdRange::empty()),
            }
        }
        if let Some(hour) = last_hour {
            // Runs cut the ids into consecutive ranges, so of the runs of
            // these hours the one starting last ends last: just before the
            // next run starts (the last run has no end).
            let (last, next): (Option<i64>, Option<i64>) = self
                .connection()
                .prepare_cached(&format!(
                    "SELECT l, (SELECT min(first_id) FROM {runs} WHERE first_id > l) \
                     FROM (SELECT max(first_id) AS l FROM {runs} WHERE hour <= ?1)"
                ))
                .and_then(|mut s| s.query_row([hour], |r| Ok((r.get(0)?, r.get(1)?))))
                .map_err(sqlite)?;
            match (last, next) {
                (None, _) => return Ok(IdRange::empty()),
                (Some(_), None) => {}
                (Some(_), Some(next)) => range.high = Some(next - 1),
            }
        }
        Ok(range)
    }

    /// The oldest and newest hour with rows in `table`, from its runs.
    pub(crate) fn run_hours(&self, table: Table) -> Result<Option<(String, String)>> {
        self.connection()
            .prepare_cached(&format!(
                "SELECT min(hour), max(hour) FROM {} HAVING count(*) > 0",
                table.runs()
            ))
            .and_then(|mut s| s.query_row([], |r| Ok((r.get(0)?, r.get(1)?))).optional())
            .map_err(|e| Error::sqlite(self.path(), e))
    }

    /// How many rows of `table` the full-text query `search` matches per
    /// hour, among the ids in `ids`: the matching ids, read in order from
    /// the search index, each given its run's hour.
    pub(crate) fn search_hours(
        &self,
        table: Table,
        search: &str,
        ids: IdRange,
    ) -> Result<BTreeMap<String, u64>> {
        let sqlite = |e| Error::sqlite(self.path(), e);
        let conn = self.connection();
        let mut runs_stmt = conn
            .prepare_cached(&format!(
                "SELECT first_id, hour FROM {} ORDER BY first_id",
                table.runs()
            ))
            .map_err(sqlite)?;
        let runs = runs_stmt
            .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
            .map_err(sqlite)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(sqlite)?;
        let index = table.search_index();
        let mut matches = conn
            .prepare_cached(&format!(
                "SELECT rowid FROM {index} WHERE {index} MATCH ?1 \
                 AND rowid >= ?2 AND rowid <= ?3 ORDER BY rowid"
            ))
            .map_err(sqlite)?;
        let mut rows = matches
            .query(rusqlite::params![
                search,
                ids.low.unwrap_or(i64::MIN),
                ids.high.unwrap_or(i64::MAX)
            ])
            .map_err(sqlite)?;
        let mut per_run = vec![0_u64; runs.len()];
        let mut run = 0;
        while let Some(row) = rows.next().map_err(sqlite)? {
            let id: i64 = row.get(0).map_err(sqlite)?;
            while run + 1 < runs.len() && runs[run + 1].0 <= id {
                run += 1;
            }
            if let Some(n) = per_run.get_mut(run) {
                *n += 1;
            }
        }
        let mut hours = BTreeMap::new();
        for ((_, hour), n) in runs.into_iter().zip(per_run) {
            if n > 0 {
                *hours.entry(hour).or_default() += n;
            }
        }
        Ok(hours)
    }
}

impl IdRange {
    /// A range no id is in.
    pub(crate) fn empty() -> Self {
        Self {
            low: Some(1),
            high: Some(0),
        }
    }
}
