//! The Connect button's backend on real settings files in temp dirs: the
//! preview is exactly what apply writes, other keys survive, a file changed
//! since the preview is refused, and the Projects screen sees the result.

mod common;

use common::DesktopEnv;
use hookd_core::AgentKind;
use hookd_core::settings::Scope;
use hookd_core::settings::connect::Mode;
use hookd_desktop::ErrorKind;
use hookd_desktop::connect::{self};
use hookd_desktop::projects;
use hookd_testkit::{GitRepo, TestEnv};
use serde_json::Value;

const THEIRS: &str = "{\n    \"permissions\": {\n        \"allow\": [\"Bash(git status)\"]\n    },\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"~/bin/guard.sh\"}]}\n        ]\n    },\n    \"model\": \"opus\"\n}\n";

fn commands(text: &str) -> Vec<String> {
    let value: Value = serde_json::from_str(text).unwrap();
    value["hooks"]
        .as_object()
        .into_iter()
        .flat_map(|events| events.values())
        .flat_map(|groups| groups.as_array().cloned().unwrap_or_default())
        .flat_map(|group| group["hooks"].as_array().cloned().unwrap_or_default())
        .filter_map(|h| h["command"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn project_scope_preview_then_apply_writes_exactly_the_preview() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let project = repo.root().display().to_string();
    projects::add_projects(&state, &[repo.root()]).unwrap();
    let file = repo.root().join(".claude/settings.json");

    let preview = connect::connect_preview(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Project,
        Mode::Record,
    )
    .unwrap();
    assert_eq!(preview.path, file.display().to_string());
    assert!(!preview.exists);
    assert!(preview.changes);
    assert_eq!(preview.before, "");
    assert_eq!(preview.version, hookd_core::settings::version::ABSENT);
    assert!(preview.events.contains(&"PreToolUse".to_owned()));
    assert!(
        preview.emit_command.contains("hookd-emit"),
        "{}",
        preview.emit_command
    );
    let ours = commands(&preview.after);
    assert_eq!(ours.len(), preview.events.len());
    assert!(
        ours.iter()
            .all(|c| c.contains("hookd-emit") && !c.contains("--wait")),
        "{ours:?}"
    );
    assert!(!file.exists(), "a preview writes nothing");

    let done = connect::connect_apply(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Project,
        Mode::Record,
        &preview.version,
    )
    .unwrap();
    assert!(done.written && done.created);
    assert_eq!(done.events, preview.events);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), preview.after);

    let listed = projects::list_projects(&state).unwrap();
    let info = listed.iter().find(|p| p.root == project).unwrap();
    assert!(info.connected.project, "the badge sees it");
    assert!(!info.connected.local && !info.connected.global);

    // Again: nothing to change, and applying writes nothing.
    let again = connect::connect_preview(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Project,
        Mode::Record,
    )
    .unwrap();
    assert!(again.exists && !again.changes);
    assert_eq!(again.after, again.before);
    let noop = connect::connect_apply(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Project,
        Mode::Record,
        &again.version,
    )
    .unwrap();
    assert!(!noop.written);
}

#[test]
fn managed_mode_in_the_local_file_keeps_the_user_s_keys_and_format() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let project = repo.root().display().to_string();
    let file = repo.root().join(".claude/settings.local.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, THEIRS).unwrap();

    let preview = connect::connect_preview(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Local,
        Mode::Managed,
    )
    .unwrap();
    assert_eq!(preview.before, THEIRS);
    assert!(preview.exists && preview.changes);
    assert!(
        preview.after.contains("\n    \"permissions\""),
        "four-space indent kept"
    );
    let after: Value = serde_json::from_str(&preview.after).unwrap();
    assert_eq!(after["model"], "opus");
    assert_eq!(after["permissions"]["allow"][0], "Bash(git status)");
    let all = commands(&preview.after);
    assert_eq!(all[0], "~/bin/guard.sh", "their hook stays first");
    assert!(
        all[1..].iter().all(|c| c.contains("hookd-emit --wait")),
        "{all:?}"
    );
    assert!(preview.events.contains(&"PermissionRequest".to_owned()));

    let done = connect::connect_apply(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Local,
        Mode::Managed,
        &preview.version,
    )
    .unwrap();
    assert!(done.written && !done.created);
    assert!(done.backup.is_some(), "the previous file is kept");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), preview.after);

    // Disconnect gives the user's file back.
    let off =
        connect::disconnect_preview(&state, &project, AgentKind::Claude, Scope::Local).unwrap();
    assert!(off.changes);
    assert_eq!(off.before, preview.after);
    let undone = connect::disconnect_apply(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Local,
        &off.version,
    )
    .unwrap();
    assert!(undone.written);
    let back: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(back, serde_json::from_str::<Value>(THEIRS).unwrap());
}

#[test]
fn a_file_changed_since_the_preview_is_a_conflict_and_stays_as_it_is() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let project = repo.root().display().to_string();
    let file = repo.root().join(".claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "{}\n").unwrap();

    let preview = connect::connect_preview(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Project,
        Mode::Record,
    )
    .unwrap();
    std::fs::write(&file, THEIRS).unwrap();
    let err = connect::connect_apply(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Project,
        Mode::Record,
        &preview.version,
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Conflict);
    assert!(
        err.message.contains("changed since the preview"),
        "{}",
        err.message
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        THEIRS,
        "nothing written"
    );

    // A file that appeared after a preview of a missing one conflicts too.
    let local = repo.root().join(".claude/settings.local.json");
    let preview = connect::connect_preview(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Local,
        Mode::Record,
    )
    .unwrap();
    std::fs::write(&local, "{\"model\": \"haiku\"}\n").unwrap();
    let err = connect::connect_apply(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Local,
        Mode::Record,
        &preview.version,
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Conflict);
    assert_eq!(
        std::fs::read_to_string(&local).unwrap(),
        "{\"model\": \"haiku\"}\n"
    );
}

#[test]
fn user_scope_edits_the_home_file_and_bad_files_are_refused() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let project = repo.root().display().to_string();
    let preview = connect::connect_preview(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Global,
        Mode::Record,
    )
    .unwrap();
    let home_file = env.home().join(".claude/settings.json");
    assert_eq!(preview.path, home_file.display().to_string());
    connect::connect_apply(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Global,
        Mode::Record,
        &preview.version,
    )
    .unwrap();
    assert!(
        std::fs::read_to_string(&home_file)
            .unwrap()
            .contains("hookd-emit")
    );
    let listed = projects::add_projects(&state, &[repo.root()]).unwrap();
    assert!(
        listed
            .added
            .iter()
            .chain(&listed.known)
            .all(|p| p.connected.global)
    );

    let file = repo.root().join(".claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "{\"hooks\": [] ").unwrap();
    let err = connect::connect_preview(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Project,
        Mode::Record,
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
    assert!(err.message.contains("not valid JSON"), "{}", err.message);

    let err = connect::connect_preview(
        &state,
        "/definitely/not/here",
        AgentKind::Claude,
        Scope::Project,
        Mode::Record,
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound);
}

#[test]
fn a_project_file_linked_out_of_the_project_is_refused_and_nothing_is_written() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let project = repo.root().display().to_string();
    // A cloned repository whose project settings link to the user's own file.
    let global = env.home().join(".claude/settings.json");
    std::fs::create_dir_all(global.parent().unwrap()).unwrap();
    std::fs::write(&global, THEIRS).unwrap();
    std::fs::create_dir_all(repo.root().join(".claude")).unwrap();
    std::os::unix::fs::symlink(&global, repo.root().join(".claude/settings.json")).unwrap();

    let preview = connect::connect_preview(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Project,
        Mode::Record,
    )
    .unwrap();
    let err = connect::connect_apply(
        &state,
        &project,
        AgentKind::Claude,
        Scope::Project,
        Mode::Record,
        &preview.version,
    )
    .unwrap_err();
    assert!(
        err.message.contains("outside") || err.message.contains("link"),
        "{}",
        err.message
    );
    assert_eq!(
        std::fs::read_to_string(&global).unwrap(),
        THEIRS,
        "the global file is untouched"
    );
}

/// Connect works per agent: a Codex CLI project file is previewed with
/// Codex's trust note, written exactly as shown, seen on the Projects
/// screen as Codex calling hookd, refused when changed since its preview,
/// and removed again; an agent the app does not know is invalid input.
#[test]
fn another_agents_file_is_connected_with_its_notes_and_seen_on_the_projects_screen() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let project = repo.root().display().to_string();
    projects::add_projects(&state, &[repo.root()]).unwrap();
    let file = repo.root().join(".codex/hooks.json");

    let preview = connect::connect_preview(
        &state,
        &project,
        AgentKind::Codex,
        Scope::Project,
        Mode::Record,
    )
    .unwrap();
    assert_eq!(preview.path, file.display().to_string());
    assert!(preview.changes && !preview.exists);
    assert!(preview.events.contains(&"PreToolUse".to_owned()));
    assert!(
        preview.notes.iter().any(|n| n.contains("trust it")),
        "{:?}",
        preview.notes
    );
    let done = connect::connect_apply(
        &state,
        &project,
        AgentKind::Codex,
        Scope::Project,
        Mode::Record,
        &preview.version,
    )
    .unwrap();
    assert!(done.written && done.created);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), preview.after);
    let listed = projects::list_projects(&state).unwrap();
    assert_eq!(listed[0].agents_connected, ["codex"]);
    assert!(
        !listed[0].connected.project,
        "Claude Code's file is another"
    );

    // Changed since the preview: a conflict, nothing written.
    let off =
        connect::disconnect_preview(&state, &project, AgentKind::Codex, Scope::Project).unwrap();
    std::fs::write(&file, "{\"hooks\": {}}\n").unwrap();
    let err = connect::disconnect_apply(
        &state,
        &project,
        AgentKind::Codex,
        Scope::Project,
        &off.version,
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Conflict);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{\"hooks\": {}}\n");

    // Codex has no local file; an unknown agent is refused.
    let local = connect::connect_preview(
        &state,
        &project,
        AgentKind::Codex,
        Scope::Local,
        Mode::Record,
    )
    .unwrap_err();
    assert_eq!(local.kind, ErrorKind::InvalidInput);
    assert_eq!(
        connect::agent_of("aider").unwrap_err().kind,
        ErrorKind::InvalidInput
    );
}

/// What keeps the agent from running hookd's entries wherever they are
/// written comes with the preview and the apply, as `hookd connect
/// --agent` prints it (the core's `connector::connect_warnings`): Codex
/// CLI's administrator's `[features] hooks = false`, Gemini CLI's
/// `hooksConfig.enabled: false` in the project's settings; nothing for a
/// disconnect, nor when nothing is switched off.
#[test]
fn a_connect_says_when_the_agent_will_not_run_the_entries() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let project = repo.root().display().to_string();
    let roots = hookd_core::settings::SettingsRoots::under(&env.home());
    let preview = |agent, scope| {
        connect::connect_preview(&state, &project, agent, scope, Mode::Record).unwrap()
    };
    for agent in [AgentKind::Claude, AgentKind::Codex, AgentKind::Gemini] {
        let shown = preview(agent, Scope::Project);
        assert!(shown.warnings.is_empty(), "{agent}: {:?}", shown.warnings);
    }

    let requirements = roots.codex_system.join("requirements.toml");
    hookd_testkit::write_file(&requirements, "[features]\nhooks = false\n");
    for scope in [Scope::Project, Scope::Global] {
        let shown = preview(AgentKind::Codex, scope);
        assert_eq!(shown.warnings.len(), 1, "{scope:?}: {:?}", shown.warnings);
        assert!(
            shown.warnings[0].contains(&requirements.display().to_string())
                && shown.warnings[0].contains("[features] hooks = false"),
            "{:?}",
            shown.warnings
        );
    }
    let shown = preview(AgentKind::Codex, Scope::Project);
    let done = connect::connect_apply(
        &state,
        &project,
        AgentKind::Codex,
        Scope::Project,
        Mode::Record,
        &shown.version,
    )
    .unwrap();
    assert!(done.written, "connecting still writes the entries");
    assert_eq!(done.warnings, shown.warnings);
    let again = preview(AgentKind::Codex, Scope::Project);
    assert!(!again.changes);
    assert_eq!(again.warnings, shown.warnings, "also when nothing changes");
    let off =
        connect::disconnect_preview(&state, &project, AgentKind::Codex, Scope::Project).unwrap();
    assert!(off.warnings.is_empty(), "{:?}", off.warnings);
    let undone = connect::disconnect_apply(
        &state,
        &project,
        AgentKind::Codex,
        Scope::Project,
        &off.version,
    )
    .unwrap();
    assert!(undone.written && undone.warnings.is_empty());
    assert!(
        preview(AgentKind::Claude, Scope::Project)
            .warnings
            .is_empty()
    );

    let settings = repo.root().join(".gemini/settings.json");
    hookd_testkit::write_file(&settings, r#"{"hooksConfig": {"enabled": false}}"#);
    let shown = preview(AgentKind::Gemini, Scope::Project);
    assert_eq!(shown.warnings.len(), 1, "{:?}", shown.warnings);
    assert!(
        shown.warnings[0].starts_with(&settings.display().to_string())
            && shown.warnings[0].contains("Gemini CLI runs no hook"),
        "{:?}",
        shown.warnings
    );
}
