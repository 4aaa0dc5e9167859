//! A page of the timeline: the rows a screen (or `hookd query --limit`)
//! shows, read from one ledger or merged from many, never the history
//! behind them.
//!
//! The timeline's order is time, then repository, then row id. A page starts
//! at an [`Anchor`]: either end, a row (keyset: strictly after or before
//! it), a time, a position (a scroll offset), or the ids a reader has seen
//! (what was committed since). A position is found through the rows counted
//! per hour: the hour holding it is a sum away, and the page is read from
//! that hour's first row, so a jump to the middle of ten million rows reads
//! an hour's worth at most. Every page says where it starts and how many
//! rows match in all, so a list can size its scroll bar.
//!
//! Each ledger is read in one read transaction, so the counts, the rows and
//! the ids seen agree even while the daemon commits.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::filter::Table;
use super::query::{Query, Source, read_snapshots, sources};
use super::window::{Direction, GroupBy, Key, hour_bounds, hour_of};
pub use super::window::{Payloads, TimelineRow};
use crate::{Error, Result};

/// The highest row id read from each ledger, by repository (the root's path,
/// `(outside git)`, or `""` for the one ledger of a single-repository
/// read): what a live list has seen.
pub type Watermark = BTreeMap<String, i64>;

/// A row's place in the timeline: its time, its repository (in
/// multi-repository reads) and its id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Cursor {
    /// The row's `event_timestamp`.
    pub timestamp: String,
    /// The row's id in its ledger.
    pub id: i64,
    /// The row's repository, as rows of multi-repository reads carry it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub repo: Option<String>,
}

impl Cursor {
    /// The cursor of `row`.
    pub fn of<T: TimelineRow>(row: &T, repo: Option<&str>) -> Self {
        Self {
            timestamp: row.timestamp().to_owned(),
            id: row.row_id(),
            repo: repo.map(str::to_owned),
        }
    }

    /// Reads `TIMESTAMP,ID` or `TIMESTAMP,ID,REPO` (as [`Cursor::to_arg`] writes it).
    pub fn parse_arg(input: &str) -> Option<Self> {
        let mut parts = input.splitn(3, ',');
        let timestamp = crate::timefmt::normalize(parts.next()?)?;
        let id = parts.next()?.trim().parse().ok()?;
        let repo = parts.next().map(str::to_owned);
        Some(Self {
            timestamp,
            id,
            repo,
        })
    }

    /// `TIMESTAMP,ID[,REPO]`: what `hookd query --before/--after` takes.
    pub fn to_arg(&self) -> String {
        match &self.repo {
            Some(repo) => format!("{},{},{repo}", self.timestamp, self.id),
            None => format!("{},{}", self.timestamp, self.id),
        }
    }
}

/// Where a page starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "at", rename_all = "snake_case")]
pub enum Anchor {
    /// The newest rows (the end of the list).
    Newest,
    /// The oldest rows.
    Oldest,
    /// The rows right after this one (newer).
    After {
        /// The row.
        cursor: Cursor,
    },
    /// The rows right before this one (older).
    Before {
        /// The row.
        cursor: Cursor,
    },
    /// The rows from this position on (0 is the oldest matching row).
    Position {
        /// The position.
        position: u64,
    },
    /// The rows from this time on (stored format, as [`crate::timefmt::format`] writes it).
    Time {
        /// The time.
        time: String,
    },
    /// The rows committed since a reader saw `seen` (live updates).
    NewerThan {
        /// What the reader has seen, as an earlier page returned it.
        seen: Watermark,
    },
}

/// A page of rows and where it sits in the whole.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Page<T> {
    /// The rows, oldest first.
    pub rows: Vec<T>,
    /// The position of the first row among all matching rows (0 is the oldest).
    pub first: u64,
    /// How many rows match in all.
    pub total: u64,
    /// The highest row id read from each ledger: ask for
    /// [`Anchor::NewerThan`] with it to get what is committed next.
    pub seen: Watermark,
}

/// Most rows one page may hold.
pub const MAX_PAGE: usize = 10_000;

/// The page of `query`'s rows (mutations or hook events) at `anchor`,
/// at most `limit` rows ([`MAX_PAGE`] at most), without their payloads
/// (see [`Payloads::Summary`]).
pub fn page<T: TimelineRow>(query: &Query, anchor: &Anchor, limit: usize) -> Result<Page<T>> {
    page_with(query, anchor, limit, Payloads::Summary)
}

/// [`page`], with as much of the payloads as `payloads` says.
pub fn page_with<T: TimelineRow>(
    query: &Query,
    anchor: &Anchor,
    limit: usize,
    payloads: Payloads,
) -> Result<Page<T>> {
    let limit = limit.clamp(1, MAX_PAGE);
    let sources = sources(query, T::TABLE)?;
    let _snapshots = read_snapshots(&sources)?;
    let table = T::TABLE;
    let mut seen = Watermark::new();
    for s in &sources {
        seen.insert(s.key().to_owned(), s.ledger.newest_id(table)?);
    }
    let hours = hours(&sources, table)?;
    let total: u64 = hours.iter().map(|(_, n)| n).sum();
    let mut rows: Vec<(String, T)> = match anchor {
        Anchor::Newest => merged(&sources, None, Direction::Backward, limit, payloads)?,
        Anchor::Oldest => merged(&sources, None, Direction::Forward, limit, payloads)?,
        Anchor::After { cursor } => {
            merged(&sources, Some(cursor), Direction::Forward, limit, payloads)?
        }
        Anchor::Before { cursor } => {
            merged(&sources, Some(cursor), Direction::Backward, limit, payloads)?
        }
        Anchor::Time { time } => {
            let timestamp = crate::timefmt::normalize(time).ok_or_else(|| Error::InvalidTime {
                input: time.clone(),
            })?;
            let from = Cursor {
                timestamp,
                id: i64::MIN,
                repo: None,
            };
            merged(&sources, Some(&from), Direction::Forward, limit, payloads)?
        }
        Anchor::Position { position } => {
            at_position(&sources, &hours, *position, total, limit, payloads)?
        }
        Anchor::NewerThan { seen: before } => {
            let mut rows = Vec::new();
            for s in &sources {
                let after = before.get(s.key()).copied().unwrap_or(0);
                let found: Vec<T> =
                    s.ledger
                        .rows_newer_than(&s.resolved, after, limit, payloads)?;
                if found.len() == limit {
                    // More are waiting: the next read goes on from here.
                    if let Some(last) = found.last() {
                        seen.insert(s.key().to_owned(), last.row_id());
                    }
                }
                rows.extend(found.into_iter().map(|r| (s.key().to_owned(), r)));
            }
            rows.sort_by(|(a_repo, a), (b_repo, b)| order(a, a_repo).cmp(&order(b, b_repo)));
            rows
        }
    };
    let first = match (anchor, rows.first()) {
        (_, None) => match anchor {
            Anchor::Oldest => 0,
            _ => total,
        },
        (Anchor::Oldest, Some(_)) => 0,
        (Anchor::Newest, Some(_)) => total.saturating_sub(rows.len() as u64),
        (Anchor::Position { position }, Some(_)) => (*position).min(total.saturating_sub(1)),
        (_, Some((repo, row))) => position_of(&sources, &hours, row, repo)?,
    };
    let multi = sources.iter().any(|s| s.label.is_some());
    let rows = rows
        .drain(..)
        .map(|(repo, mut row)| {
            if multi {
                row.set_repo(repo);
            }
            row
        })
        .collect();
    Ok(Page {
        rows,
        first,
        total,
        seen,
    })
}

/// The timeline's sort key of a row from the ledger `repo`.
fn order<'a, T: TimelineRow>(row: &'a T, repo: &'a str) -> (&'a str, &'a str, i64) {
    (row.timestamp(), repo, row.row_id())
}

/// Rows per hour over every source, oldest first.
fn hours(sources: &[Source], table: Table) -> Result<Vec<(String, u64)>> {
    let mut hours: BTreeMap<String, u64> = BTreeMap::new();
    for s in sources {
        for c in s.ledger.hour_counts(table, &s.resolved, GroupBy::Nothing)? {
            *hours.entry(c.hour).or_default() += c.rows;
        }
    }
    Ok(hours.into_iter().collect())
}

/// `cursor` as a key in the ledger of `source`: rows of other ledgers at
/// the same time sort by repository, so they fall wholly before or after it.
fn key_in(source: &Source, cursor: &Cursor) -> Key {
    let id = match (&cursor.repo, source.label.as_deref()) {
        (Some(repo), Some(label)) if label > repo.as_str() => i64::MIN,
        (Some(repo), Some(label)) if label < repo.as_str() => i64::MAX,
        _ => cursor.id,
    };
    Key {
        timestamp: cursor.timestamp.clone(),
        id,
    }
}

/// Up to `limit` rows from every source after (or before) `from`, merged in
/// the timeline's order and returned oldest first.
fn merged<T: TimelineRow>(
    sources: &[Source],
    from: Option<&Cursor>,
    direction: Direction,
    limit: usize,
    payloads: Payloads,
) -> Result<Vec<(String, T)>> {
    let mut rows = Vec::new();
    for s in sources {
        let key = from.map(|c| key_in(s, c));
        let found: Vec<T> =
            s.ledger
                .rows_from(&s.resolved, key.as_ref(), direction, limit, payloads)?;
        rows.extend(found.into_iter().map(|r| (s.key().to_owned(), r)));
    }
    rows.sort_by(|(a_repo, a), (b_repo, b)| order(a, a_repo).cmp(&order(b, b_repo)));
    match direction {
        Direction::Forward => rows.truncate(limit),
        Direction::Backward => {
            let excess = rows.len().saturating_sub(limit);
            rows.drain(..excess);
        }
    }
    Ok(rows)
}

/// The rows from `position` on: the hour holding it is found in `hours`,
/// and read from its first row, skipping those before the position.
fn at_position<T: TimelineRow>(
    sources: &[Source],
    hours: &[(String, u64)],
    position: u64,
    total: u64,
    limit: usize,
    payloads: Payloads,
) -> Result<Vec<(String, T)>> {
    if total == 0 {
        return Ok(Vec::new());
    }
    let position = position.min(total - 1);
    let mut before = 0;
    let mut start = None;
    for (hour, n) in hours {
        if before + n > position {
            start = Some(hour);
            break;
        }
        before += n;
    }
    let Some(hour) = start else {
        return Ok(Vec::new());
    };
    let Some((hour_start, _)) = hour_bounds(hour) else {
        return Ok(Vec::new());
    };
    let skip = usize::try_from(position - before).unwrap_or(usize::MAX);
    let from = Cursor {
        timestamp: hour_start,
        id: i64::MIN,
        repo: None,
    };
    let mut rows = merged(
        sources,
        Some(&from),
        Direction::Forward,
        skip + limit,
        payloads,
    )?;
    rows.drain(..skip.min(rows.len()));
    rows.truncate(limit);
    Ok(rows)
}

/// How many matching rows come before `row` (of the ledger `repo`).
fn position_of<T: TimelineRow>(
    sources: &[Source],
    hours: &[(String, u64)],
    row: &T,
    repo: &str,
) -> Result<u64> {
    let hour = hour_of(row.timestamp());
    let mut position: u64 = hours
        .iter()
        .take_while(|(h, _)| h.as_str() < hour)
        .map(|(_, n)| n)
        .sum();
    let cursor = Cursor {
        timestamp: row.timestamp().to_owned(),
        id: row.row_id(),
        repo: Some(repo.to_owned()),
    };
    for s in sources {
        let cursor = Cursor {
            repo: s.label.as_ref().map(|_| repo.to_owned()),
            ..cursor.clone()
        };
        position += s
            .ledger
            .rows_before_in_hour(T::TABLE, &s.resolved, &key_in(s, &cursor))?;
    }
    Ok(position)
}
