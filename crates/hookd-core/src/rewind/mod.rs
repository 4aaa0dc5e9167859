//! Rewind: giving back what the ledger recorded.
//!
//! - [`merge`](mod@merge): what reverting one change does to one file, keeping every
//!   later change (a three-way merge).
//! - [`plan`](mod@plan): what a rewind of a tool call, a session, an agent, a time
//!   or a file will do, file by file, before anything is written.
//! - [`apply`](mod@apply): carrying a plan out, atomically per file, refusing files
//!   that changed since the plan, and recording the rewind so it can be
//!   undone.
//! - [`repo`]: one repository's ledger, store and root, and every question
//!   the command line and the app ask of them.
//!
//! The contents come from the repository's content store
//! ([`crate::ledger::content_store`]), where the daemon keeps each changed
//! file's before and after.

pub mod apply;
pub mod merge;
pub mod plan;
pub mod repo;

use std::path::PathBuf;

pub use apply::{Applied, OnConflict, apply};
pub use plan::{FilePlan, Outcome, Plan, Target, plan};
pub use repo::RewindRepo;

/// Why a rewind could not be planned or carried out.
#[derive(Debug, thiserror::Error)]
pub enum RewindError {
    /// The repository has no ledger.
    #[error("no ledger in {root}: hookd has recorded nothing there")]
    NoLedger {
        /// The repository's root.
        root: PathBuf,
    },
    /// A `--to` or `--at` names neither a time nor a call that changed the file.
    #[error(
        "{point:?} is neither a time (RFC 3339, or a duration ago such as 2h) nor a tool call that changed {file}"
    )]
    NoSuchPoint {
        /// What was given.
        point: String,
        /// The file, as stored.
        file: String,
    },
    /// The content store could not be opened.
    #[error(transparent)]
    Store(#[from] crate::ledger::content_store::ContentError),
    /// The ledger holds no change for the target.
    #[error("the ledger holds no recorded file change for {target:?}")]
    NothingRecorded {
        /// What was asked for.
        target: Target,
    },
    /// A file of the plan cannot be given back.
    #[error("{path} cannot be restored: {why}; nothing was written")]
    NotRestorable {
        /// The file, as stored.
        path: String,
        /// Why.
        why: String,
    },
    /// A file's revert conflicts with later changes.
    #[error("{path}: {why}; nothing was written")]
    Conflict {
        /// The file, as stored.
        path: String,
        /// Why.
        why: String,
    },
    /// A file changed between the plan and the apply.
    #[error("{path} changed since the rewind was planned; nothing was written (plan again)")]
    ChangedSincePlan {
        /// The file, as stored.
        path: String,
    },
    /// A path leads through a symbolic link.
    #[error(transparent)]
    Confined(#[from] crate::fs_atomic::ConfineError),
    /// Writing a file failed.
    #[error(transparent)]
    Atomic(#[from] crate::fs_atomic::FsAtomicError),
    /// Creating a directory or deleting a file failed.
    #[error("cannot write {path}")]
    Write {
        /// Where.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The ledger could not be read or written.
    #[error(transparent)]
    Ledger(#[from] crate::Error),
}

#[cfg(test)]
mod tests;
