//! An agent's whole activity for the window: every hook event (prompts,
//! tool calls before and after, stops, …) with the managed hook runs that
//! answered it and their decisions, through the same filters and the same
//! resolution rules as the mutation timeline ([`crate::timeline`]).

use hookd_core::ledger::ActivityEvent;

use crate::error::Result;
use crate::state::AppState;
use crate::timeline::{TimelineQuery, to_core_query};

/// Hook events matching `query`, oldest first, each with its hook runs.
///
/// Like the timeline, a project without a ledger yet (or a folder outside
/// git) has no activity rather than an error.
pub fn agent_activity(state: &AppState, query: &TimelineQuery) -> Result<Vec<ActivityEvent>> {
    let core = to_core_query(state, query)?;
    match hookd_core::ledger::query::activity(&core) {
        Ok(events) => Ok(events),
        Err(hookd_core::Error::NoLedger { .. } | hookd_core::Error::NotARepository(_)) => {
            Ok(Vec::new())
        }
        Err(err) => Err(err.into()),
    }
}
