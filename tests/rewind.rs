//! Rewind, end to end through the real binaries in real git repositories:
//! what a change held before and after is kept by the daemon as the hook
//! calls arrive (hookd-emit → daemon → content store and ledger).

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use hookd_testkit::{ChildProcess, GitRepo, TestEnv, sh, tool_payload, wait_for_count};
use serde_json::{Value, json};

fn emit_ok(env: &TestEnv, hook: &str, tool: &str, root: &Path, call: &str, input: &Value) {
    let out = env.emit(
        &[hook],
        &tool_payload(hook, tool, root, call, input.clone()),
        root,
    );
    assert!(out.status.success(), "hookd-emit failed: {out:?}");
}

/// One file tool call as an agent makes it: the PreToolUse hook, the write
/// (right away: the agent runs the tool as soon as the hook returns), the
/// PostToolUse hook.
fn tool_call(env: &TestEnv, root: &Path, tool: &str, call: &str, file: &str, content: &str) {
    let path = root.join(file);
    let input = json!({"file_path": path, "content": content});
    emit_ok(env, "PreToolUse", tool, root, call, &input);
    std::fs::write(&path, content).unwrap();
    emit_ok(env, "PostToolUse", tool, root, call, &input);
}

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn a_file_tools_before_and_after_are_kept_privately_and_once() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    std::fs::write(root.join("a.rs"), "old\n").unwrap();
    repo.commit_all("a.rs");
    let _daemon = env.start_daemon();

    tool_call(&env, &root, "Write", "toolu_1", "a.rs", "new\n");
    tool_call(&env, &root, "Edit", "toolu_2", "a.rs", "newer\n");
    tool_call(&env, &root, "Write", "toolu_3", "b.txt", "created\n");
    wait_for_count(&repo, "mutations", 3);

    let mut rows = env.query_json(&[], &root);
    rows.sort_by_key(|r| r["tool_use_id"].as_str().unwrap().to_owned());
    let calls: Vec<&str> = rows
        .iter()
        .map(|r| r["tool_use_id"].as_str().unwrap())
        .collect();
    assert_eq!(calls, ["toolu_1", "toolu_2", "toolu_3"]);
    assert_eq!(repo.stored_content(&rows[0]["before"]), b"old\n");
    assert_eq!(repo.stored_content(&rows[0]["after"]), b"new\n");
    assert_eq!(rows[0]["after"]["size"], 4);
    // The Write's lines are counted against the file it replaced, as read.
    assert_eq!(
        (&rows[0]["lines_added"], &rows[0]["lines_removed"]),
        (&json!(1), &json!(1))
    );
    // A new file's, against nothing.
    assert_eq!(
        (&rows[2]["lines_added"], &rows[2]["lines_removed"]),
        (&json!(1), &json!(0))
    );
    assert_eq!(repo.stored_content(&rows[1]["before"]), b"new\n");
    assert_eq!(repo.stored_content(&rows[1]["after"]), b"newer\n");
    // The after of one change is the before of the next: one object.
    assert_eq!(rows[0]["after"], rows[1]["before"]);
    assert_eq!(rows[2]["before"], json!({"state": "absent"}));
    assert_eq!(repo.stored_content(&rows[2]["after"]), b"created\n");

    // Four distinct contents, each stored once, private.
    let store = root.join(".hookd/content");
    assert_eq!(mode(&store), 0o700);
    let database = store.join("contents.db");
    assert_eq!(mode(&database), 0o600);
    let conn = rusqlite::Connection::open(&database).unwrap();
    let stored: i64 = conn
        .query_row("SELECT count(*) FROM contents", [], |r| r.get(0))
        .unwrap();
    assert_eq!(stored, 4);
}

#[test]
fn a_change_whose_pre_tool_use_was_not_seen_has_an_unknown_before() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    std::fs::write(root.join("a.rs"), "old\n").unwrap();
    let _daemon = env.start_daemon();
    let input = json!({"file_path": root.join("a.rs"), "content": "new\n"});
    std::fs::write(root.join("a.rs"), "new\n").unwrap();
    emit_ok(&env, "PostToolUse", "Write", &root, "toolu_1", &input);
    wait_for_count(&repo, "mutations", 1);

    let rows = env.query_json(&[], &root);
    assert_eq!(rows[0]["before"]["state"], "unknown");
    let why = rows[0]["before"]["why"].as_str().unwrap();
    assert!(why.contains("no PreToolUse"), "{why}");
    assert_eq!(repo.stored_content(&rows[0]["after"]), b"new\n");
}

#[test]
fn a_file_reached_through_a_symbolic_link_is_not_read_through_it() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let elsewhere = tempfile::tempdir().unwrap();
    let target = elsewhere.path().join("secret.txt");
    std::fs::write(&target, "not the repository's\n").unwrap();
    std::os::unix::fs::symlink(&target, root.join("link.txt")).unwrap();
    let _daemon = env.start_daemon();

    let input = json!({"file_path": root.join("link.txt"), "content": "x\n"});
    emit_ok(&env, "PreToolUse", "Write", &root, "toolu_1", &input);
    emit_ok(&env, "PostToolUse", "Write", &root, "toolu_1", &input);
    wait_for_count(&repo, "mutations", 1);

    let rows = env.query_json(&[], &root);
    for side in ["before", "after"] {
        assert_eq!(rows[0][side]["state"], "unknown", "{side}");
        let why = rows[0][side]["why"].as_str().unwrap();
        assert!(why.contains("symbolic link"), "{side}: {why}");
    }
}

/// The session's payload fields and `extra` on top: what Claude Code sends.
fn payload(root: &Path, session: &str, hook: &str, extra: &Value) -> String {
    let mut payload = json!({
        "session_id": session,
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": root,
        "hook_event_name": hook,
    });
    for (key, value) in extra.as_object().unwrap() {
        payload[key] = value.clone();
    }
    payload.to_string()
}

fn emit_payload(env: &TestEnv, root: &Path, hook: &str, payload: &str) {
    let out = env.emit(&[hook], payload, root);
    assert!(out.status.success(), "hookd-emit failed: {out:?}");
}

/// A session's agent, as the tests drive it.
struct Agent<'a> {
    env: &'a TestEnv,
    root: &'a Path,
    session: &'a str,
    calls: std::cell::Cell<u32>,
}

impl Agent<'_> {
    fn call_id(&self) -> String {
        self.calls.set(self.calls.get() + 1);
        format!("{}-call-{}", self.session, self.calls.get())
    }

    fn prompt(&self, prompt_id: &str) {
        let extra = json!({"prompt": format!("prompt {prompt_id}"), "prompt_id": prompt_id});
        let payload = payload(self.root, self.session, "UserPromptSubmit", &extra);
        emit_payload(self.env, self.root, "UserPromptSubmit", &payload);
    }

    /// A file tool call that leaves `file` holding `content`.
    fn tool(&self, tool: &str, file: &str, content: &str, input: &Value, agent: Option<&str>) {
        let call = self.call_id();
        let mut extra = json!({"tool_name": tool, "tool_use_id": call, "tool_input": input});
        if let Some(agent) = agent {
            extra["agent_id"] = json!(agent);
        }
        let pre = payload(self.root, self.session, "PreToolUse", &extra);
        emit_payload(self.env, self.root, "PreToolUse", &pre);
        std::fs::write(self.root.join(file), content).unwrap();
        extra["tool_response"] = json!({"success": true});
        let post = payload(self.root, self.session, "PostToolUse", &extra);
        emit_payload(self.env, self.root, "PostToolUse", &post);
    }

    fn write(&self, file: &str, content: &str) {
        let input = json!({"file_path": self.root.join(file), "content": content});
        self.tool("Write", file, content, &input, None);
    }

    /// An Edit replacing `old` by `new` in `file` (once).
    fn edit_as(&self, file: &str, old: &str, new: &str, agent: Option<&str>) {
        let text = std::fs::read_to_string(self.root.join(file)).unwrap();
        assert_eq!(text.matches(old).count(), 1, "{old:?} in {text:?}");
        let input =
            json!({"file_path": self.root.join(file), "old_string": old, "new_string": new});
        self.tool("Edit", file, &text.replacen(old, new, 1), &input, agent);
    }

    fn edit(&self, file: &str, old: &str, new: &str) {
        self.edit_as(file, old, new, None);
    }

    fn bash(&self, command: &str) {
        let call = self.call_id();
        let extra =
            json!({"tool_name": "Bash", "tool_use_id": call, "tool_input": {"command": command}});
        let pre = payload(self.root, self.session, "PreToolUse", &extra);
        emit_payload(self.env, self.root, "PreToolUse", &pre);
        sh(self.root, command);
        let post = payload(self.root, self.session, "PostToolUse", &extra);
        emit_payload(self.env, self.root, "PostToolUse", &post);
    }
}

/// Runs `command` with `sh -c` in `root`, as an agent's Bash tool does.
fn agent<'a>(env: &'a TestEnv, root: &'a Path, session: &'a str) -> Agent<'a> {
    Agent {
        env,
        root,
        session,
        calls: std::cell::Cell::new(0),
    }
}

/// A git repository holding `files` (committed when there are any) and a
/// daemon recording it: where each test's agents work.
struct Scene {
    env: TestEnv,
    repo: GitRepo,
    root: PathBuf,
    _daemon: ChildProcess,
}

fn scene(files: &[(&str, &str)]) -> Scene {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    for (file, text) in files {
        std::fs::write(root.join(file), text).unwrap();
    }
    if !files.is_empty() {
        repo.commit_all("files");
    }
    let daemon = env.start_daemon();
    Scene {
        env,
        repo,
        root,
        _daemon: daemon,
    }
}

impl Scene {
    fn agent<'a>(&'a self, session: &'a str) -> Agent<'a> {
        agent(&self.env, &self.root, session)
    }
}

/// Nine numbered lines: far enough apart for changes to separate lines to
/// merge cleanly.
fn numbered() -> String {
    (1..=9).map(|n| format!("line {n}\n")).collect()
}

fn read(root: &Path, file: &str) -> Option<String> {
    std::fs::read_to_string(root.join(file)).ok()
}

fn rewind(env: &TestEnv, root: &Path, args: &[&str]) -> hookd_testkit::run::Run {
    let mut all = vec!["rewind"];
    all.extend_from_slice(args);
    env.hookd(root, &all)
}

#[test]
fn reverting_one_prompt_keeps_the_others_and_the_users_edit_and_undo_gives_back_every_byte() {
    let scene = scene(&[("c.md", "# c\n"), ("d.rs", "fn d() {}\n")]);
    let (env, repo, root) = (&scene.env, &scene.repo, scene.root.clone());
    let session = scene.agent("session-1");

    session.prompt("p1");
    session.write("a.rs", &numbered());
    session.prompt("p2");
    session.edit("a.rs", "line 2\n", "line 2, prompt 2\n");
    session.bash("echo made by prompt 2 > b.txt");
    session.bash("rm c.md");
    session.edit_as(
        "d.rs",
        "fn d() {}",
        "fn d() { subagent(); }",
        Some("subagent-1"),
    );
    session.prompt("p3");
    session.edit("a.rs", "line 8\n", "line 8, prompt 3\n");
    wait_for_count(repo, "mutations", 6);
    wait_for_count(repo, "events", 15);
    // The user's own edit, which no hook sees.
    let a = read(&root, "a.rs")
        .unwrap()
        .replace("line 5\n", "line 5, by hand\n");
    std::fs::write(root.join("a.rs"), &a).unwrap();

    let dry = rewind(env, &root, &["--prompt", "p2"]);
    assert!(dry.status.success(), "{dry:?}");
    assert!(dry.stdout.contains("M a.rs"), "{}", dry.stdout);
    assert!(dry.stdout.contains("-line 2, prompt 2"), "{}", dry.stdout);
    assert!(dry.stdout.contains("D b.txt"), "{}", dry.stdout);
    assert!(dry.stdout.contains("A c.md"), "{}", dry.stdout);
    assert!(dry.stdout.contains("M d.rs"), "{}", dry.stdout);
    assert!(
        dry.stdout.contains("Dry run: nothing was written"),
        "{}",
        dry.stdout
    );
    assert_eq!(read(&root, "a.rs").unwrap(), a, "a dry run writes nothing");
    assert!(root.join("b.txt").exists());

    let files = ["a.rs", "b.txt", "c.md", "d.rs"];
    let before_rewind: Vec<Option<String>> = files.iter().map(|f| read(&root, f)).collect();
    let applied = rewind(env, &root, &["--prompt", "p2", "--apply"]);
    assert!(applied.status.success(), "{applied:?}");
    let expected = numbered()
        .replace("line 5\n", "line 5, by hand\n")
        .replace("line 8\n", "line 8, prompt 3\n");
    assert_eq!(read(&root, "a.rs").unwrap(), expected);
    assert_eq!(read(&root, "b.txt"), None);
    assert_eq!(read(&root, "c.md").unwrap(), "# c\n");
    assert_eq!(read(&root, "d.rs").unwrap(), "fn d() {}\n");
    // The rewind is recorded, as tool hookd.rewind.
    let rewinds = env.query_json(&["--tool", "hookd.rewind"], &root);
    assert_eq!(rewinds.len(), 4, "{rewinds:?}");

    let undone = rewind(env, &root, &["--undo", "--apply"]);
    assert!(undone.status.success(), "{undone:?}");
    let after_undo: Vec<Option<String>> = files.iter().map(|f| read(&root, f)).collect();
    assert_eq!(after_undo, before_rewind);
}

#[test]
fn a_hand_edit_on_the_same_lines_is_a_conflict_and_nothing_is_written_unless_asked() {
    let scene = scene(&[]);
    let (env, repo, root) = (&scene.env, &scene.repo, scene.root.clone());
    let session = scene.agent("session-1");
    session.write("a.rs", &numbered());
    session.edit("a.rs", "line 2\n", "line 2, agent\n");
    wait_for_count(repo, "mutations", 2);
    let hand = numbered().replace("line 2\n", "line 2, by hand\n");
    std::fs::write(root.join("a.rs"), &hand).unwrap();

    let dry = rewind(env, &root, &["--call", "session-1-call-2"]);
    assert!(dry.status.success(), "{dry:?}");
    assert!(dry.stdout.contains("! a.rs conflict"), "{}", dry.stdout);
    let refused = rewind(env, &root, &["--call", "session-1-call-2", "--apply"]);
    assert!(!refused.status.success(), "{refused:?}");
    assert!(refused.stderr.contains("a.rs"), "{}", refused.stderr);
    assert_eq!(read(&root, "a.rs").unwrap(), hand);

    let marked = rewind(
        env,
        &root,
        &[
            "--call",
            "session-1-call-2",
            "--apply",
            "--conflicts",
            "markers",
        ],
    );
    assert!(marked.status.success(), "{marked:?}");
    let text = read(&root, "a.rs").unwrap();
    assert!(text.contains("<<<<<<< now\nline 2, by hand\n"), "{text}");
    assert!(text.contains(">>>>>>> before the change"), "{text}");
}

#[test]
fn a_change_whose_before_was_never_seen_is_not_restorable_never_guessed() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    std::fs::write(root.join("a.rs"), "old\n").unwrap();
    let _daemon = env.start_daemon();
    // Only the PostToolUse: the file was written without hookd reading it first.
    std::fs::write(root.join("a.rs"), "new\n").unwrap();
    let input = json!({"file_path": root.join("a.rs"), "content": "new\n"});
    emit_ok(&env, "PostToolUse", "Write", &root, "toolu_1", &input);
    wait_for_count(&repo, "mutations", 1);

    let dry = rewind(&env, &root, &["--call", "toolu_1"]);
    assert!(dry.status.success(), "{dry:?}");
    assert!(
        dry.stdout.contains("? a.rs not restorable"),
        "{}",
        dry.stdout
    );
    assert!(dry.stdout.contains("no PreToolUse"), "{}", dry.stdout);
    let refused = rewind(&env, &root, &["--call", "toolu_1", "--apply"]);
    assert!(!refused.status.success(), "{refused:?}");
    assert_eq!(read(&root, "a.rs").unwrap(), "new\n");
}

#[test]
fn reverting_one_agents_session_leaves_every_line_the_other_agent_wrote() {
    let scene = scene(&[("a.rs", &numbered())]);
    let (env, repo, root) = (&scene.env, &scene.repo, scene.root.clone());
    let first = scene.agent("session-a");
    let second = scene.agent("session-b");
    first.edit("a.rs", "line 1\n", "line 1, agent A\n");
    second.edit("a.rs", "line 5\n", "line 5, agent B\n");
    first.edit("a.rs", "line 9\n", "line 9, agent A\n");
    second.write("b.rs", "agent B's file\n");
    wait_for_count(repo, "mutations", 4);

    let applied = rewind(env, &root, &["--session", "session-a", "--apply"]);
    assert!(applied.status.success(), "{applied:?}");
    assert_eq!(
        read(&root, "a.rs").unwrap(),
        numbered().replace("line 5\n", "line 5, agent B\n")
    );
    assert_eq!(read(&root, "b.rs").unwrap(), "agent B's file\n");
}

#[test]
fn show_prints_a_file_as_it_was_at_a_call_or_before_its_first_change() {
    let scene = scene(&[("a.rs", "first\n")]);
    let (env, repo, root) = (&scene.env, &scene.repo, scene.root.clone());
    let session = scene.agent("session-1");
    session.edit("a.rs", "first", "second");
    session.edit("a.rs", "second", "third");
    wait_for_count(repo, "mutations", 2);
    let show = |at: &str| env.hookd(&root, &["show", "a.rs", "--at", at]);
    assert_eq!(show("session-1-call-1").stdout, "second\n");
    assert_eq!(show("session-1-call-2").stdout, "third\n");
    assert_eq!(show("2000-01-01T00:00:00Z").stdout, "first\n");
    let unknown = show("no-such-call");
    assert!(!unknown.status.success());
    assert!(
        unknown.stderr.contains("neither a time"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn diff_shows_a_file_between_two_recorded_points_or_to_now() {
    let scene = scene(&[("a.rs", &numbered())]);
    let (env, repo, root) = (&scene.env, &scene.repo, scene.root.clone());
    let session = scene.agent("session-1");
    session.edit("a.rs", "line 2\n", "line 2, first\n");
    session.edit("a.rs", "line 8\n", "line 8, second\n");
    wait_for_count(repo, "mutations", 2);
    let between = env.hookd(
        &root,
        &[
            "diff",
            "a.rs",
            "--from",
            "session-1-call-1",
            "--to",
            "session-1-call-2",
        ],
    );
    assert!(between.status.success(), "{between:?}");
    assert!(
        between.stdout.contains("-line 8\n+line 8, second"),
        "{}",
        between.stdout
    );
    assert!(
        !between.stdout.contains("line 2, first\n+"),
        "{}",
        between.stdout
    );
    std::fs::write(root.join("a.rs"), "replaced by hand\n").unwrap();
    let to_now = env.hookd(&root, &["diff", "a.rs", "--from", "session-1-call-2"]);
    assert!(
        to_now.stdout.contains("+replaced by hand"),
        "{}",
        to_now.stdout
    );
    assert!(to_now.stdout.contains("(now)"), "{}", to_now.stdout);
}

#[test]
fn the_plan_and_what_was_applied_print_as_json_for_scripts() {
    let scene = scene(&[("a.rs", "first\n")]);
    let (env, repo, root) = (&scene.env, &scene.repo, scene.root.clone());
    let session = scene.agent("session-1");
    session.edit("a.rs", "first", "second");
    session.write("new.txt", "made\n");
    wait_for_count(repo, "mutations", 2);

    let json = |args: &[&str]| -> Value {
        let mut all = vec!["--session", "session-1", "--format", "json"];
        all.extend_from_slice(args);
        let run = rewind(env, &root, &all);
        assert!(run.status.success(), "{run:?}");
        serde_json::from_str(&run.stdout).unwrap()
    };
    let plan = json(&[]);
    let files = plan["files"].as_array().unwrap();
    assert_eq!(files[0]["path"], "a.rs");
    assert_eq!(files[0]["action"], "modify");
    assert!(
        files[0]["diff"]
            .as_str()
            .unwrap()
            .contains("-second\n+first"),
        "{plan}"
    );
    assert_eq!(files[1]["path"], "new.txt");
    assert_eq!(files[1]["action"], "delete");
    assert_eq!(plan["applied"], Value::Null);
    assert!(root.join("new.txt").exists(), "a dry run writes nothing");

    let applied = json(&["--apply"]);
    assert_eq!(applied["applied"]["written"], json!(["a.rs"]));
    assert_eq!(applied["applied"]["deleted"], json!(["new.txt"]));
    assert!(
        applied["applied"]["rewind_id"]
            .as_str()
            .unwrap()
            .starts_with("hookd-rewind-")
    );
    assert_eq!(read(&root, "a.rs").unwrap(), "first\n");
}

/// A file of about 3 KB, as an agent writes one.
fn large_file(seed: &str) -> String {
    (0..60)
        .map(|n| format!("pub fn item_{n}() -> &'static str {{ \"{seed}\" }}\n"))
        .collect()
}

/// The payloads `hookd query --format json` gives back, by tool call.
fn payloads(env: &TestEnv, root: &Path) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = env
        .query_json(&[], root)
        .into_iter()
        .map(|r| {
            (
                r["event_id"].as_str().unwrap().to_owned(),
                r["raw_payload"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn a_writes_content_is_stored_once_and_older_history_compacts_in_place_reading_the_same() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();

    // Through the daemon: the ledger row refers to the content store for
    // the file's content, and reads back as it was sent.
    let content = large_file("new");
    tool_call(&env, &root, "Write", "toolu_big", "big.rs", &content);
    wait_for_count(&repo, "mutations", 1);
    let (stored, refs): (String, Option<i64>) = repo
        .ledger()
        .query_row(
            "SELECT raw_payload, payload_refs FROM events WHERE hook_type = 'post_tool_use'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(refs, Some(1), "{stored}");
    assert!(!stored.contains("item_1()"), "{stored}");
    let rows = env.query_json(&[], &root);
    assert_eq!(
        rows[0]["raw_payload"]
            .as_str()
            .unwrap()
            .matches("item_1()")
            .count(),
        1
    );
    let sent: Value = serde_json::from_str(rows[0]["raw_payload"].as_str().unwrap()).unwrap();
    assert_eq!(sent["tool_input"]["content"], content);

    // History an older hookd wrote (payloads whole), compacted in place.
    let old: Vec<String> = (0..5).map(|n| large_file(&format!("old {n}"))).collect();
    let times: Vec<String> = (0..5)
        .map(|n| format!("2026-01-01T00:0{n}:00.000Z"))
        .collect();
    let events: Vec<hookd_testkit::Event<'_>> = (0..5)
        .map(|n| hookd_testkit::Event {
            content: &old[n],
            ..hookd_testkit::Event::write("old.rs", &times[n])
        })
        .collect();
    hookd_testkit::record_as_schema_11(&env, &repo, &events);
    let before = payloads(&env, &root);
    assert_eq!(before.len(), 6);
    let whole: i64 = repo
        .ledger()
        .query_row(
            "SELECT count(*) FROM events WHERE payload_refs IS NULL AND length(raw_payload) > 3000",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(whole, 5);

    let compact = env.hookd(&root, &["ledger", "compact", "--no-vacuum"]);
    assert!(compact.ok(), "{compact:?}");
    assert!(
        compact.stdout.contains("5 event payloads by reference"),
        "{compact:?}"
    );
    assert_eq!(
        payloads(&env, &root),
        before,
        "every payload reads the same"
    );
    let whole: i64 = repo
        .ledger()
        .query_row(
            "SELECT count(*) FROM events WHERE length(raw_payload) > 3000",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(whole, 0);
    let verify = env.hookd(&root, &["ledger", "verify"]);
    assert!(verify.ok(), "{verify:?}");
    // Again, with the file rebuilt (the daemon still running): nothing
    // left to rewrite, and the ledger reads the same.
    let again = env.hookd(&root, &["ledger", "compact"]);
    assert!(again.ok(), "{again:?}");
    assert!(
        again.stdout.contains("0 event payloads by reference"),
        "{again:?}"
    );
    assert_eq!(payloads(&env, &root), before);
}

#[test]
fn a_deleted_file_comes_back_with_the_mode_it_had() {
    let scene = scene(&[]);
    let (env, repo, root) = (&scene.env, &scene.repo, scene.root.clone());
    let chmod = |file: &str, mode: u32| {
        std::fs::set_permissions(root.join(file), std::fs::Permissions::from_mode(mode)).unwrap();
    };
    // A committed script (git keeps its executable bit) and a private file
    // git does not know (its mode is read from disk).
    std::fs::write(root.join("run.sh"), "#!/bin/sh\necho hi\n").unwrap();
    chmod("run.sh", 0o755);
    repo.commit_all("run.sh");
    std::fs::write(root.join("secret.env"), "TOKEN=1\n").unwrap();
    chmod("secret.env", 0o600);

    scene.agent("s").bash("rm run.sh secret.env");
    wait_for_count(repo, "mutations", 2);
    let out = rewind(env, &root, &["--session", "s", "--apply"]);
    assert!(out.ok(), "{out:?}");
    assert_eq!(
        read(&root, "run.sh").as_deref(),
        Some("#!/bin/sh\necho hi\n")
    );
    assert_eq!(mode(&root.join("run.sh")), 0o755);
    assert_eq!(mode(&root.join("secret.env")), 0o600);

    // Undone, and the undo undone: created again from the rewind's own
    // record, with the same modes.
    let out = rewind(env, &root, &["--undo", "--apply"]);
    assert!(out.ok(), "{out:?}");
    assert_eq!(read(&root, "run.sh"), None);
    let out = rewind(env, &root, &["--undo", "--apply"]);
    assert!(out.ok(), "{out:?}");
    assert_eq!(mode(&root.join("run.sh")), 0o755);
    assert_eq!(mode(&root.join("secret.env")), 0o600);
}

#[test]
fn a_bash_change_counts_its_lines_from_the_contents_kept_around_the_command() {
    let scene = scene(&[("a.txt", "1\n2\n3\n")]);
    let (env, repo, root) = (&scene.env, &scene.repo, scene.root.clone());
    scene
        .agent("s")
        .bash("sed -i s/2/two/ a.txt && printf 'x\\ny\\n' > n.txt");
    wait_for_count(repo, "mutations", 2);
    let mut counts: Vec<(String, i64, i64)> = env
        .query_json(&[], &root)
        .iter()
        .map(|r| {
            (
                r["file_path"].as_str().unwrap().to_owned(),
                r["lines_added"].as_i64().unwrap(),
                r["lines_removed"].as_i64().unwrap(),
            )
        })
        .collect();
    counts.sort();
    assert_eq!(counts, [("a.txt".into(), 1, 1), ("n.txt".into(), 2, 0)]);
}

/// Waits until the content store of the repository at `root` remembers
/// the before of the call `call`.
fn wait_remembered(root: &Path, call: &str) {
    let db = root.join(".hookd/content/contents.db");
    hookd_testkit::wait_until(
        std::time::Duration::from_secs(20),
        &format!("the before of {call} remembered"),
        || {
            rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .and_then(|conn| {
                    conn.query_row(
                        "SELECT count(*) FROM befores WHERE tool_use_id = ?1",
                        [call],
                        |r| r.get::<_, i64>(0),
                    )
                })
                .is_ok_and(|n| n == 1)
        },
    );
}

#[test]
fn a_before_read_by_a_daemon_that_died_is_still_known_to_the_next_one() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    std::fs::write(root.join("a.rs"), "old\n").unwrap();
    repo.commit_all("a.rs");
    let input = json!({"file_path": root.join("a.rs"), "content": "new\n"});

    let mut daemon = env.start_daemon();
    emit_ok(&env, "PreToolUse", "Write", &root, "toolu_across", &input);
    // hookd-emit waits for the read a bounded time only: on a loaded
    // machine it may return first. The test is about what happens after.
    wait_remembered(&root, "toolu_across");
    // Killed between the call's two hooks (no chance to save anything).
    daemon.kill_hard();
    std::fs::write(root.join("a.rs"), "new\n").unwrap();
    let _daemon = env.start_daemon();
    emit_ok(&env, "PostToolUse", "Write", &root, "toolu_across", &input);
    wait_for_count(&repo, "mutations", 1);

    let rows = env.query_json(&[], &root);
    assert_eq!(rows[0]["before"]["state"], "kept", "{}", rows[0]);
    assert_eq!(repo.stored_content(&rows[0]["before"]), b"old\n");
    assert_eq!(repo.stored_content(&rows[0]["after"]), b"new\n");
    let out = rewind(&env, &root, &["--call", "toolu_across", "--apply"]);
    assert!(out.ok(), "{out:?}");
    assert_eq!(read(&root, "a.rs").as_deref(), Some("old\n"));
}

#[test]
fn a_bash_snapshot_taken_by_a_daemon_that_died_is_still_known_to_the_next_one() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    std::fs::write(root.join("c.md"), "# c\n").unwrap();
    repo.commit_all("c.md");
    std::fs::write(root.join("draft.txt"), "draft, not committed\n").unwrap();
    let command = "rm c.md && echo more >> draft.txt && echo new > n.txt";
    let extra = json!({"tool_name": "Bash", "tool_use_id": "toolu_bash_across", "tool_input": {"command": command}});

    let mut daemon = env.start_daemon();
    emit_payload(
        &env,
        &root,
        "PreToolUse",
        &payload(&root, "s", "PreToolUse", &extra),
    );
    wait_remembered(&root, "toolu_bash_across");
    daemon.kill_hard();
    sh(&root, command);
    let _daemon = env.start_daemon();
    emit_payload(
        &env,
        &root,
        "PostToolUse",
        &payload(&root, "s", "PostToolUse", &extra),
    );
    wait_for_count(&repo, "mutations", 3);

    let out = rewind(&env, &root, &["--call", "toolu_bash_across", "--apply"]);
    assert!(out.ok(), "{out:?}");
    assert_eq!(read(&root, "c.md").as_deref(), Some("# c\n"));
    assert_eq!(
        read(&root, "draft.txt").as_deref(),
        Some("draft, not committed\n")
    );
    assert_eq!(read(&root, "n.txt"), None);
}

/// A `pre_tool_use` line as an emitter that did not wait sends it: the
/// connection is closed as soon as the line is written.
fn send_and_go(env: &TestEnv, root: &Path, tool: &str, call: &str, input: &Value) {
    let payload: Value =
        serde_json::from_str(&tool_payload("PreToolUse", tool, root, call, input.clone())).unwrap();
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let line = hookd_testkit::envelope_line("pre_tool_use", Some(tool), payload, &now, 1);
    env.send_raw(line.as_bytes());
}

#[test]
fn a_before_read_after_hookd_emit_gave_up_is_unknown_never_the_agents_own_write() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    std::fs::write(root.join("a.rs"), "old\n").unwrap();
    repo.commit_all("a.rs");
    let _daemon = env.start_daemon();
    let input = json!({"file_path": root.join("a.rs"), "content": "new\n"});

    // A slow daemon: hookd-emit stopped waiting and exited, and the agent
    // wrote the file, before the daemon read it for the PreToolUse.
    std::fs::write(root.join("a.rs"), "new\n").unwrap();
    send_and_go(&env, &root, "Write", "toolu_late", &input);
    // Lines on two connections are handled in any order: the PostToolUse
    // is sent once the PreToolUse was handled.
    wait_remembered(&root, "toolu_late");
    emit_ok(&env, "PostToolUse", "Write", &root, "toolu_late", &input);
    wait_for_count(&repo, "mutations", 1);

    let rows = env.query_json(&[], &root);
    assert_eq!(rows[0]["before"]["state"], "unknown", "{}", rows[0]);
    let why = rows[0]["before"]["why"].as_str().unwrap();
    assert!(why.contains("stopped waiting"), "{why}");
    // Not restorable, and said: never a revert that silently does nothing.
    let out = rewind(&env, &root, &["--call", "toolu_late"]);
    assert!(out.stdout.contains("stopped waiting"), "{out:?}");
    let out = rewind(&env, &root, &["--call", "toolu_late", "--apply"]);
    assert!(!out.ok(), "{out:?}");
    assert_eq!(read(&root, "a.rs").as_deref(), Some("new\n"));
}

#[test]
fn a_bash_snapshot_finished_after_hookd_emit_gave_up_keeps_no_befores() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    std::fs::write(root.join("c.md"), "# c\n").unwrap();
    repo.commit_all("c.md");
    let _daemon = env.start_daemon();
    let command = "echo more >> c.md";
    let input = json!({"command": command});

    send_and_go(&env, &root, "Bash", "toolu_bash_late", &input);
    wait_remembered(&root, "toolu_bash_late");
    sh(&root, command);
    let extra = json!({"tool_name": "Bash", "tool_use_id": "toolu_bash_late", "tool_input": input});
    emit_payload(
        &env,
        &root,
        "PostToolUse",
        &payload(&root, "session-1", "PostToolUse", &extra),
    );
    wait_for_count(&repo, "mutations", 1);

    let rows = env.query_json(&[], &root);
    assert_eq!(rows[0]["file_path"], "c.md");
    assert_eq!(rows[0]["before"]["state"], "unknown", "{}", rows[0]);
    let why = rows[0]["before"]["why"].as_str().unwrap();
    assert!(why.contains("stopped waiting"), "{why}");
    assert_eq!(repo.stored_content(&rows[0]["after"]), b"# c\nmore\n");
}
