//! Figure 5: what the hook executor adds to an event beyond the cost of the
//! hook processes themselves, with 10 matching hooks run in parallel.
//!
//! A hook process costs what it costs (fork, exec of `sh`, its own work)
//! whoever starts it; the executor's promise is about what it adds on top:
//! pipes for stdin/stdout/stderr, a process group per hook, writing the
//! payload, draining and capping output, killing the group after exit,
//! parsing JSON output and merging ten results into one reply. So each
//! event is timed twice, alternately, on the same two-worker runtime the
//! daemon uses: once spawning the same 10 `sh -c` commands directly with
//! `tokio::process` (one task each, as the executor does, stdio to
//! /dev/null) and waiting for all, and once through
//! `hookd_core::executor::run_all`. The difference of the medians is the
//! executor's overhead.
//!
//! Two variants: hooks that print nothing (`exit 0`), and hooks that each
//! print a `PreToolUse` permission decision, so JSON parsing and merging are
//! included; their baseline runs the same command with stdout to /dev/null.
//! Every executor run is checked: 10 runs, all exit 0, and in the JSON
//! variant a merged `allow`.

use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail, ensure};
use hookd_core::executor::{self, ExecContext, ExecReport, HookInvocation};
use hookd_core::settings::events;
use serde::Serialize;
use tokio::task::JoinSet;

use crate::env;
use crate::stats::Summary;

/// Hooks per event.
pub const HOOKS: usize = 10;

/// Unmeasured events of each kind before the measured ones.
const WARMUP_EVENTS: usize = 10;

/// Worker threads of the runtime, as the daemon has.
const WORKER_THREADS: usize = 2;

/// The hook of the silent variant.
const SILENT_COMMAND: &str = "exit 0";

/// The hook of the JSON variant: a small `PreToolUse` decision.
const JSON_COMMAND: &str =
    r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'"#;

/// One variant's figures.
#[derive(Debug, Clone, Serialize)]
pub struct VariantReport {
    /// The command of each of the 10 hooks.
    pub hook_command: &'static str,
    /// The merged decision every executor run must produce, if any.
    pub expected_decision: Option<&'static str>,
    /// Wall time of `run_all`, call to return.
    pub executor: Summary,
    /// Wall time of spawning the same processes directly and waiting for all.
    pub baseline: Summary,
    /// Executor median − baseline median, in ms.
    pub overhead_median_ms: f64,
    /// Executor p99 − baseline p99, in ms.
    pub overhead_p99_ms: f64,
    /// Measured executor runs that passed the check.
    pub correct_events: usize,
    /// What the first failing executor run got wrong.
    pub first_problem: Option<String>,
}

impl VariantReport {
    fn new(
        variant: &Variant,
        executor: &[Duration],
        baseline: &[Duration],
        correct_events: usize,
        first_problem: Option<String>,
    ) -> Result<Self> {
        let executor = Summary::of(executor).context("no executor samples")?;
        let baseline = Summary::of(baseline).context("no baseline samples")?;
        Ok(Self {
            hook_command: variant.command,
            expected_decision: variant.expected_decision,
            overhead_median_ms: executor.median_ms - baseline.median_ms,
            overhead_p99_ms: executor.p99_ms - baseline.p99_ms,
            executor,
            baseline,
            correct_events,
            first_problem,
        })
    }
}

/// Result of the executor measurement.
#[derive(Debug, Clone, Serialize)]
pub struct ExecutorReport {
    /// Measured events of each kind (executor and baseline, in each variant).
    pub runs: usize,
    /// Hooks per event.
    pub hooks: usize,
    /// Size of the payload each hook gets on stdin, in bytes.
    pub payload_bytes: usize,
    /// Hooks that print nothing.
    pub silent: VariantReport,
    /// Hooks that print a JSON `allow`.
    pub json: VariantReport,
}

impl ExecutorReport {
    /// True when every measured executor run of both variants passed its check.
    pub fn all_correct(&self) -> bool {
        self.silent.correct_events == self.runs && self.json.correct_events == self.runs
    }
}

/// What one variant runs and expects.
#[derive(Debug, Clone, Copy)]
struct Variant {
    command: &'static str,
    expected_decision: Option<&'static str>,
}

const VARIANTS: [Variant; 2] = [
    Variant {
        command: SILENT_COMMAND,
        expected_decision: None,
    },
    Variant {
        command: JSON_COMMAND,
        expected_decision: Some("allow"),
    },
];

/// Samples and checks of one variant, as they accumulate.
#[derive(Default)]
struct Samples {
    executor: Vec<Duration>,
    baseline: Vec<Duration>,
    correct: usize,
    first_problem: Option<String>,
}

/// Runs `runs` measured events of each kind in each variant.
pub fn run(runs: usize) -> Result<ExecutorReport> {
    ensure!(runs > 0, "--executor-runs must be at least 1");
    let project = tempfile::Builder::new()
        .prefix("hookd-bench-exec-")
        .tempdir()
        .context("cannot create a temp dir")?;
    let root = project
        .path()
        .canonicalize()
        .context("cannot resolve the temp dir")?;
    let event = events::lookup("PreToolUse").context("PreToolUse is not a known event")?;
    let payload = env::bash_payload(&root, &env::session_id(5), "toolu_exec_000000");
    let payload_bytes = payload.to_string().len();
    let ctx = Arc::new(ExecContext {
        event,
        payload,
        project_root: root,
        backtest: false,
    });

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(WORKER_THREADS)
        .thread_name("hookd-bench-exec")
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    eprintln!(
        "[executor] {WARMUP_EVENTS} warm-up + {runs} measured events of {HOOKS} hooks, \
         executor and direct spawns alternating, 2 variants ({payload_bytes} B payload)"
    );
    // The loop runs as a task on a worker, where the daemon's connection
    // tasks call the executor, not on the thread blocked in `block_on`.
    let samples = runtime
        .block_on(runtime.spawn(measure(ctx, runs)))
        .context("the measuring task panicked")??;
    runtime.shutdown_timeout(Duration::from_secs(5));

    let [silent, json] = samples;
    let report = |variant: &Variant, s: Samples| {
        VariantReport::new(
            variant,
            &s.executor,
            &s.baseline,
            s.correct,
            s.first_problem,
        )
    };
    Ok(ExecutorReport {
        runs,
        hooks: HOOKS,
        payload_bytes,
        silent: report(&VARIANTS[0], silent)?,
        json: report(&VARIANTS[1], json)?,
    })
}

/// The measuring loop: per event, each variant's executor run and baseline,
/// in an order that alternates so neither always goes first.
async fn measure(ctx: Arc<ExecContext>, runs: usize) -> Result<[Samples; 2]> {
    let mut samples: [Samples; 2] = Default::default();
    let mut last_progress = Instant::now();
    for i in 0..WARMUP_EVENTS + runs {
        let measured = i >= WARMUP_EVENTS;
        for (variant, samples) in VARIANTS.iter().zip(samples.iter_mut()) {
            let (executor_time, report, baseline_time) = if i % 2 == 0 {
                let (time, report) = through_executor(&ctx, variant.command).await;
                (
                    time,
                    report,
                    spawn_directly(variant.command, &ctx.project_root).await?,
                )
            } else {
                let baseline = spawn_directly(variant.command, &ctx.project_root).await?;
                let (time, report) = through_executor(&ctx, variant.command).await;
                (time, report, baseline)
            };
            if measured {
                samples.executor.push(executor_time);
                samples.baseline.push(baseline_time);
                match check(&report, variant) {
                    Ok(()) => samples.correct += 1,
                    Err(problem) => {
                        samples.first_problem.get_or_insert(problem);
                    }
                }
            }
        }
        if last_progress.elapsed() > Duration::from_secs(5) {
            eprintln!("[executor] {}/{} events", i + 1, WARMUP_EVENTS + runs);
            last_progress = Instant::now();
        }
    }
    Ok(samples)
}

/// One event through the executor: [`HOOKS`] invocations of `command`.
async fn through_executor(ctx: &ExecContext, command: &str) -> (Duration, ExecReport) {
    // Building the list is the caller's work (the daemon reads it from settings).
    let hooks = (0..HOOKS).map(|_| HookInvocation::new(command)).collect();
    let start = Instant::now();
    let report = executor::run_all(ctx, hooks).await;
    (start.elapsed(), report)
}

/// The processes' own cost: [`HOOKS`] `sh -c command` spawned directly, one
/// task each as the executor does, stdio to /dev/null, all waited for.
async fn spawn_directly(command: &str, cwd: &Path) -> Result<Duration> {
    let start = Instant::now();
    let mut set = JoinSet::new();
    for _ in 0..HOOKS {
        let mut cmd = tokio::process::Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        set.spawn(async move { cmd.spawn()?.wait().await });
    }
    while let Some(joined) = set.join_next().await {
        let status = joined
            .context("a baseline spawn task panicked")?
            .context("cannot run `sh -c` directly")?;
        if !status.success() {
            bail!("baseline `sh -c {command}` exited with {status}");
        }
    }
    Ok(start.elapsed())
}

/// Checks one executor run: every hook ran and exited 0, and the merged
/// decision is the expected one.
fn check(report: &ExecReport, variant: &Variant) -> std::result::Result<(), String> {
    if report.runs.len() != HOOKS {
        return Err(format!("{} runs instead of {HOOKS}", report.runs.len()));
    }
    if let Some(run) = report.runs.iter().find(|r| r.exit_code != Some(0)) {
        return Err(format!(
            "a hook ended with {:?} (timed out: {}, spawn error: {:?}, stderr: {:?})",
            run.exit_code, run.timed_out, run.spawn_error, run.stderr
        ));
    }
    let decision = report.outcome.decision();
    if decision != variant.expected_decision {
        return Err(format!(
            "merged decision {decision:?}, expected {:?}",
            variant.expected_decision
        ));
    }
    Ok(())
}
