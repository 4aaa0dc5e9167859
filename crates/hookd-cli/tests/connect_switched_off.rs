//! `hookd connect --agent codex|gemini` where the agent will not run what
//! it writes: an administrator's `allow_managed_hooks_only = true` or
//! `[features] hooks = false` in Codex CLI's `requirements.toml`, Gemini
//! CLI's `hooksConfig.enabled: false`. The real binary, a temp HOME and a
//! temp `/etc` (the test kit's): the entries are still written, and the
//! connect (and its dry run) says why they will not run and what to do.

use hookd_testkit::{TestEnv, write_file};

/// The `warning:` lines of a run's stderr.
fn warnings(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|line| line.starts_with("warning: ") && !line.contains("hookd-emit"))
        .collect()
}

#[test]
fn codex_connect_warns_under_managed_hooks_only_and_hooks_off() {
    let env = TestEnv::new();
    let home = env.home();
    let file = home.join(".codex/hooks.json");
    let requirements = env.system_dir().join("codex/requirements.toml");

    // Nothing switched off: no such warning.
    let dry = env.hookd(&home, &["connect", "--agent", "codex", "--dry-run"]);
    dry.assert_ok();
    assert!(warnings(&dry.stderr).is_empty(), "{}", dry.stderr);

    write_file(&requirements, "allow_managed_hooks_only = true\n");
    let dry = env.hookd(&home, &["connect", "--agent", "codex", "--dry-run"]);
    dry.assert_ok();
    assert!(
        dry.stdout.contains("Dry run: would create"),
        "{}",
        dry.stdout
    );
    assert!(!file.exists(), "a dry run writes nothing");
    let said = warnings(&dry.stderr);
    assert_eq!(said.len(), 1, "{}", dry.stderr);
    assert!(
        said[0].contains(&requirements.display().to_string())
            && said[0].contains("allow_managed_hooks_only = true")
            && said[0].contains("runs only managed hooks")
            && said[0].contains("ask your administrator"),
        "{said:?}"
    );

    let run = env.hookd(&home, &["connect", "--agent", "codex"]);
    run.assert_ok();
    assert!(file.is_file(), "connect still writes the entries");
    assert!(
        warnings(&run.stderr)[0].contains("allow_managed_hooks_only = true"),
        "{}",
        run.stderr
    );
    // Already connected: still said.
    let again = env.hookd(&home, &["connect", "--agent", "codex"]);
    again.assert_ok();
    assert!(
        again.stdout.starts_with("Already connected"),
        "{}",
        again.stdout
    );
    assert_eq!(warnings(&again.stderr).len(), 1, "{}", again.stderr);

    write_file(&requirements, "[features]\nhooks = false\n");
    let run = env.hookd(&home, &["connect", "--agent", "codex", "--managed"]);
    run.assert_ok();
    let said = warnings(&run.stderr);
    assert_eq!(said.len(), 1, "{}", run.stderr);
    assert!(
        said[0].contains("[features] hooks = false") && said[0].contains("runs no hook"),
        "{said:?}"
    );
}

#[test]
fn gemini_connect_warns_when_hooks_are_switched_off() {
    let env = TestEnv::new();
    let home = env.home();
    let system = env.system_dir().join("gemini-cli/settings.json");
    let defaults = env.system_dir().join("gemini-cli/system-defaults.json");
    let off = r#"{"hooksConfig": {"enabled": false}}"#;

    write_file(&system, off);
    let dry = env.hookd(&home, &["connect", "--agent", "gemini", "--dry-run"]);
    dry.assert_ok();
    let said = warnings(&dry.stderr);
    assert_eq!(said.len(), 1, "{}", dry.stderr);
    assert!(
        said[0].contains(&system.display().to_string())
            && said[0].contains("overrides yours")
            && said[0].contains("runs no hook"),
        "{said:?}"
    );

    // The defaults: the user's own settings turn hooks back on.
    std::fs::remove_file(&system).unwrap();
    write_file(&defaults, off);
    let run = env.hookd(&home, &["connect", "--agent", "gemini"]);
    run.assert_ok();
    assert!(home.join(".gemini/settings.json").is_file());
    let said = warnings(&run.stderr);
    assert!(
        said.len() == 1 && said[0].contains("overrides the defaults"),
        "{}",
        run.stderr
    );
    write_file(
        &home.join(".gemini/settings.json"),
        r#"{"hooksConfig": {"enabled": true}}"#,
    );
    let run = env.hookd(&home, &["connect", "--agent", "gemini"]);
    run.assert_ok();
    assert!(warnings(&run.stderr).is_empty(), "{}", run.stderr);
}
