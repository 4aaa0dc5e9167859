//! The ledger is never written beyond a symbolic link a repository ships,
//! never into a file that is gone, and never into a damaged database; when
//! it cannot be written the events are spooled with a log line that says
//! why. Through the real daemon, hookd-emit and hookd CLI.

use std::os::unix::fs::symlink;
use std::path::Path;
use std::time::Duration;

use hookd_testkit::{ChildProcess, GitRepo, TestEnv, tool_payload, wait_for_count, wait_until};
use serde_json::json;

const WAIT: Duration = Duration::from_secs(20);

/// Emits a Write of `file` in `root` whose tool call id is `id`.
fn emit_write(env: &TestEnv, root: &Path, id: &str) {
    let payload = tool_payload(
        "PostToolUse",
        "Write",
        root,
        id,
        json!({"file_path": root.join(format!("{id}.rs")), "content": "x\n"}),
    );
    let out = env.emit(&["post_tool_use"], &payload, root);
    assert!(out.status.success(), "hookd-emit failed: {out:?}");
}

/// Waits until the spool holds the event whose tool call id is `id`.
fn wait_spooled(env: &TestEnv, daemon: &ChildProcess, id: &str) {
    let found = hookd_testkit::poll_until(WAIT, || {
        env.spooled()
            .iter()
            .any(|line| line["payload"].as_str().is_some_and(|p| p.contains(id)))
            .then_some(())
    });
    assert!(
        found.is_some(),
        "event {id} was not spooled; log:\n{}",
        daemon.log_text()
    );
}

/// Waits until the status file says `stored` and `spooled`.
fn wait_counts(env: &TestEnv, stored: u64, spooled: u64) {
    wait_until(
        WAIT,
        &format!("status {stored} stored, {spooled} spooled"),
        || {
            env.daemon_status().is_some_and(|s| {
                s["stats"]["events_stored"] == stored && s["stats"]["events_spooled"] == spooled
            })
        },
    );
}

fn sqlite_file(path: &Path) {
    let conn = rusqlite_open(path);
    conn.execute_batch(
        "PRAGMA journal_mode=DELETE; CREATE TABLE contacts(name TEXT); INSERT INTO contacts VALUES ('ada');",
    )
    .unwrap();
}

fn rusqlite_open(path: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}

#[test]
fn a_symlinked_state_dir_is_refused_and_the_event_spooled() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let elsewhere = env.plain_dir("elsewhere");
    symlink(&elsewhere, root.join(".hookd")).unwrap();
    let daemon = env.start_daemon();

    emit_write(&env, &root, "toolu_link_dir");
    wait_spooled(&env, &daemon, "toolu_link_dir");
    wait_counts(&env, 0, 1);
    let entries: Vec<_> = std::fs::read_dir(&elsewhere).unwrap().collect();
    assert!(
        entries.is_empty(),
        "nothing may be created beyond the link: {entries:?}"
    );
    let log = daemon.log_text();
    assert!(
        log.contains("symbolic link") && log.contains(&root.join(".hookd").display().to_string()),
        "the log says which path and why:\n{log}"
    );
}

#[test]
fn a_symlinked_ledger_leaves_the_other_database_untouched() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let other = env.plain_dir("app").join("contacts.sqlite");
    sqlite_file(&other);
    let before = std::fs::read(&other).unwrap();
    std::fs::create_dir(root.join(".hookd")).unwrap();
    symlink(&other, repo.ledger_path()).unwrap();
    let daemon = env.start_daemon();

    emit_write(&env, &root, "toolu_link_db");
    wait_spooled(&env, &daemon, "toolu_link_db");
    wait_counts(&env, 0, 1);
    assert_eq!(
        std::fs::read(&other).unwrap(),
        before,
        "the other app's file is unchanged"
    );
    for suffix in ["-wal", "-shm", "-journal"] {
        let side = other.with_file_name(format!("contacts.sqlite{suffix}"));
        assert!(!side.exists(), "{} was created", side.display());
    }
    assert!(daemon.log_text().contains("symbolic link"));
}

#[test]
fn dangling_links_in_the_state_dir_create_nothing() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let ssh = env.plain_dir("ssh");
    let keys = ssh.join("authorized_keys");
    let ignore_target = ssh.join("planted");
    std::fs::create_dir(root.join(".hookd")).unwrap();
    symlink(&keys, repo.ledger_path()).unwrap();
    symlink(&ignore_target, root.join(".hookd/.gitignore")).unwrap();
    let daemon = env.start_daemon();

    emit_write(&env, &root, "toolu_dangling\nssh-ed25519 AAAA planted");
    wait_spooled(&env, &daemon, "toolu_dangling");
    assert!(!keys.exists(), "the link's target was created");
    assert!(
        !ignore_target.exists(),
        "the .gitignore link's target was created"
    );

    // The same for the write-ahead log beside a real ledger.
    let repo2 = GitRepo::new();
    let root2 = repo2.root();
    std::fs::create_dir(root2.join(".hookd")).unwrap();
    let wal_target = ssh.join("wal");
    symlink(&wal_target, root2.join(".hookd/mutations.db-wal")).unwrap();
    emit_write(&env, &root2, "toolu_wal_link");
    wait_spooled(&env, &daemon, "toolu_wal_link");
    assert!(!wal_target.exists(), "the -wal link's target was created");
}

#[test]
fn a_state_dir_owned_by_another_user_is_refused() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let state = root.join(".hookd");
    std::fs::create_dir(&state).unwrap();
    let me = rustix::process::geteuid().as_raw();
    let other = if me == 65534 { 65533 } else { 65534 };
    if std::os::unix::fs::chown(&state, Some(other), None).is_err() {
        eprintln!("skipped: cannot chown (not root)");
        return;
    }
    let daemon = env.start_daemon();

    emit_write(&env, &root, "toolu_foreign");
    wait_spooled(&env, &daemon, "toolu_foreign");
    assert!(
        !repo.ledger_path().exists(),
        "no ledger in a foreign directory"
    );
    let log = daemon.log_text();
    assert!(log.contains("owned by uid 65534"), "log:\n{log}");
}

#[test]
fn a_ledger_removed_while_the_daemon_runs_is_recreated() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let daemon = env.start_daemon();

    emit_write(&env, &root, "toolu_before");
    wait_for_count(&repo, "events", 1);
    // `git clean -fdx` or `rm -rf .hookd`.
    std::fs::remove_dir_all(root.join(".hookd")).unwrap();
    emit_write(&env, &root, "toolu_after_1");
    emit_write(&env, &root, "toolu_after_2");
    wait_until(WAIT, "the two later events in a new ledger", || {
        repo.count("events") == 2
    });
    assert!(
        root.join(".hookd/.gitignore").is_file(),
        "recreated with its .gitignore"
    );
    let ids: Vec<String> = repo
        .ledger()
        .prepare("SELECT tool_use_id FROM events ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(ids, ["toolu_after_1", "toolu_after_2"]);
    wait_counts(&env, 3, 0);
    assert!(
        env.spooled().is_empty(),
        "nothing spooled: {:?}",
        env.spooled()
    );
    drop(daemon);
}

#[test]
fn a_state_dir_replaced_by_a_file_spools_instead_of_storing() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let daemon = env.start_daemon();

    emit_write(&env, &root, "toolu_first");
    wait_for_count(&repo, "events", 1);
    std::fs::remove_dir_all(root.join(".hookd")).unwrap();
    std::fs::write(root.join(".hookd"), "not a directory\n").unwrap();
    emit_write(&env, &root, "toolu_second");
    wait_spooled(&env, &daemon, "toolu_second");
    wait_counts(&env, 1, 1);
    assert_eq!(
        std::fs::read_to_string(root.join(".hookd")).unwrap(),
        "not a directory\n"
    );
    let log = daemon.log_text();
    assert!(log.contains("not a directory"), "log:\n{log}");
}
