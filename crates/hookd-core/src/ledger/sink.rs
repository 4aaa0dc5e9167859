//! Where ledger entries go: picks the ledger of an entry's repository,
//! keeps ledgers open (a bounded cache), registers new repositories, and
//! retries once with a fresh connection.
//!
//! Shared by the daemon's ingest thread and the AMQP ledger consumer, so
//! both write exactly the same rows to the same files.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::ledger::Ledger;
use crate::ledger::registry::{Origin, Registry};
use crate::record::{HookRunRecord, LedgerEntry};
use crate::{Error, Result, dirs};

/// Most ledgers kept open at once; the least recently opened is closed first.
const MAX_OPEN_LEDGERS: usize = 64;

/// Open ledgers and the repository registry. Blocking: use from one thread.
pub struct LedgerSink {
    data_dir: PathBuf,
    ledgers: HashMap<PathBuf, Ledger>,
    order: Vec<PathBuf>,
    registry: Option<Registry>,
    registered: HashSet<PathBuf>,
}

impl LedgerSink {
    /// A sink whose ledger for events outside git, and registry, live in `data_dir`.
    pub fn new(data_dir: PathBuf) -> Self {
        let registry = match Registry::open(&data_dir) {
            Ok(registry) => Some(registry),
            Err(err) => {
                tracing::warn!(error = %err, "repository registry unavailable; multi-repository queries will miss new repositories");
                None
            }
        };
        Self {
            data_dir,
            ledgers: HashMap::new(),
            order: Vec::new(),
            registry,
            registered: HashSet::new(),
        }
    }

    /// hookd's data directory.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The ledger file for a repository root (registering the root), or the
    /// ledger of events outside git.
    pub fn ledger_path(&mut self, git_root: Option<&Path>) -> PathBuf {
        match git_root {
            Some(root) => {
                self.register(root);
                dirs::repo_ledger_path(root)
            }
            None => dirs::unversioned_ledger_path(&self.data_dir),
        }
    }

    /// Appends entries to the ledger at `path` in one transaction (idempotent on event ids).
    pub fn append(&mut self, path: &Path, entries: &[LedgerEntry]) -> Result<usize> {
        self.with_ledger(path, |ledger| ledger.append(entries))
    }

    /// Appends hook runs to the ledger at `path` in one transaction (idempotent on run ids).
    pub fn append_hook_runs(&mut self, path: &Path, runs: &[HookRunRecord]) -> Result<usize> {
        self.with_ledger(path, |ledger| ledger.append_hook_runs(runs))
    }

    fn register(&mut self, root: &Path) {
        if self.registered.contains(root) {
            return;
        }
        if let Some(registry) = &self.registry
            && let Err(err) = registry.add(root, Origin::Event)
        {
            tracing::warn!(error = %err, root = %root.display(), "cannot register repository");
            return;
        }
        self.registered.insert(root.to_path_buf());
    }

    /// Runs `write` on the ledger at `path`, opening it if needed. One retry
    /// with a fresh connection covers a ledger deleted or replaced under us.
    fn with_ledger<T>(
        &mut self,
        path: &Path,
        mut write: impl FnMut(&mut Ledger) -> Result<T>,
    ) -> Result<T> {
        let first = self.open(path).and_then(&mut write);
        if first.is_ok() {
            return first;
        }
        self.close(path);
        self.open(path).and_then(write)
    }

    fn open(&mut self, path: &Path) -> Result<&mut Ledger> {
        if !self.ledgers.contains_key(path) {
            if self.ledgers.len() >= MAX_OPEN_LEDGERS && !self.order.is_empty() {
                let oldest = self.order.remove(0);
                self.ledgers.remove(&oldest);
            }
            let ledger = Ledger::open_or_create(path)?;
            self.ledgers.insert(path.to_path_buf(), ledger);
            self.order.push(path.to_path_buf());
        }
        self.ledgers.get_mut(path).ok_or_else(|| {
            Error::io(
                "ledger vanished from the cache",
                path,
                std::io::ErrorKind::NotFound.into(),
            )
        })
    }

    fn close(&mut self, path: &Path) {
        self.ledgers.remove(path);
        self.order.retain(|p| p != path);
    }
}
