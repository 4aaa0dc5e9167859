//! Rewind: giving back what the ledger recorded.
//!
//! - [`merge`](mod@merge): what reverting one change does to one file, keeping every
//!   later change (a three-way merge).
//! - [`plan`](mod@plan): what a rewind of a tool call, a session, an agent, a time
//!   or a file will do, file by file, before anything is written.
//! - [`apply`](mod@apply): carrying a plan out, atomically per file, refusing files
//!   that changed since the plan, and recording the rewind so it can be
//!   undone.
//!
//! The contents come from the repository's content store
//! ([`crate::ledger::content_store`]), where the daemon keeps each changed
//! file's before and after.

pub mod apply;
pub mod merge;
pub mod plan;

use std::path::PathBuf;

pub use apply::{Applied, OnConflict, apply};
pub use plan::{FilePlan, Outcome, Plan, Target, plan};

/// Why a rewind could not be planned or carried out.
#[derive(Debug, thiserror::Error)]
pub enum RewindError {
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
    #[error(
        "{path}: {why}; nothing was written (--conflicts markers writes it with conflict markers, --conflicts skip leaves it)"
    )]
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
