//! hookd's core: everything the daemon, the CLI and (later) the desktop app
//! share, with no GUI dependency so all of it is tested headless.
//!
//! The event path is: an emitter writes an [`Envelope`] line on the Unix
//! socket → [`server`] frames and validates it ([`connection`]) → [`ingest`]
//! normalises it ([`names`], [`extract`]), enriches it with git facts
//! ([`enrich`], [`bash_tracker`]) and batches it into the per-repository
//! [`ledger`] → [`query`] reads it back. [`agent_connect`] edits the agent's
//! settings so the agent calls `hookd-emit` at all.

pub mod agent_connect;
pub mod amqp;
pub mod bash_tracker;
pub mod config;
pub mod connection;
pub mod dirs;
pub mod enrich;
pub mod error;
pub mod executor;
pub mod extract;
pub mod fs_atomic;
pub mod history;
pub mod hook_events;
pub mod hook_test;
pub mod ingest;
pub mod ledger;
pub mod ledger_sink;
pub mod ledger_watch;
pub mod managed;
pub mod matcher;
pub mod names;
pub mod query;
pub mod record;
pub mod recording;
pub mod registry;
pub mod samples;
pub mod server;
pub mod settings;
pub mod sqlite;
pub mod stats;
pub mod status;
pub mod templates;
pub mod timefmt;

pub use error::{Error, Result};
pub use hookd_proto::{Envelope, MAX_LINE_BYTES};
