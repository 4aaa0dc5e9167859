//! `hookd-bench`: measures the six figures hookd promises, each beside its
//! baseline or target, and two figures of the broker-backed ledger modes,
//! against real parts (a git repository, the daemon, SQLite files, hook
//! processes, the released binaries and a real RabbitMQ) in a temp dir.
//!
//! 1. [`emit`]: wall time of one `hookd-emit` call, beside the bash + jq +
//!    socat emitter users had (target: median < 1 ms and ≥ 10× faster).
//! 2. [`ingest`]: events per second from eight connections into the ledger
//!    (target: ≥ 20,000 events/s).
//! 3. [`latency`]: emit-to-commit latency at a steady 100 events/s
//!    (target: p99 < 5 ms).
//! 4. [`query`]: `hookd query --file` on a 1,000,000-row ledger
//!    (target: < 20 ms).
//! 5. [`executor`]: what the hook executor adds to an event with 10
//!    matching hooks run in parallel, beside spawning the same processes
//!    directly (target: < 2 ms per event beyond the hooks' own run time).
//! 6. [`wait`]: the `hookd-emit --wait` round trip beside a plain
//!    `hookd-emit` when no managed hook matches (target: adds < 1 ms), and
//!    with one matching hook as context.
//! 7. [`publish`]: events per second the publisher drains from a full outbox
//!    to RabbitMQ with publisher confirms, and the same through the whole
//!    daemon in `amqp` ledger mode (figures, no target).
//! 8. [`broker_latency`]: emit → broker → consumer → ledger latency at a
//!    steady 100 events/s, beside the local emit-to-commit latency of 3
//!    (figure, no target).
//!
//! 9. [`desktop`]: the desktop app's launch-to-window time, idle memory (in
//!    the tray and with the window open) and first timeline paint of 100,000
//!    rows, beside an empty project (targets: < 1 s, RSS < 150 MB, < 300 ms).
//!
//! 10. [`timeline`]: the timeline read at 1,000,000 and 10,000,000 rows,
//!     pages and charts beside the old whole-history read, `hookd query
//!     --limit`, migration 0004 and its ingest cost (issue 16; targets:
//!     first page and filter change < 150 ms, middle < 100 ms, `hookd query
//!     --limit 1000` < 50 ms). Its ledgers are built by [`history`] and
//!     cached.
//!
//! 11. [`desktop_scale`]: the desktop app on the timeline's cached 1M- and
//!     10M-row ledgers beside an empty project: launch with `--open
//!     timeline…` → rows painted, filter change and jump to the middle →
//!     rows painted, memory with the window open, and a 20,000-event burst
//!     with the timeline open (targets of issue 16: < 1 s, < 150 ms,
//!     < 100 ms, within 30 MiB of empty, no frame over 100 ms, nothing lost,
//!     memory back within 10%).
//!
//! 12. [`daemon_memory`]: `hookd daemon` alone around 20,000-event bursts:
//!     its memory before, at the peak and 15 s after (issue 16: memory back
//!     within 10%).
//!
//! 13. [`rewind`]: what keeping a file's *before* adds to a Write's
//!     `PreToolUse` (100 KB file, beside a plain emit), a rewind and its
//!     undo of a 200-file session, and the bytes of recorded 1 KB Writes
//!     with their contents kept (issue 17: < 1 ms, < 1 s, at most a third
//!     of 2.2 GB per million).
//!
//! 14. [`health`]: the hook health check on 30 days of 100,000 and
//!     1,000,000 events with their hook runs: the full check (`hookd
//!     doctor`) beside the tray's bounded recount (issue 18: the recount
//!     stays flat as the history grows and finds the same serious
//!     findings).
//!
//! 7 and 8 need a RabbitMQ (`--amqp-url`, the local one by default); each
//! run declares its own exchange `hookd.bench.<uuid>` and queues, and
//! deletes them at the end ([`broker`]).
//!
//! The table goes to stdout as Markdown (progress to stderr), optionally as
//! JSON too. PASS/FAIL is reported, never enforced: the exit code is 0 unless
//! a measurement could not be carried out at all.

mod broker;
mod broker_latency;
mod daemon_memory;
mod desktop;
mod desktop_scale;
mod emit;
mod env;
mod executor;
mod health;
mod history;
mod ingest;
mod latency;
mod publish;
mod query;
mod rewind;
mod stats;
mod timeline;
mod wait;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use clap::{Parser, ValueEnum};
use serde::Serialize;

use crate::stats::Summary;

/// Benchmarks hookd against its targets: emit time, ingest rate, emit-to-commit
/// latency, query time, executor overhead and the `hookd-emit --wait` round trip;
/// and, against a real RabbitMQ, the publish rate with confirms and the
/// emit → broker → consumer → ledger latency.
/// Needs the release binaries: `cargo build --release --workspace`.
#[derive(Debug, Clone, Parser, Serialize)]
#[command(name = "hookd-bench", version)]
struct Args {
    /// Measured calls of each emitter (hookd-emit and the bash baseline, alternating).
    #[arg(long, value_name = "N", default_value_t = 500)]
    emit_runs: usize,
    /// Events sent at once over 8 connections to measure the ingest rate.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    ingest_events: u64,
    /// Events per latency series at 100 events/s (1,000 takes 10 s per series, two series).
    #[arg(long, value_name = "N", default_value_t = 1_000)]
    rate_events: usize,
    /// Mutation rows in the ledger the query benchmark builds and reads.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    query_rows: u64,
    /// Measured runs of each query (after 3 warm-up runs).
    #[arg(long, value_name = "N", default_value_t = 30)]
    query_runs: usize,
    /// Measured events of 10 hooks, through the executor and spawned directly (after 10 warm-ups).
    #[arg(long, value_name = "N", default_value_t = 200)]
    executor_runs: usize,
    /// Measured calls of each kind: plain and `--wait` emit, in two projects (after 10 warm-ups).
    #[arg(long, value_name = "N", default_value_t = 500)]
    wait_runs: usize,
    /// Events in the outbox the publisher drains to RabbitMQ, and sent through the daemon in `amqp` mode.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    publish_events: u64,
    /// Events of the emit → broker → consumer → ledger series at 100 events/s (1,000 takes 10 s).
    #[arg(long, value_name = "N", default_value_t = 1_000)]
    broker_rate_events: usize,
    /// Mutation rows in the ledger whose timeline the desktop app opens.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    desktop_rows: u64,
    /// Measured launches of the desktop app, on the full and on an empty project each (after one warm-up).
    #[arg(long, value_name = "N", default_value_t = 5)]
    desktop_launches: usize,
    /// Ledger sizes (rows) `desktop-scale` opens in the app, from the timeline's cache (built by `--only timeline`).
    #[arg(long, value_name = "N", value_delimiter = ',', default_values_t = [1_000_000, 10_000_000])]
    desktop_ledgers: Vec<u64>,
    /// Measured rounds of `desktop-scale` on each ledger and an empty project (after one warm-up launch each);
    /// a 10M round takes a few minutes.
    #[arg(long, value_name = "N", default_value_t = 3)]
    desktop_scale_rounds: usize,
    /// Bursts of 20,000 events in each `desktop-scale` round, one after the other in the same launch, memory
    /// read after each (a second burst tells memory kept once, a warm-up, from memory kept per burst).
    #[arg(long, value_name = "N", default_value_t = 1)]
    desktop_bursts: usize,
    /// Measured `PreToolUse` calls of each kind in `rewind` (plain, Write of new content, Write of stored content).
    #[arg(long, value_name = "N", default_value_t = 200)]
    rewind_runs: usize,
    /// 1 KB Writes recorded, contents kept, for the bytes figure of `rewind`.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    rewind_writes: u64,
    /// Ledger sizes (events, each with its hook runs, all in the last 30 days) the health check is timed on.
    #[arg(long, value_name = "N", value_delimiter = ',', default_values_t = [100_000, 1_000_000])]
    health_rows: Vec<u64>,
    /// Measured runs of each health check (full and bounded, alternating) per size.
    #[arg(long, value_name = "N", default_value_t = 5)]
    health_runs: usize,
    /// Bursts of 20,000 events sent to one `hookd daemon` whose memory is read around each.
    #[arg(long, value_name = "N", default_value_t = 3)]
    daemon_memory_rounds: usize,
    /// Ledger sizes (rows) the timeline benchmark measures; the old unlimited read runs at the first only.
    #[arg(long, value_name = "N", value_delimiter = ',', default_values_t = [1_000_000, 10_000_000])]
    timeline_rows: Vec<u64>,
    /// Ledger sizes migrated from version 3 (and ingested into, before and after); 0 for none.
    #[arg(long, value_name = "N", value_delimiter = ',', default_values_t = [1_000_000])]
    timeline_migrate_rows: Vec<u64>,
    /// Measured runs of each timeline read (after 3 warm-up runs).
    #[arg(long, value_name = "N", default_value_t = 30)]
    timeline_runs: usize,
    /// Where the timeline's ledgers are cached (default: `bench-cache` beside the bench executable).
    #[arg(long, value_name = "DIR")]
    timeline_cache: Option<PathBuf>,
    /// RabbitMQ for `publish` and `broker-latency`; each run uses, then deletes, its own exchange and queues.
    #[arg(long, value_name = "URL", env = "HOOKD_BENCH_AMQP_URL", hide_env_values = true, default_value = broker::DEFAULT_URL)]
    #[serde(serialize_with = "serialize_redacted")]
    amqp_url: String,
    /// Run only these measurements (repeat the flag or separate with commas); all by default.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "WHICH")]
    only: Vec<Measurement>,
    /// Also write every figure, sample summary and check as JSON to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

/// The measurements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "snake_case")]
enum Measurement {
    /// hookd-emit beside the bash emitter.
    Emit,
    /// Sustained ingest rate.
    Ingest,
    /// Emit-to-commit latency at 100 events/s.
    Latency,
    /// `hookd query --file` on a large ledger.
    Query,
    /// Executor overhead with 10 hooks in parallel.
    Executor,
    /// `hookd-emit --wait` beside a plain emit.
    Wait,
    /// Publish rate to RabbitMQ with publisher confirms.
    Publish,
    /// Emit → broker → consumer → ledger latency at 100 events/s.
    BrokerLatency,
    /// The desktop app: launch to window, idle memory, 100k-row timeline paint.
    Desktop,
    /// The timeline at 1M and 10M rows: pages, charts, `hookd query --limit`, migration 0004.
    Timeline,
    /// The desktop app on the 1M- and 10M-row ledgers: launch, filter, jump, memory, a burst.
    DesktopScale,
    /// `hookd daemon` alone: memory before, at the peak of and after 20,000-event bursts.
    DaemonMemory,
    /// Rewind: the snapshot a Write's PreToolUse waits for, plan + apply of a 200-file session, bytes kept.
    Rewind,
    /// The hook health check: `hookd doctor`'s full read beside the tray's bounded recount.
    Health,
}

/// A broker URL as the JSON report keeps it: without its password.
fn serialize_redacted<S: serde::Serializer>(url: &str, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&hookd_core::amqp::topology::redact(url))
}

/// What a row of the table is judged as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Verdict {
    /// Meets its target.
    Pass,
    /// Misses its target, or a check failed.
    Fail,
    /// A baseline or a context figure: nothing to meet.
    Info,
}

impl Verdict {
    fn judge(ok: bool) -> Self {
        if ok { Self::Pass } else { Self::Fail }
    }

    fn label(self) -> &'static str {
        match self {
            Self::Pass => "PASS",
            Self::Fail => "FAIL",
            Self::Info => "",
        }
    }
}

/// One line of the table.
#[derive(Debug, Clone, Serialize)]
struct Row {
    /// What was measured.
    figure: String,
    /// What came out.
    result: String,
    /// The target or baseline it is compared with.
    reference: String,
    /// How it compares.
    verdict: Verdict,
}

impl Row {
    fn new(
        figure: impl Into<String>,
        result: impl Into<String>,
        reference: impl Into<String>,
        verdict: Verdict,
    ) -> Self {
        Self {
            figure: figure.into(),
            result: result.into(),
            reference: reference.into(),
            verdict,
        }
    }
}

/// The machine the figures come from.
#[derive(Debug, Clone, Serialize)]
struct Machine {
    /// CPUs this process may use.
    cpus: usize,
    /// `model name` from /proc/cpuinfo.
    cpu_model: String,
    /// `MemTotal` from /proc/meminfo, in GiB.
    memory_gib: f64,
    /// Kernel release.
    kernel: String,
}

impl Machine {
    fn probe() -> Self {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu_model = cpuinfo
            .lines()
            .find_map(|line| {
                line.strip_prefix("model name")
                    .and_then(|rest| rest.split_once(':'))
            })
            .map_or_else(
                || "unknown".to_owned(),
                |(_, model)| model.trim().to_owned(),
            );
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let memory_kib: f64 = meminfo
            .lines()
            .find_map(|line| line.strip_prefix("MemTotal:"))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|kib| kib.parse().ok())
            .unwrap_or(0.0);
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").map_or_else(
            |_| "unknown".to_owned(),
            |release| release.trim().to_owned(),
        );
        Self {
            cpus: std::thread::available_parallelism().map_or(0, std::num::NonZero::get),
            cpu_model,
            memory_gib: memory_kib / (1024.0 * 1024.0),
            kernel,
        }
    }
}

/// Everything the run produced, as written by `--json`.
#[derive(Debug, Serialize)]
struct Report {
    date_utc: String,
    hookd_version: &'static str,
    machine: Machine,
    settings: Args,
    rows: Vec<Row>,
    emit: Option<emit::EmitReport>,
    ingest: Option<ingest::IngestReport>,
    latency: Option<latency::LatencyReport>,
    query: Option<query::QueryReport>,
    executor: Option<executor::ExecutorReport>,
    wait: Option<wait::WaitReport>,
    publish: Option<publish::PublishReport>,
    broker_latency: Option<broker_latency::BrokerLatencyReport>,
    desktop: Option<desktop::DesktopReport>,
    timeline: Option<timeline::TimelineReport>,
    desktop_scale: Option<desktop_scale::ScaleReport>,
    daemon_memory: Option<daemon_memory::DaemonMemoryReport>,
    rewind: Option<rewind::RewindReport>,
    health: Option<health::HealthBenchReport>,
    errors: Vec<String>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(err) => {
            eprintln!("hookd-bench: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the selected measurements; `Ok(false)` when one of them could not be carried out.
fn run(args: &Args) -> Result<bool> {
    let selected = |m: Measurement| args.only.is_empty() || args.only.contains(&m);
    let needs_emit = selected(Measurement::Emit)
        || selected(Measurement::Latency)
        || selected(Measurement::Wait)
        || selected(Measurement::BrokerLatency)
        || selected(Measurement::Rewind);
    // Fail before minutes of work, not after.
    let tools = env::Tools::locate(
        needs_emit,
        selected(Measurement::Query)
            || selected(Measurement::Timeline)
            || selected(Measurement::DaemonMemory),
        selected(Measurement::Emit),
    )?;

    let mut report = Report {
        date_utc: chrono::Utc::now().format("%Y-%m-%d %H:%M UTC").to_string(),
        hookd_version: env!("CARGO_PKG_VERSION"),
        machine: Machine::probe(),
        settings: args.clone(),
        rows: Vec::new(),
        emit: None,
        ingest: None,
        latency: None,
        query: None,
        executor: None,
        wait: None,
        publish: None,
        broker_latency: None,
        desktop: None,
        timeline: None,
        desktop_scale: None,
        daemon_memory: None,
        rewind: None,
        health: None,
        errors: Vec::new(),
    };
    let failed = |name: &str, err: anyhow::Error, rows: &mut Vec<Row>| {
        eprintln!("[{name}] failed: {err:#}");
        rows.push(Row::new(
            format!("{name}: could not run"),
            format!("{err:#}"),
            "",
            Verdict::Fail,
        ));
        format!("{name}: {err:#}")
    };

    if selected(Measurement::Emit) {
        match emit::run(&tools, args.emit_runs) {
            Ok(r) => {
                emit_rows(&r, &mut report.rows);
                report.emit = Some(r);
            }
            Err(err) => report.errors.push(failed("emit", err, &mut report.rows)),
        }
    }
    if selected(Measurement::Ingest) {
        match ingest::run(args.ingest_events) {
            Ok(r) => {
                ingest_rows(&r, &mut report.rows);
                report.ingest = Some(r);
            }
            Err(err) => report.errors.push(failed("ingest", err, &mut report.rows)),
        }
    }
    if selected(Measurement::Latency) {
        match latency::run(&tools, args.rate_events) {
            Ok(r) => {
                latency_rows(&r, &mut report.rows);
                report.latency = Some(r);
            }
            Err(err) => report.errors.push(failed("latency", err, &mut report.rows)),
        }
    }
    if selected(Measurement::Query) {
        match query::run(&tools, args.query_rows, args.query_runs) {
            Ok(r) => {
                query_rows(&r, &mut report.rows);
                report.query = Some(r);
            }
            Err(err) => report.errors.push(failed("query", err, &mut report.rows)),
        }
    }
    if selected(Measurement::Executor) {
        match executor::run(args.executor_runs) {
            Ok(r) => {
                executor_rows(&r, &mut report.rows);
                report.executor = Some(r);
            }
            Err(err) => report
                .errors
                .push(failed("executor", err, &mut report.rows)),
        }
    }
    if selected(Measurement::Wait) {
        match wait::run(&tools, args.wait_runs) {
            Ok(r) => {
                wait_rows(&r, &mut report.rows);
                report.wait = Some(r);
            }
            Err(err) => report.errors.push(failed("wait", err, &mut report.rows)),
        }
    }
    if selected(Measurement::Publish) {
        match publish::run(&args.amqp_url, args.publish_events) {
            Ok(r) => {
                publish_rows(&r, &mut report.rows);
                report.publish = Some(r);
            }
            Err(err) => report.errors.push(failed("publish", err, &mut report.rows)),
        }
    }
    if selected(Measurement::BrokerLatency) {
        match broker_latency::run(&tools, &args.amqp_url, args.broker_rate_events) {
            Ok(r) => {
                broker_latency_rows(&r, report.latency.as_ref(), &mut report.rows);
                report.broker_latency = Some(r);
            }
            Err(err) => report
                .errors
                .push(failed("broker-latency", err, &mut report.rows)),
        }
    }

    if selected(Measurement::Desktop) {
        match desktop::run(args.desktop_rows, args.desktop_launches) {
            Ok(r) => {
                desktop_rows(&r, &mut report.rows);
                report.desktop = Some(r);
            }
            Err(err) => report.errors.push(failed("desktop", err, &mut report.rows)),
        }
    }

    let cache = match &args.timeline_cache {
        Some(dir) => dir.clone(),
        None => std::env::current_exe()
            .context("cannot find the bench executable")?
            .parent()
            .context("the bench executable has no directory")?
            .join("bench-cache"),
    };
    if selected(Measurement::Timeline) {
        match timeline::run(
            &tools,
            &cache,
            &args.timeline_rows,
            &args.timeline_migrate_rows,
            args.timeline_runs,
        ) {
            Ok(r) => {
                timeline_rows(&r, &mut report.rows);
                report.timeline = Some(r);
            }
            Err(err) => report
                .errors
                .push(failed("timeline", err, &mut report.rows)),
        }
    }

    if selected(Measurement::DesktopScale) {
        match desktop_scale::run(
            &cache,
            &args.desktop_ledgers,
            args.desktop_scale_rounds,
            args.desktop_bursts,
        ) {
            Ok(r) => {
                desktop_scale_rows(&r, &mut report.rows);
                for f in &r.failures {
                    report
                        .errors
                        .push(format!("desktop-scale: {}: {}", f.project, f.what));
                }
                report.desktop_scale = Some(r);
            }
            Err(err) => report
                .errors
                .push(failed("desktop-scale", err, &mut report.rows)),
        }
    }

    if selected(Measurement::DaemonMemory) {
        match daemon_memory::run(&tools, args.daemon_memory_rounds) {
            Ok(r) => {
                daemon_memory_rows(&r, &mut report.rows);
                report.daemon_memory = Some(r);
            }
            Err(err) => report
                .errors
                .push(failed("daemon-memory", err, &mut report.rows)),
        }
    }

    if selected(Measurement::Rewind) {
        match rewind::run(&tools, args.rewind_runs, args.rewind_writes) {
            Ok(r) => {
                rewind_rows(&r, &mut report.rows);
                report.rewind = Some(r);
            }
            Err(err) => report.errors.push(failed("rewind", err, &mut report.rows)),
        }
    }

    if selected(Measurement::Health) {
        match health::run(&args.health_rows, args.health_runs) {
            Ok(r) => {
                health_rows(&r, &mut report.rows);
                report.health = Some(r);
            }
            Err(err) => report.errors.push(failed("health", err, &mut report.rows)),
        }
    }

    print_markdown(&report);
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report)?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(report.errors.is_empty())
}

fn timeline_rows(r: &timeline::TimelineReport, rows: &mut Vec<Row>) {
    for size in &r.sizes {
        let n = thousands(size.rows);
        rows.push(Row::new(
            format!("Timeline {n} rows: ledger and filters"),
            format!(
                "{:.2} GB, built in {:.0} s{}; {}",
                size.ledger_bytes as f64 / 1e9,
                size.build_seconds,
                if size.built_now { "" } else { " (cached)" },
                size.filter_values
            ),
            "context",
            Verdict::Info,
        ));
        for f in size.in_process.iter().chain(&size.process) {
            let peak = f
                .peak_mib
                .map(|mib| format!("; peak RSS {mib:.0} MiB"))
                .unwrap_or_default();
            let (reference, verdict) = match f.target_ms {
                Some(ms) => (
                    format!("median < {ms:.0} ms"),
                    Verdict::judge(f.time.median_ms < ms),
                ),
                None => ("context".to_owned(), Verdict::Info),
            };
            rows.push(Row::new(
                format!("[{n}] {} (median / p99)", f.what),
                format!("{}; {} rows{peak}", median_p99(&f.time), thousands(f.rows)),
                reference,
                verdict,
            ));
        }
        rows.push(Row::new(
            format!("[{n}] Peak RSS growth of the bench over every page, chart and live read"),
            format!("{:.1} MiB", size.pages_peak_mib),
            "independent of history size",
            Verdict::Info,
        ));
        let failed: Vec<&str> = size
            .checks
            .iter()
            .filter(|(_, ok)| !ok)
            .map(|(what, _)| what.as_str())
            .collect();
        rows.push(Row::new(
            format!("[{n}] Checks: {}", size.checks.len()),
            if failed.is_empty() {
                "all hold".to_owned()
            } else {
                format!("failed: {}", failed.join("; "))
            },
            "all",
            Verdict::judge(failed.is_empty()),
        ));
    }
    for m in &r.migrations {
        let n = thousands(m.rows);
        rows.push(Row::new(
            format!("[{n}] Migration 0004: `Ledger::open_existing` on a version-3 ledger"),
            format!(
                "{:.1} s; file {:.2} → {:.2} GB",
                m.migrate_seconds,
                m.bytes_before as f64 / 1e9,
                m.bytes_after as f64 / 1e9
            ),
            "one-time cost",
            Verdict::Info,
        ));
        rows.push(Row::new(
            format!("[{n}] Check: the hour counts the migration built sum to the rows"),
            if m.counts_match { "equal" } else { "differ" },
            "equal",
            Verdict::judge(m.counts_match),
        ));
        for i in &m.ingest {
            rows.push(Row::new(
                format!(
                    "[{n}] Append {} rows in batches of {}: schema v3 → v4 (rows/s)",
                    thousands(i.rows),
                    thousands(i.batch as u64)
                ),
                format!(
                    "{} → {} ({:+.0} %)",
                    thousands(i.v3_rows_per_sec.round() as u64),
                    thousands(i.v4_rows_per_sec.round() as u64),
                    (i.v4_rows_per_sec / i.v3_rows_per_sec - 1.0) * 100.0
                ),
                "context: the triggers' and indexes' cost",
                Verdict::Info,
            ));
        }
    }
}

fn desktop_rows(r: &desktop::DesktopReport, rows: &mut Vec<Row>) {
    let n = r.full.launches.len();
    let big = thousands(r.rows);
    rows.push(Row::new(
        format!("Desktop: launch → first painted window, timeline of {big} rows, {n} launches (median / p99)"),
        median_p99(&r.full.window),
        "< 1 s",
        Verdict::judge(r.full.window.p99_ms < 1000.0),
    ));
    rows.push(Row::new(
        format!(
            "Desktop: launch → first painted window, empty project, {n} launches (median / p99)"
        ),
        median_p99(&r.empty.window),
        "baseline",
        Verdict::Info,
    ));
    let first_rows = r.full.launches.first().map_or(0, |l| l.first_rows);
    rows.push(Row::new(
        format!(
            "Desktop: first timeline paint of a {big}-row history (newest {} rows) in the running app, rows requested → painted (median / p99)",
            thousands(first_rows)
        ),
        median_p99(&r.full.timeline_paint),
        "< 300 ms",
        Verdict::judge(r.full.timeline_paint.median_ms < 300.0),
    ));
    rows.push(Row::new(
        "Desktop: first timeline paint of an empty project in the running app (median / p99)",
        median_p99(&r.empty.timeline_paint),
        "baseline",
        Verdict::Info,
    ));
    rows.push(Row::new(
        format!(
            "Desktop: `hookd-desktop --open timeline…` handed to the running app → first rows painted, {big} rows (median / p99)"
        ),
        median_p99(&r.full.timeline_from_open),
        "context",
        Verdict::Info,
    ));
    rows.push(Row::new(
        format!("Desktop: all {big} rows in the timeline, rows requested → painted (median / p99)"),
        median_p99(&r.full.timeline_all),
        "context",
        Verdict::Info,
    ));
    let memory = |m: &desktop::Memory| {
        format!(
            "{:.0} MiB ({:.0} MiB; PSS {:.0} MiB)",
            m.rss_total_mib, m.rss_app_mib, m.pss_total_mib
        )
    };
    let under_150_mb = |m: &desktop::Memory| Verdict::judge(m.rss_total_mib * 1.048_576 < 150.0);
    rows.push(Row::new(
        "Desktop: idle RSS in the tray, 5 s after a `--hidden` launch (the login's; no window built): app + WebKit processes (app alone; PSS)",
        memory(&r.tray.idle_in_tray),
        "< 150 MB",
        under_150_mb(&r.tray.idle_in_tray),
    ));
    rows.push(Row::new(
        "Desktop: idle RSS 5 s after the window painted: app + WebKit processes (app alone; PSS)",
        memory(&r.empty.idle),
        "< 150 MB",
        under_150_mb(&r.empty.idle),
    ));
    rows.push(Row::new(
        "Desktop: idle RSS 5 s after closing that window (back in the tray): app + WebKit processes (app alone; PSS)",
        memory(&r.tray.after_close),
        "context",
        Verdict::Info,
    ));
    rows.push(Row::new(
        "Desktop: `--open` to the app in the tray → its new window painted (median / p99)",
        median_p99(&r.tray.window_from_tray),
        "context",
        Verdict::Info,
    ));
    rows.push(Row::new(
        format!(
            "Desktop: RSS 5 s after painting {big} rows: app + WebKit processes (app alone; PSS)"
        ),
        memory(&r.full.after_timeline),
        "context",
        Verdict::Info,
    ));
}

fn desktop_scale_rows(r: &desktop_scale::ScaleReport, rows: &mut Vec<Row>) {
    let Some(empty) = r.projects.iter().find(|p| p.rows == 0) else {
        return;
    };
    let opt = |s: &Option<Summary>| s.as_ref().map_or_else(|| "-".to_owned(), median_p99);
    let mib = |m: &Option<desktop::Memory>| {
        m.as_ref().map_or_else(
            || "-".to_owned(),
            |m| {
                format!(
                    "{:.0} MiB (PSS {:.0} MiB)",
                    m.rss_total_mib, m.pss_total_mib
                )
            },
        )
    };
    let judge = |s: &Option<Summary>, under_ms: f64| {
        Verdict::judge(s.as_ref().is_some_and(|s| s.median_ms < under_ms))
    };
    for p in &r.projects {
        let full = p.rows > 0;
        let who = if full {
            format!("{} rows", thousands(p.rows))
        } else {
            "empty project".to_owned()
        };
        let target = |t: &str| {
            if full {
                t.to_owned()
            } else {
                "baseline".to_owned()
            }
        };
        let verdict = |v: Verdict| if full { v } else { Verdict::Info };
        let n = p.rounds.len();
        rows.push(Row::new(
            format!("Desktop {who}: launch with `--open timeline?repo=…` → first rows painted, {n} launches (median / p99)"),
            opt(&p.cold),
            target("< 1 s"),
            verdict(judge(&p.cold, 1000.0)),
        ));
        rows.push(Row::new(
            format!("Desktop {who}: `--open timeline?repo=…` handed to the running app → rows painted (median / p99)"),
            opt(&p.handed),
            "context",
            Verdict::Info,
        ));
        rows.push(Row::new(
            format!("Desktop {who}: filter change (tool, agent, file, none) → rows painted, the view's own time (median / p99)"),
            opt(&p.filter_view),
            target("< 150 ms"),
            verdict(judge(&p.filter_view, 150.0)),
        ));
        rows.push(Row::new(
            format!("Desktop {who}: filter change from `--open` handed over → rows painted, wall clock (median / p99)"),
            opt(&p.filter_wall),
            "context",
            Verdict::Info,
        ));
        if full {
            rows.push(Row::new(
                format!("Desktop {who}: jump to the middle → its rows painted, the view's own time (median / p99)"),
                opt(&p.jump_view),
                "< 100 ms",
                judge(&p.jump_view, 100.0),
            ));
            rows.push(Row::new(
                format!("Desktop {who}: jump to the middle from `--open` handed over → rows painted, wall clock (median / p99)"),
                opt(&p.jump_wall),
                "context",
                Verdict::Info,
            ));
        }
        let open_diff = match (&p.window_open, &empty.window_open) {
            (Some(m), Some(e)) => Some(m.rss_total_mib - e.rss_total_mib),
            _ => None,
        };
        rows.push(Row::new(
            format!("Desktop {who}: RSS with the timeline open, 5 s after it painted: app + WebKit (PSS)"),
            mib(&p.window_open),
            if full {
                format!(
                    "within 30 MiB of empty ({})",
                    open_diff.map_or_else(|| "-".to_owned(), |d| format!("{d:+.0} MiB"))
                )
            } else {
                "baseline".to_owned()
            },
            verdict(Verdict::judge(open_diff.is_some_and(|d| d < 30.0))),
        ));
        rows.push(Row::new(
            format!("Desktop {who}: longest frame gap of the page during a {}-event burst, over {n} bursts", thousands(desktop_scale::BURST_EVENTS)),
            p.longest_frame_ms.map_or_else(|| "-".to_owned(), |f| format!("{f:.0} ms")),
            "< 100 ms",
            Verdict::judge(p.longest_frame_ms.is_some_and(|f| f < 100.0)),
        ));
        let lost = p
            .rounds
            .iter()
            .filter(|r| r.burst.total_after != r.burst.total_before + r.burst.events)
            .count();
        rows.push(Row::new(
            format!("Desktop {who}: the list's total grew by exactly the burst, {n} bursts"),
            format!("{} of {n}", n - lost),
            "all",
            Verdict::judge(lost == 0 && n > 0),
        ));
        rows.push(Row::new(
            format!("Desktop {who}: the first event after a launch → committed (the daemon opens the ledger) (median / p99)"),
            opt(&p.first_write),
            "context",
            Verdict::Info,
        ));
        rows.push(Row::new(
            format!("Desktop {who}: burst's first byte → the ledger holding it whole, the daemon's part (median / p99)"),
            opt(&p.committed),
            "context",
            Verdict::Info,
        ));
        rows.push(Row::new(
            format!("Desktop {who}: burst's first byte → the list's total showing it whole (median / p99)"),
            opt(&p.caught_up),
            "context",
            Verdict::Info,
        ));
        let back = match (&p.before_burst, &p.after_burst) {
            (Some(b), Some(a)) => Some(a.rss_total_mib / b.rss_total_mib - 1.0),
            _ => None,
        };
        rows.push(Row::new(
            format!("Desktop {who}: RSS before the burst → 15 s after the list caught up"),
            format!("{} → {}", mib(&p.before_burst), mib(&p.after_burst)),
            format!(
                "within 10% ({})",
                back.map_or_else(|| "-".to_owned(), |b| format!("{:+.1}%", b * 100.0))
            ),
            Verdict::judge(back.is_some_and(|b| b <= 0.10)),
        ));
        for (seconds, later) in desktop_scale::LATER_READS.iter().zip(&p.later_burst) {
            let back = p
                .before_burst
                .as_ref()
                .map(|b| later.rss_total_mib / b.rss_total_mib - 1.0);
            rows.push(Row::new(
                format!(
                    "Desktop {who}: RSS before the burst → {seconds} s after the list caught up"
                ),
                format!("{} → {}", mib(&p.before_burst), mib(&Some(*later))),
                format!(
                    "within 10% ({})",
                    back.map_or_else(|| "-".to_owned(), |b| format!("{:+.1}%", b * 100.0))
                ),
                Verdict::judge(back.is_some_and(|b| b <= 0.10)),
            ));
        }
        let repeats = p.rounds.iter().map(|r| r.repeats.len()).min().unwrap_or(0);
        for k in 0..repeats {
            let median = |f: &dyn Fn(&desktop_scale::Burst) -> Option<desktop::Memory>| {
                let all: Vec<_> = p.rounds.iter().filter_map(|r| f(&r.repeats[k])).collect();
                (!all.is_empty()).then(|| desktop::Memory::median(&all))
            };
            let before = median(&|b| Some(b.before));
            let last = median(&|b| b.later.last().copied());
            rows.push(Row::new(
                format!(
                    "Desktop {who}: burst {} in the same launch: RSS before it → {} s after the list caught up",
                    k + 2,
                    desktop_scale::LATER_READS.last().unwrap_or(&0)
                ),
                format!("{} → {}", mib(&before), mib(&last)),
                "context",
                Verdict::Info,
            ));
        }
    }
    for f in &r.failures {
        rows.push(Row::new(
            format!("Desktop check failed: {}", f.project),
            f.what.clone(),
            "",
            Verdict::Fail,
        ));
    }
}

fn emit_rows(r: &emit::EmitReport, rows: &mut Vec<Row>) {
    let n = thousands(r.runs as u64);
    rows.push(Row::new(
        format!(
            "Emit wall time, `hookd-emit` spawn → exit, {n} calls, {} B payload (median / p99)",
            r.payload_bytes
        ),
        median_p99(&r.hookd_emit),
        "median < 1 ms",
        Verdict::judge(r.hookd_emit.median_ms < 1.0),
    ));
    rows.push(Row::new(
        format!("Emit wall time, bash + jq + socat emitter, {n} calls, interleaved (median / p99)"),
        median_p99(&r.bash),
        "baseline",
        Verdict::Info,
    ));
    if let Some(baseline) = &r.baseline {
        rows.push(Row::new(
            format!(
                "Emit wall time, baseline `hookd-emit` (${}), {n} calls, interleaved (median / p99)",
                emit::BASELINE_ENV
            ),
            median_p99(baseline),
            "baseline",
            Verdict::Info,
        ));
    }
    rows.push(Row::new(
        "Emit speed-up: bash median ÷ `hookd-emit` median",
        format!("{:.1}×", r.speedup),
        "≥ 10×",
        Verdict::judge(r.speedup >= 10.0),
    ));
    rows.push(Row::new(
        "Check: every emitted event committed and in the ledger",
        format!(
            "{} / {} notices, {} / {} rows",
            r.events_committed, r.events_expected, r.ledger_events, r.events_expected
        ),
        "all",
        Verdict::judge(r.all_delivered()),
    ));
}

fn health_rows(r: &health::HealthBenchReport, rows: &mut Vec<Row>) {
    let smallest = r.sizes.first().map(|s| s.bounded.median_ms);
    for size in &r.sizes {
        let n = thousands(size.events);
        rows.push(Row::new(
            format!(
                "Health check, full (`hookd doctor`): {n} events, {} hook runs in 30 days (median / p99)",
                thousands(size.hook_runs)
            ),
            median_p99(&size.full),
            "context",
            Verdict::Info,
        ));
        let flat = smallest.is_none_or(|base| size.bounded.median_ms <= 2.0 * base + 5.0);
        rows.push(Row::new(
            format!(
                "Health check, the tray's recount (newest {} runs and events): {n} events (median / p99)",
                thousands(r.tray_newest)
            ),
            median_p99(&size.bounded),
            "flat: median ≤ 2 × the smallest size's + 5 ms",
            Verdict::judge(flat),
        ));
        rows.push(Row::new(
            format!("… the same serious findings as the full check, the failing hook among them: {n} events"),
            format!(
                "{} ({})",
                if size.agree() { "yes" } else { "no" },
                size.bounded_serious.join(", ")
            ),
            "yes",
            Verdict::judge(size.agree()),
        ));
    }
}

fn rewind_rows(r: &rewind::RewindReport, rows: &mut Vec<Row>) {
    let n = thousands(r.runs as u64);
    rows.push(Row::new(
        format!(
            "`hookd-emit PreToolUse`, a tool without a snapshot (Read), {n} calls, {} B payload (median / p99)",
            r.payload_bytes
        ),
        median_p99(&r.plain),
        "baseline",
        Verdict::Info,
    ));
    for (what, s) in [
        (
            "a 100 KB file whose content is new each call (compressed, stored)",
            &r.snapshot_new,
        ),
        (
            "a 100 KB file whose content is already stored (hashed)",
            &r.snapshot_stored,
        ),
    ] {
        rows.push(Row::new(
            format!("`hookd-emit PreToolUse` of a Write, {what}, interleaved (median / p99)"),
            median_p99(s),
            "context",
            Verdict::Info,
        ));
        let added = s.median_ms - r.plain.median_ms;
        rows.push(Row::new(
            format!("Added by the snapshot, {what}: median − plain median"),
            format!("{} ms", short_ms(added)),
            "< 1 ms",
            Verdict::judge(added < 1.0),
        ));
    }
    rows.push(Row::new(
        format!(
            "Rewind of a {}-file session and its undo, alternating: open + plan + apply (median / p99)",
            r.session_files
        ),
        median_p99(&r.rewind),
        "< 1 s",
        Verdict::judge(r.rewind.p99_ms < 1000.0),
    ));
    rows.push(Row::new(
        "… of which the plan (median / p99)",
        median_p99(&r.plan),
        "context",
        Verdict::Info,
    ));
    for b in &r.bytes {
        let per_million = |bytes: u64| bytes as f64 * 1_000_000.0 / b.writes.max(1) as f64 / 1e9;
        let total = per_million(b.ledger_bytes + b.store_bytes);
        let (what, target, verdict) = match b.shape {
            rewind::WriteShape::Inline => (
                "payloads as received (schema 11)",
                "baseline",
                Verdict::Info,
            ),
            rewind::WriteShape::ByReference => (
                "contents by reference in the store",
                "≤ 0.73 GB (a third of 2.2 GB)",
                Verdict::judge(total <= 2.2 / 3.0),
            ),
            rewind::WriteShape::ClaudeInline => (
                "Claude Code's real PostToolUse shape (content twice, old content, patch), as received",
                "baseline",
                Verdict::Info,
            ),
            rewind::WriteShape::ClaudeByReference => (
                "Claude Code's real shape, by reference",
                "context",
                Verdict::Info,
            ),
        };
        rows.push(Row::new(
            format!(
                "Disk for {} recorded 1 KB Writes ({} B payload), {what}: ledger + store ({} contents), per million",
                thousands(b.writes),
                b.payload_bytes,
                thousands(b.store_objects)
            ),
            format!(
                "{:.2} GB ({:.2} + {:.2}); recorded in {:.1} s",
                total,
                per_million(b.ledger_bytes),
                per_million(b.store_bytes),
                b.record_ms / 1000.0
            ),
            target,
            verdict,
        ));
        if let Some(c) = &b.compacted {
            rows.push(Row::new(
                "… that ledger after `hookd ledger compact` (rewrite in place, then VACUUM)",
                format!(
                    "{:.2} GB ledger; rewrite {:.1} s + VACUUM {:.1} s per million",
                    per_million(c.ledger_bytes),
                    c.rewrite_ms / 1000.0 * 1_000_000.0 / b.writes.max(1) as f64,
                    c.vacuum_ms / 1000.0 * 1_000_000.0 / b.writes.max(1) as f64,
                ),
                "context",
                Verdict::Info,
            ));
        }
    }
}

fn daemon_memory_rows(r: &daemon_memory::DaemonMemoryReport, rows: &mut Vec<Row>) {
    rows.push(Row::new(
        "`hookd daemon` after its first event",
        r.started.to_string(),
        "baseline",
        Verdict::Info,
    ));
    for (i, b) in r.bursts.iter().enumerate() {
        rows.push(Row::new(
            format!(
                "`hookd daemon`, burst {} of {} events: before → peak → {} s after",
                i + 1,
                thousands(r.events),
                r.after_seconds
            ),
            format!(
                "{} → {} → {} (committed in {:.2} s)",
                b.before, b.peak, b.after, b.commit_seconds
            ),
            "context",
            Verdict::Info,
        ));
    }
    rows.push(Row::new(
        "`hookd daemon` RSS after the last burst, over after its first event",
        format!("{:+.0} %", r.growth_percent()),
        "context: the app's figure is judged against 10 %",
        Verdict::Info,
    ));
}

fn ingest_rows(r: &ingest::IngestReport, rows: &mut Vec<Row>) {
    rows.push(Row::new(
        format!(
            "Ingest rate, {} events ({} B lines) over {} connections, first byte → last commit",
            thousands(r.events),
            r.line_bytes,
            r.clients
        ),
        format!(
            "{} events/s ({:.2} s)",
            thousands(r.events_per_sec.round() as u64),
            r.seconds
        ),
        "≥ 20,000 events/s",
        Verdict::judge(r.events_per_sec >= 20_000.0),
    ));
    rows.push(Row::new(
        "Check: ledger holds exactly one event and one mutation per line",
        format!(
            "{} events, {} mutations; {} lines rejected, {} spooled",
            thousands(r.ledger_events.max(0) as u64),
            thousands(r.ledger_mutations.max(0) as u64),
            r.daemon.lines_rejected,
            r.daemon.events_spooled
        ),
        format!("{} each", thousands(r.events)),
        Verdict::judge(r.exact()),
    ));
}

fn latency_rows(r: &latency::LatencyReport, rows: &mut Vec<Row>) {
    let n = thousands(r.events as u64);
    let rate = r.rate_per_sec;
    rows.push(Row::new(
        format!("Emit-to-commit latency at {rate:.0} events/s, `hookd-emit` spawn → commit notice, {n} events (median / p99)"),
        median_p99(&r.emit_to_commit.latency),
        "p99 < 5 ms",
        Verdict::judge(r.emit_to_commit.latency.p99_ms < 5.0 && r.emit_to_commit.missing == 0),
    ));
    rows.push(Row::new(
        format!("Socket-to-commit latency at {rate:.0} events/s, in-process client (no emit process), {n} events (median / p99)"),
        median_p99(&r.socket_to_commit.latency),
        "context: the daemon's share",
        Verdict::Info,
    ));
    rows.push(Row::new(
        "Check: every event's commit notice seen; worst schedule slip",
        format!(
            "{} + {} missing; slip {:.2} / {:.2} ms",
            r.emit_to_commit.missing,
            r.socket_to_commit.missing,
            r.emit_to_commit.max_schedule_slip_ms,
            r.socket_to_commit.max_schedule_slip_ms
        ),
        "0 missing",
        Verdict::judge(r.emit_to_commit.missing == 0 && r.socket_to_commit.missing == 0),
    ));
}

fn query_rows(r: &query::QueryReport, rows: &mut Vec<Row>) {
    let n = thousands(r.rows);
    let t = &r.typical;
    rows.push(Row::new(
        format!(
            "`hookd query --file --format json`, whole process, {n}-row ledger, typical file ({} rows) (median / p99)",
            t.matching_rows
        ),
        median_p99(&t.process),
        "median < 20 ms",
        Verdict::judge(t.process.median_ms < 20.0),
    ));
    rows.push(Row::new(
        "`Ledger::mutations` in-process, same file (median)",
        format!("{} ms", short_ms(t.in_process.median_ms)),
        "context",
        Verdict::Info,
    ));
    let h = &r.hottest;
    rows.push(Row::new(
        format!(
            "`hookd query --file`, whole process, hottest file ({} rows) (median / p99)",
            h.matching_rows
        ),
        median_p99(&h.process),
        "context",
        Verdict::Info,
    ));
    rows.push(Row::new(
        "Check: both queries return exactly the file's rows",
        format!(
            "{} files, ledger {:.0} MB, built in {:.0} s",
            thousands(r.distinct_files as u64),
            r.ledger_bytes as f64 / 1e6,
            r.build_seconds
        ),
        "exact",
        Verdict::judge(t.correct && h.correct),
    ));
}

fn executor_rows(r: &executor::ExecutorReport, rows: &mut Vec<Row>) {
    let n = thousands(r.runs as u64);
    let hooks = r.hooks;
    for (v, label) in [(&r.silent, "`exit 0`"), (&r.json, "JSON `allow`")] {
        rows.push(Row::new(
            format!(
                "Executor `run_all`, {hooks} {label} hooks in parallel, PreToolUse, {} B payload, {n} events (median / p99)",
                r.payload_bytes
            ),
            median_p99(&v.executor),
            "context",
            Verdict::Info,
        ));
        rows.push(Row::new(
            format!(
                "Same {hooks} `sh -c` spawned directly with tokio, stdio to /dev/null, interleaved (median / p99)"
            ),
            median_p99(&v.baseline),
            "baseline: the hooks' own cost",
            Verdict::Info,
        ));
        rows.push(Row::new(
            format!(
                "Executor overhead per event, {label} hooks: executor median − baseline median (p99 − p99)"
            ),
            format!(
                "{} ms ({} ms)",
                short_ms(v.overhead_median_ms),
                short_ms(v.overhead_p99_ms)
            ),
            "< 2 ms",
            Verdict::judge(v.overhead_median_ms < 2.0),
        ));
    }
    let problem = r
        .silent
        .first_problem
        .as_deref()
        .or(r.json.first_problem.as_deref())
        .map(|p| format!("; first problem: {p}"))
        .unwrap_or_default();
    rows.push(Row::new(
        format!(
            "Check: every executor event had {hooks} runs exiting 0; JSON variant merged to `allow`"
        ),
        format!(
            "{} / {n} `exit 0`, {} / {n} JSON{problem}",
            thousands(r.silent.correct_events as u64),
            thousands(r.json.correct_events as u64),
        ),
        "all",
        Verdict::judge(r.all_correct()),
    ));
}

fn wait_rows(r: &wait::WaitReport, rows: &mut Vec<Row>) {
    let n = thousands(r.runs as u64);
    let (none, one) = (&r.no_match, &r.matching);
    rows.push(Row::new(
        format!(
            "`hookd-emit --wait PreToolUse`, no managed hook matching (project hook for `{}`), spawn → exit, {n} calls, {} B Bash payload (median / p99)",
            none.hook_matcher, r.payload_bytes
        ),
        median_p99(&none.wait),
        "context",
        Verdict::Info,
    ));
    rows.push(Row::new(
        "`hookd-emit PreToolUse` (plain), same project and payload, interleaved (median / p99)",
        median_p99(&none.plain),
        "baseline",
        Verdict::Info,
    ));
    rows.push(Row::new(
        "Added by `--wait` with no match: wait median − plain median (p99 − p99)",
        format!(
            "{} ms ({} ms)",
            short_ms(none.added_median_ms),
            short_ms(none.added_p99_ms)
        ),
        "< 1 ms",
        Verdict::judge(none.added_median_ms < 1.0),
    ));
    rows.push(Row::new(
        format!(
            "`hookd-emit --wait PreToolUse`, one managed hook matching (`{}` → `{}`), interleaved (median / p99)",
            one.hook_matcher, one.hook_command
        ),
        median_p99(&one.wait),
        format!("context: plain emit there {}", median_p99(&one.plain)),
        Verdict::Info,
    ));
    rows.push(Row::new(
        "Added by `--wait` running that hook: wait median − plain median (p99 − p99)",
        format!(
            "{} ms ({} ms)",
            short_ms(one.added_median_ms),
            short_ms(one.added_p99_ms)
        ),
        "context",
        Verdict::Info,
    ));
    let calls = thousands(r.calls as u64);
    let problem = none
        .first_problem
        .as_deref()
        .or(one.first_problem.as_deref())
        .map(|p| format!("; first problem: {p}"))
        .unwrap_or_default();
    rows.push(Row::new(
        "Check: every call exited 0 with empty stdout; every event in its ledger; the matching hook ran once per `--wait`, the other never",
        format!(
            "no match {} + {} / {calls} calls ok, {} events, {} hook runs; matching {} + {} / {calls} ok, {} events, {} / {calls} hook runs exit 0{problem}",
            thousands(none.wait_calls_ok as u64),
            thousands(none.plain_calls_ok as u64),
            thousands(none.ledger_events.max(0) as u64),
            none.hook_runs,
            thousands(one.wait_calls_ok as u64),
            thousands(one.plain_calls_ok as u64),
            thousands(one.ledger_events.max(0) as u64),
            thousands(one.hook_runs_ok.max(0) as u64),
        ),
        "all (warm-ups included)",
        Verdict::judge(r.all_correct()),
    ));
}

fn publish_rows(r: &publish::PublishReport, rows: &mut Vec<Row>) {
    let n = thousands(r.events);
    let (d, w) = (&r.direct, &r.daemon);
    let connect = d
        .connect_ms
        .map(|ms| format!(", of which connecting {} ms", short_ms(ms)))
        .unwrap_or_default();
    rows.push(Row::new(
        format!(
            "Publish rate with publisher confirms: `Publisher` draining an outbox of {n} Write events ({} B payload, {} B message bodies, batches of {}) to a durable queue, spawn → last confirm",
            r.payload_bytes,
            r.body_bytes,
            thousands(r.batch as u64)
        ),
        format!(
            "{} events/s ({:.2} s{connect})",
            thousands(d.events_per_sec.round() as u64),
            d.seconds
        ),
        "figure (no target)",
        Verdict::Info,
    ));
    let outbox = w
        .outbox_seconds
        .map(|s| format!("; all in the outbox after {s:.2} s"))
        .unwrap_or_default();
    rows.push(Row::new(
        format!(
            "Same {n} events through the whole daemon in `amqp` mode: {} B lines over {} connections, first byte → all in the queue (depth polled every 10 ms)",
            w.line_bytes, w.clients
        ),
        format!(
            "{} events/s ({:.2} s{outbox})",
            thousands(w.events_per_sec.round() as u64),
            w.seconds
        ),
        "context",
        Verdict::Info,
    ));
    let problem = d
        .last_error
        .as_deref()
        .map(|e| format!("; publisher error: {e}"))
        .unwrap_or_default();
    rows.push(Row::new(
        "Check: each queue holds exactly the events sent, both outboxes are empty; the daemon rejected, spooled and wrote nothing locally",
        format!(
            "publisher {} confirms, queue {}, outbox {}; daemon queue {}, outbox {}, {} rejected, {} spooled, ledger {}{problem}",
            thousands(d.published),
            thousands(u64::from(d.queue_messages)),
            d.outbox_left,
            thousands(u64::from(w.queue_messages)),
            w.outbox_left,
            w.daemon.lines_rejected,
            w.daemon.events_spooled,
            if w.ledger_written { "written" } else { "untouched" }
        ),
        format!("{n} each, 0 left"),
        Verdict::judge(r.exact()),
    ));
}

fn broker_latency_rows(
    r: &broker_latency::BrokerLatencyReport,
    local: Option<&latency::LatencyReport>,
    rows: &mut Vec<Row>,
) {
    let n = thousands(r.events as u64);
    let rate = r.rate_per_sec;
    let reference = local.map_or_else(
        || "figure; local (no broker) emit-to-commit: run with `--only latency`".to_owned(),
        |l| {
            format!(
                "figure; local (no broker) emit-to-commit: {}",
                median_p99(&l.emit_to_commit.latency)
            )
        },
    );
    rows.push(Row::new(
        format!(
            "Emit → broker → consumer → ledger latency at {rate:.0} events/s, `hookd-emit` spawn → row visible in the ledger (read every 1 ms), {n} events, consumer prefetch {} / batch wait {} ms (median / p99)",
            r.prefetch,
            short_ms(r.batch_wait_ms)
        ),
        median_p99(&r.emit_to_ledger),
        reference,
        Verdict::Info,
    ));
    if let Some(outbox) = &r.emit_to_outbox {
        rows.push(Row::new(
            "Of which `hookd-emit` spawn → the daemon's outbox commit (median / p99)",
            median_p99(outbox),
            "context: the daemon's share",
            Verdict::Info,
        ));
    }
    let errors = if r.ledger_poll_errors > 0 {
        format!("; {} ledger read errors (retried)", r.ledger_poll_errors)
    } else {
        String::new()
    };
    rows.push(Row::new(
        "Check: every event in the ledger exactly once, nothing dead-lettered; worst schedule slip",
        format!(
            "{} / {n} once, {} missing, {} duplicated; consumer stored {}, {} duplicates, {} dead-lettered; slip {:.2} ms{errors}",
            thousands(r.exactly_once as u64),
            r.missing,
            r.duplicated,
            thousands(r.consumer.stored),
            r.consumer.duplicates,
            r.consumer.dead_lettered,
            r.max_schedule_slip_ms
        ),
        "all, once",
        Verdict::judge(r.all_once()),
    ));
}

fn print_markdown(report: &Report) {
    let m = &report.machine;
    println!("# hookd benchmark\n");
    println!("- Date: {}", report.date_utc);
    println!(
        "- Machine: {} CPUs, {}, {:.1} GiB RAM, Linux {}",
        m.cpus, m.cpu_model, m.memory_gib, m.kernel
    );
    println!("- hookd {} (release build)\n", report.hookd_version);
    println!("| Figure | Result | Target / baseline | Verdict |");
    println!("|---|---|---|---|");
    for row in &report.rows {
        println!(
            "| {} | {} | {} | {} |",
            cell(&row.figure),
            cell(&row.result),
            cell(&row.reference),
            row.verdict.label()
        );
    }
}

/// Table cells cannot hold a pipe or a newline.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn median_p99(s: &Summary) -> String {
    format!("{} / {} ms", short_ms(s.median_ms), short_ms(s.p99_ms))
}

/// Milliseconds with three significant-ish digits: 0.842, 12.4, 153 (and
/// the same for a negative difference: -0.031).
fn short_ms(ms: f64) -> String {
    if ms.abs() < 10.0 {
        format!("{ms:.3}")
    } else if ms.abs() < 100.0 {
        format!("{ms:.1}")
    } else {
        format!("{ms:.0}")
    }
}

/// 100000 → "100,000".
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }

    #[test]
    fn only_accepts_a_comma_list_and_repeats() {
        let args = Args::parse_from(["hookd-bench", "--only", "emit,query", "--only", "ingest"]);
        assert_eq!(
            args.only,
            [Measurement::Emit, Measurement::Query, Measurement::Ingest]
        );
        let args = Args::parse_from(["hookd-bench"]);
        assert!(args.only.is_empty());
        assert_eq!(args.query_rows, 1_000_000);
        assert_eq!(args.executor_runs, 200);
        assert_eq!(args.wait_runs, 500);
        assert_eq!(args.publish_events, 20_000);
        assert_eq!(args.broker_rate_events, 1_000);
        let args = Args::parse_from(["hookd-bench", "--only", "executor,wait"]);
        assert_eq!(args.only, [Measurement::Executor, Measurement::Wait]);
        let args = Args::parse_from(["hookd-bench", "--only", "publish,broker-latency"]);
        assert_eq!(
            args.only,
            [Measurement::Publish, Measurement::BrokerLatency]
        );
    }
}
