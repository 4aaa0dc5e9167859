//! `timeline` against real ledgers: the filters, the row shape, and the
//! rules a window needs (no ledger → empty, relative files from the root).

mod common;

use common::{DesktopEnv, repo_query};
use hookd_desktop::ErrorKind;
use hookd_desktop::timeline::{TimelineQuery, timeline};
use hookd_testkit::{Event, GitRepo, TestEnv, record};
use serde_json::Value;

fn files(rows: &[hookd_core::record::MutationRow]) -> Vec<String> {
    rows.iter()
        .map(|r| r.record.file_path.clone().unwrap_or_default())
        .collect()
}

/// A repository with four mutations by two agents on two branches.
fn seeded(env: &TestEnv) -> GitRepo {
    let repo = GitRepo::new();
    let mut on_feature = Event::write("src/deep/lib.rs", "2026-11-20T10:01:00.000Z");
    on_feature.branch = "feature";
    let mut by_b = Event::write("a.txt", "2026-11-20T10:02:00.000Z");
    by_b.agent = "agent-b";
    let mut edit = Event::write("README.md", "2026-11-20T10:03:00.000Z");
    edit.tool = "Edit";
    record(
        env,
        &repo,
        &[
            Event::write("a.txt", "2026-11-20T10:00:00.000Z"),
            on_feature,
            by_b,
            Event::prompt("2026-11-20T10:02:30.000Z"),
            edit,
        ],
    );
    repo
}

#[test]
fn rows_come_oldest_first_and_every_filter_narrows() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = seeded(&env);

    let all = timeline(&state, &repo_query(&repo)).unwrap();
    assert_eq!(
        files(&all),
        ["a.txt", "src/deep/lib.rs", "a.txt", "README.md"]
    );

    let cases: Vec<(TimelineQuery, Vec<&str>)> = vec![
        (
            TimelineQuery {
                file: Some("a.txt".into()),
                ..repo_query(&repo)
            },
            vec!["a.txt", "a.txt"],
        ),
        (
            TimelineQuery {
                file: Some(repo.root().join("src/deep/lib.rs").display().to_string()),
                ..repo_query(&repo)
            },
            vec!["src/deep/lib.rs"],
        ),
        (
            TimelineQuery {
                agent: Some("agent-b".into()),
                ..repo_query(&repo)
            },
            vec!["a.txt"],
        ),
        (
            TimelineQuery {
                branch: Some("feature".into()),
                ..repo_query(&repo)
            },
            vec!["src/deep/lib.rs"],
        ),
        (
            TimelineQuery {
                tool: Some("edit".into()),
                ..repo_query(&repo)
            },
            vec!["README.md"],
        ),
        (
            TimelineQuery {
                since: Some("2026-11-20T10:01:00Z".into()),
                until: Some("2026-11-20T10:03:00Z".into()),
                ..repo_query(&repo)
            },
            vec!["src/deep/lib.rs", "a.txt"],
        ),
        (
            TimelineQuery {
                limit: Some(2),
                ..repo_query(&repo)
            },
            vec!["a.txt", "README.md"],
        ),
        (
            TimelineQuery {
                since: Some("1h".into()),
                ..repo_query(&repo)
            },
            vec![],
        ),
    ];
    for (query, expected) in cases {
        let rows = timeline(&state, &query).unwrap();
        assert_eq!(files(&rows), expected, "{query:?}");
    }
}

#[test]
fn a_relative_file_is_relative_to_the_root_even_from_a_subfolder() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = seeded(&env);
    let rows = timeline(
        &state,
        &TimelineQuery {
            repo: Some(repo.root().join("src/deep").display().to_string()),
            file: Some("src/deep/lib.rs".into()),
            ..TimelineQuery::default()
        },
    )
    .unwrap();
    assert_eq!(files(&rows), ["src/deep/lib.rs"]);
}

#[test]
fn rows_are_the_json_hookd_query_prints() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = seeded(&env);
    let rows = timeline(&state, &repo_query(&repo)).unwrap();
    let value = serde_json::to_value(&rows).unwrap();
    let first = value[0].as_object().unwrap();
    for key in [
        "id",
        "event_type",
        "hook_type",
        "tool_name",
        "agent_id",
        "file_path",
        "file_ext",
        "lines_changed",
        "lines_added",
        "lines_removed",
        "branch",
        "head_sha",
        "raw_payload",
        "event_timestamp",
        "received_at",
        "event_id",
        "mutation_seq",
        "session_id",
        "tool_use_id",
        "remote_url",
        "command",
        "source_pid",
    ] {
        assert!(first.contains_key(key), "missing {key} in {first:?}");
    }
    assert!(!first.contains_key("repo"), "one repository: no repo key");
    assert_eq!(first["event_type"], "tool.mutation.write");
    assert_eq!(first["lines_changed"], 2);
    assert_eq!(
        (&first["lines_added"], &first["lines_removed"]),
        (&2.into(), &0.into())
    );
    assert_eq!(first["agent_id"], "agent-a");

    // `all` reads every registered project and labels rows with their repo.
    let other = GitRepo::new();
    record(
        &env,
        &other,
        &[Event::write("z.txt", "2026-11-20T09:00:00.000Z")],
    );
    let rows = timeline(
        &state,
        &TimelineQuery {
            all: true,
            ..TimelineQuery::default()
        },
    )
    .unwrap();
    assert_eq!(rows.len(), 5);
    assert_eq!(
        rows[0].repo.as_deref(),
        Some(other.root().display().to_string().as_str())
    );
    let value: Value = serde_json::to_value(&rows[1]).unwrap();
    assert_eq!(value["repo"], repo.root().display().to_string());
}

#[test]
fn a_project_without_a_ledger_has_an_empty_timeline() {
    let env = TestEnv::new();
    let state = env.state();
    let fresh = GitRepo::new();
    assert!(timeline(&state, &repo_query(&fresh)).unwrap().is_empty());
    let plain = env.plain_dir("notes");
    let rows = timeline(
        &state,
        &TimelineQuery {
            repo: Some(plain.display().to_string()),
            ..TimelineQuery::default()
        },
    )
    .unwrap();
    assert!(rows.is_empty(), "a folder outside git (added by hand)");
    // `all` with nothing registered at all.
    let rows = timeline(
        &state,
        &TimelineQuery {
            all: true,
            ..TimelineQuery::default()
        },
    )
    .unwrap();
    assert!(rows.is_empty());
}

#[test]
fn errors_are_typed() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = seeded(&env);
    let err = timeline(
        &state,
        &TimelineQuery {
            since: Some("last tuesday".into()),
            ..repo_query(&repo)
        },
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
    let value = serde_json::to_value(&err).unwrap();
    assert_eq!(value["kind"], "invalid_input");
    assert!(value["message"].as_str().unwrap().contains("last tuesday"));

    let err = timeline(
        &state,
        &TimelineQuery {
            repo: Some("/definitely/not/here".into()),
            ..TimelineQuery::default()
        },
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound, "{err}");
}

#[test]
fn session_and_event_type_narrow_the_timeline() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = seeded(&env);
    let cases: Vec<(TimelineQuery, Vec<&str>)> = vec![
        // The seeded events use the agent id as their session id.
        (
            TimelineQuery {
                session: Some("agent-b".into()),
                ..repo_query(&repo)
            },
            vec!["a.txt"],
        ),
        (
            TimelineQuery {
                session: Some("nobody".into()),
                ..repo_query(&repo)
            },
            vec![],
        ),
        (
            TimelineQuery {
                event_type: Some("PostToolUse".into()),
                ..repo_query(&repo)
            },
            vec!["a.txt", "src/deep/lib.rs", "a.txt", "README.md"],
        ),
        (
            TimelineQuery {
                event_type: Some("post_tool_use".into()),
                session: Some("agent-a".into()),
                tool: Some("edit".into()),
                ..repo_query(&repo)
            },
            vec!["README.md"],
        ),
        (
            TimelineQuery {
                event_type: Some("UserPromptSubmit".into()),
                ..repo_query(&repo)
            },
            vec![],
        ),
        (
            TimelineQuery {
                event_type: Some("  ".into()),
                session: Some(String::new()),
                ..repo_query(&repo)
            },
            vec!["a.txt", "src/deep/lib.rs", "a.txt", "README.md"],
        ),
    ];
    for (query, expected) in cases {
        let rows = timeline(&state, &query).unwrap();
        assert_eq!(files(&rows), expected, "{query:?}");
    }
}
