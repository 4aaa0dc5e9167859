//! The derived tables the timeline reads (counts per hour, per hour alone
//! and per file, the agents, the search indexes; migrations 0004–0006),
//! brought up to date once per appended batch, in the batch's transaction.
//!
//! Why not triggers: a trigger runs per row, and per-row upserts and FTS
//! inserts cut the daemon's ingest rate to a fifth. One set-based statement
//! per table over the rows the batch added (`id > ` the highest id before
//! it) upserts each hour, agent and file once per batch instead. The
//! migrations build the same tables from the rows already stored with the
//! same expressions, and `hookd ledger verify` checks the counts agree.

use rusqlite::{Transaction, params};

/// Each statement takes `?1`, the highest `mutations.id` before the batch,
/// and `?2`, the highest `events.id` before it.
const UPDATES: [&str; 8] = [
    "INSERT INTO mutation_hours \
     SELECT substr(event_timestamp, 1, 13), agent_id, coalesce(session_id, ''), tool_name, hook_type, branch, COUNT(*) \
     FROM mutations WHERE id > ?1 AND ?2 IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6 \
     ON CONFLICT DO UPDATE SET rows = rows + excluded.rows",
    "INSERT INTO event_hours \
     SELECT substr(event_timestamp, 1, 13), agent_id, coalesce(session_id, ''), coalesce(tool_name, ''), hook_type, branch, COUNT(*) \
     FROM events WHERE id > ?2 AND ?1 IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6 \
     ON CONFLICT DO UPDATE SET rows = rows + excluded.rows",
    "INSERT INTO mutation_totals \
     SELECT substr(event_timestamp, 1, 13), COUNT(*) FROM mutations WHERE id > ?1 AND ?2 IS NOT NULL GROUP BY 1 \
     ON CONFLICT DO UPDATE SET rows = rows + excluded.rows",
    "INSERT INTO event_totals \
     SELECT substr(event_timestamp, 1, 13), COUNT(*) FROM events WHERE id > ?2 AND ?1 IS NOT NULL GROUP BY 1 \
     ON CONFLICT DO UPDATE SET rows = rows + excluded.rows",
    "INSERT INTO mutation_files \
     SELECT file_path, COUNT(*), max(event_timestamp) FROM mutations \
     WHERE id > ?1 AND ?2 IS NOT NULL AND file_path IS NOT NULL GROUP BY file_path \
     ON CONFLICT DO UPDATE SET rows = rows + excluded.rows, newest = max(newest, excluded.newest)",
    // An agent's type comes from its first event: only that one is parsed.
    "INSERT OR IGNORE INTO agents \
     SELECT e.agent_id, CASE WHEN json_valid(e.raw_payload) THEN json_extract(e.raw_payload, '$.agent_type') END, \
            e.session_id, e.event_timestamp \
     FROM events e JOIN (SELECT agent_id, min(id) AS id FROM events WHERE id > ?2 AND ?1 IS NOT NULL \
                         AND agent_id NOT IN (SELECT agent_id FROM agents) GROUP BY agent_id) f ON e.id = f.id",
    "INSERT INTO mutation_search (rowid, text) \
     SELECT id, coalesce(file_path, '') || ' ' || coalesce(command, '') FROM mutations WHERE id > ?1 AND ?2 IS NOT NULL",
    // Only a prompt's and a shell command's payloads are parsed.
    "INSERT INTO event_search (rowid, text) \
     SELECT id, coalesce(file_path, '') || ' ' || coalesce( \
         CASE WHEN hook_type = 'user_prompt_submit' AND json_valid(raw_payload) THEN json_extract(raw_payload, '$.prompt') \
              WHEN tool_name = 'Bash' AND json_valid(raw_payload) THEN json_extract(raw_payload, '$.tool_input.command') \
         END, '') \
     FROM events WHERE id > ?2 AND ?1 IS NOT NULL",
];

/// The highest ids of `mutations` and `events` now: what a batch's rows come after.
pub(crate) fn high_water(tx: &Transaction<'_>) -> rusqlite::Result<(i64, i64)> {
    tx.query_row(
        "SELECT (SELECT coalesce(max(id), 0) FROM mutations), (SELECT coalesce(max(id), 0) FROM events)",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// Counts and indexes the rows added after `before` (from [`high_water`]).
pub(crate) fn update(tx: &Transaction<'_>, before: (i64, i64)) -> rusqlite::Result<()> {
    let after = high_water(tx)?;
    if after == before {
        return Ok(());
    }
    for sql in UPDATES {
        tx.prepare_cached(sql)?
            .execute(params![before.0, before.1])?;
    }
    Ok(())
}
