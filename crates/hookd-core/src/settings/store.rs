//! hookd's own small JSON stores in its home (the disabled hooks, the
//! approved hook files): each a versioned document, read leniently (missing
//! or blank is empty), refused when a newer hookd wrote it, and written
//! atomically so a crash leaves the old or the new version, never half.

use std::fs::{self, OpenOptions};
use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::fs_atomic;

use super::document::read_if_exists;
use super::error::{Result, SettingsError};
use super::format::{self, Format};

/// Reads the store at `path`: `None` when missing or blank. `what` names
/// it in errors ("store of disabled hooks"); `version_of` reads its format
/// version, refused above `supported`.
pub(crate) fn read<T: DeserializeOwned>(
    path: &Path,
    what: &str,
    version_of: impl Fn(&T) -> u32,
    supported: u32,
) -> Result<Option<T>> {
    let Some(bytes) = read_if_exists(path)? else {
        return Ok(None);
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let file: T = serde_json::from_slice(&bytes).map_err(|e| SettingsError::Store {
        path: path.to_path_buf(),
        message: format!("not hookd's {what}: {e}"),
    })?;
    let version = version_of(&file);
    if version > supported {
        return Err(SettingsError::Store {
            path: path.to_path_buf(),
            message: format!(
                "written by a newer hookd (format {version}; this one reads {supported})"
            ),
        });
    }
    Ok(Some(file))
}

/// Writes `file` as the store at `path` (pretty JSON, atomically, creating
/// the directory).
pub(crate) fn write<T: Serialize>(path: &Path, file: &T) -> Result<()> {
    let cannot = |e: &dyn std::fmt::Display| SettingsError::Store {
        path: path.to_path_buf(),
        message: format!("cannot serialise: {e}"),
    };
    let value = serde_json::to_value(file).map_err(|e| cannot(&e))?;
    let bytes = format::render(&value, &Format::default()).map_err(|e| cannot(&e))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)
            .map_err(|e| SettingsError::io("cannot create directory", dir, e))?;
    }
    fs_atomic::write_atomic(path, &bytes)?;
    Ok(())
}

/// Reads the store at `path` (missing or blank: `T::default()`), applies
/// `change` and writes the result, all under an exclusive `flock` on a lock
/// file beside it (`<store>.lock`), so two hookd processes updating the
/// store at once never lose one another's change. `change` returns whether
/// it changed anything; when it did not, nothing is written.
pub(crate) fn update_locked<T: Serialize + DeserializeOwned + Default>(
    path: &Path,
    what: &str,
    version_of: impl Fn(&T) -> u32,
    supported: u32,
    change: impl FnOnce(&mut T) -> bool,
) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| SettingsError::io("cannot create directory", dir, e))?;
    let lock_path = path.with_extension("lock");
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| SettingsError::io("cannot open lock file", &lock_path, e))?;
    rustix::fs::flock(&lock, rustix::fs::FlockOperation::LockExclusive)
        .map_err(|e| SettingsError::io("cannot lock", &lock_path, std::io::Error::from(e)))?;
    let mut file = read(path, what, version_of, supported)?.unwrap_or_default();
    if change(&mut file) {
        write(path, &file)?;
    }
    // The lock is released when `lock` is dropped.
    Ok(())
}
