//! hookd-emit → hookd daemon → ledger → hookd query, with the real binaries,
//! a real socket and real git repositories.

use std::path::Path;

use hookd_testkit::{GitRepo, TestEnv, tool_payload, wait_for_count, wait_until};
use serde_json::{Value, json};

fn emit_ok(env: &TestEnv, args: &[&str], payload: &str, cwd: &Path) {
    let out = env.emit(args, payload, cwd);
    assert!(out.status.success(), "hookd-emit failed: {out:?}");
    assert!(
        out.stdout.is_empty(),
        "hookd-emit must print nothing on stdout"
    );
}

/// Each change `hookd query` listed: its file, tool, lines added and
/// removed, and agent, in order.
fn changes(rows: &[Value]) -> Vec<(&str, &str, i64, i64, &str)> {
    rows.iter()
        .map(|r| {
            (
                r["file_path"].as_str().unwrap(),
                r["tool_name"].as_str().unwrap(),
                r["lines_added"].as_i64().unwrap(),
                r["lines_removed"].as_i64().unwrap(),
                r["agent_kind"].as_str().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_bash_emitter_envelope_is_accepted_byte_for_byte() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let _daemon = env.start_daemon();
    let root = repo.root();
    // Exactly what `jq -c` prints for the bash emitter: key order, no spaces, ms timestamp.
    let line = format!(
        "{{\"event_type\":\"post_tool_use\",\"tool_name\":\"write\",\"payload\":{{\"session_id\":\"abc\",\"cwd\":\"{root}\",\"tool_name\":\"Write\",\"tool_input\":{{\"file_path\":\"{root}/src/main.rs\",\"content\":\"fn main() {{}}\\n\"}},\"tool_use_id\":\"toolu_1\"}},\"timestamp\":\"2026-11-21T10:00:00.123Z\",\"pid\":4242}}\n",
        root = root.display()
    );
    env.send_raw(line.as_bytes());
    // And the real script, through jq and socat.
    let payload = tool_payload(
        "PostToolUse",
        "Edit",
        &root,
        "toolu_2",
        json!({"file_path": root.join("b.txt"), "old_string": "a", "new_string": "b\n"}),
    );
    let out = env.bash_emit(&["post_tool_use", "edit"], &payload, &root);
    assert!(out.status.success());
    wait_for_count(&repo, "mutations", 2);

    let rows = env.query_json(&[], &root);
    assert_eq!(rows.len(), 2);
    let first = &rows[0];
    assert_eq!(first["event_type"], "tool.mutation.write");
    assert_eq!(first["hook_type"], "post_tool_use");
    assert_eq!(first["tool_name"], "Write");
    assert_eq!(first["file_path"], "src/main.rs");
    assert_eq!(first["lines_changed"], 1);
    assert_eq!(first["agent_id"], "abc");
    // An envelope that names no agent is Claude Code's.
    assert_eq!(first["agent_kind"], "claude");
    assert_eq!(first["source_pid"], 4242);
    assert_eq!(first["event_timestamp"], "2026-11-21T10:00:00.123Z");
    assert_eq!(first["branch"], "main");
    assert_eq!(first["head_sha"], repo.head_sha());
    let second = &rows[1];
    assert_eq!(second["tool_name"], "Edit");
    assert_eq!(second["file_path"], "b.txt");
    assert_eq!(second["tool_use_id"], "toolu_2");
}

#[test]
fn write_edit_multiedit_and_notebookedit_are_recorded_end_to_end() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let _daemon = env.start_daemon();
    let root = repo.root();
    let src = root.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let cases: [(&str, Value, i64); 4] = [
        (
            "Write",
            json!({"file_path": src.join("lib.rs"), "content": "a\nb\nc\n"}),
            3,
        ),
        (
            "Edit",
            json!({"file_path": src.join("lib.rs"), "old_string": "a", "new_string": "x\ny\n", "replace_all": false}),
            2,
        ),
        (
            "MultiEdit",
            json!({"file_path": root.join("README.md"), "edits": [{"old_string": "h", "new_string": "H\n"}, {"old_string": "o", "new_string": "O\n\n"}]}),
            3,
        ),
        (
            "NotebookEdit",
            json!({"notebook_path": root.join("nb/analysis.ipynb"), "new_source": "print(1)\n", "edit_mode": "replace"}),
            1,
        ),
    ];
    // A pre_tool_use is an event, not a mutation: nothing has changed yet.
    let pre = tool_payload(
        "PreToolUse",
        "Write",
        &root,
        "toolu_pre",
        cases[0].1.clone(),
    );
    emit_ok(&env, &["pre_tool_use"], &pre, &root);
    for (i, (tool, input, _)) in cases.iter().enumerate() {
        let payload = tool_payload(
            "PostToolUse",
            tool,
            &root,
            &format!("toolu_{i}"),
            input.clone(),
        );
        // No tool argument: hookd-emit takes it from the payload (matcher "*").
        emit_ok(&env, &["PostToolUse"], &payload, &root);
    }
    wait_for_count(&repo, "mutations", 4);
    wait_for_count(&repo, "events", 5);

    // `--repo .` from a subdirectory finds the repository.
    let rows = env.query_json(&["--repo", "."], &src);
    let got: Vec<(String, String, String, i64)> = rows
        .iter()
        .map(|r| {
            (
                r["tool_name"].as_str().unwrap().to_owned(),
                r["event_type"].as_str().unwrap().to_owned(),
                r["file_path"].as_str().unwrap().to_owned(),
                r["lines_changed"].as_i64().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, String, String, i64)> = [
        ("Write", "tool.mutation.write", "src/lib.rs", 3),
        ("Edit", "tool.mutation.edit", "src/lib.rs", 2),
        ("MultiEdit", "tool.mutation.multiedit", "README.md", 3),
        (
            "NotebookEdit",
            "tool.mutation.notebookedit",
            "nb/analysis.ipynb",
            1,
        ),
    ]
    .iter()
    .map(|(a, b, c, d)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned(), *d))
    .collect();
    assert_eq!(got, expected);
    // Lines added and removed, by the diff rule (a Write against nothing).
    let counts: Vec<(i64, i64)> = rows
        .iter()
        .map(|r| {
            (
                r["lines_added"].as_i64().unwrap(),
                r["lines_removed"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(counts, [(3, 0), (2, 1), (3, 2), (1, 0)]);
    for row in &rows {
        assert_eq!(row["hook_type"], "post_tool_use");
        assert_eq!(row["agent_id"], "session-1");
        assert_eq!(row["session_id"], "session-1");
        assert_eq!(row["branch"], "main");
        let raw: Value = serde_json::from_str(row["raw_payload"].as_str().unwrap()).unwrap();
        assert_eq!(raw["tool_name"], row["tool_name"]);
    }
    assert_eq!(rows[3]["file_ext"], "ipynb");

    // --file relative to the current directory inside the repository.
    let lib_rows = env.query_json(&["--file", "lib.rs"], &src);
    assert_eq!(lib_rows.len(), 2);
    assert!(lib_rows.iter().all(|r| r["file_path"] == "src/lib.rs"));
    // --file with the absolute path the payload carried.
    let abs = src.join("lib.rs");
    assert_eq!(
        env.query_json(&["--file", abs.to_str().unwrap()], &root)
            .len(),
        2
    );
}

#[test]
fn a_bash_command_that_writes_two_files_is_recorded_as_two_mutations() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    // Dirty before the command and untouched by it: must not be reported.
    std::fs::write(root.join("scratch.txt"), "untracked, left alone\n").unwrap();
    let _daemon = env.start_daemon();
    let command = "mkdir -p out && echo one > out/one.txt && echo two >> README.md && echo unrelated > /dev/null";
    let input = json!({"command": command, "description": "write two files"});
    emit_ok(
        &env,
        &["PreToolUse"],
        &tool_payload("PreToolUse", "Bash", &root, "toolu_bash", input.clone()),
        &root,
    );
    // No waiting here on purpose: the agent runs the command as soon as its
    // PreToolUse hook returns, and hookd-emit returns only once the daemon has
    // recorded the repository's state.
    hookd_testkit::sh(&root, command);
    let mut post: Value = serde_json::from_str(&tool_payload(
        "PostToolUse",
        "Bash",
        &root,
        "toolu_bash",
        input,
    ))
    .unwrap();
    post["tool_response"] = json!({"stdout": "", "stderr": "", "interrupted": false});
    emit_ok(&env, &["PostToolUse"], &post.to_string(), &root);
    wait_for_count(&repo, "events", 2);
    wait_for_count(&repo, "mutations", 2);

    let rows = env.query_json(&["--tool", "bash"], &root);
    let files: Vec<&str> = rows
        .iter()
        .map(|r| r["file_path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["README.md", "out/one.txt"]);
    for (seq, row) in rows.iter().enumerate() {
        assert_eq!(row["tool_name"], "Bash");
        assert_eq!(row["event_type"], "tool.mutation.bash");
        assert_eq!(row["command"], command);
        assert_eq!(row["tool_use_id"], "toolu_bash");
        assert_eq!(row["mutation_seq"], seq);
        assert_eq!(row["lines_changed"], Value::Null);
        // Counted from the contents kept before and after the command:
        // one line appended to README.md, one line in the new file.
        assert_eq!(
            (&row["lines_added"], &row["lines_removed"]),
            (&json!(1), &json!(0)),
            "{row}"
        );
    }
    assert_eq!(rows[1]["file_ext"], "txt");
}

#[test]
fn each_repository_has_its_own_ledger() {
    let env = TestEnv::new();
    let (alpha, beta) = (GitRepo::new(), GitRepo::new());
    let _daemon = env.start_daemon();
    for (repo, count) in [(&alpha, 3), (&beta, 2)] {
        let root = repo.root();
        for i in 0..count {
            let input = json!({"file_path": root.join(format!("f{i}.rs")), "content": "x\n"});
            emit_ok(
                &env,
                &["post_tool_use"],
                &tool_payload("PostToolUse", "Write", &root, &format!("t{i}"), input),
                &root,
            );
        }
    }
    wait_for_count(&alpha, "mutations", 3);
    wait_for_count(&beta, "mutations", 2);
    // Nothing leaked across.
    assert_eq!(alpha.count("mutations"), 3);
    assert_eq!(beta.count("mutations"), 2);
    let alpha_rows = env.query_json(&[], &alpha.root());
    let beta_rows = env.query_json(&[], &beta.root());
    assert_eq!(alpha_rows.len(), 3);
    assert_eq!(beta_rows.len(), 2);
    let ignore = std::fs::read_to_string(alpha.root().join(".hookd/.gitignore")).unwrap();
    assert!(
        ignore.lines().any(|l| l.trim() == "*"),
        "ledger dir must be git-ignored"
    );

    // --all merges every registered repository and names each row's repository.
    let all = env.query_json(&["--all"], env.dir.path());
    assert_eq!(all.len(), 5);
    let from_alpha = all
        .iter()
        .filter(|r| r["repo"] == alpha.root().to_str().unwrap())
        .count();
    assert_eq!(from_alpha, 3);
}

#[test]
fn events_outside_git_go_to_the_data_dir_not_the_directory() {
    let env = TestEnv::new();
    let _daemon = env.start_daemon();
    let plain = tempfile::tempdir().unwrap();
    let cwd = plain.path();
    let input = json!({"file_path": cwd.join("notes.txt"), "content": "n\n"});
    emit_ok(
        &env,
        &["post_tool_use"],
        &tool_payload("PostToolUse", "Write", cwd, "t", input),
        cwd,
    );
    let ledger = env.data_dir().join("outside-git/mutations.db");
    wait_until(
        std::time::Duration::from_secs(10),
        "the outside-git ledger to be created",
        || ledger.exists(),
    );
    assert!(
        !cwd.join(".hookd").exists(),
        "nothing may be written into a non-repository directory"
    );
    let mut rows = Vec::new();
    wait_until(
        std::time::Duration::from_secs(10),
        "the row to be visible in --all",
        || {
            rows = env.query_json(&["--all"], cwd);
            !rows.is_empty()
        },
    );
    assert_eq!(rows[0]["repo"], "(outside git)");
    assert_eq!(
        rows[0]["file_path"],
        cwd.join("notes.txt").to_str().unwrap()
    );
    assert_eq!(rows[0]["branch"], "");
}

/// `hookd-emit --agent NAME` names the agent whose hook called it, and the
/// ledger keeps it with the event and its change; a name hookd does not
/// know records nothing (and still exits 0, as a recorder must).
#[test]
fn the_agent_named_by_hookd_emit_is_kept_with_each_row() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let _daemon = env.start_daemon();
    let root = repo.root();
    let session = |event: &str, agent: &str| {
        json!({"session_id": format!("s-{agent}"), "cwd": root, "hook_event_name": event})
            .to_string()
    };
    emit_ok(
        &env,
        &["--agent", "gemini", "SessionStart"],
        &session("SessionStart", "gemini"),
        &root,
    );
    emit_ok(
        &env,
        &["--agent=codex", "UserPromptSubmit"],
        &session("UserPromptSubmit", "codex"),
        &root,
    );
    let write = tool_payload(
        "PostToolUse",
        "Write",
        &root,
        "toolu_1",
        json!({"file_path": root.join("a.txt"), "content": "a\n"}),
    );
    // (Not Cursor: its edits are recorded from afterFileEdit, not its Write tool.)
    emit_ok(&env, &["--agent", "gemini", "PostToolUse"], &write, &root);
    emit_ok(
        &env,
        &["PostToolUse"],
        &write.replace("toolu_1", "toolu_2"),
        &root,
    );
    // Refused: nothing recorded, exit 0, the reason on stderr.
    let refused = env.emit(
        &["--agent", "windsurf", "SessionStart"],
        &session("SessionStart", "w"),
        &root,
    );
    assert!(refused.status.success(), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("--agent takes one of claude, codex, gemini, cursor, copilot"),
        "{refused:?}"
    );
    wait_for_count(&repo, "events", 4);
    wait_for_count(&repo, "mutations", 2);

    let kinds: Vec<(String, String)> = repo
        .ledger()
        .prepare("SELECT hook_type, agent_kind FROM events ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let kinds: Vec<(&str, &str)> = kinds
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("session_start", "gemini"),
            ("user_prompt_submit", "codex"),
            ("post_tool_use", "gemini"),
            ("post_tool_use", "claude"),
        ]
    );
    let rows = env.query_json(&[], &root);
    let changes: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["tool_use_id"].as_str().unwrap(),
                r["agent_kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(changes, [("toolu_1", "gemini"), ("toolu_2", "claude")]);
}

/// A Codex CLI patch (`apply_patch`, several files in one call) is recorded
/// as one change per file it names, found as a shell command's are (the
/// repository before and after), with the lines each gained and lost; a
/// file another process changed meanwhile is not put down to the agent.
#[test]
fn a_codex_patch_is_recorded_as_one_change_per_file_it_names() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    hookd_testkit::sh(
        &root,
        "printf 'old\\nkept\\n' > b.txt && printf 'gone\\n' > c.txt && git add b.txt c.txt && git commit -qm files",
    );
    let _daemon = env.start_daemon();
    let patch = "*** Begin Patch\n*** Add File: a.txt\n+one\n*** Update File: b.txt\n@@\n-old\n+new\n kept\n*** Delete File: c.txt\n*** End Patch\n";
    let payload = |event: &str| {
        json!({
            "session_id": "019d036d-c7fa-72d2-b6fd-78878bfe34e4",
            "turn_id": "019d036e-3164-72c3-a170-98925564c4fc",
            "cwd": root,
            "hook_event_name": event,
            "model": "gpt-5-codex",
            "permission_mode": "default",
            "tool_name": "apply_patch",
            "tool_input": {"command": patch},
            "tool_use_id": "call_abc123",
        })
    };
    emit_ok(
        &env,
        &["--agent", "codex", "PreToolUse"],
        &payload("PreToolUse").to_string(),
        &root,
    );
    // What Codex does with the patch, and a change by someone else.
    hookd_testkit::sh(
        &root,
        "printf 'one\\n' > a.txt && printf 'new\\nkept\\n' > b.txt && rm c.txt && echo more >> README.md",
    );
    let mut post = payload("PostToolUse");
    post["tool_response"] =
        json!({"output": "Success. Updated the following files:\nA a.txt\nM b.txt\nD c.txt\n"});
    emit_ok(
        &env,
        &["--agent", "codex", "PostToolUse"],
        &post.to_string(),
        &root,
    );
    wait_for_count(&repo, "events", 2);
    wait_for_count(&repo, "mutations", 3);

    let rows = env.query_json(&[], &root);
    assert_eq!(
        changes(&rows),
        [
            ("a.txt", "apply_patch", 1, 0, "codex"),
            ("b.txt", "apply_patch", 1, 1, "codex"),
            ("c.txt", "apply_patch", 0, 1, "codex"),
        ],
        "README.md changed, but not by the patch"
    );
    assert!(rows.iter().all(|r| r["tool_use_id"] == "call_abc123"));
}

/// Gemini CLI's tool events are recorded as the Claude Code ones they are
/// (`BeforeTool`/`AfterTool` of `replace`, `run_shell_command`,
/// `write_file`: Edit, Bash, Write), though Gemini gives no tool call id:
/// each change is found, counted and its contents kept, as Claude Code's.
#[test]
fn gemini_edits_commands_and_writes_are_recorded_as_claude_codes() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    hookd_testkit::sh(
        &root,
        "printf 'old\\nkept\\n' > b.txt && git add b.txt && git commit -qm b",
    );
    let _daemon = env.start_daemon();
    let call = |event: &str, tool: &str, input: Value| {
        let mut payload = json!({
            "session_id": "7f1c2d3e",
            "transcript_path": "/home/me/.gemini/tmp/x/chats/session-1.json",
            "cwd": root,
            "hook_event_name": event,
            "timestamp": "2026-11-28T17:40:00.000Z",
            "tool_name": tool,
            "tool_input": input,
        });
        if event == "AfterTool" {
            payload["tool_response"] = json!({"llmContent": "ok", "returnDisplay": "ok"});
        }
        emit_ok(
            &env,
            &["--agent", "gemini", event],
            &payload.to_string(),
            &root,
        );
    };
    let replace = json!({"file_path": root.join("b.txt"), "instruction": "rename",
        "old_string": "old", "new_string": "new"});
    call("BeforeTool", "replace", replace.clone());
    std::fs::write(root.join("b.txt"), "new\nkept\n").unwrap();
    call("AfterTool", "replace", replace);
    let shell = json!({"command": "echo hi > out.txt", "description": "write"});
    call("BeforeTool", "run_shell_command", shell.clone());
    hookd_testkit::sh(&root, "echo hi > out.txt");
    // No waiting: the agent's next call starts as soon as hookd-emit
    // returns, and what it writes is not the command's.
    call("AfterTool", "run_shell_command", shell);
    let write = json!({"file_path": root.join("w.txt"), "content": "a\nb\n"});
    call("BeforeTool", "write_file", write.clone());
    std::fs::write(root.join("w.txt"), "a\nb\n").unwrap();
    call("AfterTool", "write_file", write);
    wait_for_count(&repo, "events", 6);
    wait_for_count(&repo, "mutations", 3);

    let rows = env.query_json(&[], &root);
    assert_eq!(
        changes(&rows),
        [
            ("b.txt", "Edit", 1, 1, "gemini"),
            ("out.txt", "Bash", 1, 0, "gemini"),
            ("w.txt", "Write", 2, 0, "gemini"),
        ]
    );
    assert!(
        rows.iter().all(|r| r["hook_type"] == "post_tool_use"),
        "{rows:?}"
    );
    // The contents around each change are kept (what a rewind gives back):
    // paired by the call, though Gemini names none.
    let states: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["before"]["state"].as_str().unwrap(),
                r["after"]["state"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        states,
        [("kept", "kept"), ("absent", "kept"), ("absent", "kept")]
    );
}

/// Cursor's tool events are Claude Code's in camel case; its shell tool is
/// `Shell` (`{command, working_directory}`) and its session the
/// `conversation_id`: a command's changes are found as a Bash command's.
#[test]
fn a_cursor_shell_command_is_recorded_like_a_bash_command() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();
    let call = |event: &str| {
        let mut payload = json!({
            "conversation_id": "c-42", "generation_id": "g-1", "model": "x",
            "hook_event_name": event, "cursor_version": "2.0", "workspace_roots": [root],
            "tool_name": "Shell",
            "tool_input": {"command": "echo hi > out.txt", "working_directory": root},
            "tool_use_id": "tool_1", "cwd": root,
        });
        if event == "postToolUse" {
            payload["tool_output"] = json!("{\"exitCode\":0}");
        }
        emit_ok(
            &env,
            &["--agent", "cursor", event],
            &payload.to_string(),
            &root,
        );
    };
    call("preToolUse");
    hookd_testkit::sh(&root, "echo hi > out.txt");
    call("postToolUse");
    // The agent's next edit, before the daemon stores the command: not its.
    std::fs::write(root.join("next.txt"), "next\n").unwrap();
    wait_for_count(&repo, "mutations", 1);

    let rows = env.query_json(&[], &root);
    assert_eq!(rows.len(), 1, "{rows:?}");
    let row = &rows[0];
    assert_eq!(
        (
            &row["file_path"],
            &row["tool_name"],
            &row["session_id"],
            &row["agent_kind"]
        ),
        (
            &json!("out.txt"),
            &json!("Bash"),
            &json!("c-42"),
            &json!("cursor")
        )
    );
    assert_eq!(row["lines_added"], 1);
}

/// Cursor's `afterFileEdit` (the file and its `edits`, no tool call) is an
/// edit made: through the real `hookd-emit --agent cursor afterFileEdit` it
/// is recorded as a change of the file with its lines added and removed,
/// the conversation as its session.
#[test]
fn a_cursor_file_edit_is_recorded_as_a_change_of_its_file() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    hookd_testkit::sh(
        &root,
        "mkdir -p src && printf 'fn a() {}\\nfn b() {}\\n' > src/lib.rs && git add . && git commit -qm lib",
    );
    let _daemon = env.start_daemon();
    std::fs::write(root.join("src/lib.rs"), "fn a() {}\nfn c() {}\nfn d() {}\n").unwrap();
    let payload = json!({
        "conversation_id": "c-7", "generation_id": "g-2", "model": "x",
        "hook_event_name": "afterFileEdit", "cursor_version": "2.0",
        "workspace_roots": [root], "user_email": null, "transcript_path": null,
        "file_path": root.join("src/lib.rs"),
        "edits": [{"old_string": "fn b() {}\n", "new_string": "fn c() {}\nfn d() {}\n"}],
    });
    emit_ok(
        &env,
        &["--agent", "cursor", "afterFileEdit"],
        &payload.to_string(),
        &root,
    );
    wait_for_count(&repo, "mutations", 1);

    let rows = env.query_json(&[], &root);
    assert_eq!(
        changes(&rows),
        [("src/lib.rs", "MultiEdit", 2, 1, "cursor")],
        "{rows:?}"
    );
    assert_eq!(rows[0]["session_id"], "c-7");
    assert_eq!(rows[0]["hook_type"], "post_tool_use");
}

/// Sends one GitHub Copilot camelCase tool event through the real
/// `hookd-emit --agent copilot`: `{sessionId, timestamp, cwd, toolName,
/// toolArgs}`, `toolArgs` JSON-encoded as a string (as GitHub's examples
/// show it) or as an object, and on `postToolUse` its `toolResult`.
fn copilot_call(
    env: &TestEnv,
    root: &Path,
    event: &str,
    tool: &str,
    args: &Value,
    as_string: bool,
) {
    let mut payload = json!({
        "sessionId": "copilot-s1", "timestamp": 1_704_614_600_000_i64, "cwd": root,
        "toolName": tool,
        "toolArgs": if as_string { json!(args.to_string()) } else { args.clone() },
    });
    if event == "postToolUse" {
        payload["toolResult"] = json!({"resultType": "success", "textResultForLlm": "done"});
    }
    emit_ok(
        env,
        &["--agent", "copilot", event],
        &payload.to_string(),
        root,
    );
}

/// Copilot's `bash` tool (`toolArgs: {command, description}`) is recorded
/// like Claude Code's Bash: its preToolUse and postToolUse pair (by its
/// session, tool and arguments: Copilot names no call) around the
/// repository's state, and each file the command wrote is a change with
/// its lines, the session Copilot's `sessionId`.
#[test]
fn a_copilot_bash_command_writing_two_files_is_recorded_like_a_bash_command() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();
    let command = "mkdir -p out && echo one > out/one.txt && echo two >> README.md";
    let args = json!({"command": command, "description": "write two files"});
    copilot_call(&env, &root, "preToolUse", "bash", &args, true);
    // No waiting: Copilot runs the command as soon as its hook returns.
    hookd_testkit::sh(&root, command);
    copilot_call(&env, &root, "postToolUse", "bash", &args, true);
    // The agent's next change, before the daemon stores the command: not its.
    std::fs::write(root.join("next.txt"), "next\n").unwrap();
    wait_for_count(&repo, "events", 2);
    wait_for_count(&repo, "mutations", 2);

    let rows = env.query_json(&[], &root);
    assert_eq!(
        changes(&rows),
        [
            ("README.md", "Bash", 1, 0, "copilot"),
            ("out/one.txt", "Bash", 1, 0, "copilot"),
        ],
        "{rows:?}"
    );
    for row in &rows {
        assert_eq!(row["session_id"], "copilot-s1", "{row}");
        assert_eq!(row["command"], command, "{row}");
        assert_eq!(row["hook_type"], "post_tool_use", "{row}");
        assert_eq!(row["event_type"], "tool.mutation.bash", "{row}");
    }
}

/// Copilot's `edit` of a file is one Edit of `toolArgs.path`, its lines
/// added and removed counted from the file as the daemon read it before
/// and after the call (the other argument names are not documented), with
/// `toolArgs` sent as a string or as an object.
#[test]
fn a_copilot_edit_is_recorded_as_an_edit_of_its_file() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    hookd_testkit::sh(
        &root,
        "mkdir -p src && printf 'fn a() {}\\nfn b() {}\\n' > src/lib.rs && printf 'x\\ny\\n' > src/two.rs && git add . && git commit -qm lib",
    );
    let _daemon = env.start_daemon();
    for (file, as_string, new_text) in [
        ("src/lib.rs", true, "fn a() {}\nfn c() {}\nfn d() {}\n"),
        ("src/two.rs", false, "x\n"),
    ] {
        let path = root.join(file);
        let args = json!({"path": path, "old_str": "whatever", "new_str": "the agent says"});
        copilot_call(&env, &root, "preToolUse", "edit", &args, as_string);
        std::fs::write(&path, new_text).unwrap();
        copilot_call(&env, &root, "postToolUse", "edit", &args, as_string);
    }
    wait_for_count(&repo, "events", 4);
    wait_for_count(&repo, "mutations", 2);

    let rows = env.query_json(&[], &root);
    assert_eq!(
        changes(&rows),
        [
            ("src/lib.rs", "Edit", 2, 1, "copilot"),
            ("src/two.rs", "Edit", 0, 1, "copilot"),
        ],
        "{rows:?}"
    );
    for row in &rows {
        assert_eq!(row["session_id"], "copilot-s1", "{row}");
        assert_eq!(
            (
                row["before"]["state"].as_str(),
                row["after"]["state"].as_str()
            ),
            (Some("kept"), Some("kept")),
            "{row}"
        );
    }
}

/// Copilot's `create` is a Write of `toolArgs.path`: a new file, every
/// line added, whichever form `toolArgs` comes in.
#[test]
fn a_copilot_create_is_recorded_as_a_write_of_its_file() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();
    for (file, as_string) in [("new.txt", true), ("docs/other.md", false)] {
        let path = root.join(file);
        let args = json!({"path": path, "file_text": "a\nb\nc\n"});
        copilot_call(&env, &root, "preToolUse", "create", &args, as_string);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "a\nb\nc\n").unwrap();
        copilot_call(&env, &root, "postToolUse", "create", &args, as_string);
    }
    wait_for_count(&repo, "events", 4);
    wait_for_count(&repo, "mutations", 2);

    let rows = env.query_json(&[], &root);
    assert_eq!(
        changes(&rows),
        [
            ("new.txt", "Write", 3, 0, "copilot"),
            ("docs/other.md", "Write", 3, 0, "copilot"),
        ],
        "{rows:?}"
    );
    for row in &rows {
        assert_eq!(row["session_id"], "copilot-s1", "{row}");
        assert_eq!(row["event_type"], "tool.mutation.write", "{row}");
        assert_eq!(
            (
                row["before"]["state"].as_str(),
                row["after"]["state"].as_str()
            ),
            (Some("absent"), Some("kept")),
            "{row}"
        );
    }
}

/// GitHub Copilot's prompt and turn end are the ledger's prompt and stop:
/// `userPromptSubmitted` is stored as `user_prompt_submit`, `agentStop` as
/// `stop` (so a Copilot prompt groups its changes as Claude Code's does).
#[test]
fn copilots_prompt_and_turn_end_are_stored_as_claudes() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();
    let prompt = json!({"sessionId": "p-1", "timestamp": 1_704_614_600_000_u64, "cwd": root,
        "prompt": "fix the cart"});
    emit_ok(
        &env,
        &["--agent", "copilot", "userPromptSubmitted"],
        &prompt.to_string(),
        &root,
    );
    let stop = json!({"sessionId": "p-1", "timestamp": 1_704_614_700_000_u64, "cwd": root,
        "stopReason": "end_turn"});
    emit_ok(
        &env,
        &["--agent", "copilot", "agentStop"],
        &stop.to_string(),
        &root,
    );
    wait_for_count(&repo, "events", 2);
    let types: Vec<String> = repo
        .ledger()
        .prepare("SELECT hook_type FROM events ORDER BY event_id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(types, ["user_prompt_submit", "stop"]);
}
