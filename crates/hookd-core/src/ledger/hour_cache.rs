//! The rows per hour a filter matches in a ledger, remembered between reads.
//!
//! Every page needs them (its total, and the hour a scroll position falls
//! in), and so does the chart; a live list reads a page on every commit,
//! about a hundred times during a burst of 20,000 events. Each read counted
//! them again: from the per-hour counts of the whole history, or, for a file
//! or a search filter, from the matching rows themselves.
//!
//! A ledger only grows: its rows are never changed or deleted. So the
//! counts a filter had when the newest row id was N, plus those of the
//! matching rows after N (late rows included: each counts in its own hour),
//! are its counts now. An entry keeps the counts with the N they cover, and a
//! read counts only the rows committed since, a range of the primary key.
//!
//! An entry is for one file (device and inode, and the event id of the
//! table's first row, should a removed ledger's inode be reused by a new
//! one), one table, one filter as that ledger resolved it, and one grouping.
//! A few entries are kept, the most recently used; counts of more than
//! [`MAX_CACHED_COUNTS`] hours and series are not kept, so the memory this
//! takes does not grow with the history.

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use rusqlite::OptionalExtension as _;
use rusqlite::types::Value;

use super::Ledger;
use super::filter::{Resolved, Table};
use super::sink::FileIdentity;
use super::window::{GroupBy, HOUR, HourCount};
use crate::{Error, Result};

/// Most entries kept (a window's list and chart, a few recent filters).
#[cfg(not(test))]
const MAX_ENTRIES: usize = 8;
/// Tests read many ledgers in parallel: none of them may evict another's.
#[cfg(test)]
const MAX_ENTRIES: usize = 4096;

/// Counts longer than this (hours × series) are not kept.
pub(crate) const MAX_CACHED_COUNTS: usize = 50_000;

/// Which ledger file and table an entry counts, and from which first row.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Source {
    path: PathBuf,
    identity: FileIdentity,
    origin: Option<String>,
    table: Table,
}

/// Counts of one filter and grouping, up to row id `newest`.
struct Entry {
    source: Source,
    filter: Resolved,
    group: GroupBy,
    newest: i64,
    counts: Vec<HourCount>,
}

/// Most recently used first.
static ENTRIES: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

#[cfg(test)]
thread_local! {
    /// How many reads on this thread counted only the rows added since
    /// their entry (tests).
    pub(crate) static EXTENDED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl Ledger {
    /// Rows of `table` matching `filter` per hour (and series), oldest hour
    /// first, as [`Ledger::count_hours`] counts them: from the counts of an
    /// earlier read when there is one, plus the rows committed since.
    ///
    /// The newest id and the counts must come from one snapshot: call within
    /// a read transaction (one is begun here otherwise).
    pub(crate) fn hour_counts(
        &self,
        table: Table,
        filter: &Resolved,
        group: GroupBy,
    ) -> Result<Vec<HourCount>> {
        let _snapshot = if self.connection().is_autocommit() {
            Some(
                self.connection()
                    .unchecked_transaction()
                    .map_err(|e| Error::sqlite(self.path(), e))?,
            )
        } else {
            None
        };
        let newest = self.newest_id(table)?;
        let Some(source) = self.cache_source(table)? else {
            return self.count_hours(table, filter, group);
        };
        let found = {
            let mut entries = ENTRIES.lock().unwrap_or_else(PoisonError::into_inner);
            entries
                .iter()
                .position(|e| e.source == source && e.group == group && e.filter == *filter)
                .map(|at| entries.remove(at))
        };
        let counts = match found {
            Some(entry) if entry.newest == newest => entry.counts,
            Some(entry) if entry.newest < newest => {
                #[cfg(test)]
                EXTENDED.with(|n| n.set(n.get() + 1));
                let added = self.count_hours_after(table, filter, group, entry.newest)?;
                merge(entry.counts, added)
            }
            // Fewer rows than the entry covers: not the same history.
            _ => self.count_hours(table, filter, group)?,
        };
        if counts.len() <= MAX_CACHED_COUNTS {
            let mut entries = ENTRIES.lock().unwrap_or_else(PoisonError::into_inner);
            entries.insert(
                0,
                Entry {
                    source,
                    filter: filter.clone(),
                    group,
                    newest,
                    counts: counts.clone(),
                },
            );
            entries.truncate(MAX_ENTRIES);
        }
        Ok(counts)
    }

    /// What an entry for `table` of this ledger is keyed on; `None` when the
    /// file cannot be identified (it is then counted afresh).
    fn cache_source(&self, table: Table) -> Result<Option<Source>> {
        let Some(identity) = FileIdentity::of(self.path()) else {
            return Ok(None);
        };
        let origin = self
            .connection()
            .query_row(
                &format!("SELECT event_id FROM {} ORDER BY id LIMIT 1", table.name()),
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| Error::sqlite(self.path(), e))?;
        Ok(Some(Source {
            path: self.path().to_path_buf(),
            identity,
            origin,
            table,
        }))
    }

    /// Rows of `table` matching `filter` with an id above `after`, per hour
    /// (and series).
    fn count_hours_after(
        &self,
        table: Table,
        filter: &Resolved,
        group: GroupBy,
        after: i64,
    ) -> Result<Vec<HourCount>> {
        let mut w = filter.above_id(after).conditions(table);
        w.push("id > ?", [Value::Integer(after)]);
        self.count_rows(table, filter, &w, group, HOUR)
    }
}

/// `a` and `b` (each sorted by hour, then series) added up, sorted.
fn merge(mut a: Vec<HourCount>, b: Vec<HourCount>) -> Vec<HourCount> {
    if b.is_empty() {
        return a;
    }
    a.extend(b);
    a.sort_by(|x, y| (&x.hour, &x.series).cmp(&(&y.hour, &y.series)));
    let mut merged: Vec<HourCount> = Vec::with_capacity(a.len());
    for c in a {
        match merged.last_mut() {
            Some(last) if last.hour == c.hour && last.series == c.series => last.rows += c.rows,
            _ => merged.push(c),
        }
    }
    merged
}
