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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::{RowRef, activity_event, prompt_group};
    use hookd_core::ledger::histogram::SeriesBy;
    use hookd_testkit::{Event, GitRepo, TestEnv, record};

    /// A ledger of one prompt and the two Writes after it, the app's state
    /// and a query of its repository.
    fn a_prompt_and_two_writes() -> (TestEnv, GitRepo, AppState, TimelineQuery) {
        let env = TestEnv::new();
        let repo = GitRepo::new();
        record(
            &env,
            &repo,
            &[
                Event::prompt("2026-11-20T10:00:00.000Z"),
                Event::write("a.txt", "2026-11-20T10:01:00.000Z"),
                Event::write("b.txt", "2026-11-20T10:02:00.000Z"),
            ],
        );
        let state = AppState::new(env.data_dir(), env.socket(), None);
        let query = TimelineQuery {
            repo: Some(repo.root().display().to_string()),
            ..TimelineQuery::default()
        };
        (env, repo, state, query)
    }

    #[test]
    fn pages_summarise_payloads_and_one_event_is_read_whole() {
        let (_env, repo, state, query) = a_prompt_and_two_writes();

        let page = activity_page(&state, &query, &Anchor::Newest, 2).unwrap();
        assert_eq!((page.total, page.first, page.rows.len()), (3, 1, 2));
        assert_eq!(page.rows[0].tool_name.as_deref(), Some("Write"));
        let oldest = activity_page(&state, &query, &Anchor::Oldest, 1).unwrap();
        let prompt = &oldest.rows[0];
        assert_eq!(prompt.hook_type, "user_prompt_submit");
        assert!(
            prompt.raw_payload.contains("hello"),
            "the summary keeps the prompt: {}",
            prompt.raw_payload
        );

        // The detail panel reads the event whole, payload and all.
        let whole = activity_event(
            &state,
            &RowRef {
                repo: Some(repo.root().display().to_string()),
                id: page.rows[1].id,
            },
        )
        .unwrap();
        assert_eq!(whole.event_id, page.rows[1].event_id);
        assert!(
            whole.raw_payload.contains("\"content\""),
            "{}",
            whole.raw_payload
        );
        assert!(!page.rows[1].raw_payload.contains("\"content\""));
        let err = activity_event(
            &state,
            &RowRef {
                repo: Some(repo.root().display().to_string()),
                id: 999,
            },
        )
        .unwrap_err();
        assert_eq!(err.kind, crate::error::ErrorKind::NotFound);

        let chart = activity_histogram(
            &state,
            &query,
            &HistogramRequest {
                series: SeriesBy::Tool,
                ..HistogramRequest::default()
            },
        )
        .unwrap();
        assert_eq!(chart.total, 3);
        let names: Vec<(&str, u64)> = chart
            .series
            .iter()
            .map(|s| (s.name.as_str(), s.total))
            .collect();
        assert_eq!(names, [("Write", 2), ("user_prompt_submit", 1)]);
    }

    #[test]
    fn a_rows_prompt_group_is_read_from_its_ledger_not_the_page() {
        let (_env, _repo, state, query) = a_prompt_and_two_writes();
        // The newest row alone is held: its prompt is not on the page.
        let page = activity_page(&state, &query, &Anchor::Newest, 1).unwrap();
        let member = &page.rows[0];
        let group = prompt_group(
            &state,
            &RowRef {
                repo: query.repo.clone(),
                id: member.id,
            },
        )
        .unwrap()
        .expect("the write is in the prompt's group");
        assert_eq!(group.head.hook_type, "user_prompt_submit");
        assert!(
            group.head.raw_payload.contains("hello"),
            "{}",
            group.head.raw_payload
        );
        assert_eq!((group.calls, group.changes), (2, 2));
        // The prompt's own group is the same one.
        let own = prompt_group(
            &state,
            &RowRef {
                repo: query.repo.clone(),
                id: group.head.id,
            },
        )
        .unwrap();
        assert_eq!(own, Some(group));
        // A row that is not there is in no group.
        let none = prompt_group(
            &state,
            &RowRef {
                repo: query.repo,
                id: 999,
            },
        )
        .unwrap();
        assert_eq!(none, None);
    }
}
