//! An honest "runs" in the app, on real settings files in temp dirs: a
//! managed guard in a record-only project is shown as not running, with the
//! core's reason, in the hook editor, the Effective view and the Test
//! bench; switching the project to managed mode makes it run everywhere;
//! installing a managed template there says why it does not run and names
//! the scope whose agent file to switch.

mod common;

use hookd_core::settings::connect::Mode;
use hookd_core::settings::{Kind, NotRunCode, RunVerdict, Scope, SettingsRoots};
use serde_json::json;

use common::{DesktopEnv, file};
use hookd_desktop::editor::{self};
use hookd_desktop::{bench, connect, templates};
use hookd_testkit::{GitRepo, TestEnv};

const GUARD: &str = "/bin/guard.sh";

/// A project whose managed global file holds a Bash guard.
fn project_with_guard(env: &TestEnv) -> (GitRepo, String) {
    let repo = GitRepo::new();
    let managed = SettingsRoots::under(&env.home())
        .location(Kind::Managed, Scope::Global, None)
        .unwrap()
        .path;
    std::fs::create_dir_all(managed.parent().unwrap()).unwrap();
    std::fs::write(
        &managed,
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": GUARD}]}]}})
            .to_string(),
    )
    .unwrap();
    let project = repo.root().display().to_string();
    (repo, project)
}

fn connect(env: &TestEnv, project: &str, scope: Scope, mode: Mode) {
    let state = env.state();
    let preview =
        connect::connect_preview(&state, project, hookd_core::AgentKind::Claude, scope, mode)
            .unwrap();
    connect::connect_apply(
        &state,
        project,
        hookd_core::AgentKind::Claude,
        scope,
        mode,
        &preview.version,
    )
    .unwrap();
}

/// The guard's verdict as the editor, the Effective view and the bench give it.
fn verdicts(env: &TestEnv, project: &str) -> [RunVerdict; 3] {
    let state = env.state();
    let files = editor::hook_files(&state, project).unwrap();
    let managed = files
        .iter()
        .find(|f| f.file.kind == Kind::Managed && f.file.scope == Scope::Global)
        .unwrap();
    let in_editor = managed.events[0].groups[0].handlers[0]
        .runs
        .clone()
        .expect("the editor judges each handler");
    let view = editor::effective_hooks(&state, project).unwrap();
    let in_view = view
        .hooks
        .iter()
        .find(|h| h.command.as_deref() == Some(GUARD))
        .unwrap()
        .runs
        .clone();
    let payload = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let matched = bench::bench_match(&state, project, "PreToolUse", &payload).unwrap();
    let in_bench = matched
        .hooks
        .iter()
        .find(|h| h.summary == GUARD)
        .unwrap()
        .runs
        .clone();
    [in_editor, in_view, in_bench]
}

#[test]
fn a_managed_guard_in_a_record_only_project_does_not_run_until_switched_to_managed() {
    let env = TestEnv::new();
    let (repo, project) = project_with_guard(&env);

    // Not connected at all.
    for verdict in verdicts(&env, &project) {
        assert!(!verdict.runs, "{verdict:?}");
        assert_eq!(verdict.reasons[0].code, NotRunCode::NotConnected);
    }

    // Record-only, in the project file: the core's reason names the switch.
    connect(&env, &project, Scope::Project, Mode::Record);
    for verdict in verdicts(&env, &project) {
        assert!(!verdict.runs, "{verdict:?}");
        assert_eq!(verdict.reasons.len(), 1, "{verdict:?}");
        assert_eq!(verdict.reasons[0].code, NotRunCode::RecordOnly);
        assert!(
            verdict.reasons[0].message.contains("--scope project"),
            "{}",
            verdict.reasons[0].message
        );
    }

    // Managed mode in the same file: it runs everywhere.
    connect(&env, &project, Scope::Project, Mode::Managed);
    for verdict in verdicts(&env, &project) {
        assert!(verdict.runs, "{verdict:?}");
        assert!(verdict.reasons.is_empty());
    }
    drop(repo);
}

#[test]
fn a_managed_template_installed_in_a_record_only_project_says_why_and_where_to_switch() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let project = repo.root().display().to_string();
    connect(&env, &project, Scope::Local, Mode::Record);
    let state = env.state();

    let target = file(&repo.root(), Kind::Managed, Scope::Project);
    let change = templates::install(&state, "block-dangerous-shell", &target).unwrap();
    assert!(change.written);
    assert!(!change.idle.is_empty(), "{change:?}");
    assert!(
        change.idle.iter().all(|r| r.code == NotRunCode::RecordOnly),
        "{:?}",
        change.idle
    );
    assert_eq!(
        change.switch_scope,
        Some(Scope::Local),
        "the file that records now"
    );

    // Switched: installing again says nothing idle.
    connect(&env, &project, Scope::Local, Mode::Managed);
    let again = templates::install(&state, "block-dangerous-shell", &target).unwrap();
    assert!(again.idle.is_empty(), "{:?}", again.idle);
    assert_eq!(again.switch_scope, None);

    // An agent-file install is the agent's own hook: nothing to say.
    let agent = templates::install(
        &state,
        "block-dangerous-shell",
        &file(&repo.root(), Kind::Agent, Scope::Local),
    )
    .unwrap();
    assert!(agent.idle.is_empty());
}

#[test]
fn a_template_in_an_unconnected_project_offers_the_global_file() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let project = repo.root().display().to_string();
    let change = templates::install(
        &env.state(),
        "block-dangerous-shell",
        &file(&repo.root(), Kind::Managed, Scope::Local),
    )
    .unwrap();
    assert_eq!(change.idle[0].code, NotRunCode::NotConnected, "{change:?}");
    assert_eq!(change.switch_scope, Some(Scope::Global));
    let _ = project;
}
