//! Managed mode end to end: `hookd-emit --wait` → daemon → managed hooks run
//! by the executor → the merged answer relayed to the agent, recorded in
//! the ledger, hot-reloaded when the settings change.

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use hookd_testkit::{
    GitRepo, TestEnv, poll_until, run_with_stdin, tool_payload, wait_for_count, write_json_pretty,
};
use serde_json::{Value, json};

/// Writes the project's managed hooks and approves them with `hookd trust`,
/// as the user would (unapproved files run nothing; see tests/trust.rs).
fn write_managed(env: &TestEnv, root: &Path, settings: &Value) {
    write_json_pretty(&root.join(".hookd/settings.json"), settings);
    let trust = env.hookd(root, &["trust", "--project", root.to_str().unwrap()]);
    assert!(trust.status.success(), "{trust:?}");
}

fn wait_emit(env: &TestEnv, root: &Path, args: &[&str], payload: &str) -> Output {
    let mut all = vec!["--wait"];
    all.extend_from_slice(args);
    let mut cmd = env.command("hookd-emit");
    cmd.args(&all)
        .current_dir(root)
        .env("CLAUDE_PROJECT_DIR", root);
    run_with_stdin(cmd, payload.as_bytes())
}

fn bash_payload(root: &Path, id: &str, command: &str) -> String {
    tool_payload("PreToolUse", "Bash", root, id, json!({"command": command}))
}

#[test]
fn a_managed_hook_denies_through_hookd_emit_wait_and_the_run_is_recorded() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    write_managed(
        &env,
        &root,
        &json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo 'no rm -rf here' >&2; exit 2"}]},
            {"matcher": "Write|Edit", "hooks": [{"type": "command", "command":
                "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"read-only tree\"}}'"}]}
        ]}}),
    );
    let _daemon = env.start_daemon();

    let denied = wait_emit(
        &env,
        &root,
        &["PreToolUse"],
        &bash_payload(&root, "t1", "rm -rf /"),
    );
    assert_eq!(denied.status.code(), Some(2), "{denied:?}");
    assert!(denied.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&denied.stderr).trim(),
        "no rm -rf here"
    );

    let write = tool_payload(
        "PreToolUse",
        "Write",
        &root,
        "t2",
        json!({"file_path": root.join("a.rs"), "content": "x"}),
    );
    let json_deny = wait_emit(&env, &root, &["PreToolUse"], &write);
    assert_eq!(json_deny.status.code(), Some(0), "{json_deny:?}");
    let answer: Value = serde_json::from_slice(&json_deny.stdout).expect("a JSON answer on stdout");
    assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "PreToolUse");
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecisionReason"],
        "read-only tree"
    );

    // Both events are in the ledger, and so is each hook run.
    wait_for_count(&repo, "events", 2);
    wait_for_count(&repo, "hook_runs", 2);
    let ledger = repo.ledger();
    let (command, exit_code, decision, scope, tool_use_id): (String, Option<i64>, Option<String>, String, String) = ledger
        .query_row(
            "SELECT command, exit_code, decision, scope, tool_use_id FROM hook_runs ORDER BY id LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .unwrap();
    assert_eq!(command, "echo 'no rm -rf here' >&2; exit 2");
    assert_eq!(exit_code, Some(2));
    assert_eq!(decision.as_deref(), Some("deny"));
    assert_eq!(scope, "project");
    assert_eq!(tool_use_id, "t1");
    let linked: i64 = ledger
        .query_row(
            "SELECT COUNT(*) FROM hook_runs r JOIN events e ON e.event_id = r.event_id",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(linked, 2, "every run points at its event");
}

#[test]
fn no_matching_managed_hook_gives_an_empty_answer_and_still_records() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    write_managed(
        &env,
        &root,
        &json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]}
        ]}}),
    );
    let _daemon = env.start_daemon();
    let read = tool_payload(
        "PostToolUse",
        "Read",
        &root,
        "t",
        json!({"file_path": root.join("README.md")}),
    );
    let out = wait_emit(&env, &root, &["PostToolUse"], &read);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    wait_for_count(&repo, "events", 1);
    assert_eq!(repo.count("hook_runs"), 0);
}

#[test]
fn wait_fails_open_with_the_daemon_stopped_and_closed_when_asked() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let mut daemon = env.start_daemon();
    assert!(daemon.terminate().success());
    let payload = bash_payload(&root, "t", "ls");
    let open = wait_emit(&env, &root, &["PreToolUse"], &payload);
    assert_eq!(open.status.code(), Some(0));
    assert!(open.stdout.is_empty() && open.stderr.is_empty(), "{open:?}");
    let closed = wait_emit(&env, &root, &["--fail-closed", "PreToolUse"], &payload);
    assert_eq!(closed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&closed.stderr).contains("managed hooks unavailable"));
}

#[test]
fn an_edit_with_hookd_hooks_add_applies_to_the_next_event_within_a_second() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();
    let payload = bash_payload(&root, "t", "make deploy");
    // Loads (and caches) the project's managed hooks: none yet.
    assert_eq!(
        wait_emit(&env, &root, &["PreToolUse"], &payload)
            .status
            .code(),
        Some(0)
    );
    wait_for_count(&repo, "events", 1);

    let added = env
        .command("hookd")
        .args([
            "hooks",
            "add",
            "--event",
            "PreToolUse",
            "--matcher",
            "Bash",
            "--command",
            "echo 'not today' >&2; exit 2",
        ])
        .args(["--scope", "project", "--kind", "managed", "--project"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(added.status.success(), "{added:?}");
    let mut last = None;
    let denied = poll_until(Duration::from_secs(1), || {
        let out = wait_emit(&env, &root, &["PreToolUse"], &payload);
        if out.status.code() == Some(2) {
            return Some(out);
        }
        last = Some(out);
        None
    })
    .unwrap_or_else(|| {
        panic!("the new hook was not applied within a second; last answer {last:?}")
    });
    assert_eq!(String::from_utf8_lossy(&denied.stderr).trim(), "not today");
}

#[test]
fn global_managed_hooks_apply_to_every_project_and_reload_too() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let hookd_home = env.home().join(".hookd");
    std::fs::create_dir_all(&hookd_home).unwrap();
    let _daemon = env.start_daemon();
    let stop = json!({"session_id": "s", "cwd": root, "hook_event_name": "Stop", "stop_hook_active": false}).to_string();
    assert_eq!(
        wait_emit(&env, &root, &["Stop"], &stop).status.code(),
        Some(0)
    );
    std::fs::write(
        hookd_home.join("settings.json"),
        serde_json::to_vec(&json!({"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"tests are red\"}'"}
        ]}]}}))
        .unwrap(),
    )
    .unwrap();
    let out = poll_until(Duration::from_secs(1), || {
        let out = wait_emit(&env, &root, &["Stop"], &stop);
        (!out.stdout.is_empty()).then_some(out)
    })
    .unwrap_or_else(|| panic!("global edit not applied within a second"));
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["decision"], "block");
    assert_eq!(answer["reason"], "tests are red");
}

/// A handler's `if` rule (Claude Code's permission syntax) decides per call
/// whether the managed hook runs; depth-strict globs for paths.
#[test]
fn a_managed_hook_runs_only_for_calls_its_if_rule_matches() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    write_managed(
        &env,
        &root,
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write", "hooks": [
            {"type": "command", "if": "Bash(sudo *)", "command": "echo 'no sudo' >&2; exit 2"},
            {"type": "command", "if": "Edit(secrets/**)", "command": "echo 'not there' >&2; exit 2"}
        ]}]}}),
    );
    let _daemon = env.start_daemon();
    let bash = |id: &str, command: &str| {
        wait_emit(
            &env,
            &root,
            &["PreToolUse"],
            &bash_payload(&root, id, command),
        )
    };
    let plain = bash("t1", "ls -la");
    assert_eq!(plain.status.code(), Some(0), "{plain:?}");
    let sudo = bash("t2", "cd /tmp && sudo rm x");
    assert_eq!(sudo.status.code(), Some(2), "{sudo:?}");
    assert_eq!(String::from_utf8_lossy(&sudo.stderr).trim(), "no sudo");
    let write = |id: &str, rel: &str| {
        let payload = tool_payload(
            "PreToolUse",
            "Write",
            &root,
            id,
            json!({"file_path": root.join(rel), "content": "x"}),
        );
        wait_emit(&env, &root, &["PreToolUse"], &payload)
    };
    assert_eq!(write("t3", "secrets/key.pem").status.code(), Some(2));
    // Depth-strict: `secrets/**` is only <project>/secrets.
    assert_eq!(write("t4", "app/secrets/key.pem").status.code(), Some(0));
}

/// One managed guard, written to Claude Code's contract, guards every
/// agent: each calls `hookd-emit --wait --agent NAME` with its own event
/// name and payload, the guard reads it in Claude Code's shape (Gemini's
/// `run_shell_command` and Cursor's `Shell` are `Bash` to its matcher,
/// Copilot's `toolArgs` string is its `tool_input`), and each agent reads
/// the deny in its own output contract. An `ask` the agent cannot ask is a
/// deny, and the hook run says so.
#[test]
fn one_managed_guard_answers_every_agent_in_its_own_shape() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    write_managed(
        &env,
        &root,
        &json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command":
                "jq -e '.tool_input.command | test(\"rm -rf\")' >/dev/null && { echo 'no rm -rf here' >&2; exit 2; } || exit 0"}]},
            {"hooks": [{"type": "command", "command":
                "jq -e '.tool_input.command | test(\"deploy\")' >/dev/null && echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"deploys need a human\"}}' || exit 0"}]}
        ]}}),
    );
    let _daemon = env.start_daemon();
    let answer = |agent: &str, event: &str, payload: Value| {
        let out = wait_emit(
            &env,
            &root,
            &["--agent", agent, event],
            &payload.to_string(),
        );
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        (
            out.status.code(),
            stdout,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let json_of = |stdout: &str| -> Value { serde_json::from_str(stdout).expect("a JSON answer") };

    let gemini = |command: &str| {
        json!({"session_id": "g1", "hook_event_name": "BeforeTool", "cwd": root,
            "tool_name": "run_shell_command", "tool_input": {"command": command}})
    };
    let (code, stdout, _) = answer("gemini", "BeforeTool", gemini("rm -rf build"));
    assert_eq!(code, Some(0));
    assert_eq!(
        json_of(&stdout),
        json!({"decision": "deny", "reason": "no rm -rf here"})
    );
    let (code, stdout, _) = answer("gemini", "BeforeTool", gemini("ls"));
    assert_eq!((code, stdout.as_str()), (Some(0), ""), "nothing to say");
    let (_, stdout, _) = answer("gemini", "BeforeTool", gemini("./deploy prod"));
    assert_eq!(
        json_of(&stdout),
        json!({"decision": "ask", "reason": "deploys need a human"}),
        "Gemini CLI asks the user"
    );

    let (code, stdout, stderr) = answer(
        "codex",
        "PreToolUse",
        serde_json::from_str(&bash_payload(&root, "c1", "rm -rf build")).unwrap(),
    );
    assert_eq!(
        (code, stdout.as_str(), stderr.trim()),
        (Some(2), "", "no rm -rf here")
    );

    let (code, stdout, _) = answer(
        "cursor",
        "preToolUse",
        json!({"conversation_id": "k1", "hook_event_name": "preToolUse", "cwd": root,
            "tool_name": "Shell", "tool_input": {"command": "rm -rf build", "working_directory": root}}),
    );
    assert_eq!(code, Some(0));
    assert_eq!(
        json_of(&stdout),
        json!({"permission": "deny", "user_message": "no rm -rf here", "agent_message": "no rm -rf here"})
    );

    let (code, stdout, _) = answer(
        "copilot",
        "preToolUse",
        json!({"sessionId": "p1", "cwd": root, "toolName": "bash",
            "toolArgs": "{\"command\":\"./deploy prod\",\"description\":\"ship\"}"}),
    );
    assert_eq!(code, Some(0));
    assert_eq!(
        json_of(&stdout),
        json!({"permissionDecision": "ask", "permissionDecisionReason": "deploys need a human"})
    );

    // Codex CLI cannot ask: a deny, and the run of the asking hook says so.
    let (code, stdout, _) = answer(
        "codex",
        "PreToolUse",
        serde_json::from_str(&bash_payload(&root, "c2", "./deploy prod")).unwrap(),
    );
    assert_eq!(code, Some(0));
    let out = json_of(&stdout);
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    assert!(
        out["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .ends_with("which Codex CLI cannot ask: deploys need a human"),
        "{out}"
    );
    wait_for_count(&repo, "events", 7);
    // The hook runs are stored after their event: wait for the asking one.
    let noted_runs = || -> Vec<(String, Option<String>)> {
        repo.ledger()
            .prepare("SELECT r.decision, r.error FROM hook_runs r JOIN events e ON e.event_id = r.event_id WHERE e.tool_use_id = 'c2' AND r.decision IS NOT NULL")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    let noted = poll_until(Duration::from_secs(10), || {
        Some(noted_runs()).filter(|runs| !runs.is_empty())
    })
    .unwrap_or_default();
    assert_eq!(noted.len(), 1, "{noted:?}");
    assert_eq!(noted[0].0, "ask");
    assert!(
        noted[0]
            .1
            .as_deref()
            .is_some_and(|e| e.starts_with("answered codex: Codex CLI cannot ask the user")),
        "{noted:?}"
    );
}
