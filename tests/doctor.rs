//! `hookd doctor` end to end: real settings files, a real daemon running a
//! managed hook for real `hookd-emit --wait` calls, and a session
//! transcript where Claude Code keeps them. Each finding the doctor makes
//! is staged for real and found; a healthy project passes.

use std::path::Path;

use hookd_testkit::{GitRepo, Run, TestEnv, tool_payload};
use serde_json::{Value, json};

fn ok(run: &Run) -> String {
    run.assert_ok().to_owned()
}

fn doctor_json(env: &TestEnv, root: &Path) -> (Run, Value) {
    let run = env.hookd(root, &["doctor", "--format", "json"]);
    let report = serde_json::from_str(&run.stdout).expect("a JSON report");
    (run, report)
}

fn codes(report: &Value) -> Vec<(String, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["severity"].as_str().unwrap().to_owned(),
                f["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn has(report: &Value, severity: &str, code: &str) -> bool {
    codes(report).contains(&(severity.to_owned(), code.to_owned()))
}

/// Claude Code's transcripts folder for `root`.
fn transcripts(env: &TestEnv, root: &Path) -> std::path::PathBuf {
    let encoded: String = root
        .display()
        .to_string()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    env.home().join(".claude/projects").join(encoded)
}

#[test]
fn a_healthy_project_passes_and_each_problem_is_found() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();

    // Connected in managed mode, one working guard: nothing serious.
    ok(&env.hookd(&root, &["connect", "--managed", "--scope", "local"]));
    let guard = [
        "hooks",
        "add",
        "--kind",
        "managed",
        "--scope",
        "project",
        "--event",
        "PreToolUse",
        "--matcher",
        "Bash",
        "--command",
        "exit 0",
    ];
    ok(&env.hookd(&root, &guard));
    let (run, report) = doctor_json(&env, &root);
    assert!(run.status.success(), "{run:?}");
    assert!(
        !codes(&report).iter().any(|(s, _)| s == "serious"),
        "{report:#}"
    );

    // A guard whose script is gone: Python would exit 2, a block.
    let gone = [
        "hooks",
        "add",
        "--kind",
        "agent",
        "--scope",
        "project",
        "--event",
        "PreToolUse",
        "--matcher",
        "Edit",
        "--command",
        "python3 \"$CLAUDE_PROJECT_DIR\"/hooks/gone.py",
    ];
    ok(&env.hookd(&root, &gone));
    // An MCP server named alone.
    let bare = [
        "hooks",
        "add",
        "--kind",
        "agent",
        "--scope",
        "project",
        "--event",
        "PreToolUse",
        "--matcher",
        "mcp__memory",
        "--command",
        "exit 0",
    ];
    ok(&env.hookd(&root, &bare));
    let (run, report) = doctor_json(&env, &root);
    assert!(!run.status.success(), "serious problems exit 1: {run:?}");
    assert!(has(&report, "serious", "missing_script"), "{report:#}");
    assert!(has(&report, "warning", "bare_mcp_server"), "{report:#}");
    assert!(run.stderr.contains("serious problem"), "{}", run.stderr);

    // Back to record only: the managed guard no longer runs.
    ok(&env.hookd(&root, &["connect", "--scope", "local"]));
    let (_, report) = doctor_json(&env, &root);
    let finding = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "does_not_run" && f["hook"]["kind"] == "managed")
        .unwrap_or_else(|| panic!("{report:#}"));
    assert_eq!(finding["severity"], "serious");
    assert!(finding["message"].as_str().unwrap().contains("record only"));

    // Text output names the same things.
    let text = env.hookd(&root, &["doctor"]);
    assert!(
        text.stdout.contains("SERIOUS: agent PreToolUse hook"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("gone.py does not exist"),
        "{}",
        text.stdout
    );
}

#[test]
fn evidence_from_the_ledger_and_a_silent_project_are_found() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    ok(&env.hookd(&root, &["connect", "--managed", "--scope", "local"]));
    // A guard that means to block but exits 1, which never blocks.
    let guard = [
        "hooks",
        "add",
        "--kind",
        "managed",
        "--scope",
        "project",
        "--event",
        "PreToolUse",
        "--matcher",
        "Bash",
        "--command",
        "echo 'no sudo here' >&2; exit 1",
    ];
    ok(&env.hookd(&root, &guard));
    let mut daemon = env.start_daemon();
    for n in 0..3 {
        let payload = tool_payload(
            "PreToolUse",
            "Bash",
            &root,
            &format!("t{n}"),
            json!({"command": "sudo ls"}),
        );
        let out = env.emit(&["--wait", "PreToolUse"], &payload, &root);
        assert_eq!(out.status.code(), Some(1), "exit 1 does not block: {out:?}");
    }
    // Stopped as a user would: what it was handed is in the ledger.
    daemon.terminate();

    let (_, report) = doctor_json(&env, &root);
    assert!(has(&report, "warning", "exits_one"), "{report:#}");
    assert!(has(&report, "serious", "always_fails"), "{report:#}");
    let evidence = &report["evidence"][0];
    assert_eq!(evidence["runs"], 3, "{report:#}");
    assert_eq!(evidence["failed"], 3);
    assert!(evidence["p95_ms"].as_f64().unwrap() > 0.0);
    assert!(report["last_event"].is_string());
    assert!(!has(&report, "serious", "silent"), "{report:#}");

    // Claude Code went on writing a session here, an hour after hookd's last event.
    let dir = transcripts(&env, &root);
    std::fs::create_dir_all(&dir).unwrap();
    let session = dir.join("5b1e.jsonl");
    std::fs::write(&session, "{}\n").unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&session)
        .unwrap()
        .set_modified(later)
        .unwrap();
    let (_, report) = doctor_json(&env, &root);
    assert!(has(&report, "serious", "silent"), "{report:#}");
}

/// An installed plugin's hooks are listed with their plugin, read-only, and
/// a disabled plugin's hooks are said not to run.
#[test]
fn plugin_hooks_are_listed_with_their_plugin() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    env.install_plugin(
        "guard@market",
        "1.0.0",
        &json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/guard.sh"}]}]}),
    );
    let settings = env.home().join(".claude/settings.json");
    env.enable_plugin(&settings, "guard@market", true);
    let listed = ok(&env.hookd(&root, &["hooks", "list", "--kind", "agent"]));
    assert!(
        listed.contains("agent plugin guard@market 1.0.0 (enabled, read-only)"),
        "{listed}"
    );
    assert!(
        listed.contains("PreToolUse Bash command: ${CLAUDE_PLUGIN_ROOT}/guard.sh"),
        "{listed}"
    );
    let (_, report) = doctor_json(&env, &root);
    assert!(!has(&report, "info", "disabled_plugin"), "{report:#}");

    env.enable_plugin(&settings, "guard@market", false);
    let listed = ok(&env.hookd(&root, &["hooks", "list", "--kind", "agent"]));
    assert!(
        listed.contains("disabled: its hooks do not run"),
        "{listed}"
    );
    let (_, report) = doctor_json(&env, &root);
    assert!(has(&report, "info", "disabled_plugin"), "{report:#}");
}

/// The policy file's switches are shown and honoured with Claude Code's
/// precedence: allowManagedHooksOnly keeps only its hooks running.
#[test]
fn policy_switches_are_shown_and_honoured() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    ok(&env.hookd(
        &root,
        &[
            "hooks",
            "add",
            "--kind",
            "agent",
            "--scope",
            "project",
            "--event",
            "Stop",
            "--command",
            "exit 0",
        ],
    ));
    std::fs::write(
        env.policy_settings(),
        json!({"allowManagedHooksOnly": true}).to_string(),
    )
    .unwrap();
    let listed = env.hookd(&root, &["hooks", "list", "--kind", "agent"]);
    listed.assert_ok();
    assert!(
        listed.stdout.contains(" off (policy) "),
        "{}",
        listed.stdout
    );
    assert!(
        listed
            .stderr
            .contains("sets \"allowManagedHooksOnly\": true"),
        "{}",
        listed.stderr
    );
    // Testing the event says the same, and --run does not run the hook the
    // agent would not run.
    let payload = env.home().join("stop.json");
    std::fs::write(&payload, json!({"hook_event_name": "Stop"}).to_string()).unwrap();
    let payload = payload.to_str().unwrap();
    let args = [
        "hooks",
        "test",
        "--kind",
        "agent",
        "--event",
        "Stop",
        "--payload",
        payload,
        "--run",
        "--format",
        "json",
    ];
    let tested: Value = serde_json::from_str(&ok(&env.hookd(&root, &args))).unwrap();
    let hook = &tested["hooks"][0];
    assert_eq!(hook["runs"], false, "{tested:#}");
    assert!(
        hook["reason"]
            .as_str()
            .unwrap()
            .contains("runs only the policy file's hooks (allowManagedHooksOnly in"),
        "{tested:#}"
    );
    assert_eq!(tested["run"]["runs"], json!([]), "{tested:#}");
    std::fs::write(
        env.policy_settings(),
        json!({"disableAllHooks": true}).to_string(),
    )
    .unwrap();
    let listed = env.hookd(&root, &["hooks", "list", "--kind", "agent"]);
    assert!(
        listed.stdout.contains(" off (disableAllHooks) "),
        "{}",
        listed.stdout
    );
    assert!(
        listed.stderr.contains("so no hook runs"),
        "{}",
        listed.stderr
    );
}

/// Skills and subagents carry hooks in their frontmatter: listed read-only
/// with whose they are, and a frontmatter the agent cannot read is a doctor
/// finding that hides no other hook.
#[test]
fn skill_and_agent_frontmatter_hooks_are_listed_with_their_component() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let write = hookd_testkit::write_file;
    write(
        &env.home().join(".claude/skills/audit/SKILL.md"),
        "---\nname: audit-reads\ndescription: logs reads\nhooks:\n  PreToolUse:\n    - matcher: Read\n      hooks:\n        - type: command\n          command: ./log-read.sh\n          once: true\n---\nBody.\n",
    );
    write(
        &root.join(".claude/agents/reviewer.md"),
        "---\ndescription: reviews\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ./tests-pass.sh\n---\nYou review.\n",
    );
    let listed = ok(&env.hookd(&root, &["hooks", "list", "--kind", "agent"]));
    assert!(
        listed.contains(
            "agent skill audit-reads (user, read-only; runs only while the skill is active)"
        ),
        "{listed}"
    );
    assert!(
        listed.contains("  PreToolUse Read command: ./log-read.sh (once)"),
        "{listed}"
    );
    assert!(
        listed.contains(
            "agent agent reviewer (project, read-only; runs only while the agent is active)"
        ),
        "{listed}"
    );
    assert!(
        listed.contains("  Stop (runs as SubagentStop) (none) command: ./tests-pass.sh"),
        "{listed}"
    );
    let json_list: Value = serde_json::from_str(&ok(&env.hookd(
        &root,
        &["hooks", "list", "--kind", "agent", "--format", "json"],
    )))
    .unwrap();
    let components = json_list["components"].as_array().unwrap();
    assert_eq!(components.len(), 2, "{json_list:#}");
    assert_eq!(components[1]["fires_as"], "SubagentStop");
    assert_eq!(components[1]["origin"], "project");
    assert_eq!(json_list["component_problems"], json!([]));
    let (_, report) = doctor_json(&env, &root);
    assert!(!has(&report, "warning", "bad_component"), "{report:#}");

    // A skill whose frontmatter is not YAML: a finding, the others still listed.
    write(
        &root.join(".claude/skills/broken/SKILL.md"),
        "---\nhooks: [unclosed\n---\n",
    );
    let run = env.hookd(&root, &["hooks", "list", "--kind", "agent"]);
    run.assert_ok();
    assert!(
        run.stdout.contains("agent agent reviewer"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr
            .contains("broken/SKILL.md: its frontmatter is not valid YAML"),
        "{}",
        run.stderr
    );
    let (_, report) = doctor_json(&env, &root);
    assert!(has(&report, "warning", "bad_component"), "{report:#}");
}

/// The hooks of plugins, skills and subagents get the same static checks
/// as the settings files' where they decide whether the hook works: a
/// command that cannot start (a plugin's `${CLAUDE_PLUGIN_ROOT}` script
/// included) and the same hook in force twice. A disabled plugin's hooks
/// never run and are not checked.
#[test]
fn plugin_skill_and_agent_hooks_get_the_static_checks() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let write = hookd_testkit::write_file;
    let settings = env.home().join(".claude/settings.json");
    let guard = env.install_plugin(
        "guard@market",
        "1.0.0",
        &json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "python3 ${CLAUDE_PLUGIN_ROOT}/hooks/check.py"},
            {"type": "command", "command": "python3 ${CLAUDE_PLUGIN_ROOT}/hooks/gone.py"}]}]}),
    );
    write(&guard.join("hooks/check.py"), "import sys\n");
    env.install_plugin(
        "fmt@market",
        "2.0.0",
        &json!({"PostToolUse": [{"matcher": "Edit", "hooks": [
            {"type": "command", "command": "true fmt"}]}]}),
    );
    env.install_plugin(
        "off@market",
        "1.0.0",
        &json!({"PreToolUse": [{"hooks": [
            {"type": "command", "command": "python3 ${CLAUDE_PLUGIN_ROOT}/missing.py"}]}]}),
    );
    for (id, on) in [
        ("guard@market", true),
        ("fmt@market", true),
        ("off@market", false),
    ] {
        env.enable_plugin(&settings, id, on);
    }
    let (_, report) = doctor_json(&env, &root);
    let said = |code: &str, part: &str| {
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == code && f["message"].as_str().unwrap().contains(part))
            .count()
    };
    assert_eq!(
        said("missing_script", "plugin guard@market's PreToolUse hook"),
        1,
        "{report:#}"
    );
    assert_eq!(
        said("missing_script", "hooks/gone.py does not exist"),
        1,
        "{report:#}"
    );
    assert_eq!(said("missing_script", "check.py"), 0, "{report:#}");
    assert_eq!(
        said("missing_script", "off@market"),
        0,
        "a disabled plugin: {report:#}"
    );
    assert!(has(&report, "info", "disabled_plugin"), "{report:#}");
    assert!(has(&report, "serious", "missing_script"), "{report:#}");
    assert_eq!(said("duplicate", "fmt@market"), 0, "{report:#}");

    // The plugin's hook copied into the user's settings: it runs once.
    let add = [
        "hooks",
        "add",
        "--kind",
        "agent",
        "--scope",
        "global",
        "--event",
        "PostToolUse",
        "--matcher",
        "Edit",
        "--command",
        "true fmt",
    ];
    ok(&env.hookd(&root, &add));
    let (_, report) = doctor_json(&env, &root);
    assert_eq!(
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == "duplicate"
                && f["severity"] == "warning"
                && f["message"]
                    .as_str()
                    .unwrap()
                    .contains("plugin fmt@market's PostToolUse hook `true fmt`")
                && f["message"]
                    .as_str()
                    .unwrap()
                    .contains(".claude/settings.json (agent global)"))
            .count(),
        1,
        "{report:#}"
    );

    // A skill whose guard's program is not there: serious, named by the skill.
    write(
        &env.home().join(".claude/skills/audit/SKILL.md"),
        "---\nname: audit\nhooks:\n  PreToolUse:\n    - matcher: Read\n      hooks:\n        - type: command\n          command: ~/bin/no-such-audit-tool --log\n---\nBody.\n",
    );
    let (_, report) = doctor_json(&env, &root);
    let finding = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "missing_program")
        .unwrap_or_else(|| panic!("{report:#}"));
    assert_eq!(finding["severity"], "serious", "{report:#}");
    let message = finding["message"].as_str().unwrap();
    assert!(
        message.starts_with("skill audit's PreToolUse hook"),
        "{message}"
    );
    assert!(
        message.contains("bin/no-such-audit-tool is not found"),
        "{message}"
    );

    // A custom command is a skill to Claude Code: listed and checked alike.
    write(
        &root.join(".claude/commands/release/tag.md"),
        "---\ndescription: tags\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: python3 $CLAUDE_PROJECT_DIR/gone-tag-check.py\n---\nTag it.\n",
    );
    let listed = ok(&env.hookd(&root, &["hooks", "list", "--kind", "agent"]));
    assert!(
        listed.contains(
            "agent command release:tag (project, read-only; runs only while the command is active)"
        ),
        "{listed}"
    );
    let (_, report) = doctor_json(&env, &root);
    assert!(
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "missing_script"
                && f["message"]
                    .as_str()
                    .unwrap()
                    .starts_with("command release:tag's PreToolUse hook")),
        "{report:#}"
    );
}
