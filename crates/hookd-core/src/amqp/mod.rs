//! Publishing events to RabbitMQ and writing ledgers from it.
//!
//! The embedded default (the daemon writes each repository's ledger itself)
//! needs no broker. With a broker, every daemon publishes one
//! [`message::ToolMutationEvent`] per hook event to the durable topic
//! exchange `hookd.events`, through a durable on-disk [`outbox`] and
//! publisher confirms ([`publisher`]), so nothing is lost while the broker is
//! away or the daemon restarts; one or more ledger consumers ([`consumer`])
//! write the ledgers with the same code the daemon uses.

pub mod consumer;
pub mod error;
mod held_acks;
pub mod message;
pub mod outbox;
pub mod publisher;
#[cfg(test)]
mod tests_held_acks;
pub mod topology;

pub use error::AmqpError;
pub use message::{DEFAULT_EXCHANGE, ToolMutationEvent};
