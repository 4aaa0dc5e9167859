//! Settings writes through the real `hookd` binary under many writers at
//! once: every "Added" must be in the file (hookd holds a lock from load to
//! rename).

use std::path::Path;
use std::sync::Arc;
use std::thread;

use hookd_testkit::{GitRepo, Run, TestEnv, read_json};

/// Worker processes adding at once, and adds in all.
const WORKERS: usize = 8;
const ADDS: usize = 100;

/// Every command of a settings file's `PreToolUse` hooks.
fn commands(path: &Path) -> Vec<String> {
    let value = read_json(path);
    value["hooks"]["PreToolUse"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| g["hooks"].as_array().cloned().unwrap_or_default())
        .filter_map(|h| h["command"].as_str().map(str::to_owned))
        .collect()
}

fn add(env: &TestEnv, root: &Path, kind: &str, scope: &str, command: &str) -> Run {
    env.hookd(
        root,
        &[
            "hooks",
            "add",
            "--kind",
            kind,
            "--scope",
            scope,
            "--event",
            "PreToolUse",
            "--matcher",
            "Bash",
            "--command",
            command,
        ],
    )
}

/// `ADDS` adds from `WORKERS` processes at a time on one file: every add
/// that said "Added" (exit 0) is in the file, and any other one said why.
fn parallel_adds(kind: &str, scope: &str, file: &str) {
    let env = Arc::new(TestEnv::new());
    let repo = GitRepo::new();
    let root = Arc::new(repo.root());
    let workers: Vec<_> = (0..WORKERS)
        .map(|w| {
            let (env, root) = (Arc::clone(&env), Arc::clone(&root));
            let (kind, scope) = (kind.to_owned(), scope.to_owned());
            thread::spawn(move || {
                let mut results = Vec::new();
                for i in (w..ADDS).step_by(WORKERS) {
                    let command = format!("./guard-{i}.sh");
                    let run = add(&env, &root, &kind, &scope, &command);
                    results.push((command, run));
                }
                results
            })
        })
        .collect();
    let results: Vec<(String, Run)> = workers
        .into_iter()
        .flat_map(|w| w.join().unwrap())
        .collect();
    assert_eq!(results.len(), ADDS);
    let in_file = commands(&root.join(file));
    let mut added = 0;
    for (command, run) in &results {
        if run.ok() {
            added += 1;
            assert!(
                run.stdout.starts_with("Added PreToolUse hook"),
                "{}",
                run.stdout
            );
            assert!(
                in_file.contains(command),
                "{command} was reported added but is not in {file}"
            );
        } else {
            assert!(
                run.stderr.contains(file),
                "a refusal names the file: {}",
                run.stderr
            );
            assert!(!in_file.contains(command), "{command} refused yet written");
        }
    }
    assert_eq!(in_file.len(), added, "{in_file:?}");
    assert_eq!(added, ADDS, "every add waits for the lock and makes it");
}

#[test]
fn parallel_adds_to_the_managed_project_file_are_all_kept() {
    parallel_adds("managed", "project", ".hookd/settings.json");
}

#[test]
fn parallel_adds_to_the_agent_project_file_are_all_kept() {
    parallel_adds("agent", "project", ".claude/settings.json");
}

#[test]
fn parallel_adds_to_the_agent_local_file_are_all_kept() {
    parallel_adds("agent", "local", ".claude/settings.local.json");
}
