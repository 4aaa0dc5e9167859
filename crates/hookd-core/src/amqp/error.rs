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
    /// A message body is not a `ToolMutationEvent`.
    #[error("unreadable message: {0}")]
    BadMessage(String),
    /// Writing a ledger failed.
    #[error(transparent)]
    Ledger(#[from] Box<crate::Error>),
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
