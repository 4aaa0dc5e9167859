//! `hookd hooks convert` end to end: a project's real Claude Code settings
//! file converted by the real binary to each agent's hooks file, the
//! report of what degrades on stderr, the JSON form, and the errors a user
//! sees.

use hookd_testkit::{GitRepo, TestEnv, write_file};
use serde_json::{Value, json};

#[test]
fn a_projects_hooks_become_another_agents_file_with_what_degrades() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    write_file(
        &root.join(".claude/settings.json"),
        &json!({"permissions": {"allow": ["Bash(ls)"]}, "hooks": {
            "PreToolUse": [
                {"matcher": "Bash|Write", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5}]},
                {"matcher": "WebSearch", "hooks": [{"type": "command", "command": "./search.sh"}]}
            ],
            "Stop": [{"hooks": [{"type": "command", "command": "./tests-pass.sh", "if": "Bash(*)"}]}]
        }})
        .to_string(),
    );

    let run = env.hookd(&root, &["hooks", "convert", "--to", "cursor"]);
    let stdout = run.assert_ok();
    let document: Value = serde_json::from_str(stdout).expect("the converted file on stdout");
    assert_eq!(
        document,
        json!({"version": 1, "hooks": {
            "preToolUse": [{"command": "./guard.sh", "matcher": "Shell|Write", "timeout": 5}],
            "stop": [{"command": "./tests-pass.sh"}]
        }})
    );
    let report = &run.stderr;
    assert!(
        report.contains("converted to cursor; 1 left out")
            && report.starts_with("2 of 3 hooks of "),
        "{report}"
    );
    assert!(
        report.contains("PreToolUse WebSearch: ./search.sh -> left out"),
        "{report}"
    );
    assert!(
        report.contains("lost: Cursor has no tool that is Claude Code's WebSearch"),
        "{report}"
    );
    assert!(
        report.contains("lost: Cursor has no \"if\" rule"),
        "{report}"
    );

    // Gemini CLI counts milliseconds; the JSON form holds the report too.
    let run = env.hookd(
        &root,
        &["hooks", "convert", "--to", "gemini", "--format", "json"],
    );
    let out: Value = serde_json::from_str(run.assert_ok()).unwrap();
    assert_eq!(out["agent"], "gemini");
    assert_eq!(
        out["document"]["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"],
        5000
    );
    assert_eq!(out["hooks"].as_array().unwrap().len(), 3);
    assert_eq!(out["hooks"][1]["target_event"], Value::Null);

    // A file given by path; the errors a user sees.
    let file = root.join("elsewhere.json");
    write_file(
        &file,
        &json!({"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [
            {"type": "command", "command": "./fmt.sh"}]}]}})
        .to_string(),
    );
    let run = env.hookd(
        &root,
        &[
            "hooks",
            "convert",
            "--to",
            "copilot",
            file.to_str().unwrap(),
        ],
    );
    let out: Value = serde_json::from_str(run.assert_ok()).unwrap();
    assert_eq!(
        out["hooks"]["postToolUse"],
        json!([{"type": "command", "bash": "./fmt.sh", "matcher": "edit"}])
    );
    let refused = env.hookd(&root, &["hooks", "convert", "--to", "claude"]);
    assert!(!refused.status.success());
    assert!(
        refused.stderr.contains("Claude Code's hooks already"),
        "{refused:?}"
    );
    let refused = env.hookd(
        &root,
        &["hooks", "convert", "--from", "gemini", "--to", "codex"],
    );
    assert!(
        refused.stderr.contains("from claude only so far"),
        "{refused:?}"
    );
    let refused = env.hookd(&root, &["hooks", "convert", "--to", "vim"]);
    assert!(
        refused
            .stderr
            .contains("possible values: claude, codex, gemini, cursor, copilot"),
        "{refused:?}"
    );
    write_file(&file, "{\"hooks\": {\"PreToolUse\": [{\"hooks\": 3}]}}");
    let refused = env.hookd(
        &root,
        &["hooks", "convert", "--to", "codex", file.to_str().unwrap()],
    );
    assert!(!refused.status.success());
    assert!(
        refused.stderr.contains("hooks.PreToolUse[0].hooks"),
        "{refused:?}"
    );
}

/// What `convert` writes for each agent, `validate --agent` takes as that
/// agent would; a file the agent would drop is named with the JSON path,
/// and a Gemini CLI file may hold comments.
#[test]
fn converted_files_validate_as_their_agent_reads_them_and_mangled_ones_do_not() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    write_file(
        &root.join(".claude/settings.json"),
        &json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "./done.sh"}]}]
        }})
        .to_string(),
    );
    for agent in ["codex", "gemini", "cursor", "copilot"] {
        let converted = env.hookd(&root, &["hooks", "convert", "--to", agent]);
        let file = root.join(format!("{agent}.json"));
        write_file(&file, converted.assert_ok());
        let run = env.hookd(
            &root,
            &[
                "hooks",
                "validate",
                "--agent",
                agent,
                file.to_str().unwrap(),
            ],
        );
        assert!(run.stdout.starts_with("ok     "), "{agent}: {run:?}");
        run.assert_ok();
    }

    let codex = root.join("mangled-codex.json");
    write_file(
        &codex,
        &json!({"version": 1, "hooks": {"PreToolUse": [{"hooks": [{"type": "command"}]}]}})
            .to_string(),
    );
    let run = env.hookd(
        &root,
        &[
            "hooks",
            "validate",
            "--agent",
            "codex",
            codex.to_str().unwrap(),
        ],
    );
    assert!(!run.status.success());
    assert!(
        run.stdout.contains("error  ") && run.stdout.contains(": version: Codex CLI allows only"),
        "{run:?}"
    );
    assert!(
        run.stdout
            .contains("hooks.PreToolUse[0].hooks[0].command: missing"),
        "{run:?}"
    );
    assert!(
        run.stderr.contains("codex would not load what is named"),
        "{run:?}"
    );

    let gemini = root.join("settings.json");
    write_file(
        &gemini,
        "{\n  // Gemini allows comments\n  \"hooks\": {\"AfterTool\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./log.sh\", \"timeout\": 5}]}]}\n}\n",
    );
    let run = env.hookd(
        &root,
        &[
            "hooks",
            "validate",
            "--agent",
            "gemini",
            gemini.to_str().unwrap(),
        ],
    );
    run.assert_ok();
    assert!(
        run.stdout.contains("warn   ") && run.stdout.contains("Gemini CLI counts milliseconds"),
        "{run:?}"
    );
    let refused = env.hookd(&root, &["hooks", "validate", "--agent", "cursor"]);
    assert!(
        refused.stderr.contains("name the cursor hooks files"),
        "{refused:?}"
    );
}

/// `--write` puts the converted hooks into the agent's own file, after the
/// hooks it holds and byte for byte around them, only once however often
/// it runs; `--dry-run` shows the diff and writes nothing; Copilot gets a
/// file of its own; a file the agent would drop is refused untouched.
#[test]
fn write_adds_the_converted_hooks_to_the_agents_file_once_and_keeps_the_rest() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    write_file(
        &root.join(".claude/settings.json"),
        &json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5}]}
        ]}})
        .to_string(),
    );
    let codex = root.join(".codex/hooks.json");
    let theirs = "{\n  \"hooks\": {\n    \"Stop\": [{ \"hooks\": [{ \"type\": \"command\", \"command\": \"./notify.sh\" }] }]\n  }\n}\n";
    write_file(&codex, theirs);

    let dry = env.hookd(
        &root,
        &["hooks", "convert", "--to", "codex", "--write", "--dry-run"],
    );
    dry.assert_ok();
    assert!(
        dry.stdout.contains("Dry run: would add to") && dry.stdout.contains("+++"),
        "{}",
        dry.stdout
    );
    assert_eq!(std::fs::read_to_string(&codex).unwrap(), theirs);

    let run = env.hookd(&root, &["hooks", "convert", "--to", "codex", "--write"]);
    run.assert_ok();
    assert!(
        run.stdout.contains("added 1 converted hook group"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains("1 of 1 hooks of") && run.stderr.contains("trust it"),
        "the report and Codex's trust note: {}",
        run.stderr
    );
    let text = std::fs::read_to_string(&codex).unwrap();
    assert!(
        text.starts_with("{\n  \"hooks\": {\n    \"Stop\": [{ \"hooks\": [{ \"type\": \"command\", \"command\": \"./notify.sh\" }] }]"),
        "{text}"
    );
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        value["hooks"]["PreToolUse"],
        json!([{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5}]}])
    );
    let again = env.hookd(&root, &["hooks", "convert", "--to", "codex", "--write"]);
    again.assert_ok();
    assert!(again.stdout.contains("Nothing to add"), "{}", again.stdout);
    assert_eq!(std::fs::read_to_string(&codex).unwrap(), text);

    // Copilot: a file of its own beside hookd's recording file.
    env.hookd(&root, &["hooks", "convert", "--to", "copilot", "--write"])
        .assert_ok();
    let copilot: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join(".github/hooks/claude-hooks.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(copilot["version"], 1);
    assert_eq!(copilot["hooks"]["preToolUse"][0]["bash"], "./guard.sh");
    assert!(!root.join(".github/hooks/hookd.json").exists());

    // A file Codex would drop whole: refused, untouched.
    let dropped = "{\"version\": 1, \"hooks\": {}}\n";
    write_file(&codex, dropped);
    let refused = env.hookd(&root, &["hooks", "convert", "--to", "codex", "--write"]);
    assert!(!refused.status.success(), "{}", refused.stdout);
    assert!(refused.stderr.contains("\"version\""), "{}", refused.stderr);
    assert_eq!(std::fs::read_to_string(&codex).unwrap(), dropped);
}
