//! The Timeline screen's commands: the mutation rows, the activity mode,
//! and a row's detail (the whole row, a Write's previous content, the
//! files of one Bash command).

use hookd_core::ledger::ActivityEvent;
use hookd_core::ledger::previous::PreviousContent;
use hookd_core::record::MutationRow;
use tauri::{AppHandle, Runtime};

use super::blocking;
use super::registry::command;
use crate::activity;
use crate::error::Result;
use crate::history::{self, EventRef, RowRef};
use crate::timeline::TimelineQuery;

command! {
    /// The mutation rows matching the query, oldest first.
    pub(crate) async fn timeline<R: Runtime>[app: AppHandle<R>](
        query: TimelineQuery,
    ) -> Result<Vec<MutationRow>> {
        // `timeline` here is this command's signature module.
        blocking(&app, move |state| crate::timeline::timeline(state, &query)).await
    }
}

command! {
    /// Every hook event matching the timeline's filters, with its hook runs,
    /// oldest first.
    pub(crate) async fn agent_activity<R: Runtime>[app: AppHandle<R>](
        query: TimelineQuery,
    ) -> Result<Vec<ActivityEvent>> {
        blocking(&app, move |state| activity::agent_activity(state, &query)).await
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
    /// Every file one hook event changed.
    pub(crate) async fn event_mutations<R: Runtime>[app: AppHandle<R>](
        event: EventRef,
    ) -> Result<Vec<MutationRow>> {
        blocking(&app, move |state| history::event_mutations(state, &event)).await
    }
}
