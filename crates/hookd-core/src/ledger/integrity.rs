//! Noticing a damaged ledger: a quick check when a writer opens one (on a
//! thread of its own for a big one: [`crate::ledger::checker`]), moving
//! a damaged file aside (kept, never deleted) so a new ledger can start, and
//! the full read-only check `hookd ledger verify` runs.
//!
//! Without this a daemon kept appending to a file that failed
//! `PRAGMA integrity_check`, and every later event went into a database
//! nobody could read back.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, ErrorCode, OpenFlags};
use serde::{Deserialize, Serialize};

use crate::error::ErrorChain;
use crate::ledger::filter::Table;
use crate::ledger::runs::runs_from_rows;
use crate::ledger::sqlite::has_table;
use crate::ledger::{SIDE_FILE_SUFFIXES, check_paths, with_suffix};
use crate::{Error, Result};

/// Most problems `quick_check` / `integrity_check` are asked to list.
const MAX_PROBLEMS: u32 = 20;

/// A damaged ledger that was moved aside, for the log and `hookd status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MovedAside {
    /// Where the ledger was (a new one starts there).
    pub ledger: PathBuf,
    /// Where the damaged file now is (`mutations.db.corrupt-<UTC time>`; its
    /// `-wal` beside it, with the same name plus `-wal`).
    pub moved_to: PathBuf,
    /// What the check found.
    pub reason: String,
    /// When (RFC 3339 UTC).
    pub at: String,
}

/// Whether an error means the file is damaged or not a database at all
/// (as opposed to locked, read-only, full or missing).
pub fn is_damage(err: &Error) -> bool {
    let sqlite = match err {
        Error::Sqlite { source, .. } => Some(source),
        Error::Migration {
            source: rusqlite_migration::Error::RusqliteError { err, .. },
            ..
        } => Some(err),
        _ => None,
    };
    sqlite
        .and_then(rusqlite::Error::sqlite_error_code)
        .is_some_and(|code| matches!(code, ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase))
}

/// Runs `PRAGMA quick_check` on an open connection; the problems found,
/// none when the database is sound.
pub fn quick_check(conn: &Connection, path: &Path) -> Result<Vec<String>> {
    check(conn, path, "quick_check")
}

fn check(conn: &Connection, path: &Path, pragma: &str) -> Result<Vec<String>> {
    let sqlite = |e| Error::sqlite(path, e);
    let mut stmt = conn
        .prepare(&format!("PRAGMA {pragma}({MAX_PROBLEMS})"))
        .map_err(sqlite)?;
    let rows = stmt
        .query_map([], |row| row.get::<_, String>(0))
        .map_err(sqlite)?;
    let lines = rows.collect::<rusqlite::Result<Vec<_>>>().map_err(sqlite)?;
    Ok(lines
        .into_iter()
        .filter(|line| line != "ok")
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect())
}

/// Moves the damaged ledger at `path` aside, with its `-wal`, `-journal` and
/// `-shm`, to `<name>.corrupt-<UTC time>` (each side file keeping its
/// suffix, so SQLite still pairs them). The connection must be closed.
///
/// The write-ahead log goes first: a new database must never meet the old
/// log, which SQLite would replay into it.
pub fn move_aside(path: &Path, reason: &str) -> Result<MovedAside> {
    let now = chrono::Utc::now();
    let stamp = now.format("%Y%m%dT%H%M%S%.3fZ").to_string();
    let mut aside = with_suffix(path, &format!(".corrupt-{stamp}"));
    let mut n = 1;
    while fs::symlink_metadata(&aside).is_ok() {
        aside = with_suffix(path, &format!(".corrupt-{stamp}-{n}"));
        n += 1;
    }
    for suffix in SIDE_FILE_SUFFIXES {
        let side = with_suffix(path, suffix);
        match fs::rename(&side, with_suffix(&aside, suffix)) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io("cannot move aside", side, e)),
        }
    }
    fs::rename(path, &aside).map_err(|e| Error::io("cannot move aside", path, e))?;
    Ok(MovedAside {
        ledger: path.to_path_buf(),
        moved_to: aside,
        reason: reason.to_owned(),
        at: crate::timefmt::format(now),
    })
}

/// What `hookd ledger verify` found for one ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// `PRAGMA integrity_check` passed.
    Ok {
        /// Rows in `events`.
        events: i64,
    },
    /// There is no file at the path.
    Missing,
    /// The file is damaged, not a ledger, or refused; why.
    Bad(String),
}

/// Where the counts the timeline reads (migrations 0004 and 0005: rows per
/// hour, per hour alone, per file), and the runs of hours (0010), disagree
/// with the rows they describe. A ledger from
/// before them has none to check. Read in one transaction, so a commit in
/// between cannot make them differ.
fn derived_problems(conn: &Connection, path: &Path) -> Result<Vec<String>> {
    let sqlite = |e| Error::sqlite(path, e);
    let tx = conn.unchecked_transaction().map_err(sqlite)?;
    let has = |table: &str| has_table(&tx, table).map_err(sqlite);
    let count = |sql: &str| -> Result<i64> { tx.query_row(sql, [], |r| r.get(0)).map_err(sqlite) };
    let mut problems = Vec::new();
    let checks = [
        (
            "mutation_hours",
            "SELECT coalesce(SUM(rows), 0) FROM mutation_hours",
            "SELECT COUNT(*) FROM mutations",
            "mutations",
        ),
        (
            "event_hours",
            "SELECT coalesce(SUM(rows), 0) FROM event_hours",
            "SELECT COUNT(*) FROM events",
            "events",
        ),
        (
            "mutation_totals",
            "SELECT coalesce(SUM(rows), 0) FROM mutation_totals",
            "SELECT COUNT(*) FROM mutations",
            "mutations",
        ),
        (
            "event_totals",
            "SELECT coalesce(SUM(rows), 0) FROM event_totals",
            "SELECT COUNT(*) FROM events",
            "events",
        ),
        (
            "mutation_files",
            "SELECT coalesce(SUM(rows), 0) FROM mutation_files",
            "SELECT COUNT(*) FROM mutations WHERE file_path IS NOT NULL",
            "mutations naming a file",
        ),
    ];
    for (table, derived, rows, what) in checks {
        if !has(table)? {
            continue;
        }
        let (derived, rows) = (count(derived)?, count(rows)?);
        if derived != rows {
            problems.push(format!(
                "{table} counts {derived} {what} but the ledger holds {rows}: the timeline's totals and charts would be wrong"
            ));
        }
    }
    for table in [Table::Mutations, Table::Events] {
        let runs = table.runs();
        if !has(runs)? {
            continue;
        }
        let from_rows = runs_from_rows(table);
        let stored = format!("SELECT first_id, hour FROM {runs}");
        let missing = count(&format!(
            "SELECT COUNT(*) FROM ({from_rows} EXCEPT {stored})"
        ))?;
        let wrong = count(&format!(
            "SELECT COUNT(*) FROM ({stored} EXCEPT {from_rows})"
        ))?;
        if missing + wrong > 0 {
            problems.push(format!(
                "{runs} misses {missing} and wrongly holds {wrong} runs of hours of the {}: searches would count and page them wrong",
                table.name()
            ));
        }
    }
    Ok(problems)
}

/// Opens the ledger at `path` read-only, never through a symbolic link,
/// waiting up to [`BUSY_TIMEOUT`](crate::ledger::sqlite::BUSY_TIMEOUT) for a
/// writer's lock: for checks that must not change what they check.
pub(crate) fn open_read_only(path: &Path) -> Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_NOFOLLOW
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(|e| Error::sqlite(path, e))?;
    conn.busy_timeout(crate::ledger::sqlite::BUSY_TIMEOUT)
        .map_err(|e| Error::sqlite(path, e))?;
    Ok(conn)
}

/// Checks the ledger at `path` read-only: never creates it, never migrates
/// it, never writes to it, and never follows a symbolic link to it.
pub fn verify(path: &Path) -> Verdict {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Verdict::Missing,
        _ => {}
    }
    if let Err(err) = check_paths(path) {
        return Verdict::Bad(format!("refused: {}", ErrorChain(&err)));
    }
    let outcome = (|| -> Result<Verdict> {
        let conn = open_read_only(path)?;
        let problems = check(&conn, path, "integrity_check")?;
        if !problems.is_empty() {
            return Ok(Verdict::Bad(problems.join("; ")));
        }
        let events = conn
            .query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))
            .map_err(|e| Error::sqlite(path, e))?;
        let problems = derived_problems(&conn, path)?;
        if !problems.is_empty() {
            return Ok(Verdict::Bad(problems.join("; ")));
        }
        Ok(Verdict::Ok { events })
    })();
    outcome.unwrap_or_else(|err| Verdict::Bad(ErrorChain(&err).to_string()))
}
