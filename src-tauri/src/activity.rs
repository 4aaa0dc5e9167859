//! An agent's whole activity for the window: every hook event (prompts,
//! tool calls before and after, stops, …) with the managed hook runs that
//! answered it and their decisions, through the same filters and the same
//! resolution rules as the mutation timeline ([`crate::timeline`]), paged
//! and charted the same way.

use hookd_core::ledger::ActivityEvent;
use hookd_core::ledger::histogram::{Histogram, HistogramRequest};
use hookd_core::ledger::page::{Anchor, Page};

use crate::error::Result;
use crate::state::AppState;
use crate::timeline::{TimelineQuery, histogram_of, or_empty, page_of, to_core_query};

/// Hook events matching `query`, oldest first, each with its hook runs and
/// its whole payload: the whole filtered history. The window pages with
/// [`activity_page`].
///
/// Like the timeline, a project without a ledger yet (or a folder outside
/// git) has no activity rather than an error.
pub fn agent_activity(state: &AppState, query: &TimelineQuery) -> Result<Vec<ActivityEvent>> {
    let core = to_core_query(state, query)?;
    or_empty(hookd_core::ledger::query::activity(&core), Vec::new)
}

/// The page of hook events matching `query` at `anchor`, at most `limit`,
/// each with its hook runs; payloads are summarised (`activity_event`
/// reads one whole).
pub fn activity_page(
    state: &AppState,
    query: &TimelineQuery,
    anchor: &Anchor,
    limit: u32,
) -> Result<Page<ActivityEvent>> {
    page_of(state, query, anchor, limit)
}

/// The chart of the hook events matching `query`: events per bin, by agent or tool.
pub fn activity_histogram(
    state: &AppState,
    query: &TimelineQuery,
    request: &HistogramRequest,
) -> Result<Histogram> {
    histogram_of::<ActivityEvent>(state, query, request)
}
