//! The registry of known repositories: every git root that got an event, and
//! folders added by hand, so "all projects" queries know where to look.
//!
//! It is a small SQLite file in the user's data directory (not a JSON file)
//! so the daemon, the CLI and the desktop app can all write it concurrently.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, params};

use crate::ledger::sqlite::{self, Synchronous};
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
        let open = || -> rusqlite::Result<Connection> {
            let conn = sqlite::open_wal(&path, OpenFlags::default(), Synchronous::Normal)?;
            conn.execute_batch(
                "CREATE TABLE IF NOT EXISTS repos (
                    root TEXT PRIMARY KEY,
                    first_seen TEXT NOT NULL,
                    origin TEXT NOT NULL
                );
                CREATE TABLE IF NOT EXISTS agent_labels (
                    agent_id TEXT PRIMARY KEY,
                    label TEXT NOT NULL,
                    set_at TEXT NOT NULL
                );",
            )?;
            Ok(conn)
        };
        let conn = sqlite::retry_transient(&path, open, sqlite::is_busy)
            .map_err(|e| Error::sqlite(&path, e))?;
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

    /// Names agent `agent_id` `label` (the name shown for it everywhere);
    /// an empty label removes the name.
    pub fn set_agent_label(&self, agent_id: &str, label: &str) -> Result<()> {
        let label = label.trim();
        let result = if label.is_empty() {
            self.conn.execute(
                "DELETE FROM agent_labels WHERE agent_id = ?1",
                params![agent_id],
            )
        } else {
            self.conn.execute(
                "INSERT INTO agent_labels (agent_id, label, set_at) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (agent_id) DO UPDATE SET label = excluded.label, set_at = excluded.set_at",
                params![agent_id, label, timefmt::now()],
            )
        };
        result.map_err(|e| Error::sqlite(&self.path, e))?;
        Ok(())
    }

    /// The names users gave agents, by agent id.
    pub fn agent_labels(&self) -> Result<std::collections::HashMap<String, String>> {
        let sqlite = |e| Error::sqlite(&self.path, e);
        let mut stmt = self
            .conn
            .prepare("SELECT agent_id, label FROM agent_labels")
            .map_err(sqlite)?;
        let rows = stmt
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .map_err(sqlite)?;
        rows.collect::<rusqlite::Result<_>>().map_err(sqlite)
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

    #[test]
    fn processes_racing_to_create_the_registry_all_succeed() {
        for _ in 0..10 {
            let dir = tempfile::tempdir().unwrap();
            let barrier = std::sync::Arc::new(std::sync::Barrier::new(4));
            let openers: Vec<_> = (0..4)
                .map(|i| {
                    let (dir, barrier) =
                        (dir.path().to_path_buf(), std::sync::Arc::clone(&barrier));
                    std::thread::spawn(move || {
                        barrier.wait();
                        let registry = Registry::open(&dir)?;
                        registry.add(Path::new(&format!("/r{i}")), Origin::Event)
                    })
                })
                .collect();
            for opener in openers {
                opener.join().unwrap().unwrap();
            }
            assert_eq!(Registry::open(dir.path()).unwrap().list().unwrap().len(), 4);
        }
    }
}
