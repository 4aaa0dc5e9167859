//! The wire contract between hook emitters and the hookd daemon.
//!
//! Both `hookd-emit` (the hot path, which must stay free of tokio, SQLite and
//! git) and the daemon in `hookd-core` depend on this crate, so the envelope
//! shape, the socket location and the line limit are defined exactly once.
//! It depends on serde, serde_json and rustix only. The journal where an
//! emitter leaves a line no daemon took is defined here too. It also holds the rules
//! both sides must apply alike: whom to trust behind the socket, how a
//! payload with lone UTF-16 surrogates is repaired, and what the stand-in for
//! an oversized payload keeps.

pub mod agent;
pub mod envelope;
pub mod journal;
pub mod paths;
pub mod snapshot;
pub mod standin;
pub mod surrogates;
pub mod trust;

pub use agent::AgentKind;
pub use envelope::{ENVELOPE_VERSION, Envelope, Reply};
pub use paths::{SOCKET_ENV, pid_file_for, socket_path};

/// Largest accepted envelope line, newline excluded (8 MiB).
///
/// A hook payload carries the tool input (a whole file for `Write`), so the
/// limit is generous; anything larger is rejected by the daemon without being
/// parsed, and the connection carries on with the next line.
pub const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;

/// The byte a daemon sends back, in recording mode, once it has journaled a
/// line that carried an `event_id`: from then on the event survives the
/// daemon being killed. Without it, `hookd-emit` keeps the line in its own
/// journal ([`journal`]).
pub const ACK: u8 = b'\n';
