//! Backtesting: what a draft would have decided on this project's real
//! history, before it is saved.
//!
//! The last N recorded events are replayed against two views of the hooks:
//! the current configuration and the draft (one hook added, or a settings
//! file as it would be saved). For each event, only the command hooks that
//! differ between the two run: the draft's new or changed ones, and the
//! current ones the draft drops. Hooks both share are never run again, so
//! a formatter or a notifier the user already has does not fire N times.
//! The difference of their merged outcomes is the answer: calls the draft
//! would have blocked (or no longer blocked), inputs it would have
//! rewritten, runs that would have failed.
//!
//! Runs are bounded: N events, `jobs` events at a time, each hook's
//! timeout capped. Every hook sees `HOOKD_BACKTEST=1`, and nothing is sent
//! to any agent: the outcomes are only reported.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use super::{ExecContext, HookInvocation, HookRun, Outcome, run_all};
use crate::ledger::hook_stats::RecordedEvent;
use crate::settings::events;
use crate::settings::{EffectiveHooks, MatchedHook};

/// How much a backtest may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BacktestLimits {
    /// Events replayed (the newest).
    pub events: usize,
    /// Events replayed at once.
    pub jobs: usize,
    /// Longest any one hook may run.
    pub timeout: Duration,
}

impl Default for BacktestLimits {
    fn default() -> Self {
        Self {
            events: 200,
            jobs: 2,
            timeout: Duration::from_secs(10),
        }
    }
}

/// One event on which the draft decides differently.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BacktestChange {
    /// The recorded event.
    pub event_id: String,
    /// When it happened.
    pub timestamp: String,
    /// Its event name (`PreToolUse`).
    pub event: String,
    /// The tool, for tool events.
    pub tool_name: Option<String>,
    /// What the call was about: the command, file path or prompt.
    pub subject: Option<String>,
    /// What the hooks the draft drops decided (`deny`, `block`, ...).
    pub before: Option<String>,
    /// What the draft's new hooks decide.
    pub after: Option<String>,
    /// Why, in the draft's words.
    pub reason: Option<String>,
    /// The draft rewrites the tool input (`updatedInput`) to this.
    pub rewritten_input: Option<serde_json::Value>,
    /// The draft's runs that failed (non-blocking errors, timeouts).
    pub failures: Vec<String>,
}

/// What a backtest found.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BacktestReport {
    /// Events replayed.
    pub events: usize,
    /// Of which the changed hooks matched (and so ran).
    pub matched: usize,
    /// Hook runs done.
    pub runs: usize,
    /// The events where the draft would have changed something.
    pub changes: Vec<BacktestChange>,
    /// The time span replayed (oldest, newest).
    pub span: Option<(String, String)>,
}

/// Replays the newest `limits.events` of `recorded` (oldest first) in
/// `project_root` against `current` and `draft`; see the module
/// documentation.
pub async fn backtest(
    mut recorded: Vec<RecordedEvent>,
    project_root: &std::path::Path,
    current: &EffectiveHooks,
    draft: &EffectiveHooks,
    limits: BacktestLimits,
) -> BacktestReport {
    let recorded = recorded.split_off(recorded.len().saturating_sub(limits.events));
    let span = recorded
        .first()
        .zip(recorded.last())
        .map(|(a, b)| (a.timestamp.clone(), b.timestamp.clone()));
    let total = recorded.len();
    let jobs = Arc::new(tokio::sync::Semaphore::new(limits.jobs.max(1)));
    let mut set = tokio::task::JoinSet::new();
    for (order, event) in recorded.into_iter().enumerate() {
        let Some(spec) = events::lookup(&event.hook_type) else {
            continue;
        };
        if !event.payload.is_object() {
            continue;
        }
        let before = invocations(current, spec.name, &event.payload, limits.timeout);
        let after = invocations(draft, spec.name, &event.payload, limits.timeout);
        let added: Vec<HookInvocation> = after
            .iter()
            .filter(|a| !before.iter().any(|b| same(a, b)))
            .cloned()
            .collect();
        let dropped: Vec<HookInvocation> = before
            .iter()
            .filter(|b| !after.iter().any(|a| same(a, b)))
            .cloned()
            .collect();
        if added.is_empty() && dropped.is_empty() {
            continue;
        }
        let ctx = ExecContext {
            event: spec,
            payload: event.payload.clone(),
            project_root: project_root.to_path_buf(),
            backtest: true,
        };
        let jobs = Arc::clone(&jobs);
        set.spawn(async move {
            let _permit = jobs.acquire_owned().await;
            let n_added = added.len();
            let hooks: Vec<HookInvocation> = added.into_iter().chain(dropped).collect();
            let report = run_all(&ctx, hooks).await;
            let (new, old) = report.runs.split_at(n_added);
            (
                order,
                event,
                ctx.event,
                merged(ctx.event, new),
                merged(ctx.event, old),
                report.runs.len(),
            )
        });
    }
    let mut found = Vec::new();
    let mut matched = 0;
    let mut runs = 0;
    while let Some(done) = set.join_next().await {
        let Ok((order, event, spec, after, before, n)) = done else {
            continue;
        };
        matched += 1;
        runs += n;
        let failures: Vec<String> = after.errors.clone();
        let changed = after.decision() != before.decision()
            || after.updated_input.is_some()
            || !failures.is_empty();
        if !changed {
            continue;
        }
        let reason = after
            .permission
            .as_ref()
            .map(|p| p.reasons.join("; "))
            .or_else(|| after.block.as_ref().map(|b| b.reasons.join("; ")))
            .or_else(|| after.stop_reason.clone())
            .filter(|r| !r.is_empty());
        found.push((
            order,
            BacktestChange {
                event_id: event.event_id,
                timestamp: event.timestamp,
                event: spec.name.to_owned(),
                subject: subject(&event.payload),
                tool_name: event.tool_name,
                before: before.decision().map(str::to_owned),
                after: after.decision().map(str::to_owned),
                reason,
                rewritten_input: after.updated_input,
                failures,
            },
        ));
    }
    found.sort_by_key(|(order, _)| *order);
    BacktestReport {
        events: total,
        matched,
        runs,
        changes: found.into_iter().map(|(_, c)| c).collect(),
        span,
    }
}

/// The command hooks of `view` that run for this event, timeouts capped.
fn invocations(
    view: &EffectiveHooks,
    event: &str,
    payload: &serde_json::Value,
    cap: Duration,
) -> Vec<HookInvocation> {
    view.matching(event, payload)
        .iter()
        .filter_map(MatchedHook::invocation)
        .map(|mut inv| {
            inv.timeout = Some(inv.timeout.map_or(cap, |t| t.min(cap)));
            inv
        })
        .collect()
}

/// The same hook in both views: same file, command and failure rule.
fn same(a: &HookInvocation, b: &HookInvocation) -> bool {
    a.command == b.command && a.source == b.source && a.fail_closed == b.fail_closed
}

fn merged(event: &'static events::EventSpec, runs: &[HookRun]) -> Outcome {
    let mut by_finish: Vec<&HookRun> = runs.iter().collect();
    by_finish.sort_by_key(|r| r.finish_seq);
    Outcome::merge(
        event,
        by_finish
            .into_iter()
            .map(|r| (r.invocation.command.as_str(), &r.effect)),
    )
}

/// What a call was about, for the report: a command, a path, a prompt.
fn subject(payload: &serde_json::Value) -> Option<String> {
    let input = payload.get("tool_input");
    [
        input.and_then(|i| i.get("command")),
        input.and_then(|i| i.get("file_path")),
        input.and_then(|i| i.get("notebook_path")),
        payload.get("prompt"),
    ]
    .into_iter()
    .flatten()
    .find_map(serde_json::Value::as_str)
    .map(|s| s.chars().take(200).collect())
}
