//! Hook health: what the settings files say, joined with what the ledger
//! saw, so a hook that cannot work is found before it is needed
//! (`hookd doctor`).
//!
//! Three kinds of findings:
//! - **static**, from the files alone: a command whose program or script is
//!   missing (`health::commands`), a guard without `onFailure: "block"`, the same
//!   hook in several files, a matcher that can never match or is ignored,
//!   and every hook that does not run for the project
//!   ([`crate::settings::runs`]); for the hooks of plugins, skills and
//!   subagents, a missing program or script and a duplicate
//!   (`health::sources`);
//! - **evidence**, from the `hook_runs` and `events` of the project's ledger
//!   over a window: managed hooks that never ran although their events came,
//!   that always fail, time out, or exit 1 where only 2 blocks; with each
//!   one's run count and p95 duration;
//! - **heartbeat**: a connected project where Claude Code kept writing
//!   session transcripts after hookd's last event: its hooks stopped calling
//!   `hookd-emit` (as after some agent updates, anthropics/claude-code#69970).
//!
//! The agent's own hooks run inside the agent; hookd sees no runs of them,
//! so evidence covers managed hooks only.

mod commands;
mod sources;

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;

use crate::Result;
use crate::ledger::Ledger;
use crate::ledger::hook_stats::HookRunStats;
use crate::names::normalize_hook_type;
use crate::settings::connect::is_hookd_handler;
use crate::settings::effective::{EffectiveHook, EffectiveHooks, effective_lenient_in};
use crate::settings::events::{ExitTwo, MatchField};
use crate::settings::matcher::Matcher;
use crate::settings::runs::{AgentSwitches, NotRunCode, RunVerdict, Verdicts};
use crate::settings::{Kind, Scope, SettingsRoots};

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// A guard that does not guard, a hook that cannot start, hooks that
    /// stopped firing: worth an alert.
    Serious,
    /// Probably not what was meant.
    Warning,
    /// Worth knowing.
    Info,
}

/// What a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FindingCode {
    /// The command's program is not there.
    MissingProgram,
    /// The script its interpreter is given is not there.
    MissingScript,
    /// A guard without `onFailure: "block"`: a crash lets the action through.
    NoOnFailure,
    /// The same hook in several places: it runs once.
    Duplicate,
    /// A matcher on an event that takes none: every group runs.
    MatcherIgnored,
    /// `mcp__server` alone matches no tool.
    BareMcpServer,
    /// The hook does not run for the project ([`crate::settings::runs`]).
    DoesNotRun,
    /// It ran and failed every time.
    AlwaysFails,
    /// It was killed at its timeout.
    TimesOut,
    /// It exited 1 on an event where only exit 2 blocks.
    ExitsOne,
    /// Its events came, it never ran.
    NeverFired,
    /// Agent sessions went on, hookd heard nothing.
    Silent,
    /// A plugin that ships hooks is installed but disabled.
    DisabledPlugin,
    /// A skill's or subagent's frontmatter hooks the agent would not load
    /// ([`crate::settings::components`]).
    BadComponent,
}

/// The hook a finding is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
// The desktop app already has a `HookRef` (the editor's): one TS name each.
#[cfg_attr(feature = "ts", ts(rename = "HealthHookRef"))]
pub struct HookRef {
    /// Who runs it.
    pub kind: Kind,
    /// Which file of that kind.
    pub scope: Scope,
    /// That file.
    pub path: PathBuf,
    /// Its event.
    pub event: String,
    /// Its group's matcher.
    pub matcher: Option<String>,
    /// What it runs (command, URL, prompt).
    pub runs: String,
}

impl HookRef {
    fn of(hook: &EffectiveHook) -> Self {
        Self {
            kind: hook.kind,
            scope: hook.scope,
            path: hook.path.clone(),
            event: hook.event.name().to_owned(),
            matcher: hook.matcher.clone(),
            runs: hook.summary(),
        }
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Finding {
    /// How much it matters.
    pub severity: Severity,
    /// What it is.
    pub code: FindingCode,
    /// The hook, when it is about one.
    pub hook: Option<HookRef>,
    /// What is wrong and what to do, in a sentence or two.
    pub message: String,
}

/// What the ledger saw of one managed hook.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HookEvidence {
    /// The hook.
    pub hook: HookRef,
    /// Runs in the window.
    pub runs: u64,
    /// Of which failed.
    pub failed: u64,
    /// Of which timed out.
    pub timed_out: u64,
    /// 95th percentile duration (ms); 0 without runs.
    pub p95_ms: f64,
    /// When it last ran.
    pub last_run: Option<String>,
}

/// The health of one project's hooks.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HealthReport {
    /// The project.
    pub project: PathBuf,
    /// Start of the evidence window (RFC 3339).
    pub since: String,
    /// Every finding, the serious ones first.
    pub findings: Vec<Finding>,
    /// Each managed hook with what the ledger saw of it.
    pub evidence: Vec<HookEvidence>,
    /// The newest event hookd recorded for the project.
    pub last_event: Option<String>,
    /// The newest agent session transcript of the project.
    pub last_session: Option<String>,
}

impl HealthReport {
    /// The number of findings of `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }
}

/// Where the health check looks.
#[derive(Debug, Clone)]
pub struct HealthInputs {
    /// The settings roots.
    pub roots: SettingsRoots,
    /// The project (its git root).
    pub project: PathBuf,
    /// Its ledger, when it has one.
    pub ledger: Option<PathBuf>,
    /// Claude Code's session transcripts folder (`~/.claude/projects`).
    pub transcripts: PathBuf,
    /// `PATH` as the hooks would see it (hookd's own, by default).
    pub path: String,
    /// Now.
    pub now: DateTime<Utc>,
    /// How far back the evidence goes.
    pub window: chrono::Duration,
    /// Evidence from at most this many of the newest hook runs and of the
    /// newest events, so the check costs the same on any size of history
    /// (the tray's recount, [`TRAY_NEWEST`]); `None`: everything in the
    /// window (`hookd doctor`, the Health view).
    pub newest: Option<u64>,
}

impl HealthInputs {
    /// The inputs for `project` with the roots, ledger, transcripts and
    /// `PATH` of this user, looking back `days`.
    pub fn for_project(roots: SettingsRoots, project: &Path, days: u32) -> Self {
        let ledger = crate::dirs::repo_ledger_path(project);
        Self {
            transcripts: roots.home.join(".claude").join("projects"),
            roots,
            project: project.to_path_buf(),
            ledger: ledger.is_file().then_some(ledger),
            path: std::env::var("PATH").unwrap_or_default(),
            now: Utc::now(),
            window: chrono::Duration::days(i64::from(days)),
            newest: None,
        }
    }
}

impl HealthInputs {
    /// Where the hooks' commands run, for a plugin's hooks with its folder.
    fn setting<'a>(&'a self, plugin_root: Option<&'a Path>) -> commands::Setting<'a> {
        commands::Setting {
            project: &self.project,
            home: &self.roots.home,
            path: &self.path,
            plugin_root,
        }
    }
}

/// How many of the newest hook runs and events a bounded check
/// ([`HealthInputs::newest`]) reads: enough for "always fails" and "times
/// out" to show on any hook that runs a few times an hour.
pub const TRAY_NEWEST: u64 = 20_000;

/// How many days of hook runs and events a health check looks at unless
/// asked otherwise (`hookd doctor --days`, the app's Health view).
pub const DEFAULT_DAYS: u32 = 30;

/// How long agent transcripts may run ahead of hookd's last event before
/// the project is called silent (a session writes its transcript as it
/// goes; hooks fire with every tool call).
pub const SILENCE: chrono::Duration = chrono::Duration::minutes(10);

/// Checks the hooks of one project.
pub fn check(inputs: &HealthInputs) -> Result<HealthReport> {
    let project = Some(inputs.project.as_path());
    let (mut view, _) = effective_lenient_in(&inputs.roots, Kind::Agent, project)?;
    let (managed, _) = effective_lenient_in(&inputs.roots, Kind::Managed, project)?;
    view.append(managed);
    let agent = AgentSwitches::read(&inputs.roots, project)?;
    let verdicts = Verdicts::of(&view, &agent);
    let mut findings = static_findings(inputs, &view, &verdicts);
    let mut off: Vec<&str> = Vec::new();
    let plugins = crate::settings::plugins::plugin_hooks(&inputs.roots, project)?;
    for hook in plugins.iter().filter(|h| !h.enabled) {
        if !off.contains(&hook.plugin.as_str()) {
            off.push(&hook.plugin);
            findings.push(Finding {
                severity: Severity::Info,
                code: FindingCode::DisabledPlugin,
                hook: None,
                message: format!(
                    "plugin {} is installed but disabled: its hooks ({}) do not run",
                    hook.plugin,
                    hook.path.display()
                ),
            });
        }
    }

    let components = crate::settings::components::component_hooks(&inputs.roots, project)?;
    findings.extend(sources::findings(
        inputs,
        &view,
        &plugins,
        &components.hooks,
    )?);
    for problem in components.problems {
        findings.push(Finding {
            severity: Severity::Warning,
            code: FindingCode::BadComponent,
            hook: None,
            message: format!(
                "{}: {}; the agent does not load these hooks as written",
                problem.path.display(),
                problem.message
            ),
        });
    }

    let since = (inputs.now - inputs.window).to_rfc3339_opts(SecondsFormat::Millis, true);
    let mut evidence = Vec::new();
    let mut last_event = None;
    if let Some(path) = &inputs.ledger {
        let ledger = Ledger::open_existing(path)?;
        let stats = ledger.hook_run_stats(&since, inputs.newest)?;
        let events = ledger.event_counts_since(&since, inputs.newest)?;
        last_event = ledger.last_event_at()?;
        for (i, hook) in view.hooks.iter().enumerate() {
            if hook.kind != Kind::Managed || !hook.enabled || hook.command.is_none() {
                continue;
            }
            let seen = stats.iter().find(|s| {
                Path::new(&s.source) == hook.path
                    && Some(s.command.as_str()) == hook.command.as_deref()
                    && s.hook_type == normalize_hook_type(hook.event.name())
            });
            let runs_here = verdicts.get(i).is_some_and(|v| v.runs);
            let arrived = events
                .get(&normalize_hook_type(hook.event.name()))
                .copied()
                .unwrap_or(0);
            evidence_findings(hook, seen, arrived, runs_here, &since, &mut findings);
            evidence.push(HookEvidence {
                hook: HookRef::of(hook),
                runs: seen.map_or(0, |s| s.runs),
                failed: seen.map_or(0, |s| s.failed),
                timed_out: seen.map_or(0, |s| s.timed_out),
                p95_ms: seen.map_or(0.0, |s| s.p95_ms),
                last_run: seen.map(|s| s.last_run.clone()),
            });
        }
    }
    let last_session = newest_transcript(&inputs.transcripts, &inputs.project);
    if !agent.relayed.is_empty()
        && let Some(session) = last_session
    {
        let heard = last_event
            .as_deref()
            .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
            .map(|t| t.with_timezone(&Utc));
        if heard.is_none_or(|heard| session > heard + SILENCE) {
            findings.push(Finding {
                severity: Severity::Serious,
                code: FindingCode::Silent,
                hook: None,
                message: format!(
                    "Claude Code wrote a session transcript for this project at {}, but {}: its hooks stopped calling hookd-emit (an agent update or a changed settings file can do this; check `hookd hooks list --kind agent` and the agent's /hooks)",
                    session.to_rfc3339_opts(SecondsFormat::Secs, true),
                    match &last_event {
                        Some(t) => format!("the last event hookd recorded is from {t}"),
                        None => "hookd has recorded no event here".to_owned(),
                    }
                ),
            });
        }
    }
    findings.sort_by_key(|f| f.severity);
    Ok(HealthReport {
        project: inputs.project.clone(),
        since,
        findings,
        evidence,
        last_event,
        last_session: last_session.map(|t| t.to_rfc3339_opts(SecondsFormat::Secs, true)),
    })
}

fn static_findings(
    inputs: &HealthInputs,
    view: &EffectiveHooks,
    verdicts: &Verdicts,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, hook) in view.hooks.iter().enumerate() {
        if !hook.enabled {
            continue;
        }
        let mut say = |severity, code, message: String| {
            out.push(Finding {
                severity,
                code,
                hook: Some(HookRef::of(hook)),
                message,
            });
        };
        if let Some(verdict) = verdicts.get(i).filter(|v| !v.runs) {
            say(
                does_not_run_severity(hook, verdict),
                FindingCode::DoesNotRun,
                format!("does not run: {}", verdict.summary()),
            );
        }
        let spec = hook.event.spec();
        let blocking = spec.is_some_and(|s| s.exit_two == ExitTwo::Blocks);
        if let Some(command) = &hook.command
            && let Some((severity, code, message)) =
                cannot_start(command, &inputs.setting(None), blocking)
        {
            say(severity, code, message);
        }
        // hookd's own relay must fail open: a stopped daemon never blocks the agent.
        let guard = blocking
            && matches!(hook.handler_type.as_str(), "command" | "http")
            && !is_hookd_handler(&hook.handler);
        if guard && hook.handler.get("onFailure").is_none() {
            say(
                Severity::Info,
                FindingCode::NoOnFailure,
                format!(
                    "a {} hook without \"onFailure\": \"block\": if it cannot start, times out or crashes, the action goes ahead",
                    hook.event.name()
                ),
            );
        }
        if let Some(first) = hook.duplicate_of.and_then(|f| view.hooks.get(f)) {
            say(
                Severity::Warning,
                FindingCode::Duplicate,
                format!(
                    "the same hook is also in {} ({} {}): it runs once",
                    first.path.display(),
                    first.kind,
                    first.scope
                ),
            );
        }
        let matcher = hook
            .matcher
            .as_deref()
            .map(str::trim)
            .filter(|m| !m.is_empty() && *m != "*");
        if let (Some(text), Some(spec)) = (matcher, spec) {
            if spec.matcher == MatchField::None {
                say(
                    Severity::Info,
                    FindingCode::MatcherIgnored,
                    format!(
                        "{} takes no matcher: {text:?} is ignored and the group runs on every {} event",
                        spec.name, spec.name
                    ),
                );
            } else if let Ok(Matcher::Exact(names)) = Matcher::parse(Some(text))
                && let Some(bare) = names
                    .iter()
                    .find(|n| n.starts_with("mcp__") && n.matches("__").count() == 1)
            {
                say(
                    Severity::Warning,
                    FindingCode::BareMcpServer,
                    format!(
                        "{bare:?} is taken as an exact tool name and matches no tool; write \"{bare}__.*\" for every tool of that server"
                    ),
                );
            }
        }
    }
    out
}

/// The finding for a command that cannot start as `setting` says, if it
/// cannot; `blocking`: its event blocks on exit 2 (a guard's), so a guard
/// that cannot start is serious.
fn cannot_start(
    command: &str,
    setting: &commands::Setting<'_>,
    blocking: bool,
) -> Option<(Severity, FindingCode, String)> {
    Some(match commands::missing(command, setting)? {
        commands::Missing::Program(program) => (
            if blocking {
                Severity::Serious
            } else {
                Severity::Warning
            },
            FindingCode::MissingProgram,
            format!(
                "cannot start: {program} is not found (not an executable file, or not on PATH)"
            ),
        ),
        commands::Missing::Script {
            interpreter,
            script,
        } => (
            Severity::Serious,
            FindingCode::MissingScript,
            format!(
                "its script {} does not exist{}",
                script.display(),
                if interpreter.starts_with("python") {
                    ": Python exits 2 when it cannot open a script, which the agent reads as a deliberate block"
                } else {
                    ""
                }
            ),
        ),
    })
}

/// A managed hook that does not run is a guard that does not guard.
fn does_not_run_severity(hook: &EffectiveHook, verdict: &RunVerdict) -> Severity {
    let serious = verdict.reasons.iter().any(|r| {
        matches!(
            r.code,
            NotRunCode::BadMatcher
                | NotRunCode::RecordOnly
                | NotRunCode::NotConnected
                | NotRunCode::Untrusted
        )
    });
    if serious
        && (hook.kind == Kind::Managed
            || verdict
                .reasons
                .iter()
                .any(|r| r.code == NotRunCode::BadMatcher))
    {
        Severity::Serious
    } else {
        Severity::Warning
    }
}

fn evidence_findings(
    hook: &EffectiveHook,
    seen: Option<&HookRunStats>,
    arrived: u64,
    runs_here: bool,
    since: &str,
    out: &mut Vec<Finding>,
) {
    let mut say = |severity, code, message: String| {
        out.push(Finding {
            severity,
            code,
            hook: Some(HookRef::of(hook)),
            message,
        });
    };
    let event = hook.event.name();
    let Some(stats) = seen.filter(|s| s.runs > 0) else {
        // Only where every event of the kind should have run it: a matcher
        // may rightly have matched none of them.
        let matches_all = hook
            .event
            .spec()
            .is_some_and(|s| s.matcher == MatchField::None)
            || matches!(Matcher::parse(hook.matcher.as_deref()), Ok(Matcher::All));
        if runs_here && matches_all && arrived > 0 {
            say(
                Severity::Warning,
                FindingCode::NeverFired,
                format!("never ran, although {arrived} {event} events arrived since {since}"),
            );
        }
        return;
    };
    if stats.runs >= 3 && stats.failed == stats.runs {
        say(
            Severity::Serious,
            FindingCode::AlwaysFails,
            format!("failed in all {} of its runs since {since}", stats.runs),
        );
    }
    if stats.timed_out > 0 {
        say(
            Severity::Warning,
            FindingCode::TimesOut,
            format!(
                "timed out in {} of {} runs (p95 {:.0} ms)",
                stats.timed_out, stats.runs, stats.p95_ms
            ),
        );
    }
    let blocks = hook
        .event
        .spec()
        .is_some_and(|s| s.exit_two == ExitTwo::Blocks);
    if blocks && stats.exit_one > 0 && stats.exit_two == 0 {
        say(
            Severity::Warning,
            FindingCode::ExitsOne,
            format!(
                "exited 1 in {} of {} runs: exit 1 does not block on {event}; a guard must exit 2 (or answer with JSON)",
                stats.exit_one, stats.runs
            ),
        );
    }
}

/// Where Claude Code keeps the session transcripts of `project`:
/// `<transcripts>/<the project's path with every character but letters,
/// digits and '-' replaced by '-'>`.
pub fn transcripts_of(transcripts: &Path, project: &Path) -> PathBuf {
    let encoded: String = project
        .display()
        .to_string()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    transcripts.join(encoded)
}

/// When Claude Code last wrote a session transcript for `project`: the
/// newest `*.jsonl` in its [`transcripts_of`] folder.
fn newest_transcript(transcripts: &Path, project: &Path) -> Option<DateTime<Utc>> {
    std::fs::read_dir(transcripts_of(transcripts, project))
        .ok()?
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().extension().is_some_and(|e| e == "jsonl"))
        .filter_map(|entry| entry.metadata().ok()?.modified().ok())
        .max()
        .map(|t: SystemTime| DateTime::<Utc>::from(t))
}
