//! Where ledger entries go: picks the ledger of an entry's repository,
//! keeps ledgers open (a bounded cache), registers new repositories, and
//! retries once with a fresh connection.
//!
//! An open connection writes to a file, not to a path: after `git clean
//! -fdx`, `rm -rf .hookd` or `.hookd` replaced by a file, it would keep
//! writing into an unlinked inode, and every event would be reported as
//! stored while no file on disk holds it. So before and after each batch
//! the (device, inode) of the ledger and of its directory are compared with
//! the open file's; when they differ the ledger is opened again (created
//! again, `.hookd/` included, when it is gone) and the batch, idempotent on
//! event ids, is written again there.
//!
//! A ledger is quick-checked when opened here; a damaged one is moved aside
//! (see [`crate::ledger::integrity`]) and a new one started.
//!
//! Checkpoints of the write-ahead logs run on their own thread
//! ([`crate::ledger::checkpoint`]), not in the writer's commits.
//!
//! Shared by the daemon's ingest thread and the AMQP ledger consumer, so
//! both write exactly the same rows to the same files.

use std::collections::{HashMap, HashSet};
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

use crate::error::ErrorChain;
use crate::ledger::Ledger;
use crate::ledger::checkpoint::{self, Checkpointer};
use crate::ledger::integrity::{self, MovedAside};
use crate::ledger::registry::{Origin, Registry};
use crate::record::{HookRunRecord, LedgerEntry};
use crate::{Error, Result, dirs};

/// How many times a batch is written when its ledger keeps being removed
/// or replaced under the writer.
const REPLACED_ATTEMPTS: usize = 3;

/// Which file (device, inode) a ledger and its directory are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Identity {
    dir: (u64, u64),
    file: (u64, u64),
}

impl Identity {
    /// The identity of what is at `path` now, by `lstat`; `None` when the
    /// file or its directory is gone.
    fn of(path: &Path) -> Option<Self> {
        let id = |p: &Path| {
            std::fs::symlink_metadata(p)
                .ok()
                .map(|meta| (meta.dev(), meta.ino()))
        };
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty())?;
        Some(Self {
            dir: id(dir)?,
            file: id(path)?,
        })
    }
}

/// An open ledger and the file it was opened on.
struct OpenLedger {
    ledger: Ledger,
    identity: Identity,
}

/// Most ledgers kept open at once; the least recently opened is closed first.
const MAX_OPEN_LEDGERS: usize = 64;

/// Open ledgers and the repository registry. Blocking: use from one thread.
pub struct LedgerSink {
    data_dir: PathBuf,
    ledgers: HashMap<PathBuf, OpenLedger>,
    order: Vec<PathBuf>,
    registry: Option<Registry>,
    registered: HashSet<PathBuf>,
    moved_aside: Vec<MovedAside>,
    /// Checkpoints what was written; last, so the ledgers close first.
    checkpointer: Option<Checkpointer>,
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
            moved_aside: Vec::new(),
            checkpointer: Checkpointer::start(),
        }
    }

    /// Damaged ledgers moved aside since the last call (each was logged).
    pub fn take_moved_aside(&mut self) -> Vec<MovedAside> {
        std::mem::take(&mut self.moved_aside)
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
    /// with a fresh connection covers a failed write; a ledger removed or
    /// replaced under the writer (checked before and after the write) is
    /// opened again and written again, [`REPLACED_ATTEMPTS`] times at most.
    fn with_ledger<T>(
        &mut self,
        path: &Path,
        mut write: impl FnMut(&mut Ledger) -> Result<T>,
    ) -> Result<T> {
        let mut failed_once = false;
        for _ in 0..REPLACED_ATTEMPTS {
            match self.open(path).and_then(&mut write) {
                Ok(value) => {
                    if self.is_current(path) {
                        if let Some(checkpointer) = &self.checkpointer {
                            checkpointer.written(path);
                        }
                        return Ok(value);
                    }
                    tracing::warn!(ledger = %path.display(), "ledger removed or replaced while writing; writing the batch again into a new one");
                }
                Err(err) if failed_once => {
                    self.close(path);
                    return Err(err);
                }
                Err(err) => {
                    tracing::debug!(ledger = %path.display(), error = %ErrorChain(&err), "ledger write failed; retrying with a fresh connection");
                    failed_once = true;
                }
            }
            self.close(path);
        }
        Err(Error::io(
            "ledger removed or replaced during every write",
            path,
            std::io::ErrorKind::NotFound.into(),
        ))
    }

    /// Whether the open ledger at `path` is still the file at that path.
    fn is_current(&self, path: &Path) -> bool {
        self.ledgers
            .get(path)
            .is_some_and(|open| Identity::of(path) == Some(open.identity))
    }

    fn open(&mut self, path: &Path) -> Result<&mut Ledger> {
        if self.ledgers.contains_key(path) && !self.is_current(path) {
            tracing::warn!(ledger = %path.display(), "ledger removed or replaced since it was opened; opening it again");
            self.close(path);
        }
        if !self.ledgers.contains_key(path) {
            if self.ledgers.len() >= MAX_OPEN_LEDGERS && !self.order.is_empty() {
                let oldest = self.order.remove(0);
                self.ledgers.remove(&oldest);
            }
            let ledger = self.open_checked(path)?;
            if self.checkpointer.is_some() {
                // The checkpoint thread keeps the log short; the writer's own
                // checkpoint is only a backstop.
                let conn = ledger.connection();
                conn.pragma_update(None, "wal_autocheckpoint", checkpoint::BACKSTOP_PAGES)
                    .and_then(|()| {
                        conn.pragma_update(None, "journal_size_limit", checkpoint::LOG_SIZE_LIMIT)
                    })
                    .map_err(|e| Error::sqlite(path, e))?;
            }
            let identity = Identity::of(path).ok_or_else(|| {
                Error::io(
                    "ledger removed while it was opened",
                    path,
                    std::io::ErrorKind::NotFound.into(),
                )
            })?;
            self.ledgers
                .insert(path.to_path_buf(), OpenLedger { ledger, identity });
            self.order.push(path.to_path_buf());
        }
        self.ledgers
            .get_mut(path)
            .map(|open| &mut open.ledger)
            .ok_or_else(|| {
                Error::io(
                    "ledger vanished from the cache",
                    path,
                    std::io::ErrorKind::NotFound.into(),
                )
            })
    }

    /// Opens (or creates) the ledger and quick-checks it; a damaged one is
    /// moved aside, logged and remembered, and a new one created.
    fn open_checked(&mut self, path: &Path) -> Result<Ledger> {
        let damage = match Ledger::open_or_create(path) {
            Ok(ledger) => match integrity::quick_check(ledger.connection(), path) {
                Ok(problems) if problems.is_empty() => return Ok(ledger),
                Ok(problems) => problems.join("; "),
                Err(err) if integrity::is_damage(&err) => ErrorChain(&err).to_string(),
                Err(err) => return Err(err),
            },
            Err(err) if integrity::is_damage(&err) => ErrorChain(&err).to_string(),
            Err(err) => return Err(err),
        };
        let moved = integrity::move_aside(path, &damage)?;
        tracing::error!(
            ledger = %path.display(),
            moved_to = %moved.moved_to.display(),
            problem = %damage,
            "ledger is damaged: moved it aside (kept) and started a new one"
        );
        self.moved_aside.push(moved);
        Ledger::open_or_create(path)
    }

    fn close(&mut self, path: &Path) {
        self.ledgers.remove(path);
        self.order.retain(|p| p != path);
    }
}
