//! `hookd templates` end to end: the real binary installs and uninstalls
//! catalog templates in a real git repository with a temp HOME, and the
//! settings files keep every other key and hook, installing twice changes
//! nothing, and uninstalling removes exactly what was installed.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use hookd_testkit::{GitRepo, Run, TestEnv, read_json, tool_payload, write_json_pretty};
use serde_json::{Value, json};

fn ok(run: &Run) -> String {
    run.assert_ok().to_owned()
}

fn catalog_file(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../hooks-templates")
            .join(name),
    )
    .unwrap()
}

/// Settings with other keys and hooks than any template's.
fn busy_settings() -> Value {
    json!({
        "model": "opus",
        "permissions": {"allow": ["Bash(ls:*)"], "deny": []},
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "./mine.sh", "timeout": 5}]},
                {"matcher": "Write", "hooks": [{"type": "http", "url": "http://localhost:1/x"}]}
            ],
            "Stop": [{"hooks": [{"type": "command", "command": "make check"}]}]
        },
        "env": {"A": "1"}
    })
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

const SHELL_CMD: &str = "\"$CLAUDE_PROJECT_DIR\"/.hookd/hooks/block-dangerous-shell.py";

#[test]
fn install_is_surgical_idempotent_and_uninstall_is_exact() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let sub = root.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    let settings = root.join(".claude/settings.json");
    let original = write_json_pretty(&settings, &busy_settings());

    // From a subdirectory: the git root is the project.
    let out = ok(&env.hookd(
        &sub,
        &[
            "templates",
            "install",
            "block-dangerous-shell",
            "--kind",
            "agent",
            "--scope",
            "project",
        ],
    ));
    assert!(
        out.starts_with("Installed block-dangerous-shell into"),
        "{out}"
    );
    let script = root.join(".hookd/hooks/block-dangerous-shell.py");
    assert_eq!(
        std::fs::read(&script).unwrap(),
        catalog_file("block-dangerous-shell.py")
    );
    assert_eq!(mode(&script), 0o755);

    // Exactly one handler more: in the existing Bash group, everything else as it was.
    let mut expected = busy_settings();
    expected["hooks"]["PreToolUse"][0]["hooks"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "command", "command": SHELL_CMD, "timeout": 10}));
    let after = read_json(&settings);
    assert_eq!(after, expected);
    assert_eq!(
        after.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["model", "permissions", "hooks", "env"],
        "key order kept"
    );
    let installed_bytes = std::fs::read(&settings).unwrap();

    // Twice: nothing changes, byte for byte.
    let out = ok(&env.hookd(
        &root,
        &[
            "templates",
            "install",
            "block-dangerous-shell",
            "--kind",
            "agent",
            "--project",
            sub.to_str().unwrap(),
        ],
    ));
    assert!(out.contains("is already installed"), "{out}");
    assert_eq!(std::fs::read(&settings).unwrap(), installed_bytes);

    // Uninstall: back to the original bytes, script gone.
    let out = ok(&env.hookd(
        &root,
        &[
            "templates",
            "uninstall",
            "block-dangerous-shell",
            "--kind",
            "agent",
        ],
    ));
    assert!(
        out.starts_with("Uninstalled block-dangerous-shell"),
        "{out}"
    );
    assert_eq!(
        String::from_utf8(std::fs::read(&settings).unwrap()).unwrap(),
        String::from_utf8(original).unwrap()
    );
    assert!(!script.exists());

    // Uninstalling again changes nothing.
    let before = std::fs::read(&settings).unwrap();
    let out = ok(&env.hookd(
        &root,
        &[
            "templates",
            "uninstall",
            "block-dangerous-shell",
            "--kind",
            "agent",
        ],
    ));
    assert!(out.contains("is not installed"), "{out}");
    assert_eq!(std::fs::read(&settings).unwrap(), before);
}

#[test]
fn a_script_shared_by_two_settings_files_stays_until_the_last_uninstall() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let install = |args: &[&str]| {
        let mut all = vec!["templates"];
        all.extend_from_slice(args);
        ok(&env.hookd(&root, &all))
    };
    install(&[
        "install",
        "protect-secrets",
        "--kind",
        "agent",
        "--scope",
        "project",
    ]);
    install(&[
        "install",
        "protect-secrets",
        "--kind",
        "managed",
        "--scope",
        "project",
    ]);
    let script = root.join(".hookd/hooks/protect-secrets.py");
    let managed = root.join(".hookd/settings.json");
    assert_eq!(
        read_json(&managed)["hooks"]["PreToolUse"][0],
        json!({"matcher": "Read|Write|Edit|MultiEdit|Bash", "hooks": [{"type": "command",
            "command": "\"$CLAUDE_PROJECT_DIR\"/.hookd/hooks/protect-secrets.py", "timeout": 10}]})
    );
    let out = install(&[
        "uninstall",
        "protect-secrets",
        "--kind",
        "agent",
        "--scope",
        "project",
    ]);
    assert!(out.contains("another settings file still runs it"), "{out}");
    assert!(script.is_file());
    assert_eq!(read_json(&root.join(".claude/settings.json")), json!({}));
    install(&[
        "uninstall",
        "protect-secrets",
        "--kind",
        "managed",
        "--scope",
        "project",
    ]);
    assert!(!script.exists());
    assert_eq!(read_json(&managed), json!({}));
}

#[test]
fn user_scope_installs_into_hookd_home_with_an_absolute_command() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let settings = env.home().join(".hookd/settings.json");
    let original = write_json_pretty(
        &settings,
        &json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}),
    );
    ok(&env.hookd(
        &root,
        &[
            "templates",
            "install",
            "stay-in-project",
            "--kind",
            "managed",
            "--scope",
            "user",
        ],
    ));
    let script: PathBuf = env.home().join(".hookd/hooks/stay-in-project.py");
    assert_eq!(mode(&script), 0o755);
    let value = read_json(&settings);
    assert_eq!(
        value["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        json!(script.to_str().unwrap())
    );
    assert_eq!(
        value["hooks"]["Stop"],
        json!([{"hooks": [{"type": "command", "command": "true"}]}])
    );
    let project_flag = env.hookd(
        &root,
        &[
            "templates",
            "install",
            "stay-in-project",
            "--scope",
            "user",
            "--project",
            ".",
        ],
    );
    assert!(!project_flag.status.success());
    ok(&env.hookd(
        &root,
        &[
            "templates",
            "uninstall",
            "stay-in-project",
            "--kind",
            "managed",
            "--scope",
            "global",
        ],
    ));
    assert_eq!(std::fs::read(&settings).unwrap(), original);
    assert!(!script.exists());
}

#[test]
fn record_into_hookd_is_what_hookd_connect_installs() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let refused = env.hookd(
        &root,
        &[
            "templates",
            "install",
            "record-into-hookd",
            "--kind",
            "managed",
        ],
    );
    assert!(!refused.status.success());
    assert!(refused.stderr.contains("use --kind agent"));

    let settings = root.join(".claude/settings.json");
    let original = write_json_pretty(&settings, &busy_settings());
    ok(&env.hookd(
        &root,
        &[
            "templates",
            "install",
            "record-into-hookd",
            "--kind",
            "agent",
        ],
    ));
    let by_template = std::fs::read(&settings).unwrap();
    let out = ok(&env.hookd(
        &root,
        &[
            "templates",
            "install",
            "record-into-hookd",
            "--kind",
            "agent",
        ],
    ));
    assert!(out.contains("is already installed"), "{out}");
    assert_eq!(std::fs::read(&settings).unwrap(), by_template);

    // `hookd connect` on the original gives the very same file.
    let other = GitRepo::new();
    let other_settings = other.root().join(".claude/settings.json");
    write_json_pretty(&other_settings, &busy_settings());
    ok(&env.hookd(&other.root(), &["connect", "--scope", "project"]));
    assert_eq!(read_json(&other_settings), read_json(&settings));

    ok(&env.hookd(
        &root,
        &[
            "templates",
            "uninstall",
            "record-into-hookd",
            "--kind",
            "agent",
        ],
    ));
    assert_eq!(read_json(&settings), read_json_bytes(&original));
}

fn read_json_bytes(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap()
}

#[test]
fn list_and_show_read_the_embedded_catalog() {
    let env = TestEnv::new();
    let dir = tempfile::tempdir().unwrap();
    let listed: Value =
        serde_json::from_str(&ok(&env.hookd(dir.path(), &["templates", "list", "--json"])))
            .unwrap();
    let names: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    let index: Value = serde_json::from_slice(&catalog_file("index.json")).unwrap();
    let want: Vec<&str> = index["templates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, want);
    assert!(names.contains(&"block-dangerous-shell"));
    let shown = ok(&env.hookd(
        dir.path(),
        &["templates", "show", "protect-main-branch", "--script"],
    ));
    assert!(shown.starts_with("protect-main-branch: "), "{shown}");
    assert!(shown.contains(&String::from_utf8(catalog_file("protect-main-branch.py")).unwrap()));
    let unknown = env.hookd(dir.path(), &["templates", "show", "nope"]);
    assert!(!unknown.status.success());
    assert!(unknown.stderr.contains("no template named \"nope\""));
}

#[test]
fn record_into_hookd_leaves_managed_mode_alone() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    ok(&env.hookd(&root, &["connect", "--managed", "--scope", "project"]));
    let settings = root.join(".claude/settings.json");
    let managed = std::fs::read(&settings).unwrap();
    let out = ok(&env.hookd(
        &root,
        &[
            "templates",
            "install",
            "record-into-hookd",
            "--kind",
            "agent",
        ],
    ));
    assert!(out.contains("is already installed"), "{out}");
    assert_eq!(std::fs::read(&settings).unwrap(), managed);
}

/// A guard installed into a project whose agent only records through hookd
/// guards nothing: the install says so and names the switch, `hooks list`
/// says `record-only` with the reason, and after the switch it runs.
#[test]
fn a_managed_guard_in_a_record_only_project_is_said_not_to_run() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    ok(&env.hookd(&root, &["connect", "--scope", "local"]));
    let install = [
        "templates",
        "install",
        "protect-secrets",
        "--kind",
        "managed",
        "--scope",
        "project",
    ];
    let out = env.hookd(&root, &install);
    out.assert_ok();
    assert!(
        out.stderr
            .contains("protect-secrets does not run for this project yet")
            && out.stderr.contains("to record only")
            && out
                .stderr
                .contains("`hookd connect --managed --scope local`"),
        "{}",
        out.stderr
    );
    let listed = ok(&env.hookd(&root, &["hooks", "list", "--kind", "managed"]));
    assert!(listed.contains(" record-only "), "{listed}");
    assert!(listed.contains("1 enabled but not running"), "{listed}");
    let json: Value = serde_json::from_str(&ok(&env.hookd(
        &root,
        &["hooks", "list", "--kind", "managed", "--format", "json"],
    )))
    .unwrap();
    assert_eq!(json["hooks"][0]["will_run"]["runs"], false);
    assert_eq!(
        json["hooks"][0]["will_run"]["reasons"][0]["code"],
        "record_only"
    );

    // The switch, seen first: the diff of the file, nothing written.
    let local = root.join(".claude/settings.local.json");
    let recording = std::fs::read(&local).unwrap();
    let dry = ok(&env.hookd(
        &root,
        &["connect", "--managed", "--scope", "local", "--dry-run"],
    ));
    assert!(dry.contains(&format!("+++ {}", local.display())), "{dry}");
    assert!(
        dry.lines()
            .any(|l| l.starts_with('+') && l.contains("--wait pre_tool_use")),
        "{dry}"
    );
    assert!(
        dry.lines()
            .any(|l| l.starts_with('-') && l.contains("hookd-emit")),
        "{dry}"
    );
    assert_eq!(std::fs::read(&local).unwrap(), recording);
    ok(&env.hookd(&root, &["connect", "--managed", "--scope", "local"]));
    let listed = ok(&env.hookd(&root, &["hooks", "list", "--kind", "managed"]));
    assert!(listed.contains(" runs "), "{listed}");
    assert!(!listed.contains("not running"), "{listed}");
    let again = [
        "templates",
        "install",
        "protect-secrets",
        "--kind",
        "managed",
        "--scope",
        "local",
    ];
    let out = env.hookd(&root, &again);
    out.assert_ok();
    assert!(!out.stderr.contains("does not run"), "{}", out.stderr);
}

#[test]
fn an_installed_managed_template_denies_through_the_daemon() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    ok(&env.hookd(
        &root,
        &[
            "templates",
            "install",
            "block-dangerous-shell",
            "--kind",
            "managed",
            "--scope",
            "project",
        ],
    ));
    let _daemon = env.start_daemon();
    let emit = |command: &str| {
        let payload = tool_payload(
            "PreToolUse",
            "Bash",
            &root,
            "t1",
            json!({"command": command}),
        );
        let mut cmd = env.command("hookd-emit");
        cmd.args(["--wait", "PreToolUse"])
            .current_dir(&root)
            .env("CLAUDE_PROJECT_DIR", &root)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        {
            use std::io::Write as _;
            let _ = child.stdin.take().unwrap().write_all(payload.as_bytes());
        }
        child.wait_with_output().unwrap()
    };
    let denied = emit("sudo rm  -rf   \"/\"");
    assert_eq!(denied.status.code(), Some(0), "{denied:?}");
    let answer: Value = serde_json::from_slice(&denied.stdout).expect("a JSON answer");
    assert_eq!(
        answer,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "block-dangerous-shell: `rm` would recursively delete the filesystem root (/). Delete specific files or subdirectories inside the project instead."}})
    );
    let allowed = emit("cargo test");
    assert_eq!(allowed.status.code(), Some(0), "{allowed:?}");
    assert!(allowed.stdout.is_empty(), "{allowed:?}");
}

#[test]
fn list_shows_where_each_template_is_installed_and_what_is_missing() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let run = |args: &[&str]| ok(&env.hookd(&root, args));
    run(&[
        "templates",
        "install",
        "protect-secrets",
        "--kind",
        "agent",
        "--scope",
        "project",
    ]);
    run(&[
        "templates",
        "install",
        "protect-secrets",
        "--kind",
        "managed",
        "--scope",
        "global",
    ]);
    run(&["templates", "install", "stay-in-project"]);
    std::fs::remove_file(root.join(".hookd/hooks/stay-in-project.py")).unwrap();

    let table = run(&["templates", "list"]);
    let row = |name: &str| -> String {
        table
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no row for {name} in\n{table}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(table.starts_with("NAME "), "{table}");
    assert!(
        row("protect-secrets").contains(" PreToolUse project/agent, global/managed Deny "),
        "{table}"
    );
    assert!(
        row("stay-in-project").contains(
            " PreToolUse project/managed (incomplete: script .hookd/hooks/stay-in-project.py) Deny "
        ),
        "{table}"
    );
    assert!(
        row("block-dangerous-shell").contains(" PreToolUse - Deny "),
        "{table}"
    );

    // The same from another directory with --project, as JSON.
    let elsewhere = tempfile::tempdir().unwrap();
    let listed: Value = serde_json::from_str(&ok(&env.hookd(
        elsewhere.path(),
        &[
            "templates",
            "list",
            "--json",
            "--project",
            root.to_str().unwrap(),
        ],
    )))
    .unwrap();
    let installed = |name: &str| -> Value {
        listed
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap()["installed"]
            .clone()
    };
    assert_eq!(
        installed("stay-in-project"),
        json!([{"template": "stay-in-project", "kind": "managed", "scope": "project",
            "settings": root.join(".hookd/settings.json"), "complete": false,
            "missing": ["script .hookd/hooks/stay-in-project.py"]}])
    );
    assert_eq!(installed("protect-secrets").as_array().unwrap().len(), 2);
    assert_eq!(installed("block-dangerous-shell"), json!([]));

    // Reinstalling repairs it.
    run(&["templates", "install", "stay-in-project"]);
    let table = run(&["templates", "list"]);
    assert!(
        table.lines().any(|l| l.starts_with("stay-in-project ")
            && l.contains(" project/managed ")
            && !l.contains("incomplete")),
        "{table}"
    );
}

#[test]
fn list_names_an_unparsable_settings_file_and_lists_the_others() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    ok(&env.hookd(
        &root,
        &[
            "templates",
            "install",
            "protect-secrets",
            "--kind",
            "managed",
        ],
    ));
    let broken = root.join(".claude/settings.local.json");
    std::fs::create_dir_all(broken.parent().unwrap()).unwrap();
    std::fs::write(&broken, "{ \"hooks\": [,] }").unwrap();

    let out = env.hookd(&root, &["templates", "list"]);
    let table = ok(&out);
    assert!(
        list_row(&table, "protect-secrets").contains(" project/managed "),
        "{table}"
    );
    let stderr = &out.stderr;
    assert!(
        stderr.contains(&format!("warning: {}: not valid JSON", broken.display()))
            && stderr.contains("local/agent file are not listed"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&broken).unwrap(),
        "{ \"hooks\": [,] }"
    );
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
}

/// One row of `hookd templates list`, with runs of spaces squeezed.
fn list_row(table: &str, name: &str) -> String {
    table
        .lines()
        .find(|l| l.starts_with(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no row for {name} in\n{table}"))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_new_templates_install_surgically_once_and_uninstall_exactly() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let run = |args: &[&str]| {
        let mut all = vec!["templates"];
        all.extend_from_slice(args);
        env.hookd(&root, &all)
    };
    let agent_project = root.join(".claude/settings.json");
    let original = write_json_pretty(&agent_project, &busy_settings());
    let user_agent = env.home().join(".claude/settings.json");
    let user_original = write_json_pretty(&user_agent, &json!({"model": "sonnet"}));

    let out = ok(&run(&[
        "install",
        "stop-run-tests",
        "--kind",
        "agent",
        "--scope",
        "project",
    ]));
    assert_eq!(
        out,
        "Installed stop-run-tests into R/.claude/settings.json (agent, project scope): added Stop; script copied to R/.hookd/hooks/stop-run-tests.py (previous version kept: `hookd hooks backups` lists it)\n\
         Updated R/.hookd/.gitignore: .hookd/hooks/ and settings.json can be committed; the ledger, local settings and .hookd/hooks-local/ stay out of git\n"
            .replace("R/", &format!("{}/", root.display())),
    );
    // Into the existing Stop group (no matcher), after the user's handler.
    let mut expected = busy_settings();
    expected["hooks"]["Stop"][0]["hooks"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "command",
            "command": "\"$CLAUDE_PROJECT_DIR\"/.hookd/hooks/stop-run-tests.py", "timeout": 600}));
    assert_eq!(read_json(&agent_project), expected);
    let stop_script = root.join(".hookd/hooks/stop-run-tests.py");
    assert_eq!(
        std::fs::read(&stop_script).unwrap(),
        catalog_file("stop-run-tests.py")
    );
    assert_eq!(mode(&stop_script), 0o755);

    ok(&run(&["install", "format-on-edit", "--scope", "local"]));
    let managed_local = root.join(".hookd/settings.local.json");
    assert_eq!(
        read_json(&managed_local),
        json!({"hooks": {"PostToolUse": [{"matcher": "Write|Edit|MultiEdit", "hooks": [{"type": "command",
            "command": "\"$CLAUDE_PROJECT_DIR\"/.hookd/hooks-local/format-on-edit.py", "timeout": 30}]}]}})
    );
    let format_script = root.join(".hookd/hooks-local/format-on-edit.py");
    assert_eq!(
        std::fs::read(&format_script).unwrap(),
        catalog_file("format-on-edit.py")
    );

    let installed = run(&[
        "install",
        "notify-desktop",
        "--kind",
        "agent",
        "--scope",
        "user",
    ]);
    ok(&installed);
    let warning = "hookd: warning: notify-desktop needs notify-send, which is not on PATH";
    assert_eq!(installed.stderr.contains(warning), !on_path("notify-send"));
    let notify_script = env.home().join(".hookd/hooks/notify-desktop.py");
    assert_eq!(
        read_json(&user_agent),
        json!({"model": "sonnet", "hooks": {"Notification": [{"hooks": [{"type": "command",
            "command": notify_script.to_str().unwrap(), "timeout": 10}]}]}})
    );

    // Twice: nothing changes, byte for byte.
    let snapshot = |paths: &[&Path]| -> Vec<Vec<u8>> {
        paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
    };
    let files = [
        agent_project.as_path(),
        managed_local.as_path(),
        user_agent.as_path(),
        stop_script.as_path(),
        format_script.as_path(),
        notify_script.as_path(),
    ];
    let before = snapshot(&files);
    for args in [
        &[
            "install",
            "stop-run-tests",
            "--kind",
            "agent",
            "--scope",
            "project",
        ][..],
        &["install", "format-on-edit", "--scope", "local"][..],
        &[
            "install",
            "notify-desktop",
            "--kind",
            "agent",
            "--scope",
            "global",
        ][..],
    ] {
        let out = ok(&run(args));
        assert!(out.contains("is already installed"), "{out}");
    }
    assert_eq!(snapshot(&files), before);

    let table = ok(&run(&["list"]));
    assert!(
        list_row(&table, "stop-run-tests").contains(" Stop project/agent When "),
        "{table}"
    );
    assert!(
        list_row(&table, "format-on-edit").contains(" PostToolUse local/managed After "),
        "{table}"
    );
    assert!(
        list_row(&table, "notify-desktop").contains(" Notification global/agent Show "),
        "{table}"
    );

    // Uninstall: the original bytes, scripts gone.
    ok(&run(&["uninstall", "stop-run-tests", "--kind", "agent"]));
    ok(&run(&["uninstall", "format-on-edit", "--scope", "local"]));
    ok(&run(&[
        "uninstall",
        "notify-desktop",
        "--kind",
        "agent",
        "--scope",
        "user",
    ]));
    assert_eq!(std::fs::read(&agent_project).unwrap(), original);
    assert_eq!(std::fs::read(&user_agent).unwrap(), user_original);
    assert_eq!(read_json(&managed_local), json!({}));
    for script in [&stop_script, &format_script, &notify_script] {
        assert!(!script.exists(), "{}", script.display());
    }
    let table = ok(&run(&["list"]));
    for name in ["stop-run-tests", "format-on-edit", "notify-desktop"] {
        let row = list_row(&table, name);
        assert!(!row.contains('/'), "{row}");
    }
    let out = ok(&run(&["uninstall", "stop-run-tests", "--kind", "agent"]));
    assert!(out.contains("is not installed"), "{out}");
    assert_eq!(std::fs::read(&agent_project).unwrap(), original);
}

#[test]
fn a_managed_stop_run_tests_keeps_the_agent_going_through_the_daemon() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    ok(&env.hookd(
        &root,
        &[
            "templates",
            "install",
            "stop-run-tests",
            "--scope",
            "project",
        ],
    ));
    std::fs::write(
        root.join(".hookd/stop-test-command"),
        "# the team's check\necho 'test parse ... FAILED'; exit 1\n",
    )
    .unwrap();
    let _daemon = env.start_daemon();
    let stop = |active: bool| {
        let payload = json!({"session_id": "s-1", "transcript_path": "/tmp/t.jsonl", "cwd": root,
            "hook_event_name": "Stop", "stop_hook_active": active, "last_assistant_message": "Done."});
        let mut child = env
            .command("hookd-emit")
            .args(["--wait", "Stop"])
            .current_dir(&root)
            .env("CLAUDE_PROJECT_DIR", &root)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write as _;
            let _ = child
                .stdin
                .take()
                .unwrap()
                .write_all(payload.to_string().as_bytes());
        }
        child.wait_with_output().unwrap()
    };
    let failing = stop(false);
    assert_eq!(failing.status.code(), Some(2), "{failing:?}");
    assert!(failing.stdout.is_empty(), "{failing:?}");
    assert_eq!(
        String::from_utf8_lossy(&failing.stderr),
        "stop-run-tests: `echo 'test parse ... FAILED'; exit 1` failed with exit code 1. Fix the failures before finishing. Output:\ntest parse ... FAILED"
    );
    let guarded = stop(true);
    assert_eq!(guarded.status.code(), Some(0), "{guarded:?}");
    assert!(
        guarded.stdout.is_empty() && guarded.stderr.is_empty(),
        "{guarded:?}"
    );
}
