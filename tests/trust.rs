//! Trust end to end: a project's managed hook files run only once the user
//! approved their exact content (`hookd trust`); unapproved and changed
//! files are skipped, recorded as skipped, counted and listed; a repository
//! nested in a project never brings its own hooks.

use std::path::Path;
use std::process::Output;

use std::time::Duration;

use hookd_testkit::{
    GitRepo, TestEnv, run_with_stdin, tool_payload, wait_for_count, wait_until, write_json_pretty,
};

/// Long enough for a settings change to reach the daemon's watcher.
const WAIT: Duration = Duration::from_secs(10);
use serde_json::{Value, json};

/// A managed file whose PreToolUse Bash hook leaves `marker` and denies.
fn guard(marker: &Path) -> Value {
    json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
        "command": format!("touch {}; echo 'guarded' >&2; exit 2", marker.display())}]}]}})
}

fn wait_emit(env: &TestEnv, cwd: &Path, project: Option<&Path>, id: &str) -> Output {
    let mut cmd = env.command("hookd-emit");
    cmd.args(["--wait", "PreToolUse"]).current_dir(cwd);
    match project {
        Some(dir) => cmd.env("CLAUDE_PROJECT_DIR", dir),
        None => cmd.env_remove("CLAUDE_PROJECT_DIR"),
    };
    let payload = tool_payload("PreToolUse", "Bash", cwd, id, json!({"command": "ls"}));
    run_with_stdin(cmd, payload.as_bytes())
}

fn hookd(env: &TestEnv, cwd: &Path, args: &[&str]) -> String {
    let run = env.hookd(cwd, args);
    assert!(run.status.success(), "hookd {args:?}: {run:?}");
    run.stdout
}

fn skipped_runs(repo: &GitRepo) -> Vec<(String, String)> {
    let ledger = repo.ledger();
    let mut stmt = ledger
        .prepare("SELECT command, skipped FROM hook_runs WHERE skipped IS NOT NULL ORDER BY id")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn an_unapproved_project_file_runs_nothing_until_trusted_and_a_change_untrusts_it() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let marker = env.home().join("guard-ran");
    let settings = root.join(".hookd/settings.json");
    // As a fresh clone would bring it: nobody approved this file.
    write_json_pretty(&settings, &guard(&marker));
    let _daemon = env.start_daemon();

    let out = wait_emit(&env, &root, Some(&root), "t1");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    assert!(!marker.exists(), "an unapproved hook ran");
    wait_for_count(&repo, "hook_runs", 1);
    let skipped = skipped_runs(&repo);
    assert_eq!(skipped.len(), 1);
    assert!(skipped[0].0.contains("guard-ran"));
    assert!(skipped[0].1.contains("never approved"), "{skipped:?}");

    // Listed and counted.
    let list = hookd(&env, &root, &["hooks", "list", "--kind", "managed"]);
    assert!(list.contains("NOT TRUSTED"), "{list}");
    assert!(list.contains("1 not trusted"), "{list}");
    wait_until(WAIT, "status counts the skipped run", || {
        hookd(&env, &root, &["status"]).contains("not trusted:  1 managed hook run skipped")
    });

    // `hookd trust` shows the command and approves.
    let trust = hookd(&env, &root, &["trust"]);
    assert!(trust.contains("NOT TRUSTED (never approved)"), "{trust}");
    assert!(trust.contains("guard-ran"), "the command is shown: {trust}");
    assert!(trust.contains("Approved:"), "{trust}");
    let again = hookd(&env, &root, &["trust"]);
    assert!(again.contains("Nothing to approve"), "{again}");

    wait_until(WAIT, "the approved hook runs", || {
        wait_emit(&env, &root, Some(&root), "t2").status.code() == Some(2)
    });
    assert!(marker.exists());

    // The agent (or anyone) rewrites the file: untrusted again, even the
    // hook that was approved before.
    std::fs::remove_file(&marker).unwrap();
    let mut changed = guard(&marker);
    changed["hooks"]["Stop"] = json!([{"hooks": [{"type": "command", "command": "true"}]}]);
    write_json_pretty(&settings, &changed);
    wait_until(WAIT, "the changed file is skipped", || {
        // Until the daemon sees the change the old hook may still run once.
        let _ = std::fs::remove_file(&marker);
        let out = wait_emit(&env, &root, Some(&root), "t3");
        out.status.code() == Some(0) && !marker.exists()
    });
    wait_until(WAIT, "its skip is recorded as a change", || {
        skipped_runs(&repo)
            .iter()
            .any(|(_, why)| why.contains("changed since it was approved"))
    });
    let show = hookd(&env, &root, &["trust", "--show"]);
    assert!(show.contains("changed since it was approved"), "{show}");

    // Approve, then revoke.
    hookd(&env, &root, &["trust"]);
    wait_until(WAIT, "runs once approved again", || {
        wait_emit(&env, &root, Some(&root), "t4").status.code() == Some(2)
    });
    let revoke = hookd(&env, &root, &["trust", "--revoke"]);
    assert!(revoke.contains("Revoked:"), "{revoke}");
    wait_until(WAIT, "a revoked file runs nothing", || {
        let _ = std::fs::remove_file(&marker);
        wait_emit(&env, &root, Some(&root), "t5").status.code() == Some(0) && !marker.exists()
    });
}

#[test]
fn saving_through_hookd_approves_what_it_wrote_but_never_someone_elses_hooks() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let marker = env.home().join("added-ran");
    let add = |command: &str| {
        hookd(
            &env,
            &root,
            &[
                "hooks",
                "add",
                "--event",
                "PreToolUse",
                "--matcher",
                "Bash",
                "--command",
                command,
            ],
        )
    };
    // A new file written by `hookd hooks add` is the user's own: it runs.
    let added = add(&format!("touch {}; exit 2", marker.display()));
    assert!(added.contains("Added"), "{added}");
    assert!(!added.contains("not trusted"), "{added}");
    let _daemon = env.start_daemon();
    assert_eq!(
        wait_emit(&env, &root, Some(&root), "t1").status.code(),
        Some(2)
    );
    assert!(marker.exists());

    // Someone else adds a hook behind hookd's back; a later `hooks add` by
    // the user does not approve it.
    let planted = env.home().join("planted-ran");
    let settings = root.join(".hookd/settings.json");
    let mut value: Value = serde_json::from_slice(&std::fs::read(&settings).unwrap()).unwrap();
    value["hooks"]["PreToolUse"].as_array_mut().unwrap().push(
        json!({"hooks": [{"type": "command", "command": format!("touch {}", planted.display())}]}),
    );
    write_json_pretty(&settings, &value);
    let second = add("true");
    assert!(second.contains("not trusted"), "the user is told: {second}");
    wait_until(WAIT, "nothing runs from the file", || {
        wait_emit(&env, &root, Some(&root), "t2").status.code() == Some(0)
    });
    assert!(!planted.exists(), "a planted hook ran");
}

#[test]
fn a_repository_nested_in_a_project_does_not_bring_its_own_hooks() {
    let env = TestEnv::new();
    let outer = GitRepo::new();
    let root = outer.root();
    let nested = root.join("vendor/x");
    std::fs::create_dir_all(&nested).unwrap();
    let init = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(&nested)
        .status()
        .unwrap();
    assert!(init.success());
    let outer_marker = env.home().join("outer-ran");
    let nested_marker = env.home().join("nested-ran");
    // Both files approved: this is about which project an event belongs to.
    write_json_pretty(&root.join(".hookd/settings.json"), &guard(&outer_marker));
    write_json_pretty(&nested.join(".hookd/settings.json"), &guard(&nested_marker));
    hookd(&env, &root, &["trust"]);
    hookd(&env, &nested, &["trust"]);
    let _daemon = env.start_daemon();
    // The outer project is registered (it got an event).
    let hello = tool_payload("PostToolUse", "Bash", &root, "t0", json!({"command": "ls"}));
    assert!(env.emit(&["PostToolUse"], &hello, &root).status.success());
    wait_for_count(&outer, "events", 1);

    // No CLAUDE_PROJECT_DIR, cwd inside the nested repository.
    let out = wait_emit(&env, &nested, None, "t1");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(outer_marker.exists(), "the project's hooks ran");
    assert!(!nested_marker.exists(), "the nested repository's hooks ran");
}
