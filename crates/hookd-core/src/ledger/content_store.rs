//! The content store: every file content a rewind may have to give back,
//! kept once per repository, private, compressed and checked on the way out.
//!
//! A rewind (giving back what the ledger recorded) needs each changed
//! file's content before and after the change.
//! Rows hold only a reference; the bytes live here, in
//! `<repo>/.hookd/content/`:
//! - **Content-addressed:** an object is named by the SHA-256 of the bytes
//!   it holds (`content/ab/cdef….zst`), so the same content written by many
//!   changes (a file edited back and forth, the after of one change that is
//!   the before of the next) is stored once.
//! - **Compressed** with zstd (source text shrinks to a fifth or less).
//! - **Private:** the directory is 0700 and every object 0600, whatever the
//!   umask: a repository's history of file contents is as private as the
//!   ledger (`.hookd/` is ignored by git, [`crate::state_dir`]).
//! - **Never beyond a link a repository may ship:** the directories are
//!   opened without following symbolic links and must be owned by this
//!   user; objects are created with `O_EXCL | O_NOFOLLOW` under a temporary
//!   name and renamed into place without replacing anything, so a file or
//!   link planted at an object's name is never written through, and a
//!   crash leaves at most a temporary file, never a half-written object.
//! - **Checked on read:** an object is decompressed and hashed again; bytes
//!   that do not match their name (a damaged disk, a planted file) are an
//!   error, never restored.
//! - **Bounded:** content over the store's limit is not kept; the caller
//!   records the change as too large to restore and says so.

use std::io::{Read as _, Write as _};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{AtFlags, Mode, OFlags, RenameFlags};
use rustix::io::Errno;
use sha2::{Digest as _, Sha256};

use crate::state_dir::{self, UnsafePath};

/// The store's directory inside a repository's `.hookd/`.
pub const CONTENT_DIR: &str = "content";

/// Largest content kept by default (bigger files are recorded as too large
/// to restore): generous for source files, small enough that a generated
/// bundle or a dataset does not fill the disk once per change.
pub const DEFAULT_MAX_CONTENT_BYTES: u64 = 16 * 1024 * 1024;

/// zstd level: 3 is zstd's default, fast enough for the write path.
const ZSTD_LEVEL: i32 = 3;

/// Suffix of an object's file name.
const OBJECT_SUFFIX: &str = ".zst";

/// Prefix of a temporary file, renamed into place once written.
const TEMP_PREFIX: &str = ".tmp-";

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
    /// Text that is not a content hash (64 lowercase hex digits).
    #[error("{0:?} is not a content hash (64 lowercase hex digits)")]
    BadHash(String),
}

/// The store's results.
pub type Result<T> = std::result::Result<T, ContentError>;

/// The SHA-256 of a content, as 64 lowercase hex digits: an object's name.
///
/// Only ever built from bytes or from text that passed [`Self::parse`], so
/// it can name a file without escaping the store.
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

    /// The fan-out directory and the file name of its object.
    fn object_name(&self) -> (&str, String) {
        (&self.0[..2], format!("{}{OBJECT_SUFFIX}", &self.0[2..]))
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

/// One repository's content store, `<repo>/.hookd/content/`.
#[derive(Debug)]
pub struct ContentStore {
    dir: PathBuf,
    fd: OwnedFd,
    max_bytes: u64,
}

/// Makes temporary names unique within the process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

impl ContentStore {
    /// Opens the store inside `state_dir` (a repository's `.hookd/`, which
    /// must exist and be safe, [`state_dir::check_state_dir`]), creating its
    /// directory 0700 if needed; keeps content up to
    /// [`DEFAULT_MAX_CONTENT_BYTES`].
    pub fn open(state_dir: &Path) -> Result<Self> {
        state_dir::check_state_dir(state_dir)?;
        let parent = open_dir(rustix::fs::CWD, state_dir, state_dir)?;
        let dir = state_dir.join(CONTENT_DIR);
        let fd = open_or_make_dir(&parent, CONTENT_DIR, &dir)?;
        Ok(Self {
            dir,
            fd,
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
        let (fan, name) = hash.object_name();
        let fan_path = self.dir.join(fan);
        let fan_fd = open_or_make_dir(&self.fd, fan, &fan_path)?;
        if exists(&fan_fd, &name, &fan_path.join(&name))? {
            return Ok(Stored::Kept { hash, size });
        }
        let compressed = zstd::bulk::compress(content, ZSTD_LEVEL)
            .map_err(|source| self.io("compress content for", source))?;
        let (temp, file) = create_temp(&fan_fd, &fan_path)?;
        let written = write_all_synced(file, &compressed).map_err(|source| ContentError::Io {
            action: "write",
            path: fan_path.join(&temp),
            source,
        });
        let renamed = written.and_then(|()| {
            match rustix::fs::renameat_with(&fan_fd, &temp, &fan_fd, &name, RenameFlags::NOREPLACE)
            {
                // Another writer stored the same content first: same bytes.
                Ok(()) | Err(Errno::EXIST) => Ok(()),
                Err(errno) => Err(io_error("rename into place", &fan_path.join(&name))(errno)),
            }
        });
        // Gone after a rename; after a failure, or a lost race, it goes.
        let _ = rustix::fs::unlinkat(&fan_fd, &temp, AtFlags::empty());
        renamed?;
        // The object's name is durable once its directory is.
        rustix::fs::fsync(&fan_fd).map_err(io_error("sync", &fan_path))?;
        Ok(Stored::Kept { hash, size })
    }

    /// Whether the object `hash` is stored (not whether it is intact).
    pub fn contains(&self, hash: &ContentHash) -> Result<bool> {
        let (fan, name) = hash.object_name();
        match self.open_fan(fan)? {
            Some(fan_fd) => exists(&fan_fd, &name, &self.dir.join(fan).join(&name)),
            None => Ok(false),
        }
    }

    /// The fan-out directory `fan` ([`open_dir`]), `None` when there is none.
    fn open_fan(&self, fan: &str) -> Result<Option<OwnedFd>> {
        match open_dir(&self.fd, fan, &self.dir.join(fan)) {
            Ok(fd) => Ok(Some(fd)),
            Err(ContentError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                Ok(None)
            }
            Err(err) => Err(err),
        }
    }

    /// The content named `hash`, checked against its name.
    pub fn get(&self, hash: &ContentHash) -> Result<Vec<u8>> {
        let (fan, name) = hash.object_name();
        let path = self.dir.join(fan).join(&name);
        let missing = || ContentError::Missing {
            hash: hash.clone(),
            dir: self.dir.clone(),
        };
        let fan_fd = self.open_fan(fan)?.ok_or_else(missing)?;
        let fd = match rustix::fs::openat(
            &fan_fd,
            name.as_str(),
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
            Mode::empty(),
        ) {
            Ok(fd) => fd,
            Err(Errno::NOENT) => return Err(missing()),
            Err(Errno::LOOP) => {
                return Err(ContentError::Damaged {
                    hash: hash.clone(),
                    dir: self.dir.clone(),
                    why: "a symbolic link where the object should be".to_owned(),
                });
            }
            Err(errno) => {
                return Err(ContentError::Io {
                    action: "open",
                    path,
                    source: errno.into(),
                });
            }
        };
        let damaged = |why: String| ContentError::Damaged {
            hash: hash.clone(),
            dir: self.dir.clone(),
            why,
        };
        let stat = rustix::fs::fstat(&fd).map_err(io_error("inspect", &path))?;
        if rustix::fs::FileType::from_raw_mode(stat.st_mode) != rustix::fs::FileType::RegularFile {
            return Err(damaged("not a regular file".to_owned()));
        }
        let mut decoder = zstd::stream::read::Decoder::new(std::fs::File::from(fd))
            .map_err(|source| self.io("read", source))?;
        // Read one byte past the limit: an object that inflates beyond what
        // the store keeps was not written by it.
        let mut content = Vec::new();
        (&mut decoder)
            .take(self.max_bytes.max(DEFAULT_MAX_CONTENT_BYTES) + 1)
            .read_to_end(&mut content)
            .map_err(|err| damaged(format!("cannot decompress: {err}")))?;
        if ContentHash::of(&content) != *hash {
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

/// Whether `name` exists under `dir` (a link or anything else counts: it
/// is never replaced).
fn exists(dir: &OwnedFd, name: &str, path: &Path) -> Result<bool> {
    match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(_) => Ok(true),
        Err(Errno::NOENT) => Ok(false),
        Err(errno) => Err(io_error("inspect", path)(errno)),
    }
}

/// Creates a new 0600 temporary file under `dir`, never opening one that
/// is there already.
fn create_temp(dir: &OwnedFd, dir_path: &Path) -> Result<(String, std::fs::File)> {
    loop {
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let name = format!("{TEMP_PREFIX}{}-{n}", std::process::id());
        match rustix::fs::openat(
            dir,
            name.as_str(),
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::RUSR | Mode::WUSR,
        ) {
            Ok(fd) => return Ok((name, std::fs::File::from(fd))),
            // A leftover of an earlier process with this pid.
            Err(Errno::EXIST) => {}
            Err(errno) => {
                return Err(io_error("create a file in", dir_path)(errno));
            }
        }
    }
}

fn write_all_synced(mut file: std::fs::File, bytes: &[u8]) -> std::io::Result<()> {
    file.write_all(bytes)?;
    file.sync_data()
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};

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

    fn objects(store: &ContentStore) -> Vec<PathBuf> {
        let mut found = Vec::new();
        for fan in std::fs::read_dir(store.dir()).unwrap() {
            for object in std::fs::read_dir(fan.unwrap().path()).unwrap() {
                found.push(object.unwrap().path());
            }
        }
        found
    }

    fn mode(path: &Path) -> u32 {
        std::fs::symlink_metadata(path)
            .unwrap()
            .permissions()
            .mode()
            & 0o7777
    }

    #[test]
    fn keeps_each_content_once_compressed_private_and_gives_it_back() {
        let (_dir, store) = store();
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

        let [object] = objects(&store).try_into().unwrap();
        assert!(object.ends_with(format!(
            "{}/{}.zst",
            &hash.as_str()[..2],
            &hash.as_str()[2..]
        )));
        assert!(std::fs::metadata(&object).unwrap().len() < content.len() as u64 / 10);
        assert_eq!(mode(store.dir()), 0o700);
        assert_eq!(mode(object.parent().unwrap()), 0o700);
        assert_eq!(mode(&object), 0o600);

        // The same content again: not written again.
        let inode = std::fs::metadata(&object).unwrap().ino();
        assert_eq!(kept(store.put(content.as_bytes()).unwrap()), hash);
        assert_eq!(objects(&store), vec![object.clone()]);
        assert_eq!(std::fs::metadata(&object).unwrap().ino(), inode);

        // The empty file is a content like any other.
        let empty = kept(store.put(b"").unwrap());
        assert_eq!(store.get(&empty).unwrap(), b"");
        assert_eq!(objects(&store).len(), 2);
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
        assert!(objects(&store).is_empty());
        assert!(matches!(
            store.put(&[b'x'; 10]).unwrap(),
            Stored::Kept { size: 10, .. }
        ));
    }

    #[test]
    fn a_damaged_or_missing_object_is_an_error_never_content() {
        let (_dir, store) = store();
        let hash = kept(store.put(b"the real content\n").unwrap());
        let [object] = objects(&store).try_into().unwrap();
        // Valid zstd of other bytes under this name.
        std::fs::write(&object, zstd::bulk::compress(b"planted\n", 3).unwrap()).unwrap();
        let err = store.get(&hash).unwrap_err();
        assert!(matches!(err, ContentError::Damaged { .. }), "{err}");
        assert!(err.to_string().contains("do not match its name"), "{err}");
        std::fs::write(&object, b"not zstd at all").unwrap();
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
        std::fs::remove_file(state.join(CONTENT_DIR)).unwrap();

        // A fan-out directory that is a link: refused.
        let store = ContentStore::open(&state).unwrap();
        let content = b"secret\n";
        let hash = ContentHash::of(content);
        let fan = store.dir().join(&hash.as_str()[..2]);
        std::os::unix::fs::symlink(&elsewhere, &fan).unwrap();
        let err = store.put(content).unwrap_err();
        assert!(
            matches!(err, ContentError::Unsafe(UnsafePath::Symlink { .. })),
            "{err}"
        );
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
        std::fs::remove_file(&fan).unwrap();

        // A link planted at the object's own name: never written through,
        // and never read as the content.
        std::fs::create_dir(&fan).unwrap();
        let target = elsewhere.join("authorized_keys");
        std::fs::write(&target, b"keep me\n").unwrap();
        let object = fan.join(format!("{}.zst", &hash.as_str()[2..]));
        std::os::unix::fs::symlink(&target, &object).unwrap();
        store.put(content).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"keep me\n");
        let err = store.get(&hash).unwrap_err();
        assert!(matches!(err, ContentError::Damaged { .. }), "{err}");
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(&fan).unwrap().count(), 1);

        // A `.hookd` that is itself a link is refused before anything.
        let linked = dir.path().join("linked");
        std::os::unix::fs::symlink(&elsewhere, &linked).unwrap();
        assert!(matches!(
            ContentStore::open(&linked).unwrap_err(),
            ContentError::Unsafe(UnsafePath::Symlink { .. })
        ));
    }

    #[test]
    fn only_a_real_hash_names_an_object() {
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
