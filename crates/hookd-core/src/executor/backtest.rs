//! Backtesting: what a draft would have decided on this project's real
//! history, before it is saved.
//!
//! The last N recorded events are replayed against two views of the hooks:
//! the current configuration and the draft (one hook added, or a settings
//! file as it would be saved). For each event, only the draft's new or
//! changed command hooks run. The hooks the user already has are never run
//! again, so a formatter or a notifier does not fire N times: what the
//! current hooks the draft drops decided is read from the ledger's
//! `hook_runs` (managed hooks are recorded there; the agent's own hooks
//! are not, and their decision is reported as unknown). The difference is
//! the answer: calls the draft would have blocked (or no longer blocked),
//! inputs it would have rewritten, runs that would have failed.
//!
//! Runs are bounded: N events, `jobs` events at a time, each hook's
//! timeout capped. Every hook sees `HOOKD_BACKTEST=1`, and nothing is sent
//! to any agent: the outcomes are only reported.
//!
//! A replay of a slow hook over hundreds of events takes minutes, so the
//! caller is told as events finish ([`BacktestProgress`]): the app shows
//! "N of M events replayed", the CLI a line on a terminal.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use std::path::Path;

use super::{ExecContext, HookInvocation, run_all};
use crate::ledger::Ledger;
use crate::ledger::hook_stats::{RecordedEvent, RecordedRun};
use crate::settings::events;
use crate::settings::{
    EffectiveHooks, MatchedHook, SettingsDocument, SettingsError, SettingsLocation, SettingsRoots,
    add_hook, command_handler, effective_lenient_in, validate,
};

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
    /// What the hooks the draft drops decided (`deny`, `block`, ...), as
    /// the ledger recorded it.
    pub before: Option<String>,
    /// Some hook the draft drops has no recorded run for this event (an
    /// agent hook): `before` may be missing its decision.
    pub before_unknown: bool,
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
    /// Of which the draft's changes matched.
    pub matched: usize,
    /// Hook runs done.
    pub runs: usize,
    /// The events where the draft would have changed something.
    pub changes: Vec<BacktestChange>,
    /// The time span replayed (oldest, newest).
    pub span: Option<(String, String)>,
}

/// How far a backtest is: sent to the caller's progress callback once the
/// events with nothing to run are counted, and again as each replayed
/// event finishes (the last one has `replayed == events`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BacktestProgress {
    /// Events done: replayed, or with nothing of the draft's to run.
    pub replayed: usize,
    /// Events the backtest replays in all.
    pub events: usize,
}

/// What a backtest tries.
#[derive(Debug, Clone, PartialEq)]
pub enum Draft {
    /// A whole settings file as it would be saved, in place of the file.
    File(serde_json::Value),
    /// One command hook added to the file as it is.
    Hook {
        /// Its event.
        event: String,
        /// Its group's matcher (absent or empty: none).
        matcher: Option<String>,
        /// Its command.
        command: String,
    },
}

/// What a backtest replays and compares, read from disk.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The newest recorded events, oldest first, with their managed runs.
    pub recorded: Vec<RecordedEvent>,
    /// The current hooks of the file's kind for the project.
    pub current: EffectiveHooks,
    /// The same with the draft in the file's place.
    pub draft: EffectiveHooks,
}

/// Reads what a backtest of `draft` for the settings file at `location` of
/// `project` needs: the newest `events` of the project's ledger, the
/// current view of the file's kind and the draft view. A whole-file draft
/// must be valid settings; a project without a ledger is
/// [`Error::NoLedger`](crate::Error::NoLedger). The one preparation
/// `hookd hooks backtest` and the app's Test bench share.
pub fn prepare(
    roots: &SettingsRoots,
    project: &Path,
    location: &SettingsLocation,
    draft: &Draft,
    events: usize,
) -> crate::Result<Prepared> {
    let value = match draft {
        Draft::File(value) => {
            let errors = validate(value);
            if !errors.is_empty() {
                return Err(SettingsError::Invalid {
                    path: location.path.clone(),
                    errors,
                }
                .into());
            }
            value.clone()
        }
        Draft::Hook {
            event,
            matcher,
            command,
        } => {
            let mut doc = SettingsDocument::load(location)?;
            let matcher = matcher.as_deref().filter(|m| !m.is_empty());
            add_hook(&mut doc, event, matcher, command_handler(command, None))?;
            doc.value().clone()
        }
    };
    let ledger = crate::dirs::repo_ledger_path(project);
    if !ledger.is_file() {
        return Err(crate::Error::NoLedger {
            repo: project.to_path_buf(),
            ledger,
        });
    }
    let recorded = Ledger::open_existing(&ledger)?.recent_events(events)?;
    let (current, _) = effective_lenient_in(roots, location.kind, Some(project))?;
    let draft = current.with_draft(location, &value);
    Ok(Prepared {
        recorded,
        current,
        draft,
    })
}

/// Replays the newest `limits.events` of `recorded` (oldest first) in
/// `project_root` against `current` and `draft`, telling `progress` how far
/// it is ([`BacktestProgress`]); see the module documentation.
pub async fn backtest(
    mut recorded: Vec<RecordedEvent>,
    project_root: &std::path::Path,
    current: &EffectiveHooks,
    draft: &EffectiveHooks,
    limits: BacktestLimits,
    mut progress: impl FnMut(BacktestProgress),
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
        let dropped: Vec<&HookInvocation> = before
            .iter()
            .filter(|b| !after.iter().any(|a| same(a, b)))
            .collect();
        if added.is_empty() && dropped.is_empty() {
            continue;
        }
        let recorded: Vec<Option<&RecordedRun>> = dropped
            .iter()
            .map(|inv| {
                event
                    .runs
                    .iter()
                    .find(|r| r.command == inv.command && Path::new(&r.source) == inv.source)
            })
            .collect();
        let before_unknown = recorded.iter().any(Option::is_none);
        let before_decision = strongest(
            recorded
                .iter()
                .flatten()
                .filter_map(|r| r.decision.as_deref()),
        );
        let ctx = ExecContext {
            event: spec,
            payload: event.payload.clone(),
            project_root: project_root.to_path_buf(),
            backtest: true,
        };
        let jobs = Arc::clone(&jobs);
        set.spawn(async move {
            let _permit = jobs.acquire_owned().await;
            let report = run_all(&ctx, added).await;
            (
                order,
                event,
                ctx.event,
                report.outcome,
                before_decision,
                before_unknown,
                report.runs.len(),
            )
        });
    }
    // Every event not spawned had nothing of the draft's to run: done already.
    let mut replayed = total - set.len();
    progress(BacktestProgress {
        replayed,
        events: total,
    });
    let mut found = Vec::new();
    let mut matched = 0;
    let mut runs = 0;
    while let Some(done) = set.join_next().await {
        replayed += 1;
        progress(BacktestProgress {
            replayed,
            events: total,
        });
        let Ok((order, event, spec, after, before, before_unknown, n)) = done else {
            continue;
        };
        matched += 1;
        runs += n;
        let failures: Vec<String> = after.errors.clone();
        let changed = after.decision() != before.as_deref()
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
                before,
                before_unknown,
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

/// The strongest of recorded decisions, in the agent's merge order:
/// a stop, then deny, block, defer, ask, allow.
fn strongest<'a>(decisions: impl Iterator<Item = &'a str>) -> Option<String> {
    const ORDER: [&str; 6] = ["stop", "deny", "block", "defer", "ask", "allow"];
    decisions
        .min_by_key(|d| ORDER.iter().position(|o| o == d).unwrap_or(ORDER.len()))
        .map(str::to_owned)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Kind, Scope};
    use serde_json::json;

    fn bash_call(n: usize, tool: &str) -> RecordedEvent {
        RecordedEvent {
            event_id: format!("e{n}"),
            hook_type: "pre_tool_use".to_owned(),
            timestamp: format!("2026-01-01T00:00:0{n}Z"),
            tool_name: Some(tool.to_owned()),
            payload: json!({"hook_event_name": "PreToolUse", "tool_name": tool,
                "tool_input": {"command": format!("echo {n}")}}),
            runs: Vec::new(),
        }
    }

    #[tokio::test]
    async fn progress_counts_every_event_once_and_ends_at_the_total() {
        let dir = tempfile::tempdir().unwrap();
        let location = SettingsLocation {
            kind: Kind::Managed,
            scope: Scope::Project,
            path: dir.path().join("settings.json"),
            read_only: false,
            trust_store: None,
            kept_store: None,
            backup_store: None,
            comments: false,
        };
        let current = EffectiveHooks::default();
        let draft = current.with_draft(
            &location,
            &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                "hooks": [{"type": "command", "command": "exit 0"}]}]}}),
        );
        // Two Bash calls the draft runs on, one Write call it does not match.
        let recorded = vec![
            bash_call(1, "Bash"),
            bash_call(2, "Write"),
            bash_call(3, "Bash"),
        ];
        let mut seen = Vec::new();
        let report = backtest(
            recorded,
            dir.path(),
            &current,
            &draft,
            BacktestLimits::default(),
            |p| seen.push((p.replayed, p.events)),
        )
        .await;
        assert_eq!(report.matched, 2, "{report:?}");
        // The Write call is done at once; each Bash call as its run ends.
        assert_eq!(seen, vec![(1, 3), (2, 3), (3, 3)]);
    }

    #[test]
    fn the_strongest_recorded_decision_wins_as_the_agent_merges() {
        assert_eq!(
            strongest(["allow", "deny", "ask"].into_iter()).as_deref(),
            Some("deny")
        );
        assert_eq!(
            strongest(["ask", "block"].into_iter()).as_deref(),
            Some("block")
        );
        assert_eq!(
            strongest(["deny", "stop"].into_iter()).as_deref(),
            Some("stop")
        );
        assert_eq!(strongest(std::iter::empty()), None);
    }
}
