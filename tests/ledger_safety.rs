//! The ledger is never written beyond a symbolic link a repository ships,
//! never into a file that is gone, and never into a damaged database; when
//! it cannot be written the events are spooled with a log line that says
//! why. Through the real daemon, hookd-emit and hookd CLI.

use std::os::unix::fs::{MetadataExt as _, symlink};
use std::path::Path;
use std::time::Duration;

use hookd_testkit::{
    ChildProcess, Event, GitRepo, TestEnv, record, tool_payload, wait_for_count, wait_until,
};
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

/// A ledger of `rows` events in `repo` with random bytes over some pages in
/// the middle; returns its bytes.
fn corrupt_ledger(env: &TestEnv, repo: &GitRepo, rows: usize) -> Vec<u8> {
    let stamps: Vec<String> = (0..rows)
        .map(|i| format!("2026-11-21T10:{:02}:{:02}.000Z", i / 60 % 60, i % 60))
        .collect();
    let files: Vec<String> = (0..rows).map(|i| format!("src/f{i}.rs")).collect();
    let events: Vec<Event<'_>> = stamps
        .iter()
        .zip(&files)
        .map(|(t, f)| Event::write(f, t))
        .collect();
    record(env, repo, &events);
    let path = repo.ledger_path();
    let mut bytes = std::fs::read(&path).unwrap();
    assert!(
        bytes.len() > 8 * 4096,
        "ledger too small to damage: {}",
        bytes.len()
    );
    let middle = bytes.len() / 2;
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for b in &mut bytes[middle - 4096..middle + 4096] {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        *b = seed as u8;
    }
    std::fs::write(&path, &bytes).unwrap();
    bytes
}

#[test]
fn a_damaged_ledger_is_moved_aside_and_a_new_one_started() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let damaged = corrupt_ledger(&env, &repo, 400);

    let verify = env.hookd(&root, &["ledger", "verify"]);
    assert!(
        !verify.ok(),
        "verify must fail on a damaged ledger: {verify:?}"
    );
    assert!(
        verify
            .stdout
            .contains(&repo.ledger_path().display().to_string()),
        "{verify:?}"
    );

    let daemon = env.start_daemon();
    emit_write(&env, &root, "toolu_after_damage");
    let moved_aside = || -> Vec<String> {
        std::fs::read_dir(root.join(".hookd"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with("mutations.db.corrupt-"))
            .collect()
    };
    // Until the daemon moves it aside, the damaged ledger is there, and
    // reading it fails.
    wait_until(WAIT, "the damaged ledger moved aside", || {
        !moved_aside().is_empty()
    });
    wait_until(WAIT, "the event in a fresh ledger", || {
        repo.count("events") == 1
    });
    let aside = moved_aside();
    let kept = aside
        .iter()
        .find(|name| !name.ends_with("-wal") && !name.ends_with("-shm"))
        .unwrap_or_else(|| panic!("no moved-aside ledger among {aside:?}"));
    assert_eq!(
        std::fs::read(root.join(".hookd").join(kept)).unwrap(),
        damaged,
        "the damaged ledger is kept byte for byte"
    );
    let log = daemon.log_text();
    assert!(log.contains(kept.as_str()), "the log names it:\n{log}");
    wait_until(WAIT, "the status to name the moved-aside ledger", || {
        env.daemon_status()
            .is_some_and(|s| s.to_string().contains(kept.as_str()))
    });
    let status = env.hookd(&root, &["status"]);
    assert!(status.stdout.contains(kept.as_str()), "{status:?}");

    let verify = env.hookd(&root, &["ledger", "verify"]);
    assert!(verify.ok(), "the new ledger verifies: {verify:?}");
}

/// Makes a file unwritable, even for root (immutable attribute), until dropped.
struct ReadOnly<'a> {
    path: &'a Path,
    immutable: bool,
}

impl<'a> ReadOnly<'a> {
    fn new(path: &'a Path) -> Option<Self> {
        use std::os::unix::fs::PermissionsExt as _;
        if rustix::process::geteuid().is_root() {
            let set = std::process::Command::new("chattr")
                .arg("+i")
                .arg(path)
                .status()
                .is_ok_and(|s| s.success());
            set.then_some(Self {
                path,
                immutable: true,
            })
        } else {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o444))
                .ok()
                .map(|()| Self {
                    path,
                    immutable: false,
                })
        }
    }
}

impl Drop for ReadOnly<'_> {
    fn drop(&mut self) {
        if self.immutable {
            let _ = std::process::Command::new("chattr")
                .arg("-i")
                .arg(self.path)
                .status();
        }
    }
}

#[test]
fn ledger_errors_in_the_log_say_why() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    record(&env, &repo, &[Event::prompt("2026-11-21T10:00:00.000Z")]);
    let ledger = repo.ledger_path();
    let Some(_read_only) = ReadOnly::new(&ledger) else {
        eprintln!("skipped: cannot make the ledger read-only here");
        return;
    };
    let daemon = env.start_daemon();
    emit_write(&env, &root, "toolu_readonly");
    wait_spooled(&env, &daemon, "toolu_readonly");
    let log = daemon.log_text();
    assert!(
        log.contains("attempt to write a readonly database"),
        "the log gives the real cause:\n{log}"
    );
    assert_eq!(std::fs::metadata(&ledger).unwrap().nlink(), 1);
}

/// A small tmpfs mounted on a directory until dropped (needs root).
struct SmallDisk<'a>(&'a Path);

impl<'a> SmallDisk<'a> {
    fn mount(dir: &'a Path, size: &str) -> Option<Self> {
        std::fs::create_dir_all(dir).unwrap();
        std::process::Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0755"),
                "tmpfs",
            ])
            .arg(dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
            .then_some(Self(dir))
    }
}

impl Drop for SmallDisk<'_> {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(self.0).status();
    }
}

#[test]
fn a_full_disk_is_named_in_the_log() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let state = root.join(".hookd");
    let Some(_disk) = SmallDisk::mount(&state, "1m") else {
        eprintln!("skipped: cannot mount a small tmpfs here (not root)");
        return;
    };
    let mut daemon = env.start_daemon();
    emit_write(&env, &root, "toolu_small");
    wait_for_count(&repo, "events", 1);
    // Text that does not compress (the content store would keep 2 MiB of
    // one letter in a few hundred bytes): 4 MiB of pseudo-random hex.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let big: String = (0..4 * 1024 * 1024)
        .map(|_| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            char::from(b"0123456789abcdef"[usize::try_from(seed >> 60).unwrap()])
        })
        .collect();
    let payload = tool_payload(
        "PostToolUse",
        "Write",
        &root,
        "toolu_big",
        json!({"file_path": root.join("big.txt"), "content": big}),
    );
    let out = env.emit(&["post_tool_use"], &payload, &root);
    assert!(out.status.success());
    wait_spooled(&env, &daemon, "toolu_big");
    let log = daemon.log_text();
    assert!(
        log.contains("database or disk is full"),
        "the log gives the real cause:\n{log}"
    );
    daemon.terminate();
}

#[test]
fn verify_checks_every_ledger_and_never_creates_one() {
    let env = TestEnv::new();
    let good = GitRepo::new();
    record(&env, &good, &[Event::prompt("2026-11-21T10:00:00.000Z")]);
    let bad = GitRepo::new();
    record(&env, &bad, &[Event::prompt("2026-11-21T10:00:00.000Z")]);
    std::fs::write(bad.ledger_path(), vec![0x5a; 8192]).unwrap();

    let one = env.hookd(&good.root(), &["ledger", "verify", "--repo", "."]);
    assert!(one.ok(), "{one:?}");
    assert!(one.stdout.contains("ok"), "{one:?}");

    let all = env.hookd(&good.root(), &["ledger", "verify", "--all"]);
    assert!(!all.ok(), "one bad ledger fails the run: {all:?}");
    let lines: Vec<&str> = all.stdout.lines().collect();
    let line_of = |repo: &GitRepo| {
        let path = repo.ledger_path().display().to_string();
        lines
            .iter()
            .find(|l| l.contains(&path))
            .copied()
            .unwrap_or_else(|| panic!("no line for {path}: {all:?}"))
    };
    assert!(line_of(&good).starts_with("ok"), "{all:?}");
    assert!(line_of(&bad).contains("not a database"), "{all:?}");
    assert_eq!(
        std::fs::read(bad.ledger_path()).unwrap(),
        vec![0x5a; 8192],
        "verify never changes a ledger"
    );

    let empty = GitRepo::new();
    let none = env.hookd(&empty.root(), &["ledger", "verify"]);
    assert!(!none.ok(), "no ledger is an error: {none:?}");
    assert!(!empty.ledger_path().exists(), "verify created a ledger");
    assert!(
        !empty.root().join(".hookd").exists(),
        "verify created .hookd"
    );
}
