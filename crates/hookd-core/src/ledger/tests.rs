use super::*;
use crate::record::{HookEvent, HookRunRecord, RepoFacts};

pub(super) fn entry(id: &str, ts: &str, file: &str, agent: &str, tool: &str) -> LedgerEntry {
    let event = HookEvent {
        event_id: id.into(),
        hook_type: "post_tool_use".into(),
        tool_name: Some(tool.into()),
        agent_id: agent.into(),
        session_id: Some("s".into()),
        tool_use_id: Some(format!("tu-{id}")),
        cwd: None,
        file_path: None,
        lines_changed: Some(1),
        lines_added: None,
        lines_removed: None,
        command: None,
        payload_valid: true,
        raw_payload: "{}".into(),
        event_timestamp: ts.into(),
        received_at: ts.into(),
        source_pid: Some(1),
        flags: Vec::new(),
        agent_kind: crate::record::claude(),
    };
    let repo = RepoFacts {
        git_root: None,
        branch: "main".into(),
        head_sha: "abc".into(),
        remote_url: None,
    };
    let mutation = crate::record::MutationRecord::for_event(
        &event,
        &repo,
        tool,
        0,
        Some(file.into()),
        Some(1),
    );
    LedgerEntry {
        event,
        repo,
        mutations: vec![mutation],
    }
}

/// A Write of `file` by agent `a` at `minute` past midnight on
/// 2026-01-01, its event and mutation holding `payload`.
pub(super) fn write_with(id: &str, minute: u32, file: &str, payload: &str) -> LedgerEntry {
    let mut e = entry(
        id,
        &format!("2026-01-01T00:{minute:02}:00.000Z"),
        file,
        "a",
        "Write",
    );
    e.event.raw_payload = payload.into();
    e.mutations[0].raw_payload = payload.into();
    e
}

#[test]
fn append_is_idempotent_on_event_id() {
    let mut ledger = Ledger::in_memory().unwrap();
    let batch = vec![entry(
        "a",
        "2026-01-01T00:00:00.000Z",
        "x.rs",
        "ag",
        "Write",
    )];
    assert_eq!(ledger.append(&batch).unwrap(), 1);
    assert_eq!(ledger.append(&batch).unwrap(), 0);
    assert_eq!(ledger.counts().unwrap(), (1, 1));
}

#[test]
fn updates_and_deletes_are_rejected_by_the_database() {
    let mut ledger = Ledger::in_memory().unwrap();
    ledger
        .append(&[entry(
            "a",
            "2026-01-01T00:00:00.000Z",
            "x.rs",
            "ag",
            "Write",
        )])
        .unwrap();
    for sql in [
        "UPDATE mutations SET agent_id = 'x'",
        "DELETE FROM mutations",
        "UPDATE events SET agent_id = 'x'",
        "DELETE FROM events",
    ] {
        let err = ledger.connection().execute(sql, []).unwrap_err();
        assert!(err.to_string().contains("append-only"), "{sql}: {err}");
    }
    assert_eq!(ledger.counts().unwrap(), (1, 1));
}

#[test]
fn filters_combine_and_results_are_chronological() {
    let mut ledger = Ledger::in_memory().unwrap();
    // Appended out of order on purpose.
    ledger
        .append(&[
            entry("3", "2026-01-03T00:00:00.000Z", "a.rs", "alice", "Edit"),
            entry("1", "2026-01-01T00:00:00.000Z", "a.rs", "alice", "Write"),
            entry("2", "2026-01-02T00:00:00.000Z", "b.rs", "bob", "Write"),
            entry("4", "2026-01-04T00:00:00.000Z", "a.rs", "bob", "MultiEdit"),
        ])
        .unwrap();
    let ids = |filter: &MutationFilter| -> Vec<String> {
        ledger
            .mutations(filter)
            .unwrap()
            .into_iter()
            .map(|r| r.record.event_id)
            .collect()
    };
    assert_eq!(ids(&MutationFilter::default()), ["1", "2", "3", "4"]);
    let by_file = MutationFilter {
        file: Some("a.rs".into()),
        ..Default::default()
    };
    assert_eq!(ids(&by_file), ["1", "3", "4"]);
    let by_agent_and_tool = MutationFilter {
        agent: Some("bob".into()),
        tool: Some("write".into()),
        ..Default::default()
    };
    assert_eq!(ids(&by_agent_and_tool), ["2"]);
    let since = "2026-01-02T00:00:00Z".parse().unwrap();
    let until = "2026-01-04T00:00:00Z".parse().unwrap();
    let window = MutationFilter {
        since: Some(since),
        until: Some(until),
        ..Default::default()
    };
    assert_eq!(ids(&window), ["2", "3"]);
    let newest_two = MutationFilter {
        limit: Some(2),
        ..Default::default()
    };
    assert_eq!(ids(&newest_two), ["3", "4"]);
}

#[test]
fn a_new_ledger_and_its_side_files_are_readable_by_their_owner_only() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".hookd").join("mutations.db");
    let mut ledger = Ledger::open_or_create(&path).unwrap();
    ledger
        .append(&[entry(
            "a",
            "2026-01-01T00:00:00.000Z",
            "x.rs",
            "ag",
            "Write",
        )])
        .unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&with_suffix(&path, "-wal")), 0o600);
    assert_eq!(mode(&with_suffix(&path, "-shm")), 0o600);
    drop(ledger);

    // An existing ledger keeps the mode its owner gave it.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    drop(Ledger::open_or_create(&path).unwrap());
    assert_eq!(mode(&path), 0o640);

    // A planted link is never followed to create a file.
    let target = dir.path().join("elsewhere.db");
    let planted = dir.path().join(".hookd").join("planted.db");
    std::os::unix::fs::symlink(&target, &planted).unwrap();
    assert!(Ledger::open_or_create(&planted).is_err());
    assert!(!target.exists());
}

#[test]
fn a_new_repo_state_dir_is_gitignored_and_missing_ledgers_are_not_created() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".hookd").join("mutations.db");
    let err = Ledger::open_existing(&path).err().expect("must not create");
    assert!(err.to_string().contains("mutations.db"), "{err}");
    assert!(!path.exists());

    let mut ledger = Ledger::open_or_create(&path).unwrap();
    ledger
        .append(&[entry(
            "a",
            "2026-01-01T00:00:00.000Z",
            "x.rs",
            "ag",
            "Write",
        )])
        .unwrap();
    let ignore = std::fs::read_to_string(dir.path().join(".hookd/.gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "*"));
    assert!(
        !ignore.contains('!'),
        "nothing is shared without a settings file: {ignore}"
    );
    drop(ledger);
    let reopened = Ledger::open_existing(&path).unwrap();
    assert_eq!(reopened.counts().unwrap(), (1, 1));
    let mode: String = reopened
        .connection()
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn hook_runs_are_stored_once_and_append_only() {
    let mut ledger = Ledger::in_memory().unwrap();
    let run = HookRunRecord {
        run_id: "r1".into(),
        event_id: "e1".into(),
        hook_type: "pre_tool_use".into(),
        tool_name: Some("Bash".into()),
        session_id: Some("s".into()),
        tool_use_id: Some("t".into()),
        scope: "project".into(),
        source: "/p/.hookd/settings.json".into(),
        matcher: Some("Bash".into()),
        command: "exit 2".into(),
        exit_code: Some(2),
        timed_out: false,
        decision: Some("deny".into()),
        duration_ms: 1.5,
        stdout: String::new(),
        stderr: "no".into(),
        output_truncated: false,
        error: None,
        started_at: "2026-01-01T00:00:00.000Z".into(),
        skipped: None,
    };
    assert_eq!(
        ledger.append_hook_runs(std::slice::from_ref(&run)).unwrap(),
        1
    );
    assert_eq!(
        ledger.append_hook_runs(std::slice::from_ref(&run)).unwrap(),
        0
    );
    assert_eq!(ledger.hook_runs_for_event("e1").unwrap(), vec![run]);
    let err = ledger
        .connection()
        .execute("DELETE FROM hook_runs", [])
        .unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
}

#[test]
fn an_existing_state_dir_without_gitignore_gets_one() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join(".hookd");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(state.join("settings.json"), "{}").unwrap();
    Ledger::open_or_create(&state.join("mutations.db")).unwrap();
    let ignore = std::fs::read_to_string(state.join(".gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "*"), "{ignore}");
    assert!(ignore.lines().any(|l| l == "!settings.json"), "{ignore}");

    // A user's own .gitignore is left as it is.
    std::fs::write(state.join(".gitignore"), "mine\n").unwrap();
    Ledger::open_or_create(&state.join("mutations.db")).unwrap();
    assert_eq!(
        std::fs::read_to_string(state.join(".gitignore")).unwrap(),
        "mine\n"
    );
}

#[test]
fn an_older_hookd_gitignore_is_brought_up_to_date_and_shared_files_open_a_new_one() {
    use crate::state_dir::{PREVIOUS_SHARED_GITIGNORES, SHARED_GITIGNORE};
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join(".hookd");
    std::fs::create_dir_all(state.join("hooks")).unwrap();
    Ledger::open_or_create(&state.join("mutations.db")).unwrap();
    assert_eq!(
        std::fs::read_to_string(state.join(".gitignore")).unwrap(),
        SHARED_GITIGNORE,
        "project-scope scripts are meant to be committed"
    );
    std::fs::write(state.join(".gitignore"), PREVIOUS_SHARED_GITIGNORES[0]).unwrap();
    Ledger::open_or_create(&state.join("mutations.db")).unwrap();
    assert_eq!(
        std::fs::read_to_string(state.join(".gitignore")).unwrap(),
        SHARED_GITIGNORE
    );
    // The ledger-only one stays: opening up is for the edit that shares something.
    let private = "# hookd's ledger: local history, never committed.\n*\n";
    std::fs::write(state.join(".gitignore"), private).unwrap();
    Ledger::open_or_create(&state.join("mutations.db")).unwrap();
    assert_eq!(
        std::fs::read_to_string(state.join(".gitignore")).unwrap(),
        private
    );
}

#[test]
fn processes_racing_to_create_a_ledger_all_succeed() {
    for _ in 0..10 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".hookd").join("mutations.db");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(4));
        let openers: Vec<_> = (0..4)
            .map(|_| {
                let (path, barrier) = (path.clone(), std::sync::Arc::clone(&barrier));
                std::thread::spawn(move || {
                    barrier.wait();
                    Ledger::open_or_create(&path).map(|l| l.counts().unwrap())
                })
            })
            .collect();
        for opener in openers {
            assert_eq!(opener.join().unwrap().unwrap(), (0, 0));
        }
    }
}

/// An event of `hook` by `agent` in `session`, with no mutation.
pub(super) fn plain_event(
    id: &str,
    ts: &str,
    hook: &str,
    agent: &str,
    session: &str,
) -> LedgerEntry {
    let mut e = entry(id, ts, "unused", agent, "Write");
    e.event.hook_type = hook.into();
    e.event.tool_name = None;
    e.event.session_id = Some(session.into());
    e.mutations.clear();
    e
}

pub(super) fn run_for(event_id: &str, run_id: &str, decision: Option<&str>) -> HookRunRecord {
    HookRunRecord {
        run_id: run_id.into(),
        event_id: event_id.into(),
        hook_type: "pre_tool_use".into(),
        tool_name: Some("Write".into()),
        session_id: Some("s".into()),
        tool_use_id: None,
        scope: "project".into(),
        source: "/p/.hookd/settings.json".into(),
        matcher: None,
        command: format!("check {run_id}"),
        exit_code: Some(if decision == Some("deny") { 2 } else { 0 }),
        timed_out: false,
        decision: decision.map(str::to_owned),
        duration_ms: 3.0,
        stdout: String::new(),
        stderr: String::new(),
        output_truncated: false,
        error: None,
        started_at: "2026-01-01T00:00:00.000Z".into(),
        skipped: None,
    }
}

#[test]
fn session_and_event_type_filters_narrow_mutations() {
    let mut ledger = Ledger::in_memory().unwrap();
    let mut other_session = entry("2", "2026-01-02T00:00:00.000Z", "b.rs", "alice", "Write");
    other_session.mutations[0].session_id = Some("other".into());
    let mut failure = entry("3", "2026-01-03T00:00:00.000Z", "c.rs", "alice", "Bash");
    failure.mutations[0].hook_type = "post_tool_use_failure".into();
    ledger
        .append(&[
            entry("1", "2026-01-01T00:00:00.000Z", "a.rs", "alice", "Write"),
            other_session,
            failure,
        ])
        .unwrap();
    let ids = |filter: MutationFilter| -> Vec<String> {
        ledger
            .mutations(&filter)
            .unwrap()
            .into_iter()
            .map(|r| r.record.event_id)
            .collect()
    };
    let session = |s: &str| MutationFilter {
        session: Some(s.into()),
        ..Default::default()
    };
    assert_eq!(ids(session("s")), ["1", "3"]);
    assert_eq!(ids(session("other")), ["2"]);
    let event_type = |t: &str| MutationFilter {
        event_type: Some(t.into()),
        ..Default::default()
    };
    assert_eq!(ids(event_type("PostToolUse")), ["1", "2"]);
    assert_eq!(ids(event_type("PostToolUseFailure")), ["3"]);
    assert_eq!(ids(event_type("post_tool_use_failure")), ["3"]);
    assert!(ids(event_type("PreToolUse")).is_empty());
    let both = MutationFilter {
        session: Some("s".into()),
        event_type: Some("PostToolUse".into()),
        ..Default::default()
    };
    assert_eq!(ids(both), ["1"]);
}

#[test]
fn activity_has_every_event_with_its_hook_runs() {
    let mut ledger = Ledger::in_memory().unwrap();
    ledger
        .append(&[
            plain_event(
                "p",
                "2026-01-01T00:00:00.000Z",
                "user_prompt_submit",
                "alice",
                "s1",
            ),
            plain_event(
                "pre",
                "2026-01-01T00:00:01.000Z",
                "pre_tool_use",
                "alice",
                "s1",
            ),
            entry("post", "2026-01-01T00:00:02.000Z", "a.rs", "alice", "Write"),
            plain_event(
                "bob",
                "2026-01-01T00:00:03.000Z",
                "user_prompt_submit",
                "bob",
                "s2",
            ),
            plain_event("stop", "2026-01-01T00:00:04.000Z", "stop", "alice", "s1"),
        ])
        .unwrap();
    ledger
        .append_hook_runs(&[
            run_for("pre", "r1", Some("allow")),
            run_for("pre", "r2", Some("deny")),
            run_for("stop", "r3", None),
            run_for("unknown-event", "r4", None),
        ])
        .unwrap();

    let alice = ledger
        .activity(&MutationFilter {
            agent: Some("alice".into()),
            ..Default::default()
        })
        .unwrap();
    let kinds: Vec<(&str, &str, usize, i64)> = alice
        .iter()
        .map(|e| {
            (
                e.event_id.as_str(),
                e.hook_type.as_str(),
                e.hook_runs.len(),
                e.mutations,
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("p", "user_prompt_submit", 0, 0),
            ("pre", "pre_tool_use", 2, 0),
            ("post", "post_tool_use", 0, 1),
            ("stop", "stop", 1, 0),
        ]
    );
    let decisions: Vec<Option<&str>> = alice[1]
        .hook_runs
        .iter()
        .map(|r| r.decision.as_deref())
        .collect();
    assert_eq!(decisions, [Some("allow"), Some("deny")]);
    assert_eq!(alice[1].hook_runs[1].exit_code, Some(2));

    // Newest N, still oldest first, and the runs follow their events.
    let newest = ledger
        .activity(&MutationFilter {
            agent: Some("alice".into()),
            limit: Some(2),
            ..Default::default()
        })
        .unwrap();
    let ids: Vec<&str> = newest.iter().map(|e| e.event_id.as_str()).collect();
    assert_eq!(ids, ["post", "stop"]);
    assert_eq!(newest[1].hook_runs.len(), 1);

    // Event type, session and file narrow events too.
    let prompts = ledger
        .activity(&MutationFilter {
            event_type: Some("UserPromptSubmit".into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(
        prompts
            .iter()
            .map(|e| e.agent_id.as_str())
            .collect::<Vec<_>>(),
        ["alice", "bob"]
    );
    let s2 = ledger
        .activity(&MutationFilter {
            session: Some("s2".into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(s2.len(), 1);
    let file = ledger
        .activity(&MutationFilter {
            file: Some("a.rs".into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(
        file.iter().map(|e| e.event_id.as_str()).collect::<Vec<_>>(),
        ["post"]
    );
}

#[test]
fn an_event_concerns_a_file_its_payload_names_by_absolute_path() {
    let mut ledger = Ledger::in_memory().unwrap();
    let mut pre = plain_event("pre", "2026-01-01T00:00:00.000Z", "pre_tool_use", "a", "s");
    pre.event.file_path = Some("/repo/src/a.rs".into());
    let mut other = plain_event(
        "other",
        "2026-01-01T00:00:01.000Z",
        "pre_tool_use",
        "a",
        "s",
    );
    other.event.file_path = Some("/repo/src/xa.rs".into());
    ledger.append(&[pre, other]).unwrap();
    let found = ledger
        .activity(&MutationFilter {
            file: Some("src/a.rs".into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(
        found
            .iter()
            .map(|e| e.event_id.as_str())
            .collect::<Vec<_>>(),
        ["pre"]
    );
}

#[test]
fn a_bash_events_mutations_and_a_rows_neighbours() {
    let mut ledger = Ledger::in_memory().unwrap();
    let mut bash = entry("b", "2026-01-01T00:00:00.000Z", "one.txt", "a", "Bash");
    let mut second = bash.mutations[0].clone();
    second.mutation_seq = 1;
    second.file_path = Some("two.txt".into());
    bash.mutations.push(second);
    ledger.append(&[bash]).unwrap();
    let files: Vec<String> = ledger
        .event_mutations("b")
        .unwrap()
        .into_iter()
        .filter_map(|r| r.record.file_path)
        .collect();
    assert_eq!(files, ["one.txt", "two.txt"]);
    assert!(ledger.event_mutations("nope").unwrap().is_empty());
    let first = ledger
        .mutations(&MutationFilter::default())
        .unwrap()
        .remove(0);
    assert_eq!(ledger.mutation(first.id).unwrap(), Some(first));
    assert_eq!(ledger.mutation(9999).unwrap(), None);
}

/// How long `activity` takes over 100,000 events (half with a mutation, one
/// in ten with a hook run); run with `--ignored --nocapture` to see it.
#[test]
#[ignore = "timing, run by hand"]
fn activity_over_100k_events_timing() {
    let mut ledger = Ledger::in_memory().unwrap();
    let payload = serde_json::json!({"tool_name": "Write", "tool_input": {"file_path": "/r/a.rs", "content": "x\n".repeat(40)}}).to_string();
    let mut entries = Vec::new();
    let mut runs = Vec::new();
    for i in 0..100_000u32 {
        let ts = format!(
            "2026-01-01T{:02}:{:02}:{:02}.{:03}Z",
            i / 3_600_000 % 24,
            i / 60_000 % 60,
            i / 1000 % 60,
            i % 1000
        );
        let mut e = entry(
            &format!("e{i}"),
            &ts,
            &format!("f{}.rs", i % 50),
            if i % 3 == 0 { "a" } else { "b" },
            "Write",
        );
        e.event.raw_payload.clone_from(&payload);
        if i % 2 == 1 {
            e.event.hook_type = "pre_tool_use".into();
            e.mutations.clear();
        }
        if i % 10 == 1 {
            runs.push(run_for(&format!("e{i}"), &format!("r{i}"), Some("allow")));
        }
        entries.push(e);
    }
    ledger.append(&entries).unwrap();
    ledger.append_hook_runs(&runs).unwrap();
    let start = std::time::Instant::now();
    let mutations = ledger.mutations(&MutationFilter::default()).unwrap();
    println!(
        "mutations all (for scale): {} rows in {:?}",
        mutations.len(),
        start.elapsed()
    );
    for (name, filter) in [
        ("all", MutationFilter::default()),
        (
            "agent a",
            MutationFilter {
                agent: Some("a".into()),
                ..Default::default()
            },
        ),
        (
            "newest 1000",
            MutationFilter {
                limit: Some(1000),
                ..Default::default()
            },
        ),
        (
            "file",
            MutationFilter {
                file: Some("f7.rs".into()),
                ..Default::default()
            },
        ),
    ] {
        let start = std::time::Instant::now();
        let found = ledger.activity(&filter).unwrap();
        let runs: usize = found.iter().map(|e| e.hook_runs.len()).sum();
        println!(
            "activity {name}: {} events, {runs} runs in {:?}",
            found.len(),
            start.elapsed()
        );
    }
}

pub(super) fn one_entry(id: &str) -> Vec<LedgerEntry> {
    vec![entry(id, "2026-01-01T00:00:00.000Z", "x.rs", "ag", "Write")]
}

#[test]
fn ledgers_are_never_opened_beyond_a_symbolic_link() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();

    // `.hookd` itself a link.
    let linked = dir.path().join("a/.hookd");
    std::fs::create_dir(dir.path().join("a")).unwrap();
    symlink(&elsewhere, &linked).unwrap();
    let err = Ledger::open_or_create(&linked.join("mutations.db"))
        .err()
        .expect("refused");
    assert!(
        matches!(
            err,
            Error::UnsafePath(crate::state_dir::UnsafePath::Symlink { .. })
        ),
        "{err}"
    );
    let err = Ledger::open_existing(&linked.join("mutations.db"))
        .err()
        .expect("refused for reading too");
    assert!(matches!(err, Error::UnsafePath(_)), "{err}");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);

    // The database, dangling, and each side file.
    for name in [
        "mutations.db",
        "mutations.db-wal",
        "mutations.db-shm",
        "mutations.db-journal",
    ] {
        let state = dir.path().join(format!("r-{name}/.hookd"));
        std::fs::create_dir_all(&state).unwrap();
        let target = elsewhere.join(format!("target-{name}"));
        symlink(&target, state.join(name)).unwrap();
        let err = Ledger::open_or_create(&state.join("mutations.db"))
            .err()
            .unwrap_or_else(|| panic!("{name} link accepted"));
        assert!(err.to_string().contains("symbolic link"), "{name}: {err}");
        assert!(!target.exists(), "{name}: the target was created");
    }

    // A directory where the database should be.
    let state = dir.path().join("d/.hookd");
    std::fs::create_dir_all(state.join("mutations.db")).unwrap();
    let err = Ledger::open_or_create(&state.join("mutations.db"))
        .err()
        .expect("refused");
    assert!(err.to_string().contains("not a regular file"), "{err}");
}

#[test]
fn a_gitignore_link_is_never_written_through() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join(".hookd");
    std::fs::create_dir(&state).unwrap();
    let target = dir.path().join("planted");
    symlink(&target, state.join(".gitignore")).unwrap();
    let err = crate::state_dir::keep_gitignore(&state, crate::state_dir::GitignoreNeed::Private)
        .expect_err("refused");
    let text = crate::error::ErrorChain(&err).to_string();
    assert!(text.contains("symbolic link"), "{text}");
    assert!(!target.exists());
    assert!(Ledger::open_or_create(&state.join("mutations.db")).is_err());
}

#[test]
fn a_state_dir_of_another_user_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join(".hookd");
    std::fs::create_dir(&state).unwrap();
    if std::os::unix::fs::chown(&state, Some(65534), None).is_err() {
        return; // not root: cannot hand a directory to someone else
    }
    let err = Ledger::open_or_create(&state.join("mutations.db"))
        .err()
        .expect("refused");
    assert!(
        matches!(
            err,
            Error::UnsafePath(crate::state_dir::UnsafePath::ForeignOwner { owner: 65534, .. })
        ),
        "{err}"
    );
    assert!(!state.join("mutations.db").exists());
}

#[test]
fn the_sink_recreates_a_ledger_removed_under_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut sink = sink::LedgerSink::new(dir.path().join("data"));
    let path = dir.path().join("repo/.hookd/mutations.db");
    assert_eq!(sink.append(&path, &one_entry("a")).unwrap(), 1);
    std::fs::remove_dir_all(dir.path().join("repo/.hookd")).unwrap();
    assert_eq!(sink.append(&path, &one_entry("b")).unwrap(), 1);
    let ledger = Ledger::open_existing(&path).unwrap();
    assert_eq!(ledger.counts().unwrap(), (1, 1), "the new ledger holds b");

    // Replaced by a file: an error, never "stored".
    drop(ledger);
    std::fs::remove_dir_all(dir.path().join("repo/.hookd")).unwrap();
    std::fs::write(dir.path().join("repo/.hookd"), "x").unwrap();
    let err = sink.append(&path, &one_entry("c")).expect_err("not stored");
    assert!(err.to_string().contains("not a directory"), "{err}");
}

#[test]
fn the_sink_moves_a_damaged_ledger_aside_and_starts_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("repo/.hookd/mutations.db");
    {
        let mut ledger = Ledger::open_or_create(&path).unwrap();
        for i in 0..300 {
            ledger.append(&one_entry(&format!("e{i}"))).unwrap();
        }
    }
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle - 2048..middle + 2048].fill(0x7f);
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(
        integrity::verify(&path),
        integrity::Verdict::Bad(_)
    ));

    let mut sink = sink::LedgerSink::new(dir.path().join("data"));
    assert_eq!(sink.append(&path, &one_entry("new")).unwrap(), 1);
    let moved = sink.take_moved_aside();
    assert_eq!(moved.len(), 1, "{moved:?}");
    let aside = &moved[0].moved_to;
    assert!(
        aside
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("mutations.db.corrupt-"),
        "{aside:?}"
    );
    assert_eq!(std::fs::read(aside).unwrap(), bytes, "kept byte for byte");
    assert_eq!(
        integrity::verify(&path),
        integrity::Verdict::Ok { events: 1 }
    );
    assert!(sink.take_moved_aside().is_empty());

    // Not a database at all: moved aside too, with SQLite's reason.
    drop(sink);
    std::fs::remove_file(&path).unwrap();
    for suffix in SIDE_FILE_SUFFIXES {
        let _ = std::fs::remove_file(with_suffix(&path, suffix));
    }
    std::fs::write(&path, vec![0x5a; 4096]).unwrap();
    let mut sink = sink::LedgerSink::new(dir.path().join("data"));
    assert_eq!(sink.append(&path, &one_entry("again")).unwrap(), 1);
    let moved = sink.take_moved_aside();
    assert!(moved[0].reason.contains("not a database"), "{moved:?}");
}

#[test]
fn verify_never_creates_or_changes_a_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".hookd/mutations.db");
    assert_eq!(integrity::verify(&path), integrity::Verdict::Missing);
    assert!(!path.exists());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, b"hello").unwrap();
    let verdict = integrity::verify(&path);
    assert!(
        matches!(&verdict, integrity::Verdict::Bad(why) if why.contains("not a database")),
        "{verdict:?}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), b"hello");
}

#[test]
fn the_sink_checkpoints_what_it_wrote_on_a_thread_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let mut sink = sink::LedgerSink::new(dir.path().join("data"));
    let path = dir.path().join("repo/.hookd/mutations.db");
    // About 200 pages: under SQLite's own threshold (1,000), so without the
    // checkpoint thread they would stay in the log.
    let entries: Vec<LedgerEntry> = (0..300)
        .map(|i| {
            entry(
                &format!("e{i}"),
                "2026-01-01T00:00:00.000Z",
                &format!("f{i}.rs"),
                "ag",
                "Write",
            )
        })
        .collect();
    assert_eq!(sink.append(&path, &entries).unwrap(), 300);
    let reader = Connection::open(&path).unwrap();
    let pragma = |name: &str| -> u64 {
        let value: i64 = reader
            .query_row(&format!("PRAGMA {name}"), [], |r| r.get(0))
            .unwrap();
        value.try_into().unwrap()
    };
    let (pages, page_size) = (pragma("page_count"), pragma("page_size"));
    let in_file = || std::fs::metadata(&path).unwrap().len() / page_size;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while in_file() < pages && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(
        in_file(),
        pages,
        "the database file holds every page once checkpointed"
    );
    drop(sink);
}

#[test]
fn a_schema_6_ledger_keeps_its_rows_without_counts_and_still_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".hookd/mutations.db");
    let mut ledger = Ledger::open_or_create(&path).unwrap();
    ledger
        .append(&[entry(
            "old",
            "2026-01-01T00:00:00.000Z",
            "a.rs",
            "a",
            "Edit",
        )])
        .unwrap();
    drop(ledger);
    // Back to what a hookd of schema 6 left: its rows and derived tables,
    // without the two columns of migration 0007, the view of 0009, the
    // runs of 0010, the contents of 0011, the references of 0012 and the
    // agents' kinds of 0013 and 0014.
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "DROP TABLE mutation_runs;
         DROP TABLE event_runs;
         DROP TABLE mutation_search_words;
         DROP TABLE event_search_words;
         DROP VIEW mutations_with_payload;
         DROP INDEX mutations_tool_use_id;
         ALTER TABLE mutations DROP COLUMN before_content;
         ALTER TABLE mutations DROP COLUMN after_content;
         ALTER TABLE mutations DROP COLUMN lines_added;
         ALTER TABLE mutations DROP COLUMN lines_removed;
         ALTER TABLE events DROP COLUMN payload_refs;
         ALTER TABLE events DROP COLUMN agent_kind;
         ALTER TABLE mutations DROP COLUMN agent_kind;
         DROP INDEX agents_agent_kind;
         ALTER TABLE agents DROP COLUMN agent_kind;
         PRAGMA user_version = 6;",
    )
    .unwrap();
    drop(conn);
    assert!(matches!(
        integrity::verify(&path),
        integrity::Verdict::Ok { .. }
    ));

    let mut ledger = Ledger::open_existing(&path).unwrap();
    let version: u32 = ledger
        .connection()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    let mut new = entry("new", "2026-01-01T00:01:00.000Z", "a.rs", "a", "Edit");
    new.mutations[0].lines_added = Some(1);
    new.mutations[0].lines_removed = Some(1);
    new.event.agent_kind = "codex".into();
    new.mutations[0].agent_kind = "codex".into();
    ledger.append(&[new]).unwrap();
    let rows = ledger.mutations(&MutationFilter::default()).unwrap();
    let counts: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                r.record.event_id.as_str(),
                r.record.lines_changed,
                r.record.lines_added,
                r.record.lines_removed,
            )
        })
        .collect();
    assert_eq!(
        counts,
        [
            ("old", Some(1), None, None),
            ("new", Some(1), Some(1), Some(1))
        ],
        "the old row is kept as it was, its counts unknown"
    );
    // Rows from before hookd knew other agents are Claude Code's.
    let kinds: Vec<&str> = rows.iter().map(|r| r.record.agent_kind.as_str()).collect();
    assert_eq!(kinds, ["claude", "codex"]);
    let stored: Vec<String> = ledger
        .connection()
        .prepare("SELECT agent_kind FROM events ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(stored, ["claude", "codex"]);
    drop(ledger);
    assert!(matches!(
        integrity::verify(&path),
        integrity::Verdict::Ok { events: 2 }
    ));
}

#[test]
fn a_mutations_payload_is_stored_once_with_its_event_and_read_back_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".hookd/mutations.db");
    let mut ledger = Ledger::open_or_create(&path).unwrap();
    let with_payload =
        |id: &str, minute: u32, payload: &str| write_with(id, minute, "a.rs", payload);
    // A row of before version 9, which held the payload twice.
    ledger
        .append(&[with_payload(
            "old",
            0,
            r#"{"tool_input":{"content":"old"}}"#,
        )])
        .unwrap();
    ledger
        .connection()
        .execute_batch(
            "DROP TRIGGER mutations_no_update;
             UPDATE mutations SET raw_payload = (SELECT raw_payload FROM events WHERE event_id = 'old');",
        )
        .unwrap();
    let mut own = with_payload("own", 2, r#"{"tool_input":{"content":"event"}}"#);
    own.mutations[0].raw_payload = r#"{"tool_input":{"content":"its own"}}"#.into();
    ledger
        .append(&[
            with_payload("new", 1, r#"{"tool_input":{"content":"new"}}"#),
            own,
        ])
        .unwrap();

    let stored: Vec<(String, String)> = pairs(
        &ledger,
        "SELECT event_id, raw_payload FROM mutations ORDER BY id",
    );
    assert_eq!(
        stored,
        [
            ("old".into(), r#"{"tool_input":{"content":"old"}}"#.into()),
            ("new".into(), String::new()),
            (
                "own".into(),
                r#"{"tool_input":{"content":"its own"}}"#.into()
            ),
        ],
        "only the new row that repeats its event's payload stores none"
    );
    let read = |rows: Vec<MutationRow>| -> Vec<(String, String)> {
        rows.into_iter()
            .map(|r| (r.record.event_id, r.record.raw_payload))
            .collect()
    };
    let whole = [
        (
            "old".to_owned(),
            r#"{"tool_input":{"content":"old"}}"#.to_owned(),
        ),
        ("new".into(), r#"{"tool_input":{"content":"new"}}"#.into()),
        (
            "own".into(),
            r#"{"tool_input":{"content":"its own"}}"#.into(),
        ),
    ];
    assert_eq!(
        read(ledger.mutations(&MutationFilter::default()).unwrap()),
        whole
    );
    let by_id = ledger.mutation(stored_id(&ledger, "new")).unwrap().unwrap();
    assert_eq!(by_id.record.raw_payload, whole[1].1);
    let view: Vec<String> = ledger
        .connection()
        .prepare("SELECT payload FROM mutations_with_payload ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(
        view,
        whole.iter().map(|(_, p)| p.clone()).collect::<Vec<_>>(),
        "the view reads them as hookd does"
    );
}

fn stored_id(ledger: &Ledger, event_id: &str) -> i64 {
    ledger
        .connection()
        .query_row(
            "SELECT id FROM mutations WHERE event_id = ?1",
            [event_id],
            |r| r.get(0),
        )
        .unwrap()
}

#[test]
fn totals_are_the_row_counts_read_from_the_hour_totals() {
    let mut ledger = Ledger::in_memory().unwrap();
    assert_eq!(ledger.totals().unwrap(), (0, 0));
    let mut no_change = entry("c", "2026-01-01T12:00:00.000Z", "c.rs", "b", "Read");
    no_change.mutations.clear();
    ledger
        .append(&[
            entry("a", "2026-01-01T10:59:59.999Z", "a.rs", "a", "Edit"),
            entry("b", "2026-01-01T11:00:00.000Z", "b.rs", "a", "Write"),
            no_change,
        ])
        .unwrap();
    assert_eq!(ledger.totals().unwrap(), (3, 2));
    assert_eq!(ledger.totals().unwrap(), ledger.counts().unwrap());
    // Read from the totals, not the rows: a total the ledger keeps is what it says.
    ledger
        .connection()
        .execute_batch("UPDATE mutation_totals SET rows = rows + 40 WHERE hour = '2026-01-01T11'")
        .unwrap();
    assert_eq!(ledger.totals().unwrap(), (3, 42));
}

/// The two columns of every row `sql` reads.
pub(super) fn pairs<A: rusqlite::types::FromSql, B: rusqlite::types::FromSql>(
    ledger: &Ledger,
    sql: &str,
) -> Vec<(A, B)> {
    ledger
        .connection()
        .prepare(sql)
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
}
