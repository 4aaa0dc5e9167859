//! The durable on-disk outbox between the daemon and RabbitMQ.
//!
//! Every event bound for the broker is first committed here (by the ingest
//! thread, whatever the broker's state), and removed only after the broker
//! confirmed it. So the daemon never waits for the broker, a broker outage
//! costs disk space instead of events, and a daemon restarted while the
//! broker is down finds its backlog where it left it. `seq` is
//! `AUTOINCREMENT`, never reused, so reading by `seq` is the order the events
//! were pushed in, across restarts.
//!
//! It is its own SQLite file (WAL, `synchronous=FULL`): in `amqp`-only mode it
//! holds the only copy of an event until the broker has it, so a commit must
//! survive a power loss too, unlike the ledgers' `NORMAL`. Two connections use
//! it at once (the ingest thread pushes, the publisher peeks and removes);
//! WAL and a busy timeout let them interleave. All calls block.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use rusqlite::{Connection, OpenFlags, params};
use rusqlite_migration::{M, Migrations};
use serde_json::{Map, Value};

use super::AmqpError;
use super::message::{CarriedContent, SCHEMA_VERSION, ToolMutationEvent};
use crate::ledger::sqlite::Synchronous;
use crate::record::LedgerEntry;

/// File name of the outbox inside hookd's data directory.
pub const OUTBOX_FILE: &str = "amqp-outbox.db";

/// Longest routing key AMQP carries (a short string).
const MAX_ROUTING_KEY: usize = 255;

/// Numbered, embedded schema migrations; never edit one that has landed.
/// `IF NOT EXISTS` because the daemon's two connections may open a new file
/// at the same moment and both try to create it.
static MIGRATIONS: LazyLock<Migrations<'static>> = LazyLock::new(|| {
    Migrations::new(vec![M::up(
        "CREATE TABLE IF NOT EXISTS outbox (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            event_id TEXT NOT NULL,
            routing_key TEXT NOT NULL,
            headers TEXT NOT NULL,
            body BLOB NOT NULL,
            timestamp INTEGER NOT NULL,
            queued_at TEXT NOT NULL
        );
        -- Makes COUNT(*) (the status backlog) scan a small index, not the bodies.
        CREATE INDEX IF NOT EXISTS outbox_event_id ON outbox (event_id);",
    )])
});

/// Where the outbox lives in hookd's data directory.
pub fn outbox_path(data_dir: &Path) -> PathBuf {
    data_dir.join(OUTBOX_FILE)
}

/// One message waiting for the broker: everything needed to publish it.
#[derive(Debug, Clone, PartialEq)]
pub struct OutboxMessage {
    /// The event's id; published as the AMQP `message_id`.
    pub event_id: String,
    /// Routing key (`tool.mutation.write`, `session.start`, ...).
    pub routing_key: String,
    /// The JSON `ToolMutationEvent`.
    pub body: Vec<u8>,
    /// AMQP headers (`schema_version`, `event_type`, `hook_type`, `agent_id`,
    /// `tool_name`, `session_id`), so consumers can filter without parsing the body.
    pub headers: Map<String, Value>,
    /// When the event happened, in seconds since the Unix epoch (the AMQP
    /// `timestamp` property).
    pub timestamp: u64,
}

impl OutboxMessage {
    /// The message for one ledger entry: its `ToolMutationEvent` body, routing key and headers.
    pub fn from_entry(entry: &LedgerEntry) -> Self {
        Self::carrying(entry, Vec::new())
    }

    /// [`Self::from_entry`], the body also carrying `contents` (the
    /// contents its mutations refer to).
    pub fn carrying(entry: &LedgerEntry, contents: Vec<CarriedContent>) -> Self {
        let message = ToolMutationEvent::from_entry(entry).with_contents(contents);
        let mut headers = Map::new();
        headers.insert("schema_version".into(), SCHEMA_VERSION.into());
        headers.insert("event_type".into(), message.event_type.clone().into());
        headers.insert("hook_type".into(), message.hook_type.clone().into());
        headers.insert("agent_id".into(), message.agent_id.clone().into());
        if let Some(tool) = &message.tool_name {
            headers.insert("tool_name".into(), tool.clone().into());
        }
        if let Some(session) = &message.session_id {
            headers.insert("session_id".into(), session.clone().into());
        }
        let timestamp = epoch_seconds(&message.timestamp)
            .or_else(|| epoch_seconds(&message.received_at))
            .unwrap_or_else(|| chrono::Utc::now().timestamp().max(0).unsigned_abs());
        let body = serde_json::to_vec(&message).unwrap_or_else(|err| {
            // Cannot happen (plain strings, numbers and JSON values), but an
            // event must never vanish: publish what identifies it instead.
            tracing::error!(event_id = %message.event_id, error = %err, "cannot serialise event");
            serde_json::json!({
                "schema_version": SCHEMA_VERSION,
                "event_id": message.event_id,
                "event_type": message.event_type,
                "error": err.to_string(),
            })
            .to_string()
            .into_bytes()
        });
        Self {
            event_id: message.event_id,
            routing_key: truncate_utf8(&message.event_type, MAX_ROUTING_KEY).to_owned(),
            body,
            headers,
            timestamp,
        }
    }
}

/// Seconds since the epoch of an RFC 3339 time, if it is one (and after 1970).
fn epoch_seconds(time: &str) -> Option<u64> {
    let parsed = chrono::DateTime::parse_from_rfc3339(time.trim()).ok()?;
    u64::try_from(parsed.timestamp()).ok()
}

/// The longest prefix of `text` of at most `max` bytes that ends on a char
/// boundary. A tool name can be anything an agent sends, and a routing key
/// over 255 bytes would be refused by AMQP and block the outbox.
pub(crate) fn truncate_utf8(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// An open outbox database.
pub struct Outbox {
    conn: Connection,
    path: PathBuf,
}

impl Outbox {
    /// Opens the outbox at `path`, creating it (and its directory) on first use.
    pub fn open(path: &Path) -> Result<Self, AmqpError> {
        let sqlite = |source| AmqpError::Outbox {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(|source| AmqpError::Io {
                context: "cannot create directory",
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let open = || {
            let mut conn =
                crate::ledger::sqlite::open_wal(path, OpenFlags::default(), Synchronous::Full)
                    .map_err(sqlite)?;
            MIGRATIONS
                .to_latest(&mut conn)
                .map_err(|source| AmqpError::OutboxMigration {
                    path: path.to_path_buf(),
                    source,
                })?;
            Ok(conn)
        };
        let transient = |err: &AmqpError| match err {
            AmqpError::Outbox { source, .. } => crate::ledger::sqlite::is_busy(source),
            AmqpError::OutboxMigration { .. } => true,
            _ => false,
        };
        let conn = crate::ledger::sqlite::retry_transient(path, open, transient)?;
        Ok(Self {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends messages in one transaction, in the given order.
    pub fn push(&mut self, messages: &[OutboxMessage]) -> Result<(), AmqpError> {
        if messages.is_empty() {
            return Ok(());
        }
        let path = self.path.clone();
        let sqlite = |source| AmqpError::Outbox {
            path: path.clone(),
            source,
        };
        let queued_at = crate::timefmt::now();
        let tx = self.conn.transaction().map_err(sqlite)?;
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO outbox (event_id, routing_key, headers, body, timestamp, queued_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .map_err(sqlite)?;
            for message in messages {
                let headers = Value::Object(message.headers.clone()).to_string();
                insert
                    .execute(params![
                        message.event_id,
                        message.routing_key,
                        headers,
                        message.body,
                        i64::try_from(message.timestamp).unwrap_or(i64::MAX),
                        queued_at,
                    ])
                    .map_err(sqlite)?;
            }
        }
        tx.commit().map_err(sqlite)
    }

    /// Up to `limit` messages, oldest first, with their sequence numbers.
    pub fn peek(&self, limit: usize) -> Result<Vec<(i64, OutboxMessage)>, AmqpError> {
        self.peek_bounded(limit, usize::MAX)
    }

    /// Like [`Outbox::peek`], but stops once the bodies read add up to
    /// `max_bytes` (always returning at least one message when there is one),
    /// so a batch of large payloads stays bounded in memory.
    pub fn peek_bounded(
        &self,
        limit: usize,
        max_bytes: usize,
    ) -> Result<Vec<(i64, OutboxMessage)>, AmqpError> {
        let sqlite = |source| AmqpError::Outbox {
            path: self.path.clone(),
            source,
        };
        let mut select = self
            .conn
            .prepare_cached(
                "SELECT seq, event_id, routing_key, headers, body, timestamp
                 FROM outbox ORDER BY seq LIMIT ?1",
            )
            .map_err(sqlite)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut rows = select.query(params![limit]).map_err(sqlite)?;
        let mut messages = Vec::new();
        let mut bytes = 0usize;
        // Rows are read one at a time, so stopping here never loads the rest.
        while let Some(row) = rows.next().map_err(sqlite)? {
            let seq: i64 = row.get(0).map_err(sqlite)?;
            let event_id: String = row.get(1).map_err(sqlite)?;
            let headers_text: String = row.get(3).map_err(sqlite)?;
            let headers = match serde_json::from_str::<Value>(&headers_text) {
                Ok(Value::Object(map)) => map,
                // Headers are a convenience copy of body fields: a damaged
                // row still carries its event, so publish it without them.
                _ => {
                    tracing::warn!(seq, event_id, "outbox row has unreadable headers");
                    Map::new()
                }
            };
            let body: Vec<u8> = row.get(4).map_err(sqlite)?;
            let timestamp: i64 = row.get(5).map_err(sqlite)?;
            bytes = bytes.saturating_add(body.len());
            messages.push((
                seq,
                OutboxMessage {
                    event_id,
                    routing_key: row.get(2).map_err(sqlite)?,
                    body,
                    headers,
                    timestamp: u64::try_from(timestamp).unwrap_or(0),
                },
            ));
            if bytes >= max_bytes {
                break;
            }
        }
        Ok(messages)
    }

    /// Removes messages by sequence number (after the broker confirmed them), in one transaction.
    pub fn remove(&mut self, seqs: &[i64]) -> Result<(), AmqpError> {
        if seqs.is_empty() {
            return Ok(());
        }
        let path = self.path.clone();
        let sqlite = |source| AmqpError::Outbox {
            path: path.clone(),
            source,
        };
        let tx = self.conn.transaction().map_err(sqlite)?;
        {
            let mut delete = tx
                .prepare_cached("DELETE FROM outbox WHERE seq = ?1")
                .map_err(sqlite)?;
            for seq in seqs {
                delete.execute(params![seq]).map_err(sqlite)?;
            }
        }
        tx.commit().map_err(sqlite)
    }

    /// Number of messages waiting.
    pub fn len(&self) -> Result<u64, AmqpError> {
        let count: i64 = self
            .conn
            .query_row("SELECT COUNT(*) FROM outbox", [], |row| row.get(0))
            .map_err(|source| AmqpError::Outbox {
                path: self.path.clone(),
                source,
            })?;
        Ok(u64::try_from(count).unwrap_or(0))
    }

    /// True when nothing is waiting.
    pub fn is_empty(&self) -> Result<bool, AmqpError> {
        Ok(self.len()? == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(i: usize, body_len: usize) -> OutboxMessage {
        let mut headers = Map::new();
        headers.insert("hook_type".into(), "post_tool_use".into());
        headers.insert("schema_version".into(), 1.into());
        OutboxMessage {
            event_id: format!("e{i}"),
            routing_key: "tool.mutation.write".into(),
            body: vec![b'x'; body_len],
            headers,
            timestamp: 1_700_000_000 + i as u64,
        }
    }

    #[test]
    fn keeps_order_across_removals_and_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join(OUTBOX_FILE);
        let mut outbox = Outbox::open(&path).unwrap();
        let batch: Vec<_> = (0..10).map(|i| message(i, 3)).collect();
        outbox.push(&batch).unwrap();
        assert_eq!(outbox.len().unwrap(), 10);
        let first = outbox.peek(4).unwrap();
        assert_eq!(
            first
                .iter()
                .map(|(_, m)| m.event_id.as_str())
                .collect::<Vec<_>>(),
            ["e0", "e1", "e2", "e3"]
        );
        assert_eq!(first[0].1, batch[0]);
        let seqs: Vec<i64> = first.iter().map(|(s, _)| *s).collect();
        outbox.remove(&seqs).unwrap();
        drop(outbox);

        let mut outbox = Outbox::open(&path).unwrap();
        outbox.push(&[message(10, 3)]).unwrap();
        let rest = outbox.peek(100).unwrap();
        let ids: Vec<_> = rest.iter().map(|(_, m)| m.event_id.clone()).collect();
        assert_eq!(ids, ["e4", "e5", "e6", "e7", "e8", "e9", "e10"]);
        assert!(rest.windows(2).all(|w| w[0].0 < w[1].0));
        // A removed seq is never reused, so order survives emptying the table.
        let all: Vec<i64> = rest.iter().map(|(s, _)| *s).collect();
        outbox.remove(&all).unwrap();
        assert!(outbox.is_empty().unwrap());
        outbox.push(&[message(11, 3)]).unwrap();
        assert!(outbox.peek(1).unwrap()[0].0 > *all.last().unwrap());
    }

    #[test]
    fn peek_bounded_stops_at_the_byte_budget_but_returns_one() {
        let dir = tempfile::tempdir().unwrap();
        let mut outbox = Outbox::open(&dir.path().join(OUTBOX_FILE)).unwrap();
        let batch: Vec<_> = (0..5).map(|i| message(i, 100)).collect();
        outbox.push(&batch).unwrap();
        assert_eq!(outbox.peek_bounded(10, 250).unwrap().len(), 3);
        assert_eq!(outbox.peek_bounded(10, 1).unwrap().len(), 1);
        assert_eq!(outbox.peek_bounded(2, usize::MAX).unwrap().len(), 2);
    }

    #[test]
    fn two_connections_share_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(OUTBOX_FILE);
        let mut writer = Outbox::open(&path).unwrap();
        let mut reader = Outbox::open(&path).unwrap();
        writer.push(&[message(0, 1), message(1, 1)]).unwrap();
        let peeked = reader.peek(10).unwrap();
        assert_eq!(peeked.len(), 2);
        reader.remove(&[peeked[0].0]).unwrap();
        assert_eq!(writer.len().unwrap(), 1);
    }

    #[test]
    fn long_tool_names_still_give_a_valid_routing_key() {
        assert_eq!(truncate_utf8("abc", 255), "abc");
        let long = "é".repeat(200);
        let cut = truncate_utf8(&long, 255);
        assert!(cut.len() <= 255 && cut.len() == 254);
    }
}
