//! The hook editor's Templates tab on real settings files and scripts in
//! temp dirs: install writes the script and only the template's handlers,
//! the catalogue shows where it is installed (and when it is incomplete),
//! installing twice changes nothing, uninstall removes exactly it, and bad
//! targets are typed errors that write nothing.

mod common;

use hookd_core::settings::{Kind, Scope};
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;

use common::{DesktopEnv, file};
use hookd_desktop::ErrorKind;
use hookd_desktop::editor::FileRef;
use hookd_desktop::templates::{self, ScriptChange};
use hookd_testkit::{GitRepo, TestEnv, read_json};
use serde_json::{Value, json};

const THEIRS: &str = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"~/bin/guard.sh\"}]}\n    ]\n  }\n}\n";

#[test]
fn installs_into_the_project_file_keeping_everything_else_then_uninstalls_exactly_it() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let project = repo.root().display().to_string();
    let settings = repo.root().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, THEIRS).unwrap();
    let target = file(&repo.root(), Kind::Agent, Scope::Project);

    let before = templates::catalog(&state, Some(&project)).unwrap();
    let guard = before
        .templates
        .iter()
        .find(|t| t.name == "block-dangerous-shell")
        .expect("the shell guard is in the catalogue");
    assert!(guard.installed.is_empty());
    assert_eq!(guard.hooks[0].event, "PreToolUse");
    assert_eq!(guard.hooks[0].matcher.as_deref(), Some("Bash"));
    assert_eq!(guard.kinds, vec![Kind::Agent, Kind::Managed]);

    let change = templates::install(&state, "block-dangerous-shell", &target).unwrap();
    assert_eq!(change.settings, settings.display().to_string());
    assert_eq!(change.handlers, vec!["PreToolUse (Bash)".to_owned()]);
    assert!(change.written);
    assert!(!change.unchanged);
    assert_eq!(change.script_change, ScriptChange::Created);
    let script = change.script.clone().expect("a script template");
    assert!(
        script.starts_with(&format!("{project}/.hookd/")),
        "{script}"
    );
    let mode = std::fs::metadata(&script).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o755, "the script runs");
    assert!(change.backup.is_some(), "the previous file is kept");

    // Their hook and key stay; the template's handler joins the Bash group.
    let value = read_json(&settings);
    assert_eq!(value["model"], json!("opus"));
    let bash = &value["hooks"]["PreToolUse"][0];
    assert_eq!(bash["matcher"], json!("Bash"));
    let commands: Vec<&str> = bash["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["command"].as_str().unwrap())
        .collect();
    assert_eq!(commands[0], "~/bin/guard.sh");
    assert_eq!(commands.len(), 2);
    assert!(
        commands[1].contains("block-dangerous-shell.py"),
        "{commands:?}"
    );

    let listed = templates::catalog(&state, Some(&project)).unwrap();
    let guard = listed
        .templates
        .iter()
        .find(|t| t.name == "block-dangerous-shell")
        .unwrap();
    assert_eq!(guard.installed.len(), 1, "{:?}", guard.installed);
    let placed = &guard.installed[0];
    assert_eq!((placed.kind, placed.scope), (Kind::Agent, Scope::Project));
    assert!(placed.complete, "{:?}", placed.missing);
    assert_eq!(placed.settings, settings.display().to_string());

    // Twice: nothing changes, not even the file's bytes.
    let written = std::fs::read(&settings).unwrap();
    let again = templates::install(&state, "block-dangerous-shell", &target).unwrap();
    assert!(again.unchanged, "{again:?}");
    assert!(!again.written);
    assert_eq!(std::fs::read(&settings).unwrap(), written);

    let removed = templates::uninstall(&state, "block-dangerous-shell", &target).unwrap();
    assert_eq!(removed.handlers, vec!["PreToolUse (Bash)".to_owned()]);
    assert_eq!(removed.script_change, ScriptChange::Removed);
    assert!(!Path::new(&script).exists());
    assert_eq!(
        read_json(&settings),
        serde_json::from_str::<Value>(THEIRS).unwrap()
    );
    let after = templates::catalog(&state, Some(&project)).unwrap();
    assert!(after.templates.iter().all(|t| t.installed.is_empty()));
}

#[test]
fn a_deleted_script_shows_as_incomplete_and_installing_again_repairs_it() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let project = repo.root().display().to_string();
    let target = file(&repo.root(), Kind::Managed, Scope::Project);
    let change = templates::install(&state, "session-git-context", &target).unwrap();
    let script = change.script.unwrap();
    std::fs::remove_file(&script).unwrap();

    let listed = templates::catalog(&state, Some(&project)).unwrap();
    let placed = &listed
        .templates
        .iter()
        .find(|t| t.name == "session-git-context")
        .unwrap()
        .installed;
    assert_eq!(placed.len(), 1);
    assert!(!placed[0].complete);
    assert!(
        placed[0].missing.iter().any(|m| m.contains("script")),
        "{:?}",
        placed[0].missing
    );

    let repaired = templates::install(&state, "session-git-context", &target).unwrap();
    assert!(repaired.handlers.is_empty(), "the handler was still there");
    assert_eq!(repaired.script_change, ScriptChange::Created);
    assert!(Path::new(&script).is_file());
    let listed = templates::catalog(&state, Some(&project)).unwrap();
    assert!(
        listed
            .templates
            .iter()
            .find(|t| t.name == "session-git-context")
            .unwrap()
            .installed[0]
            .complete
    );
}

#[test]
fn global_install_uses_the_users_files_and_the_catalogue_without_a_project_lists_it() {
    let env = TestEnv::new();
    let state = env.state();
    let target = FileRef {
        project: None,
        kind: Kind::Managed,
        scope: Scope::Global,
    };
    let change = templates::install(&state, "protect-secrets", &target).unwrap();
    assert!(
        change
            .settings
            .starts_with(&env.home().display().to_string()),
        "{}",
        change.settings
    );
    assert!(Path::new(&change.script.unwrap()).is_file());
    let listed = templates::catalog(&state, None).unwrap();
    let placed = &listed
        .templates
        .iter()
        .find(|t| t.name == "protect-secrets")
        .unwrap()
        .installed;
    assert_eq!(placed.len(), 1);
    assert_eq!(
        (placed[0].kind, placed[0].scope),
        (Kind::Managed, Scope::Global)
    );
}

#[test]
fn bad_targets_are_typed_errors_and_write_nothing() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let managed = file(&repo.root(), Kind::Managed, Scope::Project);

    let err = templates::install(&state, "record-into-hookd", &managed).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput, "{err:?}");
    assert!(err.message.contains("Claude Code"), "{}", err.message);
    assert!(!repo.root().join(".hookd/settings.json").exists());

    let err = templates::install(&state, "no-such-template", &managed).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound, "{err:?}");

    let policy = file(&repo.root(), Kind::Agent, Scope::Policy);
    let err = templates::install(&state, "protect-secrets", &policy).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput, "{err:?}");

    let relative = FileRef {
        project: Some("relative/dir".to_owned()),
        kind: Kind::Agent,
        scope: Scope::Project,
    };
    let err = templates::install(&state, "protect-secrets", &relative).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput, "{err:?}");

    // A settings file that is not JSON is refused, not rewritten.
    let settings = repo.root().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, "{ not json").unwrap();
    let agent = file(&repo.root(), Kind::Agent, Scope::Project);
    let err = templates::install(&state, "protect-secrets", &agent).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput, "{err:?}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{ not json");
}

#[test]
fn an_unparsable_settings_file_is_listed_and_the_other_files_still_answer() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let project = repo.root().display().to_string();
    let managed = file(&repo.root(), Kind::Managed, Scope::Project);
    templates::install(&state, "protect-secrets", &managed).unwrap();
    let local = repo.root().join(".claude/settings.local.json");
    std::fs::create_dir_all(local.parent().unwrap()).unwrap();
    std::fs::write(&local, "{\n  \"hooks\": oops\n}\n").unwrap();

    let listed = templates::catalog(&state, Some(&project)).unwrap();
    let secrets = listed
        .templates
        .iter()
        .find(|t| t.name == "protect-secrets")
        .unwrap();
    assert_eq!(secrets.installed.len(), 1, "{:?}", secrets.installed);
    assert_eq!(secrets.installed[0].kind, Kind::Managed);
    assert_eq!(listed.unreadable.len(), 1, "{:?}", listed.unreadable);
    let bad = &listed.unreadable[0];
    assert_eq!((bad.kind, bad.scope), (Kind::Agent, Scope::Local));
    assert_eq!(bad.settings, local.display().to_string());
    assert!(bad.reason.contains("line 2"), "{}", bad.reason);
    assert_eq!(
        std::fs::read_to_string(&local).unwrap(),
        "{\n  \"hooks\": oops\n}\n"
    );
}
