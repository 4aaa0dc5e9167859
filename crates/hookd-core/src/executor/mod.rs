//! The hook executor: runs the "managed" command hooks of one event with
//! Claude Code's exact contract, and answers the agent with one [`Reply`]
//! that stands in for all of them.
//!
//! The agent calls a single `hookd-emit` hook; hookd runs the hooks it
//! manages and must then print and exit exactly as the agent expects of one
//! hook, or the hooks' decisions would be lost (or invented). Contract source:
//! `docs/hooks-contract.md`; per-event facts come from
//! [`crate::settings::events`].
//!
//! # Running ([`process`])
//! - Each hook is `sh -c <command>`, cwd = project root, env adds
//!   `CLAUDE_PROJECT_DIR` and `HOOKD_PROJECT_ROOT` (= project root), stdin =
//!   the payload JSON, then closed. No TTY: stdin/stdout/stderr are pipes and
//!   the hook leads its own process group (`process_group(0)`), in the
//!   background as far as any terminal is concerned. `kill_on_drop(true)`.
//! - All hooks of an event run in parallel.
//! - Timeout per hook: [`HookInvocation::timeout`], else the event's default
//!   (600 s; UserPromptSubmit 30 s). On timeout the WHOLE process group gets
//!   SIGKILL (children that ignore SIGTERM included), the hook is reaped and
//!   counts as "timed out, no decision": the event proceeds.
//! - After a hook exits, its group is killed too, so `sleep 100 &` neither
//!   lingers nor holds the output pipes; reading the pipes after exit is
//!   bounded by [`DRAIN_GRACE`] (a `setsid` escapee may keep them open).
//!   Deliberately detached work must leave the group (`setsid`, `nohup`
//!   alone is not enough).
//! - stdout and stderr are each capped at [`OUTPUT_CAP_BYTES`] (1 MiB), read
//!   past the cap so the hook never blocks, and flagged as truncated. Text
//!   the agent will see is capped at [`TEXT_CAP_CHARS`] (10,000 characters),
//!   per hook and again after joining.
//! - A command that cannot be started is a non-blocking error.
//!
//! # What one run means ([`HookEffect`], [`outcome::assess`])
//! - Exit 0: stdout whose first non-space character is `{` is parsed as
//!   JSON ([`HookOutput`]); otherwise plain stdout is context for the model
//!   on events with `stdout_is_context` (UserPromptSubmit,
//!   UserPromptExpansion, SessionStart) and debug-only elsewhere. Invalid
//!   JSON, or a wrongly typed known field, rejects the whole output (no
//!   decision) with a precise [`HookRun::json_error`] and a non-blocking
//!   error note. A `hookSpecificOutput` without `hookEventName` equal to the
//!   event is ignored on its own (and said so), as Claude Code does. Fields
//!   at the wrong level, fields that do nothing for the event, and JSON
//!   preceded by other text are noted the same way.
//! - JSON fields: `continue: false` stops the agent (with `stopReason`);
//!   `systemMessage` goes to the user; `suppressOutput`; top-level
//!   `decision: "block"` + `reason` on events with `decision_block`;
//!   legacy PreToolUse top-level `approve`/`block` → allow/deny (overridden
//!   by `hookSpecificOutput.permissionDecision`); PreToolUse
//!   `permissionDecision` (allow|deny|ask|defer), `permissionDecisionReason`,
//!   `updatedInput`; PermissionRequest `decision` {behavior, updatedInput,
//!   updatedPermissions, message}; PostToolUse `updatedToolOutput`;
//!   `additionalContext` on any event.
//! - Exit 2, per [`crate::settings::events::ExitTwo`]: Blocks / KeepsGoing /
//!   FeedsModel → a block whose reason is stderr (stdout JSON is ignored,
//!   and noted; only when stderr is empty does the JSON `reason` stand in,
//!   else "hook `cmd` exited with code 2 (no stderr output)"); ShowsUser →
//!   stderr becomes a message for the user; Ignored → nothing.
//! - Any other exit code, a signal, a timeout, a spawn failure: a
//!   non-blocking error note (for an exit code, with stderr's first line);
//!   the action proceeds.
//!
//! # Merging the runs of one event ([`Outcome::merge`], in finish order)
//! - `continue: false` from any run stops the agent; the first `stopReason`
//!   by finish order wins. This dominates everything.
//! - PreToolUse: deny > defer > ask > allow, exit-2 blocks counting as deny;
//!   the reasons of the winning level are joined with newlines.
//!   `updatedInput`: the last run to finish that returned one.
//! - PermissionRequest: deny > allow (deny messages joined; on allow the last
//!   `updatedInput` and all `updatedPermissions` rules).
//! - Other events: any exit-2 block or JSON `decision: "block"` blocks;
//!   reasons joined with newlines.
//! - Contexts, system messages and error notes: concatenated (newline) in
//!   finish order. `updatedToolOutput`: the last to finish.
//!
//! # The reply ([`Outcome::reply`])
//! 1. Nothing said by any hook → exit 0, empty stdout.
//! 2. Stopped → exit 0, `{"continue": false, "stopReason", "systemMessage",
//!    "suppressOutput"}`.
//! 3. PreToolUse with a decision → if it is a deny that came only from
//!    exit 2 and nothing else needs saying (context, message, updated
//!    output) → exit 2 with the joined reasons on stderr; otherwise exit 0
//!    with `hookSpecificOutput {hookEventName, permissionDecision,
//!    permissionDecisionReason, updatedInput (not on deny),
//!    additionalContext}` plus `systemMessage`/`suppressOutput`.
//! 4. Blocked (other events) → exit 2 with the joined reasons when the
//!    event has no JSON block form (TaskCreated, TeammateIdle, ...) or when
//!    every block came from exit 2 and nothing else needs saying; otherwise
//!    exit 0 with top-level `decision: "block"` + `reason` (for PostToolUse
//!    that feeds the model exactly like exit 2, for Stop it keeps the agent
//!    going), plus `systemMessage`, `suppressOutput` and `hookSpecificOutput`
//!    (`additionalContext`, `updatedToolOutput`) when present.
//! 5. Otherwise exit 0 with JSON holding only what applies:
//!    `systemMessage`, `suppressOutput`, and `hookSpecificOutput` with the
//!    event's `hookEventName` and `decision` (PermissionRequest),
//!    `updatedInput` (PreToolUse), `additionalContext` (JSON contexts and
//!    plain-stdout contexts alike), `updatedToolOutput` (PostToolUse).
//! 6. Exit 2 on a ShowsUser event (SessionStart, ...) is rendered as a
//!    `systemMessage`, which every event honours and which combines with
//!    other hooks' output; exit 2 would drop their context.
//! 7. Non-blocking errors (exit 1, timeout, bad JSON, spawn failure) join the
//!    `systemMessage` when a JSON reply is rendered anyway, are left out of
//!    an exit-2 reply (its stderr goes to the model), and when nothing else
//!    is said the reply is exit 1 with one stderr line `hookd: hook `cmd`
//!    exited with code 1: ...` — what Claude Code shows for a failing hook.
//!    `suppressOutput` alone renders nothing.

pub mod agents;
pub mod backtest;
pub mod hook_test;
pub mod outcome;
pub mod output;
pub mod process;
pub mod samples;

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

pub use hookd_proto::Reply;
use tokio::task::JoinSet;

pub use outcome::{
    HookEffect, MergedBlock, MergedPermission, Outcome, RunEnd, RunError, TEXT_CAP_CHARS, Verdict,
    Via, cap_text,
};
pub use output::{
    Behavior, HookOutput, HookSpecificOutput, OutputError, OutputWarning, PermissionDecision,
    PermissionRequestDecision, TopLevelDecision,
};
pub use process::{DRAIN_GRACE, OUTPUT_CAP_BYTES};

use crate::settings::events::EventSpec;

/// One command hook to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookInvocation {
    /// Shell command, run with `sh -c`.
    pub command: String,
    /// Time allowed; `None` means the event's default ([`EventSpec::default_timeout`]).
    pub timeout: Option<Duration>,
    /// Where the hook is configured ("global", "project", "local", ...), for records.
    pub scope: String,
    /// The settings file it came from, for records.
    pub source: PathBuf,
    /// The matcher text of its group, for records.
    pub matcher: Option<String>,
    /// `onFailure: "block"`: a run that cannot start, times out, is killed
    /// or exits with a code other than 0 and 2 blocks as exit code 2 would,
    /// instead of letting the action go ahead.
    pub fail_closed: bool,
}

impl HookInvocation {
    /// A hook with the event's default timeout and empty record labels.
    pub fn new(command: impl Into<String>) -> Self {
        Self {
            command: command.into(),
            timeout: None,
            scope: String::new(),
            source: PathBuf::new(),
            matcher: None,
            fail_closed: false,
        }
    }
}

/// Set to `1` in the environment of hooks run by a backtest
/// ([`backtest`]): a replay of a recorded event, not a live one.
pub const BACKTEST_ENV: &str = "HOOKD_BACKTEST";

/// What the hooks of one event run against.
#[derive(Debug, Clone)]
pub struct ExecContext {
    /// The event, from [`crate::settings::events::lookup`].
    pub event: &'static EventSpec,
    /// The hook's stdin JSON, passed serialised on each hook's stdin.
    pub payload: serde_json::Value,
    /// Working directory of each hook, also `CLAUDE_PROJECT_DIR` and `HOOKD_PROJECT_ROOT`.
    pub project_root: PathBuf,
    /// A replay of a recorded event ([`backtest`]): each hook gets
    /// `HOOKD_BACKTEST=1` in its environment, so one with side effects can
    /// skip them.
    pub backtest: bool,
}

/// One hook's run.
#[derive(Debug, Clone)]
pub struct HookRun {
    /// What was run.
    pub invocation: HookInvocation,
    /// Exit code; `None` when killed (timeout or signal) or never started.
    pub exit_code: Option<i32>,
    /// hookd killed it at its timeout.
    pub timed_out: bool,
    /// From spawn to output drained.
    pub duration: Duration,
    /// 0 for the first run of the event to finish, 1 for the next, ...
    pub finish_seq: usize,
    /// stdout, capped at [`OUTPUT_CAP_BYTES`], lossy UTF-8.
    pub stdout: String,
    /// stderr, capped at [`OUTPUT_CAP_BYTES`], lossy UTF-8.
    pub stderr: String,
    /// stdout exceeded the cap.
    pub stdout_truncated: bool,
    /// stderr exceeded the cap.
    pub stderr_truncated: bool,
    /// Parsed JSON output (exit 0 and stdout starting with `{`, valid).
    pub output: Option<HookOutput>,
    /// Why all or part of the JSON output is ignored.
    pub json_error: Option<String>,
    /// What this run means for the agent.
    pub effect: HookEffect,
    /// The command could not be started (or waited for): why.
    pub spawn_error: Option<String>,
}

/// All runs of one event and their merged outcome.
#[derive(Debug, Clone)]
pub struct ExecReport {
    /// One run per invocation, in invocation order.
    pub runs: Vec<HookRun>,
    /// The merged result, which renders the agent's reply.
    pub outcome: Outcome,
    /// Wall time of the whole event.
    pub duration: Duration,
}

/// What every run of one event shares.
struct Shared {
    event: &'static EventSpec,
    stdin: Vec<u8>,
    project_root: PathBuf,
    backtest: bool,
    finished: AtomicUsize,
}

/// Runs all `hooks` of an event in parallel and merges their results.
///
/// Never fails: a hook that cannot run is a non-blocking error in its
/// [`HookRun`]. Needs a tokio runtime; dropping the future kills every hook's
/// process group.
pub async fn run_all(ctx: &ExecContext, hooks: Vec<HookInvocation>) -> ExecReport {
    let started = Instant::now();
    let shared = Arc::new(Shared {
        event: ctx.event,
        stdin: ctx.payload.to_string().into_bytes(),
        project_root: ctx.project_root.clone(),
        backtest: ctx.backtest,
        finished: AtomicUsize::new(0),
    });
    let mut set = JoinSet::new();
    let mut task_index = HashMap::new();
    for (index, invocation) in hooks.iter().cloned().enumerate() {
        let shared = Arc::clone(&shared);
        let handle = set.spawn(async move { (index, run_one(&shared, invocation).await) });
        task_index.insert(handle.id(), index);
    }
    let mut slots: Vec<Option<HookRun>> = hooks.iter().map(|_| None).collect();
    while let Some(joined) = set.join_next().await {
        match joined {
            Ok((index, run)) => slots[index] = Some(run),
            Err(e) => {
                // A panic in hookd's own code: record it against the hook.
                tracing::error!(error = %e, "hook executor task failed");
                if let Some(&index) = task_index.get(&e.id()) {
                    let seq = shared.finished.fetch_add(1, Ordering::SeqCst);
                    slots[index] = Some(not_started(
                        &shared,
                        hooks[index].clone(),
                        format!("hookd executor task failed: {e}"),
                        Duration::ZERO,
                        seq,
                    ));
                }
            }
        }
    }
    let runs: Vec<HookRun> = slots
        .into_iter()
        .zip(hooks)
        .map(|(slot, invocation)| {
            slot.unwrap_or_else(|| {
                let seq = shared.finished.fetch_add(1, Ordering::SeqCst);
                not_started(
                    &shared,
                    invocation,
                    "hookd executor lost the run".into(),
                    Duration::ZERO,
                    seq,
                )
            })
        })
        .collect();
    let mut by_finish: Vec<&HookRun> = runs.iter().collect();
    by_finish.sort_by_key(|r| r.finish_seq);
    let outcome = Outcome::merge(
        ctx.event,
        by_finish
            .into_iter()
            .map(|r| (r.invocation.command.as_str(), &r.effect)),
    );
    ExecReport {
        runs,
        outcome,
        duration: started.elapsed(),
    }
}

async fn run_one(shared: &Shared, invocation: HookInvocation) -> HookRun {
    let timeout = invocation
        .timeout
        .unwrap_or_else(|| shared.event.default_timeout());
    let root = shared.project_root.as_os_str();
    let mut env: Vec<(&str, &OsStr)> =
        vec![("CLAUDE_PROJECT_DIR", root), ("HOOKD_PROJECT_ROOT", root)];
    if shared.backtest {
        env.push((BACKTEST_ENV, OsStr::new("1")));
    }
    let started = Instant::now();
    let result = process::run(process::ProcessRequest {
        command: &invocation.command,
        cwd: &shared.project_root,
        env: &env,
        stdin: &shared.stdin,
        timeout,
    })
    .await;
    let duration = started.elapsed();
    let finish_seq = shared.finished.fetch_add(1, Ordering::SeqCst);
    let finished = match result {
        Ok(finished) => finished,
        Err(e) => return not_started(shared, invocation, e.to_string(), duration, finish_seq),
    };
    let stdout = String::from_utf8_lossy(&finished.stdout.bytes).into_owned();
    let stderr = String::from_utf8_lossy(&finished.stderr.bytes).into_owned();
    let end = RunEnd::from(finished.termination);
    let assessment = outcome::assess(shared.event, &end, &stdout, &stderr, &invocation.command);
    let assessment = outcome::fail_closed(shared.event, &end, &invocation, assessment);
    HookRun {
        exit_code: match end {
            RunEnd::Exited(code) => Some(code),
            _ => None,
        },
        timed_out: matches!(end, RunEnd::TimedOut(_)),
        duration,
        finish_seq,
        stdout,
        stderr,
        stdout_truncated: finished.stdout.truncated,
        stderr_truncated: finished.stderr.truncated,
        output: assessment.output,
        json_error: assessment.json_error,
        effect: assessment.effect,
        spawn_error: None,
        invocation,
    }
}

fn not_started(
    shared: &Shared,
    invocation: HookInvocation,
    message: String,
    duration: Duration,
    finish_seq: usize,
) -> HookRun {
    let end = RunEnd::NotStarted(message.clone());
    let assessment = outcome::assess(shared.event, &end, "", "", &invocation.command);
    let assessment = outcome::fail_closed(shared.event, &end, &invocation, assessment);
    HookRun {
        invocation,
        exit_code: None,
        timed_out: false,
        duration,
        finish_seq,
        stdout: String::new(),
        stderr: String::new(),
        stdout_truncated: false,
        stderr_truncated: false,
        output: None,
        json_error: None,
        effect: assessment.effect,
        spawn_error: Some(message),
    }
}
