//! Errors of the AMQP side: broker connections, the outbox, bad messages.

use std::path::PathBuf;

/// Everything that can go wrong publishing or consuming.
#[derive(Debug, thiserror::Error)]
pub enum AmqpError {
    /// The broker refused or dropped the connection, or an AMQP method failed.
    #[error("RabbitMQ: {context}")]
    Broker {
        /// What was being done (`connecting to amqp://…`, `declaring exchange hookd.events`).
        context: String,
        /// The client library's error.
        #[source]
        source: lapin::Error,
    },
    /// The broker did not confirm a publish (nack or returned).
    #[error("RabbitMQ did not confirm message {event_id}: {reason}")]
    NotConfirmed {
        /// The message's event id.
        event_id: String,
        /// What the broker said.
        reason: String,
    },
    /// The on-disk outbox could not be read or written.
    #[error("outbox {path}")]
    Outbox {
        /// The outbox database.
        path: PathBuf,
        /// The SQLite error.
        #[source]
        source: rusqlite::Error,
    },
    /// The broker did not answer in time (connect, confirms).
    #[error("RabbitMQ: {context}: no answer after {after:?}")]
    Timeout {
        /// What was being done.
        context: String,
        /// How long we waited.
        after: std::time::Duration,
    },
    /// The connection closed while it was in use.
    #[error("RabbitMQ connection to {url} lost")]
    ConnectionLost {
        /// The broker, password redacted.
        url: String,
    },
    /// An exchange, queue or routing key does not fit AMQP's 255-byte short string.
    #[error("{what} is longer than 255 bytes: {name}")]
    NameTooLong {
        /// Which name (`exchange`, `queue`, ...).
        what: &'static str,
        /// The name.
        name: String,
    },
    /// A file or directory the AMQP side needs could not be used.
    #[error("{context} {path}")]
    Io {
        /// What was being done (`cannot create directory`).
        context: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The outbox schema could not be created or upgraded.
    #[error("outbox {path}: schema migration")]
    OutboxMigration {
        /// The outbox database.
        path: PathBuf,
        /// The migration error.
        #[source]
        source: rusqlite_migration::Error,
    },
    /// The blocking outbox worker panicked or was cancelled.
    #[error("outbox worker failed")]
    OutboxWorker(#[source] tokio::task::JoinError),
    /// An async API was called outside a tokio runtime.
    #[error("{0} must be called inside a tokio runtime")]
    NoRuntime(&'static str),
    /// A message body is not a `ToolMutationEvent`.
    #[error("unreadable message: {0}")]
    BadMessage(String),
    /// Writing a ledger failed.
    #[error(transparent)]
    Ledger(#[from] Box<crate::Error>),
    /// A broker URL that no retry can make work (unparsable, or a scheme this build lacks).
    #[error("invalid broker URL {url}: {reason}")]
    InvalidUrl {
        /// The URL, password redacted.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The broker stopped our consumer (its queue was deleted, or the channel closed).
    #[error("RabbitMQ cancelled the consumer (queue deleted or channel closed)")]
    ConsumerCancelled,
}

impl AmqpError {
    /// Wraps a lapin error with what was being done.
    pub fn broker(context: impl Into<String>, source: lapin::Error) -> Self {
        Self::Broker {
            context: context.into(),
            source,
        }
    }
}
