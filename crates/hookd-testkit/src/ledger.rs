//! Ledgers: read back what the daemon or a consumer wrote, and write
//! events exactly as the daemon would, through hookd-core's own code.

use std::path::{Path, PathBuf};
use std::time::Duration;

use hookd_core::daemon::extract;
use hookd_core::ledger::Ledger;
use hookd_core::ledger::content_store::{ContentHash, ContentStore};
use hookd_core::ledger::registry::{Origin, Registry};
use hookd_core::record::{HookEvent, LedgerEntry, RepoFacts};
use rusqlite::{Connection, OpenFlags};

use crate::env::TestEnv;
use crate::git::GitRepo;
use crate::payload::Event;
use crate::wait::poll_until;

/// How long [`wait_for_count`] waits for rows to arrive.
pub const ARRIVAL_TIMEOUT: Duration = Duration::from_secs(30);

/// Opens the ledger at `path` read-only (panics if it does not exist).
pub fn open_ledger(path: &Path) -> Connection {
    Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap_or_else(|err| panic!("open ledger {}: {err}", path.display()))
}

/// Row count of `table` in the ledger at `path`; 0 while the ledger (or its
/// schema) does not exist yet.
pub fn ledger_count(path: &Path, table: &str) -> i64 {
    if !path.exists() {
        return 0;
    }
    match open_ledger(path).query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0)) {
        Ok(count) => count,
        // The file exists but the migration has not run yet.
        Err(err) if err.to_string().contains("no such table") => 0,
        Err(err) => panic!("count {table} in {}: {err}", path.display()),
    }
}

impl GitRepo {
    /// The ledger file of this repository.
    pub fn ledger_path(&self) -> PathBuf {
        hookd_core::dirs::repo_ledger_path(&self.root())
    }

    /// Opens this repository's ledger read-only (fails if it does not exist).
    pub fn ledger(&self) -> Connection {
        open_ledger(&self.ledger_path())
    }

    /// Row count of a ledger table, 0 while the ledger does not exist yet.
    pub fn count(&self, table: &str) -> i64 {
        ledger_count(&self.ledger_path(), table)
    }

    /// The content the repository's content store keeps for a row's
    /// `before` or `after` (`{"state":"kept","hash":…}`), read and checked
    /// by the store itself; panics when the reference is not a kept one.
    pub fn stored_content(&self, content: &serde_json::Value) -> Vec<u8> {
        assert_eq!(content["state"], "kept", "not a kept content: {content}");
        let hash =
            ContentHash::parse(content["hash"].as_str().expect("hash")).expect("a content hash");
        let state_dir = self
            .ledger_path()
            .parent()
            .expect("state dir")
            .to_path_buf();
        ContentStore::open(&state_dir)
            .and_then(|store| store.get(&hash))
            .unwrap_or_else(|err| panic!("content {hash}: {err}"))
    }

    /// Number of distinct values of `column` in the `mutations` table.
    pub fn distinct_mutations(&self, column: &str) -> i64 {
        self.ledger()
            .query_row(
                &format!("SELECT COUNT(DISTINCT {column}) FROM mutations"),
                [],
                |r| r.get(0),
            )
            .expect("count distinct")
    }
}

impl TestEnv {
    /// The ledger of events outside any git repository, in this environment's data dir.
    pub fn unversioned_ledger_path(&self) -> PathBuf {
        hookd_core::dirs::unversioned_ledger_path(&self.data_dir())
    }
}

/// Waits (up to [`ARRIVAL_TIMEOUT`]) until the ledger at `path` holds at
/// least `expected` rows in `table`; panics with the count reached.
pub fn wait_for_ledger_count(path: &Path, table: &str, expected: i64) {
    let mut last = 0;
    let reached = poll_until(ARRIVAL_TIMEOUT, || {
        last = ledger_count(path, table);
        (last >= expected).then_some(())
    });
    assert!(
        reached.is_some(),
        "{table} of {}: expected {expected} rows, reached {last}",
        path.display()
    );
}

/// Waits (up to [`ARRIVAL_TIMEOUT`]) until `repo`'s `table` holds at least
/// `expected` rows; panics with the count reached.
pub fn wait_for_count(repo: &GitRepo, table: &str, expected: i64) {
    wait_for_ledger_count(&repo.ledger_path(), table, expected);
}

/// The ledger entry the daemon stores for `event` in the repository
/// described by `facts`: the event and the mutation the daemon's own
/// extraction finds in it.
pub fn ledger_entry(event: HookEvent, facts: &RepoFacts) -> LedgerEntry {
    let mutations = extract::direct_mutation(&event, facts)
        .into_iter()
        .collect();
    LedgerEntry {
        event,
        repo: facts.clone(),
        mutations,
    }
}

/// Appends `events` to the ledger of `repo` exactly as the daemon would
/// (parse, git facts, mutation extraction, one transaction) and registers
/// the repository in `env`'s data dir with origin `event`.
pub fn record(env: &TestEnv, repo: &GitRepo, events: &[Event<'_>]) {
    record_with(env, repo, events, |_| {});
}

/// [`record`] as a hookd of schema 11 did: every payload stored as
/// received, none of its strings in the content store by reference (the
/// history `hookd ledger compact` rewrites).
pub fn record_as_schema_11(env: &TestEnv, repo: &GitRepo, events: &[Event<'_>]) {
    record_with(env, repo, events, Ledger::store_payloads_as_received);
}

fn record_with(
    env: &TestEnv,
    repo: &GitRepo,
    events: &[Event<'_>],
    prepare: impl FnOnce(&mut Ledger),
) {
    let root = repo.root();
    let head = repo.head_sha();
    let entries: Vec<LedgerEntry> = events
        .iter()
        .map(|e| {
            let line = e.envelope(&root).to_string();
            let event = hookd_core::daemon::server::parse_envelope(line.as_bytes())
                .expect("valid envelope");
            let facts = RepoFacts {
                git_root: Some(root.clone()),
                branch: e.branch.to_owned(),
                head_sha: head.clone(),
                remote_url: None,
            };
            ledger_entry(event, &facts)
        })
        .collect();
    let mut ledger = Ledger::open_or_create(&repo.ledger_path()).expect("ledger");
    prepare(&mut ledger);
    ledger.append(&entries).expect("append");
    Registry::open(&env.data_dir())
        .expect("registry")
        .add(&root, Origin::Event)
        .expect("register");
}
