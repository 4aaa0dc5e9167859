//! The effective view: scopes concatenated in order, duplicates marked and
//! run once, and `matching` per event as the daemon and `hooks test` use it.

use std::fs;
use std::path::Path;

use hookd_core::settings::matcher::MatchReason;
use hookd_core::settings::{self, EffectiveHooks, Kind, MatchOutcome, Scope, SettingsError};
use hookd_testkit::SettingsFixture;
use serde_json::{Value, json};

fn effective(fx: &SettingsFixture, kind: Kind) -> EffectiveHooks {
    settings::effective_in(&fx.roots, kind, Some(&fx.project)).unwrap()
}

fn cmd(command: &str) -> Value {
    json!({"type": "command", "command": command})
}

fn commands(matched: &[settings::MatchedHook<'_>]) -> Vec<String> {
    matched
        .iter()
        .map(|m| m.hook.command.clone().unwrap_or_else(|| m.hook.summary()))
        .collect()
}

#[test]
fn scopes_concatenate_in_order_and_duplicates_run_once() {
    let fx = SettingsFixture::new();
    let global = fx.write_json(Kind::Managed, Scope::Global, &json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [cmd("./guard.sh"), cmd("./global-only.sh")]}]
    }}));
    let project = fx.write_json(Kind::Managed, Scope::Project, &json!({"hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 9}]},
            {"matcher": "Write|Bash", "hooks": [cmd("./guard.sh")]}
        ]
    }}));
    let local = fx.write_json(
        Kind::Managed,
        Scope::Local,
        &json!({"hooks": {
            "PreToolUse": [{"hooks": [cmd("./local.sh")]}]
        }}),
    );
    let view = effective(&fx, Kind::Managed);
    let listed: Vec<(Scope, &Path, Option<&str>, Option<usize>)> = view
        .hooks
        .iter()
        .map(|h| {
            (
                h.scope,
                h.path.as_path(),
                h.command.as_deref(),
                h.duplicate_of,
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            (Scope::Global, global.as_path(), Some("./guard.sh"), None),
            (
                Scope::Global,
                global.as_path(),
                Some("./global-only.sh"),
                None
            ),
            (
                Scope::Project,
                project.as_path(),
                Some("./guard.sh"),
                Some(0)
            ),
            // Another matcher: only a duplicate when both match (decided per event).
            (Scope::Project, project.as_path(), Some("./guard.sh"), None),
            (Scope::Local, local.as_path(), Some("./local.sh"), None),
        ]
    );
    assert_eq!(view.hooks[2].timeout, Some(9.0));
    assert_eq!(view.files.len(), 3);

    let bash = view.matching("PreToolUse", &json!({"tool_name": "Bash"}));
    assert_eq!(
        commands(&bash),
        ["./guard.sh", "./global-only.sh", "./local.sh"]
    );
    assert_eq!(bash[0].index, 0);
    let write = view.matching("pre_tool_use", &json!({"tool_name": "Write"}));
    assert_eq!(commands(&write), ["./guard.sh", "./local.sh"]);
    assert_eq!(write[0].index, 3, "the project's Write|Bash group");
    assert_eq!(write[0].reason, MatchReason::ExactName("Write".into()));

    // matching_all explains the rest.
    let all = view.matching_all("PreToolUse", &json!({"tool_name": "Bash"}));
    let outcomes: Vec<&MatchOutcome> = all.iter().map(|c| &c.outcome).collect();
    assert_eq!(
        outcomes,
        [
            &MatchOutcome::Runs(MatchReason::ExactName("Bash".into())),
            &MatchOutcome::Runs(MatchReason::ExactName("Bash".into())),
            &MatchOutcome::Duplicate(0),
            &MatchOutcome::Duplicate(0),
            &MatchOutcome::Runs(MatchReason::All),
        ]
    );
    let edit = view.matching_all("PreToolUse", &json!({"tool_name": "Edit"}));
    assert_eq!(
        edit[0].outcome,
        MatchOutcome::NoMatch {
            field: "tool_name",
            target: Some("Edit".into())
        }
    );
}

#[test]
fn same_command_in_agent_global_and_project_is_listed_twice_and_matched_once() {
    let fx = SettingsFixture::new();
    let hooks = json!({"hooks": {"Stop": [{"hooks": [cmd("notify-send done"), {"type": "prompt", "prompt": "done?"}]}]}});
    fx.write_json(Kind::Agent, Scope::Global, &hooks);
    fx.write_json(Kind::Agent, Scope::Project, &hooks);
    let view = effective(&fx, Kind::Agent);
    let dups: Vec<Option<usize>> = view.hooks.iter().map(|h| h.duplicate_of).collect();
    assert_eq!(dups, [None, None, Some(0), Some(1)]);
    let matched = view.matching("Stop", &json!({}));
    assert_eq!(commands(&matched), ["notify-send done", "done?"]);
    assert!(
        matched
            .iter()
            .all(|m| m.reason == MatchReason::NotSupported)
    );

    // A managed hook with the same command is not a duplicate: another runner.
    fx.write_json(
        Kind::Managed,
        Scope::Project,
        &json!({"hooks": {"Stop": [{"hooks": [cmd("notify-send done")]}]}}),
    );
    let mut both = effective(&fx, Kind::Agent);
    both.append(effective(&fx, Kind::Managed));
    assert_eq!(both.hooks.len(), 5);
    assert_eq!(both.hooks[4].duplicate_of, None);
    assert_eq!(both.hooks[3].duplicate_of, Some(1));
    assert_eq!(both.matching("Stop", &json!({})).len(), 3);
}

#[test]
fn matching_per_event_field() {
    let fx = SettingsFixture::new();
    fx.write_json(
        Kind::Managed,
        Scope::Project,
        &json!({"hooks": {
            "PreToolUse": [
                {"matcher": "Edit.*", "hooks": [cmd("regex-edit")]},
                {"matcher": "mcp__memory__.*", "hooks": [cmd("memory")]},
                {"matcher": "mcp__memory", "hooks": [cmd("never")]},
                {"matcher": "*", "hooks": [cmd("star")]}
            ],
            "SessionStart": [
                {"matcher": "startup|resume", "hooks": [cmd("fresh")]},
                {"matcher": "compact", "hooks": [cmd("compacted")]}
            ],
            "Notification": [{"matcher": "permission_prompt", "hooks": [cmd("ping")]}],
            "UserPromptSubmit": [{"matcher": "Bash", "hooks": [cmd("prompt-hook")]}],
            "Stop": [{"hooks": [cmd("stop")]}]
        }}),
    );
    let view = effective(&fx, Kind::Managed);

    let m = view.matching("PreToolUse", &json!({"tool_name": "NotebookEdit"}));
    assert_eq!(commands(&m), ["regex-edit", "star"]);
    assert_eq!(m[0].reason, MatchReason::Regex("Edit".into()));
    assert_eq!(m[1].reason, MatchReason::All);
    let m = view.matching(
        "PreToolUse",
        &json!({"tool_name": "mcp__memory__create_entities"}),
    );
    assert_eq!(commands(&m), ["memory", "star"]);
    // No tool_name at all: only match-all groups.
    assert_eq!(commands(&view.matching("PreToolUse", &json!({}))), ["star"]);

    let m = view.matching("SessionStart", &json!({"source": "resume"}));
    assert_eq!(commands(&m), ["fresh"]);
    assert_eq!(m[0].reason, MatchReason::ExactName("resume".into()));
    assert_eq!(
        commands(&view.matching("SessionStart", &json!({"source": "compact"}))),
        ["compacted"]
    );
    assert!(
        view.matching("SessionStart", &json!({"source": "clear"}))
            .is_empty()
    );

    let notification = json!({"notification_type": "permission_prompt", "message": "?"});
    assert_eq!(
        commands(&view.matching("Notification", &notification)),
        ["ping"]
    );
    assert!(
        view.matching("Notification", &json!({"notification_type": "idle_prompt"}))
            .is_empty()
    );

    // UserPromptSubmit ignores matchers: the "Bash" group runs for any prompt.
    let m = view.matching("UserPromptSubmit", &json!({"prompt": "hi"}));
    assert_eq!(commands(&m), ["prompt-hook"]);
    assert_eq!(m[0].reason, MatchReason::NotSupported);
    assert_eq!(commands(&view.matching("Stop", &json!({}))), ["stop"]);

    assert!(view.matching("NoSuchEvent", &json!({})).is_empty());
    assert!(
        view.matching("PostToolUse", &json!({"tool_name": "Bash"}))
            .is_empty()
    );
}

#[test]
fn disable_all_hooks_turns_a_kind_off() {
    let fx = SettingsFixture::new();
    fx.write_json(
        Kind::Agent,
        Scope::Global,
        &json!({"hooks": {"Stop": [{"hooks": [cmd("x")]}]}}),
    );
    let local = fx.write_json(Kind::Agent, Scope::Local, &json!({"disableAllHooks": true}));
    let view = effective(&fx, Kind::Agent);
    assert_eq!(view.all_disabled_by.len(), 1);
    assert_eq!(view.all_disabled_by[0].path, local);
    assert!(view.matching("Stop", &json!({})).is_empty());
    assert_eq!(
        view.matching_all("Stop", &json!({}))[0].outcome,
        MatchOutcome::AllHooksDisabled(local)
    );
    // A later (higher-precedence) file setting it false wins.
    fs::write(&fx.roots.policy, r#"{"disableAllHooks": false}"#).unwrap();
    assert_eq!(
        effective(&fx, Kind::Agent)
            .matching("Stop", &json!({}))
            .len(),
        1
    );
}

#[test]
fn policy_hooks_are_read_and_invalid_files_fail_or_are_skipped() {
    let fx = SettingsFixture::new();
    fx.write_json(
        Kind::Agent,
        Scope::Project,
        &json!({"hooks": {"Stop": [{"hooks": [cmd("project")]}]}}),
    );
    fs::write(
        &fx.roots.policy,
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "policy"}]}]}}"#,
    )
    .unwrap();
    let view = effective(&fx, Kind::Agent);
    assert_eq!(
        commands(&view.matching("Stop", &json!({}))),
        ["project", "policy"]
    );
    assert_eq!(view.hooks[1].scope, Scope::Policy);
    assert!(view.files.last().unwrap().location.read_only);

    let bad = fx.write_json(Kind::Agent, Scope::Local, &json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": "5"}]}]}}));
    let err = settings::effective_in(&fx.roots, Kind::Agent, Some(&fx.project)).unwrap_err();
    let SettingsError::Invalid { path, errors } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(path, &bad);
    assert_eq!(errors[0].path, "hooks.Stop[0].hooks[0].timeout");

    let (view, errors) =
        settings::effective_lenient_in(&fx.roots, Kind::Agent, Some(&fx.project)).unwrap();
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].to_string().contains("settings.local.json"),
        "{}",
        errors[0]
    );
    assert_eq!(
        commands(&view.matching("Stop", &json!({}))),
        ["project", "policy"]
    );
    assert!(
        view.files
            .iter()
            .any(|f| f.skipped && f.location.path == bad)
    );

    fs::write(&bad, "{not json").unwrap();
    let (_, errors) =
        settings::effective_lenient_in(&fx.roots, Kind::Agent, Some(&fx.project)).unwrap();
    assert!(
        matches!(errors[0], SettingsError::Parse { .. }),
        "{:?}",
        errors[0]
    );
}

#[test]
fn disable_all_hooks_outside_the_policy_file_spares_the_policy_files_hooks() {
    let fx = SettingsFixture::new();
    fx.write_json(
        Kind::Agent,
        Scope::Global,
        &json!({"disableAllHooks": true, "hooks": {"Stop": [{"hooks": [cmd("mine")]}]}}),
    );
    fs::write(
        &fx.roots.policy,
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "policy"}]}]}}"#,
    )
    .unwrap();
    let view = effective(&fx, Kind::Agent);
    let running: Vec<&str> = view
        .matching("Stop", &json!({}))
        .iter()
        .filter_map(|m| m.hook.command.as_deref())
        .collect();
    assert_eq!(running, ["policy"]);
}
