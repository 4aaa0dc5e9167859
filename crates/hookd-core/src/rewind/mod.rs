//! Rewind: giving back what the ledger recorded.
//!
//! Built in parts. Here so far: [`merge`], what reverting one change does to
//! one file while keeping every later change. The file contents it works on
//! are kept by [`crate::ledger::content_store`].

pub mod merge;
