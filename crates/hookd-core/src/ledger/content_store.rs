//! The content store: every file content a rewind may have to give back,
//! kept once per repository, private, compressed and checked on the way out.
//!
//! A rewind (giving back what the ledger recorded) needs each changed
//! file's content before and after the change.
//! Rows hold only a reference; the bytes live here, in
//! `<repo>/.hookd/content/contents.db`:
//! - **Content-addressed:** a content is keyed by the SHA-256 of its bytes,
//!   so the same content written by many changes (a file edited back and
//!   forth, the after of one change that is the before of the next) is
//!   stored once.
//! - **Compressed** with zstd (source text shrinks to a fifth or less).
//! - **Packed in one SQLite database**, not a file per content: most
//!   contents are a few kilobytes, and a file each cost a whole disk block
//!   (4 KiB for a 500-byte object: more than the ledger itself per change)
//!   and two fsyncs on the path the agent waits on. The database is in WAL
//!   mode with `synchronous = NORMAL`, as the ledger is: a commit survives
//!   the process dying; a power cut may lose the last ones (the rows
//!   referring to them then say the content is missing, never something
//!   else).
//! - **Private:** the directory is 0700 and the database 0600 (created so
//!   before SQLite opens it; its `-wal` and `-shm` take its mode), whatever
//!   the umask: a repository's history of file contents is as private as
//!   the ledger (`.hookd/` is ignored by git, [`crate::state_dir`]).
//! - **Never beyond a link a repository may ship:** the directory is opened
//!   without following symbolic links and must be owned by this user; the
//!   database and its side files must be regular files, never links, and
//!   are opened with `SQLITE_OPEN_NOFOLLOW`.
//! - **Checked on read:** a content is decompressed and hashed again; bytes
//!   that do not match their key (a damaged disk, a planted row) are an
//!   error, never restored.
//! - **Bounded:** content over the store's limit is not kept; the caller
//!   records the change as too large to restore and says so.

use std::io::Read as _;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, OptionalExtension as _};
use rustix::fs::{FileType, Mode, OFlags};
use rustix::io::Errno;
use sha2::{Digest as _, Sha256};

use crate::ledger::sqlite::{self, Synchronous};
use crate::state_dir::{self, UnsafePath};

/// The store's directory inside a repository's `.hookd/`.
pub const CONTENT_DIR: &str = "content";

/// Largest content kept by default (bigger files are recorded as too large
/// to restore): generous for source files, small enough that a generated
/// bundle or a dataset does not fill the disk once per change.
pub const DEFAULT_MAX_CONTENT_BYTES: u64 = 16 * 1024 * 1024;

/// The most `max_content_bytes` may be set to (1 GiB): a content is held
/// in memory whole while it is read, compressed and restored.
pub const MAX_CONTENT_BYTES_LIMIT: u64 = 1024 * 1024 * 1024;

/// zstd level: 3 is zstd's default, fast enough for the write path.
const ZSTD_LEVEL: i32 = 3;

/// The database's file name inside [`CONTENT_DIR`].
pub const DATABASE_NAME: &str = "contents.db";

/// The files SQLite keeps beside the database.
const SIDE_FILE_SUFFIXES: [&str; 3] = ["-wal", "-shm", "-journal"];

/// The database's one table: a content's key, its size and its bytes,
/// zstd-compressed.
const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS contents (
    hash TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    data BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS befores (
    tool_use_id TEXT PRIMARY KEY,
    path TEXT NOT NULL,
    content TEXT NOT NULL,
    at INTEGER NOT NULL
) WITHOUT ROWID;";

/// How long a remembered before waits for its call's `PostToolUse`
/// (as long as the daemon's own memory of it).
const BEFORE_TTL_SECS: i64 = 6 * 3600;

/// Why the store could not keep or give back a content.
#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    /// A file system call failed.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// Where.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The store's directory is not one hookd may write in.
    #[error(transparent)]
    Unsafe(#[from] UnsafePath),
    /// No object of that hash is stored.
    #[error("content {hash} is not in the store at {dir}")]
    Missing {
        /// The content asked for.
        hash: ContentHash,
        /// The store.
        dir: PathBuf,
    },
    /// The object's bytes do not match its name.
    #[error("content {hash} in {dir} is damaged: {why}")]
    Damaged {
        /// The content asked for.
        hash: ContentHash,
        /// The store.
        dir: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The database could not be opened, read or written.
    #[error("content store {path}")]
    Sqlite {
        /// The database.
        path: PathBuf,
        /// SQLite's error.
        #[source]
        source: rusqlite::Error,
    },
    /// Text that is not a content hash (64 lowercase hex digits).
    #[error("{0:?} is not a content hash (64 lowercase hex digits)")]
    BadHash(String),
}

/// The store's results.
pub type Result<T> = std::result::Result<T, ContentError>;

/// The SHA-256 of a content, as 64 lowercase hex digits: its key in the
/// store.
///
/// Only ever built from bytes or from text that passed [`Self::parse`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContentHash(String);

impl ContentHash {
    /// The hash of `content`.
    pub fn of(content: &[u8]) -> Self {
        Self(hex(&Sha256::digest(content)))
    }

    /// A hash read back (from a ledger row, a command line).
    pub fn parse(text: &str) -> Result<Self> {
        if text.len() == 64
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            Ok(Self(text.to_owned()))
        } else {
            Err(ContentError::BadHash(text.to_owned()))
        }
    }

    /// The 64 hex digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ContentHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What [`ContentStore::put`] did with a content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stored {
    /// Kept (or already there): its hash and its size in bytes.
    Kept {
        /// The object's name.
        hash: ContentHash,
        /// The content's size, uncompressed.
        size: u64,
    },
    /// Over the store's limit: not kept.
    TooLarge {
        /// The content's size.
        size: u64,
        /// The store's limit.
        limit: u64,
    },
}

/// One repository's content store, `<repo>/.hookd/content/contents.db`.
///
/// One connection: use it from one thread at a time (it is `Send`), and
/// open one per thread that needs one.
#[derive(Debug)]
pub struct ContentStore {
    dir: PathBuf,
    path: PathBuf,
    conn: Connection,
    max_bytes: u64,
}

impl ContentStore {
    /// Opens the store inside `state_dir` (a repository's `.hookd/`, which
    /// must exist and be safe, [`state_dir::check_state_dir`]), creating its
    /// directory 0700 and its database 0600 if needed; keeps content up to
    /// [`DEFAULT_MAX_CONTENT_BYTES`].
    pub fn open(state_dir: &Path) -> Result<Self> {
        state_dir::check_state_dir(state_dir)?;
        let parent = open_dir(rustix::fs::CWD, state_dir, state_dir)?;
        let dir = state_dir.join(CONTENT_DIR);
        let dir_fd = open_or_make_dir(&parent, CONTENT_DIR, &dir)?;
        let path = dir.join(DATABASE_NAME);
        // The database and its side files are hookd's own: never a link,
        // a directory or a FIFO someone put there.
        for suffix in SIDE_FILE_SUFFIXES {
            state_dir::check_file(&dir.join(format!("{DATABASE_NAME}{suffix}")))?;
        }
        create_private(&dir_fd, DATABASE_NAME, &path)?;
        let sqlite_error = |source| ContentError::Sqlite {
            path: path.clone(),
            source,
        };
        let conn = sqlite::retry_transient(
            &path,
            || {
                let conn = sqlite::open_wal(
                    &path,
                    OpenFlags::SQLITE_OPEN_READ_WRITE
                        | OpenFlags::SQLITE_OPEN_NOFOLLOW
                        | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                    Synchronous::Normal,
                )?;
                conn.execute_batch(SCHEMA)?;
                Ok(conn)
            },
            sqlite::is_busy,
        )
        .map_err(sqlite_error)?;
        Ok(Self {
            dir,
            path,
            conn,
            max_bytes: DEFAULT_MAX_CONTENT_BYTES,
        })
    }

    /// The same store keeping content up to `max_bytes`.
    #[must_use]
    pub fn with_limit(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// The largest content it keeps, in bytes.
    pub fn limit(&self) -> u64 {
        self.max_bytes
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Keeps `content` (once: a content already stored is not written
    /// again), or says it is over the limit.
    pub fn put(&self, content: &[u8]) -> Result<Stored> {
        let size = content.len() as u64;
        if size > self.max_bytes {
            return Ok(Stored::TooLarge {
                size,
                limit: self.max_bytes,
            });
        }
        let hash = ContentHash::of(content);
        if self.contains(&hash)? {
            return Ok(Stored::Kept { hash, size });
        }
        let compressed = zstd::bulk::compress(content, ZSTD_LEVEL)
            .map_err(|source| self.io("compress content for", source))?;
        self.conn
            .prepare_cached("INSERT OR IGNORE INTO contents (hash, size, data) VALUES (?1, ?2, ?3)")
            .and_then(|mut insert| {
                insert.execute(rusqlite::params![hash.as_str(), size as i64, compressed])
            })
            .map_err(|source| self.sqlite(source))?;
        Ok(Stored::Kept { hash, size })
    }

    /// Puts every content committed so far on disk, by whichever
    /// connection: the write-ahead log (which SQLite does not flush at each
    /// commit with `synchronous = NORMAL`) is flushed. A ledger calls it
    /// before it commits rows that refer to contents
    /// ([`crate::ledger::payload`]), so a power cut never leaves a row
    /// whose content was lost.
    pub fn sync(&self) -> Result<()> {
        let wal = self.dir.join(format!("{DATABASE_NAME}-wal"));
        let file = match rustix::fs::open(
            &wal,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
            Mode::empty(),
        ) {
            Ok(file) => file,
            // No log: every commit is in the database file, which a
            // checkpoint flushed.
            Err(Errno::NOENT) => return Ok(()),
            Err(errno) => return Err(io_error("open the write-ahead log of", &wal)(errno)),
        };
        if rustix::fs::fstat(&file).map_or(true, |stat| {
            FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile
        }) {
            return Err(UnsafePath::NotAFile { path: wal }.into());
        }
        rustix::fs::fdatasync(&file).map_err(io_error("flush the write-ahead log of", &wal))
    }

    /// Remembers, beside the contents, what `path` held before the call
    /// `tool_use_id` ran (`before`: a file tool's [`ContentRef`](crate::record::ContentRef), a Bash
    /// command's pre snapshot of its repository, as text). The daemon keeps
    /// it in memory too, but a daemon that stops or dies between a call's
    /// `PreToolUse` and its `PostToolUse` would otherwise record the change
    /// as not restorable.
    pub fn remember_before(&self, tool_use_id: &str, path: &Path, before: &str) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT OR REPLACE INTO befores (tool_use_id, path, content, at) \
                 VALUES (?1, ?2, ?3, unixepoch())",
            )
            .and_then(|mut insert| {
                insert.execute(rusqlite::params![
                    tool_use_id,
                    path.to_string_lossy(),
                    before
                ])
            })
            .map_err(|source| self.sqlite(source))?;
        Ok(())
    }

    /// The before remembered for the call `tool_use_id` of `path`, if any,
    /// forgotten as it is read (with any older than six hours).
    pub fn recall_before(&self, tool_use_id: &str, path: &Path) -> Result<Option<String>> {
        // One statement, one write: this call's row and the expired ones.
        let deleted: Vec<(String, String, String)> = self
            .conn
            .prepare_cached(
                "DELETE FROM befores WHERE tool_use_id = ?1 OR at < unixepoch() - ?2 \
                 RETURNING tool_use_id, path, content",
            )
            .and_then(|mut delete| {
                delete
                    .query_map(rusqlite::params![tool_use_id, BEFORE_TTL_SECS], |row| {
                        Ok((row.get(0)?, row.get(1)?, row.get(2)?))
                    })?
                    .collect()
            })
            .map_err(|source| self.sqlite(source))?;
        Ok(deleted
            .into_iter()
            .find(|(id, stored, _)| id == tool_use_id && Path::new(stored) == path)
            .map(|(_, _, before)| before))
    }

    /// Whether the content `hash` is stored (not whether it is intact).
    pub fn contains(&self, hash: &ContentHash) -> Result<bool> {
        self.conn
            .prepare_cached("SELECT 1 FROM contents WHERE hash = ?1")
            .and_then(|mut select| select.exists([hash.as_str()]))
            .map_err(|source| self.sqlite(source))
    }

    /// The content named `hash`, checked against its name.
    pub fn get(&self, hash: &ContentHash) -> Result<Vec<u8>> {
        let row: Option<(i64, Vec<u8>)> = self
            .conn
            .prepare_cached("SELECT size, data FROM contents WHERE hash = ?1")
            .and_then(|mut select| {
                select
                    .query_row([hash.as_str()], |row| Ok((row.get(0)?, row.get(1)?)))
                    .optional()
            })
            .map_err(|source| self.sqlite(source))?;
        let Some((size, data)) = row else {
            return Err(ContentError::Missing {
                hash: hash.clone(),
                dir: self.dir.clone(),
            });
        };
        let damaged = |why: String| ContentError::Damaged {
            hash: hash.clone(),
            dir: self.dir.clone(),
            why,
        };
        let mut decoder = zstd::stream::read::Decoder::new(data.as_slice())
            .map_err(|err| damaged(format!("cannot decompress: {err}")))?;
        // Read one byte past the size it was stored with (a store set to a
        // bigger limit may have kept it): a content that inflates beyond
        // that was not written by the store.
        let size = u64::try_from(size)
            .ok()
            .filter(|&size| size <= MAX_CONTENT_BYTES_LIMIT)
            .ok_or_else(|| damaged(format!("its recorded size {size} is not one it keeps")))?;
        let mut content = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        (&mut decoder)
            .take(size + 1)
            .read_to_end(&mut content)
            .map_err(|err| damaged(format!("cannot decompress: {err}")))?;
        if ContentHash::of(&content) != *hash || content.len() as u64 != size {
            return Err(damaged("its bytes do not match its name".to_owned()));
        }
        Ok(content)
    }

    fn io(&self, action: &'static str, source: std::io::Error) -> ContentError {
        ContentError::Io {
            action,
            path: self.dir.clone(),
            source,
        }
    }

    fn sqlite(&self, source: rusqlite::Error) -> ContentError {
        ContentError::Sqlite {
            path: self.path.clone(),
            source,
        }
    }
}

/// The error of a failed call on `path`, for `map_err`.
fn io_error<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(Errno) -> ContentError + 'a {
    move |errno| ContentError::Io {
        action,
        path: path.to_path_buf(),
        source: errno.into(),
    }
}

/// Lowercase hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut out, b| {
            let _ = write!(out, "{b:02x}");
            out
        })
}

/// Opens the directory `name` under `parent` without following a link,
/// and checks that this user owns it.
fn open_dir<Fd: AsFd>(parent: Fd, name: impl rustix::path::Arg, path: &Path) -> Result<OwnedFd> {
    let fd = rustix::fs::openat(
        parent,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|errno| match errno {
        // O_NOFOLLOW on a link, or a file where a directory should be.
        Errno::LOOP | Errno::NOTDIR => match state_dir::check_state_dir(path) {
            Err(unsafe_path) => ContentError::Unsafe(unsafe_path),
            Ok(()) => io_error("open", path)(errno),
        },
        _ => io_error("open", path)(errno),
    })?;
    let stat = rustix::fs::fstat(&fd).map_err(io_error("inspect", path))?;
    let uid = rustix::process::geteuid().as_raw();
    if stat.st_uid != uid {
        return Err(UnsafePath::ForeignOwner {
            path: path.to_path_buf(),
            owner: stat.st_uid,
            uid,
        }
        .into());
    }
    Ok(fd)
}

/// [`open_dir`], creating the directory 0700 first when it is missing.
fn open_or_make_dir(parent: &OwnedFd, name: &str, path: &Path) -> Result<OwnedFd> {
    match rustix::fs::mkdirat(parent, name, Mode::RWXU) {
        Ok(()) | Err(Errno::EXIST) => {}
        Err(errno) => {
            return Err(io_error("create directory", path)(errno));
        }
    }
    let fd = open_dir(parent, name, path)?;
    // mkdirat honours the umask, which may only take bits away; a directory
    // made by an older tool may have more.
    rustix::fs::fchmod(&fd, Mode::RWXU).map_err(io_error("set the mode of", path))?;
    Ok(fd)
}

/// Creates `name` under `dir` as an empty 0600 file if it is missing
/// (never opening a link), and makes an existing one 0600: SQLite creates
/// its database with the umask's mode, and its side files take the
/// database's.
fn create_private(dir: &OwnedFd, name: &str, path: &Path) -> Result<()> {
    let fd = rustix::fs::openat(
        dir,
        name,
        OFlags::RDONLY | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
        Mode::RUSR | Mode::WUSR,
    )
    .map_err(|errno| match (errno, state_dir::check_file(path)) {
        (Errno::LOOP, Err(unsafe_path)) => unsafe_path.into(),
        _ => io_error("create", path)(errno),
    })?;
    let stat = rustix::fs::fstat(&fd).map_err(io_error("inspect", path))?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return Err(UnsafePath::NotAFile {
            path: path.to_path_buf(),
        }
        .into());
    }
    rustix::fs::fchmod(&fd, Mode::RUSR | Mode::WUSR).map_err(io_error("set the mode of", path))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;

    use super::*;

    fn store() -> (tempfile::TempDir, ContentStore) {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join(".hookd");
        std::fs::create_dir(&state).unwrap();
        let store = ContentStore::open(&state).unwrap();
        (dir, store)
    }

    fn kept(stored: Stored) -> ContentHash {
        match stored {
            Stored::Kept { hash, .. } => hash,
            other => panic!("expected the content kept, got {other:?}"),
        }
    }

    /// The rows as stored: key and compressed length.
    fn rows(store: &ContentStore) -> Vec<(String, i64)> {
        let conn = Connection::open(store.dir().join(DATABASE_NAME)).unwrap();
        let mut select = conn
            .prepare("SELECT hash, length(data) FROM contents ORDER BY hash")
            .unwrap();
        select
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    }

    fn mode(path: &Path) -> u32 {
        std::fs::symlink_metadata(path)
            .unwrap()
            .permissions()
            .mode()
            & 0o7777
    }

    #[test]
    fn a_remembered_before_is_recalled_once_for_its_own_path_and_old_ones_are_forgotten() {
        let (_dir, store) = store();
        let a = Path::new("/r/a.rs");
        store.remember_before("t1", a, "one").unwrap();
        store.remember_before("t2", a, "two").unwrap();
        store.remember_before("t3", a, "three").unwrap();
        assert_eq!(
            store.recall_before("t1", a).unwrap().as_deref(),
            Some("one")
        );
        assert_eq!(
            store.recall_before("t1", a).unwrap(),
            None,
            "forgotten once read"
        );
        // Another file under the same call id (reused): not its before.
        assert_eq!(
            store.recall_before("t2", Path::new("/r/b.rs")).unwrap(),
            None
        );
        // One older than six hours is forgotten by the next recall.
        store
            .conn
            .execute(
                "UPDATE befores SET at = at - 7 * 3600 WHERE tool_use_id = 't3'",
                [],
            )
            .unwrap();
        assert_eq!(store.recall_before("t-none", a).unwrap(), None);
        assert_eq!(store.recall_before("t3", a).unwrap(), None);
    }

    #[test]
    fn keeps_each_content_once_compressed_private_and_gives_it_back() {
        // A permissive umask must not make the store readable by others.
        let old = rustix::process::umask(Mode::empty());
        let (_dir, store) = store();
        rustix::process::umask(old);
        let content = "fn main() {}\n".repeat(1000);
        let stored = store.put(content.as_bytes()).unwrap();
        let hash = kept(stored.clone());
        assert_eq!(hash, ContentHash::of(content.as_bytes()));
        assert_eq!(
            stored,
            Stored::Kept {
                hash: hash.clone(),
                size: content.len() as u64
            }
        );
        assert_eq!(store.get(&hash).unwrap(), content.as_bytes());
        assert!(store.contains(&hash).unwrap());

        let [(key, compressed)] = rows(&store).try_into().unwrap();
        assert_eq!(key, hash.as_str());
        assert!(compressed < content.len() as i64 / 10, "{compressed} bytes");
        assert_eq!(mode(store.dir()), 0o700);
        for name in [DATABASE_NAME, "contents.db-wal", "contents.db-shm"] {
            assert_eq!(mode(&store.dir().join(name)), 0o600, "{name}");
        }

        // The same content again: not stored again.
        assert_eq!(kept(store.put(content.as_bytes()).unwrap()), hash);
        assert_eq!(rows(&store).len(), 1);

        // The empty file is a content like any other.
        let empty = kept(store.put(b"").unwrap());
        assert_eq!(store.get(&empty).unwrap(), b"");
        assert_eq!(rows(&store).len(), 2);

        // A second connection (another thread, another process) sees them.
        let again = ContentStore::open(store.dir().parent().unwrap()).unwrap();
        assert_eq!(again.get(&hash).unwrap(), content.as_bytes());
    }

    #[test]
    fn content_over_the_limit_is_not_kept() {
        let (_dir, store) = store();
        let store = store.with_limit(10);
        assert_eq!(
            store.put(&[b'x'; 11]).unwrap(),
            Stored::TooLarge {
                size: 11,
                limit: 10
            }
        );
        assert!(rows(&store).is_empty());
        assert!(matches!(
            store.put(&[b'x'; 10]).unwrap(),
            Stored::Kept { size: 10, .. }
        ));
    }

    #[test]
    fn a_damaged_or_missing_content_is_an_error_never_content() {
        let (_dir, store) = store();
        let hash = kept(store.put(b"the real content\n").unwrap());
        let conn = Connection::open(store.dir().join(DATABASE_NAME)).unwrap();
        let plant = |data: &[u8], size: i64| {
            conn.execute(
                "UPDATE contents SET data = ?1, size = ?2 WHERE hash = ?3",
                rusqlite::params![data, size, hash.as_str()],
            )
            .unwrap();
        };
        // Valid zstd of other bytes under this key.
        plant(&zstd::bulk::compress(b"planted\n", 3).unwrap(), 8);
        let err = store.get(&hash).unwrap_err();
        assert!(matches!(err, ContentError::Damaged { .. }), "{err}");
        assert!(err.to_string().contains("do not match its name"), "{err}");
        plant(b"not zstd at all", 17);
        assert!(matches!(
            store.get(&hash).unwrap_err(),
            ContentError::Damaged { .. }
        ));

        let other = ContentHash::of(b"never stored");
        assert!(matches!(
            store.get(&other).unwrap_err(),
            ContentError::Missing { .. }
        ));
        assert!(!store.contains(&other).unwrap());
    }

    #[test]
    fn never_writes_through_a_link_a_repository_may_ship() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();

        // `.hookd/content` is a link: refused, nothing created behind it.
        let state = dir.path().join(".hookd");
        std::fs::create_dir(&state).unwrap();
        std::os::unix::fs::symlink(&elsewhere, state.join(CONTENT_DIR)).unwrap();
        let err = ContentStore::open(&state).unwrap_err();
        assert!(
            matches!(err, ContentError::Unsafe(UnsafePath::Symlink { .. })),
            "{err}"
        );
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
        std::fs::remove_file(state.join(CONTENT_DIR)).unwrap();

        // The database, or one of its side files, is a link: refused, the
        // file it points to untouched.
        std::fs::create_dir(state.join(CONTENT_DIR)).unwrap();
        let target = elsewhere.join("authorized_keys");
        std::fs::write(&target, b"keep me\n").unwrap();
        for name in [DATABASE_NAME, "contents.db-wal"] {
            let link = state.join(CONTENT_DIR).join(name);
            std::os::unix::fs::symlink(&target, &link).unwrap();
            let err = ContentStore::open(&state).unwrap_err();
            assert!(
                matches!(err, ContentError::Unsafe(UnsafePath::Symlink { .. })),
                "{name}: {err}"
            );
            std::fs::remove_file(&link).unwrap();
        }
        assert_eq!(std::fs::read(&target).unwrap(), b"keep me\n");

        // A `.hookd` that is itself a link is refused before anything.
        let linked = dir.path().join("linked");
        std::os::unix::fs::symlink(&elsewhere, &linked).unwrap();
        assert!(matches!(
            ContentStore::open(&linked).unwrap_err(),
            ContentError::Unsafe(UnsafePath::Symlink { .. })
        ));
    }

    #[test]
    fn only_a_real_hash_names_a_content() {
        let hash = ContentHash::of(b"x");
        assert_eq!(ContentHash::parse(hash.as_str()).unwrap(), hash);
        for bad in [
            "",
            "../../etc/passwd",
            &hash.as_str().to_uppercase(),
            &hash.as_str()[1..],
            &format!("{hash}0"),
        ] {
            assert!(
                matches!(ContentHash::parse(bad), Err(ContentError::BadHash(_))),
                "{bad}"
            );
        }
    }
}
