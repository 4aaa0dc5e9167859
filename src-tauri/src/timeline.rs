//! The mutation timeline: `hookd query` for the window. Same resolution
//! rules and the same rows (`MutationRow` serialises exactly as
//! `hookd query --format json` prints it), with two differences a window
//! needs: a project without a ledger yet is an empty timeline, not an error,
//! and a relative `file` is relative to the project root (a window has no
//! current directory).

use std::path::PathBuf;

use hookd_core::ledger::MutationFilter;
use hookd_core::ledger::query::{Query, QueryScope};
use hookd_core::record::MutationRow;
use hookd_core::timefmt;
use serde::Deserialize;
use ts_rs::TS;

use crate::error::{AppError, Result};
use crate::state::AppState;

/// The `timeline` command's argument; every field is optional in JSON.
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
    /// Only this agent session (`session_id`).
    pub session: Option<String>,
    /// Only this hook event type, either spelling (`PostToolUse`, `post_tool_use`).
    pub event_type: Option<String>,
    /// Only this branch.
    pub branch: Option<String>,
    /// Only this tool, case-insensitive.
    pub tool: Option<String>,
    /// Only the newest N (still returned oldest first).
    pub limit: Option<u64>,
    /// Leave every row's `raw_payload` empty. The list never shows it, and
    /// at 100,000 rows the payloads are most of the bytes sent to the
    /// window; the detail panel reads one row whole with `mutation_row`.
    pub omit_payload: bool,
}

/// Mutations matching `query`, oldest first.
pub fn timeline(state: &AppState, query: &TimelineQuery) -> Result<Vec<MutationRow>> {
    let core = to_core_query(state, query)?;
    match hookd_core::ledger::query::run(&core) {
        Ok(mut rows) => {
            if query.omit_payload {
                for row in &mut rows {
                    row.record.raw_payload = String::new();
                }
            }
            Ok(rows)
        }
        // The Projects screen lists repositories before their first event and
        // folders outside git; their timeline is simply empty.
        Err(hookd_core::Error::NoLedger { .. } | hookd_core::Error::NotARepository(_)) => {
            Ok(Vec::new())
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
            session: non_empty(query.session.as_deref()).map(str::to_owned),
            event_type: non_empty(query.event_type.as_deref()).map(str::to_owned),
            branch: non_empty(query.branch.as_deref()).map(str::to_owned),
            tool: non_empty(query.tool.as_deref()).map(str::to_owned),
            search: None,
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
            "limit": null, "omit_payload": true
        }))
        .unwrap();
        assert_eq!(q.repo.as_deref(), Some("/r"));
        assert!(q.omit_payload);
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
}
