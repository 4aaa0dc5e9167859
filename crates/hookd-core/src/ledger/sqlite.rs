//! Opening hookd's SQLite files (ledgers, the registry, the AMQP outbox) one
//! way: WAL, a busy timeout, the durability each file asks for, and retries
//! for what SQLite refuses at once instead of waiting on: switching a new
//! file to WAL, or two processes creating the same schema at the same moment
//! (the daemon creating a file while `hookd query`, a consumer or the app
//! opens it). Also what is asked of any of them alike ([`has_table`]).

use std::fmt::Display;
use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// How long a connection waits for another connection's lock before failing.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// How many times opening is attempted while the failure is transient.
const OPEN_ATTEMPTS: u32 = 80;

/// Pause between two attempts.
const RETRY_PAUSE: Duration = Duration::from_millis(25);

/// How hard commits are made durable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Synchronous {
    /// Survives a crash of the process (WAL's usual setting).
    Normal,
    /// Survives a power loss too, at the cost of an fsync per commit.
    Full,
}

impl Synchronous {
    fn as_str(self) -> &'static str {
        match self {
            Self::Normal => "NORMAL",
            Self::Full => "FULL",
        }
    }
}

/// Opens `path` in WAL mode with [`BUSY_TIMEOUT`] and `sync`. One attempt:
/// wrap it, with the schema set-up, in [`retry_transient`].
pub fn open_wal(path: &Path, flags: OpenFlags, sync: Synchronous) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", sync.as_str())?;
    Ok(conn)
}

/// Whether `conn`'s database has a table `name` (a file the daemon created
/// may not be migrated yet; a ledger from before a migration lacks its tables).
pub fn has_table(conn: &Connection, name: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = ?1",
        [name],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n > 0)
}

/// Whether SQLite refused because another connection holds a lock.
pub fn is_busy(err: &rusqlite::Error) -> bool {
    matches!(
        err.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// Runs `attempt` until it succeeds, fails for good, or it has failed
/// transiently `OPEN_ATTEMPTS` times (about 2 s). Schema changes must run in transactions,
/// so the loser of a creation race rolls back and finds nothing left to do.
pub fn retry_transient<T, E: Display>(
    path: &Path,
    mut attempt: impl FnMut() -> Result<T, E>,
    transient: impl Fn(&E) -> bool,
) -> Result<T, E> {
    let mut tries = 1;
    loop {
        match attempt() {
            Err(err) if tries < OPEN_ATTEMPTS && transient(&err) => {
                tracing::debug!(path = %path.display(), attempt = tries, error = %err, "database busy while opening; retrying");
                tries += 1;
                std::thread::sleep(RETRY_PAUSE);
            }
            outcome => return outcome,
        }
    }
}
