//! One ledger's share of a timeline page: rows counted per hour, and rows
//! read from a point in the timeline's order (time, then row id) forwards or
//! backwards, a page at a time.
//!
//! Nothing here reads more than a page, an hour of rows, or the per-hour
//! counts (migration 0004): the cost of a page depends on the page, not on
//! the size of the history. Merging several ledgers, and turning a scroll
//! position into rows, is [`super::page`]'s job.

use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use rusqlite::types::Value;
use rusqlite::{OptionalExtension, params_from_iter};

use super::activity::{EVENT_COLUMNS, EVENT_LIST_COLUMNS, row_to_event};
use super::filter::{Resolved, Table, Where, text};
use super::{
    HOOK_RUN_COLUMNS, Ledger, MUTATION_COLUMNS, MUTATION_LIST_COLUMNS, row_to_hook_run,
    row_to_mutation,
};
use crate::ledger::ActivityEvent;
use crate::record::MutationRow;
use crate::{Error, Result};

/// How much of each row's payload a read returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Payloads {
    /// What a list shows: none for a mutation (`raw_payload` is empty), a
    /// small summary for an event. The payloads are not read.
    #[default]
    Summary,
    /// The whole payload (`hookd query --format json` prints it).
    Whole,
}

/// A row a timeline lists: mutations (file changes) or hook events.
pub trait TimelineRow: Sized {
    /// The table its rows come from.
    const TABLE: Table;
    /// The row's timestamp, in the stored format.
    fn timestamp(&self) -> &str;
    /// The row's id in its ledger.
    fn row_id(&self) -> i64;
    /// Labels the row with its repository (multi-repository reads).
    fn set_repo(&mut self, repo: String);
    /// Reads `sql`'s rows (selected with the list's columns).
    #[doc(hidden)]
    fn read(ledger: &Ledger, sql: &str, values: &[Value]) -> Result<Vec<Self>>;
    /// The columns read: for a list (payloads left out or summarised) or whole.
    #[doc(hidden)]
    fn columns(payloads: Payloads) -> &'static str;
}

impl TimelineRow for MutationRow {
    const TABLE: Table = Table::Mutations;

    fn timestamp(&self) -> &str {
        &self.record.event_timestamp
    }

    fn row_id(&self) -> i64 {
        self.id
    }

    fn set_repo(&mut self, repo: String) {
        self.repo = Some(repo);
    }

    fn read(ledger: &Ledger, sql: &str, values: &[Value]) -> Result<Vec<Self>> {
        query_rows(ledger, sql, values, row_to_mutation)
    }

    fn columns(payloads: Payloads) -> &'static str {
        match payloads {
            Payloads::Summary => MUTATION_LIST_COLUMNS,
            Payloads::Whole => MUTATION_COLUMNS,
        }
    }
}

impl TimelineRow for ActivityEvent {
    const TABLE: Table = Table::Events;

    fn timestamp(&self) -> &str {
        &self.event_timestamp
    }

    fn row_id(&self) -> i64 {
        self.id
    }

    fn set_repo(&mut self, repo: String) {
        self.repo = Some(repo);
    }

    /// The events, each with its hook runs (one query for the page).
    fn read(ledger: &Ledger, sql: &str, values: &[Value]) -> Result<Vec<Self>> {
        let mut events = query_rows(ledger, sql, values, row_to_event)?;
        if events.is_empty() {
            return Ok(events);
        }
        let ids: Vec<Value> = events.iter().map(|e| text(&e.event_id)).collect();
        let marks = vec!["?"; ids.len()].join(", ");
        let runs = query_rows(
            ledger,
            &format!(
                "SELECT {HOOK_RUN_COLUMNS} FROM hook_runs WHERE event_id IN ({marks}) ORDER BY id"
            ),
            &ids,
            row_to_hook_run,
        )?;
        for run in runs {
            if let Some(event) = events.iter_mut().find(|e| e.event_id == run.event_id) {
                event.hook_runs.push(run);
            }
        }
        Ok(events)
    }

    fn columns(payloads: Payloads) -> &'static str {
        match payloads {
            Payloads::Summary => EVENT_LIST_COLUMNS,
            Payloads::Whole => EVENT_COLUMNS,
        }
    }
}

pub(crate) fn query_rows<T>(
    ledger: &Ledger,
    sql: &str,
    values: &[Value],
    map: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>> {
    let sqlite = |e| Error::sqlite(ledger.path(), e);
    let mut stmt = ledger.connection().prepare_cached(sql).map_err(sqlite)?;
    let rows = stmt
        .query_map(params_from_iter(values.iter()), map)
        .map_err(sqlite)?;
    rows.collect::<rusqlite::Result<Vec<_>>>().map_err(sqlite)
}

/// A point in one ledger's order: a timestamp and a row id. Bounds use
/// [`i64::MIN`] and [`i64::MAX`] as ids to mean "the first" and "the last"
/// row at that time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Key {
    /// Stored-format timestamp.
    pub timestamp: String,
    /// Row id.
    pub id: i64,
}

/// Which way to read from a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Rows after the key (strictly), oldest first.
    Forward,
    /// Rows before the key (strictly), newest first.
    Backward,
}

/// The hour (`2026-11-21T10`) a stored timestamp falls in.
pub(crate) fn hour_of(timestamp: &str) -> &str {
    timestamp.get(..HOUR).unwrap_or(timestamp)
}

/// The first instant of `hour` and of the hour after it, stored-format.
pub(crate) fn hour_bounds(hour: &str) -> Option<(String, String)> {
    let start =
        NaiveDateTime::parse_from_str(&format!("{hour}:00:00"), "%Y-%m-%dT%H:%M:%S").ok()?;
    let start: DateTime<Utc> = start.and_utc();
    Some((
        crate::timefmt::format(start),
        crate::timefmt::format(start + Duration::hours(1)),
    ))
}

/// Whether a stored timestamp is the first instant of its hour.
fn is_hour_start(timestamp: &str) -> bool {
    timestamp.get(13..) == Some(":00:00.000Z")
}

/// The length of an hour's timestamp prefix (`2026-11-21T10`).
pub(crate) const HOUR: usize = 13;
/// The length of a minute's timestamp prefix (`2026-11-21T10:05`).
pub(crate) const MINUTE: usize = 16;

/// What to group counts by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GroupBy {
    /// Nothing: one count per hour.
    Nothing,
    /// The agent.
    Agent,
    /// The tool (an event without one: its hook type).
    Tool,
}

impl GroupBy {
    /// The SQL expression of the series, the same over rows and hour counts.
    fn expression(self) -> &'static str {
        match self {
            Self::Nothing => "''",
            Self::Agent => "agent_id",
            Self::Tool => "coalesce(nullif(tool_name, ''), hook_type)",
        }
    }
}

/// Rows in one hour (or minute), for one series.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HourCount {
    /// `2026-11-21T10` (a minute: `2026-11-21T10:05`).
    pub hour: String,
    /// The series (empty when not grouped).
    pub series: String,
    /// Rows.
    pub rows: u64,
}

impl Ledger {
    /// The highest row id of `table` (0 when empty): what a reader has seen.
    pub(crate) fn newest_id(&self, table: Table) -> Result<i64> {
        self.connection()
            .query_row(
                &format!("SELECT coalesce(max(id), 0) FROM {}", table.name()),
                [],
                |r| r.get(0),
            )
            .map_err(|e| Error::sqlite(self.path(), e))
    }

    /// Rows of `table` matching `filter` per hour (and series), oldest hour
    /// first; hours without rows are left out. Counted afresh: readers ask
    /// [`Ledger::hour_counts`], which remembers them ([`super::hour_cache`]).
    ///
    /// Read from the per-hour counts, except for what they cannot answer: a
    /// file filter (the rows are counted, through the file's index), and the
    /// hours cut by `since` or `until` (those two hours' rows are counted).
    pub(crate) fn count_hours(
        &self,
        table: Table,
        filter: &Resolved,
        group: GroupBy,
    ) -> Result<Vec<HourCount>> {
        let series = group.expression();
        if group == GroupBy::Nothing
            && let Some(search) = filter.search_alone()
        {
            return self.search_hour_counts(table, filter, search);
        }
        if !filter.counted_by_hour() {
            return self.count_rows(table, filter, &filter.conditions(table), group, HOUR);
        }
        let mut w = filter.hour_conditions();
        let since = filter.since.map(crate::timefmt::format);
        let until = filter.until.map(crate::timefmt::format);
        // The hours of the bounds (see `in_bounds`); those they cut are
        // counted row by row below.
        if let Some(since) = &since {
            w.push("hour >= ?", [text(hour_of(since))]);
        }
        if let Some(until) = &until {
            if is_hour_start(until) {
                w.push("hour < ?", [text(hour_of(until))]);
            } else {
                w.push("hour <= ?", [text(hour_of(until))]);
            }
        }
        // Without series the counts are read in their key's order (hour
        // first), with no sort; without any filter either, from the totals
        // per hour (one row per hour).
        let (source, grouping) = match group {
            GroupBy::Nothing if !filter.has_dimensions() => (table.totals(), "ORDER BY hour"),
            GroupBy::Nothing => (table.hours(), "GROUP BY hour ORDER BY hour"),
            GroupBy::Agent | GroupBy::Tool => (table.hours(), "GROUP BY hour, s ORDER BY hour, s"),
        };
        let sum = if source == table.totals() {
            "rows"
        } else {
            "SUM(rows)"
        };
        let sql = format!(
            "SELECT hour, {series} AS s, {sum} FROM {source}{} {grouping}",
            w.sql()
        );
        let mut counts = self.hour_rows(&sql, &w.values)?;
        let cut = cut_hours(since.as_deref(), until.as_deref());
        self.count_cut_hours(table, filter, group, &cut, &mut counts)?;
        Ok(counts)
    }

    /// Replaces the counts of each hour in `cut` (hours the filter's time
    /// bounds cut) by its rows counted one by one, and sorts `counts`.
    fn count_cut_hours(
        &self,
        table: Table,
        filter: &Resolved,
        group: GroupBy,
        cut: &[&str],
        counts: &mut Vec<HourCount>,
    ) -> Result<()> {
        for &hour in cut {
            let Some((start, end)) = hour_bounds(hour) else {
                continue;
            };
            let mut w = filter
                .within(self, table, parse(&start), parse(&end))?
                .conditions(table);
            w.push(
                "event_timestamp >= ? AND event_timestamp < ?",
                [text(&start), text(&end)],
            );
            let exact = self.count_rows(table, filter, &w, group, HOUR)?;
            counts.retain(|c| c.hour != hour);
            counts.extend(exact);
        }
        counts.sort_by(|a, b| (&a.hour, &a.series).cmp(&(&b.hour, &b.series)));
        Ok(())
    }

    /// Rows of `table` matching `filter` per minute (and series), counted
    /// row by row: for short ranges only (the filter's time bounds).
    pub(crate) fn minute_counts(
        &self,
        table: Table,
        filter: &Resolved,
        group: GroupBy,
    ) -> Result<Vec<HourCount>> {
        self.count_rows(table, filter, &filter.conditions(table), group, MINUTE)
    }

    /// The rows of `table` that `w` selects (read as `filter` reads the
    /// table), counted per timestamp prefix of `prefix` characters
    /// ([`HOUR`], [`MINUTE`]) and series, in that order.
    pub(super) fn count_rows(
        &self,
        table: Table,
        filter: &Resolved,
        w: &Where,
        group: GroupBy,
        prefix: usize,
    ) -> Result<Vec<HourCount>> {
        let sql = format!(
            "SELECT substr(event_timestamp, 1, {prefix}) AS h, {} AS s, COUNT(*) FROM {}{} \
             GROUP BY h, s ORDER BY h, s",
            group.expression(),
            filter.from(table),
            w.sql()
        );
        self.hour_rows(&sql, &w.values)
    }

    fn hour_rows(&self, sql: &str, values: &[Value]) -> Result<Vec<HourCount>> {
        query_rows(self, sql, values, |r| {
            Ok(HourCount {
                hour: r.get(0)?,
                series: r.get(1)?,
                rows: r.get::<_, i64>(2)?.try_into().unwrap_or(0),
            })
        })
    }

    /// Up to `limit` rows matching `filter` from `from` in `direction`
    /// (strictly after or before it; the ends of the history without it),
    /// in the direction's order.
    pub(crate) fn rows_from<T: TimelineRow>(
        &self,
        filter: &Resolved,
        from: Option<&Key>,
        direction: Direction,
        limit: usize,
        payloads: Payloads,
    ) -> Result<Vec<T>> {
        self.through_windows(T::TABLE, filter, from, direction, limit, |filter| {
            self.rows_in(filter, from, direction, limit, payloads)
        })
    }

    /// [`Self::rows_from`] in one statement.
    fn rows_in<T: TimelineRow>(
        &self,
        filter: &Resolved,
        from: Option<&Key>,
        direction: Direction,
        limit: usize,
        payloads: Payloads,
    ) -> Result<Vec<T>> {
        let mut w = filter.conditions(T::TABLE);
        push_key(&mut w, from, direction);
        let order = match direction {
            Direction::Forward => "event_timestamp, id",
            Direction::Backward => "event_timestamp DESC, id DESC",
        };
        let sql = format!(
            "SELECT {} FROM {}{} ORDER BY {order} LIMIT {limit}",
            T::columns(payloads),
            filter.from(T::TABLE),
            w.sql()
        );
        T::read(self, &sql, &w.values)
    }

    /// Rows matching `filter` strictly before `key` (in the timeline's
    /// order) but in the same hour: with the hours before it counted, they
    /// give the key's position.
    pub(crate) fn rows_before_in_hour(
        &self,
        table: Table,
        filter: &Resolved,
        key: &Key,
    ) -> Result<u64> {
        let Some((start, end)) = hour_bounds(hour_of(&key.timestamp)) else {
            return Ok(0);
        };
        let mut w = filter
            .within(self, table, parse(&start), parse(&end))?
            .conditions(table);
        w.push("event_timestamp >= ?", [text(&start)]);
        push_key(&mut w, Some(key), Direction::Backward);
        let sql = format!("SELECT COUNT(*) FROM {}{}", filter.from(table), w.sql());
        let n: i64 = self
            .connection()
            .query_row(&sql, params_from_iter(w.values.iter()), |r| r.get(0))
            .map_err(|e| Error::sqlite(self.path(), e))?;
        Ok(n.try_into().unwrap_or(0))
    }

    /// Up to `limit` rows matching `filter` with an id above `after_id` (what
    /// was committed since a reader last looked), in id order.
    ///
    /// Read through the row ids (`NOT INDEXED` keeps SQLite from walking a
    /// filter's index from the start of the history instead).
    pub(crate) fn rows_newer_than<T: TimelineRow>(
        &self,
        filter: &Resolved,
        after_id: i64,
        limit: usize,
        payloads: Payloads,
    ) -> Result<Vec<T>> {
        let mut w = filter.above_id(after_id).conditions(T::TABLE);
        w.push("id > ?", [Value::Integer(after_id)]);
        let sql = format!(
            "SELECT {} FROM {} NOT INDEXED{} ORDER BY id LIMIT {limit}",
            T::columns(payloads),
            T::TABLE.name(),
            w.sql()
        );
        T::read(self, &sql, &w.values)
    }

    /// The oldest or newest row's key matching `filter`.
    pub(crate) fn end_key(
        &self,
        table: Table,
        filter: &Resolved,
        direction: Direction,
    ) -> Result<Option<Key>> {
        let keys = self.through_windows(table, filter, None, direction, 1, |filter| {
            Ok(self
                .end_key_in(table, filter, direction)?
                .into_iter()
                .collect())
        })?;
        Ok(keys.into_iter().next())
    }

    /// [`Self::end_key`] in one statement.
    fn end_key_in(
        &self,
        table: Table,
        filter: &Resolved,
        direction: Direction,
    ) -> Result<Option<Key>> {
        let w = filter.conditions(table);
        let order = match direction {
            Direction::Forward => "event_timestamp, id",
            Direction::Backward => "event_timestamp DESC, id DESC",
        };
        let sql = format!(
            "SELECT event_timestamp, id FROM {}{} ORDER BY {order} LIMIT 1",
            filter.from(table),
            w.sql()
        );
        self.connection()
            .query_row(&sql, params_from_iter(w.values.iter()), |r| {
                Ok(Key {
                    timestamp: r.get(0)?,
                    id: r.get(1)?,
                })
            })
            .optional()
            .map_err(|e| Error::sqlite(self.path(), e))
    }
}

/// A stored-format timestamp as a time.
fn parse(timestamp: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(timestamp)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// How many times longer each window of a search's read is than the one
/// before it.
const WINDOW_GROWTH: i64 = 8;

impl Ledger {
    /// Reads `limit` rows (with `read`) from `from` in `direction`: at once
    /// when one index holds the matches in order; otherwise (a search,
    /// several files: [`Resolved::reads_through_windows`]) through windows
    /// of time growing from the hour of `from` (or that end of the
    /// history), so only the matches of the hours a page reaches are read,
    /// not every match. The rows a window holds come before every row
    /// outside it in the direction's order, so once it holds `limit` rows
    /// they are the page.
    fn through_windows<R>(
        &self,
        table: Table,
        filter: &Resolved,
        from: Option<&Key>,
        direction: Direction,
        limit: usize,
        mut read: impl FnMut(&Resolved) -> Result<Vec<R>>,
    ) -> Result<Vec<R>> {
        if !filter.reads_through_windows() {
            return read(filter);
        }
        let Some((oldest, newest)) = self.run_hours(table)? else {
            return read(filter);
        };
        let start_hour = match (from, direction) {
            (Some(key), _) => hour_of(&key.timestamp),
            (None, Direction::Backward) => newest.as_str(),
            (None, Direction::Forward) => oldest.as_str(),
        };
        let bounds = |hour: &str| {
            hour_bounds(hour).and_then(|(start, end)| Some((parse(&start)?, parse(&end)?)))
        };
        let (Some((start, end)), Some((first, _)), Some((_, last))) =
            (bounds(start_hour), bounds(&oldest), bounds(&newest))
        else {
            return read(filter);
        };
        // The side of `from` bounds every window (and the ids read).
        let (key_since, key_until) = match (from, direction) {
            (None, _) => (None, None),
            (Some(_), Direction::Backward) => (None, Some(end)),
            (Some(_), Direction::Forward) => (Some(start), None),
        };
        let mut hours = 1_i64;
        loop {
            let (since, until, whole) = match direction {
                // A window past the range of times covers the history.
                Direction::Backward => {
                    let since = end.checked_sub_signed(Duration::hours(hours));
                    let whole = since.is_none_or(|since| {
                        since <= first || filter.since.is_some_and(|s| s >= since)
                    });
                    (since, key_until, whole)
                }
                Direction::Forward => {
                    let until = start.checked_add_signed(Duration::hours(hours));
                    let whole = until.is_none_or(|until| {
                        until >= last || filter.until.is_some_and(|u| u <= until)
                    });
                    (key_since, until, whole)
                }
            };
            if whole {
                return match from {
                    None => read(filter),
                    Some(_) => read(&filter.within(self, table, key_since, key_until)?),
                };
            }
            let rows = read(&filter.within(self, table, since, until)?)?;
            if rows.len() >= limit {
                return Ok(rows);
            }
            hours = hours.saturating_mul(WINDOW_GROWTH);
        }
    }

    /// A search's rows per hour, when the search is the whole filter (time
    /// bounds aside): from the search index and the runs of hours, without
    /// reading a row, except in the hours the time bounds cut.
    fn search_hour_counts(
        &self,
        table: Table,
        filter: &Resolved,
        search: &str,
    ) -> Result<Vec<HourCount>> {
        let since = filter.since.map(crate::timefmt::format);
        let until = filter.until.map(crate::timefmt::format);
        let (since, until) = (since.as_deref(), until.as_deref());
        let mut counts: Vec<HourCount> = self
            .search_hours(table, search, filter.search_ids())?
            .into_iter()
            .filter(|(hour, _)| in_bounds(hour, since, until))
            .map(|(hour, rows)| HourCount {
                hour,
                series: String::new(),
                rows,
            })
            .collect();
        // An hour without matches needs no count.
        let cut: Vec<&str> = cut_hours(since, until)
            .into_iter()
            .filter(|&hour| counts.iter().any(|c| c.hour == hour))
            .collect();
        self.count_cut_hours(table, filter, GroupBy::Nothing, &cut, &mut counts)?;
        Ok(counts)
    }
}

/// The hours `since` and `until` cut, rather than start: only some of
/// their rows are in the range, so those are counted one by one.
fn cut_hours<'a>(since: Option<&'a str>, until: Option<&'a str>) -> Vec<&'a str> {
    let mut cut: Vec<&str> = [since, until]
        .into_iter()
        .flatten()
        .filter(|t| !is_hour_start(t))
        .map(hour_of)
        .collect();
    cut.dedup();
    cut
}

/// Whether some of `hour`'s rows can be in `[since, until)`: from the hour
/// of `since` to that of `until`, which is left out when `until` starts it.
fn in_bounds(hour: &str, since: Option<&str>, until: Option<&str>) -> bool {
    since.is_none_or(|s| hour >= hour_of(s))
        && until.is_none_or(|u| {
            if is_hour_start(u) {
                hour < hour_of(u)
            } else {
                hour <= hour_of(u)
            }
        })
}

/// Adds "strictly after (or before) `key`" to `w`. The timestamp term alone
/// bounds the index range; the id only orders rows of the same millisecond.
fn push_key(w: &mut Where, key: Option<&Key>, direction: Direction) {
    let Some(key) = key else { return };
    let ts = text(&key.timestamp);
    let id = Value::Integer(key.id);
    match direction {
        Direction::Forward => w.push(
            "event_timestamp >= ? AND (event_timestamp > ? OR id > ?)",
            [ts.clone(), ts, id],
        ),
        Direction::Backward => w.push(
            "event_timestamp <= ? AND (event_timestamp < ? OR id < ?)",
            [ts.clone(), ts, id],
        ),
    }
}
