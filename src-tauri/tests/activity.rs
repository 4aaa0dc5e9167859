//! `agent_activity`, `previous_content`, `mutation_diff` and
//! `event_mutations` against real ledgers and real git repositories: an
//! agent's every event with its hook runs, a Write against what its file
//! held before, the diff a row shows beside its stored line counts, and the
//! files one Bash command changed.

mod common;

use common::{DesktopEnv, repo_query};
use hookd_core::diff::{ChangeKind, DiffOp, LineCounts};
use hookd_core::ledger::Ledger;
use hookd_core::ledger::page::Anchor;
use hookd_core::ledger::previous::PreviousSource;
use hookd_core::record::{HookRunRecord, LedgerEntry, RepoFacts};
use hookd_desktop::ErrorKind;
use hookd_desktop::activity::agent_activity;
use hookd_desktop::history::{
    EventRef, RowRef, event_mutations, mutation_diff, mutation_row, payload_diff, previous_content,
};
use hookd_desktop::timeline::{TimelineQuery, timeline, timeline_page};
use hookd_testkit::{Event, GitRepo, TestEnv, record};

fn run(event_id: &str, run_id: &str, decision: Option<&str>, exit_code: i32) -> HookRunRecord {
    HookRunRecord {
        run_id: run_id.into(),
        event_id: event_id.into(),
        hook_type: "user_prompt_submit".into(),
        tool_name: None,
        session_id: Some("agent-a".into()),
        tool_use_id: None,
        scope: "project".into(),
        source: "/p/.claude/settings.json".into(),
        matcher: None,
        command: format!("./check-{run_id}.sh"),
        exit_code: Some(exit_code),
        timed_out: false,
        decision: decision.map(str::to_owned),
        duration_ms: 12.5,
        stdout: String::new(),
        stderr: "secrets in the prompt".into(),
        output_truncated: false,
        error: None,
        started_at: "2026-11-20T10:00:00.100Z".into(),
        skipped: None,
    }
}

#[test]
fn an_agents_activity_has_every_event_and_its_hook_runs() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let mut by_b = Event::write("b.txt", "2026-11-20T10:02:00.000Z");
    by_b.agent = "agent-b";
    record(
        &env,
        &repo,
        &[
            Event::prompt("2026-11-20T10:00:00.000Z"),
            Event::write("a.txt", "2026-11-20T10:01:00.000Z"),
            by_b,
            Event::prompt("2026-11-20T10:03:00.000Z"),
        ],
    );
    let query = TimelineQuery {
        agent: Some("agent-a".into()),
        ..repo_query(&repo)
    };
    let events = agent_activity(&state, &query).unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e.hook_type.as_str()).collect();
    assert_eq!(
        kinds,
        ["user_prompt_submit", "post_tool_use", "user_prompt_submit"]
    );
    assert_eq!(events[1].mutations, 1);
    assert_eq!(events[0].mutations, 0);
    assert!(events.iter().all(|e| e.hook_runs.is_empty()));

    // Managed hooks answered the first prompt: one blocked it.
    let mut ledger = Ledger::open_existing(&repo.ledger_path()).unwrap();
    ledger
        .append_hook_runs(&[
            run(&events[0].event_id, "r1", None, 0),
            run(&events[0].event_id, "r2", Some("block"), 2),
        ])
        .unwrap();
    let events = agent_activity(&state, &query).unwrap();
    let first = &events[0];
    assert_eq!(first.hook_runs.len(), 2);
    assert_eq!(first.hook_runs[1].decision.as_deref(), Some("block"));
    assert_eq!(first.hook_runs[1].exit_code, Some(2));
    assert_eq!(first.hook_runs[1].stderr, "secrets in the prompt");

    // The JSON the window receives.
    let value = serde_json::to_value(first).unwrap();
    for key in [
        "id",
        "event_id",
        "hook_type",
        "agent_id",
        "session_id",
        "raw_payload",
        "event_timestamp",
        "mutations",
        "hook_runs",
    ] {
        assert!(value.get(key).is_some(), "missing {key} in {value}");
    }
    assert_eq!(value["hook_runs"][1]["decision"], "block");
    assert!(value.get("repo").is_none(), "one repository: no repo key");

    // The timeline's filters apply: event type, time, limit, and `all`.
    let prompts = agent_activity(
        &state,
        &TimelineQuery {
            event_type: Some("UserPromptSubmit".into()),
            ..repo_query(&repo)
        },
    )
    .unwrap();
    assert_eq!(prompts.len(), 2);
    let newest = agent_activity(
        &state,
        &TimelineQuery {
            limit: Some(1),
            ..query.clone()
        },
    )
    .unwrap();
    assert_eq!(newest.len(), 1);
    assert_eq!(newest[0].event_timestamp, "2026-11-20T10:03:00.000Z");
    let everywhere = agent_activity(
        &state,
        &TimelineQuery {
            all: true,
            agent: Some("agent-b".into()),
            ..TimelineQuery::default()
        },
    )
    .unwrap();
    assert_eq!(everywhere.len(), 1);
    assert_eq!(
        everywhere[0].repo.as_deref(),
        Some(repo.root().display().to_string().as_str())
    );

    // No ledger yet: no activity, not an error. A bad time: invalid input.
    let fresh = GitRepo::new();
    assert!(
        agent_activity(&state, &repo_query(&fresh))
            .unwrap()
            .is_empty()
    );
    let err = agent_activity(
        &state,
        &TimelineQuery {
            since: Some("whenever".into()),
            ..query
        },
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
}

#[test]
fn a_write_is_compared_with_the_previous_write_else_git_else_nothing() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new(); // README.md is committed as "hello\n"
    let mut second = Event::write("README.md", "2026-11-20T10:05:00.000Z");
    second.content = "one\ntwo\nthree\n";
    second.agent = "agent-b";
    record(
        &env,
        &repo,
        &[
            Event::write("README.md", "2026-11-20T10:00:00.000Z"),
            Event::write("new.txt", "2026-11-20T10:01:00.000Z"),
            second,
        ],
    );
    let rows = timeline(&state, &repo_query(&repo)).unwrap();
    let id_of = |file: &str, nth: usize| {
        rows.iter()
            .filter(|r| r.record.file_path.as_deref() == Some(file))
            .nth(nth)
            .unwrap()
            .id
    };
    let in_repo = |id| RowRef {
        // Any directory inside the repository will do.
        repo: Some(repo.root().join("src").display().to_string()),
        id,
    };

    let later = previous_content(&state, &in_repo(id_of("README.md", 1))).unwrap();
    assert_eq!(later.content.as_deref(), Some("one\ntwo\n"));
    match &later.source {
        PreviousSource::Write {
            agent_id,
            event_timestamp,
            ..
        } => {
            assert_eq!(agent_id, "agent-a");
            assert_eq!(event_timestamp, "2026-11-20T10:00:00.000Z");
        }
        other => panic!("expected the first Write, got {other:?}"),
    }

    let first = previous_content(&state, &in_repo(id_of("README.md", 0))).unwrap();
    let head = repo.repo.head().unwrap().target().unwrap().to_string();
    assert_eq!(first.source, PreviousSource::Git { sha: head });
    assert_eq!(first.content.as_deref(), Some("hello\n"));

    let new = previous_content(&state, &in_repo(id_of("new.txt", 0))).unwrap();
    assert_eq!(new.source, PreviousSource::None);
    assert_eq!(new.content, None);

    // The JSON the window receives: the source is tagged by kind.
    let value = serde_json::to_value(&later).unwrap();
    assert_eq!(value["source"]["kind"], "write");
    assert_eq!(value["changes_between"], 0);
    let value = serde_json::to_value(&first).unwrap();
    assert_eq!(value["source"]["kind"], "git");

    let err = previous_content(&state, &in_repo(99_999)).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound, "{err}");
    let err = previous_content(&state, &RowRef { repo: None, id: 1 }).unwrap_err();
    assert_eq!(
        err.kind,
        ErrorKind::NotFound,
        "no ledger outside git yet: {err}"
    );
}

#[test]
fn a_list_without_payloads_and_one_row_read_whole() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    record(
        &env,
        &repo,
        &[
            Event::write("README.md", "2026-11-20T10:00:00.000Z"),
            Event::write("new.txt", "2026-11-20T10:01:00.000Z"),
        ],
    );
    let whole = timeline(&state, &repo_query(&repo)).unwrap();
    let light = timeline_page(&state, &repo_query(&repo), &Anchor::Newest, 200)
        .unwrap()
        .rows;
    assert_eq!(light.len(), 2);
    for (light, whole) in light.iter().zip(&whole) {
        assert!(
            whole.record.raw_payload.contains("\"tool_name\""),
            "{whole:?}"
        );
        assert_eq!(light.record.raw_payload, "");
        assert_eq!(light.id, whole.id);
        assert_eq!(light.record.file_path, whole.record.file_path);

        // The detail panel reads the row whole, by any directory in the repository.
        let row = mutation_row(
            &state,
            &RowRef {
                repo: Some(repo.root().display().to_string()),
                id: light.id,
            },
        )
        .unwrap();
        assert_eq!(&row, whole);
    }
    let err = mutation_row(
        &state,
        &RowRef {
            repo: Some(repo.root().display().to_string()),
            id: 99_999,
        },
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound, "{err}");
}

#[test]
fn every_file_of_a_bash_command_is_listed() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    record(
        &env,
        &repo,
        &[Event::write("a.txt", "2026-11-20T10:00:00.000Z")],
    );
    // A Bash event that changed two files, as the Bash tracker records it.
    let root = repo.root();
    let mut bash = Event::write("unused", "2026-11-20T10:01:00.000Z");
    bash.tool = "Bash";
    let event =
        hookd_core::daemon::server::parse_envelope(bash.envelope(&root).to_string().as_bytes())
            .unwrap();
    let facts = RepoFacts {
        git_root: Some(root.clone()),
        branch: "main".into(),
        head_sha: String::new(),
        remote_url: None,
    };
    let mutations = ["out/one.txt", "README.md"]
        .iter()
        .enumerate()
        .map(|(seq, file)| {
            hookd_core::record::MutationRecord::for_event(
                &event,
                &facts,
                "Bash",
                i64::try_from(seq).unwrap(),
                Some((*file).to_owned()),
                None,
            )
        })
        .collect();
    let event_id = event.event_id.clone();
    Ledger::open_existing(&repo.ledger_path())
        .unwrap()
        .append(&[LedgerEntry {
            event,
            repo: facts,
            mutations,
        }])
        .unwrap();

    let rows = event_mutations(
        &state,
        &EventRef {
            repo: Some(root.display().to_string()),
            event_id: event_id.clone(),
        },
    )
    .unwrap();
    let files: Vec<&str> = rows
        .iter()
        .map(|r| r.record.file_path.as_deref().unwrap())
        .collect();
    assert_eq!(files, ["out/one.txt", "README.md"]);
    assert!(rows.iter().all(|r| r.record.tool_name == "Bash"));

    let none = event_mutations(
        &state,
        &EventRef {
            repo: Some(root.display().to_string()),
            event_id: "no-such-event".into(),
        },
    )
    .unwrap();
    assert!(none.is_empty());
    let err = event_mutations(
        &state,
        &EventRef {
            repo: Some("/definitely/not/here".into()),
            event_id,
        },
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound, "{err}");
}

#[test]
fn the_diff_a_row_shows_agrees_with_its_stored_line_counts() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new(); // README.md is committed as "hello\n"
    let mut rewrite = Event::write("README.md", "2026-11-20T10:02:00.000Z");
    rewrite.content = "one\ntwo\nthree\n";
    record(
        &env,
        &repo,
        &[
            Event::edit(
                "src/a.rs",
                "let a = 1;",
                "let a = 2;",
                "2026-11-20T10:00:00.000Z",
            ),
            Event::write("new.txt", "2026-11-20T10:01:00.000Z"),
            rewrite,
        ],
    );
    let rows = timeline(&state, &repo_query(&repo)).unwrap();
    let row = |file: &str| {
        rows.iter()
            .find(|r| r.record.file_path.as_deref() == Some(file))
            .unwrap()
    };
    let diff_of = |file: &str| {
        mutation_diff(
            &state,
            &RowRef {
                repo: Some(repo.root().display().to_string()),
                id: row(file).id,
            },
        )
        .unwrap()
    };
    let counts = |added, removed| LineCounts { added, removed };

    // A one-line Edit: +1 −1, stored and shown.
    let edit = diff_of("src/a.rs");
    let change = edit.change.unwrap();
    assert_eq!(change.kind, ChangeKind::Edit);
    let ops: Vec<DiffOp> = change.blocks[0].lines.iter().map(|l| l.op).collect();
    assert_eq!(ops, [DiffOp::Del, DiffOp::Add]);
    assert_eq!(change.counts, counts(1, 1));
    assert_eq!(edit.recorded, Some(counts(1, 1)));
    assert_eq!(
        (
            row("src/a.rs").record.lines_added,
            row("src/a.rs").record.lines_removed
        ),
        (Some(1), Some(1))
    );

    // A new file: nothing earlier, every line added, as stored.
    let new = diff_of("new.txt");
    assert_eq!(new.change.unwrap().counts, counts(2, 0));
    assert_eq!(new.recorded, Some(counts(2, 0)));
    assert_eq!(new.previous.unwrap().source, PreviousSource::None);

    // A Write over a committed file: shown against git, stored against nothing.
    let over = diff_of("README.md");
    assert_eq!(
        over.change.unwrap().counts,
        counts(3, 1),
        "hello → one two three"
    );
    assert_eq!(over.recorded, Some(counts(3, 0)));
    let previous = over.previous.unwrap();
    assert!(matches!(previous.source, PreviousSource::Git { .. }));
    assert_eq!(previous.content, None, "the diff holds it");

    // The JSON the window receives.
    let value = serde_json::to_value(diff_of("src/a.rs")).unwrap();
    assert_eq!(value["change"]["kind"], "edit");
    assert_eq!(value["change"]["blocks"][0]["lines"][0]["op"], "del");
    assert_eq!(
        value["recorded"],
        serde_json::json!({"added": 1, "removed": 1})
    );

    // An activity event's payload, by the same rule.
    let payload = r#"{"tool_input": {"old_string": "a", "new_string": "b\nc"}}"#;
    assert_eq!(payload_diff(payload).unwrap().counts, counts(2, 1));
    assert_eq!(payload_diff(r#"{"prompt": "hi"}"#), None);
}
