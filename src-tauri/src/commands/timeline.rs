//! The Timeline screen's commands: pages of the mutation rows and of the
//! activity mode, their charts, and a row's detail (the whole row, a
//! Write's previous content, the diff it shows, the files of one Bash
//! command).

use hookd_core::diff::ChangeDiff;
use hookd_core::ledger::ActivityEvent;
use hookd_core::ledger::agents::AgentInfo;
use hookd_core::ledger::change::MutationDiff;
use hookd_core::ledger::histogram::{Histogram, HistogramRequest};
use hookd_core::ledger::known::{Field, Known};
use hookd_core::ledger::page::{Anchor, Page};
use hookd_core::ledger::previous::PreviousContent;
use hookd_core::ledger::prompts::PromptGroup;
use hookd_core::record::MutationRow;
use tauri::{AppHandle, Runtime};

use super::blocking;
use super::registry::command;
use crate::error::Result;
use crate::history::{self, EventRef, RowRef};
use crate::timeline::TimelineQuery;
use crate::{activity, find};

command! {
    /// The page of mutations matching the query at `anchor` (at most
    /// `limit` rows, oldest first, without payloads), where it sits among
    /// all matching rows and how many there are.
    pub(crate) async fn timeline_page<R: Runtime>[app: AppHandle<R>](
        query: TimelineQuery,
        anchor: Anchor,
        limit: u32,
    ) -> Result<Page<MutationRow>> {
        blocking(&app, move |state| crate::timeline::timeline_page(state, &query, &anchor, limit)).await
    }
}

command! {
    /// The page of hook events matching the query at `anchor`, each with
    /// its hook runs (payloads summarised).
    pub(crate) async fn activity_page<R: Runtime>[app: AppHandle<R>](
        query: TimelineQuery,
        anchor: Anchor,
        limit: u32,
    ) -> Result<Page<ActivityEvent>> {
        blocking(&app, move |state| activity::activity_page(state, &query, &anchor, limit)).await
    }
}

command! {
    /// The chart of the mutations matching the query, counted by SQL.
    pub(crate) async fn timeline_histogram<R: Runtime>[app: AppHandle<R>](
        query: TimelineQuery,
        request: HistogramRequest,
    ) -> Result<Histogram> {
        blocking(&app, move |state| crate::timeline::timeline_histogram(state, &query, &request)).await
    }
}

command! {
    /// The chart of the hook events matching the query, counted by SQL.
    pub(crate) async fn activity_histogram<R: Runtime>[app: AppHandle<R>](
        query: TimelineQuery,
        request: HistogramRequest,
    ) -> Result<Histogram> {
        blocking(&app, move |state| activity::activity_histogram(state, &query, &request)).await
    }
}

command! {
    /// One hook event whole: its payload and its hook runs.
    pub(crate) async fn activity_event<R: Runtime>[app: AppHandle<R>](
        row: RowRef,
    ) -> Result<ActivityEvent> {
        blocking(&app, move |state| history::activity_event(state, &row)).await
    }
}

command! {
    /// The prompt's group a hook event is in (its own when it is a
    /// prompt): the prompt whole and the group's exact counts, read from
    /// the ledger, not from the pages the window holds; null when the event
    /// is in no group.
    pub(crate) async fn prompt_group<R: Runtime>[app: AppHandle<R>](
        row: RowRef,
    ) -> Result<Option<PromptGroup>> {
        blocking(&app, move |state| history::prompt_group(state, &row)).await
    }
}

command! {
    /// One timeline row whole, payload included.
    pub(crate) async fn mutation_row<R: Runtime>[app: AppHandle<R>](
        row: RowRef,
    ) -> Result<MutationRow> {
        blocking(&app, move |state| history::mutation_row(state, &row)).await
    }
}

command! {
    /// What a Write's file held before it.
    pub(crate) async fn previous_content<R: Runtime>[app: AppHandle<R>](
        row: RowRef,
    ) -> Result<PreviousContent> {
        blocking(&app, move |state| history::previous_content(state, &row)).await
    }
}

command! {
    /// The diff a row's detail shows (a Write's against its previous
    /// content) and the line counts stored with the row.
    pub(crate) async fn mutation_diff<R: Runtime>[app: AppHandle<R>](
        row: RowRef,
    ) -> Result<MutationDiff> {
        blocking(&app, move |state| history::mutation_diff(state, &row)).await
    }
}

command! {
    /// The diff of the tool input in a hook event's payload (the activity
    /// detail's), by the same rule; null when it holds no file text.
    pub(crate) async fn payload_diff<R: Runtime>[app: AppHandle<R>](
        payload: String,
    ) -> Result<Option<ChangeDiff>> {
        blocking(&app, move |_| Ok(history::payload_diff(&payload))).await
    }
}

command! {
    /// Every file one hook event changed.
    pub(crate) async fn event_mutations<R: Runtime>[app: AppHandle<R>](
        event: EventRef,
    ) -> Result<Vec<MutationRow>> {
        blocking(&app, move |state| history::event_mutations(state, &event)).await
    }
}

command! {
    /// The values a filter field can take in the projects shown, most rows
    /// first: what the filter bar suggests as the user types `part`.
    pub(crate) async fn known_values<R: Runtime>[app: AppHandle<R>](
        query: TimelineQuery,
        field: Field,
        part: Option<String>,
        activity: bool,
    ) -> Result<Vec<Known>> {
        blocking(&app, move |state| find::known_values(state, &query, field, part.as_deref(), activity)).await
    }
}

command! {
    /// Readable names of the agents a screen shows.
    pub(crate) async fn agent_names<R: Runtime>[app: AppHandle<R>](
        query: TimelineQuery,
        ids: Vec<String>,
    ) -> Result<Vec<AgentInfo>> {
        blocking(&app, move |state| find::agent_names(state, &query, &ids)).await
    }
}

command! {
    /// Names an agent (the label `hookd agents label` sets); an empty label
    /// removes the name.
    pub(crate) async fn set_agent_label<R: Runtime>[app: AppHandle<R>](
        agent: String,
        label: String,
    ) -> Result<()> {
        blocking(&app, move |state| find::set_agent_label(state, &agent, &label)).await
    }
}
