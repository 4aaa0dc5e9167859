//! `hookd connect` / `hookd disconnect` end to end: the real binary, a temp
//! HOME, real settings files on disk.

use std::fs;
use std::path::{Path, PathBuf};

use hookd_testkit::{TestEnv, read_json};
use serde_json::{Value, json};

const EVENTS: [(&str, &str); 11] = [
    ("PreToolUse", "pre_tool_use"),
    ("PostToolUse", "post_tool_use"),
    ("PostToolUseFailure", "post_tool_use_failure"),
    ("SessionStart", "session_start"),
    ("SessionEnd", "session_end"),
    ("UserPromptSubmit", "user_prompt_submit"),
    ("Stop", "stop"),
    ("SubagentStart", "subagent_start"),
    ("SubagentStop", "subagent_stop"),
    ("Notification", "notification"),
    ("PreCompact", "pre_compact"),
];

fn expected_hooks(emit: &str) -> Value {
    let mut hooks = serde_json::Map::new();
    for (event, arg) in EVENTS {
        let handler = json!({"type": "command", "command": format!("{emit} {arg}"), "timeout": 10});
        let group = if arg.ends_with("tool_use") || arg.ends_with("tool_use_failure") {
            json!({"matcher": "*", "hooks": [handler]})
        } else {
            json!({"hooks": [handler]})
        };
        hooks.insert(event.to_owned(), json!([group]));
    }
    Value::Object(hooks)
}

#[test]
fn user_scope_connect_twice_then_disconnect() {
    let env = TestEnv::new();
    let home = env.home();
    let settings = home.join(".claude/settings.json");

    let run = env.hookd(&home, &["connect", "--emit-command", "hookd-emit"]);
    assert!(run.ok(), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "Connected hookd to ~/.claude/settings.json: created it with 11 hook groups\n"
    );
    assert_eq!(
        read_json(&settings),
        json!({"hooks": expected_hooks("hookd-emit")})
    );
    let bytes = fs::read(&settings).unwrap();
    assert!(bytes.starts_with(b"{\n  \"hooks\": {\n"));
    assert!(bytes.ends_with(b"}\n"));

    let run = env.hookd(&home, &["connect", "--emit-command", "hookd-emit"]);
    assert!(run.ok(), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "Already connected: nothing to change in ~/.claude/settings.json\n"
    );
    assert_eq!(fs::read(&settings).unwrap(), bytes);
    assert!(!home.join(".claude/settings.json.hookd-backup").exists());

    let run = env.hookd(&home, &["disconnect"]);
    assert!(run.ok(), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "Disconnected hookd from ~/.claude/settings.json: removed 11 hookd handlers (previous version kept: `hookd hooks backups` lists it)\n"
    );
    assert_eq!(read_json(&settings), json!({}));
    assert_eq!(kept_versions(&env, &settings), std::slice::from_ref(&bytes));
    assert!(!home.join(".claude/settings.json.hookd-backup").exists());

    // The kept version comes back, and the restore is undoable in turn.
    let run = env.hookd(
        &home,
        &["hooks", "restore-backup", settings.to_str().unwrap()],
    );
    assert!(run.ok(), "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("Restored ~/.claude/settings.json to version 1 "),
        "{}",
        run.stdout
    );
    assert_eq!(fs::read(&settings).unwrap(), bytes);
    assert_eq!(read_json(&kept_path(&env, &settings, 0)), json!({}));
    assert!(env.hookd(&home, &["disconnect"]).ok());

    let run = env.hookd(&home, &["disconnect"]);
    assert!(run.ok(), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "Not connected: no hookd hooks in ~/.claude/settings.json\n"
    );
}

#[test]
fn user_scope_keeps_existing_settings() {
    let env = TestEnv::new();
    let home = env.home();
    fs::create_dir(home.join(".claude")).unwrap();
    let settings = home.join(".claude/settings.json");
    let original = "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\n                \"matcher\": \"Bash\",\n                \"hooks\": [\n                    {\n                        \"type\": \"http\",\n                        \"url\": \"http://localhost:9/h\"\n                    }\n                ]\n            }\n        ]\n    },\n    \"env\": {\n        \"A\": \"1\"\n    }\n}\n";
    fs::write(&settings, original).unwrap();

    let run = env.hookd(
        &home,
        &["connect", "--emit-command", "/opt/hookd bin/hookd-emit"],
    );
    assert!(run.ok(), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "Connected hookd to ~/.claude/settings.json: added 11 hook groups (previous version kept: `hookd hooks backups` lists it)\n"
    );
    let after = read_json(&settings);
    assert_eq!(
        after["hooks"]["PreToolUse"],
        json!([
            {"matcher": "Bash", "hooks": [{"type": "http", "url": "http://localhost:9/h"}]},
            {"matcher": "*", "hooks": [{"type": "command", "command": "'/opt/hookd bin/hookd-emit' pre_tool_use", "timeout": 10}]}
        ])
    );
    let text = fs::read_to_string(&settings).unwrap();
    assert!(
        text.starts_with("{\n    \"model\": \"opus\",\n    \"hooks\": {\n"),
        "{text}"
    );
    assert_eq!(
        kept_versions(&env, &settings),
        [original.as_bytes().to_vec()]
    );

    let run = env.hookd(&home, &["disconnect"]);
    assert!(run.ok(), "{}", run.stderr);
    assert_eq!(fs::read_to_string(&settings).unwrap(), original);
}

#[test]
fn default_emit_command_runs_hookd_emit() {
    let env = TestEnv::new();
    let home = env.home();
    let run = env.hookd(&home, &["connect"]);
    assert!(run.ok(), "{}", run.stderr);
    let settings = read_json(&home.join(".claude/settings.json"));
    let command = settings["hooks"]["Stop"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let beside = Path::new(env!("CARGO_BIN_EXE_hookd")).with_file_name("hookd-emit");
    // Absolute path when hookd-emit is built next to hookd, else found on PATH.
    if beside.is_file() && !beside.to_str().unwrap().contains(' ') {
        assert_eq!(command, format!("{} stop", beside.display()));
    } else if !beside.is_file() {
        assert_eq!(command, "hookd-emit stop");
    }
    assert!(command.ends_with("hookd-emit stop") || command.ends_with("hookd-emit' stop"));
}

#[test]
fn project_scope_uses_the_git_root() {
    let env = TestEnv::new();
    let home = env.home();
    let work = tempfile::tempdir().unwrap();
    let repo = work.path().join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    fs::create_dir_all(repo.join("src/deep")).unwrap();

    let run = env.hookd(
        &home,
        &[
            "connect",
            "--scope",
            "project",
            "--project",
            repo.join("src/deep").to_str().unwrap(),
            "--emit-command",
            "hookd-emit",
        ],
    );
    assert!(run.ok(), "{}", run.stderr);
    let settings = repo.join(".claude/settings.json");
    assert!(
        run.stdout.starts_with("Connected hookd to "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("repo/.claude/settings.json: created it with 11 hook groups"),
        "{}",
        run.stdout
    );
    assert_eq!(
        read_json(&settings),
        json!({"hooks": expected_hooks("hookd-emit")})
    );
    assert!(!repo.join("src/deep/.claude").exists());
    assert!(!home.join(".claude").exists());

    let run = env.hookd(
        &repo.join("src"),
        &["disconnect", "--scope", "project", "--dry-run"],
    );
    assert!(run.ok(), "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("Dry run: would remove 11 hookd handlers from "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("PreToolUse, PostToolUse,"),
        "{}",
        run.stdout
    );
    assert_eq!(
        read_json(&settings),
        json!({"hooks": expected_hooks("hookd-emit")})
    );
}

#[test]
fn local_scope_defaults_to_the_current_directory() {
    let env = TestEnv::new();
    let work = tempfile::tempdir().unwrap();
    let repo = work.path().join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    fs::create_dir_all(repo.join("sub")).unwrap();
    let local = repo.join(".claude/settings.local.json");
    fs::create_dir(repo.join(".claude")).unwrap();
    fs::write(
        &local,
        "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(ls)\"\n    ]\n  }\n}\n",
    )
    .unwrap();

    let run = env.hookd(
        &repo.join("sub"),
        &["connect", "--scope", "local", "--dry-run"],
    );
    assert!(run.ok(), "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("Dry run: would add 11 hook groups to "),
        "{}",
        run.stdout
    );
    assert!(
        !repo
            .join(".claude/settings.local.json.hookd-backup")
            .exists()
    );
    assert_eq!(
        read_json(&local),
        json!({"permissions": {"allow": ["Bash(ls)"]}})
    );

    let run = env.hookd(
        &repo.join("sub"),
        &[
            "connect",
            "--scope",
            "local",
            "--emit-command",
            "hookd-emit",
        ],
    );
    assert!(run.ok(), "{}", run.stderr);
    assert_eq!(
        read_json(&local),
        json!({"permissions": {"allow": ["Bash(ls)"]}, "hooks": expected_hooks("hookd-emit")})
    );
    assert!(!repo.join(".claude/settings.json").exists());

    let run = env.hookd(&repo.join("sub"), &["disconnect", "--scope", "local"]);
    assert!(run.ok(), "{}", run.stderr);
    assert_eq!(
        fs::read_to_string(&local).unwrap(),
        "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(ls)\"\n    ]\n  }\n}\n"
    );
}

#[test]
fn invalid_settings_are_refused_untouched() {
    let env = TestEnv::new();
    let home = env.home();
    fs::create_dir(home.join(".claude")).unwrap();
    let settings = home.join(".claude/settings.json");
    let text = r#"{"hooks": {"PreToolUse": [{"hooks": []}, 42]}}"#;
    fs::write(&settings, text).unwrap();

    for args in [&["connect"][..], &["disconnect"][..]] {
        let run = env.hookd(&home, args);
        assert!(!run.ok(), "{args:?} succeeded: {}", run.stdout);
        assert!(
            run.stderr.contains(&settings.display().to_string()),
            "{}",
            run.stderr
        );
        assert!(
            run.stderr
                .contains("hooks.PreToolUse[1]: expected an object"),
            "{}",
            run.stderr
        );
        assert_eq!(fs::read_to_string(&settings).unwrap(), text);
    }

    fs::write(&settings, "{\"model\": ").unwrap();
    let run = env.hookd(&home, &["connect"]);
    assert!(!run.ok());
    assert!(
        run.stderr.contains("not valid JSON: EOF while parsing"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read_to_string(&settings).unwrap(), "{\"model\": ");
    assert!(!home.join(".claude/settings.json.hookd-backup").exists());
}

#[test]
fn disconnect_without_a_file_has_nothing_to_do() {
    let env = TestEnv::new();
    let home = env.home();
    let run = env.hookd(&home, &["disconnect"]);
    assert!(run.ok(), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "Nothing to do: ~/.claude/settings.json does not exist\n"
    );
    assert!(!home.join(".claude").exists());
}

#[test]
fn bad_flags_are_refused() {
    let env = TestEnv::new();
    let home = env.home();
    let run = env.hookd(&home, &["connect", "--project", home.to_str().unwrap()]);
    assert!(!run.ok());
    assert!(run.stderr.contains("--scope project"), "{}", run.stderr);

    // One vocabulary with `hookd hooks`: global is the user's file (user is
    // an alias); policy is never written.
    let run = env.hookd(&home, &["connect", "--scope", "policy"]);
    assert!(!run.ok());
    assert!(run.stderr.contains("global"), "{}", run.stderr);
    for scope in ["global", "user"] {
        let run = env.hookd(&home, &["connect", "--scope", scope, "--dry-run"]);
        assert!(run.ok(), "{}", run.stderr);
        assert!(
            run.stdout.contains(".claude/settings.json"),
            "{}",
            run.stdout
        );
    }

    let run = env.hookd(&home, &["connect", "--emit-command", "/usr/bin/true"]);
    assert!(!run.ok());
    assert!(run.stderr.contains("hookd-emit"), "{}", run.stderr);

    let run = env.hookd(
        &home,
        &[
            "connect",
            "--scope",
            "project",
            "--project",
            home.join("missing").to_str().unwrap(),
        ],
    );
    assert!(!run.ok());
    assert!(run.stderr.contains("missing"), "{}", run.stderr);
    assert!(!home.join("missing").exists());
    assert!(!home.join(".claude").exists());
}

#[test]
fn managed_flag_switches_to_wait_entries_and_back() {
    let env = TestEnv::new();
    let home = env.home();
    let settings = home.join(".claude/settings.json");
    let run = env.hookd(
        &home,
        &["connect", "--managed", "--emit-command", "hookd-emit"],
    );
    assert!(run.ok(), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "Connected hookd (managed mode: hookd-emit --wait) to ~/.claude/settings.json: created it with 13 hook groups\n"
    );
    let value = read_json(&settings);
    let hooks = value["hooks"].as_object().unwrap();
    assert_eq!(hooks.len(), 13);
    assert_eq!(
        hooks["PreToolUse"],
        json!([{"matcher": "*", "hooks": [{"type": "command", "command": "hookd-emit --wait pre_tool_use", "timeout": 610}]}])
    );
    assert_eq!(
        hooks["PermissionRequest"][0]["hooks"][0]["command"],
        "hookd-emit --wait permission_request"
    );
    assert_eq!(hooks["UserPromptSubmit"][0]["hooks"][0]["timeout"], 40);

    // Plain connect switches back to recording-only entries, one per event.
    let back = env.hookd(&home, &["connect", "--emit-command", "hookd-emit"]);
    assert!(back.ok(), "{}", back.stderr);
    assert_eq!(read_json(&settings)["hooks"], expected_hooks("hookd-emit"));
}

/// What `hookd hooks backups FILE --format json` lists of `file`'s kept versions.
fn listed_versions(env: &TestEnv, file: &Path) -> Vec<Value> {
    let run = env.hookd(
        &env.home(),
        &[
            "hooks",
            "backups",
            file.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert!(run.ok(), "{}", run.stderr);
    let listed: Value = serde_json::from_str(&run.stdout).unwrap();
    listed[0]["versions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Where version `n` (0: the newest) of `file` is kept.
fn kept_path(env: &TestEnv, file: &Path, n: usize) -> PathBuf {
    PathBuf::from(listed_versions(env, file)[n]["path"].as_str().unwrap())
}

/// The contents of every kept version of `file`, newest first.
fn kept_versions(env: &TestEnv, file: &Path) -> Vec<Vec<u8>> {
    listed_versions(env, file)
        .iter()
        .map(|v| fs::read(v["path"].as_str().unwrap()).unwrap())
        .collect()
}
