//! Noticing commits made by another process. The daemon announces its own
//! commits on a broadcast channel ([`crate::record::CommitNotice`]); a reader
//! attached to a daemon it does not run (the desktop app when `hookd daemon`
//! owns the socket) has no such channel, so it polls the ledgers instead and
//! turns what appeared since the last poll into the same notices.
//!
//! Polling, not file watching: SQLite in WAL mode writes the `-wal` file,
//! whose change events say nothing about what was committed, and a poll of
//! `max(id)` on a handful of ledgers costs microseconds.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension as _};

use crate::dirs;
use crate::ledger::Ledger;
use crate::ledger::registry::Registry;
use crate::record::{CommitNotice, CommittedEvent};
use crate::{Error, Result};

/// Most events one poll reports per ledger; the rest come with the next poll.
const MAX_EVENTS_PER_POLL: i64 = 10_000;

/// Where a ledger's reading stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Seen {
    event_id: i64,
    mutation_id: i64,
    hook_run_id: i64,
}

/// Polls ledgers for rows committed by someone else.
#[derive(Debug, Default)]
pub struct LedgerWatch {
    seen: HashMap<PathBuf, Seen>,
    started: bool,
}

impl LedgerWatch {
    /// A watch that will report only what is committed after its first poll
    /// in ledgers that exist at that poll; ledgers that appear later are
    /// reported from their first row.
    pub fn new() -> Self {
        Self::default()
    }

    /// The ledgers of every repository in `data_dir`'s registry, plus the
    /// ledger of events outside git, that exist on disk.
    pub fn known_ledgers(data_dir: &Path) -> Result<Vec<PathBuf>> {
        let mut ledgers: Vec<PathBuf> = Registry::open(data_dir)?
            .list()?
            .into_iter()
            .map(|repo| dirs::repo_ledger_path(&repo.root))
            .collect();
        ledgers.push(dirs::unversioned_ledger_path(data_dir));
        ledgers.retain(|path| path.is_file());
        Ok(ledgers)
    }

    /// One notice per ledger that gained events since the last poll.
    /// A ledger that cannot be read is skipped with a warning and retried
    /// at the next poll.
    pub fn poll(&mut self, ledgers: &[PathBuf]) -> Vec<CommitNotice> {
        let first = !self.started;
        self.started = true;
        let mut notices = Vec::new();
        for path in ledgers {
            match self.poll_one(path, first) {
                Ok(Some(notice)) => notices.push(notice),
                Ok(None) => {}
                Err(err) => {
                    tracing::warn!(ledger = %path.display(), error = %err, "cannot poll ledger");
                }
            }
        }
        notices
    }

    fn poll_one(&mut self, path: &Path, first: bool) -> Result<Option<CommitNotice>> {
        let ledger = Ledger::open_existing(path)?;
        self.read_new(ledger.connection(), path, first)
            .map_err(|err| Error::sqlite(path, err))
    }

    fn read_new(
        &mut self,
        conn: &Connection,
        path: &Path,
        first: bool,
    ) -> rusqlite::Result<Option<CommitNotice>> {
        let newest = |table: &str| -> rusqlite::Result<i64> {
            conn.query_row(
                &format!("SELECT COALESCE(MAX(id), 0) FROM {table}"),
                [],
                |r| r.get(0),
            )
        };
        let seen = match self.seen.get(path) {
            Some(seen) => *seen,
            // Existing at the first poll: only what comes next is news.
            None if first => {
                let start = Seen {
                    event_id: newest("events")?,
                    mutation_id: newest("mutations")?,
                    hook_run_id: newest("hook_runs")?,
                };
                self.seen.insert(path.to_owned(), start);
                return Ok(None);
            }
            // Appearing later: everything in it is news.
            None => Seen::default(),
        };
        let mut statement = conn.prepare_cached(
            "SELECT id, event_id, hook_type, tool_name, tool_use_id FROM events \
             WHERE id > ?1 ORDER BY id LIMIT ?2",
        )?;
        let rows = statement.query_map([seen.event_id, MAX_EVENTS_PER_POLL], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                CommittedEvent {
                    event_id: r.get(1)?,
                    hook_type: r.get(2)?,
                    tool_name: r.get(3)?,
                    tool_use_id: r.get(4)?,
                },
            ))
        })?;
        let mut events = Vec::new();
        let mut last_event = seen.event_id;
        for row in rows {
            let (id, event) = row?;
            last_event = id;
            events.push(event);
        }
        // Hook runs are committed after their event, in a batch of their own.
        let (hook_runs, last_hook_run): (i64, Option<i64>) = conn.query_row(
            "SELECT COUNT(*), MAX(id) FROM hook_runs WHERE id > ?1",
            [seen.hook_run_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        if events.is_empty() && hook_runs == 0 {
            return Ok(None);
        }
        // Mutations are written in the same transaction as their events.
        let last_mutation: i64 = conn
            .query_row(
                "SELECT MAX(m.id) FROM mutations m JOIN events e ON e.event_id = m.event_id \
                 WHERE e.id <= ?1",
                [last_event],
                |r| r.get::<_, Option<i64>>(0),
            )
            .optional()?
            .flatten()
            .unwrap_or(seen.mutation_id)
            .max(seen.mutation_id);
        let mutations: i64 = conn.query_row(
            "SELECT COUNT(*) FROM mutations WHERE id > ?1 AND id <= ?2",
            [seen.mutation_id, last_mutation],
            |r| r.get(0),
        )?;
        self.seen.insert(
            path.to_owned(),
            Seen {
                event_id: last_event,
                mutation_id: last_mutation,
                hook_run_id: last_hook_run.unwrap_or(seen.hook_run_id),
            },
        );
        Ok(Some(CommitNotice {
            ledger: path.to_owned(),
            events,
            mutations: usize::try_from(mutations).unwrap_or(0),
            hook_runs: usize::try_from(hook_runs).unwrap_or(0),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{HookEvent, LedgerEntry, RepoFacts};

    fn entry(id: &str, tool: &str, files: &[&str]) -> LedgerEntry {
        let event = HookEvent {
            event_id: id.into(),
            hook_type: "post_tool_use".into(),
            tool_name: Some(tool.into()),
            agent_id: "agent".into(),
            session_id: Some("s".into()),
            tool_use_id: Some(format!("tu-{id}")),
            cwd: None,
            file_path: None,
            lines_changed: Some(1),
            lines_added: None,
            lines_removed: None,
            command: None,
            payload_valid: true,
            raw_payload: "{}".into(),
            event_timestamp: "2026-11-22T10:00:00.000Z".into(),
            received_at: "2026-11-22T10:00:00.000Z".into(),
            source_pid: Some(1),
            flags: Vec::new(),
            agent_kind: crate::record::claude(),
        };
        let repo = RepoFacts {
            git_root: None,
            branch: "main".into(),
            head_sha: "abc".into(),
            remote_url: None,
        };
        let mutations = files
            .iter()
            .enumerate()
            .map(|(seq, file)| {
                crate::record::MutationRecord::for_event(
                    &event,
                    &repo,
                    tool,
                    i64::try_from(seq).unwrap(),
                    Some((*file).into()),
                    Some(1),
                )
            })
            .collect();
        LedgerEntry {
            event,
            repo,
            mutations,
        }
    }

    #[test]
    fn reports_only_what_another_writer_commits_after_the_first_poll() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.db");
        let mut writer = Ledger::open_or_create(&a).unwrap();
        writer.append(&[entry("old", "Write", &["x"])]).unwrap();

        let mut watch = LedgerWatch::new();
        assert!(
            watch.poll(std::slice::from_ref(&a)).is_empty(),
            "history is not news"
        );
        assert!(
            watch.poll(std::slice::from_ref(&a)).is_empty(),
            "nothing new yet"
        );

        writer
            .append(&[
                entry("e1", "Edit", &["y"]),
                entry("e2", "Bash", &["p", "q"]),
                entry("e3", "Read", &[]),
            ])
            .unwrap();
        let notices = watch.poll(std::slice::from_ref(&a));
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].ledger, a);
        let ids: Vec<&str> = notices[0]
            .events
            .iter()
            .map(|e| e.event_id.as_str())
            .collect();
        assert_eq!(ids, ["e1", "e2", "e3"]);
        assert_eq!(notices[0].events[1].tool_use_id.as_deref(), Some("tu-e2"));
        assert_eq!(notices[0].mutations, 3);
        assert!(watch.poll(&[a]).is_empty(), "each row is reported once");
    }

    #[test]
    fn a_ledger_that_appears_later_is_reported_from_its_first_row() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.db");
        let b = dir.path().join("b.db");
        Ledger::open_or_create(&a).unwrap();
        let mut watch = LedgerWatch::new();
        assert!(watch.poll(std::slice::from_ref(&a)).is_empty());

        let mut late = Ledger::open_or_create(&b).unwrap();
        late.append(&[entry("first", "Write", &["new.txt"])])
            .unwrap();
        let notices = watch.poll(&[a, b.clone()]);
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].ledger, b);
        assert_eq!(notices[0].events[0].event_id, "first");
        assert_eq!(notices[0].mutations, 1);
    }

    #[test]
    fn hook_runs_committed_after_their_event_are_reported_too() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.db");
        let mut writer = Ledger::open_or_create(&a).unwrap();
        let mut watch = LedgerWatch::new();
        assert!(watch.poll(std::slice::from_ref(&a)).is_empty());
        writer.append(&[entry("e1", "Bash", &[])]).unwrap();
        let notices = watch.poll(std::slice::from_ref(&a));
        assert_eq!((notices[0].events.len(), notices[0].hook_runs), (1, 0));

        let run = crate::record::HookRunRecord {
            run_id: "r1".into(),
            event_id: "e1".into(),
            hook_type: "pre_tool_use".into(),
            tool_name: Some("Bash".into()),
            session_id: Some("s".into()),
            tool_use_id: Some("tu-e1".into()),
            scope: "project".into(),
            source: "/p/.hookd/settings.json".into(),
            matcher: Some("Bash".into()),
            command: "exit 2".into(),
            exit_code: Some(2),
            timed_out: false,
            decision: Some("deny".into()),
            duration_ms: 1.5,
            stdout: String::new(),
            stderr: "no".into(),
            output_truncated: false,
            error: None,
            started_at: "2026-11-22T10:00:00.000Z".into(),
            skipped: None,
        };
        writer.append_hook_runs(&[run]).unwrap();
        let notices = watch.poll(std::slice::from_ref(&a));
        assert_eq!(notices.len(), 1);
        assert_eq!(
            (
                notices[0].events.len(),
                notices[0].hook_runs,
                notices[0].mutations
            ),
            (0, 1, 0)
        );
        assert!(watch.poll(&[a]).is_empty());
    }

    #[test]
    fn an_unreadable_ledger_is_skipped_not_fatal() {
        let dir = tempfile::tempdir().unwrap();
        let broken = dir.path().join("broken.db");
        std::fs::write(&broken, b"not a database").unwrap();
        let mut watch = LedgerWatch::new();
        assert!(watch.poll(std::slice::from_ref(&broken)).is_empty());
        assert!(watch.poll(&[broken]).is_empty());
    }
}
