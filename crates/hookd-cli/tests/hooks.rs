//! `hookd hooks ...` end to end: the real binary, a temp HOME and hookd
//! home, real settings files on disk.

use std::fs;
use std::path::PathBuf;

use hookd_testkit::{Run, TestEnv, pretty_json, read_json, user_settings, write_file};
use serde_json::{Value, json};

/// A temp HOME, and a git project `proj` outside it.
struct Env {
    env: TestEnv,
    /// `$HOME` of every run.
    home: PathBuf,
    _work: tempfile::TempDir,
    project: PathBuf,
}

impl Env {
    fn new() -> Self {
        let env = TestEnv::new();
        let work = tempfile::tempdir().unwrap();
        let project = work.path().join("proj");
        fs::create_dir_all(project.join(".git")).unwrap();
        fs::create_dir_all(project.join("src")).unwrap();
        let project = fs::canonicalize(project).unwrap();
        Self {
            home: env.home(),
            env,
            _work: work,
            project,
        }
    }

    /// Runs hookd in the project's `src` (so the git root must be found).
    fn run(&self, args: &[&str]) -> Run {
        self.run_stdin(args, "")
    }

    fn run_stdin(&self, args: &[&str], stdin: &str) -> Run {
        self.env
            .run("hookd", &self.project.join("src"), args, stdin.as_bytes())
    }

    fn file(&self, rel: &str) -> PathBuf {
        self.project.join(rel)
    }

    /// `hookd hooks VERB --agent-file FILE --event EVENT --command ./done.sh`.
    fn agent_hook(&self, verb: &str, file: &str, event: &str) -> Run {
        self.run(&[
            "hooks",
            verb,
            "--agent-file",
            file,
            "--event",
            event,
            "--command",
            "./done.sh",
        ])
    }

    fn list(&self) -> Value {
        let run = self.run(&["hooks", "list", "--format", "json"]);
        assert!(run.ok(), "{}", run.stderr);
        serde_json::from_str(&run.stdout).unwrap()
    }
}

/// A refusal: non-zero exit and exactly one line on stderr.
fn refused(run: &Run) -> &str {
    assert!(!run.ok(), "should fail: {}", run.stdout);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    run.stderr.trim_end()
}

#[test]
fn add_list_remove_keep_everything_else() {
    let env = Env::new();
    let settings = env.file(".claude/settings.json");
    let original = pretty_json(&user_settings());
    write_file(&settings, &original);

    let run = env.run(&[
        "hooks",
        "add",
        "--kind",
        "agent",
        "--event",
        "PreToolUse",
        "--matcher",
        "Bash",
        "--command",
        "./lint.sh",
        "--timeout",
        "30",
    ]);
    run.assert_ok();
    assert_eq!(
        run.stdout,
        format!(
            "Added PreToolUse hook \"./lint.sh\" (matcher \"Bash\") to {} (agent, project scope) (previous version kept: `hookd hooks backups` lists it)\n",
            settings.display(),
        )
    );
    let mut expected = user_settings();
    expected["hooks"]["PreToolUse"][0]["hooks"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "command", "command": "./lint.sh", "timeout": 30}));
    assert_eq!(read_json(&settings), expected);
    assert_eq!(
        fs::read_to_string(&settings).unwrap(),
        pretty_json(&expected)
    );

    let list = env.list();
    let hooks = list["hooks"].as_array().unwrap();
    let summary: Vec<(&str, &str, &str, &str, &str)> = hooks
        .iter()
        .map(|h| {
            (
                h["kind"].as_str().unwrap(),
                h["scope"].as_str().unwrap(),
                h["event"].as_str().unwrap(),
                h["type"].as_str().unwrap(),
                h["summary"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "agent",
                "project",
                "PreToolUse",
                "command",
                "~/bin/guard.sh"
            ),
            ("agent", "project", "PreToolUse", "command", "./lint.sh"),
            ("agent", "project", "Stop", "prompt", "Is the task done?"),
            (
                "agent",
                "project",
                "PostCompact",
                "http",
                "https://example.invalid/h"
            ),
        ]
    );
    assert_eq!(hooks[1]["timeout"], json!(30.0));
    assert_eq!(hooks[1]["file"], json!(settings));
    assert!(hooks.iter().all(|h| h["enabled"] == json!(true)));

    let run = env.run(&[
        "hooks",
        "remove",
        "--kind",
        "agent",
        "--event",
        "PreToolUse",
        "--command",
        "./lint.sh",
    ]);
    run.assert_ok();
    assert!(
        run.stdout
            .starts_with("Removed 1 PreToolUse hook with command \"./lint.sh\" from "),
        "{}",
        run.stdout
    );
    assert_eq!(fs::read_to_string(&settings).unwrap(), original);

    let run = env.run(&[
        "hooks",
        "remove",
        "--kind",
        "agent",
        "--event",
        "PreToolUse",
        "--command",
        "./lint.sh",
    ]);
    assert_eq!(
        refused(&run),
        format!(
            "hookd: no PreToolUse hook with command \"./lint.sh\" in {}",
            settings.display()
        )
    );
    assert_eq!(fs::read_to_string(&settings).unwrap(), original);
}

#[test]
fn managed_project_hooks_are_the_default_and_shareable_in_git() {
    let env = Env::new();
    let state = env.file(".hookd");
    write_file(
        &state.join(".gitignore"),
        "# hookd's ledger: local history, never committed.\n*\n",
    );
    let run = env.run(&[
        "hooks",
        "add",
        "--event",
        "pre_tool_use",
        "--command",
        "./guard.sh",
    ]);
    run.assert_ok();
    assert!(
        run.stdout
            .ends_with("(managed, project scope): created the file\n"),
        "{}",
        run.stdout
    );
    assert_eq!(
        read_json(&state.join("settings.json")),
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "./guard.sh"}]}]}})
    );
    let ignore = fs::read_to_string(state.join(".gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "!settings.json"), "{ignore}");
    assert!(ignore.lines().any(|l| l == "*"), "{ignore}");

    // Adding it again is refused; the global scope lives in hookd's home.
    let run = env.run(&[
        "hooks",
        "add",
        "--event",
        "PreToolUse",
        "--command",
        "./guard.sh",
    ]);
    assert!(
        refused(&run).contains("already has this PreToolUse hook"),
        "{}",
        run.stderr
    );
    let run = env.run(&[
        "hooks",
        "add",
        "--scope",
        "global",
        "--event",
        "Stop",
        "--command",
        "say done",
    ]);
    run.assert_ok();
    assert!(env.home.join(".hookd/settings.json").is_file());
    // `user`, as `hookd templates` and `hookd connect` say it, is the same scope.
    let run = env.run(&[
        "hooks",
        "remove",
        "--scope",
        "user",
        "--event",
        "Stop",
        "--command",
        "say done",
    ]);
    run.assert_ok();
    assert_eq!(read_json(&env.home.join(".hookd/settings.json")), json!({}));
    let run = env.run(&[
        "hooks",
        "add",
        "--scope",
        "global",
        "--project",
        ".",
        "--event",
        "Stop",
        "--command",
        "x",
    ]);
    assert!(refused(&run).contains("--project applies to --scope project or --scope local"));
}

#[test]
fn bad_input_is_one_line_and_changes_nothing() {
    let env = Env::new();
    let run = env.run(&["hooks", "add", "--event", "PreToolUs", "--command", "x"]);
    assert_eq!(
        refused(&run),
        "hookd: unknown event \"PreToolUs\" (did you mean PreToolUse?)"
    );
    let run = env.run(&["hooks", "add", "--event", "Banana", "--command", "x"]);
    assert_eq!(refused(&run), "hookd: unknown event \"Banana\"");
    let run = env.run(&[
        "hooks",
        "add",
        "--event",
        "PreToolUse",
        "--matcher",
        "Edit(",
        "--command",
        "x",
    ]);
    assert_eq!(
        refused(&run),
        "hookd: invalid matcher: invalid regex \"Edit(\" at position 4: unclosed group"
    );
    let run = env.run(&[
        "hooks",
        "add",
        "--event",
        "Stop",
        "--command",
        "x",
        "--timeout",
        "0",
    ]);
    assert!(!run.ok());
    assert!(
        run.stderr.contains("positive number of seconds"),
        "{}",
        run.stderr
    );
    assert!(!env.file(".hookd").exists(), "nothing created");

    // An invalid settings file is not edited, and the error names the path.
    let settings = env.file(".claude/settings.local.json");
    let bad =
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": -1}]}]}}"#;
    write_file(&settings, bad);
    let run = env.run(&[
        "hooks",
        "add",
        "--kind",
        "agent",
        "--scope",
        "local",
        "--event",
        "Stop",
        "--command",
        "y",
    ]);
    assert_eq!(
        refused(&run),
        format!(
            "hookd: {} is not valid hook settings: hooks.Stop[0].hooks[0].timeout: expected a positive number (seconds)",
            settings.display()
        )
    );
    assert_eq!(fs::read_to_string(&settings).unwrap(), bad);
    let run = env.run(&["hooks", "list"]);
    assert!(
        refused(&run).contains("hooks.Stop[0].hooks[0].timeout"),
        "{}",
        run.stderr
    );

    write_file(&settings, "{\"hooks\": ");
    let run = env.run(&[
        "hooks",
        "disable",
        "--kind",
        "agent",
        "--scope",
        "local",
        "--event",
        "Stop",
        "--command",
        "x",
    ]);
    assert!(
        refused(&run).contains("settings.local.json: not valid JSON"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read_to_string(&settings).unwrap(), "{\"hooks\": ");
    assert!(!env.home.join(".hookd/disabled.json").exists());
}

#[test]
fn disable_then_enable_gives_back_the_exact_file() {
    let env = Env::new();
    let settings = env.file(".claude/settings.json");
    // Four-space indent and no final newline: kept too.
    let original: Vec<String> = serde_json::to_string_pretty(&user_settings())
        .unwrap()
        .lines()
        .map(|line| {
            let content = line.trim_start_matches(' ');
            format!("{}{content}", " ".repeat(2 * (line.len() - content.len())))
        })
        .collect();
    let original = original.join("\n");
    write_file(&settings, &original);
    let args = |verb: &'static str| -> Vec<&'static str> {
        vec![
            "hooks",
            verb,
            "--kind",
            "agent",
            "--event",
            "PreToolUse",
            "--matcher",
            "Bash",
            "--command",
            "~/bin/guard.sh",
        ]
    };

    let run = env.run(&args("disable"));
    run.assert_ok();
    assert!(
        run.stdout
            .starts_with("Disabled 1 PreToolUse hook with command \"~/bin/guard.sh\" in "),
        "{}",
        run.stdout
    );
    let mut expected = user_settings();
    expected["hooks"]
        .as_object_mut()
        .unwrap()
        .shift_remove("PreToolUse");
    assert_eq!(read_json(&settings), expected);
    let store = read_json(&env.home.join(".hookd/disabled.json"));
    let entry = &store["disabled"][0];
    assert_eq!(entry["kind"], "agent");
    assert_eq!(entry["scope"], "project");
    assert_eq!(entry["path"], json!(settings));
    assert_eq!(entry["event"], "PreToolUse");
    assert_eq!(entry["matcher"], "Bash");
    assert_eq!(
        (entry["group_index"].clone(), entry["handler_index"].clone()),
        (json!(0), json!(0))
    );
    assert_eq!(
        entry["handler"],
        user_settings()["hooks"]["PreToolUse"][0]["hooks"][0]
    );
    assert!(entry["disabled_at"].is_string());

    let list = env.list();
    let guard: Vec<&Value> = list["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["command"] == "~/bin/guard.sh")
        .collect();
    assert_eq!(guard.len(), 1);
    assert_eq!(guard[0]["enabled"], false);
    let table = env.run(&["hooks", "list"]);
    table.assert_ok();
    assert!(
        table.stdout.contains("disabled  ~/bin/guard.sh"),
        "{}",
        table.stdout
    );

    let run = env.run(&args("disable"));
    assert!(refused(&run).contains("already disabled"), "{}", run.stderr);

    let run = env.run(&args("enable"));
    run.assert_ok();
    assert_eq!(fs::read_to_string(&settings).unwrap(), original);
    assert_eq!(
        read_json(&env.home.join(".hookd/disabled.json"))["disabled"],
        json!([])
    );
    let run = env.run(&args("enable"));
    assert!(
        refused(&run).contains("no disabled PreToolUse hook"),
        "{}",
        run.stderr
    );
}

#[test]
fn duplicates_across_scopes_are_marked_and_run_once() {
    let env = Env::new();
    let hooks = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}});
    write_file(
        &env.home.join(".claude/settings.json"),
        &pretty_json(&hooks),
    );
    write_file(&env.file(".claude/settings.json"), &pretty_json(&hooks));
    let run = env.run(&["hooks", "list", "--kind", "agent"]);
    run.assert_ok();
    assert!(
        run.stdout
            .contains("notify-send done (duplicate of #1, runs once)"),
        "{}",
        run.stdout
    );
    assert_eq!(
        run.stdout.matches("notify-send done").count(),
        2,
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("agent global: ~/.claude/settings.json"),
        "{}",
        run.stdout
    );
    let list = env.list();
    assert_eq!(list["hooks"][1]["duplicate_of"], json!(0));

    let run = env.run_stdin(
        &["hooks", "test", "--event", "Stop", "--payload", "-"],
        "{}",
    );
    run.assert_ok();
    assert!(
        run.stdout.contains("matcher not supported by this event"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("duplicate of #1, runs once"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .ends_with("1 hook would run (1 by the agent, 0 by hookd)\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn test_explains_what_matches_and_why_not() {
    let env = Env::new();
    write_file(
        &env.file(".hookd/settings.json"),
        &pretty_json(&json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "exact"}]},
            {"matcher": "mcp__.*__write.*", "hooks": [{"type": "command", "command": "regex"}]},
            {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "other"}]},
            {"hooks": [{"type": "command", "command": "all"}]}
        ]}})),
    );
    // The project's managed file runs only once approved.
    env.run(&["trust"]).assert_ok();
    let payload = env.home.join("payload.json");
    fs::write(
        &payload,
        r#"{"tool_name": "mcp__fs__write_file", "tool_input": {}}"#,
    )
    .unwrap();
    let payload = payload.to_str().unwrap();
    let run = env.run(&[
        "hooks",
        "test",
        "--event",
        "PreToolUse",
        "--payload",
        payload,
        "--format",
        "json",
    ]);
    run.assert_ok();
    let out: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(out["match_field"], "tool_name");
    assert_eq!(out["target"], "mcp__fs__write_file");
    let reasons: Vec<(&str, bool, &str)> = out["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["command"].as_str().unwrap(),
                h["runs"].as_bool().unwrap(),
                h["reason"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        reasons,
        [
            (
                "exact",
                false,
                "tool_name \"mcp__fs__write_file\" is not one of the exact names"
            ),
            ("regex", true, "regex matched \"mcp__fs__write_file\""),
            (
                "other",
                false,
                "tool_name \"mcp__fs__write_file\" is not one of the exact names"
            ),
            ("all", true, "matches all"),
        ]
    );

    let run = env.run_stdin(
        &["hooks", "test", "--event", "PreToolUse", "--payload", "-"],
        r#"{"tool_name": "Bash"}"#,
    );
    run.assert_ok();
    assert!(
        run.stdout
            .starts_with("PreToolUse: matchers are tested against tool_name = \"Bash\"\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("exact name Bash"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("regex found nothing in tool_name \"Bash\""),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .ends_with("2 hooks would run (0 by the agent, 2 by hookd)\n"),
        "{}",
        run.stdout
    );

    let run = env.run_stdin(
        &["hooks", "test", "--event", "PreToolUse", "--payload", "-"],
        "{not json",
    );
    assert!(
        refused(&run).contains("payload from stdin is not valid JSON"),
        "{}",
        run.stderr
    );
    let run = env.run(&[
        "hooks",
        "test",
        "--event",
        "PreToolUse",
        "--payload",
        "/nonexistent/p.json",
    ]);
    assert!(
        refused(&run).contains("cannot read payload file /nonexistent/p.json"),
        "{}",
        run.stderr
    );
    let run = env.run_stdin(
        &["hooks", "test", "--event", "Stopp", "--payload", "-"],
        "{}",
    );
    assert_eq!(
        refused(&run),
        "hookd: unknown event \"Stopp\" (did you mean Stop?)"
    );
}

#[test]
fn test_run_executes_the_matching_command_hooks() {
    let env = Env::new();
    let marker = env.home.join("ran");
    let script = env.home.join("guard.sh");
    fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat > {}\necho 'no rm please' >&2\nexit 2\n",
            marker.display()
        ),
    )
    .unwrap();
    let other = env.home.join("other-ran");
    write_file(
        &env.file(".hookd/settings.json"),
        &pretty_json(&json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": format!("sh {}", script.display()), "timeout": 10}]},
            {"matcher": "Edit", "hooks": [{"type": "command", "command": format!("touch {}", other.display())}]}
        ]}})),
    );
    // The project's managed file runs only once approved.
    env.run(&["trust"]).assert_ok();
    let payload = r#"{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}"#;
    let run = env.run_stdin(
        &[
            "hooks",
            "test",
            "--event",
            "PreToolUse",
            "--payload",
            "-",
            "--run",
            "--format",
            "json",
        ],
        payload,
    );
    run.assert_ok();
    let out: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        out["run"]["runs"].as_array().unwrap().len(),
        1,
        "{}",
        run.stdout
    );
    assert_eq!(out["run"]["runs"][0]["exit_code"], 2);
    assert_eq!(out["run"]["reply"]["exit_code"], 2);
    assert!(
        out["run"]["reply"]["stderr"]
            .as_str()
            .unwrap()
            .contains("no rm please")
    );
    let stdin: Value = serde_json::from_slice(&fs::read(&marker).unwrap()).unwrap();
    assert_eq!(stdin["tool_input"]["command"], "rm -rf /");
    assert!(!other.exists(), "the Edit hook must not run");
}

#[test]
fn validate_prints_ok_lines_and_path_precise_errors() {
    let env = Env::new();
    write_file(
        &env.file(".claude/settings.json"),
        &pretty_json(&user_settings()),
    );
    let local = env.file(".hookd/settings.local.json");
    write_file(
        &local,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Edit(", "hooks": [{"type": "command"}]}], "SesionStart": []}}"#,
    );
    let run = env.run(&["hooks", "validate"]);
    assert!(!run.ok());
    let lines: Vec<&str> = run.stdout.lines().collect();
    // The matcher that is no pattern is a warning line, not an error.
    assert_eq!(lines.len(), 8, "{}", run.stdout);
    assert_eq!(lines[0], "-      ~/.claude/settings.json (does not exist)");
    assert_eq!(
        lines[1],
        format!("ok     {}", env.file(".claude/settings.json").display())
    );
    let l = local.display();
    assert!(lines.contains(&format!("warn   {l}: hooks.PreToolUse[0].matcher: invalid regex \"Edit(\" at position 4: unclosed group; the agent loads the file and never matches this group").as_str()), "{}", run.stdout);
    assert!(lines.contains(&format!("error  {l}: hooks.PreToolUse[0].hooks[0].command: missing (required for command handlers)").as_str()), "{}", run.stdout);
    assert!(
        lines.contains(
            &format!("error  {l}: hooks.SesionStart: unknown event (did you mean SessionStart?)")
                .as_str()
        ),
        "{}",
        run.stdout
    );
    assert_eq!(refused(&run), "hookd: 2 problems in 1 file");

    // Given files: a missing one is an error; a good one is ok.
    let good = env.file(".claude/settings.json");
    let run = env.run(&[
        "hooks",
        "validate",
        good.to_str().unwrap(),
        "/nonexistent/settings.json",
    ]);
    assert_eq!(
        run.stdout,
        format!(
            "ok     {}\nerror  /nonexistent/settings.json: does not exist\n",
            good.display()
        )
    );
    assert_eq!(refused(&run), "hookd: 1 problem in 1 file");
    let run = env.run(&["hooks", "validate", good.to_str().unwrap()]);
    run.assert_ok();

    // The policy file is checked when present.
    write_file(&env.env.policy_settings(), "{\"hooks\": []}");
    fs::remove_file(&local).unwrap();
    let run = env.run(&["hooks", "validate"]);
    assert!(
        run.stdout
            .contains("managed-settings.json: hooks: expected an object"),
        "{}",
        run.stdout
    );
    assert_eq!(refused(&run), "hookd: 1 problem in 1 file");
}

#[test]
fn every_subcommand_and_flag_has_help() {
    let env = TestEnv::new();
    let home = env.home();
    let run = env.hookd(&home, &["hooks", "--help"]);
    run.assert_ok();
    for sub in [
        "list", "add", "remove", "enable", "disable", "validate", "test",
    ] {
        assert!(
            run.stdout.contains(&format!("  {sub} ")),
            "{sub}: {}",
            run.stdout
        );
        let help = env.hookd(&home, &["hooks", sub, "-h"]);
        help.assert_ok();
        // clap puts a flag without help text alone on its line with nothing after it.
        for line in help
            .stdout
            .lines()
            .filter(|l| l.trim_start().starts_with("--"))
        {
            assert!(
                line.trim_start().contains("  "),
                "{sub}: {line:?} has no help"
            );
        }
    }
    let add = env.hookd(&home, &["hooks", "add", "-h"]);
    assert!(add.stdout.contains("[default: project]"), "{}", add.stdout);
    assert!(add.stdout.contains("[default: managed]"), "{}", add.stdout);
}

#[test]
fn agent_file_hook_disable_then_enable_gives_back_the_exact_file() {
    let env = Env::new();
    let cursor = env.file(".cursor/hooks.json");
    let original = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"stop\": [\n      { \"command\": \"./done.sh\" },\n      { \"command\": \"./log.sh\", \"timeout\": 3 }\n    ]\n  }\n}\n";
    write_file(&cursor, original);
    let file = cursor.display().to_string();
    let run = env.agent_hook("disable", &file, "stop");
    run.assert_ok();
    assert!(
        run.stdout
            .starts_with("Disabled the stop hook with command \"./done.sh\" in "),
        "{}",
        run.stdout
    );
    assert_eq!(
        read_json(&cursor),
        json!({"version": 1, "hooks": {"stop": [{"command": "./log.sh", "timeout": 3}]}})
    );
    let store = read_json(&env.home.join(".hookd/disabled.json"));
    assert_eq!(store["disabled"][0]["agent"]["agent"], "cursor");
    assert_eq!(store["disabled"][0]["agent"]["json_path"], "hooks.stop[0]");
    // Already disabled: said so.
    let run = env.agent_hook("disable", &file, "stop");
    assert!(
        refused(&run).contains("no enabled stop hook with command \"./done.sh\""),
        "{}",
        run.stderr
    );

    let run = env.agent_hook("enable", &file, "stop");
    run.assert_ok();
    assert!(
        run.stdout.starts_with("Enabled the stop hook"),
        "{}",
        run.stdout
    );
    assert_eq!(fs::read_to_string(&cursor).unwrap(), original);
    assert_eq!(
        read_json(&env.home.join(".hookd/disabled.json"))["disabled"],
        json!([])
    );
    // Removing another agent's hook is the app's or the agent's own tools' job.
    let run = env.agent_hook("remove", &file, "stop");
    assert!(refused(&run).contains("--agent-file"), "{}", run.stderr);
}

#[test]
fn agent_file_disable_finds_a_file_listed_through_a_symlinked_home() {
    let env = Env::new();
    // $HOME reached through a symbolic link (as where /home is one): the
    // listing spells the file through the link, the flag may name either.
    let link = env._work.path().join("home-link");
    std::os::unix::fs::symlink(&env.home, &link).unwrap();
    let cursor = env.home.join(".cursor/hooks.json");
    write_file(
        &cursor,
        "{\"version\": 1, \"hooks\": {\"stop\": [{\"command\": \"./done.sh\"}, {\"command\": \"./log.sh\"}]}}\n",
    );
    // `hookd hooks VERB --agent-file NAMED …` with $HOME through the link.
    let toggle = |verb: &str, named: &std::path::Path| {
        let out = env
            .env
            .command("hookd")
            .env("HOME", &link)
            .current_dir(env.project.join("src"))
            .args(["hooks", verb, "--agent-file"])
            .arg(named)
            .args(["--event", "stop", "--command", "./done.sh"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{verb} {}: {}",
            named.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    for named in [link.join(".cursor/hooks.json"), cursor.clone()] {
        toggle("disable", &named);
        assert_eq!(
            read_json(&cursor),
            json!({"version": 1, "hooks": {"stop": [{"command": "./log.sh"}]}})
        );
        toggle("enable", &named);
        assert_eq!(
            read_json(&cursor)["hooks"]["stop"][0]["command"],
            "./done.sh"
        );
    }
}

#[test]
fn agent_file_disabled_hooks_are_listed_with_what_enable_takes_and_codex_notes_are_said() {
    let env = Env::new();
    let config = env.home.join(".codex/config.toml");
    let original = "model = \"o3\"\n\n[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"./done.sh\" }]\n";
    write_file(&config, original);
    let file = config.display().to_string();
    let run = env.agent_hook("disable", &file, "Stop");
    run.assert_ok();
    assert!(
        run.stderr
            .contains("note: Codex CLI keeps its trust by position: the hooks after this one"),
        "{}",
        run.stderr
    );
    // Every hook of the config.toml disabled: the file is still listed, with them.
    let run = env.run(&["hooks", "list", "--agent", "codex"]);
    run.assert_ok();
    assert!(!run.stdout.contains("has no hooks file"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("Codex CLI · global ~/.codex/config.toml"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("  Stop (none) ./done.sh: disabled"),
        "{}",
        run.stdout
    );
    let run = env.run(&["hooks", "list", "--agent", "codex", "--format", "json"]);
    run.assert_ok();
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let listed = &doc["files"][0];
    assert_eq!(listed["path"], file.as_str());
    assert_eq!(listed["hooks"][0]["enabled"], false);
    assert_eq!(listed["hooks"][0]["event"], "Stop");
    assert_eq!(listed["hooks"][0]["matcher"], Value::Null);
    assert_eq!(listed["hooks"][0]["command"], "./done.sh");
    // Enabled back: the trust notes again.
    let run = env.agent_hook("enable", &file, "Stop");
    run.assert_ok();
    assert!(run.stdout.contains("byte for byte"), "{}", run.stdout);
    assert!(run.stderr.contains("move down"), "{}", run.stderr);
    assert_eq!(fs::read_to_string(&config).unwrap(), original);
    // The JSON listing has the enabled one as such, and no disabled one.
    let run = env.run(&["hooks", "list", "--agent", "codex", "--format", "json"]);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["files"][0]["hooks"].as_array().unwrap().len(), 1);
    assert_eq!(doc["files"][0]["hooks"][0]["enabled"], true);

    // Disabled again and the file changed elsewhere: back at its offset,
    // and said so. Then the file rewritten shorter: refused in words the
    // CLI's user can follow too (no button of the app), the hook named.
    env.agent_hook("disable", &file, "Stop").assert_ok();
    write_file(&config, "model = \"o4\"\n");
    let run = env.agent_hook("enable", &file, "Stop");
    run.assert_ok();
    assert!(
        run.stdout
            .contains("its bytes back where they were (the file changed elsewhere)"),
        "{}",
        run.stdout
    );
    env.agent_hook("disable", &file, "Stop").assert_ok();
    write_file(&config, "m = 1\n");
    let run = env.agent_hook("enable", &file, "Stop");
    let message = refused(&run);
    assert!(!message.contains("Add hook"), "{message}");
    assert!(
        message.contains("Stop hook \"./done.sh\"")
            && message.contains("stays disabled in hookd's store"),
        "{message}"
    );
}

#[test]
fn agent_file_enable_says_how_the_hook_went_back() {
    let env = Env::new();
    let cursor = env.file(".cursor/hooks.json");
    write_file(
        &cursor,
        "{\"version\": 1, \"hooks\": {\"stop\": [{\"command\": \"./done.sh\"}, {\"command\": \"./log.sh\"}]}}\n",
    );
    let file = cursor.display().to_string();
    env.agent_hook("disable", &file, "stop").assert_ok();
    // Someone else rewrites the file in another layout.
    write_file(
        &cursor,
        "{\n  \"version\": 1,\n  \"hooks\": {\n    \"stop\": [\n      {\n        \"command\": \"./log.sh\"\n      },\n      {\n        \"command\": \"./new.sh\"\n      }\n    ]\n  }\n}\n",
    );
    let run = env.agent_hook("enable", &file, "stop");
    run.assert_ok();
    assert!(!run.stdout.contains("byte for byte"), "{}", run.stdout);
    assert!(run.stdout.contains("old place"), "{}", run.stdout);
    assert!(run.stderr.is_empty(), "no Codex note: {}", run.stderr);
    assert_eq!(
        read_json(&cursor)["hooks"]["stop"],
        json!([{"command": "./done.sh"}, {"command": "./log.sh"}, {"command": "./new.sh"}])
    );
}

#[test]
fn agent_file_enable_into_a_deleted_file_says_it_is_gone_and_keeps_the_record() {
    let env = Env::new();
    let cursor = env.file(".cursor/hooks.json");
    write_file(
        &cursor,
        "{\"version\": 1, \"hooks\": {\"stop\": [{\"command\": \"./done.sh\"}]}}\n",
    );
    let file = cursor.display().to_string();
    env.agent_hook("disable", &file, "stop").assert_ok();
    fs::remove_file(&cursor).unwrap();
    let run = env.agent_hook("enable", &file, "stop");
    let message = refused(&run);
    assert!(
        message.contains(&format!("{file} is gone")) && message.contains("stays"),
        "{message}"
    );
    assert!(!message.contains("not a hooks file"), "{message}");
    let store = read_json(&env.home.join(".hookd/disabled.json"));
    assert_eq!(store["disabled"].as_array().unwrap().len(), 1);
}

#[test]
fn agent_file_refuses_force() {
    let env = Env::new();
    let cursor = env.file(".cursor/hooks.json");
    let original = "{\"version\": 1, \"hooks\": {\"stop\": [{\"command\": \"./done.sh\"}]}}\n";
    write_file(&cursor, original);
    let file = cursor.display().to_string();
    for verb in ["disable", "enable"] {
        let run = env.run(&[
            "hooks",
            verb,
            "--agent-file",
            file.as_str(),
            "--event",
            "stop",
            "--command",
            "./done.sh",
            "--force",
        ]);
        assert!(!run.ok(), "{verb}: {}", run.stdout);
        assert!(run.stderr.contains("--force"), "{}", run.stderr);
        assert_eq!(fs::read_to_string(&cursor).unwrap(), original);
    }
    let run = env.run(&["hooks", "disable", "--help"]);
    let help = run.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("Not with --scope, --kind or --force"),
        "{help}"
    );
}
