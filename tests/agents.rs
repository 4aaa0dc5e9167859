//! Other agents than Claude Code, end to end with the real binaries:
//! `hookd connect --agent gemini` edits Gemini CLI's settings file as
//! surgically as Claude Code's, the entries it writes record Gemini's
//! events when run as Gemini runs them, and `disconnect` gives the file
//! back byte for byte; the same for Codex CLI's and Cursor's `hooks.json`,
//! and GitHub Copilot's hooks get a file of hookd's own.

use hookd_testkit::{GitRepo, TestEnv, wait_for_count, write_file};
use serde_json::{Value, json};

const USER_FILE: &str = "{\n  // the user's own comment, kept (Gemini CLI allows comments)\n  \"theme\": \"dark\",\n\n  \"hooks\": {\n    \"BeforeTool\": [\n      { \"matcher\": \"write_file\", \"hooks\": [ { \"type\": \"command\", \"command\": \"./guard.sh\", \"timeout\": 5000 } ] }\n    ]\n  }\n}\n";

#[test]
fn gemini_is_connected_records_through_its_entries_and_is_disconnected_byte_for_byte() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let file = env.home().join(".gemini/settings.json");
    write_file(&file, USER_FILE);

    let dry = env.hookd(&root, &["connect", "--agent", "gemini", "--dry-run"]);
    dry.assert_ok();
    assert!(
        dry.stdout.contains("Dry run: would add 8 hook groups"),
        "{}",
        dry.stdout
    );
    assert!(
        dry.stdout.contains("+"),
        "the diff is shown: {}",
        dry.stdout
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), USER_FILE);

    let run = env.hookd(&root, &["connect", "--agent", "gemini"]);
    run.assert_ok();
    assert!(
        run.stdout.contains("Connected hookd (Gemini CLI)"),
        "{}",
        run.stdout
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with(
            "{\n  // the user's own comment, kept (Gemini CLI allows comments)\n  \"theme\": \"dark\",\n\n"
        )
            && text.contains("{ \"matcher\": \"write_file\", \"hooks\": [ { \"type\": \"command\", \"command\": \"./guard.sh\", \"timeout\": 5000 } ] }"),
        "{text}"
    );
    let value: Value = jsonc(&text);
    let before_tool = value["hooks"]["BeforeTool"].as_array().unwrap();
    assert_eq!(before_tool[0]["hooks"][0]["command"], "./guard.sh");
    let ours = &before_tool[1]["hooks"][0];
    assert_eq!(ours["timeout"], 10000, "milliseconds, Gemini's unit");
    let command = ours["command"].as_str().unwrap();
    assert!(
        command.ends_with("hookd-emit --agent gemini BeforeTool"),
        "{command}"
    );
    // Connected again: nothing to do, nothing written.
    let again = env.hookd(&root, &["connect", "--agent", "gemini"]);
    assert!(
        again.stdout.contains("Already connected"),
        "{}",
        again.stdout
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);

    // Gemini runs the entry's command with its payload on stdin.
    let _daemon = env.start_daemon();
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let payload = json!({"session_id": "g-1", "cwd": root, "hook_event_name": "BeforeTool",
        "timestamp": "2026-11-28T17:40:00.000Z", "tool_name": "read_file",
        "tool_input": {"file_path": root.join("README.md")}});
    let out = env.emit(&args, &payload.to_string(), &root);
    assert!(out.status.success(), "{out:?}");
    wait_for_count(&repo, "events", 1);
    let (hook_type, agent_kind): (String, String) = repo
        .ledger()
        .query_row("SELECT hook_type, agent_kind FROM events", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(
        (hook_type.as_str(), agent_kind.as_str()),
        ("pre_tool_use", "gemini")
    );

    let gone = env.hookd(&root, &["disconnect", "--agent", "gemini"]);
    gone.assert_ok();
    assert!(
        gone.stdout.contains("removed 8 hookd handlers"),
        "{}",
        gone.stdout
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), USER_FILE);
}

#[test]
fn what_gemini_or_hookd_cannot_do_is_refused_and_writes_nothing() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    for (args, says) in [
        (
            vec!["connect", "--agent", "gemini", "--scope", "local"],
            "Gemini CLI has no local settings file",
        ),
        (
            vec!["connect", "--agent", "codex", "--scope", "local"],
            "Codex CLI has no local settings file",
        ),
        (
            vec!["connect", "--agent", "cursor", "--scope", "local"],
            "Cursor has no local settings file",
        ),
        (
            vec!["disconnect", "--agent", "codex", "--scope", "local"],
            "use --scope global ($CODEX_HOME/hooks.json",
        ),
        (
            vec!["disconnect", "--agent", "copilot", "--scope", "local"],
            "GitHub Copilot has no local settings file",
        ),
    ] {
        let run = env.hookd(&root, &args);
        assert!(!run.status.success(), "{args:?}: {}", run.stdout);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
    assert!(!env.home().join(".gemini").exists());
    assert!(!env.home().join(".cursor").exists());
    assert!(!env.home().join(".codex").exists());

    // Beyond comments, Gemini CLI reads plain JSON: a trailing comma is an
    // error it would report too, and hookd refuses the file, untouched.
    let broken = "{\n  \"theme\": \"dark\",\n}\n";
    let file = env.home().join(".gemini/settings.json");
    write_file(&file, broken);
    let run = env.hookd(&root, &["connect", "--agent", "gemini"]);
    assert!(!run.status.success(), "{}", run.stdout);
    assert!(run.stderr.contains("refusing to edit"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), broken);
    assert!(!root.join(".gemini").exists());

    // The project's file, with the bare command a committed file gets.
    let run = env.hookd(
        &root,
        &["connect", "--agent", "gemini", "--scope", "project"],
    );
    run.assert_ok();
    assert!(
        run.stderr.contains("only in a trusted folder"),
        "{}",
        run.stderr
    );
    let value = jsonc(&std::fs::read_to_string(root.join(".gemini/settings.json")).unwrap());
    assert_eq!(
        value["hooks"]["AfterTool"][0]["hooks"][0]["command"],
        "hookd-emit --agent gemini AfterTool"
    );
}

/// A JSON-with-comments text as a value (comment lines dropped: the files
/// here put comments on lines of their own).
fn jsonc(text: &str) -> Value {
    let json: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    serde_json::from_str(&json).unwrap()
}

/// A Cursor hooks file as a user writes it: its own entries, an empty list
/// and a key Cursor does not document, laid out by hand.
const CURSOR_FILE: &str = "{\n  \"version\": 1,\n  \"x-note\": \"mine\",\n  \"hooks\": {\n    \"afterFileEdit\": [\n      { \"command\": \"./hooks/format.sh\" }\n    ],\n    \"beforeShellExecution\": [\n      { \"command\": \"./approve.sh\", \"timeout\": 30, \"matcher\": \"curl|wget|nc\" }\n    ],\n    \"workspaceOpen\": []\n  }\n}\n";

#[test]
fn cursor_is_connected_records_through_its_entries_and_is_disconnected_byte_for_byte() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let file = env.home().join(".cursor/hooks.json");
    write_file(&file, CURSOR_FILE);

    let dry = env.hookd(&root, &["connect", "--agent", "cursor", "--dry-run"]);
    dry.assert_ok();
    assert!(
        dry.stdout.contains("Dry run: would add 7 hook groups")
            && dry.stdout.contains("+++")
            && dry.stdout.contains("--agent cursor afterFileEdit"),
        "the count and the diff: {}",
        dry.stdout
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), CURSOR_FILE);

    let run = env.hookd(&root, &["connect", "--agent", "cursor"]);
    run.assert_ok();
    assert!(
        run.stdout.contains("Connected hookd (Cursor)"),
        "{}",
        run.stdout
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("{\n  \"version\": 1,\n  \"x-note\": \"mine\",\n")
            && text.contains(
                "{ \"command\": \"./approve.sh\", \"timeout\": 30, \"matcher\": \"curl|wget|nc\" }"
            ),
        "the user's bytes stay: {text}"
    );
    let value: Value = serde_json::from_str(&text).unwrap();
    let edits = value["hooks"]["afterFileEdit"].as_array().unwrap();
    assert_eq!(edits[0], json!({"command": "./hooks/format.sh"}));
    assert_eq!(edits[1]["timeout"], 10, "seconds, Cursor's unit");
    assert!(edits[1].get("matcher").is_none(), "flat: no groups");
    assert_eq!(value["hooks"]["workspaceOpen"], json!([]));
    let again = env.hookd(&root, &["connect", "--agent", "cursor"]);
    assert!(
        again.stdout.contains("Already connected"),
        "{}",
        again.stdout
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);

    // Cursor runs the entry's command with its payload on stdin.
    let _daemon = env.start_daemon();
    let command = value["hooks"]["sessionStart"][0]["command"]
        .as_str()
        .unwrap();
    assert!(
        command.ends_with("hookd-emit --agent cursor sessionStart"),
        "{command}"
    );
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let payload = json!({"session_id": "c-1", "conversation_id": "c-1",
        "hook_event_name": "sessionStart", "workspace_roots": [root], "cwd": root,
        "is_background_agent": false, "composer_mode": "agent"});
    let out = env.emit(&args, &payload.to_string(), &root);
    assert!(out.status.success(), "{out:?}");
    wait_for_count(&repo, "events", 1);
    let (hook_type, agent_kind): (String, String) = repo
        .ledger()
        .query_row("SELECT hook_type, agent_kind FROM events", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(
        (hook_type.as_str(), agent_kind.as_str()),
        ("session_start", "cursor")
    );

    let dry = env.hookd(&root, &["disconnect", "--agent", "cursor", "--dry-run"]);
    dry.assert_ok();
    assert!(
        dry.stdout.contains("would remove 7 hookd handlers") && dry.stdout.contains("---"),
        "{}",
        dry.stdout
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    let gone = env.hookd(&root, &["disconnect", "--agent", "cursor"]);
    gone.assert_ok();
    assert!(
        gone.stdout.contains("removed 7 hookd handlers"),
        "{}",
        gone.stdout
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), CURSOR_FILE);
    let twice = env.hookd(&root, &["disconnect", "--agent", "cursor"]);
    assert!(twice.stdout.contains("Not connected"), "{}", twice.stdout);
}

#[test]
fn cursor_project_file_is_created_with_version_1_and_a_broken_one_is_refused() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let run = env.hookd(
        &root,
        &["connect", "--agent", "cursor", "--scope", "project"],
    );
    run.assert_ok();
    assert!(run.stderr.contains("trusted workspace"), "{}", run.stderr);
    let project_file = root.join(".cursor/hooks.json");
    let value: Value =
        serde_json::from_str(&std::fs::read_to_string(&project_file).unwrap()).unwrap();
    assert_eq!(value["version"], 1);
    assert_eq!(
        value["hooks"]["postToolUse"][0]["command"], "hookd-emit --agent cursor postToolUse",
        "a committed file names the bare command"
    );
    let gone = env.hookd(
        &root,
        &["disconnect", "--agent", "cursor", "--scope", "project"],
    );
    gone.assert_ok();
    assert_eq!(
        serde_json::from_str::<Value>(&std::fs::read_to_string(&project_file).unwrap()).unwrap(),
        json!({"version": 1})
    );

    // Groups where Cursor wants an object of entry lists: refused, untouched.
    let file = env.home().join(".cursor/hooks.json");
    let broken = "{\"version\": 1, \"hooks\": {\"stop\": {\"hooks\": []}}}\n";
    write_file(&file, broken);
    let run = env.hookd(&root, &["connect", "--agent", "cursor"]);
    assert!(!run.status.success(), "{}", run.stdout);
    assert!(run.stderr.contains("hooks.stop"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), broken);
}

/// GitHub Copilot gets hookd's own file in its hooks directory: created by
/// connect, recorded through, and removed by disconnect when only hookd's
/// entries are in it; a user's other hooks file is never touched, and a
/// user's entry added to hookd's file keeps the file.
#[test]
fn copilot_gets_a_file_of_hookds_own_which_disconnect_removes() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let dir = env.home().join(".copilot/hooks");
    let theirs = dir.join("guard.json");
    let their_text = "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"bash\": \"./guard.sh\"}]}}\n";
    write_file(&theirs, their_text);
    let file = dir.join("hookd.json");

    let dry = env.hookd(&root, &["connect", "--agent", "copilot", "--dry-run"]);
    dry.assert_ok();
    assert!(
        dry.stdout.contains("would create") && dry.stdout.contains("+++"),
        "{}",
        dry.stdout
    );
    assert!(!file.exists());
    let run = env.hookd(&root, &["connect", "--agent", "copilot"]);
    run.assert_ok();
    assert!(
        run.stdout.contains("Connected hookd (GitHub Copilot)"),
        "{}",
        run.stdout
    );
    let value: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(value["version"], 1);
    let ours = &value["hooks"]["postToolUse"][0];
    assert_eq!(
        (&ours["type"], &ours["timeoutSec"]),
        (&json!("command"), &json!(10))
    );
    let command = ours["bash"].as_str().unwrap();
    assert!(
        command.ends_with("hookd-emit --agent copilot postToolUse"),
        "{command}"
    );
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), their_text);

    // Copilot runs the entry's bash with its payload on stdin.
    let _daemon = env.start_daemon();
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let payload = json!({"sessionId": "s-1", "timestamp": 1_704_614_700_000_u64, "cwd": root,
        "toolName": "view", "toolArgs": "{\"path\":\"README.md\"}",
        "toolResult": {"resultType": "success", "textResultForLlm": "ok"}});
    let out = env.emit(&args, &payload.to_string(), &root);
    assert!(out.status.success(), "{out:?}");
    wait_for_count(&repo, "events", 1);
    let (hook_type, agent_kind, session): (String, String, String) = repo
        .ledger()
        .query_row(
            "SELECT hook_type, agent_kind, session_id FROM events",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        (hook_type.as_str(), agent_kind.as_str(), session.as_str()),
        ("post_tool_use", "copilot", "s-1")
    );

    let gone = env.hookd(&root, &["disconnect", "--agent", "copilot"]);
    gone.assert_ok();
    assert!(
        gone.stdout.contains("removed 6 hookd handlers") && gone.stdout.contains("Removed"),
        "{}",
        gone.stdout
    );
    assert!(!file.exists());
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), their_text);

    // A user's entry in hookd's file: only hookd's entries go.
    env.hookd(
        &root,
        &["connect", "--agent", "copilot", "--scope", "project"],
    )
    .assert_ok();
    let project_file = root.join(".github/hooks/hookd.json");
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(&project_file).unwrap()).unwrap();
    value["hooks"]["agentStop"]
        .as_array_mut()
        .unwrap()
        .push(json!({"bash": "./notify.sh"}));
    std::fs::write(&project_file, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    env.hookd(
        &root,
        &["disconnect", "--agent", "copilot", "--scope", "project"],
    )
    .assert_ok();
    let left: Value =
        serde_json::from_str(&std::fs::read_to_string(&project_file).unwrap()).unwrap();
    assert_eq!(
        left,
        json!({"version": 1, "hooks": {"agentStop": [{"bash": "./notify.sh"}]}})
    );
}

const CODEX_FILE: &str = "{\n  \"description\": \"team guards\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"^Bash$\",\n        \"hooks\": [{ \"type\": \"command\", \"command\": \"python3 ~/.codex/guard.py\", \"timeout\": 30 }]\n      }\n    ]\n  }\n}\n";

/// Codex CLI: `hookd connect --agent codex` adds entries in Claude Code's
/// shape to `$CODEX_HOME/hooks.json`, says that Codex runs them only once
/// trusted (hookd writes no trust into Codex's config), records Codex's
/// events through them, switches them to managed mode and back where they
/// stand, and `disconnect` gives the file back byte for byte. A file Codex
/// would drop (a top-level key besides `hooks` and `description`) is
/// refused untouched, naming the key.
#[test]
fn codex_is_connected_told_to_trust_recorded_and_disconnected_byte_for_byte() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let file = env.home().join(".codex/hooks.json");
    write_file(&file, CODEX_FILE);
    let config = env.home().join(".codex/config.toml");
    write_file(&config, "model = \"gpt-5-codex\"\n");

    let dry = env.hookd(&root, &["connect", "--agent", "codex", "--dry-run"]);
    dry.assert_ok();
    assert!(
        dry.stdout.contains("Dry run: would add 10 hook groups") && dry.stdout.contains("+++"),
        "{}",
        dry.stdout
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), CODEX_FILE);

    let run = env.hookd(&root, &["connect", "--agent", "codex"]);
    run.assert_ok();
    assert!(
        run.stdout.contains("Connected hookd (Codex CLI)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains("only once you trust it") && run.stderr.contains("/hooks"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        "model = \"gpt-5-codex\"\n",
        "no trust written for the user"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("{\n  \"description\": \"team guards\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"^Bash$\",\n        \"hooks\": [{ \"type\": \"command\", \"command\": \"python3 ~/.codex/guard.py\", \"timeout\": 30 }]\n      },\n"),
        "{text}"
    );
    let value: Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["description", "hooks"], "nothing Codex would drop");
    let ours = &value["hooks"]["PostToolUse"][0];
    assert_eq!(ours["matcher"], "*");
    let command = ours["hooks"][0]["command"].as_str().unwrap();
    assert!(
        command.ends_with("hookd-emit --agent codex PostToolUse"),
        "{command}"
    );
    assert_eq!(value["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"], 3);

    // Codex runs the entry's command with its payload on stdin.
    let _daemon = env.start_daemon();
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let payload = json!({"session_id": "x-1", "turn_id": "t-1", "cwd": root,
        "hook_event_name": "PostToolUse", "model": "gpt-5-codex", "permission_mode": "default",
        "transcript_path": null, "tool_name": "Bash", "tool_use_id": "call-1",
        "tool_input": {"command": "ls"}, "tool_response": "README.md"});
    let out = env.emit(&args, &payload.to_string(), &root);
    assert!(out.status.success(), "{out:?}");
    wait_for_count(&repo, "events", 1);
    let (hook_type, agent_kind, session): (String, String, String) = repo
        .ledger()
        .query_row(
            "SELECT hook_type, agent_kind, session_id FROM events",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        (hook_type.as_str(), agent_kind.as_str(), session.as_str()),
        ("post_tool_use", "codex", "x-1")
    );

    // Managed mode waits for hookd's managed hooks; back to recording, the
    // entries are where they were.
    env.hookd(&root, &["connect", "--agent", "codex", "--managed"])
        .assert_ok();
    let managed: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let pre = managed["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 2);
    assert!(
        pre[1]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with("hookd-emit --wait --agent codex PreToolUse"),
        "{managed}"
    );
    assert!(managed["hooks"]["PermissionRequest"].is_array());
    env.hookd(&root, &["connect", "--agent", "codex"])
        .assert_ok();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);

    let gone = env.hookd(&root, &["disconnect", "--agent", "codex"]);
    gone.assert_ok();
    assert!(
        gone.stdout.contains("removed 10 hookd handlers"),
        "{}",
        gone.stdout
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), CODEX_FILE);

    // A project's file, and the trust Codex asks of a project.
    let project = env.hookd(
        &root,
        &["connect", "--agent", "codex", "--scope", "project"],
    );
    project.assert_ok();
    assert!(root.join(".codex/hooks.json").is_file());
    assert!(
        project.stderr.contains("only when the project is trusted"),
        "{}",
        project.stderr
    );

    // What Codex would drop whole is refused, untouched.
    let schema = "{\"$schema\": \"https://example.com/hooks.json\", \"hooks\": {}}\n";
    write_file(&file, schema);
    let refused = env.hookd(&root, &["connect", "--agent", "codex"]);
    assert!(!refused.status.success(), "{}", refused.stdout);
    assert!(
        refused.stderr.contains("\"$schema\"") && refused.stderr.contains("drops this file"),
        "{}",
        refused.stderr
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), schema);
}

/// `$CODEX_HOME` moves Codex CLI's user file, and hookd follows it.
#[test]
fn codex_home_names_the_user_file() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let elsewhere = env.home().join("codex-home");
    let out = env
        .command("hookd")
        .args(["connect", "--agent", "codex", "--dry-run"])
        .current_dir(repo.root())
        .env("CODEX_HOME", &elsewhere)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        stdout.contains("would create ~/codex-home/hooks.json"),
        "{stdout}"
    );
    assert!(!elsewhere.exists(), "a dry run writes nothing");
}

/// `hookd hooks list --agent codex` says whether Codex will run each hook:
/// hookd's own entries, just connected, record nothing until trusted in
/// Codex's `/hooks`; a hook Codex's `config.toml` holds the trust hash of
/// runs when that is the hash of the hook as it is (hookd computes it as
/// Codex does), and not when the hook changed since; a project's file
/// waits for the project's trust.
#[test]
fn hooks_list_says_which_codex_hooks_run_and_why_not() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    env.hookd(&root, &["connect", "--agent", "codex"])
        .assert_ok();
    let file = env.home().join(".codex/hooks.json");
    let list = env.hookd(&root, &["hooks", "list", "--agent", "codex"]);
    let out = list.assert_ok();
    assert!(
        out.starts_with("Codex CLI · global ~/.codex/hooks.json"),
        "{out}"
    );
    assert!(
        out.contains("hookd-emit --agent codex PreToolUse 10s [hookd]: Codex CLI runs it only once you trust it: open /hooks in Codex"),
        "{out}"
    );

    // Trusted in Codex (its state, as /hooks writes it): the hash of a hook
    // in config.toml's [hooks] as it is runs it; hookd's entries' hashes
    // here are another hook's, as if they changed since.
    let config = env.home().join(".codex/config.toml");
    let key = |event: &str| format!("{}:{event}:0:0", file.display());
    // sha256 of {"event_name":"stop","hooks":[{"async":false,"command":"./notify.sh","timeout":600,"type":"command"}]}
    let notify = "sha256:54654dbfa3a5c17e18532f36723c02a9af3ba4460ca9021a47f4a7a3f225c8fb";
    write_file(
        &config,
        &format!(
            "[[hooks.Stop]]\nhooks = [{{ type = \"command\", command = \"./notify.sh\" }}]\n\n[hooks.state.\"{}:stop:0:0\"]\ntrusted_hash = \"{notify}\"\n\n[hooks.state.\"{}\"]\ntrusted_hash = \"sha256:0\"\n\n[hooks.state.\"{}\"]\nenabled = false\ntrusted_hash = \"sha256:1\"\n",
            config.display(),
            key("pre_tool_use"),
            key("stop")
        ),
    );
    let json = env.hookd(
        &root,
        &["hooks", "list", "--agent", "codex", "--format", "json"],
    );
    let doc: Value = serde_json::from_str(json.assert_ok()).unwrap();
    let file_hooks = |name: &str| {
        doc["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"].as_str().unwrap().ends_with(name))
            .map(|f| f["hooks"].as_array().unwrap().clone())
            .unwrap()
    };
    let hooks = file_hooks("hooks.json");
    let verdict = |event: &str| {
        hooks
            .iter()
            .find(|h| h["event"] == event)
            .map(|h| h["will_run"].clone())
            .unwrap()
    };
    assert_eq!(verdict("PreToolUse")["runs"], false, "{doc}");
    assert_eq!(
        verdict("PreToolUse")["reasons"][0]["message"],
        "changed since you trusted it; trust it again in Codex's /hooks"
    );
    assert_eq!(verdict("Stop")["runs"], false);
    assert_eq!(verdict("Stop")["reasons"][0]["code"], "turned_off");
    assert_eq!(
        verdict("SessionStart")["reasons"][0]["code"],
        "not_trusted_in_agent"
    );
    let notify = &file_hooks("config.toml")[0]["will_run"];
    assert_eq!(notify["runs"], true, "{doc}");
    assert_eq!(notify["provided"], serde_json::json!([]), "{doc}");

    // Another agent without a file: said so.
    let none = env.hookd(&root, &["hooks", "list", "--agent", "cursor"]);
    assert!(
        none.assert_ok().contains("Cursor has no hooks file for"),
        "{}",
        none.stdout
    );
}

/// The administrator's Codex layers (`requirements.toml`, the system
/// `hooks.json`), read from `$HOOKD_CODEX_SYSTEM_DIR` (the test kit's
/// stand-in for `/etc/codex`): `hookd hooks list --agent codex` lists them
/// at the policy scope after the user's file, their hooks run without the
/// user's trust, and `allow_managed_hooks_only` stops the user's hooks,
/// hookd's own entries among them.
#[test]
fn hooks_list_shows_codexs_managed_layers_and_allow_managed_hooks_only() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    env.hookd(&root, &["connect", "--agent", "codex"])
        .assert_ok();
    let system = env.system_dir().join("codex");
    write_file(
        &system.join("requirements.toml"),
        "allow_managed_hooks_only = true\n\n[hooks]\nmanaged_dir = \"/etc/codex/hooks\"\n\n[[hooks.PreToolUse]]\nmatcher = \"^Bash$\"\nhooks = [{ type = \"command\", command = \"/etc/codex/hooks/guard.sh\", timeout = 5 }]\n",
    );
    write_file(
        &system.join("hooks.json"),
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/opt/audit.sh"}]}]}}"#,
    );
    let list = env.hookd(&root, &["hooks", "list", "--agent", "codex"]);
    let out = list.assert_ok();
    let requirements = format!(
        "Codex CLI · policy {}",
        system.join("requirements.toml").display()
    );
    assert!(out.contains(&requirements), "{out}");
    assert!(
        out.contains("PreToolUse ^Bash$ /etc/codex/hooks/guard.sh 5s: runs"),
        "{out}"
    );
    assert!(out.contains("Stop (none) /opt/audit.sh: runs"), "{out}");
    assert!(
        out.contains("the administrator's: hookd lists it and never writes it"),
        "{out}"
    );
    assert!(
        out.find("· global").unwrap() < out.find("· policy").unwrap(),
        "the user's file first: {out}"
    );
    assert!(
        out.contains("hookd-emit --agent codex PreToolUse 10s [hookd]: the administrator's requirements.toml sets allow_managed_hooks_only = true"),
        "{out}"
    );

    let json = env.hookd(
        &root,
        &["hooks", "list", "--agent", "codex", "--format", "json"],
    );
    let doc: Value = serde_json::from_str(json.assert_ok()).unwrap();
    let files = doc["files"].as_array().unwrap();
    let scopes: Vec<&str> = files.iter().map(|f| f["scope"].as_str().unwrap()).collect();
    assert_eq!(scopes, ["global", "policy", "policy"], "{doc}");
    assert_eq!(
        files[0]["hooks"][0]["will_run"]["reasons"][0]["code"], "managed_hooks_only",
        "{doc}"
    );
    assert_eq!(files[1]["hooks"][0]["will_run"]["runs"], true, "{doc}");
}

/// Gemini CLI's system settings (`$GEMINI_CLI_SYSTEM_SETTINGS_PATH`, the
/// test kit's stand-in for `/etc/gemini-cli/settings.json`) and an
/// installed extension's `hooks/hooks.json` are listed by `hookd hooks
/// list --agent gemini`, the extension's under its name, with whether
/// they run: the extension's only while it is enabled for the folder.
#[test]
fn hooks_list_shows_geminis_system_settings_and_extension_hooks() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    write_file(
        &env.system_dir().join("gemini-cli/settings.json"),
        r#"{"hooks": {"AfterTool": [{"hooks": [{"type": "command", "command": "/opt/log.sh", "timeout": 3000}]}]}}"#,
    );
    let ext = env.home().join(".gemini/extensions/audit");
    write_file(
        &ext.join("gemini-extension.json"),
        r#"{"name": "audit", "version": "1.0.0"}"#,
    );
    write_file(
        &ext.join("hooks/hooks.json"),
        r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "./start.sh"}]}]}}"#,
    );
    let list = env.hookd(&root, &["hooks", "list", "--agent", "gemini"]);
    let out = list.assert_ok();
    assert!(out.contains("Gemini CLI · policy "), "{out}");
    assert!(
        out.contains("AfterTool (PostToolUse) (none) /opt/log.sh 3s: runs"),
        "{out}"
    );
    assert!(
        out.contains("Gemini CLI · extension audit ~/.gemini/extensions/audit/hooks/hooks.json"),
        "{out}"
    );
    assert!(
        out.contains("SessionStart (none) ./start.sh: runs if Gemini CLI is not started with --extensions (-e) leaving the extension audit out"),
        "{out}"
    );
    // Disabled for this folder, as `gemini extensions disable` records it.
    write_file(
        &env.home()
            .join(".gemini/extensions/extension-enablement.json"),
        &format!(r#"{{"audit": {{"overrides": ["!{}/*"]}}}}"#, root.display()),
    );
    let list = env.hookd(
        &root,
        &["hooks", "list", "--agent", "gemini", "--format", "json"],
    );
    let doc: Value = serde_json::from_str(list.assert_ok()).unwrap();
    let ext_file = &doc["files"][1];
    assert_eq!(ext_file["extension"], "audit", "{doc}");
    assert_eq!(ext_file["hooks"][0]["will_run"]["runs"], false, "{doc}");
    assert_eq!(
        ext_file["hooks"][0]["will_run"]["reasons"][0]["code"], "turned_off",
        "{doc}"
    );
}
