//! `hookd query` against real ledgers written by a real daemon: time windows,
//! filters, formats and the errors a user sees.

use chrono::{Duration as ChronoDuration, SecondsFormat, Utc};
use hookd_testkit::{GitRepo, TestEnv, envelope_line, tool_payload, wait_for_count};
use serde_json::json;

fn raw_line(
    root: &std::path::Path,
    file: &str,
    timestamp: &str,
    agent: &str,
    tool: &str,
) -> String {
    let payload = json!({
        "session_id": agent,
        "cwd": root,
        "tool_name": tool,
        "tool_input": {"file_path": root.join(file), "content": "x\n"},
        "tool_use_id": format!("{file}-{timestamp}"),
    });
    envelope_line(
        "post_tool_use",
        Some(&tool.to_lowercase()),
        payload,
        timestamp,
        1,
    )
}

fn hours_ago(hours: i64) -> String {
    (Utc::now() - ChronoDuration::hours(hours)).to_rfc3339_opts(SecondsFormat::Millis, true)
}

#[test]
fn since_one_hour_returns_the_five_recent_mutations_in_order() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();
    // Three old ones, sent after the recent ones on purpose: order comes from the timestamp.
    for (i, hours) in [(0, 3), (1, 5), (2, 2)] {
        env.send_raw(
            raw_line(
                &root,
                &format!("old{i}.rs"),
                &hours_ago(hours),
                "old-agent",
                "Write",
            )
            .as_bytes(),
        );
    }
    for i in 0..5 {
        let input = json!({"file_path": root.join(format!("recent{i}.rs")), "content": "a\n"});
        let out = env.emit(
            &["post_tool_use"],
            &tool_payload("PostToolUse", "Write", &root, &format!("r{i}"), input),
            &root,
        );
        assert!(out.status.success());
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    wait_for_count(&repo, "mutations", 8);

    let rows = env.query_json(&["--since", "1h"], &root);
    let files: Vec<&str> = rows
        .iter()
        .map(|r| r["file_path"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            "recent0.rs",
            "recent1.rs",
            "recent2.rs",
            "recent3.rs",
            "recent4.rs"
        ]
    );
    let stamps: Vec<&str> = rows
        .iter()
        .map(|r| r["event_timestamp"].as_str().unwrap())
        .collect();
    let mut sorted = stamps.clone();
    sorted.sort_unstable();
    assert_eq!(stamps, sorted, "chronological order");

    let old = env.query_json(&["--until", "1h"], &root);
    let old_files: Vec<&str> = old
        .iter()
        .map(|r| r["file_path"].as_str().unwrap())
        .collect();
    assert_eq!(old_files, ["old1.rs", "old0.rs", "old2.rs"]);
    let absolute_since = hours_ago(4);
    assert_eq!(
        env.query_json(&["--since", &absolute_since, "--until", "90m"], &root)
            .len(),
        2
    );
}

#[test]
fn filters_limit_and_formats() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();
    let lines = [
        raw_line(&root, "a.rs", &hours_ago(5), "alice", "Write"),
        raw_line(&root, "b.rs", &hours_ago(4), "bob", "Edit"),
        raw_line(&root, "a.rs", &hours_ago(3), "bob", "Write"),
        raw_line(&root, "c.py", &hours_ago(2), "alice", "Edit"),
    ];
    env.send_raw(lines.concat().as_bytes());
    wait_for_count(&repo, "mutations", 4);

    let files = |args: &[&str]| -> Vec<String> {
        env.query_json(args, &root)
            .iter()
            .map(|r| r["file_path"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(files(&["--agent", "bob"]), ["b.rs", "a.rs"]);
    assert_eq!(files(&["--tool", "edit"]), ["b.rs", "c.py"]);
    assert_eq!(files(&["--tool", "Write", "--agent", "alice"]), ["a.rs"]);
    assert_eq!(files(&["--branch", "main"]).len(), 4);
    assert!(files(&["--branch", "nope"]).is_empty());
    assert_eq!(
        files(&["--limit", "2"]),
        ["a.rs", "c.py"],
        "newest two, oldest first"
    );

    let jsonl = env.query(&["--format", "jsonl", "--file", "a.rs"], &root);
    assert!(jsonl.status.success());
    let text = String::from_utf8(jsonl.stdout).unwrap();
    let parsed: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(parsed.len(), 2);
    assert!(parsed.iter().all(|r| r["file_path"] == "a.rs"));

    let table = env.query(&[], &root);
    assert!(table.status.success());
    let text = String::from_utf8(table.stdout).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    for column in ["TIME", "AGENT", "TOOL", "FILE", "LINES", "BRANCH"] {
        assert!(header.contains(column), "{header}");
    }
    let body: Vec<&str> = lines.collect();
    assert_eq!(body.len(), 4);
    assert!(
        body[3].contains("c.py") && body[3].contains("Edit") && body[3].contains("alice"),
        "{}",
        body[3]
    );
}

#[test]
fn missing_repositories_and_ledgers_are_clear_errors() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let plain = tempfile::tempdir().unwrap();

    let no_ledger = env.query(&["--repo", repo.root().to_str().unwrap()], plain.path());
    assert!(!no_ledger.status.success());
    let msg = String::from_utf8_lossy(&no_ledger.stderr);
    assert!(
        msg.contains("no ledger") && msg.contains("mutations.db"),
        "{msg}"
    );

    let missing = env.query(&["--repo", "/no/such/dir"], plain.path());
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("does not exist"));

    let not_repo = env.query(&["--repo", "."], plain.path());
    assert!(!not_repo.status.success());
    assert!(String::from_utf8_lossy(&not_repo.stderr).contains("not inside a git repository"));

    let bad_time = env.query(&["--since", "yesterday-ish"], &repo.root());
    assert!(!bad_time.status.success());
    assert!(String::from_utf8_lossy(&bad_time.stderr).contains("yesterday-ish"));
}

#[test]
fn session_and_event_type_filters() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();
    // One agent, two sessions: the session is the payload's session_id.
    for (i, session) in ["s-one", "s-two", "s-one"].iter().enumerate() {
        let mut payload: serde_json::Value = serde_json::from_str(&tool_payload(
            "PostToolUse",
            "Write",
            &root,
            &format!("w{i}"),
            json!({"file_path": root.join(format!("w{i}.rs")), "content": "x\n"}),
        ))
        .unwrap();
        payload["session_id"] = json!(session);
        payload["agent_id"] = json!("agent-1");
        let out = env.emit(&["post_tool_use"], &payload.to_string(), &root);
        assert!(out.status.success(), "{out:?}");
    }
    // A Bash command that fails after writing a file: its change is
    // revealed by a PostToolUseFailure event.
    let input = json!({"command": "echo x > failed.txt; exit 1"});
    let pre = tool_payload("PreToolUse", "Bash", &root, "toolu_fail", input.clone());
    assert!(env.emit(&["pre_tool_use"], &pre, &root).status.success());
    std::fs::write(root.join("failed.txt"), "x\n").unwrap();
    let mut post: serde_json::Value = serde_json::from_str(&tool_payload(
        "PostToolUseFailure",
        "Bash",
        &root,
        "toolu_fail",
        input,
    ))
    .unwrap();
    post["error"] = json!("exit status 1");
    assert!(
        env.emit(&["post_tool_use_failure"], &post.to_string(), &root)
            .status
            .success()
    );
    wait_for_count(&repo, "mutations", 4);

    let files = |args: &[&str]| -> Vec<String> {
        env.query_json(args, &root)
            .iter()
            .map(|r| r["file_path"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(files(&["--session", "s-one"]), ["w0.rs", "w2.rs"]);
    assert_eq!(
        files(&["--session", "s-two", "--agent", "agent-1"]),
        ["w1.rs"]
    );
    assert!(files(&["--session", "s-three"]).is_empty());
    assert_eq!(
        files(&["--event-type", "PostToolUseFailure"]),
        ["failed.txt"]
    );
    assert_eq!(
        files(&["--event-type", "post_tool_use_failure"]),
        ["failed.txt"]
    );
    assert_eq!(files(&["--event-type", "PostToolUse"]).len(), 3);
    assert!(files(&["--event-type", "PreToolUse"]).is_empty());
    assert_eq!(
        files(&["--event-type", "PostToolUse", "--session", "s-two"]),
        ["w1.rs"]
    );

    let help = env.query(&["--help"], &root);
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(
        text.contains("--session <ID>") && text.contains("--event-type <TYPE>"),
        "{text}"
    );
}

/// Row ids of `hookd query --format json` output.
fn ids(rows: &[serde_json::Value]) -> Vec<i64> {
    rows.iter().map(|r| r["id"].as_i64().unwrap()).collect()
}

#[test]
fn pages_follow_one_another_with_the_cursor_each_page_prints() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();
    // 5,100 rows: more than one page of a streamed read (5,000), several
    // sharing a millisecond.
    let base = Utc::now() - ChronoDuration::hours(30);
    let lines: String = (0..5_100)
        .map(|i| {
            let at = (base + ChronoDuration::seconds(i / 3))
                .to_rfc3339_opts(SecondsFormat::Millis, true);
            raw_line(
                &root,
                &format!("f{}.rs", i % 7),
                &at,
                ["ann", "ben"][(i % 2) as usize],
                "Write",
            )
        })
        .collect();
    env.send_raw(lines.as_bytes());
    wait_for_count(&repo, "mutations", 5_100);

    // The whole history is streamed page after page: every row once, in order.
    let all = env.query_json(&[], &root);
    assert_eq!(all.len(), 5_100);
    let keys: Vec<(String, i64)> = all
        .iter()
        .map(|r| {
            (
                r["event_timestamp"].as_str().unwrap().to_owned(),
                r["id"].as_i64().unwrap(),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(keys, sorted, "oldest first, no row twice");
    assert!(
        all.iter()
            .all(|r| !r["raw_payload"].as_str().unwrap().is_empty()),
        "JSON carries the payload"
    );

    // Table pages end with the flag for the page before; following them
    // back reads the newest 2,500 rows, each once.
    let mut args: Vec<String> = vec![
        "--limit".into(),
        "800".into(),
        "--agent".into(),
        "ann".into(),
    ];
    let ann: Vec<i64> = ids(&env.query_json(&["--agent", "ann"], &root));
    let mut pages: Vec<Vec<i64>> = Vec::new();
    for _ in 0..3 {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = env.query(&refs, &root);
        assert!(out.status.success());
        let hint = String::from_utf8_lossy(&out.stderr).into_owned();
        let table_rows = String::from_utf8_lossy(&out.stdout).lines().count() - 1;
        assert_eq!(table_rows, 800);
        pages.push(ids(&env.query_json(&refs, &root)));
        let older = ann.len() - 800 * pages.len();
        assert!(
            hint.starts_with(&format!("{older} older: add --before '")),
            "{hint}"
        );
        let cursor = hint.split('\'').nth(1).unwrap().to_owned();
        args = vec![
            "--limit".into(),
            "800".into(),
            "--agent".into(),
            "ann".into(),
            "--before".into(),
            cursor,
        ];
    }
    let read: Vec<i64> = pages.into_iter().rev().flatten().collect();
    assert_eq!(
        read,
        ann[ann.len() - 2400..],
        "pages back to back, oldest first"
    );

    // --after a row and --before/--after a time.
    let cursor = format!("{},{}", keys[99].0, keys[99].1);
    let after = env.query_json(&["--after", &cursor, "--limit", "50"], &root);
    assert_eq!(ids(&after), ids(&all[100..150]));
    let middle = &keys[2_550].0;
    let before = env.query_json(&["--before", middle], &root);
    let at = keys.iter().position(|(t, _)| t == middle).unwrap();
    assert_eq!(ids(&before), ids(&all[..at]));
    let since = env.query_json(&["--after", middle, "--limit", "10"], &root);
    assert_eq!(ids(&since), ids(&all[at..at + 10]));

    // Full-text search: a word of the path.
    let found = env.query_json(&["--search", "f3"], &root);
    let expected: Vec<i64> = all
        .iter()
        .filter(|r| r["file_path"] == "f3.rs")
        .map(|r| r["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids(&found), expected);

    let bad = env.query(&["--before", "2026-01-01T00:00:00Z,x"], &root);
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("TIMESTAMP,ID"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}

#[test]
fn agents_are_listed_and_shown_by_a_readable_name_a_user_can_change() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();
    let session = "3f2a9c1d-aaaa-4aaa-8aaa-000000000001";
    let sub = "77b1e0c2-bbbb-4bbb-8bbb-000000000002";
    let payload = |agent: Option<(&str, &str)>, file: &str| {
        let mut p = json!({
            "session_id": session,
            "cwd": root,
            "tool_name": "Write",
            "tool_input": {"file_path": root.join(file), "content": "x\n"},
            "tool_use_id": file,
        });
        if let Some((id, kind)) = agent {
            p["agent_id"] = json!(id);
            p["agent_type"] = json!(kind);
        }
        envelope_line("post_tool_use", Some("write"), p, &hours_ago(1), 1)
    };
    env.send_raw(
        [
            payload(None, "a.rs"),
            payload(Some((sub, "Explore")), "b.rs"),
        ]
        .concat()
        .as_bytes(),
    );
    wait_for_count(&repo, "mutations", 2);

    let list = env
        .command("hookd")
        .args(["agents", "--json"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(
        list.status.success(),
        "{}",
        String::from_utf8_lossy(&list.stderr)
    );
    let agents: Vec<serde_json::Value> = serde_json::from_slice(&list.stdout).unwrap();
    let names: Vec<&str> = agents.iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["main 3f2a9c1d", "Explore 77b1e0c2"]);
    assert!(
        agents.iter().all(|a| a["agent_kind"] == "claude"),
        "{agents:?}"
    );
    // The table names the coding agent too.
    let listed = env
        .command("hookd")
        .args(["agents"])
        .current_dir(&root)
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    assert!(
        listed.starts_with("NAME")
            && listed.contains("CODING AGENT")
            && listed.contains("Claude Code"),
        "{listed}"
    );

    let table = env.query(&[], &root);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains("main 3f2a9c1d") && text.contains("Explore 77b1e0c2"),
        "{text}"
    );

    let label = env
        .command("hookd")
        .args(["agents", "label", sub, "cart fixer"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(
        label.status.success(),
        "{}",
        String::from_utf8_lossy(&label.stderr)
    );
    let text = String::from_utf8_lossy(&env.query(&[], &root).stdout).into_owned();
    assert!(
        text.contains("cart fixer") && !text.contains("Explore 77b1e0c2"),
        "{text}"
    );
    // JSON keeps the raw id: it is what scripts match on.
    let rows = env.query_json(&["--file", "b.rs"], &root);
    assert_eq!(rows[0]["agent_id"], sub);
}

/// `--agent-kind` keeps one coding agent's changes, as `hookd-emit --agent`
/// named it; a name hookd does not know is refused with the choices.
#[test]
fn the_coding_agent_filter_keeps_one_agents_changes() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();
    for (i, agent) in ["claude", "codex", "claude"].iter().enumerate() {
        let mut payload: serde_json::Value = serde_json::from_str(&tool_payload(
            "PostToolUse",
            "Write",
            &root,
            &format!("k{i}"),
            json!({"file_path": root.join(format!("{agent}{i}.rs")), "content": "x\n"}),
        ))
        .unwrap();
        payload["session_id"] = json!(format!("session-{agent}"));
        let out = env.emit(
            &["--agent", agent, "PostToolUse"],
            &payload.to_string(),
            &root,
        );
        assert!(out.status.success(), "{out:?}");
    }
    wait_for_count(&repo, "mutations", 3);
    let files = |args: &[&str]| -> Vec<String> {
        env.query_json(args, &root)
            .iter()
            .map(|r| r["file_path"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(files(&["--agent-kind", "codex"]), ["codex1.rs"]);
    assert_eq!(
        files(&["--agent-kind", "claude"]),
        ["claude0.rs", "claude2.rs"]
    );
    assert!(files(&["--agent-kind", "gemini"]).is_empty());
    let refused = env.query(&["--agent-kind", "vim"], &root);
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("claude") && said.contains("copilot"),
        "{said}"
    );
}
