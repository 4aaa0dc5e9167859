//! The Hook editor's commands against real settings files in temp dirs,
//! written and read through hookd-core exactly as the window uses them.

mod common;

use hookd_core::settings::{Kind, Scope};
use std::fs;
use std::path::{Path, PathBuf};

use common::{DesktopEnv, file};
use hookd_desktop::ErrorKind;
use hookd_desktop::editor::{
    self, FileRef, HookFile, HookRef, MoveVersions, check_matcher, effective_hooks, hook_events,
    hook_files, move_hook, preview_hooks_save, preview_move_hook, save_hooks, set_hook_enabled,
};
use hookd_testkit::{GitRepo, TestEnv, write_file};
use serde_json::{Value, json};

/// A project settings file with other keys, four-space indented, the way a
/// user's hand-written file may look.
const PROJECT_FILE: &str = r#"{
    "model": "opus",
    "permissions": {
        "allow": [
            "Bash(git status)"
        ]
    },
    "hooks": {
        "PostToolUse": [
            {
                "matcher": "Write|Edit",
                "note": "format on save",
                "hooks": [
                    {
                        "type": "command",
                        "command": "cargo fmt",
                        "async": true
                    },
                    {
                        "type": "http",
                        "url": "https://example.invalid/hook"
                    }
                ]
            }
        ]
    },
    "env": {
        "RUST_LOG": "info"
    }
}
"#;

fn project_path(root: &Path) -> PathBuf {
    root.join(".claude/settings.json")
}

fn versions(from: &str, to: &str) -> MoveVersions {
    MoveVersions {
        from: from.to_owned(),
        to: to.to_owned(),
    }
}

fn loaded(files: &[HookFile], kind: Kind, scope: Scope) -> &HookFile {
    files
        .iter()
        .find(|f| f.file.kind == kind && f.file.scope == scope)
        .unwrap_or_else(|| panic!("no {kind:?} {scope:?} in {files:#?}"))
}

/// The `hooks` tree of a loaded file rebuilt from its structure, the way
/// the window sends it back (raw group and handler JSON, edited fields set).
fn hooks_of(f: &HookFile) -> Value {
    let mut out = serde_json::Map::new();
    for event in &f.events {
        let groups: Vec<Value> = event
            .groups
            .iter()
            .map(|g| {
                let mut raw = g.raw.clone();
                raw["hooks"] = Value::Array(g.handlers.iter().map(|h| h.raw.clone()).collect());
                raw
            })
            .collect();
        out.insert(event.event.clone(), Value::Array(groups));
    }
    Value::Object(out)
}

#[test]
fn hook_files_lists_the_six_files_with_structured_hooks_and_raw_json() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    write_file(&project_path(&root), PROJECT_FILE);

    let files = hook_files(&state, &root.display().to_string()).unwrap();
    let order: Vec<(Kind, Scope)> = files.iter().map(|f| (f.file.kind, f.file.scope)).collect();
    assert_eq!(order, editor::EDITABLE.to_vec());
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let home = env.home();
    assert_eq!(
        paths,
        [
            home.join(".claude/settings.json").display().to_string(),
            root.join(".claude/settings.json").display().to_string(),
            root.join(".claude/settings.local.json")
                .display()
                .to_string(),
            home.join(".hookd/settings.json").display().to_string(),
            root.join(".hookd/settings.json").display().to_string(),
            root.join(".hookd/settings.local.json")
                .display()
                .to_string(),
        ]
    );

    let missing = loaded(&files, Kind::Agent, Scope::Local);
    assert!(!missing.exists);
    assert_eq!(missing.version, "absent");
    assert!(missing.editable, "a missing file is edited as empty");
    assert!(missing.events.is_empty());

    let project = loaded(&files, Kind::Agent, Scope::Project);
    assert!(project.exists && project.editable && !project.read_only);
    assert!(project.problems.is_empty(), "{:?}", project.problems);
    assert_eq!(
        project.version,
        hookd_core::settings::version_token(Some(PROJECT_FILE.as_bytes()))
    );
    assert_eq!(project.other_keys, ["model", "permissions", "env"]);
    assert_eq!(project.events.len(), 1);
    let event = &project.events[0];
    assert_eq!(event.event, "PostToolUse");
    assert!(event.known);
    assert!(!event.description.is_empty());
    let group = &event.groups[0];
    assert_eq!(group.matcher.as_deref(), Some("Write|Edit"));
    assert_eq!(group.extra_keys, ["note"]);
    let [command, http] = &group.handlers[..] else {
        panic!("two handlers: {:?}", group.handlers)
    };
    assert!(command.editable && command.known_type);
    assert_eq!(command.command.as_deref(), Some("cargo fmt"));
    assert_eq!(command.extra_keys, ["async"]);
    assert_eq!(
        command.raw,
        json!({"type": "command", "command": "cargo fmt", "async": true})
    );
    assert!(
        !http.editable && http.known_type,
        "http handlers are read-only"
    );
    assert_eq!(http.handler_type, "http");
    assert_eq!(http.command, None);

    // The JSON the window gets.
    let value = serde_json::to_value(project).unwrap();
    assert_eq!(
        value["file"],
        json!({"project": root.display().to_string(), "kind": "agent", "scope": "project"})
    );
    assert_eq!(
        value["events"][0]["groups"][0]["handlers"][0]["raw"]["async"],
        json!(true)
    );
}

#[test]
fn broken_files_are_reported_not_hidden() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    write_file(&root.join(".claude/settings.local.json"), "{ not json");
    write_file(
        &project_path(&root),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Edit(", "hooks": [{"type": "command", "command": "x", "timeout": 0}, {"type": "shell", "run": "y"}]}]}}"#,
    );
    write_file(
        &root.join(".hookd/settings.json"),
        r#"{"hooks": {"Stop": {"oops": 1}}}"#,
    );

    let files = hook_files(&state, &root.display().to_string()).unwrap();
    let local = loaded(&files, Kind::Agent, Scope::Local);
    assert!(
        local
            .parse_error
            .as_deref()
            .unwrap()
            .starts_with("not valid JSON"),
        "{local:?}"
    );
    assert!(!local.editable);
    assert_ne!(local.version, "absent");

    let project = loaded(&files, Kind::Agent, Scope::Project);
    assert!(
        project.editable,
        "value-level problems can be fixed in the form"
    );
    let problems: Vec<String> = project
        .problems
        .iter()
        .map(|p| format!("{}: {}", p.path, p.message))
        .collect();
    // A matcher that is no valid pattern is the agent's business (it loads
    // the file and never matches the group): not a problem that blocks.
    assert!(
        !problems.iter().any(|p| p.contains("invalid regex")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("hooks.PreToolUse[0].hooks[0].timeout")),
        "{problems:?}"
    );
    let unknown = &project.events[0].groups[0].handlers[1];
    assert!(!unknown.editable && !unknown.known_type);
    assert_eq!(unknown.raw, json!({"type": "shell", "run": "y"}));

    let managed = loaded(&files, Kind::Managed, Scope::Project);
    assert!(
        !managed.editable,
        "a group list that is not an array cannot be edited in a form"
    );
    assert_eq!(managed.problems[0].path, "hooks.Stop");
}

#[test]
fn preview_and_save_replace_only_the_hooks_and_keep_every_other_byte() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    let path = project_path(&root);
    write_file(&path, PROJECT_FILE);
    let files = hook_files(&state, &root.display().to_string()).unwrap();
    let project = loaded(&files, Kind::Agent, Scope::Project);

    let mut hooks = hooks_of(project);
    hooks["PreToolUse"] = json!([{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 30}]}]);
    let preview =
        preview_hooks_save(&state, &project.file, hooks.clone(), &project.version).unwrap();
    assert!(preview.changed && !preview.creates);
    assert_eq!(preview.before, PROJECT_FILE);
    assert_eq!(preview.path, path.display().to_string());
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        PROJECT_FILE,
        "a preview writes nothing"
    );
    // Only added lines: every original line is still there, in order.
    let after: Vec<&str> = preview.after.lines().collect();
    let mut it = after.iter();
    for line in PROJECT_FILE.lines() {
        assert!(
            it.any(|a| *a == line),
            "{line:?} lost or moved in\n{}",
            preview.after
        );
    }
    assert!(
        preview.after.contains(
            "        \"PreToolUse\": [\n            {\n                \"matcher\": \"Bash\","
        ),
        "{}",
        preview.after
    );

    let saved = save_hooks(&state, &project.file, hooks, &project.version, false).unwrap();
    assert!(!saved.created);
    let on_disk = fs::read_to_string(&path).unwrap();
    assert_eq!(
        on_disk, preview.after,
        "the save writes what the preview showed"
    );
    assert_eq!(
        saved.version,
        hookd_core::settings::version_token(Some(on_disk.as_bytes()))
    );
    assert_eq!(
        fs::read_to_string(saved.backup.unwrap()).unwrap(),
        PROJECT_FILE
    );
    let value: Value = serde_json::from_str(&on_disk).unwrap();
    assert_eq!(value["model"], "opus");
    assert_eq!(value["env"], json!({"RUST_LOG": "info"}));
    assert_eq!(value["hooks"]["PostToolUse"][0]["note"], "format on save");
    assert_eq!(value["hooks"]["PostToolUse"][0]["hooks"][1]["type"], "http");
    let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["model", "permissions", "hooks", "env"]);

    // Saving the same hooks again changes nothing.
    let again = hook_files(&state, &root.display().to_string()).unwrap();
    let project = loaded(&again, Kind::Agent, Scope::Project);
    let same =
        preview_hooks_save(&state, &project.file, hooks_of(project), &project.version).unwrap();
    assert!(!same.changed);
    assert_eq!(same.before, same.after);
}

#[test]
fn a_file_changed_since_it_was_loaded_is_a_conflict_and_nothing_is_written() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    let path = project_path(&root);
    write_file(&path, PROJECT_FILE);
    let files = hook_files(&state, &root.display().to_string()).unwrap();
    let project = loaded(&files, Kind::Agent, Scope::Project);
    let hooks = json!({"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]});

    let theirs = PROJECT_FILE.replace("opus", "sonnet");
    fs::write(&path, &theirs).unwrap();
    for err in [
        preview_hooks_save(&state, &project.file, hooks.clone(), &project.version).unwrap_err(),
        save_hooks(
            &state,
            &project.file,
            hooks.clone(),
            &project.version,
            false,
        )
        .unwrap_err(),
    ] {
        assert_eq!(err.kind, ErrorKind::Conflict, "{err}");
        assert!(err.message.contains("changed on disk"), "{err}");
    }
    assert_eq!(fs::read_to_string(&path).unwrap(), theirs);

    // Overwriting is a choice: force writes over their change (keeping their other keys).
    save_hooks(&state, &project.file, hooks, &project.version, true).unwrap();
    let value: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(value["model"], "sonnet");
    assert_eq!(
        value["hooks"],
        json!({"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]})
    );
}

#[test]
fn invalid_hooks_are_refused_with_their_json_path() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    let path = project_path(&root);
    write_file(&path, PROJECT_FILE);
    let files = hook_files(&state, &root.display().to_string()).unwrap();
    let project = loaded(&files, Kind::Agent, Scope::Project);
    let bad = json!({"PreToolUse": [{"matcher": "Bash(", "hooks": [{"type": "command", "command": ""}]}]});
    let err = save_hooks(&state, &project.file, bad, &project.version, false).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
    assert!(
        err.message
            .contains("hooks.PreToolUse[0].matcher: invalid regex"),
        "{err}"
    );
    assert!(
        err.message
            .contains("hooks.PreToolUse[0].hooks[0].command: expected a non-empty string"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), PROJECT_FILE);
    let err = save_hooks(&state, &project.file, json!([1]), &project.version, false).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
}

#[test]
fn saving_a_missing_file_creates_it_and_managed_files_get_hookds_gitignore() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    let managed = file(&root, Kind::Managed, Scope::Project);
    let hooks = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./deny-rm.sh"}]}]});
    let preview = preview_hooks_save(&state, &managed, hooks.clone(), "absent").unwrap();
    assert!(preview.creates && preview.changed);
    assert_eq!(preview.before, "");
    let saved = save_hooks(&state, &managed, hooks, "absent", false).unwrap();
    assert!(saved.created && saved.backup.is_none());
    let path = root.join(".hookd/settings.json");
    assert_eq!(fs::read_to_string(&path).unwrap(), preview.after);
    assert!(
        fs::read_to_string(root.join(".hookd/.gitignore"))
            .unwrap()
            .contains("!settings.json")
    );

    // The global agent file lives in the (temp) home.
    let global = FileRef {
        project: None,
        kind: Kind::Agent,
        scope: Scope::Global,
    };
    save_hooks(
        &state,
        &global,
        json!({"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}),
        "absent",
        false,
    )
    .unwrap();
    assert!(env.home().join(".claude/settings.json").is_file());

    // A project scope needs a project, and the project must exist.
    let no_project = FileRef {
        project: None,
        kind: Kind::Managed,
        scope: Scope::Project,
    };
    assert_eq!(
        save_hooks(&state, &no_project, json!({}), "absent", false)
            .unwrap_err()
            .kind,
        ErrorKind::InvalidInput
    );
    let gone = FileRef {
        project: Some("/no/such/project".into()),
        ..managed
    };
    assert_eq!(
        save_hooks(&state, &gone, json!({}), "absent", false)
            .unwrap_err()
            .kind,
        ErrorKind::NotFound
    );
}

#[test]
fn disable_and_enable_go_through_hookds_store_and_restore_the_file() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    let path = project_path(&root);
    write_file(&path, PROJECT_FILE);
    let project_root = root.display().to_string();
    let files = hook_files(&state, &project_root).unwrap();
    let project = loaded(&files, Kind::Agent, Scope::Project);
    let hook = HookRef {
        event: "PostToolUse".into(),
        matcher: Some("Write|Edit".into()),
        command: "cargo fmt".into(),
    };

    let err = set_hook_enabled(&state, &project.file, &hook, false, "absent").unwrap_err();
    assert_eq!(err.kind, ErrorKind::Conflict, "a stale version");
    assert_eq!(
        set_hook_enabled(&state, &project.file, &hook, false, &project.version).unwrap(),
        1
    );
    let text = fs::read_to_string(&path).unwrap();
    assert!(!text.contains("cargo fmt"), "taken out of the file: {text}");
    assert!(text.contains("\"model\": \"opus\""));
    let store = fs::read_to_string(env.home().join(".hookd/disabled.json")).unwrap();
    assert!(store.contains("cargo fmt"), "{store}");

    let files = hook_files(&state, &project_root).unwrap();
    let project = loaded(&files, Kind::Agent, Scope::Project);
    assert_eq!(project.disabled.len(), 1);
    assert_eq!(project.disabled[0].command.as_deref(), Some("cargo fmt"));
    assert_eq!(project.disabled[0].matcher.as_deref(), Some("Write|Edit"));
    let view = effective_hooks(&state, &project_root).unwrap();
    let entry = view
        .hooks
        .iter()
        .find(|h| h.command.as_deref() == Some("cargo fmt"))
        .unwrap();
    assert!(!entry.enabled);

    set_hook_enabled(&state, &project.file, &hook, true, &project.version).unwrap();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        PROJECT_FILE,
        "back exactly where it was"
    );
}

#[test]
fn move_hook_takes_it_from_one_scope_to_another_without_losing_it() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    let from_path = project_path(&root);
    write_file(&from_path, PROJECT_FILE);
    let project_root = root.display().to_string();
    let files = hook_files(&state, &project_root).unwrap();
    let from = loaded(&files, Kind::Agent, Scope::Project);
    let to = file(&root, Kind::Agent, Scope::Local);
    let hook = HookRef {
        event: "PostToolUse".into(),
        matcher: Some("Write|Edit".into()),
        command: "cargo fmt".into(),
    };

    let err = move_hook(
        &state,
        &from.file,
        &from.file,
        &hook,
        &versions(&from.version, "absent"),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
    let err = preview_move_hook(&state, &from.file, &from.file, &hook, &from.version).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
    let err = move_hook(
        &state,
        &from.file,
        &to,
        &hook,
        &versions("absent", "absent"),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Conflict);
    let err = preview_move_hook(&state, &from.file, &to, &hook, "absent").unwrap_err();
    assert_eq!(err.kind, ErrorKind::Conflict);

    // A destination that already has it refuses before anything is written.
    let to_path = root.join(".claude/settings.local.json");
    let existing = r#"{"hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "cargo fmt"}]}]}}"#;
    write_file(&to_path, existing);
    let err = preview_move_hook(&state, &from.file, &to, &hook, &from.version).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput, "{err}");
    let token = hookd_core::settings::version_token(Some(existing.as_bytes()));
    let err = move_hook(
        &state,
        &from.file,
        &to,
        &hook,
        &versions(&from.version, &token),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput, "{err}");
    assert!(
        err.message.contains("already has this PostToolUse hook"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&from_path).unwrap(), PROJECT_FILE);
    assert_eq!(fs::read_to_string(&to_path).unwrap(), existing);

    fs::remove_file(&to_path).unwrap();
    let preview = preview_move_hook(&state, &from.file, &to, &hook, &from.version).unwrap();
    assert_eq!(preview.moved, 1);
    assert!(preview.to.creates && preview.to.changed && preview.to.before.is_empty());
    assert_eq!(preview.versions, versions(&from.version, "absent"));
    assert!(preview.from.changed && !preview.from.creates);
    assert_eq!(preview.from.before, PROJECT_FILE);
    assert_eq!(
        fs::read_to_string(&from_path).unwrap(),
        PROJECT_FILE,
        "a preview writes nothing"
    );
    assert!(!to_path.exists(), "a preview creates nothing");
    let moved = move_hook(&state, &from.file, &to, &hook, &preview.versions).unwrap();
    assert_eq!(moved.moved, 1);
    assert_eq!(moved.to, to_path.display().to_string());
    assert_eq!(
        fs::read_to_string(&from_path).unwrap(),
        preview.from.after,
        "the source is written byte for byte as previewed"
    );
    assert_eq!(
        fs::read_to_string(&to_path).unwrap(),
        preview.to.after,
        "the destination is written byte for byte as previewed"
    );
    let from_value: Value = serde_json::from_str(&fs::read_to_string(&from_path).unwrap()).unwrap();
    assert_eq!(
        from_value["hooks"]["PostToolUse"][0]["hooks"],
        json!([{"type": "http", "url": "https://example.invalid/hook"}]),
        "the other handler of the group stays"
    );
    let to_value: Value = serde_json::from_str(&fs::read_to_string(&to_path).unwrap()).unwrap();
    assert_eq!(
        to_value["hooks"]["PostToolUse"],
        json!([{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "cargo fmt", "async": true}]}]),
        "moved verbatim, unknown fields included"
    );

    // Also across kinds: agent → hookd's managed hooks.
    let files = hook_files(&state, &project_root).unwrap();
    let local = loaded(&files, Kind::Agent, Scope::Local);
    let managed_path = root.join(".hookd/settings.local.json");
    let managed_text = "{\n  \"hooks\": {}\n}\n";
    write_file(&managed_path, managed_text);
    let managed = file(&root, Kind::Managed, Scope::Local);
    let preview = preview_move_hook(&state, &local.file, &managed, &hook, &local.version).unwrap();
    assert_eq!(preview.to.before, managed_text);

    // The destination changed after the review: the move refuses, writing nothing.
    let changed = "{\n  \"hooks\": {},\n  \"model\": \"x\"\n}\n";
    write_file(&managed_path, changed);
    let err = move_hook(&state, &local.file, &managed, &hook, &preview.versions).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Conflict, "{err}");
    assert_eq!(fs::read_to_string(&managed_path).unwrap(), changed);
    assert!(fs::read_to_string(&to_path).unwrap().contains("cargo fmt"));

    let preview = preview_move_hook(&state, &local.file, &managed, &hook, &local.version).unwrap();
    move_hook(&state, &local.file, &managed, &hook, &preview.versions).unwrap();
    assert_eq!(fs::read_to_string(&managed_path).unwrap(), preview.to.after);
    assert!(preview.to.after.contains("cargo fmt"));
    assert!(!fs::read_to_string(&to_path).unwrap().contains("cargo fmt"));
}

#[test]
fn a_group_whose_matcher_is_no_pattern_is_listed_and_the_file_still_saves() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    let path = project_path(&root);
    let text = r#"{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash(*docker*)", "hooks": [{"type": "command", "command": "./docker-guard.sh"}]},
      {"matcher": "Edit", "hooks": [{"type": "command", "command": "./edit-guard.sh"}]}
    ]
  }
}
"#;
    write_file(&path, text);
    let files = hook_files(&state, &root.display().to_string()).unwrap();
    let project = loaded(&files, Kind::Agent, Scope::Project);
    assert!(project.editable, "a bad matcher does not lock the file");
    assert!(project.problems.is_empty(), "{:?}", project.problems);
    assert_eq!(project.bad_matchers.len(), 1, "{:?}", project.bad_matchers);
    let bad = &project.bad_matchers[0];
    assert_eq!(bad.path, "hooks.PreToolUse[0].matcher");
    assert_eq!(bad.text, "Bash(*docker*)");
    assert!(bad.why.contains("at position 5"), "{}", bad.why);
    let value = serde_json::to_value(project).unwrap();
    assert_eq!(value["bad_matchers"][0]["text"], "Bash(*docker*)");

    // An unrelated edit (the Edit group's hook removed) saves; the flagged group stays.
    let mut hooks = hooks_of(project);
    hooks["PreToolUse"].as_array_mut().unwrap().remove(1);
    save_hooks(&state, &project.file, hooks, &project.version, false).unwrap();
    let on_disk = fs::read_to_string(&path).unwrap();
    assert!(
        on_disk.contains("Bash(*docker*)") && !on_disk.contains("edit-guard"),
        "{on_disk}"
    );

    // A new group with a bad matcher is still refused, with its position.
    let files = hook_files(&state, &root.display().to_string()).unwrap();
    let project = loaded(&files, Kind::Agent, Scope::Project);
    let mut hooks = hooks_of(project);
    hooks["Stop"] = json!([{"matcher": "Edit(", "hooks": [{"type": "command", "command": "x"}]}]);
    let err = save_hooks(&state, &project.file, hooks, &project.version, false).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput, "{err}");
    assert!(err.message.contains("position 4"), "{err}");
}

#[test]
fn effective_view_lists_both_kinds_with_sources_duplicates_and_problems() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    write_file(
        &env.home().join(".claude/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
    );
    write_file(
        &project_path(&root),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
    );
    write_file(&root.join(".claude/settings.local.json"), "{ broken");
    write_file(
        &root.join(".hookd/settings.json"),
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done", "timeout": 5}]}]}}"#,
    );

    let view = effective_hooks(&state, &root.display().to_string()).unwrap();
    let rows: Vec<(Kind, Scope, &str, Option<u64>)> = view
        .hooks
        .iter()
        .map(|h| (h.kind, h.scope, h.summary.as_str(), h.duplicate_of))
        .collect();
    assert_eq!(
        rows,
        [
            (Kind::Agent, Scope::Global, "./guard.sh", None),
            (Kind::Agent, Scope::Project, "./guard.sh", Some(0)),
            (Kind::Managed, Scope::Project, "say done", None),
        ]
    );
    assert_eq!(
        view.hooks[1].path,
        project_path(&root).display().to_string()
    );
    assert_eq!(view.hooks[2].timeout, Some(5.0));
    assert_eq!(view.hooks[2].index, 2);
    let skipped: Vec<&str> = view
        .files
        .iter()
        .filter(|f| f.skipped)
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(
        skipped,
        [root
            .join(".claude/settings.local.json")
            .display()
            .to_string()]
    );
    assert_eq!(view.errors.len(), 1);
    assert!(
        view.errors[0].contains("not valid JSON"),
        "{:?}",
        view.errors
    );
    assert_eq!(view.files.len(), 6);
}

#[test]
fn matcher_checks_give_the_kind_the_error_position_and_the_tools_matched() {
    let check = check_matcher("PreToolUse", Some("Bash")).unwrap();
    assert!(check.ok && check.supported);
    assert_eq!(check.kind.as_deref(), Some("exact"));
    assert_eq!(check.matches, ["Bash"]);
    assert_eq!(check.field.as_deref(), Some("tool_name"));

    let check = check_matcher("PreToolUse", Some("Edit.*")).unwrap();
    assert_eq!(check.kind.as_deref(), Some("regex"));
    assert_eq!(check.matches, ["Edit", "MultiEdit", "NotebookEdit"]);

    let check = check_matcher("PreToolUse", None).unwrap();
    assert_eq!(check.kind.as_deref(), Some("all"));
    assert_eq!(check.matches.len() as u64, check.known);

    let check = check_matcher("pre_tool_use", Some("Edit(")).unwrap();
    assert!(!check.ok);
    assert_eq!(check.position, Some(4));
    assert!(
        check.error.as_deref().unwrap().contains("position 4"),
        "{check:?}"
    );
    assert!(check.matches.is_empty());

    let check = check_matcher("SessionStart", Some("resume|clear")).unwrap();
    assert_eq!(check.matches, ["resume", "clear"]);
    assert!(!check_matcher("Stop", Some("x")).unwrap().supported);

    let err = check_matcher("PreToolUs", None).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
    assert!(err.message.contains("did you mean PreToolUse"), "{err}");
}

#[test]
fn the_event_catalogue_has_descriptions_matchers_and_timeouts() {
    let events = hook_events();
    assert!(events.len() >= 30);
    let pre = events.iter().find(|e| e.name == "PreToolUse").unwrap();
    assert!(pre.takes_matcher);
    assert_eq!(pre.match_field.as_deref(), Some("tool_name"));
    assert!(pre.known_targets.iter().any(|t| t == "Bash"));
    assert!(pre.description.contains("blocks"));
    let prompt = events
        .iter()
        .find(|e| e.name == "UserPromptSubmit")
        .unwrap();
    assert!(!prompt.takes_matcher);
    assert_eq!(prompt.default_timeout_secs, 30);
    assert!(events.iter().all(|e| !e.description.is_empty()));
}

/// The Effective view lists the hooks installed plugins ship, read-only
/// with their plugin and version, a disabled plugin's too (not running).
#[test]
fn the_effective_view_lists_plugin_hooks_with_their_plugin() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    let guard = env.install_plugin(
        "guard@market",
        "1.0.0",
        &json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/guard.sh"}]}]}),
    );
    let notes = env.install_plugin(
        "notes@market",
        "2.1.0",
        &json!({"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}),
    );
    let settings = env.home().join(".claude/settings.json");
    env.enable_plugin(&settings, "guard@market", true);
    // The project's file, of higher precedence, turns the other one off.
    env.enable_plugin(&root.join(".claude/settings.json"), "notes@market", false);

    let view = effective_hooks(&state, &root.display().to_string()).unwrap();
    let rows: Vec<_> = view
        .plugins
        .iter()
        .map(|p| {
            (
                p.plugin.as_str(),
                p.version.as_deref(),
                p.enabled,
                p.event.as_str(),
                p.matcher.as_deref(),
                p.runs.as_str(),
                p.path.as_path(),
            )
        })
        .collect();
    let guard_json = guard.join("hooks/hooks.json");
    let notes_json = notes.join("hooks/hooks.json");
    assert_eq!(
        rows,
        [
            (
                "guard@market",
                Some("1.0.0"),
                true,
                "PreToolUse",
                Some("Bash"),
                "${CLAUDE_PLUGIN_ROOT}/guard.sh",
                guard_json.as_path(),
            ),
            (
                "notes@market",
                Some("2.1.0"),
                false,
                "Stop",
                None,
                "say done",
                notes_json.as_path(),
            ),
        ]
    );
    // They are no settings file's hooks.
    assert!(view.hooks.is_empty(), "{:?}", view.hooks);
}

/// The Effective view lists the hooks in skills' and subagents'
/// frontmatter, read-only with whose they are (a subagent's Stop runs as
/// SubagentStop), and a frontmatter that does not parse as a problem.
#[test]
fn the_effective_view_lists_skill_and_agent_hooks_and_their_problems() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let root = repo.root();
    let skill = root.join(".claude/skills/lint-on-save/SKILL.md");
    write_file(
        &skill,
        "---\nname: lint-on-save\ndescription: lints\nhooks:\n  PostToolUse:\n    - matcher: \"Write|Edit\"\n      hooks:\n        - type: command\n          command: ./lint.sh\n          once: true\n---\nBody.\n",
    );
    let agent = env.home().join(".claude/agents/reviewer.md");
    write_file(
        &agent,
        "---\nname: reviewer\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ./summarise.sh\n---\n",
    );
    let broken = root.join(".claude/agents/broken.md");
    write_file(&broken, "---\nname: [unclosed\n---\n");

    let view = effective_hooks(&state, &root.display().to_string()).unwrap();
    let rows: Vec<_> = view
        .components
        .iter()
        .map(|c| {
            (
                format!("{:?} {:?}", c.kind, c.origin),
                c.name.as_str(),
                c.event.as_str(),
                c.fires_as.as_str(),
                c.matcher.as_deref(),
                c.runs.as_str(),
                c.once,
                c.path.as_path(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (
                "Agent User".to_owned(),
                "reviewer",
                "Stop",
                "SubagentStop",
                None,
                "./summarise.sh",
                false,
                agent.as_path(),
            ),
            (
                "Skill Project".to_owned(),
                "lint-on-save",
                "PostToolUse",
                "PostToolUse",
                Some("Write|Edit"),
                "./lint.sh",
                true,
                skill.as_path(),
            ),
        ]
    );
    assert_eq!(
        view.component_problems.len(),
        1,
        "{:?}",
        view.component_problems
    );
    assert_eq!(view.component_problems[0].path, broken);
    assert!(
        view.component_problems[0]
            .message
            .contains("not valid YAML"),
        "{:?}",
        view.component_problems
    );
    assert!(view.hooks.is_empty(), "{:?}", view.hooks);
}
