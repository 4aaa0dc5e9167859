//! The timeline's chart: rows per minute, hour or day, split by agent or by
//! tool, counted by SQL over the per-hour counts (migration 0004) rather
//! than by the window over the rows it holds. The bin follows the range
//! shown (a few hours: minutes; a few days: hours; more: days), and the
//! range follows the filter, so zooming in is narrowing `since`/`until`.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, DurationRound, Utc};
use serde::{Deserialize, Serialize};

use super::page::Watermark;
use super::query::{Query, Source, read_snapshots, sources};
use super::window::{Direction, GroupBy, HOUR, HourCount, MINUTE, TimelineRow};
use crate::timefmt;
use crate::{Error, Result};

/// The width of a bin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Bin {
    /// One minute.
    Minute,
    /// One hour.
    Hour,
    /// One day (UTC).
    Day,
}

impl Bin {
    fn duration(self) -> Duration {
        match self {
            Self::Minute => Duration::minutes(1),
            Self::Hour => Duration::hours(1),
            Self::Day => Duration::days(1),
        }
    }

    /// The length of a bin's stored-timestamp prefix (`2026-11-21T10:05`, …).
    fn prefix(self) -> usize {
        match self {
            Self::Minute => MINUTE,
            Self::Hour => HOUR,
            Self::Day => 10,
        }
    }
}

/// What a chart's series are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SeriesBy {
    /// One series per agent.
    #[default]
    Agent,
    /// One series per tool (events without one: per hook type).
    Tool,
}

/// What a chart asks for; the query's filter narrows it as it does the list.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(default)]
pub struct HistogramRequest {
    /// Start of the range shown (RFC 3339); default: the filter's `since`,
    /// else the oldest matching row.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub from: Option<String>,
    /// End of the range shown (RFC 3339, exclusive); default: the filter's
    /// `until`, else now when `since` is given, else the newest matching row.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub to: Option<String>,
    /// What the series are.
    pub series: SeriesBy,
    /// Most bins wanted (default 240): the bin is the smallest of minute,
    /// hour and day that covers the range in this many.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub max_bins: Option<u32>,
    /// Most series (default 6); the smaller ones are summed as `other`.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub max_series: Option<u32>,
}

/// One series of a chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Series {
    /// The agent, the tool (or an event's hook type), or `other`.
    pub name: String,
    /// Rows per bin.
    pub counts: Vec<u64>,
    /// Rows in the range.
    pub total: u64,
}

/// Rows per bin and series over a range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Histogram {
    /// The bin width.
    pub bin: Bin,
    /// Start of the first bin (stored format).
    pub start: String,
    /// End of the last bin (exclusive).
    pub end: String,
    /// Number of bins.
    pub bins: u32,
    /// The series, largest first (`other` last).
    pub series: Vec<Series>,
    /// Rows in the range.
    pub total: u64,
    /// The oldest matching row's time (the whole filter, not only the range).
    pub first: Option<String>,
    /// The newest matching row's time.
    pub last: Option<String>,
    /// The ledgers' newest row ids when counted.
    pub seen: Watermark,
}

/// The name of the series summing the smaller ones.
pub const OTHER: &str = "other";

/// Counts `query`'s rows (mutations or hook events, as `T`) for a chart.
pub fn histogram<T: TimelineRow>(query: &Query, request: &HistogramRequest) -> Result<Histogram> {
    let sources = sources(query, T::TABLE)?;
    let _snapshots = read_snapshots(&sources)?;
    let table = T::TABLE;
    let mut seen = Watermark::new();
    let (mut first, mut last): (Option<String>, Option<String>) = (None, None);
    for s in &sources {
        seen.insert(s.key().to_owned(), s.ledger.newest_id(table)?);
        if let Some(k) = s.ledger.end_key(table, &s.resolved, Direction::Forward)?
            && first.as_ref().is_none_or(|f| k.timestamp < *f)
        {
            first = Some(k.timestamp);
        }
        if let Some(k) = s.ledger.end_key(table, &s.resolved, Direction::Backward)?
            && last.as_ref().is_none_or(|l| k.timestamp > *l)
        {
            last = Some(k.timestamp);
        }
    }
    let parse = |name: &str, value: &Option<String>| -> Result<Option<DateTime<Utc>>> {
        value
            .as_deref()
            .map(|v| {
                DateTime::parse_from_rfc3339(v.trim())
                    .map(|t| t.with_timezone(&Utc))
                    .map_err(|_| Error::InvalidTime {
                        input: format!("{name}: {v}"),
                    })
            })
            .transpose()
    };
    let stored = |v: &Option<String>| {
        v.as_deref()
            .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
            .map(|t| t.with_timezone(&Utc))
    };
    let (first_at, last_at) = (stored(&first), stored(&last));
    let now = Utc::now();
    let from = parse("from", &request.from)?
        .or(query.filter.since)
        .or(first_at)
        .unwrap_or(now);
    let to = parse("to", &request.to)?
        .or(query.filter.until)
        .or_else(|| query.filter.since.map(|_| now))
        .or_else(|| last_at.map(|t| t + Duration::milliseconds(1)))
        .unwrap_or(now)
        .max(from + Duration::minutes(1));
    let max_bins = i64::from(request.max_bins.unwrap_or(240).max(1));
    let span = to - from;
    let bin = if span <= Duration::minutes(max_bins) {
        Bin::Minute
    } else if span <= Duration::hours(max_bins) {
        Bin::Hour
    } else {
        Bin::Day
    };
    let width = bin.duration();
    let start = from.duration_trunc(width).unwrap_or(from);
    let bins =
        ((to - start).num_milliseconds() + width.num_milliseconds() - 1) / width.num_milliseconds();
    let bins = u32::try_from(bins.max(1)).unwrap_or(u32::MAX);
    let end = start + width * i32::try_from(bins).unwrap_or(i32::MAX);
    let group = match request.series {
        SeriesBy::Agent => GroupBy::Agent,
        SeriesBy::Tool => GroupBy::Tool,
    };
    // The list's filter, narrowed to the range where the range cuts the
    // matching rows: a bound inside an hour has that hour counted row by
    // row, which on a history larger than memory is a read from disk, so a
    // range that holds every matching row (the default) adds none.
    let narrow_since = first_at.is_none_or(|first| first < from);
    let narrow_until = last_at.is_none_or(|last| last >= to);
    let mut counts: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for s in &sources {
        let mut filter = s.resolved.clone();
        filter.since = match filter.since {
            Some(since) => Some(since.max(from)),
            None if narrow_since => Some(from),
            None => None,
        };
        filter.until = match filter.until {
            Some(until) => Some(until.min(to)),
            None if narrow_until => Some(to),
            None => None,
        };
        for c in bin_counts(s, table, &filter, group, bin)? {
            let Some(index) = bin_index(&c.hour, bin, start) else {
                continue;
            };
            if index < bins as usize {
                counts
                    .entry(c.series)
                    .or_insert_with(|| vec![0; bins as usize])[index] += c.rows;
            }
        }
    }
    let mut series: Vec<Series> = counts
        .into_iter()
        .map(|(name, counts)| Series {
            total: counts.iter().sum(),
            name,
            counts,
        })
        .collect();
    series.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.name.cmp(&b.name)));
    let max_series = request.max_series.unwrap_or(6).max(1) as usize;
    if series.len() > max_series {
        let rest = series.split_off(max_series - 1);
        let mut other = Series {
            name: OTHER.to_owned(),
            counts: vec![0; bins as usize],
            total: 0,
        };
        for s in rest {
            for (o, c) in other.counts.iter_mut().zip(&s.counts) {
                *o += c;
            }
            other.total += s.total;
        }
        series.push(other);
    }
    Ok(Histogram {
        bin,
        start: timefmt::format(start),
        end: timefmt::format(end),
        bins,
        total: series.iter().map(|s| s.total).sum(),
        series,
        first,
        last,
        seen,
    })
}

/// One ledger's counts per bin: minutes row by row (the range is a few
/// hours at most), hours and days from the per-hour counts.
fn bin_counts(
    source: &Source,
    table: super::Table,
    filter: &super::filter::Resolved,
    group: GroupBy,
    bin: Bin,
) -> Result<Vec<HourCount>> {
    match bin {
        Bin::Minute => source.ledger.minute_counts(table, filter, group),
        Bin::Hour => source.ledger.hour_counts(table, filter, group),
        Bin::Day => {
            let mut days: BTreeMap<(String, String), u64> = BTreeMap::new();
            for c in source.ledger.hour_counts(table, filter, group)? {
                let day = c
                    .hour
                    .get(..Bin::Day.prefix())
                    .unwrap_or(&c.hour)
                    .to_owned();
                *days.entry((day, c.series)).or_default() += c.rows;
            }
            Ok(days
                .into_iter()
                .map(|((hour, series), rows)| HourCount { hour, series, rows })
                .collect())
        }
    }
}

/// The bin a `2026-11-21T10:05`-style prefix falls in.
fn bin_index(prefix: &str, bin: Bin, start: DateTime<Utc>) -> Option<usize> {
    let full = match bin {
        Bin::Minute => format!("{prefix}:00Z"),
        Bin::Hour => format!("{prefix}:00:00Z"),
        Bin::Day => format!("{prefix}T00:00:00Z"),
    };
    let at = DateTime::parse_from_rfc3339(&full)
        .ok()?
        .with_timezone(&Utc);
    let offset = (at - start).num_milliseconds();
    if offset < 0 {
        return None;
    }
    usize::try_from(offset / bin.duration().num_milliseconds()).ok()
}
