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
//! A ledger is quick-checked once per file and daemon run (a ledger closed
//! by the cache and opened again is not checked again); a damaged one is
//! moved aside (see [`crate::ledger::integrity`]) and a new one started. A
//! ledger up to [`SYNC_CHECK_BYTES`] is checked before its first write. A
//! bigger one takes minutes to check, so it is checked on a thread of its
//! own ([`crate::ledger::checker`]) while the writer goes on; what is written
//! to it meanwhile is kept in memory (up to [`REPLAY_LIMIT_BYTES`]), and if
//! the check finds damage, the file is moved aside before the next write and
//! those batches are written again into the new ledger. Should the daemon
//! die before the check is over, the copy in memory is gone, so the daemon's
//! journal keeps the files of those events until the check has passed
//! ([`LedgerSink::checks_pending`], `crate::daemon::held`). A write that meets a
//! damaged page (SQLite reports the file corrupt) moves the file aside at
//! once and writes the batch into a new ledger.
//!
//! Checkpoints of the write-ahead logs run on their own thread
//! ([`crate::ledger::checkpoint`]), not in the writer's commits.
//!
//! Shared by the daemon's ingest thread and the AMQP ledger consumer, so
//! both write exactly the same rows to the same files.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

use crate::error::ErrorChain;
use crate::ledger::checker::{self, Checker};
use crate::ledger::checkpoint::{self, Checkpointer};
use crate::ledger::integrity::{self, MovedAside};
use crate::ledger::registry::{Origin, Registry};
use crate::ledger::{Ledger, with_suffix};
use crate::record::{HookRunRecord, LedgerEntry};
use crate::{Error, Result, dirs};

/// How many times a batch is written when its ledger keeps being removed
/// or replaced under the writer.
const REPLACED_ATTEMPTS: usize = 3;

/// Ledgers up to this size (the database and its write-ahead log) are
/// quick-checked before their first write: well under a second, even on a
/// cold cache. Bigger ones are checked on the check thread.
pub const SYNC_CHECK_BYTES: u64 = 64 * 1024 * 1024;

/// Most bytes of batches (their payloads, roughly) kept per ledger while
/// it is checked in the background, to be written again if it turns out
/// damaged. Beyond it nothing more is kept here (logged); the daemon's held
/// journal files, up to as many bytes of the newest events, are written
/// again instead (`crate::daemon::held`).
pub const REPLAY_LIMIT_BYTES: usize = 64 * 1024 * 1024;

/// Which file (device, inode) a ledger and its directory are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileIdentity {
    dir: (u64, u64),
    file: (u64, u64),
}

impl FileIdentity {
    /// The identity of what is at `path` now, by `lstat`; `None` when the
    /// file or its directory is gone.
    pub fn of(path: &Path) -> Option<Self> {
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
    identity: FileIdentity,
}

/// One batch to write, of either kind a ledger stores.
#[derive(Debug, Clone, Copy)]
enum Batch<'a> {
    Entries(&'a [LedgerEntry]),
    HookRuns(&'a [HookRunRecord]),
}

impl Batch<'_> {
    fn write(self, ledger: &mut Ledger) -> Result<usize> {
        match self {
            Self::Entries(entries) => ledger.append(entries),
            Self::HookRuns(runs) => ledger.append_hook_runs(runs),
        }
    }

    /// Roughly how many bytes keeping a copy takes: its payloads, and a
    /// little for the other fields.
    fn bytes(self) -> usize {
        const FIELDS: usize = 512;
        match self {
            Self::Entries(entries) => entries
                .iter()
                .map(|entry| {
                    FIELDS
                        + entry.event.raw_payload.len()
                        + entry
                            .mutations
                            .iter()
                            .map(|m| FIELDS + m.raw_payload.len())
                            .sum::<usize>()
                })
                .sum(),
            Self::HookRuns(runs) => runs
                .iter()
                .map(|run| FIELDS + run.stdout.len() + run.stderr.len())
                .sum(),
        }
    }

    fn to_owned(self) -> Written {
        match self {
            Self::Entries(entries) => Written::Entries(entries.to_vec()),
            Self::HookRuns(runs) => Written::HookRuns(runs.to_vec()),
        }
    }
}

/// A copy of a batch written to a ledger still being checked.
enum Written {
    Entries(Vec<LedgerEntry>),
    HookRuns(Vec<HookRunRecord>),
}

impl Written {
    fn batch(&self) -> Batch<'_> {
        match self {
            Self::Entries(entries) => Batch::Entries(entries),
            Self::HookRuns(runs) => Batch::HookRuns(runs),
        }
    }
}

/// A ledger being checked in the background, and what was written to it
/// since it was opened.
struct Unchecked {
    identity: FileIdentity,
    written: Vec<Written>,
    bytes: usize,
    /// More than [`REPLAY_LIMIT_BYTES`] was written: nothing is kept.
    overflowed: bool,
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
    /// Ledgers whose check passed in this run, by the file checked.
    checked: HashMap<PathBuf, FileIdentity>,
    /// Ledgers being checked in the background.
    unchecked: HashMap<PathBuf, Unchecked>,
    sync_check_bytes: u64,
    replay_limit_bytes: usize,
    #[cfg(test)]
    checks_started: usize,
    /// Checks big ledgers; stopped (and its check interrupted) on drop.
    checker: Option<Checker>,
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
            checked: HashMap::new(),
            unchecked: HashMap::new(),
            sync_check_bytes: SYNC_CHECK_BYTES,
            replay_limit_bytes: REPLAY_LIMIT_BYTES,
            #[cfg(test)]
            checks_started: 0,
            checker: Checker::start(),
            checkpointer: Checkpointer::start(),
        }
    }

    /// Sets the size above which a ledger is checked in the background, and
    /// how much is kept meanwhile (tests use small ledgers).
    #[cfg(test)]
    pub(crate) fn set_check_limits(&mut self, sync_check_bytes: u64, replay_limit_bytes: usize) {
        self.sync_check_bytes = sync_check_bytes;
        self.replay_limit_bytes = replay_limit_bytes;
    }

    /// Waits until no background check is queued or under way (tests).
    #[cfg(test)]
    pub(crate) fn wait_for_checks(&self) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while self.checker.as_ref().is_some_and(Checker::busy) {
            assert!(
                std::time::Instant::now() < deadline,
                "a background check never finished"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// What holds the background checks back at will (tests).
    #[cfg(test)]
    pub(crate) fn check_gate(&self) -> checker::CheckGate {
        self.checker
            .as_ref()
            .map(Checker::gate)
            .expect("the check thread runs")
    }

    /// How many background checks were started (tests).
    #[cfg(test)]
    pub(crate) fn checks_started(&self) -> usize {
        self.checks_started
    }

    /// Closes every open ledger, as the cache does with the least recently
    /// opened (tests).
    #[cfg(test)]
    pub(crate) fn close_all(&mut self) {
        self.ledgers.clear();
        self.order.clear();
    }

    /// Whether the ledger at `path` is being checked in the background.
    pub fn is_being_checked(&self, path: &Path) -> bool {
        self.unchecked.contains_key(path)
    }

    /// Whether any ledger is being checked in the background (its outcome
    /// not yet taken in by [`Self::settle_checks`]).
    pub fn checks_pending(&self) -> bool {
        !self.unchecked.is_empty()
    }

    /// The ledgers being checked in the background, sorted.
    pub fn being_checked(&self) -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = self.unchecked.keys().cloned().collect();
        paths.sort();
        paths
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

    /// Opens the ledger at `path` if it exists as a file (never creating
    /// one), which has it checked as before a write: now when small, in the
    /// background when big. Whether it was there.
    pub fn open_existing(&mut self, path: &Path) -> Result<bool> {
        if !std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_file()) {
            return Ok(false);
        }
        self.settle_checks();
        self.open(path).map(|_| true)
    }

    /// Appends entries to the ledger at `path` in one transaction (idempotent on event ids).
    pub fn append(&mut self, path: &Path, entries: &[LedgerEntry]) -> Result<usize> {
        self.with_ledger(path, Batch::Entries(entries))
    }

    /// Keeps `contents` (hash, bytes) in the content store beside the
    /// ledger at `path` ([`Ledger::keep_contents`]), before rows that refer
    /// to them are appended.
    pub fn keep_contents(&mut self, path: &Path, contents: &[(&str, Vec<u8>)]) -> Result<usize> {
        self.settle_checks();
        self.open(path)?.keep_contents(contents)
    }

    /// Appends hook runs to the ledger at `path` in one transaction (idempotent on run ids).
    pub fn append_hook_runs(&mut self, path: &Path, runs: &[HookRunRecord]) -> Result<usize> {
        self.with_ledger(path, Batch::HookRuns(runs))
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

    /// Writes `batch` to the ledger at `path`, opening it if needed. One
    /// retry with a fresh connection covers a failed write; a ledger
    /// removed or replaced under the writer (checked before and after the
    /// write), or found damaged, is opened again (a new one) and written
    /// again, [`REPLACED_ATTEMPTS`] times at most.
    fn with_ledger(&mut self, path: &Path, batch: Batch<'_>) -> Result<usize> {
        self.settle_checks();
        let mut failed_once = false;
        for _ in 0..REPLACED_ATTEMPTS {
            match self.open(path).and_then(|ledger| batch.write(ledger)) {
                Ok(written) => {
                    if self.is_current(path) {
                        if let Some(checkpointer) = &self.checkpointer {
                            checkpointer.written(path);
                        }
                        self.keep_while_checked(path, batch);
                        return Ok(written);
                    }
                    tracing::warn!(ledger = %path.display(), "ledger removed or replaced while writing; writing the batch again into a new one");
                }
                Err(err) if integrity::is_damage(&err) && self.ledgers.contains_key(path) => {
                    // The write met a damaged page; SQLite rolled it back.
                    let identity = self.ledgers.get(path).map(|open| open.identity);
                    self.close(path);
                    let kept = self.unchecked.remove(path);
                    if let Some(identity) = identity {
                        self.replace_damaged(path, identity, &ErrorChain(&err).to_string(), kept)?;
                    }
                    continue;
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

    /// Keeps a copy of `batch` if the ledger at `path` is being checked.
    fn keep_while_checked(&mut self, path: &Path, batch: Batch<'_>) {
        let Some(open) = self.ledgers.get(path) else {
            return;
        };
        let Some(unchecked) = self.unchecked.get_mut(path) else {
            return;
        };
        if unchecked.identity != open.identity || unchecked.overflowed {
            return;
        }
        unchecked.bytes += batch.bytes();
        if unchecked.bytes > self.replay_limit_bytes {
            tracing::warn!(ledger = %path.display(), limit = self.replay_limit_bytes, "more was written to the ledger than is kept while it is checked; should it be damaged, these events stay in the file moved aside");
            unchecked.overflowed = true;
            unchecked.written = Vec::new();
        } else {
            unchecked.written.push(batch.to_owned());
        }
    }

    /// Takes in the background checks that finished: a sound ledger is
    /// remembered as checked; a damaged one is closed, moved aside and
    /// replaced, with what was written to it since it was opened. Every
    /// write does this first; call it also when nothing is written.
    pub fn settle_checks(&mut self) {
        let Some(checker) = &self.checker else {
            return;
        };
        for outcome in checker.finished() {
            // A check of a file replaced since is no verdict on this one.
            let kept = match self.unchecked.entry(outcome.path.clone()) {
                Entry::Occupied(kept) if kept.get().identity == outcome.identity => kept.remove(),
                _ => continue,
            };
            let path = outcome.path;
            match outcome.verdict {
                checker::Verdict::Sound => {
                    tracing::info!(ledger = %path.display(), "background check of the ledger passed");
                    self.checked.insert(path, outcome.identity);
                }
                checker::Verdict::Unknown(why) => {
                    tracing::warn!(ledger = %path.display(), reason = %why, "could not check the ledger in the background; it is checked when a daemon next opens it");
                }
                checker::Verdict::Damaged(damage) => {
                    if self
                        .ledgers
                        .get(&path)
                        .is_some_and(|open| open.identity == outcome.identity)
                    {
                        self.close(&path);
                    }
                    if let Err(err) =
                        self.replace_damaged(&path, outcome.identity, &damage, Some(kept))
                    {
                        tracing::error!(ledger = %path.display(), error = %ErrorChain(&err), "cannot replace the damaged ledger");
                    }
                }
            }
        }
    }

    /// Moves the damaged ledger at `path` (closed) aside if it is still the
    /// file `identity`, starts a new one, and writes into it again what
    /// `kept` holds.
    fn replace_damaged(
        &mut self,
        path: &Path,
        identity: FileIdentity,
        damage: &str,
        kept: Option<Unchecked>,
    ) -> Result<()> {
        if FileIdentity::of(path) != Some(identity) {
            tracing::warn!(ledger = %path.display(), problem = %damage, "the damaged ledger was already removed or replaced");
            return Ok(());
        }
        let moved = self.move_damaged_aside(path, damage)?;
        let Some(kept) = kept.filter(|kept| kept.identity == identity) else {
            return Ok(());
        };
        if kept.overflowed {
            tracing::error!(
                ledger = %path.display(),
                moved_to = %moved.display(),
                "the events written to the damaged ledger while it was checked were more than could be kept; they are only in the file moved aside"
            );
        }
        let ledger = self.open(path)?;
        let mut again = 0;
        for written in &kept.written {
            again += written.batch().write(ledger)?;
        }
        if again > 0 {
            tracing::warn!(ledger = %path.display(), rows = again, "wrote again into the new ledger what was written to the damaged one while it was checked");
        }
        Ok(())
    }

    /// Whether the open ledger at `path` is still the file at that path.
    fn is_current(&self, path: &Path) -> bool {
        self.ledgers
            .get(path)
            .is_some_and(|open| FileIdentity::of(path) == Some(open.identity))
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
            let (ledger, identity) = self.open_checked(path)?;
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

    /// Opens (or creates) the ledger and has it checked, unless this file
    /// was checked (or is being checked) in this run: now when it is small
    /// or there is no check thread, in the background otherwise. A ledger
    /// found damaged now is moved aside, logged and remembered, and a new
    /// one created.
    fn open_checked(&mut self, path: &Path) -> Result<(Ledger, FileIdentity)> {
        let existed = std::fs::symlink_metadata(path).is_ok();
        let damage = match Ledger::open_or_create(path) {
            Ok(ledger) => {
                let identity = identity_of_opened(path)?;
                if !existed {
                    // Created just now: nothing to check.
                    self.checked.insert(path.to_path_buf(), identity);
                }
                let known = self.checked.get(path) == Some(&identity)
                    || self
                        .unchecked
                        .get(path)
                        .is_some_and(|kept| kept.identity == identity);
                if known {
                    return Ok((ledger, identity));
                }
                if let Some(checker) = &self.checker
                    && stored_bytes(path) > self.sync_check_bytes
                {
                    tracing::info!(ledger = %path.display(), "the ledger is big: checking it in the background while events are written");
                    checker.check(path, identity);
                    #[cfg(test)]
                    {
                        self.checks_started += 1;
                    }
                    self.unchecked.insert(
                        path.to_path_buf(),
                        Unchecked {
                            identity,
                            written: Vec::new(),
                            bytes: 0,
                            overflowed: false,
                        },
                    );
                    return Ok((ledger, identity));
                }
                match integrity::quick_check(ledger.connection(), path) {
                    Ok(problems) if problems.is_empty() => {
                        self.checked.insert(path.to_path_buf(), identity);
                        return Ok((ledger, identity));
                    }
                    Ok(problems) => problems.join("; "),
                    Err(err) if integrity::is_damage(&err) => ErrorChain(&err).to_string(),
                    Err(err) => return Err(err),
                }
            }
            Err(err) if integrity::is_damage(&err) => ErrorChain(&err).to_string(),
            Err(err) => return Err(err),
        };
        self.move_damaged_aside(path, &damage)?;
        let ledger = Ledger::open_or_create(path)?;
        let identity = identity_of_opened(path)?;
        // A new, empty ledger: nothing to check.
        self.checked.insert(path.to_path_buf(), identity);
        Ok((ledger, identity))
    }

    /// Moves the damaged ledger at `path` (closed) aside, logs and
    /// remembers it; where it went.
    fn move_damaged_aside(&mut self, path: &Path, damage: &str) -> Result<PathBuf> {
        let moved = integrity::move_aside(path, damage)?;
        tracing::error!(
            ledger = %path.display(),
            moved_to = %moved.moved_to.display(),
            problem = %damage,
            "ledger is damaged: moved it aside (kept) and started a new one"
        );
        let to = moved.moved_to.clone();
        self.moved_aside.push(moved);
        Ok(to)
    }

    fn close(&mut self, path: &Path) {
        self.ledgers.remove(path);
        self.order.retain(|p| p != path);
    }
}

/// The identity of the ledger just opened at `path`.
fn identity_of_opened(path: &Path) -> Result<FileIdentity> {
    FileIdentity::of(path).ok_or_else(|| {
        Error::io(
            "ledger removed while it was opened",
            path,
            std::io::ErrorKind::NotFound.into(),
        )
    })
}

/// Bytes the ledger at `path` takes: the database and its write-ahead log
/// (what a check reads).
fn stored_bytes(path: &Path) -> u64 {
    let len = |p: &Path| std::fs::symlink_metadata(p).map_or(0, |meta| meta.len());
    len(path) + len(&with_suffix(path, "-wal"))
}
