//! Storing a ledger's existing history as new rows are stored, in place:
//! `hookd ledger compact`.
//!
//! Rows appended since schema 12 keep their payloads' large strings in the
//! content store ([`super::payload`]), and since schema 9 a mutation no
//! longer repeats its event's payload. Rows stored before keep their old
//! form until this is run, which rewrites them:
//! 1. a mutation whose payload is its event's, byte for byte, stores ''
//!    (read from the event, as migration 0009's rows are);
//! 2. an event's payload is stored by reference where that gives the
//!    received bytes back exactly (the same check as an append).
//!
//! What hookd reads from every row is unchanged: that is the condition of
//! each update (it names the old text, and the new one is checked to give
//! it back). The ledger stays append-only: the triggers that refuse UPDATE
//! are lifted inside each chunk's transaction and restored, with their own
//! SQL, before it commits, so no other connection ever sees the ledger
//! without them, and a crash rolls the chunk back whole. Chunks are small
//! (a daemon appending meanwhile waits for one, not for the whole run).
//! The file only shrinks with a `VACUUM` afterwards; until then SQLite
//! reuses the freed pages for new rows.

use rusqlite::{OptionalExtension as _, params};

use super::Ledger;
use super::payload::MIN_REFERENCED_BYTES;
use crate::{Error, Result};

/// Rows rewritten per transaction.
const CHUNK_ROWS: i64 = 500;

/// What [`Ledger::compact_history`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CompactReport {
    /// Mutations that repeated their event's payload and now read it from there.
    pub mutations: u64,
    /// Events whose payloads are now stored by reference.
    pub events: u64,
    /// References written in their place.
    pub references: u64,
    /// Events looked at whose payloads stay as they were (nothing large,
    /// or they would not come back byte for byte).
    pub kept: u64,
}

/// Where [`Ledger::compact_history`] is, for a progress line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompactProgress {
    /// The step: 1 (mutations) or 2 (events).
    pub step: u8,
    /// Rows of the step's table looked at so far.
    pub done: u64,
    /// Rows of the step's table in all.
    pub total: u64,
}

impl Ledger {
    /// Rewrites the rows stored in an older form as they are stored today
    /// (see [`mod@self`]), reporting progress after each chunk.
    pub fn compact_history(
        &mut self,
        mut progress: impl FnMut(CompactProgress),
    ) -> Result<CompactReport> {
        let mut report = CompactReport::default();
        self.compact_mutations(&mut report, &mut progress)?;
        self.compact_events(&mut report, &mut progress)?;
        Ok(report)
    }

    /// The newest row id of `table` (0 when empty), and as a count.
    fn last_id(&self, table: &str) -> Result<(i64, u64)> {
        let last: i64 = self
            .conn
            .query_row(
                &format!("SELECT coalesce(max(id), 0) FROM {table}"),
                [],
                |r| r.get(0),
            )
            .map_err(|e| Error::sqlite(&self.path, e))?;
        Ok((last, u64::try_from(last).unwrap_or(0)))
    }

    fn compact_mutations(
        &mut self,
        report: &mut CompactReport,
        progress: &mut impl FnMut(CompactProgress),
    ) -> Result<()> {
        let path = self.path.clone();
        let sqlite = |e| Error::sqlite(&path, e);
        let (last, total) = self.last_id("mutations")?;
        let mut after = 0;
        while after < last {
            let until = after + CHUNK_ROWS * 20;
            let tx = self.conn.transaction().map_err(sqlite)?;
            let trigger = lift_trigger(&tx, "mutations_no_update").map_err(sqlite)?;
            let changed = tx
                .execute(
                    "UPDATE mutations SET raw_payload = '' \
                     WHERE id > ?1 AND id <= ?2 AND raw_payload <> '' \
                       AND raw_payload = (SELECT e.raw_payload FROM events e \
                                          WHERE e.event_id = mutations.event_id \
                                            AND e.payload_refs IS NULL)",
                    params![after, until],
                )
                .map_err(sqlite)?;
            restore_trigger(&tx, trigger.as_deref()).map_err(sqlite)?;
            tx.commit().map_err(sqlite)?;
            report.mutations += changed as u64;
            after = until;
            progress(CompactProgress {
                step: 1,
                done: u64::try_from(after.min(last)).unwrap_or(0),
                total,
            });
        }
        Ok(())
    }

    fn compact_events(
        &mut self,
        report: &mut CompactReport,
        progress: &mut impl FnMut(CompactProgress),
    ) -> Result<()> {
        let path = self.path.clone();
        let sqlite = |e| Error::sqlite(&path, e);
        let (_, total) = self.last_id("events")?;
        let mut after = 0;
        loop {
            let rows: Vec<(i64, String)> = {
                let mut select = self
                    .conn
                    .prepare_cached(
                        "SELECT id, raw_payload FROM events \
                         WHERE id > ?1 AND payload_refs IS NULL AND octet_length(raw_payload) >= ?2 \
                         ORDER BY id LIMIT ?3",
                    )
                    .map_err(sqlite)?;
                select
                    .query_map(
                        params![after, MIN_REFERENCED_BYTES as i64, CHUNK_ROWS],
                        |r| Ok((r.get(0)?, r.get(1)?)),
                    )
                    .map_err(sqlite)?
                    .collect::<rusqlite::Result<_>>()
                    .map_err(sqlite)?
            };
            let Some(&(newest, _)) = rows.last() else {
                break;
            };
            // Into the store, and flushed there, before the rows refer to it.
            let compacted = self
                .payloads
                .compact_all(rows.iter().map(|(_, raw)| raw.as_str()));
            let tx = self.conn.transaction().map_err(sqlite)?;
            let trigger = lift_trigger(&tx, "events_no_update").map_err(sqlite)?;
            {
                let mut update = tx
                    .prepare_cached(
                        "UPDATE events SET raw_payload = ?1, payload_refs = ?2 \
                         WHERE id = ?3 AND payload_refs IS NULL AND raw_payload = ?4",
                    )
                    .map_err(sqlite)?;
                for ((id, raw), compacted) in rows.iter().zip(&compacted) {
                    match compacted {
                        Some(c) => {
                            if update
                                .execute(params![c.text, c.refs, id, raw])
                                .map_err(sqlite)?
                                == 1
                            {
                                report.events += 1;
                                report.references += c.refs as u64;
                            }
                        }
                        None => report.kept += 1,
                    }
                }
            }
            restore_trigger(&tx, trigger.as_deref()).map_err(sqlite)?;
            tx.commit().map_err(sqlite)?;
            after = newest;
            progress(CompactProgress {
                step: 2,
                done: u64::try_from(newest).unwrap_or(0),
                total,
            });
        }
        Ok(())
    }
}

/// Drops the trigger `name` inside `tx`, returning its SQL to restore it.
fn lift_trigger(tx: &rusqlite::Transaction<'_>, name: &str) -> rusqlite::Result<Option<String>> {
    let sql: Option<String> = tx
        .query_row(
            "SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = ?1",
            [name],
            |r| r.get(0),
        )
        .optional()?;
    if sql.is_some() {
        tx.execute_batch(&format!("DROP TRIGGER \"{name}\""))?;
    }
    Ok(sql)
}

/// Creates again a trigger [`lift_trigger`] dropped.
fn restore_trigger(tx: &rusqlite::Transaction<'_>, sql: Option<&str>) -> rusqlite::Result<()> {
    sql.map_or(Ok(()), |sql| tx.execute_batch(sql))
}

impl Ledger {
    /// Rebuilds the database file without its free pages (`VACUUM`), so
    /// the bytes [`Ledger::compact_history`] freed go back to the file
    /// system. It needs as much free disk as the ledger, and waits for other
    /// writers (a running daemon) to let go of it.
    pub fn vacuum(&mut self) -> Result<()> {
        self.conn
            .execute_batch("VACUUM")
            .map_err(|e| Error::sqlite(&self.path, e))
    }
}
