//! Figure 14: the hook health check on a heavy user's 30 days, the full
//! check (`hookd doctor`, the app's Health view) beside the tray's bounded
//! recount (issue 18's tray alert, once a minute per registered project).
//!
//! The full check reads every hook run and counts every event of its
//! window, so its cost grows with the history; the tray's recount reads
//! only each ledger's newest [`TRAY_NEWEST`] hook runs and events
//! ([`HealthInputs::newest`]), so it must stay flat from a small ledger to a
//! big one, and still find the serious findings the full check finds.
//!
//! The ledgers are a [`crate::history`] of `rows` PostToolUse events over
//! 30 days (all inside the window: the worst case), each with the run of a
//! global managed hook that matches every tool, and every Bash call also
//! with the run of a second managed hook that always fails (a serious
//! finding both checks must report). Rows are written with
//! `Ledger::append` and `Ledger::append_hook_runs`, as the daemon does.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, ensure};
use hookd_core::health::{self, FindingCode, HealthInputs, Severity, TRAY_NEWEST};
use hookd_core::ledger::Ledger;
use hookd_core::record::HookRunRecord;
use hookd_core::settings::SettingsRoots;
use serde::Serialize;
use serde_json::json;

use crate::history::{self, History, Shape};
use crate::stats::Summary;

/// Rows appended per transaction while building.
const BATCH: u64 = 10_000;

/// One ledger size, both checks timed.
#[derive(Debug, Clone, Serialize)]
pub struct HealthSize {
    /// Events in the ledger (all in the 30-day window).
    pub events: u64,
    /// Hook runs in the ledger.
    pub hook_runs: u64,
    /// Seconds the ledger took to build.
    pub build_seconds: f64,
    /// The full check: every run and event of the window.
    pub full: Summary,
    /// The tray's recount: the newest [`TRAY_NEWEST`] runs and events.
    pub bounded: Summary,
    /// Serious findings of the full check.
    pub full_serious: Vec<String>,
    /// Serious findings of the bounded check.
    pub bounded_serious: Vec<String>,
}

impl HealthSize {
    /// Both checks found the always-failing hook, and the same serious
    /// findings.
    pub fn agree(&self) -> bool {
        self.full_serious == self.bounded_serious
            && self.full_serious.iter().any(|c| c == "always_fails")
    }
}

/// Result of the health measurement.
#[derive(Debug, Clone, Serialize)]
pub struct HealthBenchReport {
    /// Timed runs of each check per size.
    pub runs: usize,
    /// The runs and events a bounded check reads.
    pub tray_newest: u64,
    /// Each size, smallest first.
    pub sizes: Vec<HealthSize>,
}

/// Builds a ledger per size in `sizes` and times `runs` of each check on it.
pub fn run(sizes: &[u64], runs: usize) -> Result<HealthBenchReport> {
    ensure!(runs > 0, "--health-runs must be at least 1");
    ensure!(!sizes.is_empty(), "--health-rows needs at least one size");
    let mut sorted = sizes.to_vec();
    sorted.sort_unstable();
    let mut out = Vec::new();
    for rows in sorted {
        ensure!(rows > 0, "--health-rows sizes must be at least 1");
        out.push(measure(rows, runs)?);
    }
    Ok(HealthBenchReport {
        runs,
        tray_newest: TRAY_NEWEST,
        sizes: out,
    })
}

fn measure(rows: u64, runs: usize) -> Result<HealthSize> {
    let dir = tempfile::Builder::new()
        .prefix("hookd-bench-health-")
        .tempdir()
        .context("cannot create a temp dir")?;
    let roots = SettingsRoots::under(dir.path());
    let project = dir.path().join("repo");
    std::fs::create_dir_all(&project)?;
    let managed = roots.hookd_home.join("settings.json");
    std::fs::create_dir_all(&roots.hookd_home)?;
    std::fs::write(
        &managed,
        json!({"hooks": {"PostToolUse": [
            {"matcher": "*", "hooks": [{"type": "command", "command": "true"}]},
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "false"}]}
        ]}})
        .to_string(),
    )?;
    let shape = Shape {
        rows,
        days: 30,
        sessions_per_day: 10,
        files: 5_000,
    };
    let history = History::new(
        shape,
        &project,
        "0".repeat(40).as_str(),
        history::first_midnight(shape),
    );
    let ledger_path = dir.path().join("ledger.sqlite");
    let started = Instant::now();
    let hook_runs = build(&history, &ledger_path, &managed)?;
    let build_seconds = started.elapsed().as_secs_f64();

    let inputs = |newest| HealthInputs {
        roots: roots.clone(),
        project: project.clone(),
        ledger: Some(ledger_path.clone()),
        transcripts: dir.path().join(".claude/projects"),
        path: std::env::var("PATH").unwrap_or_default(),
        // The history's last day ends at 19:00 today: count it all.
        now: chrono::Utc::now() + chrono::Duration::days(1),
        window: chrono::Duration::days(31),
        newest,
    };
    let (full, bounded) = (inputs(None), inputs(Some(TRAY_NEWEST)));
    let serious = |inputs: &HealthInputs| -> Result<Vec<String>> {
        let report = health::check(inputs)?;
        let mut codes: Vec<String> = report
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Serious)
            .map(|f| code_name(f.code))
            .collect();
        codes.sort();
        Ok(codes)
    };
    let full_serious = serious(&full)?;
    let bounded_serious = serious(&bounded)?;
    let (mut full_times, mut bounded_times) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        full_times.push(timed(&full)?);
        bounded_times.push(timed(&bounded)?);
    }
    eprintln!("[health] {rows} events: timed {runs} runs of each check");
    Ok(HealthSize {
        events: rows,
        hook_runs,
        build_seconds,
        full: Summary::of(&full_times).context("no full runs")?,
        bounded: Summary::of(&bounded_times).context("no bounded runs")?,
        full_serious,
        bounded_serious,
    })
}

fn timed(inputs: &HealthInputs) -> Result<Duration> {
    let started = Instant::now();
    health::check(inputs)?;
    Ok(started.elapsed())
}

fn code_name(code: FindingCode) -> String {
    serde_json::to_value(code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Appends the history's events and their hook runs; returns the runs.
fn build(history: &History, path: &Path, managed: &Path) -> Result<u64> {
    let rows = history.shape.rows;
    eprintln!(
        "[health] building a ledger of {rows} events and their hook runs in {}",
        path.display()
    );
    let mut ledger = Ledger::open_or_create(path)?;
    let source = managed.to_string_lossy().into_owned();
    let mut runs_total = 0;
    let mut n = 0;
    while n < rows {
        let end = (n + BATCH).min(rows);
        let entries = history.entries(n..end);
        ledger.append(&entries)?;
        let mut runs = Vec::with_capacity(entries.len() + entries.len() / 8);
        for (i, entry) in entries.iter().enumerate() {
            let event = &entry.event;
            let run = |k: &str, command: &str, exit: i32| HookRunRecord {
                run_id: format!("{}-{k}", event.event_id),
                event_id: event.event_id.clone(),
                hook_type: event.hook_type.clone(),
                tool_name: event.tool_name.clone(),
                session_id: event.session_id.clone(),
                tool_use_id: event.tool_use_id.clone(),
                scope: "global".into(),
                source: source.clone(),
                matcher: Some(if k == "all" { "*" } else { "Bash" }.into()),
                command: command.into(),
                exit_code: Some(exit),
                timed_out: false,
                decision: None,
                duration_ms: 2.0 + ((n + i as u64) % 17) as f64,
                stdout: String::new(),
                stderr: String::new(),
                output_truncated: false,
                error: None,
                started_at: event.event_timestamp.clone(),
                skipped: None,
            };
            runs.push(run("all", "true", 0));
            if event.tool_name.as_deref() == Some("Bash") {
                runs.push(run("bash", "false", 1));
            }
        }
        runs_total += ledger.append_hook_runs(&runs)? as u64;
        n = end;
    }
    Ok(runs_total)
}
