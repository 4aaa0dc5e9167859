//! Whether a hook will really run for a project, and every reason it will not.
//!
//! A hook in a file is not a hook that runs. hookd's managed hooks run only
//! when the agent hands the event to `hookd-emit --wait`: a project
//! connected in record-only mode (`hookd-emit <event>`, the default) records
//! and runs none of them, so a guard installed there protects nothing. The
//! agent's own hooks stop for the policy file's `allowManagedHooksOnly` or
//! `disableAllHooks`. Either kind stops for a matcher that is no pattern, a
//! file the user has not approved, or a hook turned off through hookd.
//!
//! [`Verdicts::of`] answers this once for every hook of an
//! [`EffectiveHooks`] view, from the agent's settings files that apply to
//! the project (the same ones Claude Code reads), so `hookd hooks list`, the
//! editor, the Effective view and the Test bench say the same thing.
//! Precedence follows Claude Code (`getHooksFromAllowedSources`): the
//! policy's `disableAllHooks` stops every hook; its `allowManagedHooksOnly`
//! keeps only the policy file's hooks; `disableAllHooks` in another file
//! stops every hook but the policy file's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::connect::{self, Mode};
use super::document::SettingsDocument;
use super::effective::{EffectiveHook, EffectiveHooks, effective_lenient_in};
use super::error::Result;
use super::events::{Connected, MatchField};
use super::location::{Kind, Scope, SettingsRoots};
use super::matcher::Matcher;

/// Why a hook will not run. The wording is [`NotRun::message`]'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum NotRunCode {
    /// Turned off through hookd (kept in its store of disabled hooks).
    Disabled,
    /// `disableAllHooks: true` is in force.
    AllHooksDisabled,
    /// The policy file allows only its own hooks.
    ManagedHooksOnly,
    /// The group's matcher is not a valid pattern: never matches.
    BadMatcher,
    /// A project's managed file the user has not approved.
    Untrusted,
    /// A managed hook, but no agent settings file calls hookd for its event.
    NotConnected,
    /// A managed hook, but the agent calls hookd for its event only to
    /// record (`hookd-emit` without `--wait`).
    RecordOnly,
    /// Another agent drops its file, or this hook of it, as it is written
    /// ([`super::agent_runs`]).
    Dropped,
    /// Turned off in the other agent's own settings (Codex's `/hooks`,
    /// Gemini CLI's `hooksConfig`, Copilot's `disableAllHooks`).
    TurnedOff,
    /// The other agent loads this project file only in a project it trusts.
    ProjectNotTrusted,
    /// The other agent runs this hook only once the user trusts it there
    /// (Codex CLI's `/hooks`).
    NotTrustedInAgent,
}

/// One reason a hook will not run, with its explanation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NotRun {
    /// Which reason.
    pub code: NotRunCode,
    /// What it means for this hook, and what to do about it.
    pub message: String,
}

/// Whether one hook will run for the project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunVerdict {
    /// It runs when its event comes (and its matcher matches).
    pub runs: bool,
    /// Why not, every reason that applies; empty when it runs.
    pub reasons: Vec<NotRun>,
}

impl RunVerdict {
    fn of(reasons: Vec<NotRun>) -> Self {
        Self {
            runs: reasons.is_empty(),
            reasons,
        }
    }

    /// The reasons in one line (`"runs"` when there are none).
    pub fn summary(&self) -> String {
        if self.runs {
            return "runs".to_owned();
        }
        self.reasons
            .iter()
            .map(|r| r.message.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// How the agent's settings files that apply to a project call hookd, and
/// which of their switches stop hooks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentSwitches {
    /// The events the agent hands to `hookd-emit`, with the strongest mode.
    pub relayed: BTreeMap<String, Mode>,
    /// The scopes of the files that call hookd to record only, in
    /// precedence order: where managed mode would be switched on.
    pub record_scopes: Vec<Scope>,
    /// The file whose relay was set aside by the policy's
    /// `allowManagedHooksOnly` (so `relayed` holds only the policy file's).
    pub managed_only: Option<PathBuf>,
    /// The policy file, when its `disableAllHooks` is true: no hook runs.
    pub policy_off: Option<PathBuf>,
    /// The non-policy file whose `disableAllHooks: true` is in force (the
    /// highest-precedence one that sets the key): only the policy file's
    /// hooks run.
    pub others_off: Option<PathBuf>,
}

impl AgentSwitches {
    /// Reads the agent's files for `project` (global, project, local,
    /// policy). A file that cannot be read or parsed counts as empty: the
    /// agent would not load it either.
    pub fn read(roots: &SettingsRoots, project: Option<&Path>) -> Result<Self> {
        let mut out = Self::default();
        let mut docs = Vec::new();
        for location in roots.locations(Kind::Agent, project)? {
            if let Ok(doc) = SettingsDocument::load(&location) {
                docs.push((location.scope, location.path.clone(), doc.value().clone()));
            }
        }
        let policy = docs.iter().find(|(scope, _, _)| *scope == Scope::Policy);
        let flag = |value: &Value, key: &str| value.get(key) == Some(&Value::Bool(true));
        if let Some((_, path, value)) = policy {
            if flag(value, "disableAllHooks") {
                out.policy_off = Some(path.clone());
            }
            if flag(value, "allowManagedHooksOnly") {
                out.managed_only = Some(path.clone());
            }
        }
        for (scope, path, value) in &docs {
            // Later files take precedence (global < project < local <
            // policy): the value in force counts, so the policy file's
            // explicit `false` overrides a `true` below it.
            if let Some(off) = value.get("disableAllHooks") {
                out.others_off =
                    (off == &Value::Bool(true) && *scope != Scope::Policy).then(|| path.clone());
            }
        }
        for (scope, _, value) in &docs {
            // What the agent does not run cannot relay anything.
            let runs = match scope {
                Scope::Policy => out.policy_off.is_none(),
                _ => {
                    out.policy_off.is_none()
                        && out.managed_only.is_none()
                        && out.others_off.is_none()
                }
            };
            if !runs {
                continue;
            }
            for (event, mode) in connect::relayed_events(value) {
                if mode == Mode::Record && !out.record_scopes.contains(scope) {
                    out.record_scopes.push(*scope);
                }
                let best = out.relayed.entry(event).or_insert(mode);
                *best = (*best).max(mode);
            }
        }
        Ok(out)
    }
}

impl AgentSwitches {
    /// What to run so the agent hands events to hookd's managed hooks: the
    /// file that records now switched to managed mode (one entry per event,
    /// so nothing is recorded twice), else the user's file connected.
    pub fn switch_command(&self) -> String {
        match self.switch_scope() {
            Scope::Global => {
                "connect it in managed mode (`hookd connect --managed`; add --dry-run to see the diff first)".to_owned()
            }
            scope => format!(
                "switch its {scope} file to managed mode (`hookd connect --managed --scope {scope}`; add --dry-run to see the diff first)"
            ),
        }
    }

    /// The agent file to switch to managed mode: the first that records
    /// now (so each event keeps one hookd entry), else the user's file.
    pub fn switch_scope(&self) -> Scope {
        self.record_scopes.first().copied().unwrap_or(Scope::Global)
    }
}

/// The verdict of every hook of a view, in the view's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdicts(pub Vec<RunVerdict>);

impl Verdicts {
    /// Judges each hook of `view` against the agent's switches.
    pub fn of(view: &EffectiveHooks, agent: &AgentSwitches) -> Self {
        Self(
            view.hooks
                .iter()
                .map(|hook| verdict(view, hook, agent))
                .collect(),
        )
    }

    /// Reads the agent's files and judges `view` (see [`AgentSwitches::read`]).
    pub fn read(
        roots: &SettingsRoots,
        project: Option<&Path>,
        view: &EffectiveHooks,
    ) -> Result<Self> {
        Ok(Self::of(view, &AgentSwitches::read(roots, project)?))
    }

    /// The verdict of the hook at `index` of the view.
    pub fn get(&self, index: usize) -> Option<&RunVerdict> {
        self.0.get(index)
    }
}

/// The hooks of the settings file at `path` (of `kind`) with their
/// verdicts for `project`, as the project's whole view judges them (other
/// files that cannot be read are skipped, as the daemon skips them).
pub fn file_verdicts(
    roots: &SettingsRoots,
    kind: Kind,
    project: Option<&Path>,
    path: &Path,
) -> Result<Vec<(EffectiveHook, RunVerdict)>> {
    let (view, _) = effective_lenient_in(roots, kind, project)?;
    let verdicts = Verdicts::read(roots, project, &view)?;
    Ok(view
        .hooks
        .into_iter()
        .zip(verdicts.0)
        .filter(|(hook, _)| hook.path == path)
        .collect())
}

/// The distinct reasons the enabled hooks of `judged` do not run, in order
/// of first appearance: what to tell a user who just added them.
pub fn idle_reasons(judged: &[(EffectiveHook, RunVerdict)]) -> Vec<NotRun> {
    let mut out: Vec<NotRun> = Vec::new();
    for reason in judged
        .iter()
        .filter(|(hook, _)| hook.enabled)
        .flat_map(|(_, verdict)| &verdict.reasons)
    {
        if !out.contains(reason) {
            out.push(reason.clone());
        }
    }
    out
}

fn verdict(view: &EffectiveHooks, hook: &EffectiveHook, agent: &AgentSwitches) -> RunVerdict {
    let mut reasons = Vec::new();
    let mut say = |code, message: String| reasons.push(NotRun { code, message });
    if !hook.enabled {
        say(
            NotRunCode::Disabled,
            "disabled through hookd (enable it to run it again)".to_owned(),
        );
    }
    let policy_hook = hook.kind == Kind::Agent && hook.scope == Scope::Policy;
    if let Some(off) = &agent.policy_off {
        say(
            NotRunCode::AllHooksDisabled,
            format!(
                "the policy file {} sets \"disableAllHooks\": true",
                off.display()
            ),
        );
    } else if hook.kind == Kind::Agent && !policy_hook {
        if let Some(policy) = &agent.managed_only {
            say(
                NotRunCode::ManagedHooksOnly,
                format!(
                    "the policy file {} sets \"allowManagedHooksOnly\": true, so the agent runs only its hooks",
                    policy.display()
                ),
            );
        } else if let Some(off) = &agent.others_off {
            say(
                NotRunCode::AllHooksDisabled,
                format!("{} sets \"disableAllHooks\": true", off.display()),
            );
        }
    } else if hook.kind == Kind::Managed
        && let Some(off) = view
            .all_disabled_by
            .iter()
            .find(|l| l.kind == Kind::Managed)
    {
        say(
            NotRunCode::AllHooksDisabled,
            format!("{} sets \"disableAllHooks\": true", off.path.display()),
        );
    }
    if let Some(spec) = hook.event.spec()
        && spec.matcher != MatchField::None
        && let Err(err) = Matcher::parse(hook.matcher.as_deref())
    {
        say(
            NotRunCode::BadMatcher,
            format!("its matcher never matches: {err}"),
        );
    }
    if let Some(why) = &hook.untrusted {
        say(NotRunCode::Untrusted, why.clone());
    }
    if hook.kind == Kind::Managed && agent.policy_off.is_none() {
        relay_reason(hook, agent, &mut say);
    }
    RunVerdict::of(reasons)
}

/// Why the agent does not hand `hook`'s event to hookd for it to run.
fn relay_reason(
    hook: &EffectiveHook,
    agent: &AgentSwitches,
    say: &mut impl FnMut(NotRunCode, String),
) {
    let event = hook.event.name();
    let managed_cmd = agent.switch_command();
    if hook
        .event
        .spec()
        .is_some_and(|spec| spec.connected == Connected::No)
    {
        say(
            NotRunCode::NotConnected,
            format!(
                "hookd is never called for {event}: the agent cannot hand it to hookd's managed hooks"
            ),
        );
        return;
    }
    match agent.relayed.get(event) {
        Some(Mode::Managed) => {}
        Some(Mode::Record) => say(
            NotRunCode::RecordOnly,
            format!(
                "the agent calls hookd for {event} to record only (`hookd-emit` without --wait), which runs no managed hook; {managed_cmd}"
            ),
        ),
        None => say(
            NotRunCode::NotConnected,
            match &agent.managed_only {
                Some(policy) => format!(
                    "the policy file {} allows only its own hooks and does not call hookd for {event}",
                    policy.display()
                ),
                None if agent.others_off.is_some() => format!(
                    "the agent's hooks are off (\"disableAllHooks\"), so nothing calls hookd for {event}"
                ),
                None => format!("no agent settings file calls hookd for {event}; {managed_cmd}"),
            },
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use serde_json::json;

    use super::*;
    use crate::settings::effective::effective_in;

    struct Fixture {
        _tmp: tempfile::TempDir,
        roots: SettingsRoots,
        project: PathBuf,
    }

    impl Fixture {
        fn new() -> Self {
            let tmp = tempfile::tempdir().unwrap();
            let roots = SettingsRoots::under(tmp.path());
            let project = tmp.path().join("p");
            fs::create_dir_all(&project).unwrap();
            Self {
                _tmp: tmp,
                roots,
                project,
            }
        }

        fn write(&self, kind: Kind, scope: Scope, value: &Value) {
            let location = self
                .roots
                .location(kind, scope, Some(&self.project))
                .unwrap();
            fs::create_dir_all(location.path.parent().unwrap()).unwrap();
            fs::write(&location.path, value.to_string()).unwrap();
        }

        fn verdicts(&self, kind: Kind) -> Vec<RunVerdict> {
            let view = effective_in(&self.roots, kind, Some(&self.project)).unwrap();
            Verdicts::read(&self.roots, Some(&self.project), &view)
                .unwrap()
                .0
        }
    }

    fn codes(v: &RunVerdict) -> Vec<NotRunCode> {
        v.reasons.iter().map(|r| r.code).collect()
    }

    fn emit(event: &str, command: &str) -> Value {
        json!({"hooks": {event: [{"matcher": "*", "hooks": [{"type": "command", "command": command}]}]}})
    }

    const GUARD: &str = "~/.hookd/hooks/guard.py";

    #[test]
    fn a_managed_hook_runs_only_where_the_agent_relays_its_event_with_wait() {
        let f = Fixture::new();
        f.write(Kind::Managed, Scope::Global, &emit("PreToolUse", GUARD));
        let not = f.verdicts(Kind::Managed);
        assert_eq!(codes(&not[0]), [NotRunCode::NotConnected]);
        assert!(
            not[0].reasons[0]
                .message
                .contains("hookd connect --managed")
        );

        f.write(
            Kind::Agent,
            Scope::Local,
            &emit("PreToolUse", "hookd-emit pre_tool_use"),
        );
        let record = f.verdicts(Kind::Managed);
        assert_eq!(codes(&record[0]), [NotRunCode::RecordOnly]);
        assert!(!record[0].runs);
        // The file that records is the one to switch, so nothing is recorded twice.
        assert!(
            record[0].reasons[0]
                .message
                .contains("`hookd connect --managed --scope local`"),
            "{record:?}"
        );

        // Managed mode in another file of the project wins.
        f.write(
            Kind::Agent,
            Scope::Global,
            &emit("PreToolUse", "hookd-emit --wait pre_tool_use"),
        );
        let runs = f.verdicts(Kind::Managed);
        assert!(runs[0].runs, "{runs:?}");
        assert_eq!(runs[0].summary(), "runs");
    }

    #[test]
    fn policy_switches_stop_the_hooks_claude_code_would_not_run() {
        let f = Fixture::new();
        f.write(
            Kind::Agent,
            Scope::Project,
            &emit("Stop", "notify-send done"),
        );
        assert!(f.verdicts(Kind::Agent)[0].runs);

        fs::write(
            &f.roots.policy,
            json!({"allowManagedHooksOnly": true}).to_string(),
        )
        .unwrap();
        assert_eq!(
            codes(&f.verdicts(Kind::Agent)[0]),
            [NotRunCode::ManagedHooksOnly]
        );

        // The policy file's own hooks still run; a user file's disableAllHooks cannot stop them.
        let mut policy = emit("Stop", "logger stop");
        policy["hooks"]["PreToolUse"] =
            json!([{"hooks": [{"type": "command", "command": "hookd-emit --wait pre_tool_use"}]}]);
        fs::write(&f.roots.policy, policy.to_string()).unwrap();
        f.write(
            Kind::Agent,
            Scope::Global,
            &json!({"disableAllHooks": true}),
        );
        let agent = f.verdicts(Kind::Agent);
        let policy_hook = agent
            .iter()
            .zip(
                &effective_in(&f.roots, Kind::Agent, Some(&f.project))
                    .unwrap()
                    .hooks,
            )
            .find(|(_, h)| h.scope == Scope::Policy && h.event.name() == "Stop")
            .map(|(v, _)| v.clone())
            .unwrap();
        assert!(policy_hook.runs, "{policy_hook:?}");
        assert_eq!(codes(&agent[0]), [NotRunCode::AllHooksDisabled]);
        // The policy file relays PreToolUse with --wait: a managed guard runs.
        f.write(Kind::Managed, Scope::Global, &emit("PreToolUse", GUARD));
        assert!(f.verdicts(Kind::Managed)[0].runs);

        fs::write(
            &f.roots.policy,
            json!({"disableAllHooks": true}).to_string(),
        )
        .unwrap();
        assert_eq!(
            codes(&f.verdicts(Kind::Managed)[0]),
            [NotRunCode::AllHooksDisabled]
        );
    }

    #[test]
    fn untrusted_bad_matcher_and_never_relayed_events_are_each_said() {
        let f = Fixture::new();
        f.write(
            Kind::Agent,
            Scope::Local,
            &emit("PreToolUse", "hookd-emit --wait pre_tool_use"),
        );
        let bad = json!({"hooks": {"PreToolUse": [{"matcher": "Bash(*docker*)", "hooks": [{"type": "command", "command": GUARD}]}]}});
        // Written without approval: a clone's file.
        f.write(Kind::Managed, Scope::Project, &bad);
        let v = f.verdicts(Kind::Managed);
        assert_eq!(
            codes(&v[0]),
            [NotRunCode::BadMatcher, NotRunCode::Untrusted]
        );
        assert!(v[0].summary().contains("at position"), "{}", v[0].summary());
    }
}
