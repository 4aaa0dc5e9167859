//! Finding a change on the Timeline: the values each filter field can take
//! (suggested as a user types, with how many rows have them) and agents by a
//! readable name (a label given with `hookd agents label` wins). The logic is
//! `hookd_core::ledger::{known, agents}`; the values come from the ledgers'
//! small derived tables, never from their rows. Renaming an agent from the
//! app sets the same label as `hookd agents label`, in the registry.

use hookd_core::ledger::Table;
use hookd_core::ledger::agents::{self, AgentInfo};
use hookd_core::ledger::known::{self, Field, Known};
use hookd_core::ledger::registry::Registry;

use crate::error::Result;
use crate::state::AppState;
use crate::timeline::{TimelineQuery, or_empty, to_core_query};

/// Suggestions a field offers at most.
pub const MAX_SUGGESTIONS: usize = 200;

/// The values of `field` in the projects `query` reads (its other filters
/// aside), most rows first, at most [`MAX_SUGGESTIONS`]; with `part`, those
/// containing it. `activity` counts hook events rather than mutations.
pub fn known_values(
    state: &AppState,
    query: &TimelineQuery,
    field: Field,
    part: Option<&str>,
    activity: bool,
) -> Result<Vec<Known>> {
    let core = to_core_query(state, query)?;
    let table = if activity {
        Table::Events
    } else {
        Table::Mutations
    };
    or_empty(
        known::known_values(&core, table, field, part, MAX_SUGGESTIONS),
        Vec::new,
    )
}

/// Readable names of the agents `ids` (those a screen shows).
pub fn agent_names(
    state: &AppState,
    query: &TimelineQuery,
    ids: &[String],
) -> Result<Vec<AgentInfo>> {
    let core = to_core_query(state, query)?;
    or_empty(agents::agents(&core, Some(ids)), Vec::new)
}

/// Names agent `agent_id` `label` everywhere it is shown (what `hookd agents
/// label ID NAME` does); an empty (or blank) label removes the name, so the
/// agent is shown by its type and short id again.
pub fn set_agent_label(state: &AppState, agent_id: &str, label: &str) -> Result<()> {
    Registry::open(&state.data_dir)?.set_agent_label(agent_id, label)?;
    Ok(())
}
