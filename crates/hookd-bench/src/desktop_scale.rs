//! The desktop app at 1,000,000 and 10,000,000 rows (issue 16): what a user
//! of a long history sees in the real app, beside an empty project in the
//! same run.
//!
//! Each round, on each project (a fresh empty one first, then each cached
//! ledger of [`crate::history`]), the release `hookd-desktop` is launched
//! under X in a private D-Bus session ([`crate::desktop`]'s harness) and:
//!
//! 1. launched with `--open timeline?repo=…`: spawn → the rows on screen
//!    painted (cold launch); memory 5 s later (the window open, idle);
//! 2. sent to the Projects screen, then `--open timeline?repo=…` handed to
//!    the running app → rows painted;
//! 3. filter changes (a tool, an agent, a file, then none again), each
//!    handed as a route: the view's own time from the new filter to its
//!    rows painted, and the wall clock from the hand-over;
//! 4. a jump to the middle of the history (the list scrolled to half its
//!    height, as dragging the scroll thumb does) → that window's rows
//!    painted, then back to the end;
//! 5. a burst of 20,000 `Write` events at full speed over eight connections
//!    to the app's own daemon, while a requestAnimationFrame monitor runs in
//!    the page: the longest frame gap, the list's total before and after
//!    (it must grow by exactly the burst), memory before, 15 s after and
//!    again at [`LATER_READS`] (WebKit's web process gives memory back on
//!    its own schedule, so one read cannot say whether it stays).
//!
//! The window reports with `ui_mark` (`ui/src/lib/perf.ts`): a list's rows
//! count as painted once the rows in view are real rows (no placeholder)
//! and a frame has been painted with them; each such mark comes with the
//! first and the one-past-last position on screen, which the checks use
//! (the newest row at the bottom after opening, the middle after the jump).
//! The benchmark's own requests (jump, frame monitor) go through the hash
//! of an `--open` route (`&perf=…`), which the filter ignores.
//!
//! The cached ledgers are only read (and grow by each burst, as the
//! timeline benchmark's do); one still being built (no `meta.json` yet) is
//! never touched.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail, ensure};
use hookd_core::ledger::Ledger;
use serde::Serialize;

use crate::desktop::{
    self, Display, IDLE_BEFORE_MEMORY, Memory, PAINT_TIMEOUT, Running, ms, since, timeline_route,
    unix_ms_now,
};
use crate::env::{self, Workspace};
use crate::history::{self, BUILDER_VERSION, History, Shape};
use crate::ingest;
use crate::stats::Summary;

/// Events in the burst sent while the timeline is open.
pub const BURST_EVENTS: u64 = 20_000;
/// How long after the burst (once the list caught up) memory is read again.
const AFTER_BURST: Duration = Duration::from_secs(15);
/// When memory is read again after the list caught up, seconds (the first
/// read is [`AFTER_BURST`]'s). WebKit polls its memory pressure every 30 s
/// and the JavaScript heap is collected on its own timers, so a figure
/// that says whether the memory stays needs reads past a minute.
pub const LATER_READS: [u64; 3] = [30, 60, 120];
/// How long the list may take to show the whole burst.
const BURST_TIMEOUT: Duration = Duration::from_secs(180);
/// How long the app's daemon may take to commit its first event to a
/// ledger (it quick-checks the whole file first: minutes at 10M rows).
const FIRST_WRITE_TIMEOUT: Duration = Duration::from_secs(900);
/// A jump's first row on screen may be this far from the exact middle (the
/// viewport's height in rows, and rounding).
const JUMP_SLACK_ROWS: u64 = 100;

/// Rows painted, as the window reported them.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Painted {
    /// From the hand-over (or spawn) to the paint, wall clock.
    pub wall: Duration,
    /// The window's own time, from the work's start to the paint.
    pub view: Duration,
    /// The list's total then.
    pub total: u64,
    /// First position on screen.
    pub first: u64,
    /// One past the last position on screen.
    pub end: u64,
}

/// One filter change.
#[derive(Debug, Clone, Serialize)]
pub struct FilterChange {
    /// The filter, as in the route (`tool=Edit`; empty: no filter).
    pub filter: String,
    /// Its rows painted.
    pub painted: Painted,
}

/// What the burst did.
#[derive(Debug, Clone, Serialize)]
pub struct Burst {
    /// One event sent before the burst → committed: the daemon opens (and
    /// quick-checks) the ledger on its first write after a launch; the burst
    /// is sent once that is done, so it measures the steady state.
    pub first_write: Duration,
    /// Events sent.
    pub events: u64,
    /// The list's total when the burst started.
    pub total_before: u64,
    /// The list's total at the end (the last the window reported).
    pub total_after: u64,
    /// First byte sent → the ledger holding the whole burst (the daemon's
    /// part; read from SQLite every 50 ms).
    pub committed: Duration,
    /// First byte sent → the list's total showing the whole burst.
    pub caught_up: Duration,
    /// The longest gap between two animation frames of the page, ms.
    pub longest_frame_ms: f64,
    /// When that gap ended, ms after the monitor's first frame (the burst's
    /// first byte is about 500 ms after it).
    pub longest_frame_at_ms: f64,
    /// Frames the monitor saw.
    pub frames: u64,
    /// Gaps over 100 ms.
    pub long_frames: u64,
    /// The page's own work the monitor timed (`ui/src/lib/perf.ts`,
    /// `timed`): in the longest gap (`frames-work:NAME`, ms summed) and the
    /// longest run of each kind over the monitor (`frames-max:NAME`); with
    /// how many runs.
    pub work: Vec<Work>,
    /// Memory just before the burst.
    pub before: Memory,
    /// Memory [`AFTER_BURST`] after the list caught up.
    pub after: Memory,
    /// Memory [`LATER_READS`] seconds after the list caught up, in order.
    pub later: Vec<Memory>,
}

/// A kind of work the page timed during the burst.
#[derive(Debug, Clone, Serialize)]
pub struct Work {
    /// The mark: `frames-work:NAME` or `frames-max:NAME`.
    pub mark: String,
    /// Milliseconds.
    pub ms: f64,
    /// Runs.
    pub runs: u64,
}

/// One round on one project.
#[derive(Debug, Clone, Serialize)]
pub struct Round {
    /// Rows the ledger held before the launch (counted in SQLite).
    pub ledger_rows: u64,
    /// Launch with `--open timeline?repo=…` → rows painted.
    pub cold: Painted,
    /// Memory [`IDLE_BEFORE_MEMORY`] after those rows painted.
    pub window_open: Memory,
    /// `--open timeline?repo=…` handed to the running app (on Projects) → rows painted.
    pub handed: Painted,
    /// Filter changes, in order.
    pub filters: Vec<FilterChange>,
    /// Jump to the middle → its rows painted (none on an empty project).
    pub jump_middle: Option<Painted>,
    /// Jump back to the end → its rows painted.
    pub jump_end: Option<Painted>,
    /// The burst.
    pub burst: Burst,
    /// Bursts after it in the same launch (`--desktop-bursts`), each on the
    /// list the one before left: memory that stays once and not again is
    /// a warm-up, memory that grows each time is kept.
    pub repeats: Vec<Burst>,
}

/// The rounds on one project, summarised.
#[derive(Debug, Clone, Serialize)]
pub struct ProjectSeries {
    /// `empty` or the row count.
    pub label: String,
    /// Rows of the history (0 for the empty project).
    pub rows: u64,
    /// Where its repository is.
    pub root: PathBuf,
    /// The measured rounds.
    pub rounds: Vec<Round>,
    /// Cold launch → rows painted, wall clock.
    pub cold: Option<Summary>,
    /// Handed to the running app → rows painted, wall clock.
    pub handed: Option<Summary>,
    /// Filter changes (all kinds), the view's own time.
    pub filter_view: Option<Summary>,
    /// Filter changes, from the hand-over, wall clock.
    pub filter_wall: Option<Summary>,
    /// Jump to the middle, the view's own time.
    pub jump_view: Option<Summary>,
    /// Jump to the middle, from the hand-over, wall clock.
    pub jump_wall: Option<Summary>,
    /// The longest frame gap over every round's burst, ms.
    pub longest_frame_ms: Option<f64>,
    /// Median memory with the window open.
    pub window_open: Option<Memory>,
    /// Median memory before the burst.
    pub before_burst: Option<Memory>,
    /// Median memory after it.
    pub after_burst: Option<Memory>,
    /// Median memory at each of [`LATER_READS`] after it.
    pub later_burst: Vec<Memory>,
    /// The first event after a launch → committed.
    pub first_write: Option<Summary>,
    /// First byte of the burst → the ledger holding it whole.
    pub committed: Option<Summary>,
    /// First byte of the burst → the list showing it whole.
    pub caught_up: Option<Summary>,
}

/// A check that failed (the run then fails).
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// Which project and round.
    pub project: String,
    /// What was wrong.
    pub what: String,
}

/// What the measurement found.
#[derive(Debug, Clone, Serialize)]
pub struct ScaleReport {
    /// The empty project first, then each ledger size.
    pub projects: Vec<ProjectSeries>,
    /// Checks that failed.
    pub failures: Vec<Failure>,
}

/// A project the rounds run on.
struct Project {
    label: String,
    rows: u64,
    /// None: a fresh empty repository each round.
    built: Option<history::Built>,
    rounds: Vec<Round>,
}

/// Runs `launches` rounds (after one warm-up launch each) on an empty
/// project and on each cached ledger of `sizes` rows in `cache` (a size of
/// 0 is none: `--desktop-ledgers 0` runs the empty project alone).
pub fn run(cache: &Path, sizes: &[u64], launches: usize, bursts: usize) -> Result<ScaleReport> {
    ensure!(launches > 0, "--desktop-launches must be at least 1");
    ensure!(bursts > 0, "--desktop-bursts must be at least 1");
    let app = desktop::locate_app()?;
    let ws = Workspace::new()?;
    let mut projects = vec![Project {
        label: "empty".into(),
        rows: 0,
        built: None,
        rounds: Vec::new(),
    }];
    for &rows in sizes.iter().filter(|&&rows| rows > 0) {
        projects.push(Project {
            label: crate::thousands(rows),
            rows,
            built: Some(cached_ledger(cache, rows)?),
            rounds: Vec::new(),
        });
    }
    let display = Display::start()?;
    let mut failures = Vec::new();

    for i in 0..=launches {
        let warm_up = i == 0;
        for project in &mut projects {
            let root = match &project.built {
                Some(built) => built.history.root.clone(),
                None => ws.add_repo(&format!("empty-{i}"))?,
            };
            let label = format!(
                "{} {}",
                project.label,
                if warm_up {
                    "warm-up".to_owned()
                } else {
                    format!("{i}/{launches}")
                }
            );
            if warm_up {
                // The app's first start, and the ledger's pages, off the clock.
                let running =
                    Running::start(&app, &ws, &display, &["--open", &timeline_route(&root)])?;
                rows_painted(
                    &running,
                    "timeline-rows",
                    running.spawned_unix_ms,
                    running.spawned + PAINT_TIMEOUT,
                )
                .with_context(|| format!("{label}: the timeline did not paint"))?;
                eprintln!("[desktop-scale] {label}: done");
                continue;
            }
            let mut checks = Vec::new();
            let harness = Harness {
                app: &app,
                ws: &ws,
                display: &display,
            };
            match round(&harness, project, &root, i, bursts, &mut checks) {
                Ok(r) => {
                    print_round(&label, &r);
                    project.rounds.push(r);
                }
                Err(err) => checks.push(format!("the round could not finish: {err:#}")),
            }
            for what in checks {
                eprintln!("[desktop-scale] {label}: CHECK FAILED: {what}");
                failures.push(Failure {
                    project: label.clone(),
                    what,
                });
            }
        }
    }
    Ok(ScaleReport {
        projects: projects.into_iter().map(series).collect(),
        failures,
    })
}

/// The cached ledger of `rows`, only if its build finished (a build under
/// way has no `meta.json`; [`history::cached`] would start it again).
fn cached_ledger(cache: &Path, rows: u64) -> Result<history::Built> {
    let dir = cache.join(format!("timeline-{rows}-v{BUILDER_VERSION}"));
    ensure!(
        dir.join("meta.json").is_file(),
        "no finished {rows}-row ledger in {} (build it with `hookd-bench --only timeline --timeline-rows {rows}`; a build under way is left alone)",
        dir.display()
    );
    let built = history::cached(cache, Shape::heavy_user(rows), "desktop-scale")?;
    ensure!(
        !built.built_now,
        "the {rows}-row ledger was rebuilt, not reused"
    );
    Ok(built)
}

fn ledger_rows(root: &Path) -> Result<u64> {
    let path = hookd_core::dirs::repo_ledger_path(root);
    if !path.exists() {
        return Ok(0);
    }
    let (_, mutations) = Ledger::open_existing(&path)?.counts()?;
    Ok(u64::try_from(mutations).unwrap_or(0))
}

/// The filters a round changes to: a tool, an agent of the last day, a hot file, none.
fn filters(history: Option<&History>) -> Vec<String> {
    let (agent, file) = match history {
        Some(h) => (
            History::session_id(h.session_of(h.shape.rows - 1)),
            h.files()[0].clone(),
        ),
        None => (env::session_id(1), "src/module_0000.rs".to_owned()),
    };
    vec![
        "tool=Edit".into(),
        format!("agent={agent}"),
        format!("file={file}"),
        String::new(),
    ]
}

/// The route of `root`'s timeline with `extra` (`tool=Edit`, `perf=…`) appended.
fn route_with(root: &Path, extra: &str) -> String {
    let route = timeline_route(root);
    if extra.is_empty() {
        route
    } else {
        format!("{route}&{extra}")
    }
}

/// The app under test, its workspace and the display it runs on.
struct Harness<'a> {
    app: &'a Path,
    ws: &'a Workspace,
    display: &'a Display,
}

fn round(
    harness: &Harness<'_>,
    project: &Project,
    root: &Path,
    round_no: usize,
    bursts: usize,
    checks: &mut Vec<String>,
) -> Result<Round> {
    let Harness { app, ws, display } = *harness;
    let ledger_rows = ledger_rows(root)?;
    let route = timeline_route(root);
    // 1. Cold launch straight onto the timeline.
    let running = Running::start(app, ws, display, &["--open", &route])?;
    let cold = rows_painted(
        &running,
        "timeline-rows",
        running.spawned_unix_ms,
        running.spawned + PAINT_TIMEOUT,
    )
    .context("cold launch")?;
    check_window(checks, "cold launch", &cold, Some(ledger_rows));
    std::thread::sleep(IDLE_BEFORE_MEMORY);
    let window_open = running.memory()?;

    // 2. Handed to the running app, from the Projects screen.
    running.open(app, ws, display, "projects")?;
    std::thread::sleep(Duration::from_secs(1));
    let (at, opened) = running.open(app, ws, display, &route)?;
    let handed = rows_painted(&running, "timeline-rows", at, opened + PAINT_TIMEOUT)
        .context("handed --open")?;
    check_window(checks, "--open handed over", &handed, Some(ledger_rows));

    // 3. Filter changes.
    let mut changes = Vec::new();
    for filter in filters(project.built.as_ref().map(|b| &b.history)) {
        let (at, opened) = running.open(app, ws, display, &route_with(root, &filter))?;
        let painted = rows_painted(&running, "timeline-filter", at, opened + PAINT_TIMEOUT)
            .with_context(|| format!("filter {filter:?}"))?;
        let expect = filter.is_empty().then_some(ledger_rows);
        check_window(checks, &format!("filter {filter:?}"), &painted, expect);
        if project.rows > 0
            && !filter.is_empty()
            && !(painted.total > 0 && painted.total < ledger_rows)
        {
            checks.push(format!(
                "filter {filter:?}: {} rows of {ledger_rows}, expected some but not all",
                painted.total
            ));
        }
        changes.push(FilterChange { filter, painted });
    }

    // 4. The middle of the history, then back to the end.
    let mut perf_n = 0;
    let mut perf = |action: &str| -> Result<(u128, Instant)> {
        perf_n += 1;
        running.open(
            app,
            ws,
            display,
            &route_with(root, &format!("perf={action}&perf_n={round_no}-{perf_n}")),
        )
    };
    let (jump_middle, jump_end) = if ledger_rows > 0 {
        let (at, opened) = perf("jump:0.5")?;
        let middle = rows_painted(&running, "timeline-jump", at, opened + PAINT_TIMEOUT)
            .context("jump to the middle")?;
        let half = middle.total / 2;
        if middle.first.abs_diff(half) > JUMP_SLACK_ROWS || middle.end <= middle.first {
            checks.push(format!(
                "jump to the middle: rows {}..{} on screen of {}, expected about {half}",
                middle.first, middle.end, middle.total
            ));
        }
        let (at, opened) = perf("jump:1")?;
        let end = rows_painted(&running, "timeline-jump", at, opened + PAINT_TIMEOUT)
            .context("jump to the end")?;
        check_window(checks, "jump to the end", &end, None);
        (Some(middle), Some(end))
    } else {
        (None, None)
    };

    // 5. The burst, the frame monitor running, once the daemon has the
    // ledger open (one event first, and the list showing it); then the
    // repeats, each on the list the one before left.
    let into = BurstInto {
        running: &running,
        ws,
        project,
        root,
    };
    let first = burst(&into, ledger_rows, round_no, 0, &mut perf, checks)?;
    let mut repeats: Vec<Burst> = Vec::new();
    for burst_no in 1..bursts {
        let shown = repeats.last().unwrap_or(&first).total_after;
        repeats.push(burst(&into, shown, round_no, burst_no, &mut perf, checks)?);
    }
    drop(running);
    Ok(Round {
        ledger_rows,
        cold,
        window_open,
        handed,
        filters: changes,
        jump_middle,
        jump_end,
        burst: first,
        repeats,
    })
}

/// Where a burst goes: the running app, its workspace, the project.
struct BurstInto<'a> {
    running: &'a Running,
    ws: &'a Workspace,
    project: &'a Project,
    root: &'a Path,
}

/// One burst (step 5 of a round): one event first, until the list shows it
/// (the daemon opens the ledger on its first write after a launch), then
/// [`BURST_EVENTS`] at full speed with the frame monitor running, and memory
/// before, [`AFTER_BURST`] after the list caught up and at [`LATER_READS`].
/// `shown` is the list's total before the first event.
fn burst(
    into: &BurstInto<'_>,
    shown: u64,
    round_no: usize,
    burst_no: usize,
    perf: &mut dyn FnMut(&str) -> Result<(u128, Instant)>,
    checks: &mut Vec<String>,
) -> Result<Burst> {
    let BurstInto {
        running,
        ws,
        project,
        root,
    } = *into;
    let tag = format!("{}-{round_no}-{burst_no}", unix_ms_now());
    let ledger = hookd_core::dirs::repo_ledger_path(root);
    let baseline = max_mutation_id(&ledger)?;
    let first_sent = unix_ms_now();
    ingest::send_all(&ws.socket, burst_lines(root, 1, &format!("{tag}-first"))?)?;
    let first_write = watch_commits(&ledger, baseline, 1, FIRST_WRITE_TIMEOUT)?
        .map(|at| since(first_sent, at))
        .context("the first event after the launch was not committed")?;
    eprintln!(
        "[desktop-scale] {}: the first event after the launch committed in {:.0} ms",
        project.label,
        ms(first_write)
    );
    let deadline = Instant::now() + PAINT_TIMEOUT;
    loop {
        let (_, opened) = perf("total")?;
        let total = running
            .wait_for("timeline-total", opened + PAINT_TIMEOUT)?
            .rows
            .unwrap_or(0);
        if total > shown || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let shares = burst_lines(root, BURST_EVENTS, &tag)?;
    std::thread::sleep(IDLE_BEFORE_MEMORY);
    let before = running.memory()?;
    let (_, opened) = perf("frames-start")?;
    let total_before = running
        .wait_for("timeline-total", opened + PAINT_TIMEOUT)?
        .rows
        .context("a total without rows")?;
    std::thread::sleep(Duration::from_millis(500));
    let baseline = max_mutation_id(&ledger)?;
    let first_byte_unix = unix_ms_now();
    let committed =
        std::thread::spawn(move || watch_commits(&ledger, baseline, BURST_EVENTS, BURST_TIMEOUT));
    ingest::send_all(&ws.socket, shares)?;
    let want = total_before + BURST_EVENTS;
    let deadline = Instant::now() + BURST_TIMEOUT;
    let mut total_after = total_before;
    let mut caught_up_unix = None;
    while caught_up_unix.is_none() {
        let Ok(mark) = running.next_mark(deadline) else {
            break;
        };
        if mark.name == "timeline-total" {
            total_after = mark.rows.unwrap_or(0);
            if total_after >= want {
                caught_up_unix = Some(mark.unix_ms);
            }
        }
    }
    // A little longer: a total past the burst would show up now.
    std::thread::sleep(Duration::from_secs(1));
    perf("frames-stop")?;
    let stop_deadline = Instant::now() + PAINT_TIMEOUT;
    let (mut frames, mut long, mut at) = (None, None, None);
    let mut work = Vec::new();
    while frames.is_none() || long.is_none() || at.is_none() {
        let mark = running
            .next_mark(stop_deadline)
            .context("the frame monitor did not report")?;
        match mark.name.as_str() {
            "frames" => frames = Some(mark),
            "frames-long" => long = mark.rows,
            "frames-at" => at = Some(mark.ms),
            "timeline-total" => total_after = mark.rows.unwrap_or(0),
            name if name.starts_with("frames-work:") || name.starts_with("frames-max:") => {
                work.push(Work {
                    mark: name.to_owned(),
                    ms: mark.ms,
                    runs: mark.rows.unwrap_or(0),
                });
            }
            _ => {}
        }
    }
    let frames = frames.context("no frames mark")?;
    if total_after != want {
        checks.push(format!(
            "burst: the list's total went {total_before} → {total_after}, expected {want} (+{BURST_EVENTS})"
        ));
    }
    let committed_unix = committed
        .join()
        .map_err(|_| anyhow::anyhow!("the commit watcher panicked"))??;
    let caught = Instant::now();
    std::thread::sleep(AFTER_BURST);
    let after = running.memory()?;
    let mut later = Vec::with_capacity(LATER_READS.len());
    for seconds in LATER_READS {
        std::thread::sleep(Duration::from_secs(seconds).saturating_sub(caught.elapsed()));
        later.push(running.memory()?);
    }
    Ok(Burst {
        first_write,
        events: BURST_EVENTS,
        total_before,
        total_after,
        committed: committed_unix.map_or(BURST_TIMEOUT, |at| since(first_byte_unix, at)),
        caught_up: caught_up_unix.map_or(BURST_TIMEOUT, |at| since(first_byte_unix, at)),
        longest_frame_ms: frames.ms,
        longest_frame_at_ms: at.unwrap_or(0.0),
        frames: frames.rows.unwrap_or(0),
        long_frames: long.unwrap_or(0),
        work,
        before,
        after,
        later,
    })
}
/// Checks a list's rows painted after opening: its total (when known) and
/// the newest row at the bottom of the view.
/// The highest mutation id in the ledger at `path` (0 when it has none yet).
fn max_mutation_id(path: &Path) -> Result<i64> {
    if !path.exists() {
        return Ok(0);
    }
    let conn =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    if !has_mutations_table(&conn)? {
        return Ok(0);
    }
    Ok(
        conn.query_row("SELECT coalesce(max(rowid), 0) FROM mutations", [], |r| {
            r.get(0)
        })?,
    )
}

/// Whether the ledger has its tables yet: the daemon creates an empty
/// project's file before it migrates it, and the benchmark may look between.
fn has_mutations_table(conn: &rusqlite::Connection) -> Result<bool> {
    Ok(hookd_core::ledger::sqlite::has_table(conn, "mutations")?)
}

/// Polls the ledger at `path` every 50 ms until it holds `events` mutations
/// past `baseline`; returns when (wall clock, ms), or None after `timeout`.
fn watch_commits(
    path: &Path,
    baseline: i64,
    events: u64,
    timeout: Duration,
) -> Result<Option<u128>> {
    let deadline = Instant::now() + timeout;
    let mut conn = None;
    while Instant::now() < deadline {
        // The ledger of an empty project appears with the burst's first commit.
        if conn.is_none() && path.exists() {
            conn = Some(rusqlite::Connection::open_with_flags(
                path,
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
            )?);
        }
        if let Some(conn) = &conn
            && has_mutations_table(conn)?
        {
            let n: i64 = conn.query_row(
                "SELECT count(*) FROM mutations WHERE rowid > ?1",
                [baseline],
                |r| r.get(0),
            )?;
            if u64::try_from(n).unwrap_or(0) >= events {
                return Ok(Some(unix_ms_now()));
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(None)
}

fn check_window(checks: &mut Vec<String>, what: &str, p: &Painted, expect_total: Option<u64>) {
    if let Some(total) = expect_total
        && p.total != total
    {
        checks.push(format!(
            "{what}: the list's total is {}, the ledger holds {total}",
            p.total
        ));
    }
    if p.total > 0 && p.end != p.total {
        checks.push(format!(
            "{what}: rows {}..{} on screen, expected the newest (..{})",
            p.first, p.end, p.total
        ));
    }
}

/// Waits for `name`, `name-first` and `name-end` (in any order, others
/// skipped); `from_unix_ms` is when the work was asked for.
fn rows_painted(
    running: &Running,
    name: &str,
    from_unix_ms: u128,
    deadline: Instant,
) -> Result<Painted> {
    let (first_name, end_name) = (format!("{name}-first"), format!("{name}-end"));
    let (mut main, mut first, mut end) = (None, None, None);
    while main.is_none() || first.is_none() || end.is_none() {
        let mark = running
            .next_mark(deadline)
            .with_context(|| format!("waiting for {name}"))?;
        if mark.name == name {
            main = Some(mark);
        } else if mark.name == first_name {
            first = Some(mark.rows.unwrap_or(0));
        } else if mark.name == end_name {
            end = Some(mark.rows.unwrap_or(0));
        }
    }
    let (Some(main), Some(first), Some(end)) = (main, first, end) else {
        bail!("marks missing");
    };
    Ok(Painted {
        wall: since(from_unix_ms, main.unix_ms),
        view: Duration::from_secs_f64(main.ms / 1000.0),
        total: main.rows.unwrap_or(0),
        first,
        end,
    })
}

/// `events` envelope lines of `Write`s in `root` (distinct files and tool
/// use ids, `tag` keeping them apart from other bursts), dealt over
/// [`ingest::CLIENTS`] connections.
fn burst_lines(root: &Path, events: u64, tag: &str) -> Result<Vec<Vec<Vec<u8>>>> {
    let clients = ingest::CLIENTS;
    let sessions: Vec<String> = (0..clients as u64)
        .map(|n| env::session_id(9_000 + n))
        .collect();
    let mut shares: Vec<Vec<Vec<u8>>> = vec![Vec::new(); clients];
    for i in 0..events {
        let client = (i % clients as u64) as usize;
        let rel_path = format!("src/burst/m{:03}/file_{i:05}.rs", i % 100);
        let line = env::write_line(
            root,
            &sessions[client],
            &format!("toolu_burst_{tag}_{i:05}"),
            &rel_path,
        )?;
        shares[client].push(line);
    }
    Ok(shares)
}

fn print_round(label: &str, r: &Round) {
    let filters: Vec<String> = r
        .filters
        .iter()
        .map(|f| {
            format!(
                "{} {:.0}/{:.0} ms ({} rows)",
                if f.filter.is_empty() {
                    "none"
                } else {
                    &f.filter
                },
                ms(f.painted.view),
                ms(f.painted.wall),
                f.painted.total
            )
        })
        .collect();
    eprintln!(
        "[desktop-scale] {label}: {} rows; cold launch → rows {:.0} ms; window open {}; handed {:.0} ms (view {:.0}); filters (view/wall) {}",
        r.ledger_rows,
        ms(r.cold.wall),
        r.window_open,
        ms(r.handed.wall),
        ms(r.handed.view),
        filters.join(", ")
    );
    if let Some(j) = &r.jump_middle {
        eprintln!(
            "[desktop-scale] {label}: jump to the middle {:.0} ms (wall {:.0}), rows {}..{} of {}",
            ms(j.view),
            ms(j.wall),
            j.first,
            j.end,
            j.total
        );
    }
    let b = &r.burst;
    let work: Vec<String> = b
        .work
        .iter()
        .map(|w| format!("{} {:.1} ms ×{}", w.mark, w.ms, w.runs))
        .collect();
    eprintln!(
        "[desktop-scale] {label}: the page's work: {}",
        work.join(", ")
    );
    eprintln!(
        "[desktop-scale] {label}: first event after the launch committed in {:.0} ms; burst of {}: total {} → {}, committed in {:.0} ms, list caught up in {:.0} ms; longest frame {:.0} ms (ended {:.0} ms into the monitor) over {} frames ({} over 100 ms); memory {} → {}",
        ms(b.first_write),
        b.events,
        b.total_before,
        b.total_after,
        ms(b.committed),
        ms(b.caught_up),
        b.longest_frame_ms,
        b.longest_frame_at_ms,
        b.frames,
        b.long_frames,
        b.before,
        b.after
    );
    for (seconds, memory) in LATER_READS.iter().zip(&b.later) {
        eprintln!("[desktop-scale] {label}: memory {seconds} s after the list caught up: {memory}");
    }
    for (n, b) in r.repeats.iter().enumerate() {
        eprintln!(
            "[desktop-scale] {label}: burst {}: total {} → {}, longest frame {:.0} ms; memory {} → {}",
            n + 2,
            b.total_before,
            b.total_after,
            b.longest_frame_ms,
            b.before,
            b.after
        );
        for (seconds, memory) in LATER_READS.iter().zip(&b.later) {
            eprintln!(
                "[desktop-scale] {label}: burst {}: memory {seconds} s after the list caught up: {memory}",
                n + 2
            );
        }
    }
}

fn series(project: Project) -> ProjectSeries {
    let rounds = project.rounds;
    let summary = |f: &dyn Fn(&Round) -> Vec<Duration>| {
        Summary::of(&rounds.iter().flat_map(f).collect::<Vec<_>>())
    };
    let memory = |f: fn(&Round) -> Memory| {
        (!rounds.is_empty()).then(|| Memory::median(&rounds.iter().map(f).collect::<Vec<_>>()))
    };
    ProjectSeries {
        label: project.label,
        rows: project.rows,
        root: project
            .built
            .as_ref()
            .map_or_else(PathBuf::new, |b| b.history.root.clone()),
        cold: summary(&|r| vec![r.cold.wall]),
        handed: summary(&|r| vec![r.handed.wall]),
        filter_view: summary(&|r| r.filters.iter().map(|f| f.painted.view).collect()),
        filter_wall: summary(&|r| r.filters.iter().map(|f| f.painted.wall).collect()),
        jump_view: summary(&|r| r.jump_middle.iter().map(|j| j.view).collect()),
        jump_wall: summary(&|r| r.jump_middle.iter().map(|j| j.wall).collect()),
        longest_frame_ms: rounds
            .iter()
            .map(|r| r.burst.longest_frame_ms)
            .max_by(f64::total_cmp),
        window_open: memory(|r| r.window_open),
        before_burst: memory(|r| r.burst.before),
        after_burst: memory(|r| r.burst.after),
        later_burst: (0..LATER_READS.len())
            .filter(|&i| rounds.iter().all(|r| r.burst.later.len() > i))
            .map(|i| Memory::median(&rounds.iter().map(|r| r.burst.later[i]).collect::<Vec<_>>()))
            .collect(),
        first_write: summary(&|r| vec![r.burst.first_write]),
        committed: summary(&|r| vec![r.burst.committed]),
        caught_up: summary(&|r| vec![r.burst.caught_up]),
        rounds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_dealt_over_the_clients_with_distinct_ids() {
        let shares = burst_lines(Path::new("/src/app"), 20, "t").unwrap();
        assert_eq!(shares.len(), ingest::CLIENTS);
        let lines: Vec<&Vec<u8>> = shares.iter().flatten().collect();
        assert_eq!(lines.len(), 20);
        let ids: std::collections::HashSet<String> = lines
            .iter()
            .map(|l| {
                let e: hookd_proto::Envelope = serde_json::from_slice(l).unwrap();
                assert_eq!(e.payload["cwd"], "/src/app");
                e.payload["tool_use_id"].as_str().unwrap().to_owned()
            })
            .collect();
        assert_eq!(ids.len(), 20);
    }

    #[test]
    fn a_ledger_still_being_built_is_not_touched() {
        let cache = tempfile::tempdir().unwrap();
        let dir = cache
            .path()
            .join(format!("timeline-1000-v{BUILDER_VERSION}"));
        std::fs::create_dir_all(dir.join("repo")).unwrap();
        let err = cached_ledger(cache.path(), 1000).unwrap_err();
        assert!(err.to_string().contains("no finished"), "{err}");
        assert!(dir.join("repo").is_dir(), "the partial build was removed");
    }
}
