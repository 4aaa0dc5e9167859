//! The Test bench: pick an event and a payload, see which of a project's
//! hooks (the agent's own and hookd's managed ones) match and why, and run
//! them to see each hook's exit code, output and decision, and the merged
//! reply the agent would get. Each hook also says whether it really runs
//! for the project and why not (the core's `settings::runs`): a managed
//! guard in a record-only project matches and can be run here, but the
//! agent never hands it an event.
//!
//! Everything is `hookd hooks test --run` for the window: the view, the
//! reasons, the run and the decision reasons come from
//! [`hookd_core::executor::hook_test`], the sample payloads from
//! [`hookd_core::executor::samples`]; this file only turns them into the JSON the UI
//! shows. "Run" really executes the commands, in the project directory, as
//! the daemon runs managed hooks; "Cancel" ([`bench_cancel`]) stops a run
//! and kills its hooks' process groups.

use std::path::PathBuf;

use hookd_core::executor::agents::{self, AgentAnswer};
use hookd_core::executor::hook_test;
use hookd_core::executor::samples;
use hookd_core::executor::{ExecReport, HookRun};
use hookd_core::settings::events::{self, EventSpec, MatchField};
use hookd_core::settings::{EffectiveHooks, Kind, MatchCheck, MatchOutcome, RunVerdict, Verdicts};
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::error::{AppError, ErrorKind, Result, core};
use crate::project::project_root;
use crate::state::AppState;

/// What the bench offers for a project: the events and the ready payloads.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct BenchCatalog {
    /// The project root the samples point into.
    pub project: String,
    /// Every event of the catalogue, in its order.
    pub events: Vec<BenchEvent>,
    /// Ready payloads, `cwd` set to the project.
    pub samples: Vec<BenchSample>,
}

/// One event of the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct BenchEvent {
    /// The agent's name, e.g. `PreToolUse`.
    pub name: String,
    /// One line saying when it fires.
    pub description: String,
    /// The payload field matchers are tested against; `null` when the event ignores matchers.
    pub match_field: Option<String>,
}

/// One ready payload.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct BenchSample {
    /// Stable id (`bash`, `mcp`, `stop`, ...).
    pub id: String,
    /// Label for the picker.
    pub label: String,
    /// Its event.
    pub event: String,
    /// The stdin JSON.
    pub payload: Value,
}

/// Which hooks of an event match a payload, and why (not).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct BenchMatch {
    /// The event, as the catalogue names it.
    pub event: String,
    /// The payload field matchers are tested against; `null`: matchers are ignored.
    pub match_field: Option<String>,
    /// That field's value in the payload; `null` when absent (or no field).
    pub target: Option<String>,
    /// Every hook of the event, in the order they are configured.
    pub hooks: Vec<BenchHook>,
    /// Settings files whose `disableAllHooks: true` turns a kind of hooks off.
    pub all_hooks_disabled_by: Vec<String>,
}

/// One hook of the event and whether it runs.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct BenchHook {
    /// Position in the project's effective hook list (0-based; `#1` is 0).
    pub index: u32,
    /// `agent` (Claude Code runs it) or `managed` (hookd's daemon runs it).
    pub kind: String,
    /// `global`, `project`, `local` or `policy`.
    pub scope: String,
    /// The settings file it comes from.
    pub file: String,
    /// Its group's matcher; `null` when absent.
    pub matcher: Option<String>,
    /// `command`, `http`, `prompt`, `mcp_tool` or `agent`.
    pub handler_type: String,
    /// What it runs: the command, URL or prompt.
    pub summary: String,
    /// Its timeout in seconds, when set.
    pub timeout: Option<f64>,
    /// `runs`, `no_match`, `disabled`, `duplicate`, `all_disabled`,
    /// `managed_only` (the policy file allows only its own hooks),
    /// `bad_matcher`, `if_not_met` (its handler's `if` rule does not match the call) or
    /// `untrusted` (its project file is not approved: `hookd trust`).
    pub outcome: String,
    /// Why, in words (`exact name Bash`, `regex found nothing in tool_name "Write"`).
    pub reason: String,
    /// It runs and "Run" executes it (a matching command hook that is not a recorder).
    pub executes: bool,
    /// One of hookd's own `hookd-emit` entries: never run by the bench, as it
    /// would record the test payload as a real event.
    pub recorder: bool,
    /// Whether it really runs for the project when its event comes, and
    /// every reason it does not (record-only, not connected, ...): the
    /// bench can run a hook the agent never would.
    pub runs: RunVerdict,
}

/// What running the matching hooks gave.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct BenchRun {
    /// The match the run was made from.
    pub matched: BenchMatch,
    /// One entry per hook run, in configuration order.
    pub runs: Vec<BenchHookRun>,
    /// The merged result, as the agent would see it.
    pub result: BenchResult,
    /// The same result as each coding agent would get it, in its own output
    /// contract (Claude Code first), with what it could not take.
    pub agents: Vec<AgentAnswer>,
    /// Wall time of the whole event, in milliseconds.
    pub duration_ms: f64,
}

/// One hook's run.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct BenchHookRun {
    /// The hook ([`BenchHook::index`]).
    pub index: u32,
    /// The command run with `sh -c`.
    pub command: String,
    /// Its settings file.
    pub file: String,
    /// Exit code; `null` when killed (timeout, signal) or never started.
    pub exit_code: Option<i32>,
    /// hookd killed it at its timeout.
    pub timed_out: bool,
    /// From spawn to output drained, in milliseconds.
    pub duration_ms: f64,
    /// Its stdout (capped at 1 MiB).
    pub stdout: String,
    /// Its stderr (capped at 1 MiB).
    pub stderr: String,
    /// stdout or stderr went past the cap.
    pub truncated: bool,
    /// Its decision: `deny`, `allow`, `ask`, `defer`, `block`, `stop`; `null`: none.
    pub decision: Option<String>,
    /// Why it decided so (stderr of exit 2, or the JSON reason).
    pub reason: Option<String>,
    /// Why (part of) its JSON output was ignored.
    pub json_error: Option<String>,
    /// A non-blocking problem (exit 1, timeout, could not start): the note the agent would show.
    pub error: Option<String>,
}

/// The merged reply, exactly what the agent's hook process would print and exit with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct BenchResult {
    /// Exit code: 0, 2 (blocking) or 1 (a hook failed, the action proceeds).
    pub exit_code: i32,
    /// What goes to stdout (JSON or empty).
    pub stdout: String,
    /// What goes to stderr (the reason, for exit 2).
    pub stderr: String,
    /// The merged decision: `deny`, `allow`, `ask`, `defer`, `block`, `stop`; `null`: none.
    pub decision: Option<String>,
    /// The reasons of the winning decision, joined with newlines.
    pub reason: Option<String>,
    /// Notes about hooks that failed without deciding anything.
    pub errors: Vec<String>,
}

/// The events and sample payloads for `project`.
pub fn bench_samples(state: &AppState, project: &str) -> Result<BenchCatalog> {
    let root = project_root(project)?;
    let home = state.roots()?.home.clone();
    let events = events::EVENTS
        .iter()
        .map(|spec| BenchEvent {
            name: spec.name.to_owned(),
            description: events::description(spec.name).to_owned(),
            match_field: field_name(spec),
        })
        .collect();
    let samples = samples::samples(&root, &home)
        .into_iter()
        .map(|s| BenchSample {
            id: s.id.to_owned(),
            label: s.label.to_owned(),
            event: s.event.to_owned(),
            payload: s.payload,
        })
        .collect();
    Ok(BenchCatalog {
        project: root.display().to_string(),
        events,
        samples,
    })
}

/// Every hook of `event` in `project` (both kinds), with whether it runs for
/// `payload` and why (not). Nothing is executed.
pub fn bench_match(
    state: &AppState,
    project: &str,
    event: &str,
    payload: &Value,
) -> Result<BenchMatch> {
    let input = Input::resolve(state, project, event, payload)?;
    let view = input.view(state)?;
    let verdicts = input.verdicts(state, &view)?;
    Ok(match_of(input.spec, payload, &view, &verdicts))
}

/// Runs the hooks of `event` that match `payload` (agent and managed command
/// hooks alike, for real, in the project directory) through the core's
/// executor, and reports each run and the merged reply. Blocks until every
/// hook has finished or hit its timeout.
pub fn bench_run(
    state: &AppState,
    project: &str,
    event: &str,
    payload: &Value,
) -> Result<BenchRun> {
    let input = Input::resolve(state, project, event, payload)?;
    let view = input.view(state)?;
    let verdicts = input.verdicts(state, &view)?;
    let matched = match_of(input.spec, payload, &view, &verdicts);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|err| AppError::internal(format!("cannot start a runtime to run hooks: {err}")))?;
    let in_flight = state.bench_runs.start();
    let report = runtime.block_on(async {
        tokio::select! {
            report = hook_test::run_matching(input.spec, payload, &input.root, &view) => Some(report),
            // Dropping the run kills every hook's process group (the executor's guard).
            () = in_flight.token.cancelled() => None,
        }
    });
    let Some(report) = report else {
        tracing::info!(event = input.spec.name, project = %input.root.display(), "test bench run cancelled");
        return Err(AppError::new(
            ErrorKind::Cancelled,
            "the run was cancelled: its hooks were stopped before they finished",
        ));
    };
    tracing::info!(
        event = input.spec.name,
        project = %input.root.display(),
        hooks = report.runs.len(),
        decision = report.outcome.decision().unwrap_or("none"),
        "test bench ran hooks"
    );
    Ok(run_of(matched, &report))
}

/// Stops every test bench run in flight; returns how many there were.
pub fn bench_cancel(state: &AppState) -> usize {
    state.bench_runs.cancel_all()
}

/// The checked arguments of a match or run.
struct Input {
    spec: &'static EventSpec,
    root: PathBuf,
}

impl Input {
    fn resolve(state: &AppState, project: &str, event: &str, payload: &Value) -> Result<Self> {
        let spec = events::lookup(event).ok_or_else(|| {
            AppError::invalid_input(format!(
                "unknown event {event:?}: pick one of the catalogue (PreToolUse, Stop, ...)"
            ))
        })?;
        if !payload.is_object() {
            return Err(AppError::invalid_input(
                "the payload must be a JSON object (what the agent sends on stdin)",
            ));
        }
        state.roots()?;
        Ok(Self {
            spec,
            root: project_root(project)?,
        })
    }

    fn view(&self, state: &AppState) -> Result<EffectiveHooks> {
        hook_test::load_view(state.roots()?, &Kind::ALL, &self.root).map_err(core)
    }

    fn verdicts(&self, state: &AppState, view: &EffectiveHooks) -> Result<Verdicts> {
        Verdicts::read(state.roots()?, Some(&self.root), view).map_err(core)
    }
}

fn field_name(spec: &EventSpec) -> Option<String> {
    match spec.matcher {
        MatchField::None => None,
        MatchField::Payload(field) => Some(field.to_owned()),
    }
}

fn match_of(
    spec: &'static EventSpec,
    payload: &Value,
    view: &EffectiveHooks,
    verdicts: &Verdicts,
) -> BenchMatch {
    let hooks = view
        .matching_all(spec.name, payload)
        .iter()
        .map(|check| hook_of(check, verdicts))
        .collect();
    BenchMatch {
        event: spec.name.to_owned(),
        match_field: field_name(spec),
        target: events::match_target(spec, payload).map(str::to_owned),
        hooks,
        all_hooks_disabled_by: view
            .all_disabled_by
            .iter()
            .map(|l| l.path.display().to_string())
            .collect(),
    }
}

fn hook_of(check: &MatchCheck<'_>, verdicts: &Verdicts) -> BenchHook {
    let hook = check.hook;
    let outcome = match check.outcome {
        MatchOutcome::Runs(_) => "runs",
        MatchOutcome::NoMatch { .. } => "no_match",
        MatchOutcome::Disabled => "disabled",
        MatchOutcome::Duplicate(_) => "duplicate",
        MatchOutcome::AllHooksDisabled(_) => "all_disabled",
        MatchOutcome::ManagedHooksOnly(_) => "managed_only",
        MatchOutcome::BadMatcher => "bad_matcher",
        MatchOutcome::Untrusted(_) => "untrusted",
        MatchOutcome::IfNotMet(_) => "if_not_met",
    };
    let runs = matches!(check.outcome, MatchOutcome::Runs(_));
    let recorder = hook_test::is_recorder(hook);
    let mut reason = hook_test::match_reason(check, |p| p.display().to_string());
    if runs && recorder {
        reason.push_str(
            "; hookd's own recorder, not run here (it would record this test as a real event)",
        );
    }
    BenchHook {
        index: index_u32(check.index),
        kind: hook.kind.as_str().to_owned(),
        scope: hook.scope.as_str().to_owned(),
        file: hook.path.display().to_string(),
        matcher: hook.matcher.clone(),
        handler_type: hook.handler_type.clone(),
        summary: hook.summary(),
        timeout: hook.timeout,
        outcome: outcome.to_owned(),
        reason,
        executes: runs && hook.command.is_some() && !recorder,
        recorder,
        runs: verdicts.get(check.index).cloned().unwrap_or(RunVerdict {
            runs: true,
            reasons: Vec::new(),
        }),
    }
}

fn run_of(matched: BenchMatch, report: &ExecReport) -> BenchRun {
    // The executor reports one run per invocation, in invocation order, and
    // the invocations are the executing hooks (matching commands that are not
    // recorders, see `hook_test::run_matching`) in configuration order.
    let executed: Vec<u32> = matched
        .hooks
        .iter()
        .filter(|h| h.executes)
        .map(|h| h.index)
        .collect();
    let runs = report
        .runs
        .iter()
        .zip(executed)
        .map(|(run, index)| hook_run_of(index, run))
        .collect();
    let reply = report.outcome.reply();
    BenchRun {
        matched,
        runs,
        result: BenchResult {
            exit_code: reply.exit_code,
            stdout: reply.stdout,
            stderr: reply.stderr,
            decision: report.outcome.decision().map(str::to_owned),
            reason: hook_test::outcome_reason(&report.outcome),
            errors: report.outcome.errors.clone(),
        },
        agents: agents::every_agent(&report.outcome),
        duration_ms: report.duration.as_secs_f64() * 1e3,
    }
}

fn hook_run_of(index: u32, run: &HookRun) -> BenchHookRun {
    BenchHookRun {
        index,
        command: run.invocation.command.clone(),
        file: run.invocation.source.display().to_string(),
        exit_code: run.exit_code,
        timed_out: run.timed_out,
        duration_ms: run.duration.as_secs_f64() * 1e3,
        stdout: run.stdout.clone(),
        stderr: run.stderr.clone(),
        truncated: run.stdout_truncated || run.stderr_truncated,
        decision: run.effect.decision().map(str::to_owned),
        reason: hook_test::run_reason(&run.effect),
        json_error: run.json_error.clone(),
        error: run.effect.error.as_ref().map(ToString::to_string),
    }
}

fn index_u32(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}
