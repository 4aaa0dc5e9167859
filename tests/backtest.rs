//! `hookd hooks backtest` end to end: events recorded through the real
//! daemon are replayed against a draft guard; only the calls it would have
//! refused are reported, it runs with `HOOKD_BACKTEST=1`, and the hooks the
//! project already has are not run again.

use hookd_testkit::{GitRepo, Run, TestEnv};
use serde_json::{Value, json};

fn ok(run: &Run) -> String {
    run.assert_ok().to_owned()
}

#[test]
fn a_draft_guard_shows_the_calls_it_would_have_blocked() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    // A hook the project already has: it counts its runs in a file.
    let tally = root.join("tally.txt");
    let existing = format!("echo run >> '{}'", tally.display());
    ok(&env.hookd(
        &root,
        &[
            "hooks",
            "add",
            "--kind",
            "managed",
            "--scope",
            "project",
            "--event",
            "PreToolUse",
            "--matcher",
            "Bash",
            "--command",
            &existing,
        ],
    ));
    // Recorded through the real daemon, which runs the tally hook live.
    env.record_bash_calls(&root, &["ls -la", "sudo rm -rf /var/cache", "cargo test"]);
    let ran_live = std::fs::read_to_string(&tally).unwrap().lines().count();
    assert_eq!(ran_live, 3);

    // The draft: refuse sudo, and prove it runs as a backtest.
    let guard = r#"[ "$HOOKD_BACKTEST" = 1 ] || exit 3; grep -q '"command":"sudo' && { echo 'no sudo' >&2; exit 2; }; exit 0"#;
    let out = ok(&env.hookd(
        &root,
        &[
            "hooks",
            "backtest",
            "--event",
            "PreToolUse",
            "--matcher",
            "Bash",
            "--command",
            guard,
            "--format",
            "json",
        ],
    ));
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["events"].as_u64(), Some(3), "{report:#}");
    assert_eq!(report["matched"], 3, "{report:#}");
    let changes = report["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{report:#}");
    assert_eq!(changes[0]["after"], "deny");
    assert_eq!(changes[0]["before"], Value::Null);
    assert_eq!(changes[0]["subject"], "sudo rm -rf /var/cache");
    assert_eq!(changes[0]["reason"], "no sudo");
    assert!(changes[0]["failures"].as_array().unwrap().is_empty());
    // The hook the project had was not run again.
    assert_eq!(
        std::fs::read_to_string(&tally).unwrap().lines().count(),
        ran_live
    );

    // A draft of the whole file, without the tally hook: the hook the file
    // had is not run to learn what it decided; the ledger says it.
    let draft = root.join("draft.json");
    std::fs::write(
        &draft,
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": guard}]}]}})
        .to_string(),
    )
    .unwrap();
    let out = ok(&env.hookd(
        &root,
        &[
            "hooks",
            "backtest",
            "--draft",
            draft.to_str().unwrap(),
            "--format",
            "json",
        ],
    ));
    let report: Value = serde_json::from_str(&out).unwrap();
    let changes = report["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{report:#}");
    assert_eq!(changes[0]["after"], "deny");
    assert_eq!(changes[0]["before_unknown"], false, "{report:#}");
    assert_eq!(
        std::fs::read_to_string(&tally).unwrap().lines().count(),
        ran_live
    );

    // Text output, and a draft that fails is reported as failing.
    let text = ok(&env.hookd(
        &root,
        &[
            "hooks",
            "backtest",
            "--event",
            "PreToolUse",
            "--matcher",
            "Bash",
            "--command",
            "exit 7",
            "--last",
            "2",
        ],
    ));
    assert!(text.contains("Replayed 2 recorded events"), "{text}");
    assert!(
        text.contains("would fail: hook `exit 7` exited with code 7"),
        "{text}"
    );
    // Nothing was saved.
    let list = ok(&env.hookd(&root, &["hooks", "list", "--kind", "managed"]));
    assert!(
        !list.contains("exit 7") && !list.contains("HOOKD_BACKTEST"),
        "{list}"
    );
}
