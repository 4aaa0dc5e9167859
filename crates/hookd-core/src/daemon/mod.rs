//! The daemon: everything between the socket and the ledger.
//!
//! [`server`] binds and accepts, [`connection`] frames lines under the size
//! limit, [`ingest`] batches them on a dedicated thread, enriched with git
//! facts ([`enrich`]) and the payload's fields ([`extract`]), placed in the
//! ledger of the repository that holds each file ([`placement`]), with Bash
//! file changes found by [`bash_tracker`]. [`accepted`] keeps each accepted line until it committed, [`journal`] replays the
//! lines emitters kept while no daemon took them. [`managed`] answers events that wait
//! for hookd's managed hooks; [`recording`] pauses the recording; [`stats`]
//! and [`status`] say what the daemon did; [`memory`] gives a burst's
//! memory back once the daemon is idle again.

pub mod accepted;
pub mod bash_tracker;
pub mod capture;
pub mod connection;
pub mod emitter;
pub mod enrich;
pub mod extract;
pub mod held;
pub mod ingest;
pub mod journal;
pub mod managed;
pub mod memory;
pub mod patch;
pub mod placement;
pub mod publish;
pub mod recording;
pub mod server;
pub mod stats;
pub mod status;

#[cfg(test)]
mod tests_held;
