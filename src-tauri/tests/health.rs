//! The Health view and the tray's alert on real settings files in temp
//! dirs: a hook whose script is missing is a serious finding with its hook,
//! a registered project with one gets a tray item that opens its Health
//! view, and the tray's counts are cached (the check is not run on every
//! two-second refresh).

mod common;

use hookd_core::health::{FindingCode, Severity};
use serde_json::json;

use common::DesktopEnv;
use hookd_desktop::{health, projects, tray};
use hookd_testkit::{GitRepo, TestEnv};

fn with_missing_script(repo: &GitRepo) {
    let local = repo.root().join(".claude/settings.local.json");
    std::fs::create_dir_all(local.parent().unwrap()).unwrap();
    std::fs::write(
        &local,
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "python3 /nonexistent/guard.py"}
        ]}]}})
        .to_string(),
    )
    .unwrap();
}

#[test]
fn a_missing_script_is_a_serious_finding_with_its_hook() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    with_missing_script(&repo);
    let project = repo.root().display().to_string();
    let report = health::project_health(&env.state(), &project, None).unwrap();
    let missing = report
        .findings
        .iter()
        .find(|f| f.code == FindingCode::MissingScript)
        .unwrap_or_else(|| panic!("{:#?}", report.findings));
    assert_eq!(missing.severity, Severity::Serious);
    let hook = missing.hook.as_ref().expect("it names the hook");
    assert_eq!(hook.event, "PreToolUse");
    assert!(hook.runs.contains("/nonexistent/guard.py"), "{}", hook.runs);
    assert!(
        missing.message.contains("/nonexistent/guard.py"),
        "{}",
        missing.message
    );

    let err = health::project_health(&env.state(), "relative/path", None).unwrap_err();
    assert_eq!(err.kind, hookd_desktop::ErrorKind::InvalidInput);
}

#[test]
fn the_tray_names_registered_projects_with_serious_findings_and_caches_the_count() {
    let env = TestEnv::new();
    let state = env.state();
    let sick = GitRepo::new();
    let well = GitRepo::new();
    with_missing_script(&sick);
    projects::add_projects(&state, &[sick.root(), well.root()]).unwrap();

    let root = sick.root().display().to_string();
    let serious = health::serious_problems(&state);
    assert_eq!(serious.len(), 1, "{serious:?}");
    assert_eq!(serious[0].0, root);
    let items = tray::health_items(&serious);
    assert!(
        items[0]
            .0
            .starts_with(&format!("⚠ {} hook problem", serious[0].1)),
        "{}",
        items[0].0
    );
    assert_eq!(items[0].1, format!("health?project={root}"));
    assert_eq!(tray::view_of(&state).health, items, "the tray shows it");

    // Fixed: the cache still answers until it is invalidated.
    std::fs::remove_file(sick.root().join(".claude/settings.local.json")).unwrap();
    assert_eq!(state.health.serious(&state).len(), 1, "cached");
    state.health.invalidate();
    assert!(state.health.serious(&state).is_empty());
    assert!(tray::view_of(&state).health.is_empty());
}
