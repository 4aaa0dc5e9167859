//! The Test bench's backtest on real recorded history: events handed to
//! the real daemon through the real `hookd-emit` are replayed against a
//! draft guard added to the project's hookd file; only the call it would
//! have blocked is listed, it runs with `HOOKD_BACKTEST=1`, and a project
//! without a ledger or a draft without a command are typed errors.

mod common;

use hookd_core::settings::connect::Mode;
use hookd_core::settings::{Kind, Scope};
use hookd_desktop::backtest::{self, BacktestRequest, DraftHook};
use hookd_desktop::{ErrorKind, connect};
use hookd_testkit::{GitRepo, TestEnv, tool_payload};
use serde_json::json;

use common::DesktopEnv;

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
    let err = backtest::backtest(&state, &request(&project, "true")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound, "{err:?}");

    let preview = connect::connect_preview(&state, &project, Scope::Local, Mode::Managed).unwrap();
    connect::connect_apply(
        &state,
        &project,
        Scope::Local,
        Mode::Managed,
        &preview.version,
    )
    .unwrap();
    let mut daemon = env.start_daemon();
    for (n, command) in ["ls -la", "sudo rm -rf /var/cache", "cargo test"]
        .iter()
        .enumerate()
    {
        let payload = tool_payload(
            "PreToolUse",
            "Bash",
            &root,
            &format!("t{n}"),
            json!({"command": command}),
        );
        let out = env.emit(&["--wait", "PreToolUse"], &payload, &root);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
    }
    daemon.terminate();

    let guard = r#"[ "$HOOKD_BACKTEST" = 1 ] || exit 3; grep -q '"command":"sudo' && { echo 'no sudo' >&2; exit 2; }; exit 0"#;
    let report = backtest::backtest(&state, &request(&project, guard)).unwrap();
    assert_eq!(report.events, 3, "{report:#?}");
    assert_eq!(report.changes.len(), 1, "{report:#?}");
    let change = &report.changes[0];
    assert_eq!(change.after.as_deref(), Some("deny"));
    assert_eq!(change.subject.as_deref(), Some("sudo rm -rf /var/cache"));
    assert_eq!(change.reason.as_deref(), Some("no sudo"));

    // Bounded: only the newest event.
    let mut one = request(&project, guard);
    one.last = Some(1);
    let report = backtest::backtest(&state, &one).unwrap();
    assert_eq!(report.events, 1);
    assert!(report.changes.is_empty(), "cargo test is allowed");

    // Nothing was saved.
    assert!(!root.join(".hookd/settings.json").exists());

    let err = backtest::backtest(&state, &request(&project, " ")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
}
