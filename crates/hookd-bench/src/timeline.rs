//! Issue 16's figures: the timeline read at one and ten million rows, the
//! paged API (`ledger::page`, `ledger::histogram`) beside the old path
//! (`query::run`, which reads the whole filtered history, payloads
//! included), in one run.
//!
//! For each size the ledger comes from [`crate::history`] (built once,
//! cached). Measured in this process: the old read unlimited (the first
//! size only: it is the path that took 24 s and 2 GB) and limited to 1,000
//! rows; pages at the newest rows, at the middle position, after and before
//! a row, under each filter, and what a 20,000-row burst brings to a live
//! list (`newer_than`); charts over the whole history, three hours and a
//! week. As whole processes: `hookd query --limit 1000` and with `--file`.
//! Then the one-time cost users pay, migrating a ledger written before
//! migrations 0004–0008 (the timeline's counts, indexes and search), and what
//! their triggers and indexes cost each append.
//!
//! Results are checked where that is cheap: the page at a position against
//! the old path's rows at that position, totals against SQL counts, every
//! burst row seen once.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context as _, Result, bail, ensure};
use chrono::{DateTime, Utc};
use hookd_core::ledger::histogram::{Histogram, HistogramRequest, histogram};
use hookd_core::ledger::page::{Anchor, Cursor, MAX_PAGE, Page, page};
use hookd_core::ledger::query::{self, Query, QueryScope};
use hookd_core::ledger::{Ledger, MutationFilter};
use hookd_core::record::MutationRow;
use rusqlite_migration::{M, Migrations};
use serde::Serialize;

use crate::env::Tools;
use crate::history::{self, Built, History, Shape};
use crate::stats::Summary;

/// Unmeasured runs before the measured ones.
const WARMUP_RUNS: usize = 3;

/// Rows a screen's page asks for.
const PAGE_ROWS: usize = 200;

/// Rows of `hookd query --limit` and the old path's limited read.
const LIMIT: u64 = 1_000;

/// Rows of the burst a live list catches up with.
const BURST_ROWS: u64 = 20_000;

/// Rows appended to measure the ingest cost of migrations 0004–0008.
const INGEST_ROWS: u64 = 100_000;

/// The batch sizes of the ingest series: the daemon's largest batch (a
/// burst) and a small one (events trickling in).
const INGEST_BATCHES: [usize; 2] = [hookd_core::daemon::ingest::MAX_BATCH, 16];

/// The ledger schema before migration 0004: what a user upgrading has.
static MIGRATIONS_V3: std::sync::LazyLock<Migrations<'static>> = std::sync::LazyLock::new(|| {
    Migrations::new(vec![
        M::up(include_str!("../../hookd-core/src/ledger/0001_init.sql")),
        M::up(include_str!(
            "../../hookd-core/src/ledger/0002_hook_runs.sql"
        )),
        M::up(include_str!(
            "../../hookd-core/src/ledger/0003_flags_and_skips.sql"
        )),
    ])
});

/// One timed operation.
#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    /// What was done.
    pub what: String,
    /// Its times.
    pub time: Summary,
    /// Rows it returned (the last run).
    pub rows: u64,
    /// Peak RSS growth over the measured runs, MiB (in-process: `VmHWM`
    /// after `clear_refs` minus the RSS before; a process: its max RSS).
    pub peak_mib: Option<f64>,
    /// The target for its median, ms, if it has one.
    pub target_ms: Option<f64>,
}

/// One ledger size's figures.
#[derive(Debug, Clone, Serialize)]
pub struct SizeReport {
    /// Rows (mutations, one event each) when measured: the built rows and
    /// the bursts of earlier runs (each run appends one, after the page
    /// figures).
    pub rows: u64,
    /// The ledger file, bytes.
    pub ledger_bytes: u64,
    /// Seconds its build took (maybe in an earlier run: it is cached).
    pub build_seconds: f64,
    /// Whether this run built it.
    pub built_now: bool,
    /// The filters' values: agent, file (with its rows), tool.
    pub filter_values: String,
    /// In-process figures, old path and new.
    pub in_process: Vec<Figure>,
    /// Whole `hookd query` processes.
    pub process: Vec<Figure>,
    /// Peak RSS growth of this process over all page and chart calls, MiB.
    pub pages_peak_mib: f64,
    /// Correctness checks: what was compared, and whether it held.
    pub checks: Vec<(String, bool)>,
}

/// Migrations 0004–0006 on an existing ledger, and ingest with and without them.
#[derive(Debug, Clone, Serialize)]
pub struct MigrationReport {
    /// Rows in the ledger migrated.
    pub rows: u64,
    /// The version-3 ledger's file, bytes.
    pub bytes_before: u64,
    /// After `Ledger::open_existing` migrated it (WAL checkpointed), bytes.
    pub bytes_after: u64,
    /// Seconds `Ledger::open_existing` took (the migration).
    pub migrate_seconds: f64,
    /// The hour counts built by the migration equal the rows.
    pub counts_match: bool,
    /// Ingest series: batch size, rows/s into the v3 schema, into the v4 schema.
    pub ingest: Vec<IngestPair>,
}

/// One batch size's ingest rate, before and after migrations 0004–0008.
#[derive(Debug, Clone, Serialize)]
pub struct IngestPair {
    /// Rows per transaction.
    pub batch: usize,
    /// Rows appended to each ledger.
    pub rows: u64,
    /// Rows/s into the schema of version 3.
    pub v3_rows_per_sec: f64,
    /// Rows/s into the schema of version 4.
    pub v4_rows_per_sec: f64,
}

/// The whole timeline measurement.
#[derive(Debug, Clone, Serialize)]
pub struct TimelineReport {
    /// Per ledger size.
    pub sizes: Vec<SizeReport>,
    /// Per migrated size.
    pub migrations: Vec<MigrationReport>,
}

/// Measures every size in `sizes` (the old unlimited path only at the
/// first), then the migration at each of `migrate` (0: none).
pub fn run(
    tools: &Tools,
    cache: &Path,
    sizes: &[u64],
    migrate: &[u64],
    runs: usize,
) -> Result<TimelineReport> {
    ensure!(runs > 0, "--timeline-runs must be at least 1");
    std::fs::create_dir_all(cache)
        .with_context(|| format!("cannot create the cache {}", cache.display()))?;
    let cache = cache.canonicalize()?;
    let data = tempfile::Builder::new()
        .prefix("hookd-bench-timeline-")
        .tempdir()?;
    let mut report = TimelineReport {
        sizes: Vec::new(),
        migrations: Vec::new(),
    };
    for (i, &rows) in sizes.iter().enumerate() {
        let built = history::cached(&cache, Shape::heavy_user(rows), "timeline")?;
        report
            .sizes
            .push(measure_size(tools, &built, data.path(), runs, i == 0)?);
    }
    for &rows in migrate.iter().filter(|&&rows| rows > 0) {
        let built = history::cached(&cache, Shape::heavy_user(rows), "timeline")?;
        report.migrations.push(measure_migration(&built, &cache)?);
    }
    Ok(report)
}

fn base_query(root: &Path, data_dir: &Path, filter: MutationFilter) -> Query {
    Query {
        scope: QueryScope::Repo(root.to_path_buf()),
        filter,
        file_arg: None,
        cwd: root.to_path_buf(),
        data_dir: data_dir.to_path_buf(),
    }
}

/// Times `f` over warm-ups and `runs`; returns the summary and the last result.
fn time_runs<T>(runs: usize, mut f: impl FnMut() -> Result<T>) -> Result<(Summary, T)> {
    let mut samples = Vec::with_capacity(runs);
    let mut last = None;
    for i in 0..WARMUP_RUNS + runs {
        let start = Instant::now();
        let out = f()?;
        let elapsed = start.elapsed();
        if i >= WARMUP_RUNS {
            samples.push(elapsed);
        }
        last = Some(out);
    }
    let last = last.context("no runs")?;
    Ok((Summary::of(&samples).context("no samples")?, last))
}

/// Resets this process's peak RSS to its current RSS; returns that, MiB.
fn reset_peak() -> f64 {
    // Writing 5 to clear_refs resets VmHWM (Linux ≥ 4.0); without it the
    // peak is the process's lifetime peak, an overestimate.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    status_mib("VmRSS:")
}

/// A `kB` field of /proc/self/status, in MiB.
fn status_mib(key: &str) -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|line| line.strip_prefix(key))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|kib| kib.parse::<f64>().ok())
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

fn measure_size(
    tools: &Tools,
    built: &Built,
    data_dir: &Path,
    runs: usize,
    with_unlimited: bool,
) -> Result<SizeReport> {
    let h = &built.history;
    let root = &h.root;
    let label = format!("timeline {}", thousands(h.shape.rows));
    let ledger = Ledger::open_existing(&built.ledger)?;
    let conn = ledger.connection();
    let count = |sql: &str, p: &[&dyn rusqlite::ToSql]| -> Result<u64> {
        Ok(conn.query_row(sql, p, |r| r.get::<_, i64>(0))? as u64)
    };
    let rows_now = count("SELECT COUNT(*) FROM mutations", &[])?;
    let newest: String = conn.query_row("SELECT max(event_timestamp) FROM mutations", [], |r| {
        r.get(0)
    })?;
    let newest_t = DateTime::parse_from_rfc3339(&newest)?.with_timezone(&Utc);
    // A typical file: the median of the files' row counts.
    let mut per_file: Vec<(String, u64)> = {
        let mut stmt = conn.prepare(
            "SELECT file_path, COUNT(*) FROM mutations GROUP BY file_path ORDER BY 2, 1",
        )?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?
            .collect::<rusqlite::Result<_>>()?
    };
    let (file, file_rows) = per_file.swap_remove(per_file.len() / 2);
    // An agent (a session) of the middle of the history, and a less common tool.
    let agent = History::session_id(h.session_of(h.shape.rows / 2));
    let agent_rows = count(
        "SELECT COUNT(*) FROM mutations WHERE agent_id = ?1",
        &[&agent],
    )?;
    let tool = "MultiEdit";
    let since = newest_t - chrono::Duration::days(2);
    let filter_values = format!(
        "agent {agent} ({agent_rows} rows), file {file} ({file_rows} rows), tool {tool}, since newest − 2 d"
    );
    eprintln!("[{label}] {rows_now} rows; {filter_values}");
    let ledger_bytes = std::fs::metadata(&built.ledger)?.len();
    let mut checks: Vec<(String, bool)> = Vec::new();
    let mut in_process = Vec::new();
    let q = |filter: MutationFilter| base_query(root, data_dir, filter);
    let all = q(MutationFilter::default());

    let rss_before = reset_peak();
    // New path: pages.
    let mut timed_page =
        |what: &str, query: &Query, anchor: &Anchor, limit: usize, target_ms: Option<f64>| {
            eprintln!("[{label}] {what}");
            let (time, p) = time_runs(runs, || Ok(page::<MutationRow>(query, anchor, limit)?))?;
            in_process.push(Figure {
                what: what.to_owned(),
                time,
                rows: p.rows.len() as u64,
                peak_mib: None,
                target_ms,
            });
            Ok::<Page<MutationRow>, anyhow::Error>(p)
        };
    let newest_page = timed_page(
        "`page` Newest, 200 rows",
        &all,
        &Anchor::Newest,
        PAGE_ROWS,
        Some(150.0),
    )?;
    let total = newest_page.total;
    checks.push((
        format!("page total {total} = rows {rows_now}"),
        total == rows_now,
    ));
    let middle = total / 2;
    let mid_page = timed_page(
        "`page` Position total/2, 200 rows",
        &all,
        &Anchor::Position { position: middle },
        PAGE_ROWS,
        Some(100.0),
    )?;
    let mid_first = mid_page.rows.first().context("empty middle page")?;
    let before_mid = count(
        "SELECT COUNT(*) FROM mutations WHERE event_timestamp < ?1 OR (event_timestamp = ?1 AND id < ?2)",
        &[&mid_first.record.event_timestamp, &mid_first.id],
    )?;
    checks.push((
        format!("row at position {middle}: {before_mid} rows before it by SQL"),
        before_mid == middle && mid_page.first == middle && mid_page.rows.len() == PAGE_ROWS,
    ));
    let cursor = Cursor::of(mid_first, None);
    let after = timed_page(
        "`page` After a cursor, 200 rows",
        &all,
        &Anchor::After {
            cursor: cursor.clone(),
        },
        PAGE_ROWS,
        None,
    )?;
    checks.push((
        "After(cursor) = the middle page's rows 1..".to_owned(),
        after
            .rows
            .iter()
            .map(|r| r.id)
            .take(PAGE_ROWS - 1)
            .collect::<Vec<_>>()
            == mid_page
                .rows
                .iter()
                .skip(1)
                .map(|r| r.id)
                .collect::<Vec<_>>(),
    ));
    let before = timed_page(
        "`page` Before a cursor, 200 rows",
        &all,
        &Anchor::Before { cursor },
        PAGE_ROWS,
        None,
    )?;
    checks.push((
        "Before(cursor) ends right before the middle row".to_owned(),
        before.rows.len() == PAGE_ROWS && before.first + PAGE_ROWS as u64 == middle,
    ));
    // What the timeline's finding tools cost: a broad and a narrow search,
    // a glob over many files and a part of an agent's id, beside the exact
    // filters. Each page's total is checked against an SQL count.
    let file_stem = file
        .rsplit('/')
        .next()
        .and_then(|name| name.split('.').next())
        .unwrap_or(&file)
        .to_owned();
    // The end of the id: the bench's ids share their first parts.
    let agent_part = agent
        .get(agent.len().saturating_sub(8)..)
        .unwrap_or(&agent)
        .to_owned();
    // Words as the core splits what a user typed: each a required prefix.
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let search_count = |text: &str| -> Result<u64> {
        let fts: Vec<String> = words(text).iter().map(|w| format!("\"{w}\"*")).collect();
        count(
            "SELECT COUNT(*) FROM mutation_search WHERE mutation_search MATCH ?1",
            &[&fts.join(" ")],
        )
    };
    type Matches<'a> = Box<dyn Fn(&MutationRow) -> bool + 'a>;
    let path_has = |searched: &str| -> Matches<'_> {
        let wanted = words(searched);
        Box::new(move |r: &MutationRow| {
            let text = format!(
                "{} {}",
                r.record.file_path.as_deref().unwrap_or(""),
                r.record.command.as_deref().unwrap_or("")
            );
            let have = words(&text);
            wanted
                .iter()
                .all(|w| have.iter().any(|h| h.starts_with(w.as_str())))
        })
    };
    let filters: Vec<(String, MutationFilter, u64, Matches<'_>)> = vec![
        (
            "agent".to_owned(),
            MutationFilter {
                agent: Some(agent.clone()),
                ..MutationFilter::default()
            },
            agent_rows,
            Box::new(|r: &MutationRow| r.record.agent_id == agent),
        ),
        (
            format!("agent part `{agent_part}`"),
            MutationFilter {
                agent: Some(agent_part.clone()),
                ..MutationFilter::default()
            },
            count(
                "SELECT COUNT(*) FROM mutations WHERE instr(agent_id, ?1) > 0",
                &[&agent_part],
            )?,
            Box::new(|r: &MutationRow| r.record.agent_id.contains(&agent_part)),
        ),
        (
            "file".to_owned(),
            MutationFilter {
                file: Some(file.clone()),
                ..MutationFilter::default()
            },
            file_rows,
            Box::new(|r: &MutationRow| r.record.file_path.as_deref() == Some(file.as_str())),
        ),
        (
            "file glob `web/**/*.ts` (many files)".to_owned(),
            MutationFilter {
                file: Some("web/**/*.ts".to_owned()),
                ..MutationFilter::default()
            },
            count(
                "SELECT COUNT(*) FROM mutations WHERE file_path GLOB 'web/*.ts'",
                &[],
            )?,
            Box::new(|r: &MutationRow| {
                r.record
                    .file_path
                    .as_deref()
                    .is_some_and(|f| f.starts_with("web/") && f.ends_with(".ts"))
            }),
        ),
        (
            format!("search `{file_stem}` (a file's name)"),
            MutationFilter {
                search: Some(file_stem.clone()),
                ..MutationFilter::default()
            },
            search_count(&file_stem)?,
            path_has(&file_stem),
        ),
        (
            "search `ledger` (a directory: many rows)".to_owned(),
            MutationFilter {
                search: Some("ledger".to_owned()),
                ..MutationFilter::default()
            },
            search_count("ledger")?,
            path_has("ledger"),
        ),
        (
            "coding agent gemini (10 % of sessions)".to_owned(),
            MutationFilter {
                agent_kind: Some("gemini".to_owned()),
                ..MutationFilter::default()
            },
            count(
                "SELECT COUNT(*) FROM mutations WHERE agent_kind = 'gemini'",
                &[],
            )?,
            Box::new(|r: &MutationRow| r.record.agent_kind == "gemini"),
        ),
        (
            "coding agent codex (20 % of sessions)".to_owned(),
            MutationFilter {
                agent_kind: Some("codex".to_owned()),
                ..MutationFilter::default()
            },
            count(
                "SELECT COUNT(*) FROM mutations WHERE agent_kind = 'codex'",
                &[],
            )?,
            Box::new(|r: &MutationRow| r.record.agent_kind == "codex"),
        ),
        (
            format!("tool {tool}"),
            MutationFilter {
                tool: Some(tool.to_owned()),
                ..MutationFilter::default()
            },
            count(
                "SELECT COUNT(*) FROM mutations WHERE tool_name = ?1",
                &[&tool],
            )?,
            Box::new(|r: &MutationRow| r.record.tool_name == tool),
        ),
        (
            "since 2 d".to_owned(),
            MutationFilter {
                since: Some(since),
                ..MutationFilter::default()
            },
            count(
                "SELECT COUNT(*) FROM mutations WHERE event_timestamp >= ?1",
                &[&hookd_core::timefmt::format(since)],
            )?,
            Box::new(|r: &MutationRow| {
                r.record.event_timestamp >= hookd_core::timefmt::format(since)
            }),
        ),
    ];
    for (name, filter, expected, matches) in &filters {
        let p = timed_page(
            &format!("`page` Newest, filter {name}, 200 rows"),
            &q(filter.clone()),
            &Anchor::Newest,
            PAGE_ROWS,
            Some(150.0),
        )?;
        let all_match = p.rows.iter().all(matches);
        checks.push((
            format!(
                "filter {name}: total {} = {expected} by SQL, rows match",
                p.total
            ),
            p.total == *expected && all_match && p.rows.len() == PAGE_ROWS.min(*expected as usize),
        ));
    }
    drop(filters);

    // Charts.
    let three_hours = HistogramRequest {
        from: Some((newest_t - chrono::Duration::hours(3)).to_rfc3339()),
        to: Some(newest_t.to_rfc3339()),
        ..HistogramRequest::default()
    };
    let week = HistogramRequest {
        from: Some((newest_t - chrono::Duration::days(7)).to_rfc3339()),
        to: Some(newest_t.to_rfc3339()),
        ..HistogramRequest::default()
    };
    // The chart of a search is counted per agent from the matching rows.
    let searched = q(MutationFilter {
        search: Some("ledger".to_owned()),
        ..MutationFilter::default()
    });
    let ledger_matches = search_count("ledger")?;
    for (what, query, request, expected) in [
        (
            "`histogram` default range (whole history)",
            &all,
            HistogramRequest::default(),
            Some(rows_now),
        ),
        ("`histogram` 3 hours (minute bins)", &all, three_hours, None),
        ("`histogram` a week (hour bins)", &all, week, None),
        (
            "`histogram` default range (whole history), search `ledger`",
            &searched,
            HistogramRequest::default(),
            Some(ledger_matches),
        ),
    ] {
        eprintln!("[{label}] {what}");
        let (time, chart): (Summary, Histogram) =
            time_runs(runs, || Ok(histogram::<MutationRow>(query, &request)?))?;
        let bin = format!("{:?}", chart.bin).to_lowercase();
        in_process.push(Figure {
            what: format!("{what}: {} {bin} bins, {} rows", chart.bins, chart.total),
            time,
            rows: chart.total,
            peak_mib: None,
            target_ms: None,
        });
        if let Some(expected) = expected {
            checks.push((
                format!("{what}: counts {} rows = {expected} by SQL", chart.total),
                chart.total == expected,
            ));
        }
    }

    // Live: a list that has seen everything asks what is new; also under a
    // filter, whose per-hour counts a filtered list's every live read needs.
    let seen = newest_page.seen;
    let by_agent = q(MutationFilter {
        agent: Some(agent),
        ..MutationFilter::default()
    });
    for (under, query) in [
        ("", &all),
        (", agent", &by_agent),
        (", search `ledger`", &searched),
    ] {
        let what = format!("`page` NewerThan, nothing new{under}");
        eprintln!("[{label}] {what}");
        let (time, p) = time_runs(runs, || {
            Ok(page::<MutationRow>(
                query,
                &Anchor::NewerThan { seen: seen.clone() },
                MAX_PAGE,
            )?)
        })?;
        in_process.push(Figure {
            what,
            time,
            rows: p.rows.len() as u64,
            peak_mib: None,
            target_ms: None,
        });
    }
    let pages_peak_mib = status_mib("VmHWM:") - rss_before;
    drop(ledger);

    // A burst of 20,000 rows, appended as the daemon would (MAX_BATCH at a
    // time); the cached ledger keeps them: it grows by a burst per run.
    eprintln!("[{label}] appending a burst of {BURST_ROWS} rows");
    {
        let mut writer = Ledger::open_existing(&built.ledger)?;
        let next = rows_now;
        let mut n = next;
        while n < next + BURST_ROWS {
            let end = (n + hookd_core::daemon::ingest::MAX_BATCH as u64).min(next + BURST_ROWS);
            writer.append(&h.entries(n..end))?;
            n = end;
        }
    }
    // Catching up: pages of MAX_PAGE until nothing is new, timed as a whole.
    let mut caught = 0u64;
    let mut catch_up = Vec::new();
    for i in 0..1 + runs.min(5) {
        let start = Instant::now();
        let mut seen = seen.clone();
        let mut got = 0u64;
        loop {
            let p: Page<MutationRow> = page(&all, &Anchor::NewerThan { seen }, MAX_PAGE)?;
            got += p.rows.len() as u64;
            seen = p.seen;
            if p.rows.is_empty() {
                break;
            }
        }
        if i > 0 {
            catch_up.push(start.elapsed());
        }
        caught = got;
    }
    in_process.push(Figure {
        what: format!(
            "`page` NewerThan after a {}-row burst, pages of {} until caught up",
            thousands(BURST_ROWS),
            thousands(MAX_PAGE as u64)
        ),
        time: Summary::of(&catch_up).context("no samples")?,
        rows: caught,
        peak_mib: None,
        target_ms: None,
    });
    checks.push((
        format!("after the burst NewerThan brought {caught} rows"),
        caught == BURST_ROWS,
    ));
    let rows_after = rows_now + BURST_ROWS;

    // Old path, limited: the same rows as the newest page.
    eprintln!("[{label}] old `query::run`, limit 1,000");
    let limited = q(MutationFilter {
        limit: Some(LIMIT),
        ..MutationFilter::default()
    });
    let rss = reset_peak();
    let (time, old_limited) = time_runs(runs, || Ok(query::run(&limited)?))?;
    in_process.push(Figure {
        what: "old `query::run`, limit 1,000 (payloads read)".to_owned(),
        time,
        rows: old_limited.len() as u64,
        peak_mib: Some(status_mib("VmHWM:") - rss),
        target_ms: None,
    });
    let newest_now: Page<MutationRow> = page(&all, &Anchor::Newest, LIMIT as usize)?;
    checks.push((
        "old limit-1,000 read = `page` Newest 1,000 (ids)".to_owned(),
        ids(&old_limited) == ids(&newest_now.rows),
    ));

    if with_unlimited {
        eprintln!("[{label}] old `query::run`, no limit (1 run)");
        let rss = reset_peak();
        let start = Instant::now();
        let old_all = query::run(&all)?;
        let elapsed = start.elapsed();
        in_process.push(Figure {
            what: "old `query::run`, no limit (the whole history, payloads read), 1 run".to_owned(),
            time: Summary::of(&[elapsed]).context("no samples")?,
            rows: old_all.len() as u64,
            peak_mib: Some(status_mib("VmHWM:") - rss),
            target_ms: None,
        });
        // The page at the middle equals the old path's rows there.
        let p: Page<MutationRow> = page(&all, &Anchor::Position { position: middle }, PAGE_ROWS)?;
        let m = middle as usize;
        checks.push((
            format!("`page` Position {middle} = old path's rows {middle}..+200 (ids)"),
            old_all.len() as u64 == rows_after && ids(&p.rows) == ids(&old_all[m..m + PAGE_ROWS]),
        ));
    }

    // Whole processes.
    let mut process = Vec::new();
    for (what, file_arg) in [
        ("`hookd query --limit 1000 --format json`", None),
        (
            "`hookd query --file X --limit 1000 --format json`",
            Some(file.as_str()),
        ),
    ] {
        eprintln!("[{label}] {what}");
        let mut args: Vec<String> = vec![
            "query".into(),
            "--repo".into(),
            root.to_string_lossy().into_owned(),
            "--limit".into(),
            LIMIT.to_string(),
            "--format".into(),
            "json".into(),
        ];
        if let Some(f) = file_arg {
            args.extend(["--file".into(), f.to_owned()]);
        }
        let (time, out) = time_runs(runs, || run_hookd(tools, data_dir, &args))?;
        let rows: Vec<serde_json::Value> =
            serde_json::from_slice(&out).context("hookd query printed invalid JSON")?;
        let expected = match file_arg {
            Some(f) => LIMIT.min(rusqlite::Connection::open(&built.ledger)?.query_row(
                "SELECT COUNT(*) FROM mutations WHERE file_path = ?1",
                [f],
                |r| r.get::<_, i64>(0),
            )? as u64),
            None => LIMIT,
        };
        let ok = rows.len() as u64 == expected
            && file_arg.is_none_or(|f| rows.iter().all(|r| r["file_path"] == f));
        checks.push((format!("{what}: {} rows", rows.len()), ok));
        let peak = max_rss_mib(tools, data_dir, &args)?;
        process.push(Figure {
            what: format!("{what}, {} B out", out.len()),
            time,
            rows: rows.len() as u64,
            peak_mib: Some(peak),
            target_ms: Some(50.0),
        });
    }

    for (what, ok) in &checks {
        if !ok {
            eprintln!("[{label}] CHECK FAILED: {what}");
        }
    }
    Ok(SizeReport {
        rows: rows_now,
        ledger_bytes,
        build_seconds: built.build_seconds,
        built_now: built.built_now,
        filter_values,
        in_process,
        process,
        pages_peak_mib,
        checks,
    })
}

fn ids(rows: &[MutationRow]) -> Vec<i64> {
    rows.iter().map(|r| r.id).collect()
}

fn hookd_command(program: &Path, data_dir: &Path) -> Command {
    let mut cmd = Command::new(program);
    cmd.env(hookd_core::dirs::DATA_DIR_ENV, data_dir)
        .env(hookd_proto::SOCKET_ENV, data_dir.join("none.sock"))
        .env_remove("HOOKD_DEBUG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Runs `hookd ARGS`; its stdout.
fn run_hookd(tools: &Tools, data_dir: &Path, args: &[String]) -> Result<Vec<u8>> {
    let output = hookd_command(&tools.hookd, data_dir)
        .args(args)
        .output()
        .context("cannot run hookd")?;
    if !output.status.success() {
        bail!(
            "hookd {} failed ({}): {}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(output.stdout)
}

/// The max RSS of one `hookd ARGS` run, MiB, as `/usr/bin/time` reports it.
fn max_rss_mib(tools: &Tools, data_dir: &Path, args: &[String]) -> Result<f64> {
    let out = tempfile::NamedTempFile::new()?;
    let status = hookd_command(Path::new("/usr/bin/time"), data_dir)
        .args(["-f", "%M", "-o"])
        .arg(out.path())
        .arg(&tools.hookd)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .context("cannot run /usr/bin/time")?;
    ensure!(status.success(), "/usr/bin/time hookd failed: {status}");
    let kib: f64 = std::fs::read_to_string(out.path())?
        .trim()
        .lines()
        .last()
        .unwrap_or("")
        .parse()
        .context("cannot read /usr/bin/time's max RSS")?;
    Ok(kib / 1024.0)
}

/// A version-3 ledger holding `source`'s rows, at `path`.
fn write_v3(source: &Path, path: &Path) -> Result<()> {
    let mut conn = rusqlite::Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    MIGRATIONS_V3.to_latest(&mut conn)?;
    conn.execute("ATTACH DATABASE ?1 AS src", [source.to_string_lossy()])?;
    // The version-3 tables' own columns, by name: the cached ledger has the
    // columns later migrations added too (`agent_kind`, …).
    let mut copy = String::from("BEGIN;");
    for table in ["events", "mutations", "hook_runs"] {
        let columns: Vec<String> = conn
            .prepare(&format!(
                "SELECT name FROM pragma_table_info('{table}', 'main')"
            ))?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let columns = columns.join(", ");
        copy.push_str(&format!(
            "INSERT INTO main.{table} ({columns}) SELECT {columns} FROM src.{table};"
        ));
    }
    copy.push_str("COMMIT; DETACH DATABASE src;");
    conn.execute_batch(&copy)?;
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
    Ok(())
}

/// The main file plus its WAL, bytes.
fn ledger_bytes(path: &Path) -> u64 {
    let wal = hookd_core::ledger::SIDE_FILE_SUFFIXES[0];
    let mut wal_path = path.as_os_str().to_owned();
    wal_path.push(wal);
    std::fs::metadata(path).map_or(0, |m| m.len())
        + std::fs::metadata(PathBuf::from(wal_path)).map_or(0, |m| m.len())
}

fn measure_migration(built: &Built, cache: &Path) -> Result<MigrationReport> {
    let h = &built.history;
    let label = format!("migration {}", thousands(h.shape.rows));
    let dir = tempfile::Builder::new()
        .prefix("migrate-")
        .tempdir_in(cache)?;
    let v3 = dir.path().join("v3.db");
    let v3_schema = dir.path().join("v3-schema.db");
    eprintln!("[{label}] writing a version-3 ledger with the cached ledger's rows");
    write_v3(&built.ledger, &v3)?;
    let rows = {
        let c = rusqlite::Connection::open(&v3)?;
        c.query_row("SELECT COUNT(*) FROM mutations", [], |r| r.get::<_, i64>(0))? as u64
    };
    let bytes_before = ledger_bytes(&v3);
    // A copy kept at the version-3 schema (its indexes) for the ingest
    // series, with the derived tables and columns `Ledger::append` writes
    // (migrations 0004-0014, not their indexes) created empty,
    // and marked as the latest version so `Ledger` opens it without
    // migrating it: the two differ by the new indexes.
    std::fs::copy(&v3, &v3_schema)?;
    {
        let c = rusqlite::Connection::open(&v3_schema)?;
        for sql in [
            include_str!("../../hookd-core/src/ledger/0004_timeline_index.sql"),
            include_str!("../../hookd-core/src/ledger/0005_known_values.sql"),
            include_str!("../../hookd-core/src/ledger/0006_search.sql"),
            include_str!("../../hookd-core/src/ledger/0007_lines.sql"),
            include_str!("../../hookd-core/src/ledger/0008_search_lean.sql"),
            include_str!("../../hookd-core/src/ledger/0009_payload_once.sql"),
            include_str!("../../hookd-core/src/ledger/0010_hour_runs.sql"),
            include_str!("../../hookd-core/src/ledger/0011_contents.sql"),
            include_str!("../../hookd-core/src/ledger/0012_payload_refs.sql"),
            include_str!("../../hookd-core/src/ledger/0013_agent_kind.sql"),
            include_str!("../../hookd-core/src/ledger/0014_agent_kinds.sql"),
        ] {
            // Comments may hold a `;`: they go before the split.
            let code: String = sql
                .lines()
                .filter(|l| !l.trim_start().starts_with("--"))
                .map(|l| format!("{l}\n"))
                .collect();
            for statement in code.split(';').map(str::trim) {
                // The columns `Ledger::append` writes too (0007), and the
                // search tables as 0008 leaves them.
                if statement.starts_with("CREATE TABLE")
                    || statement.starts_with("CREATE VIEW")
                    || statement.starts_with("DROP TABLE")
                    || statement.starts_with("CREATE VIRTUAL TABLE")
                    || statement.starts_with("ALTER TABLE")
                {
                    c.execute_batch(statement)?;
                }
            }
        }
        c.pragma_update(None, "user_version", hookd_core::ledger::SCHEMA_VERSION)?;
    }

    eprintln!("[{label}] Ledger::open_existing (migrations 0004-0008)");
    let start = Instant::now();
    let ledger = Ledger::open_existing(&v3)?;
    let migrate_seconds = start.elapsed().as_secs_f64();
    let counted: i64 = ledger.connection().query_row(
        "SELECT coalesce(SUM(rows), 0) FROM mutation_hours",
        [],
        |r| r.get(0),
    )?;
    drop(ledger);
    let bytes_after = ledger_bytes(&v3);

    let mut ingest = Vec::new();
    let mut next = rows;
    for batch in INGEST_BATCHES {
        let entries = h.entries(next..next + INGEST_ROWS);
        next += INGEST_ROWS;
        let rate = |path: &Path| -> Result<f64> {
            let mut ledger = Ledger::open_existing(path)?;
            let start = Instant::now();
            for chunk in entries.chunks(batch) {
                ledger.append(chunk)?;
            }
            Ok(INGEST_ROWS as f64 / start.elapsed().as_secs_f64())
        };
        eprintln!("[{label}] ingest {INGEST_ROWS} rows in batches of {batch}");
        let v3_rate = rate(&v3_schema)?;
        let v4_rate = rate(&v3)?;
        ingest.push(IngestPair {
            batch,
            rows: INGEST_ROWS,
            v3_rows_per_sec: v3_rate,
            v4_rows_per_sec: v4_rate,
        });
    }
    Ok(MigrationReport {
        rows,
        bytes_before,
        bytes_after,
        migrate_seconds,
        counts_match: counted as u64 == rows,
        ingest,
    })
}

/// 100000 → "100,000".
fn thousands(n: u64) -> String {
    crate::thousands(n)
}
