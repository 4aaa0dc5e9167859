//! What a file tool's file held before and after it ran, read as its hook
//! calls arrive, for a rewind to give back.
//!
//! Write, Edit, MultiEdit and NotebookEdit each change the one file named in
//! their input. When the daemon reads their `PreToolUse` it reads that file
//! into the repository's content store ([`crate::ledger::content_store`]);
//! when it reads the `PostToolUse`, it reads it again. Both happen on the
//! connection task, before the connection is closed, and `hookd-emit`
//! waits (bounded) for that close ([`hookd_proto::snapshot`]): the agent
//! cannot write before the *before* is held, nor change the file again
//! before the *after* is. The ingest thread then takes both for the
//! mutation row ([`ContentTracker::take`]), paired by `tool_use_id`.
//!
//! A file is read without following a symbolic link at its name (a link is
//! recorded as unknown: restoring through it would write wherever it
//! points), only when it is a regular file, and only up to the store's
//! limit (bigger ones are recorded as too large). Whatever goes wrong is
//! recorded as unknown with why, never guessed.

use std::collections::HashMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rustix::fs::{FileType, Mode, OFlags};
use rustix::io::Errno;

use crate::dirs;
use crate::ledger::content_store::{ContentStore, Stored};
use crate::record::ContentRef;

/// How long a before waits for its after before it is dropped.
const PENDING_TTL: Duration = Duration::from_secs(6 * 60 * 60);

/// Most tool calls held at once; the oldest go first beyond it (an agent
/// that never sends its `PostToolUse` must not grow the daemon forever).
const MAX_PENDING: usize = 10_000;

/// Why a change has no before: no `PreToolUse` of its call was read.
pub const NO_BEFORE: &str =
    "no PreToolUse was seen for this call, so its file was not read before it ran";

/// Why a change has neither: its event names no call (`tool_use_id`) to
/// pair its `PreToolUse` and `PostToolUse` by.
pub const NO_CALL_ID: &str = "the event names no tool call (tool_use_id), so its file was not read";

/// Why a change has no after: the daemon did not read its file when the
/// `PostToolUse` arrived (it restarted in between, or the event came from
/// a journal).
pub const NO_AFTER: &str = "the file was not read when the PostToolUse arrived";

/// The contents read for tool calls whose mutation row is not stored yet.
///
/// Shared, like [`crate::daemon::bash_tracker::BashTracker`], between the
/// connection tasks (which read the files) and the ingest thread (which
/// takes them for the rows); the lock is held for a map operation only.
#[derive(Default)]
pub struct ContentTracker {
    pending: HashMap<String, Pending>,
}

struct Pending {
    path: PathBuf,
    before: Option<ContentRef>,
    after: Option<ContentRef>,
    taken: Instant,
}

impl ContentTracker {
    /// A tracker with nothing held.
    pub fn new() -> Self {
        Self::default()
    }

    /// Keeps what `path` held before the call `tool_use_id` ran.
    pub fn before(&mut self, tool_use_id: &str, path: &Path, content: ContentRef) {
        self.prune();
        self.pending.insert(
            tool_use_id.to_owned(),
            Pending {
                path: path.to_path_buf(),
                before: Some(content),
                after: None,
                taken: Instant::now(),
            },
        );
    }

    /// Keeps what `path` held after the call `tool_use_id` ran. A before
    /// of another path (the same id reused for another file) is dropped.
    pub fn after(&mut self, tool_use_id: &str, path: &Path, content: ContentRef) {
        self.prune();
        let pending = self
            .pending
            .entry(tool_use_id.to_owned())
            .or_insert_with(|| Pending {
                path: path.to_path_buf(),
                before: None,
                after: None,
                taken: Instant::now(),
            });
        if pending.path != path {
            pending.path = path.to_path_buf();
            pending.before = None;
        }
        pending.after = Some(content);
    }

    /// Removes and returns the before and after of `tool_use_id` for
    /// `path`; what was not read is unknown, saying why.
    pub fn take(&mut self, tool_use_id: &str, path: &Path) -> (ContentRef, ContentRef) {
        let pending = self
            .pending
            .remove(tool_use_id)
            .filter(|pending| pending.path == path);
        let (before, after) = pending.map_or((None, None), |p| (p.before, p.after));
        (
            before.unwrap_or_else(|| ContentRef::unknown(NO_BEFORE)),
            after.unwrap_or_else(|| ContentRef::unknown(NO_AFTER)),
        )
    }

    /// Number of calls held.
    pub fn pending_len(&self) -> usize {
        self.pending.len()
    }

    fn prune(&mut self) {
        self.pending.retain(|_, p| p.taken.elapsed() < PENDING_TTL);
        if self.pending.len() >= MAX_PENDING {
            let mut ages: Vec<Instant> = self.pending.values().map(|p| p.taken).collect();
            ages.sort_unstable();
            let cut = ages[self.pending.len() - MAX_PENDING / 2];
            self.pending.retain(|_, p| p.taken >= cut);
        }
    }
}

/// The directory holding the ledger (and so the content store) a change
/// of `file` goes to: the `.hookd/` of the repository holding it, or the
/// ledger outside git's. `event_root` is the root of the event's own
/// repository: a file under it stays with it, as
/// [`crate::daemon::placement`] places it.
pub fn state_dir_for(file: &Path, event_root: Option<&Path>, data_dir: &Path) -> PathBuf {
    let root = match event_root {
        Some(root) if file.starts_with(root) => Some(root.to_path_buf()),
        _ => file.parent().and_then(crate::project::discover_root),
    };
    store_dir_of(root.as_deref(), data_dir)
}

/// The directory holding the ledger (and so the content store) of the
/// repository at `git_root`, or of events outside git.
pub fn store_dir_of(git_root: Option<&Path>, data_dir: &Path) -> PathBuf {
    let ledger = match git_root {
        Some(root) => dirs::repo_ledger_path(root),
        None => dirs::unversioned_ledger_path(data_dir),
    };
    ledger
        .parent()
        .map_or_else(|| data_dir.to_path_buf(), Path::to_path_buf)
}

/// Reads `file` into `store`: what it holds now, with its mode, as a
/// mutation row records it.
pub fn read_into(store: &ContentStore, file: &Path) -> ContentRef {
    match read_file(file, store.limit()) {
        Ok(read) => keep(store, &read.bytes).with_mode(read.mode),
        Err(recorded) => recorded,
    }
}

/// A regular file as [`read_file`] read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRead {
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its permission bits (`st_mode & 0o7777`).
    pub mode: u32,
}

/// The bytes and mode of `file`, read as [`read_into`] reads them;
/// otherwise what to record instead (absent, too large over `limit`, or
/// unknown and why).
pub fn read_file(file: &Path, limit: u64) -> Result<FileRead, ContentRef> {
    let fd = match rustix::fs::open(
        file,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
        Mode::empty(),
    ) {
        Ok(fd) => fd,
        Err(Errno::NOENT) => return Err(ContentRef::Absent),
        Err(Errno::LOOP) => {
            return Err(ContentRef::unknown(
                "the path is a symbolic link; hookd does not restore through links",
            ));
        }
        Err(errno) => {
            return Err(ContentRef::unknown(format!(
                "cannot open the file: {errno}"
            )));
        }
    };
    let stat = rustix::fs::fstat(&fd)
        .map_err(|errno| ContentRef::unknown(format!("cannot inspect the file: {errno}")))?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return Err(ContentRef::unknown("not a regular file"));
    }
    let size = u64::try_from(stat.st_size).unwrap_or(0);
    if size > limit {
        return Err(ContentRef::TooLarge { size });
    }
    let mut content = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // One byte past the limit: a file that grew while read is too large
    // (the store says so).
    std::fs::File::from(fd)
        .take(limit.saturating_add(1))
        .read_to_end(&mut content)
        .map_err(|err| ContentRef::unknown(format!("cannot read the file: {err}")))?;
    Ok(FileRead {
        bytes: content,
        mode: stat.st_mode & 0o7777,
    })
}

/// Keeps `content` in `store`, as a mutation row records it.
pub fn keep(store: &ContentStore, content: &[u8]) -> ContentRef {
    match store.put(content) {
        Ok(Stored::Kept { hash, size }) => ContentRef::Kept {
            hash: hash.as_str().to_owned(),
            size,
            mode: None,
        },
        Ok(Stored::TooLarge { size, .. }) => ContentRef::TooLarge { size },
        Err(err) => ContentRef::unknown(format!("cannot keep the content: {err}")),
    }
}

/// The daemon's open content stores, one per state directory, and the git
/// root of each directory an event came from.
///
/// Opening a store per call cost more than reading the file: the SQLite
/// open, and on the close of its last connection a checkpoint of the
/// write-ahead log with an fsync, on the path the agent waits on. A store
/// stays open for the daemon's life; before each use its database file is
/// checked to be the one opened (same device and inode), so a `.hookd/`
/// removed or replaced meanwhile (`git clean -fdx`) gets a new store
/// rather than writes into a deleted file. Uses of one store take turns.
pub struct StoreCache {
    stores: Mutex<HashMap<PathBuf, Arc<Mutex<OpenStore>>>>,
    roots: Mutex<HashMap<PathBuf, (Option<PathBuf>, Instant)>>,
    max_bytes: u64,
}

impl Default for StoreCache {
    fn default() -> Self {
        Self::new(crate::ledger::content_store::DEFAULT_MAX_CONTENT_BYTES)
    }
}

/// Most stores or directories remembered; past it the map starts over.
const MAX_CACHED: usize = 1024;

/// How long a directory's git root is trusted (a `git init` may make one).
const ROOT_TTL: Duration = Duration::from_secs(30);

struct OpenStore {
    store: ContentStore,
    identity: Option<(u64, u64)>,
}

impl OpenStore {
    fn open(state_dir: &Path, max_bytes: u64) -> Result<Self, StoreError> {
        let store = open_store(state_dir)?.with_limit(max_bytes);
        let identity = identity(state_dir);
        Ok(Self { store, identity })
    }
}

/// Device and inode of the store's database in `state_dir`.
fn identity(state_dir: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    let path = state_dir
        .join(crate::ledger::content_store::CONTENT_DIR)
        .join(crate::ledger::content_store::DATABASE_NAME);
    std::fs::symlink_metadata(path)
        .ok()
        .map(|meta| (meta.dev(), meta.ino()))
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl StoreCache {
    /// An empty cache whose stores keep contents up to `max_bytes`.
    pub fn new(max_bytes: u64) -> Self {
        Self {
            stores: Mutex::default(),
            roots: Mutex::default(),
            max_bytes,
        }
    }

    /// Runs `use_it` on the store of `state_dir`, opening (or reopening) it
    /// as needed.
    pub fn with_store<T>(
        &self,
        state_dir: &Path,
        use_it: impl FnOnce(&ContentStore) -> T,
    ) -> Result<T, StoreError> {
        let cached = lock(&self.stores).get(state_dir).cloned();
        let entry = match cached {
            Some(entry) => entry,
            None => {
                let entry = Arc::new(Mutex::new(OpenStore::open(state_dir, self.max_bytes)?));
                let mut stores = lock(&self.stores);
                if stores.len() >= MAX_CACHED {
                    stores.clear();
                }
                stores.insert(state_dir.to_path_buf(), Arc::clone(&entry));
                entry
            }
        };
        let mut open = lock(&entry);
        if open.identity.is_none() || identity(state_dir) != open.identity {
            *open = OpenStore::open(state_dir, self.max_bytes)?;
        }
        Ok(use_it(&open.store))
    }

    /// The git root of the repository holding `dir`
    /// ([`crate::project::discover_root`]), remembered for a while.
    pub fn root_of(&self, dir: &Path) -> Option<PathBuf> {
        if let Some((root, at)) = lock(&self.roots).get(dir)
            && at.elapsed() < ROOT_TTL
        {
            return root.clone();
        }
        let root = crate::project::discover_root(dir);
        let mut roots = lock(&self.roots);
        if roots.len() >= MAX_CACHED {
            roots.clear();
        }
        roots.insert(dir.to_path_buf(), (root.clone(), Instant::now()));
        root
    }
}

/// Why the content store of a state directory could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The state directory could not be made ready.
    #[error(transparent)]
    Prepare(#[from] Box<crate::Error>),
    /// The store inside it could not be opened.
    #[error(transparent)]
    Open(#[from] crate::ledger::content_store::ContentError),
}

/// Opens the content store in `state_dir`, preparing the directory as a
/// ledger's is ([`crate::state_dir::prepare`]).
pub fn open_store(state_dir: &Path) -> Result<ContentStore, StoreError> {
    crate::state_dir::prepare(state_dir).map_err(Box::new)?;
    Ok(ContentStore::open(state_dir)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, ContentStore) {
        let dir = tempfile::tempdir().unwrap();
        let store = ContentStore::open(dir.path()).unwrap();
        (dir, store)
    }

    fn kept(store: &ContentStore, content: &ContentRef) -> Vec<u8> {
        let ContentRef::Kept { hash, .. } = content else {
            panic!("not kept: {content:?}");
        };
        let hash = crate::ledger::content_store::ContentHash::parse(hash).unwrap();
        store.get(&hash).unwrap()
    }

    #[test]
    fn reads_a_file_an_absence_a_link_and_a_file_over_the_limit() {
        let (dir, store) = store();
        let file = dir.path().join("a.rs");
        std::fs::write(&file, b"fn main() {}\n").unwrap();
        let content = read_into(&store, &file);
        assert_eq!(kept(&store, &content), b"fn main() {}\n");
        assert_eq!(
            read_into(&store, &dir.path().join("missing.rs")),
            ContentRef::Absent
        );

        let link = dir.path().join("link.rs");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let ContentRef::Unknown { why } = read_into(&store, &link) else {
            panic!("a link was read");
        };
        assert!(why.contains("symbolic link"), "{why}");

        let small = store.with_limit(4);
        assert_eq!(read_into(&small, &file), ContentRef::TooLarge { size: 13 });
        assert!(matches!(
            read_into(&small, dir.path()),
            ContentRef::Unknown { .. }
        ));
    }

    #[test]
    fn pairs_before_and_after_by_call_and_path_and_says_what_was_not_read() {
        let mut tracker = ContentTracker::new();
        let a = Path::new("/r/a.rs");
        tracker.before("t1", a, ContentRef::Absent);
        tracker.after("t1", a, ContentRef::TooLarge { size: 9 });
        assert_eq!(
            tracker.take("t1", a),
            (ContentRef::Absent, ContentRef::TooLarge { size: 9 })
        );
        assert_eq!(tracker.pending_len(), 0);

        // An after alone: the before is unknown, saying why.
        tracker.after("t2", a, ContentRef::Absent);
        let (before, after) = tracker.take("t2", a);
        assert_eq!(before, ContentRef::unknown(NO_BEFORE));
        assert_eq!(after, ContentRef::Absent);

        // A before of another path is not this file's.
        tracker.before("t3", Path::new("/r/b.rs"), ContentRef::Absent);
        tracker.after("t3", a, ContentRef::Absent);
        assert_eq!(tracker.take("t3", a).0, ContentRef::unknown(NO_BEFORE));

        // Nothing read at all.
        assert_eq!(
            tracker.take("t4", a),
            (
                ContentRef::unknown(NO_BEFORE),
                ContentRef::unknown(NO_AFTER)
            )
        );
    }

    #[test]
    fn a_cached_store_is_reopened_when_its_directory_is_replaced() {
        let repo = tempfile::tempdir().unwrap();
        let state = repo.path().join(".hookd");
        let cache = StoreCache::default();
        let file = repo.path().join("a.rs");
        std::fs::write(&file, "one\n").unwrap();
        let first = cache
            .with_store(&state, |store| read_into(store, &file))
            .unwrap();
        // `git clean -fdx`: the whole state directory goes.
        std::fs::remove_dir_all(&state).unwrap();
        std::fs::write(&file, "two\n").unwrap();
        let second = cache
            .with_store(&state, |store| read_into(store, &file))
            .unwrap();
        // The new content is in the database on disk, not in a deleted one.
        let store = ContentStore::open(&state).unwrap();
        assert_eq!(kept(&store, &second), b"two\n");
        assert!(matches!(first, ContentRef::Kept { .. }));
    }

    #[test]
    fn a_file_of_the_event_repository_keeps_its_store_there() {
        let data = tempfile::tempdir().unwrap();
        let repo = tempfile::tempdir().unwrap();
        git2::Repository::init(repo.path()).unwrap();
        let root = repo.path().canonicalize().unwrap();
        let file = root.join("src/a.rs");
        assert_eq!(
            state_dir_for(&file, Some(&root), data.path()),
            root.join(".hookd")
        );
        // Found from the file when the event's repository is another.
        assert_eq!(
            state_dir_for(&file, Some(Path::new("/elsewhere")), data.path()),
            root.join(".hookd")
        );
        let outside = data.path().join("loose.txt");
        assert_eq!(
            state_dir_for(&outside, None, data.path()),
            dirs::unversioned_ledger_path(data.path()).parent().unwrap()
        );
    }
}
