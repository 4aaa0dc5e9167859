//! The mutation timeline: `hookd query` for the window. Same resolution
//! rules and the same rows (`MutationRow` serialises exactly as
//! `hookd query --format json` prints it), with two differences a window
//! needs: a project without a ledger yet is an empty timeline, not an error,
//! and a relative `file` is relative to the project root (a window has no
//! current directory).
//!
//! The window never reads the whole history: it asks for the page of rows
//! its viewport shows ([`timeline_page`], `hookd_core::ledger::page`) and
//! for the chart's counts ([`timeline_histogram`], counted by SQL), so what
//! a screen costs depends on what is on it, not on the ledger's size.

use std::path::PathBuf;

use hookd_core::ledger::histogram::{self, Bin, Histogram, HistogramRequest};
use hookd_core::ledger::page::{self, Anchor, Page, Watermark};
use hookd_core::ledger::query::{Query, QueryScope};
use hookd_core::ledger::{MutationFilter, TimelineRow};
use hookd_core::record::MutationRow;
use hookd_core::timefmt;
use serde::Deserialize;
use ts_rs::TS;

use crate::error::{AppError, Result};
use crate::state::AppState;

/// The timeline's filter, the argument of the page and chart commands;
/// every field is optional in JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, TS)]
#[serde(default)]
pub struct TimelineQuery {
    /// A directory inside the repository to read; exclusive with `all`.
    pub repo: Option<String>,
    /// Read every known project and the ledger of events outside git.
    pub all: bool,
    /// Only mutations at or after this time: a duration back from now (`30m`, `2d`) or RFC 3339.
    pub since: Option<String>,
    /// Only mutations before this time: a duration back from now or RFC 3339.
    pub until: Option<String>,
    /// Only this file: relative to the repository root, or absolute.
    pub file: Option<String>,
    /// Only this agent id.
    pub agent: Option<String>,
    /// Only this coding agent's rows (`claude`, `codex`, `gemini`,
    /// `cursor`, `copilot`); empty for all.
    pub agent_kind: Option<String>,
    /// Only this agent session (`session_id`).
    pub session: Option<String>,
    /// Only this hook event type, either spelling (`PostToolUse`, `post_tool_use`).
    pub event_type: Option<String>,
    /// Only this branch.
    pub branch: Option<String>,
    /// Only this tool, case-insensitive.
    pub tool: Option<String>,
    /// Only rows whose file path or shell command (and, in activity mode,
    /// prompt) has words starting with each word of this text.
    pub search: Option<String>,
    /// Only the newest N (still returned oldest first), for a whole read;
    /// `timeline_page`/`activity_page` take their size as `limit` and the
    /// chart counts every matching row, so they ignore it.
    pub limit: Option<u64>,
}

/// Mutations matching `query`, oldest first, payloads included: the whole
/// filtered history, for small reads (the tray's recent changes; give a
/// `limit`). The window pages with [`timeline_page`].
pub fn timeline(state: &AppState, query: &TimelineQuery) -> Result<Vec<MutationRow>> {
    let core = to_core_query(state, query)?;
    or_empty(hookd_core::ledger::query::run(&core), Vec::new)
}

/// The page of mutations matching `query` at `anchor`, at most `limit`
/// rows (oldest first, payloads left out: `mutation_row` reads one whole).
pub fn timeline_page(
    state: &AppState,
    query: &TimelineQuery,
    anchor: &Anchor,
    limit: u32,
) -> Result<Page<MutationRow>> {
    page_of(state, query, anchor, limit)
}

/// The chart of the mutations matching `query`: rows per bin, by agent or tool.
pub fn timeline_histogram(
    state: &AppState,
    query: &TimelineQuery,
    request: &HistogramRequest,
) -> Result<Histogram> {
    histogram_of::<MutationRow>(state, query, request)
}

/// The page of `query`'s rows (mutations or hook events, as `T`) at `anchor`.
pub(crate) fn page_of<T: TimelineRow>(
    state: &AppState,
    query: &TimelineQuery,
    anchor: &Anchor,
    limit: u32,
) -> Result<Page<T>> {
    let core = to_core_query(state, query)?;
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let page = or_empty(page::page(&core, anchor, limit), || Page {
        rows: Vec::new(),
        first: 0,
        total: 0,
        seen: Watermark::new(),
    })?;
    state.count_window_reads(page.rows.len().max(1));
    Ok(page)
}

/// The chart of `query`'s rows (mutations or hook events, as `T`).
pub(crate) fn histogram_of<T: TimelineRow>(
    state: &AppState,
    query: &TimelineQuery,
    request: &HistogramRequest,
) -> Result<Histogram> {
    let core = to_core_query(state, query)?;
    state.count_window_reads(1);
    or_empty(histogram::histogram::<T>(&core, request), || {
        let start = chrono::Utc::now();
        Histogram {
            bin: Bin::Minute,
            start: timefmt::format(start),
            end: timefmt::format(start + chrono::Duration::minutes(1)),
            bins: 1,
            series: Vec::new(),
            total: 0,
            first: None,
            last: None,
            seen: Watermark::new(),
        }
    })
}

/// `result`, or `empty()` for a project without a ledger: the Projects
/// screen lists repositories before their first event and folders outside
/// git; their timeline is simply empty.
pub(crate) fn or_empty<T>(result: hookd_core::Result<T>, empty: impl FnOnce() -> T) -> Result<T> {
    match result {
        Ok(value) => Ok(value),
        Err(hookd_core::Error::NoLedger { .. } | hookd_core::Error::NotARepository(_)) => {
            Ok(empty())
        }
        Err(err) => Err(err.into()),
    }
}

/// The core query for `query`, with the window's defaults.
pub fn to_core_query(state: &AppState, query: &TimelineQuery) -> Result<Query> {
    let repo = non_empty(query.repo.as_deref());
    let scope = match (repo, query.all) {
        (Some(_), true) => {
            return Err(AppError::invalid_input(
                "give either repo or all: true, not both",
            ));
        }
        (Some(repo), false) => QueryScope::Repo(PathBuf::from(repo)),
        (None, true) => QueryScope::All,
        (None, false) => {
            return Err(AppError::invalid_input(
                "timeline needs a repo, or all: true for every project",
            ));
        }
    };
    let now = chrono::Utc::now();
    let bound = |name: &str, value: Option<&str>| {
        non_empty(value)
            .map(|v| {
                timefmt::parse_time_bound(v, now)
                    .map_err(|err| AppError::invalid_input(format!("{name}: {err}")))
            })
            .transpose()
    };
    // A relative file is relative to the repository root: with the root as
    // the "current directory" the core resolves it that way for one
    // repository, and "/" does it per repository for `all`.
    let cwd = match &scope {
        QueryScope::Repo(dir) => std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone()),
        QueryScope::All => PathBuf::from("/"),
    };
    let cwd = hookd_core::project::discover_root(&cwd).unwrap_or(cwd);
    Ok(Query {
        scope,
        filter: MutationFilter {
            since: bound("since", query.since.as_deref())?,
            until: bound("until", query.until.as_deref())?,
            file: None,
            agent: non_empty(query.agent.as_deref()).map(str::to_owned),
            agent_kind: non_empty(query.agent_kind.as_deref())
                .map(|name| {
                    hookd_core::AgentKind::parse(name)
                        .map(|kind| kind.as_str().to_owned())
                        .ok_or_else(|| {
                            AppError::invalid_input(format!(
                                "agent_kind: {name:?} is not one of {}",
                                hookd_core::AgentKind::names()
                            ))
                        })
                })
                .transpose()?,
            session: non_empty(query.session.as_deref()).map(str::to_owned),
            event_type: non_empty(query.event_type.as_deref()).map(str::to_owned),
            branch: non_empty(query.branch.as_deref()).map(str::to_owned),
            tool: non_empty(query.tool.as_deref()).map(str::to_owned),
            search: non_empty(query.search.as_deref()).map(str::to_owned),
            limit: query.limit,
        },
        file_arg: non_empty(query.file.as_deref()).map(PathBuf::from),
        cwd,
        data_dir: state.data_dir.clone(),
    })
}

/// Empty strings from form fields mean "no filter".
fn non_empty(value: Option<&str>) -> Option<&str> {
    value.filter(|v| !v.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> (tempfile::TempDir, AppState) {
        let dir = tempfile::tempdir().unwrap();
        let state = AppState::new(dir.path().join("data"), dir.path().join("s.sock"), None);
        (dir, state)
    }

    #[test]
    fn json_fields_are_optional_and_snake_case() {
        let q: TimelineQuery =
            serde_json::from_value(serde_json::json!({"all": true, "limit": 5, "tool": "edit"}))
                .unwrap();
        assert!(q.all);
        assert_eq!(q.limit, Some(5));
        assert_eq!(q.tool.as_deref(), Some("edit"));
        let q: TimelineQuery = serde_json::from_value(serde_json::json!({
            "repo": "/r", "all": false, "since": null, "until": null, "file": null,
            "agent": null, "session": null, "event_type": null, "branch": null, "tool": null,
            "limit": null
        }))
        .unwrap();
        assert_eq!(q.repo.as_deref(), Some("/r"));
    }

    #[test]
    fn scope_must_be_a_repo_or_all() {
        let (_dir, state) = state();
        for query in [
            TimelineQuery::default(),
            TimelineQuery {
                repo: Some("/r".into()),
                all: true,
                ..TimelineQuery::default()
            },
        ] {
            let err = timeline(&state, &query).unwrap_err();
            assert_eq!(err.kind, crate::error::ErrorKind::InvalidInput, "{err}");
        }
    }

    #[test]
    fn bad_times_are_invalid_input_naming_the_field() {
        let (_dir, state) = state();
        let err = timeline(
            &state,
            &TimelineQuery {
                all: true,
                until: Some("tomorrowish".into()),
                ..TimelineQuery::default()
            },
        )
        .unwrap_err();
        assert_eq!(err.kind, crate::error::ErrorKind::InvalidInput);
        assert!(err.message.starts_with("until: "), "{}", err.message);
        assert!(err.message.contains("tomorrowish"), "{}", err.message);
    }

    #[test]
    fn empty_strings_are_no_filter() {
        let (_dir, state) = state();
        let query = to_core_query(
            &state,
            &TimelineQuery {
                all: true,
                since: Some(String::new()),
                tool: Some("  ".into()),
                file: Some(String::new()),
                ..TimelineQuery::default()
            },
        )
        .unwrap();
        assert_eq!(query.filter, MutationFilter::default());
        assert_eq!(query.file_arg, None);
    }

    /// A repository with `n` Writes a minute apart by two agents, recorded
    /// into its real ledger, and the app's state over the same data dir.
    fn seeded(n: usize) -> (hookd_testkit::TestEnv, hookd_testkit::GitRepo, AppState) {
        use hookd_testkit::{Event, GitRepo, TestEnv, record};
        let env = TestEnv::new();
        let repo = GitRepo::new();
        let times: Vec<String> = (0..n)
            .map(|i| format!("2026-11-20T{:02}:{:02}:00.000Z", 10 + i / 60, i % 60))
            .collect();
        let files: Vec<String> = (0..n).map(|i| format!("f{i}.txt")).collect();
        let events: Vec<Event<'_>> = (0..n)
            .map(|i| {
                let mut e = Event::write(&files[i], &times[i]);
                if i % 3 == 0 {
                    e.agent = "agent-b";
                }
                e
            })
            .collect();
        record(&env, &repo, &events);
        let state = AppState::new(env.data_dir(), env.socket(), None);
        (env, repo, state)
    }

    fn repo_query(repo: &hookd_testkit::GitRepo) -> TimelineQuery {
        TimelineQuery {
            repo: Some(repo.root().display().to_string()),
            ..TimelineQuery::default()
        }
    }

    fn files(rows: &[MutationRow]) -> Vec<String> {
        rows.iter()
            .map(|r| r.record.file_path.clone().unwrap_or_default())
            .collect()
    }

    #[test]
    fn pages_read_the_end_a_position_and_what_was_committed_since() {
        let (env, repo, state) = seeded(30);
        let query = repo_query(&repo);

        let newest = timeline_page(&state, &query, &Anchor::Newest, 10).unwrap();
        assert_eq!(newest.total, 30);
        assert_eq!(newest.first, 20);
        assert_eq!(
            files(&newest.rows).first().map(String::as_str),
            Some("f20.txt")
        );
        assert_eq!(
            files(&newest.rows).last().map(String::as_str),
            Some("f29.txt")
        );
        assert!(
            newest.rows.iter().all(|r| r.record.raw_payload.is_empty()),
            "pages leave payloads out"
        );

        let middle = timeline_page(&state, &query, &Anchor::Position { position: 12 }, 5).unwrap();
        assert_eq!(middle.first, 12);
        assert_eq!(
            files(&middle.rows),
            ["f12.txt", "f13.txt", "f14.txt", "f15.txt", "f16.txt"]
        );

        // Nothing new yet; then two more rows, one of them older than the rest.
        let none = timeline_page(
            &state,
            &query,
            &Anchor::NewerThan {
                seen: newest.seen.clone(),
            },
            10,
        )
        .unwrap();
        assert!(none.rows.is_empty());
        assert_eq!(none.total, 30);
        hookd_testkit::record(
            &env,
            &repo,
            &[
                hookd_testkit::Event::write("late.txt", "2026-11-20T09:00:00.000Z"),
                hookd_testkit::Event::write("new.txt", "2026-11-20T11:00:00.000Z"),
            ],
        );
        let since =
            timeline_page(&state, &query, &Anchor::NewerThan { seen: newest.seen }, 10).unwrap();
        assert_eq!(since.total, 32);
        assert_eq!(files(&since.rows), ["late.txt", "new.txt"]);
        assert_eq!(
            since.first, 0,
            "the late row sorts first: the list must refetch"
        );
    }

    #[test]
    fn the_filter_narrows_pages_and_histograms() {
        let (_env, repo, state) = seeded(30);
        let query = TimelineQuery {
            agent: Some("agent-b".into()),
            ..repo_query(&repo)
        };
        let page = timeline_page(&state, &query, &Anchor::Oldest, 100).unwrap();
        assert_eq!(page.total, 10);
        assert!(page.rows.iter().all(|r| r.record.agent_id == "agent-b"));

        let chart = timeline_histogram(
            &state,
            &repo_query(&repo),
            &HistogramRequest {
                series: hookd_core::ledger::histogram::SeriesBy::Agent,
                ..HistogramRequest::default()
            },
        )
        .unwrap();
        assert_eq!(chart.bin, Bin::Minute, "half an hour is counted per minute");
        assert_eq!(chart.total, 30);
        let counts: Vec<(&str, u64)> = chart
            .series
            .iter()
            .map(|s| (s.name.as_str(), s.total))
            .collect();
        assert_eq!(counts, [("agent-a", 20), ("agent-b", 10)]);
        assert_eq!(chart.first.as_deref(), Some("2026-11-20T10:00:00.000Z"));
        assert_eq!(chart.last.as_deref(), Some("2026-11-20T10:29:00.000Z"));
        let narrowed = timeline_histogram(&state, &query, &HistogramRequest::default()).unwrap();
        assert_eq!(narrowed.total, 10);
    }

    #[test]
    fn a_project_without_a_ledger_is_an_empty_page_and_chart() {
        let dir = tempfile::tempdir().unwrap();
        let repo = hookd_testkit::GitRepo::new();
        let state = AppState::new(dir.path().join("data"), dir.path().join("s.sock"), None);
        let page = timeline_page(&state, &repo_query(&repo), &Anchor::Newest, 200).unwrap();
        assert_eq!((page.rows.len(), page.first, page.total), (0, 0, 0));
        let chart =
            timeline_histogram(&state, &repo_query(&repo), &HistogramRequest::default()).unwrap();
        assert_eq!(chart.total, 0);
        assert!(chart.series.is_empty());
        let err =
            timeline_page(&state, &TimelineQuery::default(), &Anchor::Newest, 10).unwrap_err();
        assert_eq!(err.kind, crate::error::ErrorKind::InvalidInput);
    }
}
