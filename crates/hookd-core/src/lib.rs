//! hookd's core: everything the daemon, the CLI and the desktop app share,
//! with no GUI dependency so all of it is tested headless.
//!
//! Seven subsystems, each a folder:
//! - [`daemon`]: the socket server and the event path. An emitter writes an
//!   [`Envelope`] line → [`daemon::server`] frames and validates it →
//!   [`daemon::ingest`] normalises, enriches and batches it → the ledger.
//!   Managed hooks are answered there too ([`daemon::managed`]).
//! - [`ledger`]: the per-repository append-only SQLite ledger, its writer
//!   ([`ledger::sink`]), readers ([`ledger::query`], [`ledger::watch`]) and
//!   the registry of known repositories.
//! - [`settings`]: the agents' and hookd's hook settings: locations,
//!   documents, validation, surgical edits, the event catalogue, matchers,
//!   `hookd connect` and the templates.
//! - [`executor`]: running hooks with the agent's exact contract, testing
//!   them on a payload, and sample payloads.
//! - [`amqp`]: publishing to and consuming from RabbitMQ (cargo feature
//!   `amqp`).
//! - [`rewind`]: giving back what the ledger recorded: plans (a three-way
//!   merge per file) and their checked, undoable apply.
//! - [`health`]: `hookd doctor`: what the settings files say joined with
//!   what the ledger saw of the hooks.
//!
//! Shared roots: [`error`], [`config`], [`dirs`], [`names`], [`timefmt`],
//! [`diff`] (the one line-diff rule: lines added and removed),
//! [`record`] (the records that cross subsystems), [`project`] (what a
//! project root is, stored paths, version tokens), [`state_dir`] (the
//! `.hookd/` directory in a repository) and [`fs_atomic`] (atomic writes).
//!
//! The dependencies point one way: the ledger reads only the shared roots,
//! and only the daemon's [`daemon::publish`] knows the broker.

#[cfg(feature = "amqp")]
pub mod amqp;
pub mod config;
pub mod daemon;
pub mod diff;
pub mod dirs;
pub mod error;
pub mod executor;
pub mod fs_atomic;
pub mod health;
pub mod ledger;
pub mod names;
pub mod project;
pub mod record;
pub mod rewind;
pub mod settings;
pub mod state_dir;
pub mod timefmt;

pub use error::{Error, Result};
pub use hookd_proto::{AgentKind, Envelope, MAX_LINE_BYTES};
