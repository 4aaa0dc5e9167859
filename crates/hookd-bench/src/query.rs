//! Figure 4: how long `hookd query --file` takes on a ledger that has grown
//! to a million mutations (months of several agents' work).
//!
//! Going through the daemon would take minutes per million rows, so the
//! ledger is written directly with `Ledger::append`, the same code path and
//! the same row shapes the daemon commits, with realistic variety: thousands
//! of files edited with a skew (a few hot files, a long tail), twenty
//! agents, three branches, thirty days of timestamps. The figure is the
//! whole `hookd query` process as a user runs it (start-up, opening the
//! ledger, the indexed read, JSON on stdout), beside the in-process
//! `Ledger::mutations` call alone. Results are checked row by row.

use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail, ensure};
use chrono::Utc;
use hookd_core::ledger::{Ledger, MutationFilter};
use hookd_core::record::MutationRecord;
use hookd_core::record::{HookEvent, LedgerEntry, RepoFacts};
use serde::Serialize;
use serde_json::json;

use crate::env::{self, Tools, Workspace};
use crate::stats::Summary;

/// Rows appended per transaction while building the ledger.
const BATCH: usize = 10_000;

/// Distinct files the mutations are spread over.
const FILES: usize = 5_000;

/// Distinct agents (sessions).
const AGENTS: u64 = 20;

/// Branches the agents work on.
const BRANCHES: [&str; 3] = ["main", "feature/ledger-query", "fix/socket-permissions"];

/// How far back the oldest mutation is.
const SPAN_DAYS: i64 = 30;

/// Unmeasured runs before the measured ones (the first is also the one checked in full).
const WARMUP_RUNS: usize = 3;

/// Where files live, and their extension: a mixed Rust/TypeScript repository.
const DIRS: [(&str, &str); 20] = [
    ("src", "rs"),
    ("src/server", "rs"),
    ("src/ledger", "rs"),
    ("src/cmd", "rs"),
    ("src/query", "rs"),
    ("src/enrich", "rs"),
    ("crates/core/src", "rs"),
    ("crates/proto/src", "rs"),
    ("crates/cli/src", "rs"),
    ("tests", "rs"),
    ("web/src", "ts"),
    ("web/src/components", "tsx"),
    ("web/src/views", "tsx"),
    ("web/src/lib", "ts"),
    ("web/tests", "ts"),
    ("docs", "md"),
    ("docs/adr", "md"),
    ("scripts", "sh"),
    ("config", "toml"),
    ("migrations", "sql"),
];

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
    let files = file_paths();
    let started = Instant::now();
    let counts = build_ledger(&ws, &files, rows, "query")?;
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

/// The repository's files, root-relative.
fn file_paths() -> Vec<String> {
    (0..FILES)
        .map(|i| {
            let (dir, ext) = DIRS[i % DIRS.len()];
            format!("{dir}/module_{:04}.{ext}", i / DIRS.len())
        })
        .collect()
}

/// Builds the query benchmark's ledger of `rows` mutations in `ws`'s
/// repository, for another measurement (the desktop app's timeline).
/// `label` prefixes the progress lines (`desktop`, say).
pub fn build_ledger_for(ws: &Workspace, rows: u64, label: &str) -> Result<()> {
    build_ledger(ws, &file_paths(), rows, label).map(|_| ())
}

/// Appends `rows` events, one mutation each, oldest first as the daemon
/// would; returns how many mutations each file got.
fn build_ledger(ws: &Workspace, files: &[String], rows: u64, label: &str) -> Result<Vec<u32>> {
    let mut ledger = Ledger::open_or_create(&ws.ledger_path())?;
    let mut rng = SplitMix64(0x5eed_5eed_5eed_5eed);
    let mut counts = vec![0u32; files.len()];
    let sessions: Vec<String> = (0..AGENTS).map(|a| env::session_id(100 + a)).collect();
    let repos: Vec<RepoFacts> = BRANCHES
        .iter()
        .map(|branch| RepoFacts {
            git_root: Some(ws.root.clone()),
            branch: (*branch).to_owned(),
            head_sha: ws.head_sha.clone(),
            remote_url: Some("git@example.com:acme/app.git".into()),
        })
        .collect();
    let oldest = Utc::now() - chrono::Duration::days(SPAN_DAYS);
    let step_ms = (SPAN_DAYS * 24 * 3600 * 1000) as f64 / rows as f64;
    let pid = std::process::id();
    let mut last_progress = Instant::now();
    eprintln!(
        "[{label}] building a ledger of {rows} mutations ({FILES} files, {AGENTS} agents, {} branches, {SPAN_DAYS} days)",
        BRANCHES.len()
    );

    let mut i = 0u64;
    while i < rows {
        let end = (i + BATCH as u64).min(rows);
        let mut entries = Vec::with_capacity(BATCH);
        for n in i..end {
            // Squaring a uniform draw skews it: low indexes are the hot files.
            let u = rng.unit();
            let file = ((u * u * files.len() as f64) as usize).min(files.len() - 1);
            counts[file] += 1;
            let agent = (rng.next_u64() % AGENTS) as usize;
            let jitter = (rng.next_u64() % 1000) as f64 * step_ms / 1000.0;
            let at = oldest + chrono::Duration::milliseconds((n as f64 * step_ms + jitter) as i64);
            let received = at + chrono::Duration::milliseconds(2);
            let repo = &repos[agent % repos.len()];
            let tool = match rng.next_u64() % 20 {
                0..=10 => "Edit",
                11..=16 => "Write",
                _ => "MultiEdit",
            };
            let lines = (rng.next_u64() % 40) as i64 + 1;
            entries.push(entry(
                ws,
                &files[file],
                &sessions[agent],
                tool,
                lines,
                at,
                received,
                n,
                pid,
                repo,
            ));
        }
        ledger.append(&entries)?;
        i = end;
        if last_progress.elapsed() > Duration::from_secs(5) || i == rows {
            eprintln!("[{label}] {i}/{rows} rows");
            last_progress = Instant::now();
        }
    }
    Ok(counts)
}

#[allow(clippy::too_many_arguments)] // one call site, all plain data of one row
fn entry(
    ws: &Workspace,
    rel_path: &str,
    session: &str,
    tool: &str,
    lines: i64,
    at: chrono::DateTime<Utc>,
    received: chrono::DateTime<Utc>,
    n: u64,
    pid: u32,
    repo: &RepoFacts,
) -> LedgerEntry {
    let abs = ws.root.join(rel_path);
    let tool_use_id = format!("toolu_{n:024x}");
    let new_string = "    let value = compute(input)?;\n".repeat(lines.min(4) as usize);
    let payload = json!({
        "session_id": session,
        "transcript_path": format!("/home/dev/.claude/projects/-src-app/{session}.jsonl"),
        "cwd": ws.root.to_string_lossy(),
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": { "file_path": abs.to_string_lossy(), "old_string": "    let value = compute(input);\n", "new_string": new_string },
        "tool_use_id": tool_use_id,
    });
    let event = HookEvent {
        event_id: uuid::Uuid::now_v7().to_string(),
        hook_type: env::EVENT_TYPE.into(),
        tool_name: Some(tool.into()),
        agent_id: session.into(),
        session_id: Some(session.into()),
        tool_use_id: Some(tool_use_id),
        cwd: Some(ws.root.clone()),
        file_path: Some(abs),
        lines_changed: Some(lines),
        command: None,
        payload_valid: true,
        raw_payload: payload.to_string(),
        event_timestamp: hookd_core::timefmt::format(at),
        received_at: hookd_core::timefmt::format(received),
        source_pid: Some(pid),
        flags: Vec::new(),
    };
    let mutation = MutationRecord::for_event(
        &event,
        repo,
        tool,
        0,
        Some(rel_path.to_owned()),
        Some(lines),
    );
    LedgerEntry {
        event,
        repo: repo.clone(),
        mutations: vec![mutation],
    }
}

/// A tiny deterministic generator, so every run builds the same ledger
/// (and the bench needs no `rand`).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn file_paths_are_distinct() {
        let files = file_paths();
        let unique: std::collections::HashSet<_> = files.iter().collect();
        assert_eq!(unique.len(), FILES);
        assert!(Path::new(&files[0]).is_relative());
    }
}
