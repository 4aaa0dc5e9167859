//! What the ledger saw of each managed hook since a moment: how often it
//! ran, failed, timed out, exited 1, how long it took, and how many events
//! of each kind arrived meanwhile, for `hookd doctor` ([`crate::health`]);
//! and the newest events with their payloads, which a backtest replays
//! ([`crate::executor::backtest`]).
//!
//! Reads are bounded by time through the `started_at` and
//! `(hook_type, event_timestamp)` indexes, so the cost follows the window
//! asked for, not the history.

use std::collections::BTreeMap;

use super::Ledger;
use crate::names::normalize_hook_type;
use crate::{Error, Result};

/// The runs of one managed hook (a command of one settings file) in a window.
#[derive(Debug, Clone, PartialEq)]
pub struct HookRunStats {
    /// The settings file it came from.
    pub source: String,
    /// Its command.
    pub command: String,
    /// The event, snake case (`pre_tool_use`).
    pub hook_type: String,
    /// Runs (skipped ones not counted).
    pub runs: u64,
    /// Runs skipped (an untrusted file, ...).
    pub skipped: u64,
    /// Runs that failed: an error, or an exit code other than 0 and 2.
    pub failed: u64,
    /// Runs killed at their timeout.
    pub timed_out: u64,
    /// Runs that exited with code 1 (non-blocking, whatever the hook meant).
    pub exit_one: u64,
    /// Runs that exited with code 2.
    pub exit_two: u64,
    /// 95th percentile of the run time, in milliseconds.
    pub p95_ms: f64,
    /// When it last ran (RFC 3339).
    pub last_run: String,
}

/// One recorded event as a backtest replays it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedEvent {
    /// Its id.
    pub event_id: String,
    /// The event, as recorded (snake case).
    pub hook_type: String,
    /// When it happened (RFC 3339).
    pub timestamp: String,
    /// The tool, for tool events.
    pub tool_name: Option<String>,
    /// The payload as the agent sent it (`null` if it was not valid JSON).
    pub payload: serde_json::Value,
    /// The managed hooks that ran for it, as recorded.
    pub runs: Vec<RecordedRun>,
}

/// One managed hook's run for a recorded event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedRun {
    /// The settings file it came from.
    pub source: String,
    /// Its command.
    pub command: String,
    /// What it decided, if anything.
    pub decision: Option<String>,
}

/// The hook runs of a bounded read: the id range on the primary key
/// (`NOT INDEXED`), never the whole window through the time index.
const NEWEST_RUNS: &str = "SELECT source, command, hook_type, skipped IS NOT NULL, \
        (error IS NOT NULL OR (exit_code IS NOT NULL AND exit_code NOT IN (0, 2))), \
        timed_out, exit_code, duration_ms, started_at \
     FROM hook_runs NOT INDEXED WHERE id > ?2 AND started_at >= ?1 ORDER BY id";

/// The event counts of a bounded read, as [`NEWEST_RUNS`] (without `NOT
/// INDEXED`, the planner walks the whole hook type index to group by it).
const NEWEST_EVENTS: &str = "SELECT hook_type, count(*) FROM events NOT INDEXED \
     WHERE id > ?2 AND event_timestamp >= ?1 GROUP BY hook_type";

impl Ledger {
    /// Every managed hook that ran (or was skipped) since `since` (RFC 3339),
    /// among the newest `newest` runs when given: a bounded read whose cost
    /// does not grow with the history (the tray's check).
    pub fn hook_run_stats(&self, since: &str, newest: Option<u64>) -> Result<Vec<HookRunStats>> {
        let (text, after) = match newest {
            None => (
                "SELECT source, command, hook_type, skipped IS NOT NULL, \
                            (error IS NOT NULL OR (exit_code IS NOT NULL AND exit_code NOT IN (0, 2))), \
                            timed_out, exit_code, duration_ms, started_at \
                     FROM hook_runs WHERE started_at >= ?1 AND ?2 = 0 ORDER BY started_at",
                0,
            ),
            Some(n) => (NEWEST_RUNS, self.newest_ids_after("hook_runs", n)?),
        };
        let mut stmt = self
            .conn
            .prepare_cached(text)
            .map_err(|e| sql(&self.path, e))?;
        let mut rows = stmt
            .query(rusqlite::params![since, after])
            .map_err(|e| sql(&self.path, e))?;
        let mut by_hook: BTreeMap<(String, String, String), (HookRunStats, Vec<f64>)> =
            BTreeMap::new();
        while let Some(row) = rows.next().map_err(|e| sql(&self.path, e))? {
            let get_s = |i| row.get::<_, String>(i);
            let (source, command, hook_type) = (
                get_s(0).map_err(|e| sql(&self.path, e))?,
                get_s(1).map_err(|e| sql(&self.path, e))?,
                normalize_hook_type(&get_s(2).map_err(|e| sql(&self.path, e))?),
            );
            let skipped: bool = row.get(3).map_err(|e| sql(&self.path, e))?;
            let failed: bool = row.get(4).map_err(|e| sql(&self.path, e))?;
            let timed_out: bool = row.get(5).map_err(|e| sql(&self.path, e))?;
            let exit: Option<i64> = row.get(6).map_err(|e| sql(&self.path, e))?;
            let duration: f64 = row.get(7).map_err(|e| sql(&self.path, e))?;
            let started: String = row.get(8).map_err(|e| sql(&self.path, e))?;
            let (stats, durations) = by_hook
                .entry((source.clone(), command.clone(), hook_type.clone()))
                .or_insert_with(|| {
                    (
                        HookRunStats {
                            source,
                            command,
                            hook_type,
                            runs: 0,
                            skipped: 0,
                            failed: 0,
                            timed_out: 0,
                            exit_one: 0,
                            exit_two: 0,
                            p95_ms: 0.0,
                            last_run: String::new(),
                        },
                        Vec::new(),
                    )
                });
            if skipped {
                stats.skipped += 1;
                continue;
            }
            stats.runs += 1;
            stats.failed += u64::from(failed);
            stats.timed_out += u64::from(timed_out);
            stats.exit_one += u64::from(exit == Some(1));
            stats.exit_two += u64::from(exit == Some(2));
            stats.last_run = started;
            durations.push(duration);
        }
        Ok(by_hook
            .into_values()
            .map(|(mut stats, mut durations)| {
                stats.p95_ms = percentile(&mut durations, 0.95);
                stats
            })
            .collect())
    }

    /// How many events of each kind (snake case) arrived since `since`,
    /// among the newest `newest` events when given (a bounded read, as
    /// [`Self::hook_run_stats`]).
    pub fn event_counts_since(
        &self,
        since: &str,
        newest: Option<u64>,
    ) -> Result<BTreeMap<String, u64>> {
        let (text, after) = match newest {
            None => (
                "SELECT hook_type, count(*) FROM events \
                     WHERE event_timestamp >= ?1 AND ?2 = 0 GROUP BY hook_type",
                0,
            ),
            Some(n) => (NEWEST_EVENTS, self.newest_ids_after("events", n)?),
        };
        let mut stmt = self
            .conn
            .prepare_cached(text)
            .map_err(|e| sql(&self.path, e))?;
        let rows = stmt
            .query_map(rusqlite::params![since, after], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
            })
            .map_err(|e| sql(&self.path, e))?;
        let mut out = BTreeMap::new();
        for row in rows {
            let (kind, n) = row.map_err(|e| sql(&self.path, e))?;
            *out.entry(normalize_hook_type(&kind)).or_insert(0) += n.max(0).unsigned_abs();
        }
        Ok(out)
    }

    /// The newest `limit` events with their payloads as received and the
    /// managed hook runs recorded for each, oldest first (what a backtest
    /// replays); read backwards on the primary key, runs by event id.
    pub fn recent_events(&self, limit: usize) -> Result<Vec<RecordedEvent>> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT event_id, hook_type, event_timestamp, tool_name, \
                        hookd_payload(raw_payload, payload_refs) \
                 FROM events ORDER BY id DESC LIMIT ?1",
            )
            .map_err(|e| sql(&self.path, e))?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = stmt
            .query_map([limit], |row| {
                Ok(RecordedEvent {
                    event_id: row.get(0)?,
                    hook_type: row.get(1)?,
                    timestamp: row.get(2)?,
                    tool_name: row.get(3)?,
                    payload: serde_json::from_str(&row.get::<_, String>(4)?)
                        .unwrap_or(serde_json::Value::Null),
                    runs: Vec::new(),
                })
            })
            .map_err(|e| sql(&self.path, e))?;
        let mut out = rows
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(|e| sql(&self.path, e))?;
        out.reverse();
        let mut runs = self
            .conn
            .prepare_cached(
                "SELECT source, command, decision FROM hook_runs \
                 WHERE event_id = ?1 AND skipped IS NULL ORDER BY id",
            )
            .map_err(|e| sql(&self.path, e))?;
        for event in &mut out {
            event.runs = runs
                .query_map([&event.event_id], |row| {
                    Ok(RecordedRun {
                        source: row.get(0)?,
                        command: row.get(1)?,
                        decision: row.get(2)?,
                    })
                })
                .and_then(Iterator::collect)
                .map_err(|e| sql(&self.path, e))?;
        }
        Ok(out)
    }

    /// The id after which the newest `n` rows of `table` (`events` or
    /// `hook_runs`, both appended with growing ids) lie: one look at the
    /// end of the primary key.
    fn newest_ids_after(&self, table: &'static str, n: u64) -> Result<i64> {
        let top: i64 = self
            .conn
            .query_row(
                &format!("SELECT coalesce(max(id), 0) FROM {table}"),
                [],
                |row| row.get(0),
            )
            .map_err(|e| sql(&self.path, e))?;
        Ok(top
            .saturating_sub(i64::try_from(n).unwrap_or(i64::MAX))
            .max(0))
    }

    /// When the newest event was recorded (RFC 3339), if any.
    pub fn last_event_at(&self) -> Result<Option<String>> {
        self.conn
            .query_row("SELECT max(event_timestamp) FROM events", [], |row| {
                row.get(0)
            })
            .map_err(|e| sql(&self.path, e))
    }
}

fn sql(path: &std::path::Path, e: rusqlite::Error) -> Error {
    Error::sqlite(path, e)
}

/// The `q` quantile of `values` (nearest rank); 0 when empty.
fn percentile(values: &mut [f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((q * values.len() as f64).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::tests::plain_event;
    use crate::record::HookRunRecord;

    fn run(n: u32, exit: i32) -> HookRunRecord {
        HookRunRecord {
            run_id: format!("r{n}"),
            event_id: format!("e{n}"),
            hook_type: "stop".into(),
            tool_name: None,
            session_id: Some("s".into()),
            tool_use_id: None,
            scope: "project".into(),
            source: "/p/.hookd/settings.json".into(),
            matcher: None,
            command: "check".into(),
            exit_code: Some(exit),
            timed_out: false,
            decision: None,
            duration_ms: f64::from(n),
            stdout: String::new(),
            stderr: String::new(),
            output_truncated: false,
            error: None,
            started_at: format!("2026-01-01T00:{n:02}:00.000Z"),
            skipped: None,
        }
    }

    /// A bounded read sees only the newest rows, whatever the window says:
    /// the tray's check costs the same on any size of history.
    #[test]
    fn a_bounded_read_sees_only_the_newest_runs_and_events() {
        let mut ledger = Ledger::in_memory().unwrap();
        let events: Vec<_> = (0..10)
            .map(|n| {
                let kind = if n < 6 { "stop" } else { "pre_tool_use" };
                plain_event(
                    &format!("e{n}"),
                    &format!("2026-01-01T00:{n:02}:00.000Z"),
                    kind,
                    "a",
                    "s",
                )
            })
            .collect();
        ledger.append(&events).unwrap();
        // Six failures, then four successes.
        let runs: Vec<_> = (0..10).map(|n| run(n, if n < 6 { 1 } else { 0 })).collect();
        ledger.append_hook_runs(&runs).unwrap();
        let since = "2026-01-01T00:00:00.000Z";

        let all = ledger.hook_run_stats(since, None).unwrap();
        assert_eq!((all[0].runs, all[0].failed), (10, 6));
        let newest = ledger.hook_run_stats(since, Some(4)).unwrap();
        assert_eq!((newest[0].runs, newest[0].failed), (4, 0));
        assert_eq!(newest[0].last_run, "2026-01-01T00:09:00.000Z");
        // The window still applies inside the bound.
        let late = ledger
            .hook_run_stats("2026-01-01T00:08:00.000Z", Some(4))
            .unwrap();
        assert_eq!(late[0].runs, 2);
        // A bound past the start reads everything once.
        assert_eq!(
            ledger.hook_run_stats(since, Some(1000)).unwrap()[0].runs,
            10
        );

        let counts = ledger.event_counts_since(since, None).unwrap();
        assert_eq!((counts["stop"], counts["pre_tool_use"]), (6, 4));
        let counts = ledger.event_counts_since(since, Some(5)).unwrap();
        assert_eq!((counts["stop"], counts["pre_tool_use"]), (1, 4));

        // Both read an id range on the primary key and no index.
        for query in [NEWEST_RUNS, NEWEST_EVENTS] {
            let plan: Vec<String> = ledger
                .connection()
                .prepare(&format!("EXPLAIN QUERY PLAN {query}"))
                .unwrap()
                .query_map(rusqlite::params![since, 0], |r| r.get::<_, String>(3))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap();
            let plan = plan.join("; ");
            assert!(plan.contains("INTEGER PRIMARY KEY (rowid>?)"), "{plan}");
            assert!(!plan.contains("INDEX"), "{plan}");
        }
    }

    #[test]
    fn nearest_rank_percentile() {
        let mut v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&mut v, 0.95), 95.0);
        assert_eq!(percentile(&mut [7.0], 0.95), 7.0);
        assert_eq!(percentile(&mut [], 0.95), 0.0);
    }
}
