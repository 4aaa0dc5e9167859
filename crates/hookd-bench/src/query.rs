//! Figure 4: how long `hookd query --file` takes on a ledger that has grown
//! to a million mutations (months of several agents' work).
//!
//! Going through the daemon would take minutes per million rows, so the
//! ledger is written directly with `Ledger::append` by [`crate::history`],
//! the same code path and the same row shapes the daemon commits, with
//! realistic variety: thousands of files edited with a skew (a few hot
//! files, a long tail), twenty sessions a day, four branches, thirty days of
//! timestamps. The figure is the
//! whole `hookd query` process as a user runs it (start-up, opening the
//! ledger, the indexed read, JSON on stdout), beside the in-process
//! `Ledger::mutations` call alone. Results are checked row by row.

use std::process::Stdio;
use std::time::Instant;

use anyhow::{Context as _, Result, bail, ensure};
use hookd_core::ledger::{Ledger, MutationFilter};
use serde::Serialize;

use crate::env::{Tools, Workspace};
use crate::history::{self, History, Shape};
use crate::stats::Summary;

/// How far back the oldest mutation is.
const SPAN_DAYS: u64 = 30;

/// Agent sessions a day.
const SESSIONS_PER_DAY: u64 = 20;

/// Distinct files the mutations are spread over.
const FILES: usize = 5_000;

/// Unmeasured runs before the measured ones (the first is also the one checked in full).
const WARMUP_RUNS: usize = 3;

/// One file's query, timed both ways.
#[derive(Debug, Clone, Serialize)]
pub struct FileQuery {
    /// The file, as stored and as passed to `--file`.
    pub file: String,
    /// Mutations of that file in the ledger.
    pub matching_rows: usize,
    /// Wall time of the whole `hookd query` process.
    pub process: Summary,
    /// Time of `Ledger::mutations` in this process, ledger already open.
    pub in_process: Summary,
    /// Bytes `hookd query --format json` printed.
    pub output_bytes: usize,
    /// Both ways returned exactly the file's rows, and only them.
    pub correct: bool,
}

/// Result of the query measurement.
#[derive(Debug, Clone, Serialize)]
pub struct QueryReport {
    /// Mutation rows in the ledger (one event each).
    pub rows: u64,
    /// Distinct files among them.
    pub distinct_files: usize,
    /// Size of the ledger database file, in bytes.
    pub ledger_bytes: u64,
    /// Time taken to build the ledger, in seconds.
    pub build_seconds: f64,
    /// A file with the median number of mutations: the figure judged against the target.
    pub typical: FileQuery,
    /// The most edited file, for context: the slowest query a user is likely to run.
    pub hottest: FileQuery,
}

/// Builds a ledger of `rows` mutations, then times `runs` queries of a
/// typical and of the hottest file.
pub fn run(tools: &Tools, rows: u64, runs: usize) -> Result<QueryReport> {
    ensure!(rows > 0, "--query-rows must be at least 1");
    ensure!(runs > 0, "--query-runs must be at least 1");
    let ws = Workspace::new()?;
    let started = Instant::now();
    let (history, counts) = build_ledger(&ws, rows, "query")?;
    let files = history.files();
    let build_seconds = started.elapsed().as_secs_f64();
    let ledger_bytes = std::fs::metadata(ws.ledger_path())?.len();

    // Files in ascending order of edits; the middle one is typical.
    let mut by_count: Vec<usize> = (0..files.len()).filter(|&f| counts[f] > 0).collect();
    by_count.sort_by_key(|&f| (counts[f], f));
    let (Some(&typical), Some(&hottest)) = (by_count.get(by_count.len() / 2), by_count.last())
    else {
        bail!("the ledger has no mutations");
    };
    let ledger = Ledger::open_existing(&ws.ledger_path())?;
    let measure = |file: usize, label: &str| -> Result<FileQuery> {
        eprintln!(
            "[query] {label} file {} ({} rows): {WARMUP_RUNS} warm-up + {runs} runs",
            files[file], counts[file]
        );
        time_file(
            tools,
            &ws,
            &ledger,
            &files[file],
            counts[file] as usize,
            runs,
        )
    };
    let typical = measure(typical, "typical")?;
    let hottest = measure(hottest, "hottest")?;
    Ok(QueryReport {
        rows,
        distinct_files: by_count.len(),
        ledger_bytes,
        build_seconds,
        typical,
        hottest,
    })
}

fn time_file(
    tools: &Tools,
    ws: &Workspace,
    ledger: &Ledger,
    file: &str,
    expected: usize,
    runs: usize,
) -> Result<FileQuery> {
    let mut correct = true;
    let mut process = Vec::with_capacity(runs);
    let mut output_bytes = 0;
    for i in 0..WARMUP_RUNS + runs {
        let mut cmd = ws.command(&tools.hookd);
        cmd.args(["query", "--repo"])
            .arg(&ws.root)
            .args(["--file", file, "--format", "json"]);
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        let start = Instant::now();
        let output = cmd.output().context("cannot run hookd query")?;
        let elapsed = start.elapsed();
        if !output.status.success() {
            bail!(
                "hookd query failed ({}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            );
        }
        output_bytes = output.stdout.len();
        if i == 0 {
            let rows: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout)
                .context("hookd query printed invalid JSON")?;
            let all_match = rows.iter().all(|r| r["file_path"] == file);
            if rows.len() != expected || !all_match {
                eprintln!(
                    "[query] hookd query returned {} rows for {file} (expected {expected}; all of that file: {all_match})",
                    rows.len()
                );
                correct = false;
            }
        }
        if i >= WARMUP_RUNS {
            process.push(elapsed);
        }
    }

    let filter = MutationFilter {
        file: Some(file.to_owned()),
        ..Default::default()
    };
    let mut in_process = Vec::with_capacity(runs);
    for i in 0..WARMUP_RUNS + runs {
        let start = Instant::now();
        let rows = ledger.mutations(&filter)?;
        let elapsed = start.elapsed();
        if i == 0
            && (rows.len() != expected
                || rows
                    .iter()
                    .any(|r| r.record.file_path.as_deref() != Some(file)))
        {
            eprintln!(
                "[query] Ledger::mutations returned {} rows for {file} (expected {expected})",
                rows.len()
            );
            correct = false;
        }
        if i >= WARMUP_RUNS {
            in_process.push(elapsed);
        }
    }
    Ok(FileQuery {
        file: file.to_owned(),
        matching_rows: expected,
        process: Summary::of(&process).context("no query samples")?,
        in_process: Summary::of(&in_process).context("no query samples")?,
        output_bytes,
        correct,
    })
}

/// Builds the query benchmark's ledger of `rows` mutations in `ws`'s
/// repository, for another measurement (the desktop app's timeline).
/// `label` prefixes the progress lines (`desktop`, say).
pub fn build_ledger_for(ws: &Workspace, rows: u64, label: &str) -> Result<()> {
    build_ledger(ws, rows, label).map(|_| ())
}

/// Appends a month of `rows` mutations, oldest first as the daemon would;
/// returns the history and how many mutations each of its files got.
fn build_ledger(ws: &Workspace, rows: u64, label: &str) -> Result<(History, Vec<u32>)> {
    let shape = Shape {
        rows,
        days: SPAN_DAYS,
        sessions_per_day: SESSIONS_PER_DAY,
        files: FILES,
    };
    let history = History::new(
        shape,
        &ws.root,
        &ws.head_sha,
        history::first_midnight(shape),
    );
    history::build(&history, &ws.ledger_path(), label)?;
    let mut counts = vec![0u32; history.files().len()];
    for n in 0..rows {
        counts[history.file_of(n)] += 1;
    }
    Ok((history, counts))
}
