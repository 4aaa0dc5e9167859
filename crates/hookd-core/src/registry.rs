//! The registry of known repositories: every git root that got an event, and
//! folders added by hand, so "all projects" queries know where to look.
//!
//! It is a small SQLite file in the user's data directory (not a JSON file)
//! so the daemon, the CLI and the desktop app can all write it concurrently.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, params};

use crate::{Error, Result, dirs, timefmt};

/// How a repository entered the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The daemon received an event from it.
    Event,
    /// A user added it (CLI or app).
    Manual,
}

impl Origin {
    fn as_str(self) -> &'static str {
        match self {
            Self::Event => "event",
            Self::Manual => "manual",
        }
    }
}

/// One registered repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownRepo {
    /// The repository's work-tree root.
    pub root: PathBuf,
    /// When it was first registered.
    pub first_seen: String,
    /// `event` or `manual`.
    pub origin: String,
}

/// The open registry.
pub struct Registry {
    conn: Connection,
    path: PathBuf,
}

impl Registry {
    /// Opens (creating if needed) the registry in hookd's data directory.
    pub fn open(data_dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(data_dir)
            .map_err(|e| Error::io("cannot create directory", data_dir, e))?;
        let path = dirs::registry_path(data_dir);
        let conn = Connection::open(&path).map_err(|e| Error::sqlite(&path, e))?;
        let sqlite = |e| Error::sqlite(&path, e);
        conn.busy_timeout(Duration::from_secs(10)).map_err(sqlite)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(sqlite)?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS repos (
                root TEXT PRIMARY KEY,
                first_seen TEXT NOT NULL,
                origin TEXT NOT NULL
            )",
        )
        .map_err(sqlite)?;
        Ok(Self { conn, path })
    }

    /// Registers `root`; already known roots keep their first entry.
    pub fn add(&self, root: &Path, origin: Origin) -> Result<()> {
        self.conn
            .execute(
                "INSERT OR IGNORE INTO repos (root, first_seen, origin) VALUES (?1, ?2, ?3)",
                params![root.to_string_lossy(), timefmt::now(), origin.as_str()],
            )
            .map_err(|e| Error::sqlite(&self.path, e))?;
        Ok(())
    }

    /// Every registered repository, ordered by root.
    pub fn list(&self) -> Result<Vec<KnownRepo>> {
        let sqlite = |e| Error::sqlite(&self.path, e);
        let mut stmt = self
            .conn
            .prepare("SELECT root, first_seen, origin FROM repos ORDER BY root")
            .map_err(sqlite)?;
        let rows = stmt
            .query_map([], |row| {
                Ok(KnownRepo {
                    root: PathBuf::from(row.get::<_, String>(0)?),
                    first_seen: row.get(1)?,
                    origin: row.get(2)?,
                })
            })
            .map_err(sqlite)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(sqlite)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_are_registered_once_and_listed() {
        let dir = tempfile::tempdir().unwrap();
        let registry = Registry::open(dir.path()).unwrap();
        registry.add(Path::new("/b"), Origin::Event).unwrap();
        registry.add(Path::new("/a"), Origin::Manual).unwrap();
        registry.add(Path::new("/b"), Origin::Manual).unwrap();
        let listed = Registry::open(dir.path()).unwrap().list().unwrap();
        let roots: Vec<_> = listed
            .iter()
            .map(|r| (r.root.clone(), r.origin.clone()))
            .collect();
        assert_eq!(
            roots,
            [
                (PathBuf::from("/a"), "manual".to_owned()),
                (PathBuf::from("/b"), "event".to_owned())
            ]
        );
    }
}
