//! Trying an event against a project's hooks without the agent: which hooks
//! would run for a payload and why (not), and what running them gives.
//!
//! `hookd hooks test [--run]` and the desktop app's test bench ask the same
//! questions and must give the same answers, so the steps and the words live
//! here: the view of both kinds of hooks, the reason text of each match
//! outcome, the run through the [`executor`](mod@crate::executor), and the
//! reasons behind one run's and the merged decision.

use std::path::Path;

use serde_json::Value;

use crate::executor::{
    self, ExecContext, ExecReport, HookEffect, HookInvocation, Outcome, Verdict,
};
use crate::settings::connect;
use crate::settings::events::EventSpec;
use crate::settings::matcher::{MatchReason, Matcher};
use crate::settings::{
    self, EffectiveHook, EffectiveHooks, Kind, MatchCheck, MatchOutcome, MatchedHook, SettingsRoots,
};

/// The effective hooks of `kinds` for `project`, concatenated in that order.
/// Any invalid settings file is an error naming it (a test against a view
/// with a file silently left out would mislead).
pub fn load_view(
    roots: &SettingsRoots,
    kinds: &[Kind],
    project: &Path,
) -> settings::Result<EffectiveHooks> {
    let mut view = EffectiveHooks::default();
    for kind in kinds {
        view.append(settings::effective_in(roots, *kind, Some(project))?);
    }
    Ok(view)
}

/// Why a hook runs or not, in words (`exact name Bash`, `regex found
/// nothing in tool_name "Write"`, `disabled`, ...). `show_path` renders the
/// file that turned every hook off (the CLI shortens the home to `~`).
pub fn match_reason(check: &MatchCheck<'_>, show_path: impl Fn(&Path) -> String) -> String {
    match &check.outcome {
        MatchOutcome::Runs(MatchReason::All) => "matches all".to_owned(),
        MatchOutcome::Runs(MatchReason::NotSupported) => {
            "matcher not supported by this event (runs always)".to_owned()
        }
        MatchOutcome::Runs(MatchReason::ExactName(name)) => format!("exact name {name}"),
        MatchOutcome::Runs(MatchReason::Regex(text)) => format!("regex matched {text:?}"),
        MatchOutcome::NoMatch { field, target } => {
            let matcher = check.hook.matcher.as_deref().unwrap_or_default();
            let regex = Matcher::parse(Some(matcher)).is_ok_and(|m| m.kind() == "regex");
            match target {
                None => format!("payload has no {field}"),
                Some(value) if regex => format!("regex found nothing in {field} {value:?}"),
                Some(value) => format!("{field} {value:?} is not one of the exact names"),
            }
        }
        MatchOutcome::Disabled => "disabled".to_owned(),
        MatchOutcome::Duplicate(first) => format!("duplicate of #{}, runs once", first + 1),
        MatchOutcome::AllHooksDisabled(path) => {
            format!("all hooks off (disableAllHooks in {})", show_path(path))
        }
        MatchOutcome::ManagedHooksOnly(path) => format!(
            "the agent runs only the policy file's hooks (allowManagedHooksOnly in {})",
            show_path(path)
        ),
        MatchOutcome::BadMatcher => "invalid matcher".to_owned(),
        MatchOutcome::IfNotMet(rule) => format!("its if rule {rule:?} does not match this call"),
        MatchOutcome::Untrusted(why) => why.clone(),
    }
}

/// True for the agent's entries that call hookd itself (`hookd-emit`, as
/// `hookd connect` installs them). A test run leaves them out: running one
/// would record the test payload in the ledger as if the agent had acted,
/// and the managed hooks a `hookd-emit --wait` entry relays are run
/// directly anyway.
pub fn is_recorder(hook: &EffectiveHook) -> bool {
    hook.kind == Kind::Agent && connect::is_hookd_handler(&hook.handler)
}

/// Runs the command hooks of `view` that match `payload` (agent ones too, so
/// they can be tried without the agent) through the executor, in `project`,
/// exactly as hookd's daemon runs managed hooks, in list order. Hooks of
/// other types (`http`, `prompt`, ...) are not run, as hookd runs only
/// commands, and neither are hookd's own recorders ([`is_recorder`]).
pub async fn run_matching(
    spec: &'static EventSpec,
    payload: &Value,
    project: &Path,
    view: &EffectiveHooks,
) -> ExecReport {
    let invocations: Vec<HookInvocation> = view
        .matching(spec.name, payload)
        .iter()
        .filter(|m| !is_recorder(m.hook))
        .filter_map(MatchedHook::invocation)
        .collect();
    let context = ExecContext {
        event: spec,
        payload: payload.clone(),
        project_root: project.to_path_buf(),
        backtest: false,
    };
    executor::run_all(&context, invocations).await
}

/// The reason one run gave for its decision: the stop reason, the
/// permission or block reason (exit-2 stderr or JSON), or a
/// PermissionRequest's message. `None` when it decided nothing or said no why.
pub fn run_reason(effect: &HookEffect) -> Option<String> {
    if effect.stops_agent {
        return effect.stop_reason.clone();
    }
    let reason = match &effect.verdict {
        Verdict::None => None,
        Verdict::Permission { reason, .. } => reason.clone(),
        Verdict::PermissionRequest(decision) => decision.message.clone(),
        Verdict::Block { reason, .. } => Some(reason.clone()),
    };
    reason.filter(|r| !r.trim().is_empty())
}

/// The reason behind the merged decision ([`Outcome::decision`]), the runs'
/// reasons joined with newlines as the agent gets them. `None` without a
/// decision or without any reason.
pub fn outcome_reason(outcome: &Outcome) -> Option<String> {
    let reason = if outcome.stopped {
        outcome.stop_reason.clone()
    } else if let Some(permission) = &outcome.permission {
        Some(permission.reasons.join("\n"))
    } else if let Some(request) = &outcome.permission_request {
        request.message.clone()
    } else {
        outcome.block.as_ref().map(|block| block.reasons.join("\n"))
    };
    reason.filter(|r| !r.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Scope;
    use crate::settings::events;
    use serde_json::json;
    use std::fs;

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    fn reasons(view: &EffectiveHooks, event: &str, payload: &Value) -> Vec<String> {
        view.matching_all(event, payload)
            .iter()
            .map(|c| match_reason(c, |p| p.display().to_string()))
            .collect()
    }

    #[test]
    fn every_outcome_has_its_words() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(dir.path());
        let project = dir.path().join("p");
        write(
            &project.join(".claude/settings.json"),
            r#"{"hooks": {"PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard"}]},
                {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "fmt"}]},
                {"matcher": "mcp__.*", "hooks": [{"type": "command", "command": "mcp"}]},
                {"hooks": [{"type": "command", "command": "log"}]},
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard"}]}
            ], "Stop": [{"matcher": "x", "hooks": [{"type": "command", "command": "done"}]}]}}"#,
        );
        let view = load_view(&roots, &Kind::ALL, &project).unwrap();
        assert_eq!(
            reasons(&view, "PreToolUse", &json!({"tool_name": "Bash"})),
            [
                "exact name Bash",
                "tool_name \"Bash\" is not one of the exact names",
                "regex found nothing in tool_name \"Bash\"",
                "matches all",
                "duplicate of #1, runs once",
            ]
        );
        assert_eq!(
            reasons(&view, "PreToolUse", &json!({"tool_name": "mcp__fs__read"}))[2],
            "regex matched \"mcp__fs__read\""
        );
        assert_eq!(
            reasons(&view, "PreToolUse", &json!({}))[0],
            "payload has no tool_name"
        );
        assert_eq!(
            reasons(&view, "Stop", &json!({})),
            ["matcher not supported by this event (runs always)"]
        );

        // disableAllHooks in the local file turns the agent's hooks off.
        let local = project.join(".claude/settings.local.json");
        write(&local, r#"{"disableAllHooks": true}"#);
        let view = load_view(&roots, &[Kind::Agent], &project).unwrap();
        let shown = reasons(&view, "Stop", &json!({}));
        assert_eq!(
            shown,
            [format!(
                "all hooks off (disableAllHooks in {})",
                local.display()
            )]
        );
        let loc = roots
            .location(Kind::Agent, Scope::Local, Some(&project))
            .unwrap();
        assert_eq!(loc.path, local);
    }

    #[tokio::test]
    async fn a_run_gives_each_hook_s_reason_and_the_merged_one() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(dir.path());
        let project = dir.path().join("p");
        write(
            &project.join(".hookd/settings.json"),
            r#"{"hooks": {"PreToolUse": [
                {"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "echo 'no rm -rf here' >&2; exit 2"},
                    {"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"policy says no\"}}'"},
                    {"type": "command", "command": "true"}
                ]},
                {"matcher": "Write", "hooks": [{"type": "command", "command": "exit 2"}]}
            ]}}"#,
        );
        // Approved, as `hookd trust` would: an unapproved file runs nothing.
        let managed = project.join(".hookd/settings.json");
        crate::settings::TrustStore::for_roots(&roots)
            .approve(&managed, &fs::read(&managed).unwrap())
            .unwrap();
        // hookd's own recorder in the agent's file: listed, never run by a test.
        let marker = dir.path().join("recorded");
        write(
            &project.join(".claude/settings.json"),
            &format!(
                r#"{{"hooks": {{"PreToolUse": [{{"matcher": "*", "hooks": [{{"type": "command", "command": "/opt/hookd/bin/hookd-emit pre_tool_use; touch {}"}}]}}]}}}}"#,
                marker.display()
            ),
        );
        let view = load_view(&roots, &Kind::ALL, &project).unwrap();
        let recorders: Vec<bool> = view.hooks.iter().map(is_recorder).collect();
        assert_eq!(recorders, [true, false, false, false, false]);
        let spec = events::lookup("PreToolUse").unwrap();
        let payload = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}});
        let report = run_matching(spec, &payload, &project, &view).await;
        assert_eq!(
            report.runs.len(),
            3,
            "neither the Write hook (no match) nor the recorder runs"
        );
        assert!(!marker.exists(), "the recorder ran");
        let each: Vec<Option<String>> = report.runs.iter().map(|r| run_reason(&r.effect)).collect();
        assert_eq!(
            each,
            [
                Some("no rm -rf here".to_owned()),
                Some("policy says no".to_owned()),
                None
            ]
        );
        assert_eq!(report.outcome.decision(), Some("deny"));
        let merged = outcome_reason(&report.outcome).unwrap();
        assert!(merged.contains("no rm -rf here"), "{merged}");
        assert!(merged.contains("policy says no"), "{merged}");

        let quiet = run_matching(spec, &json!({"tool_name": "Read"}), &project, &view).await;
        assert!(quiet.runs.is_empty());
        assert_eq!(outcome_reason(&quiet.outcome), None);
    }

    #[tokio::test]
    async fn the_policys_allow_managed_hooks_only_stops_every_other_agent_hook() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(dir.path());
        let project = dir.path().join("p");
        let ran = |name: &str| dir.path().join(name);
        let hook = |name: &str| {
            format!(
                r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "touch {}"}}]}}]}}}}"#,
                ran(name).display()
            )
        };
        write(&project.join(".claude/settings.json"), &hook("project"));
        let mut policy: Value = serde_json::from_str(&hook("policy")).unwrap();
        write(&roots.policy, &policy.to_string());
        let spec = events::lookup("PreToolUse").unwrap();
        let payload = json!({"tool_name": "Bash"});
        let view = load_view(&roots, &[Kind::Agent], &project).unwrap();
        assert_eq!(
            reasons(&view, "PreToolUse", &payload),
            ["exact name Bash", "exact name Bash"]
        );

        policy["allowManagedHooksOnly"] = json!(true);
        write(&roots.policy, &policy.to_string());
        let view = load_view(&roots, &[Kind::Agent], &project).unwrap();
        let shown = reasons(&view, "PreToolUse", &payload);
        assert!(
            shown[0].contains("runs only the policy file's hooks")
                && shown[0].contains("managed-settings.json"),
            "{shown:?}"
        );
        assert_eq!(shown[1], "exact name Bash");
        let report = run_matching(spec, &payload, &project, &view).await;
        assert_eq!(report.runs.len(), 1);
        assert!(ran("policy").exists());
        assert!(
            !ran("project").exists(),
            "a hook the agent would not run ran"
        );

        // The key counts in the policy file only.
        policy["allowManagedHooksOnly"] = json!(false);
        write(&roots.policy, &policy.to_string());
        write(
            &project.join(".claude/settings.local.json"),
            r#"{"allowManagedHooksOnly": true}"#,
        );
        let view = load_view(&roots, &[Kind::Agent], &project).unwrap();
        assert_eq!(
            reasons(&view, "PreToolUse", &payload),
            ["exact name Bash", "exact name Bash"]
        );
    }
}
