//! The app's backtests on real recorded history: events handed to the real
//! daemon through the real `hookd-emit` (the test kit's
//! `record_bash_calls`) are replayed against a draft. On the Test bench a
//! draft guard added to the project's hookd file lists only the call it
//! would have blocked, runs with `HOOKD_BACKTEST=1`, and a project without
//! a ledger or a draft without a command are typed errors. From the Hook
//! editor the whole edited file, as its save would write it, is the draft,
//! and the window is told how far the replay is (`backtest-progress`).

mod common;

use std::sync::{Arc, Mutex};

use hookd_core::settings::{Kind, Scope};
use hookd_desktop::backtest::{self, BACKTEST_PROGRESS_EVENT, BacktestRequest, DraftHook};
use hookd_desktop::editor::{hook_files, preview_hooks_save};
use hookd_desktop::{AppState, ErrorKind};
use hookd_testkit::{GitRepo, TestEnv};
use serde_json::{Value, json};
use tauri::Listener as _;

use common::{DesktopEnv, file};

const GUARD: &str = r#"[ "$HOOKD_BACKTEST" = 1 ] || exit 3; grep -q '"command":"sudo' && { echo 'no sudo' >&2; exit 2; }; exit 0"#;
const CALLS: [&str; 3] = ["ls -la", "sudo rm -rf /var/cache", "cargo test"];

fn request(project: &str, command: &str) -> BacktestRequest {
    BacktestRequest {
        project: project.to_owned(),
        kind: Kind::Managed,
        scope: Scope::Project,
        draft: None,
        hook: Some(DraftHook {
            event: "PreToolUse".to_owned(),
            matcher: Some("Bash".to_owned()),
            command: command.to_owned(),
        }),
        last: None,
        jobs: None,
        timeout: None,
    }
}

#[test]
fn a_draft_guard_lists_the_recorded_call_it_would_have_blocked() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    let project = root.display().to_string();

    // Nothing recorded yet: said, not an empty report.
    let err = backtest::backtest(&state, &request(&project, "true"), |_| {}).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound, "{err:?}");

    env.record_bash_calls(&root, &CALLS);

    let report = backtest::backtest(&state, &request(&project, GUARD), |_| {}).unwrap();
    assert_eq!(report.events, 3, "{report:#?}");
    assert_eq!(report.changes.len(), 1, "{report:#?}");
    let change = &report.changes[0];
    assert_eq!(change.after.as_deref(), Some("deny"));
    assert_eq!(change.subject.as_deref(), Some("sudo rm -rf /var/cache"));
    assert_eq!(change.reason.as_deref(), Some("no sudo"));

    // Bounded: only the newest event.
    let mut one = request(&project, GUARD);
    one.last = Some(1);
    let report = backtest::backtest(&state, &one, |_| {}).unwrap();
    assert_eq!(report.events, 1);
    assert!(report.changes.is_empty(), "cargo test is allowed");

    // Nothing was saved.
    assert!(!root.join(".hookd/settings.json").exists());

    let err = backtest::backtest(&state, &request(&project, " "), |_| {}).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
}

/// The editor's draft of the project's hookd file: what its save would
/// write with `hooks` as the file's hooks, parsed, as the window sends it.
fn saved_draft(state: &AppState, root: &std::path::Path, hooks: Value) -> Value {
    let target = file(root, Kind::Managed, Scope::Project);
    let files = hook_files(state, &root.display().to_string()).unwrap();
    let loaded = files.iter().find(|f| f.file == target).unwrap();
    let preview = preview_hooks_save(state, &target, hooks, &loaded.version).unwrap();
    serde_json::from_str(&preview.after).unwrap()
}

#[test]
fn the_editors_whole_draft_is_backtested_with_its_progress() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    let project = root.display().to_string();
    // The file as saved: a hook that lets everything through, and a key the
    // editor does not edit.
    let settings = root.join(".hookd/settings.json");
    env.write_approved(
        &settings,
        r#"{"env": {"KEEP": "1"}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]}]}}"#,
    );
    env.record_bash_calls(&root, &CALLS);
    let saved = std::fs::read_to_string(&settings).unwrap();

    // The edits: that hook's command becomes the guard, and a Write hook that fails is added.
    let draft = saved_draft(
        &state,
        &root,
        json!({"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": GUARD}]},
            {"matcher": "Write", "hooks": [{"type": "command", "command": "exit 7"}]},
        ]}),
    );
    assert_eq!(
        draft["env"],
        json!({"KEEP": "1"}),
        "the whole file: {draft:#}"
    );
    let mut whole = request(&project, "unused");
    whole.draft = Some(draft);
    whole.hook = None;
    let mut seen = Vec::new();
    let report = backtest::backtest(&state, &whole, |p| seen.push((p.replayed, p.events))).unwrap();
    assert_eq!(report.events, 3, "{report:#?}");
    assert_eq!(report.changes.len(), 1, "{report:#?}");
    let change = &report.changes[0];
    assert_eq!(change.subject.as_deref(), Some("sudo rm -rf /var/cache"));
    assert_eq!(change.after.as_deref(), Some("deny"));
    // What the dropped `exit 0` decided is in the ledger: nothing.
    assert_eq!(change.before, None);
    assert!(!change.before_unknown, "{change:#?}");
    // Progress: counted up, each event once, ending at all of them.
    assert_eq!(seen.last(), Some(&(3, 3)), "{seen:?}");
    assert!(seen.windows(2).all(|w| w[0].0 < w[1].0), "{seen:?}");
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        saved,
        "nothing saved"
    );

    // Through the window's IPC: the same report, and `backtest-progress`
    // events for this project and file, the last one complete.
    let (app, window) = common::ipc_window(env.state());
    let events: Arc<Mutex<Vec<Value>>> = Arc::default();
    let sink = Arc::clone(&events);
    app.listen_any(BACKTEST_PROGRESS_EVENT, move |event| {
        sink.lock()
            .unwrap()
            .push(serde_json::from_str(event.payload()).unwrap());
    });
    let reply = common::invoke(
        &window,
        "bench_backtest",
        json!({"request": whole_json(&whole)}),
    )
    .unwrap();
    assert_eq!(reply["changes"].as_array().unwrap().len(), 1, "{reply:#}");
    let events = events.lock().unwrap();
    let last = events.last().expect("progress events reach the window");
    assert_eq!(
        last,
        &json!({"project": project, "kind": "managed", "scope": "project",
            "progress": {"replayed": 3, "events": 3}}),
    );
}

/// The request as the window sends it (the request type only deserialises).
fn whole_json(request: &BacktestRequest) -> Value {
    json!({
        "project": request.project,
        "kind": request.kind,
        "scope": request.scope,
        "draft": request.draft,
        "hook": null,
        "last": request.last,
        "jobs": request.jobs,
        "timeout": request.timeout,
    })
}
