//! The append-only SQLite ledger of one repository (or of everything that
//! happened outside git).
//!
//! WAL mode with `synchronous=NORMAL`: a committed batch survives a crash of
//! the daemon (only a power loss can cost the last transactions). Appends are
//! idempotent on the event id, so a batch retried after an error, or an event
//! delivered twice by a broker later, never produces a second row. Triggers
//! reject UPDATE and DELETE.
//!
//! A ledger is only opened in a real directory owned by the user, never
//! through a symbolic link: its directory, the database and its `-wal`,
//! `-shm` and `-journal` files are checked with `lstat` first
//! ([`crate::state_dir`]), and SQLite itself is told not to follow a link
//! (`SQLITE_OPEN_NOFOLLOW`).

mod activity;
pub mod agents;
pub mod change;
pub mod checker;
pub mod checkpoint;
pub mod compact;
pub mod content_store;
mod derived;
mod filter;
pub mod histogram;
mod history;
pub mod hook_stats;
mod hour_cache;
pub mod integrity;
pub mod known;
pub mod page;
pub mod payload;
pub mod previous;
pub mod prompts;
pub mod query;
pub mod registry;
mod runs;
pub mod sink;
pub mod sqlite;
pub mod versions;
pub mod watch;
mod window;

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use rusqlite::{Connection, OpenFlags, params};
use rusqlite_migration::{M, Migrations};

pub use activity::ActivityEvent;
pub use filter::{MutationFilter, Table};
pub use history::PreviousWrite;
pub use window::TimelineRow;

use crate::record::{ContentRef, Flag, HookRunRecord, LedgerEntry, MutationRecord, MutationRow};
use crate::{Error, Result};
use content_store::{ContentHash, ContentStore};
use derived::Derived;
use payload::{Compacted, PayloadStore};
use sqlite::Synchronous;

/// The schema version a ledger has once every migration ran (SQLite's
/// `user_version`).
pub const SCHEMA_VERSION: u32 = 14;

/// The last migration that reads or rebuilds from every row (0011, the
/// index of tool calls); the ones after it take no time.
const LAST_REBUILDING_MIGRATION: i64 = 11;

/// Numbered, embedded schema migrations; never edit one that has landed.
static MIGRATIONS: LazyLock<Migrations<'static>> = LazyLock::new(|| {
    Migrations::new(vec![
        M::up(include_str!("0001_init.sql")),
        M::up(include_str!("0002_hook_runs.sql")),
        M::up(include_str!("0003_flags_and_skips.sql")),
        M::up(include_str!("0004_timeline_index.sql")),
        M::up(include_str!("0005_known_values.sql")),
        M::up(include_str!("0006_search.sql")),
        M::up(include_str!("0007_lines.sql")),
        M::up(include_str!("0008_search_lean.sql")),
        M::up(include_str!("0009_payload_once.sql")),
        M::up(include_str!("0010_hour_runs.sql")),
        M::up(include_str!("0011_contents.sql")),
        M::up(include_str!("0012_payload_refs.sql")),
        M::up(include_str!("0013_agent_kind.sql")),
        M::up(include_str!("0014_agent_kinds.sql")),
    ])
});

/// Whether an error from opening is another process's lock or migration in
/// the way, which goes away by itself (a damaged file does not).
fn is_transient(err: &Error) -> bool {
    match err {
        Error::Migration { .. } => !integrity::is_damage(err),
        Error::Sqlite { source, .. } => sqlite::is_busy(source),
        _ => false,
    }
}

/// An open ledger database.
pub struct Ledger {
    conn: Connection,
    path: PathBuf,
    payloads: PayloadStore,
    payloads_by_reference: bool,
}

impl Ledger {
    /// Opens the ledger at `path`, creating it (and its directory) on first use.
    ///
    /// A new `.hookd/` directory inside a repository gets a `.gitignore` so the
    /// ledger is never committed.
    pub fn open_or_create(path: &Path) -> Result<Self> {
        if let Some(dir) = path.parent() {
            crate::state_dir::prepare(dir)?;
        }
        create_private(path)?;
        Self::open_with(path, OpenFlags::default())
    }

    /// Opens an existing ledger; a missing file is an error, never created.
    pub fn open_existing(path: &Path) -> Result<Self> {
        let flags = OpenFlags::default() - OpenFlags::SQLITE_OPEN_CREATE;
        Self::open_with(path, flags)
    }

    /// A ledger in memory, for tests.
    pub fn in_memory() -> Result<Self> {
        let mut conn = Connection::open_in_memory().map_err(|e| Error::sqlite(":memory:", e))?;
        MIGRATIONS
            .to_latest(&mut conn)
            .map_err(|source| Error::Migration {
                path: ":memory:".into(),
                source,
            })?;
        let payloads = PayloadStore::new(None);
        payloads
            .register(&conn)
            .map_err(|e| Error::sqlite(":memory:", e))?;
        Ok(Self {
            conn,
            path: PathBuf::from(":memory:"),
            payloads,
            payloads_by_reference: false,
        })
    }

    fn open_with(path: &Path, flags: OpenFlags) -> Result<Self> {
        check_paths(path)?;
        let flags = flags | OpenFlags::SQLITE_OPEN_NOFOLLOW;
        sqlite::retry_transient(path, || Self::try_open(path, flags), is_transient)
    }

    /// One attempt: each migration runs in its own transaction, so the loser
    /// of a creation race rolls back cleanly and finds nothing left to do
    /// when it tries again.
    fn try_open(path: &Path, flags: OpenFlags) -> Result<Self> {
        let mut conn = sqlite::open_wal(path, flags, Synchronous::Normal)
            .map_err(|e| Error::sqlite(path, e))?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(|e| Error::sqlite(path, e))?;
        // Upgrading a large ledger rebuilds indexes and counts once (about
        // 25 s per million rows): say so rather than seem to hang.
        if let Ok(pending @ 1..) = MIGRATIONS.pending_migrations(&conn)
            && i64::from(SCHEMA_VERSION) - i64::from(pending) < LAST_REBUILDING_MIGRATION
            && let Ok(rows) = conn.query_row("SELECT coalesce(max(id), 0) FROM events", [], |r| {
                r.get::<_, i64>(0)
            })
            && rows > 100_000
        {
            tracing::warn!(
                ledger = %path.display(),
                rows,
                pending,
                "upgrading the ledger's schema: a one-time rebuild of its indexes and counts, about 25 s per million rows"
            );
        }
        MIGRATIONS
            .to_latest(&mut conn)
            .map_err(|source| Error::Migration {
                path: path.to_path_buf(),
                source,
            })?;
        let payloads = PayloadStore::new(path.parent().map(Path::to_path_buf));
        payloads
            .register(&conn)
            .map_err(|e| Error::sqlite(path, e))?;
        Ok(Self {
            conn,
            path: path.to_path_buf(),
            payloads,
            payloads_by_reference: true,
        })
    }

    /// Stores every payload appended from now on as received, none of its
    /// strings by reference in the content store ([`payload`]): what a
    /// ledger of schema 11 wrote, for comparisons (the benchmark's
    /// baseline). Payloads stored by reference still read back whole.
    pub fn store_payloads_as_received(&mut self) {
        self.payloads_by_reference = false;
    }

    /// Runs `f` with the content store beside this ledger (opened once, on
    /// first use, and shared with the payload reads); `None` for a ledger in
    /// memory or a store that cannot be opened.
    pub fn with_content_store<R>(&self, f: impl FnOnce(&ContentStore) -> R) -> Option<R> {
        self.payloads.with(|store| Ok(f(store)))?.ok()
    }

    /// Keeps `contents` (each named by its hash) in the content store
    /// beside this ledger, flushed to disk before this returns, so rows
    /// appended afterwards may refer to them. A content whose bytes do not
    /// hash to its name is not kept (logged): a reference never leads to
    /// other bytes. How many were kept (or were there already); none for a
    /// ledger in memory.
    pub fn keep_contents(&self, contents: &[(&str, Vec<u8>)]) -> Result<usize> {
        let kept = self.payloads.with(|store| {
            let mut kept = 0;
            for (hash, bytes) in contents {
                if ContentHash::of(bytes).as_str() != *hash {
                    tracing::warn!(hash, "a content does not match its name; not kept");
                    continue;
                }
                store.put(bytes)?;
                kept += 1;
            }
            store.sync()?;
            Ok(kept)
        });
        match kept {
            None => Ok(0),
            Some(kept) => Ok(kept?),
        }
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends a batch in one transaction; events already present (same event
    /// id) are skipped. Returns the number of events newly stored.
    pub fn append(&mut self, entries: &[LedgerEntry]) -> Result<usize> {
        let path = self.path.clone();
        let sqlite = |e| Error::sqlite(&path, e);
        let large = entries.len() >= LARGE_BATCH;
        if large {
            self.conn
                .pragma_update(None, "cache_size", -LARGE_BATCH_CACHE_KIB)
                .map_err(sqlite)?;
        }
        // Large strings go to the content store first, flushed there
        // before the rows that refer to them commit.
        let compacted = if self.payloads_by_reference {
            self.payloads
                .compact_all(entries.iter().map(|e| e.event.raw_payload.as_str()))
        } else {
            vec![None; entries.len()]
        };
        let appended = Self::append_in(&mut self.conn, entries, &compacted);
        // Back to SQLite's default: frees what the batch needed. The batch
        // is stored either way, so a failure here is only logged.
        if large
            && let Err(err) = self
                .conn
                .pragma_update(None, "cache_size", -DEFAULT_CACHE_KIB)
        {
            tracing::warn!(ledger = %path.display(), error = %err, "could not shrink the page cache after a large batch");
        }
        appended.map_err(sqlite)
    }

    /// [`Ledger::append`]'s transaction.
    fn append_in(
        conn: &mut Connection,
        entries: &[LedgerEntry],
        compacted: &[Option<Compacted>],
    ) -> rusqlite::Result<usize> {
        let tx = conn.transaction()?;
        let mut derived = Derived::default();
        let mut stored = 0;
        {
            let mut insert_event = tx.prepare_cached(INSERT_EVENT)?;
            let mut insert_mutation = tx.prepare_cached(INSERT_MUTATION)?;
            for (entry, compacted) in entries.iter().zip(compacted) {
                let e = &entry.event;
                let r = &entry.repo;
                let (payload, refs) = match compacted {
                    Some(c) => (c.text.as_str(), Some(c.refs)),
                    None => (e.raw_payload.as_str(), None),
                };
                let inserted = insert_event.execute(params![
                    e.event_id,
                    e.hook_type,
                    e.tool_name,
                    e.agent_id,
                    e.session_id,
                    e.tool_use_id,
                    e.cwd.as_deref().map(|p| p.to_string_lossy()),
                    e.file_path.as_deref().map(|p| p.to_string_lossy()),
                    r.branch,
                    r.head_sha,
                    r.remote_url,
                    e.payload_valid,
                    payload,
                    e.event_timestamp,
                    e.received_at,
                    e.source_pid,
                    Flag::to_column(&e.flags),
                    refs,
                    e.agent_kind,
                ])?;
                if inserted == 1 {
                    derived.event(tx.last_insert_rowid(), e, r);
                }
                stored += inserted;
                for m in &entry.mutations {
                    // The event's payload is stored once, in its row
                    // (migration 0009); the mutation's reads it from there.
                    let payload = if inserted == 1
                        && m.event_id == e.event_id
                        && m.raw_payload == e.raw_payload
                    {
                        ""
                    } else {
                        m.raw_payload.as_str()
                    };
                    if insert_mutation_row(&mut insert_mutation, m, payload)? == 1 {
                        derived.mutation(tx.last_insert_rowid(), m);
                    }
                }
            }
        }
        derived.write(&tx)?;
        tx.commit()?;
        Ok(stored)
    }

    /// Appends managed hook runs in one transaction; runs already present
    /// (same run id) are skipped. Returns the number newly stored.
    pub fn append_hook_runs(&mut self, runs: &[HookRunRecord]) -> Result<usize> {
        let path = self.path.clone();
        let sqlite = |e| Error::sqlite(&path, e);
        let tx = self.conn.transaction().map_err(sqlite)?;
        let mut stored = 0;
        {
            let mut insert = tx.prepare_cached(INSERT_HOOK_RUN).map_err(sqlite)?;
            for r in runs {
                stored += insert
                    .execute(params![
                        r.run_id,
                        r.event_id,
                        r.hook_type,
                        r.tool_name,
                        r.session_id,
                        r.tool_use_id,
                        r.scope,
                        r.source,
                        r.matcher,
                        r.command,
                        r.exit_code,
                        r.timed_out,
                        r.decision,
                        r.duration_ms,
                        r.stdout,
                        r.stderr,
                        r.output_truncated,
                        r.error,
                        r.started_at,
                        r.skipped,
                    ])
                    .map_err(sqlite)?;
            }
        }
        tx.commit().map_err(sqlite)?;
        Ok(stored)
    }

    /// Hook runs recorded for one event, in the order they were stored.
    pub fn hook_runs_for_event(&self, event_id: &str) -> Result<Vec<HookRunRecord>> {
        let sqlite = |e| Error::sqlite(&self.path, e);
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT {HOOK_RUN_COLUMNS} FROM hook_runs WHERE event_id = ?1 ORDER BY id"
            ))
            .map_err(sqlite)?;
        let rows = stmt
            .query_map([event_id], row_to_hook_run)
            .map_err(sqlite)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(sqlite)
    }

    /// Mutations matching `filter`, oldest first (the newest `limit` when limited).
    pub fn mutations(&self, filter: &MutationFilter) -> Result<Vec<MutationRow>> {
        let (sql, values) = filter.to_sql();
        let sqlite = |e| Error::sqlite(&self.path, e);
        let mut stmt = self.conn.prepare(&sql).map_err(sqlite)?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(values.iter()), row_to_mutation)
            .map_err(sqlite)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(sqlite)
    }

    /// Number of rows in `events` and in `mutations`, from the per-hour
    /// totals the ledger keeps as it writes (one row per hour of history):
    /// what a screen shows, at the same cost for ten rows or ten million.
    pub fn totals(&self) -> Result<(i64, i64)> {
        let sqlite = |e| Error::sqlite(&self.path, e);
        let sum = |table: Table| -> Result<i64> {
            self.conn
                .query_row(
                    &format!("SELECT coalesce(SUM(rows), 0) FROM {}", table.totals()),
                    [],
                    |r| r.get(0),
                )
                .map_err(sqlite)
        };
        Ok((sum(Table::Events)?, sum(Table::Mutations)?))
    }

    /// Number of rows in `events` and in `mutations`, counted from the
    /// tables (`COUNT(*)`: it reads an index of every row; a check that
    /// nothing was lost, not a screen's figure, see [`Ledger::totals`]).
    pub fn counts(&self) -> Result<(i64, i64)> {
        let sqlite = |e| Error::sqlite(&self.path, e);
        let events = self
            .conn
            .query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))
            .map_err(sqlite)?;
        let mutations = self
            .conn
            .query_row("SELECT COUNT(*) FROM mutations", [], |r| r.get(0))
            .map_err(sqlite)?;
        Ok((events, mutations))
    }

    /// The underlying connection, for read-only inspection (benchmarks, diagnostics).
    pub fn connection(&self) -> &Connection {
        &self.conn
    }
}

/// The files SQLite keeps beside a database: `-wal`, `-shm`, `-journal`.
pub const SIDE_FILE_SUFFIXES: [&str; 3] = ["-wal", "-shm", "-journal"];

/// Creates the ledger file `path` readable by its owner only (0600), when
/// there is none: a ledger holds the user's prompts and commands. SQLite
/// gives its `-wal` and `-shm` files the database's mode, so they are
/// private too. An existing file is left as it is; a symbolic link is never
/// followed (the open that comes next refuses it and says why).
fn create_private(path: &Path) -> Result<()> {
    use std::os::unix::fs::OpenOptionsExt as _;
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
    {
        Ok(_) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(err) => Err(Error::io("cannot create the ledger", path, err)),
    }
}

/// `path` with `suffix` appended to its file name (`mutations.db-wal`).
pub(crate) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Refuses a ledger whose directory is not a real directory of this user,
/// or whose database or side files are symbolic links or not regular files.
pub fn check_paths(path: &Path) -> Result<()> {
    // A missing directory holds no ledger: opening fails on its own (and
    // `open_or_create` has created it, checked, by now).
    if let Some(dir) = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && std::fs::symlink_metadata(d).is_ok())
    {
        crate::state_dir::check_state_dir(dir)?;
    }
    crate::state_dir::check_file(path)?;
    for suffix in SIDE_FILE_SUFFIXES {
        crate::state_dir::check_file(&with_suffix(path, suffix))?;
    }
    Ok(())
}

/// Inserts `m` with `payload` as its stored `raw_payload` ('' when it is
/// its event's, see [`MUTATION_COLUMNS`]).
fn insert_mutation_row(
    stmt: &mut rusqlite::CachedStatement<'_>,
    m: &MutationRecord,
    payload: &str,
) -> rusqlite::Result<usize> {
    stmt.execute(params![
        m.event_type,
        m.hook_type,
        m.tool_name,
        m.agent_id,
        m.file_path,
        m.file_ext,
        m.lines_changed,
        m.branch,
        m.head_sha,
        payload,
        m.event_timestamp,
        m.received_at,
        m.event_id,
        m.mutation_seq,
        m.session_id,
        m.tool_use_id,
        m.remote_url,
        m.command,
        m.source_pid,
        Flag::to_column(&m.flags),
        m.lines_added,
        m.lines_removed,
        m.before.as_ref().map(ContentRef::to_column),
        m.after.as_ref().map(ContentRef::to_column),
        m.agent_kind,
    ])
}

/// Batches of at least this many events get a larger page cache while they
/// are written ([`LARGE_BATCH_CACHE_KIB`]).
const LARGE_BATCH: usize = 256;

/// The page cache a large batch is written with. A batch of the daemon's
/// largest size (4,096 events) dirties about 10 MB of table and index pages;
/// in SQLite's default 2 MiB cache it spilled them to the WAL before the
/// commit and read them back, which cost about a tenth of the writer's time.
/// The cache returns to the default after the batch, so an idle ledger
/// holds no more memory than before.
const LARGE_BATCH_CACHE_KIB: i64 = 16 * 1024;

/// SQLite's default page cache (`PRAGMA cache_size = -2000`).
const DEFAULT_CACHE_KIB: i64 = 2000;

const INSERT_EVENT: &str = "INSERT OR IGNORE INTO events (event_id, hook_type, tool_name, agent_id, session_id, \
     tool_use_id, cwd, file_path, branch, head_sha, remote_url, payload_valid, raw_payload, \
     event_timestamp, received_at, source_pid, flags, payload_refs, agent_kind) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)";

const INSERT_MUTATION: &str = "INSERT OR IGNORE INTO mutations (event_type, hook_type, tool_name, agent_id, file_path, \
     file_ext, lines_changed, branch, head_sha, raw_payload, event_timestamp, received_at, event_id, \
     mutation_seq, session_id, tool_use_id, remote_url, command, source_pid, flags, lines_added, lines_removed, \
     before_content, after_content, agent_kind) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)";

const INSERT_HOOK_RUN: &str = "INSERT OR IGNORE INTO hook_runs (run_id, event_id, hook_type, tool_name, \
     session_id, tool_use_id, scope, source, matcher, command, exit_code, timed_out, decision, duration_ms, \
     stdout, stderr, output_truncated, error, started_at, skipped) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)";

/// The SQL of a mutation's payload as received, from `mutations` (not aliased): one
/// stored as '' is the event's (migration 0009), read from its row through
/// `events`' `event_id` index, its large strings from the content store
/// (migration 0012, [`payload`]).
macro_rules! mutation_payload {
    () => {
        "CASE WHEN mutations.raw_payload <> '' THEN mutations.raw_payload \
          ELSE coalesce((SELECT hookd_payload(e.raw_payload, e.payload_refs) FROM events e \
                         WHERE e.event_id = mutations.event_id), '') \
         END"
    };
}
pub(crate) use mutation_payload;

/// Columns read back by [`Ledger::mutations`], in [`row_to_mutation`]'s order,
/// from `mutations` (not aliased); the payload is [`mutation_payload`]'s.
pub(crate) const MUTATION_COLUMNS: &str = concat!(
    "id, event_type, hook_type, tool_name, agent_id, file_path, file_ext, \
     lines_changed, branch, head_sha, ",
    mutation_payload!(),
    " AS raw_payload, event_timestamp, received_at, event_id, mutation_seq, \
     session_id, tool_use_id, remote_url, command, source_pid, flags, lines_added, lines_removed, \
     before_content, after_content, agent_kind"
);

/// [`MUTATION_COLUMNS`] without the payload: what a list shows (the
/// payload is most of a row's bytes, and a list never shows it).
pub(crate) const MUTATION_LIST_COLUMNS: &str = "id, event_type, hook_type, tool_name, agent_id, file_path, file_ext, \
     lines_changed, branch, head_sha, '' AS raw_payload, event_timestamp, received_at, event_id, mutation_seq, \
     session_id, tool_use_id, remote_url, command, source_pid, flags, lines_added, lines_removed, \
     before_content, after_content, agent_kind";

/// Columns of `hook_runs` read back, in [`row_to_hook_run`]'s order.
pub(crate) const HOOK_RUN_COLUMNS: &str = "run_id, event_id, hook_type, tool_name, session_id, tool_use_id, \
     scope, source, matcher, command, exit_code, timed_out, decision, duration_ms, stdout, stderr, \
     output_truncated, error, started_at, skipped";

pub(crate) fn row_to_hook_run(row: &rusqlite::Row<'_>) -> rusqlite::Result<HookRunRecord> {
    Ok(HookRunRecord {
        run_id: row.get(0)?,
        event_id: row.get(1)?,
        hook_type: row.get(2)?,
        tool_name: row.get(3)?,
        session_id: row.get(4)?,
        tool_use_id: row.get(5)?,
        scope: row.get(6)?,
        source: row.get(7)?,
        matcher: row.get(8)?,
        command: row.get(9)?,
        exit_code: row.get(10)?,
        timed_out: row.get(11)?,
        decision: row.get(12)?,
        duration_ms: row.get(13)?,
        stdout: row.get(14)?,
        stderr: row.get(15)?,
        output_truncated: row.get(16)?,
        error: row.get(17)?,
        started_at: row.get(18)?,
        skipped: row.get(19)?,
    })
}

pub(crate) fn row_to_mutation(row: &rusqlite::Row<'_>) -> rusqlite::Result<MutationRow> {
    Ok(MutationRow {
        id: row.get(0)?,
        record: MutationRecord {
            event_type: row.get(1)?,
            hook_type: row.get(2)?,
            tool_name: row.get(3)?,
            agent_id: row.get(4)?,
            file_path: row.get(5)?,
            file_ext: row.get(6)?,
            lines_changed: row.get(7)?,
            branch: row.get(8)?,
            head_sha: row.get(9)?,
            raw_payload: row.get(10)?,
            event_timestamp: row.get(11)?,
            received_at: row.get(12)?,
            event_id: row.get(13)?,
            mutation_seq: row.get(14)?,
            session_id: row.get(15)?,
            tool_use_id: row.get(16)?,
            remote_url: row.get(17)?,
            command: row.get(18)?,
            source_pid: row.get(19)?,
            flags: Flag::from_column(row.get::<_, Option<String>>(20)?.as_deref()),
            lines_added: row.get(21)?,
            lines_removed: row.get(22)?,
            before: ContentRef::from_column(row.get::<_, Option<String>>(23)?.as_deref()),
            after: ContentRef::from_column(row.get::<_, Option<String>>(24)?.as_deref()),
            agent_kind: row.get(25)?,
        },
        repo: None,
    })
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_page;
#[cfg(test)]
mod tests_payload;
#[cfg(test)]
pub(crate) mod tests_sink_check;
