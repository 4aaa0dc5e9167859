//! The desktop app, as a user meets it: time from launch to the first
//! painted window, memory once it sits idle, and the first paint of a
//! timeline of 100,000 rows, each beside the same launch on an empty project
//! (the baseline), alternating, in the same run.
//!
//! The timeline is opened the way a user opens it, in the running app: the
//! app starts on its Projects screen, sits idle, and then a second launch
//! with `--open timeline?repo=…` hands the route to it (as the tray's
//! entries do). Opening it at launch would time the app's own start-up, not
//! the timeline.
//!
//! Nothing is simulated: the release `hookd-desktop` (with the built UI
//! embedded) runs under an X server (Xvfb when `DISPLAY` is unset) inside a
//! private D-Bus session, against a real SQLite ledger built like the query
//! benchmark's, and starts its own daemon on the temp dir's socket. The
//! window reports paints with `ui_mark`; the app logs them with the wall
//! clock (`hookd_desktop::perf`), and this module reads that log. Memory is
//! the sum over the app and its WebKit helper processes, read from /proc:
//! RSS (what the target names) and PSS (shared pages split fairly).
//!
//! A third kind of launch is the login's: `--hidden`, the app in the tray
//! with no window built. Its memory is the app as it idles most of the day;
//! then a second launch opens the window from there, as the tray does, and
//! that time and the memory with the window open are measured too; last,
//! the window is closed as a window manager does (`close-window.py`, the
//! e2e tests' helper) and the memory read again once its web process ended.

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context as _, Result, bail, ensure};
use serde::Serialize;

use crate::env::Workspace;
use crate::query;
use crate::stats::Summary;

/// How long the app may take to paint the timeline before the launch counts as failed.
pub(crate) const PAINT_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the app sits before its memory is read.
pub(crate) const IDLE_BEFORE_MEMORY: Duration = Duration::from_secs(5);

/// One launch's figures.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Launch {
    /// Spawn → the window's first painted frame, wall clock.
    pub window: Duration,
    /// The timeline view's own time from asking for its rows to their first
    /// paint (the newest page when the history is long).
    pub timeline_paint: Duration,
    /// Rows in that first paint.
    pub first_rows: u64,
    /// The view's own time until every row was painted.
    pub timeline_all: Duration,
    /// `--open` handed to the running app → the timeline's first painted
    /// rows, wall clock (includes the second launch's hand-over).
    pub timeline_from_open: Duration,
    /// Rows the timeline painted from.
    pub rows: u64,
    /// Memory [`IDLE_BEFORE_MEMORY`] after the window painted, on the
    /// Projects screen: the app sitting idle.
    pub idle: Memory,
    /// Memory [`IDLE_BEFORE_MEMORY`] after the whole timeline painted.
    pub after_timeline: Memory,
}

/// The figures of one kind of launch (full or empty project).
#[derive(Debug, Clone, Serialize)]
pub struct LaunchSeries {
    /// Every measured launch (the warm-up is not among them).
    pub launches: Vec<Launch>,
    /// Spawn → first painted window.
    pub window: Summary,
    /// Timeline rows requested → first painted.
    pub timeline_paint: Summary,
    /// Timeline rows requested → every row painted.
    pub timeline_all: Summary,
    /// `--open` handed over → timeline painted.
    pub timeline_from_open: Summary,
    /// Median memory while idle on the Projects screen.
    pub idle: Memory,
    /// Median memory after the whole timeline painted.
    pub after_timeline: Memory,
}

/// One `--hidden` launch's figures.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct TrayLaunch {
    /// Memory [`IDLE_BEFORE_MEMORY`] after the app said it runs in the tray
    /// (no window built).
    pub idle_in_tray: Memory,
    /// `--open` handed to the app in the tray → the new window's first
    /// painted frame, wall clock.
    pub window_from_tray: Duration,
    /// Memory [`IDLE_BEFORE_MEMORY`] after that window painted.
    pub window_open: Memory,
    /// Memory [`IDLE_BEFORE_MEMORY`] after that window was closed (the app
    /// back in the tray) and its web process ended.
    pub after_close: Memory,
}

/// The figures of the `--hidden` launches.
#[derive(Debug, Clone, Serialize)]
pub struct TraySeries {
    /// Every measured launch (the warm-up is not among them).
    pub launches: Vec<TrayLaunch>,
    /// Median memory idle in the tray.
    pub idle_in_tray: Memory,
    /// `--open` to the app in the tray → window painted.
    pub window_from_tray: Summary,
    /// Median memory once that window painted.
    pub window_open: Memory,
    /// Median memory once that window was closed again.
    pub after_close: Memory,
}

/// What the desktop measurement found.
#[derive(Debug, Clone, Serialize)]
pub struct DesktopReport {
    /// Mutation rows in the full project's ledger.
    pub rows: u64,
    /// Launches opening the timeline of the full project.
    pub full: LaunchSeries,
    /// Launches opening the timeline of an empty project: the baseline.
    pub empty: LaunchSeries,
    /// Launches into the tray (`--hidden`), the window opened later.
    pub tray: TraySeries,
}

/// Builds a ledger of `rows` mutations, then launches the app `launches`
/// times on it and on an empty project, alternating, after one warm-up each.
pub fn run(rows: u64, launches: usize) -> Result<DesktopReport> {
    ensure!(launches > 0, "--desktop-launches must be at least 1");
    let app = locate_app()?;
    let ws = Workspace::new()?;
    query::build_ledger_for(&ws, rows, "desktop")?;
    let empty_root = ws.add_repo("empty")?;
    let display = Display::start()?;

    let mut full = Vec::new();
    let mut empty = Vec::new();
    let mut tray = Vec::new();
    for i in 0..=launches {
        let warm_up = i == 0;
        let label = if warm_up {
            "warm-up".to_owned()
        } else {
            format!("{i}/{launches}")
        };
        for (root, series, expect_rows) in
            [(&ws.root, &mut full, rows), (&empty_root, &mut empty, 0)]
        {
            let launch = launch_once(&app, &ws, &display, root, expect_rows)
                .with_context(|| format!("launch {label} on {}", root.display()))?;
            ensure!(
                launch.rows == expect_rows,
                "the timeline painted {} rows, expected {expect_rows}",
                launch.rows
            );
            eprintln!(
                "[desktop] {label} {} rows: window {:.0} ms, idle RSS {}; timeline first paint {:.0} ms ({} rows; {:.0} ms from --open), all rows {:.0} ms, then RSS {}",
                launch.rows,
                ms(launch.window),
                launch.idle,
                ms(launch.timeline_paint),
                launch.first_rows,
                ms(launch.timeline_from_open),
                ms(launch.timeline_all),
                launch.after_timeline,
            );
            if !warm_up {
                series.push(launch);
            }
        }
        let launch = launch_into_tray(&app, &ws, &display, &empty_root)
            .with_context(|| format!("launch {label} into the tray"))?;
        eprintln!(
            "[desktop] {label} --hidden: idle in the tray RSS {}; window opened from the tray in {:.0} ms, then RSS {}; closed, RSS {}",
            launch.idle_in_tray,
            ms(launch.window_from_tray),
            launch.window_open,
            launch.after_close,
        );
        if !warm_up {
            tray.push(launch);
        }
    }
    Ok(DesktopReport {
        rows,
        full: series(full)?,
        empty: series(empty)?,
        tray: tray_series(tray)?,
    })
}

fn tray_series(launches: Vec<TrayLaunch>) -> Result<TraySeries> {
    let window_from_tray = Summary::of(
        &launches
            .iter()
            .map(|l| l.window_from_tray)
            .collect::<Vec<_>>(),
    )
    .context("no launches")?;
    Ok(TraySeries {
        idle_in_tray: Memory::median(&launches.iter().map(|l| l.idle_in_tray).collect::<Vec<_>>()),
        window_open: Memory::median(&launches.iter().map(|l| l.window_open).collect::<Vec<_>>()),
        after_close: Memory::median(&launches.iter().map(|l| l.after_close).collect::<Vec<_>>()),
        window_from_tray,
        launches,
    })
}

fn series(launches: Vec<Launch>) -> Result<LaunchSeries> {
    let summary = |f: fn(&Launch) -> Duration| {
        Summary::of(&launches.iter().map(f).collect::<Vec<_>>()).context("no launches")
    };
    let memory = |of: fn(&Launch) -> &Memory| {
        Memory::median(&launches.iter().map(|l| *of(l)).collect::<Vec<_>>())
    };
    Ok(LaunchSeries {
        window: summary(|l| l.window)?,
        timeline_paint: summary(|l| l.timeline_paint)?,
        timeline_all: summary(|l| l.timeline_all)?,
        timeline_from_open: summary(|l| l.timeline_from_open)?,
        idle: memory(|l| &l.idle),
        after_timeline: memory(|l| &l.after_timeline),
        launches,
    })
}

/// The release app beside this benchmark's binary.
pub(crate) fn locate_app() -> Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot find the benchmark's own path")?;
    let app = exe.with_file_name("hookd-desktop");
    if !app.is_file() {
        bail!(
            "{} is missing: build the UI (cd ui && npm install && npm run build) and then \
             `cargo build --release -p hookd-desktop` (scripts/bench does both)",
            app.display()
        );
    }
    Ok(app)
}

/// The X display the app paints on: the caller's, or a private Xvfb.
pub(crate) struct Display {
    name: String,
    xvfb: Option<Child>,
}

impl Display {
    pub(crate) fn start() -> Result<Self> {
        if let Ok(name) = std::env::var("DISPLAY")
            && !name.is_empty()
        {
            return Ok(Self { name, xvfb: None });
        }
        let number = (100..200)
            .find(|n| !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists())
            .context("no free X display number")?;
        let name = format!(":{number}");
        let xvfb = Command::new("Xvfb")
            .args([&name, "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start Xvfb (scripts/setup installs it), and DISPLAY is unset")?;
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
        let deadline = Instant::now() + Duration::from_secs(10);
        while !socket.exists() {
            ensure!(Instant::now() < deadline, "Xvfb did not start on {name}");
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(Self {
            name,
            xvfb: Some(xvfb),
        })
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        if let Some(xvfb) = &mut self.xvfb {
            let _ = xvfb.kill();
            let _ = xvfb.wait();
        }
    }
}

/// A paint the app logged.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PaintMark {
    /// The mark's name (`shell`, `timeline`, …).
    pub(crate) name: String,
    /// When the app logged it, wall clock.
    pub(crate) unix_ms: u128,
    /// The window's own time for it.
    pub(crate) ms: f64,
    /// Rows, for lists.
    pub(crate) rows: Option<u64>,
}

/// What the app logs once it runs in the tray without a window (`--hidden`).
const IN_TRAY_LOG: &str = "started in the tray";

/// Parses a `hookd_desktop::perf` log line: `... window painted mark=timeline
/// ms=123.4 rows=100000 unix_ms=... since_launch_ms=...`.
fn parse_mark(line: &str) -> Option<PaintMark> {
    if !line.contains("hookd_desktop::perf") || !line.contains("window painted") {
        return None;
    }
    let field = |key: &str| {
        line.split_whitespace()
            .find_map(|word| word.strip_prefix(key)?.strip_prefix('='))
    };
    Some(PaintMark {
        name: field("mark")?.to_owned(),
        unix_ms: field("unix_ms")?.parse().ok()?,
        ms: field("ms")?.parse().ok()?,
        rows: field("rows").and_then(|r| r.parse().ok()),
    })
}

/// Points a launch of the app at the benchmark's display, home, socket and
/// data directory.
fn configure(cmd: &mut Command, ws: &Workspace, display: &Display) -> Result<()> {
    let home = ws.root.with_file_name("desktop-home");
    let runtime = ws.socket.parent().context("socket has a directory")?;
    cmd.env("DISPLAY", &display.name)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("XDG_RUNTIME_DIR", runtime)
        .env("HOOKD_HOME", home.join(".hookd"))
        .env(hookd_proto::SOCKET_ENV, &ws.socket)
        .env(hookd_core::dirs::DATA_DIR_ENV, &ws.data_dir)
        .env("HOOKD_LOG", "info")
        .env("NO_AT_BRIDGE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    Ok(())
}

/// The app running in its own D-Bus session, its log read for marks.
pub(crate) struct Running {
    session: Child,
    pub(crate) spawned: Instant,
    pub(crate) spawned_unix_ms: u128,
    marks: mpsc::Receiver<PaintMark>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    /// Starts the app with `args` inside `dbus-run-session`.
    pub(crate) fn start(
        app: &Path,
        ws: &Workspace,
        display: &Display,
        args: &[&str],
    ) -> Result<Self> {
        let mut cmd = Command::new("dbus-run-session");
        cmd.arg("--").arg(app).args(args);
        configure(&mut cmd, ws, display)?;
        cmd.stderr(Stdio::piped());
        let spawned_unix_ms = unix_ms_now();
        let spawned = Instant::now();
        let mut session = cmd
            .spawn()
            .context("cannot start dbus-run-session (package dbus) with hookd-desktop")?;
        let stderr = session.stderr.take().context("piped stderr")?;
        let (marks_tx, marks) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr)
                .lines()
                .map_while(std::io::Result::ok)
            {
                let mark = parse_mark(&line).or_else(|| {
                    line.contains(IN_TRAY_LOG).then(|| PaintMark {
                        name: "tray".into(),
                        unix_ms: unix_ms_now(),
                        ms: 0.0,
                        rows: None,
                    })
                });
                if let Some(mark) = mark {
                    let _ = marks_tx.send(mark);
                }
            }
        });
        Ok(Self {
            session,
            spawned,
            spawned_unix_ms,
            marks,
            reader: Some(reader),
        })
    }

    /// The next mark named `name` before `deadline` (others are skipped).
    pub(crate) fn wait_for(&self, name: &str, deadline: Instant) -> Result<PaintMark> {
        loop {
            let mark = self.next_mark(deadline)?;
            if mark.name == name {
                return Ok(mark);
            }
        }
    }

    pub(crate) fn next_mark(&self, deadline: Instant) -> Result<PaintMark> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.marks
            .recv_timeout(left)
            .map_err(|_| anyhow::anyhow!("no paint marks within {PAINT_TIMEOUT:?}"))
    }

    pub(crate) fn memory(&self) -> Result<Memory> {
        Memory::of_tree(self.session.id())
    }

    /// The hookd-desktop process inside the session.
    fn app_pid(&self) -> Result<u32> {
        descendants(self.session.id())
            .into_iter()
            .find(|pid| comm(*pid).as_deref() == Some("hookd-desktop"))
            .context("the hookd-desktop process was not found")
    }

    /// Closes the window as a user would and waits until its WebKit web
    /// process has ended (the app stays, in the tray).
    fn close_window(&self, display: &Display) -> Result<()> {
        let app = self.app_pid()?;
        let script = close_window_script();
        // Run by its shebang: Debian's python3, which has python3-xlib.
        let out = Command::new(&script)
            .arg(app.to_string())
            .env("DISPLAY", &display.name)
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("cannot run {}", script.display()))?;
        ensure!(
            out.status.success(),
            "{} failed ({}): {}",
            script.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
        let deadline = Instant::now() + PAINT_TIMEOUT;
        let web_process_alive = || {
            descendants(app)
                .into_iter()
                .any(|pid| comm(pid).is_some_and(|n| n.starts_with("WebKitWeb")))
        };
        while web_process_alive() {
            ensure!(
                Instant::now() < deadline,
                "the window's web process was still running {PAINT_TIMEOUT:?} after the close"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        ensure!(
            descendants(self.session.id()).contains(&app),
            "the app quit when its window closed (no tray?)"
        );
        Ok(())
    }

    /// Hands `--open ROUTE` to the running app the way the tray does: a
    /// second launch on the app's session bus, which exits at once. Returns
    /// when it was started (wall clock and monotonic).
    pub(crate) fn open(
        &self,
        app: &Path,
        ws: &Workspace,
        display: &Display,
        route: &str,
    ) -> Result<(u128, Instant)> {
        let app_pid = self.app_pid()?;
        let bus = environ_var(app_pid, "DBUS_SESSION_BUS_ADDRESS")
            .context("the app has no D-Bus session address")?;
        let mut open = Command::new(app);
        open.args(["--open", route]);
        configure(&mut open, ws, display)?;
        open.env("DBUS_SESSION_BUS_ADDRESS", bus)
            .stderr(Stdio::null());
        let opened_unix_ms = unix_ms_now();
        let opened = Instant::now();
        let status = open.status().context("cannot run the second launch")?;
        ensure!(
            status.success(),
            "the second launch (--open) failed: {status}"
        );
        Ok((opened_unix_ms, opened))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        stop(&mut self.session);
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}

/// The window route of `root`'s timeline, for `--open`.
pub(crate) fn timeline_route(root: &Path) -> String {
    format!("timeline?repo={}", root.display())
}

/// Wall-clock time from `from` to `unix_ms`.
pub(crate) fn since(from: u128, unix_ms: u128) -> Duration {
    Duration::from_millis(u64::try_from(unix_ms.saturating_sub(from)).unwrap_or(u64::MAX))
}

fn launch_once(
    app: &Path,
    ws: &Workspace,
    display: &Display,
    root: &Path,
    rows: u64,
) -> Result<Launch> {
    let running = Running::start(app, ws, display, &[])?;
    let shell = running.wait_for("shell", running.spawned + PAINT_TIMEOUT)?;
    std::thread::sleep(IDLE_BEFORE_MEMORY);
    let idle = running.memory()?;

    // Open the timeline in the running app, as the tray does.
    let (opened_unix_ms, opened) = running.open(app, ws, display, &timeline_route(root))?;

    // A long history paints its newest page first (`timeline`), then
    // every row (`timeline-all`); a short one only the first mark.
    let mut first = None;
    let mut all = None;
    let deadline = opened + PAINT_TIMEOUT;
    while all.is_none() {
        let mark = running.next_mark(deadline)?;
        match mark.name.as_str() {
            "timeline" => {
                if mark.rows.unwrap_or(0) >= rows {
                    all = Some(mark.clone());
                }
                first = Some(mark);
            }
            "timeline-all" => all = Some(mark),
            _ => {}
        }
    }
    let (Some(first), Some(all)) = (first, all) else {
        bail!("paint marks missing");
    };
    std::thread::sleep(IDLE_BEFORE_MEMORY);
    let after_timeline = running.memory()?;
    Ok(Launch {
        window: since(running.spawned_unix_ms, shell.unix_ms),
        timeline_paint: Duration::from_secs_f64(first.ms / 1000.0),
        first_rows: first.rows.unwrap_or(0),
        timeline_all: Duration::from_secs_f64(all.ms / 1000.0),
        timeline_from_open: since(opened_unix_ms, first.unix_ms),
        rows: all.rows.unwrap_or(0),
        idle,
        after_timeline,
    })
}

/// The login's launch: `--hidden` into the tray, idle there, then the
/// window opened on `root`'s timeline by a second launch.
fn launch_into_tray(
    app: &Path,
    ws: &Workspace,
    display: &Display,
    root: &Path,
) -> Result<TrayLaunch> {
    let running = Running::start(app, ws, display, &["--hidden"])?;
    let deadline = running.spawned + PAINT_TIMEOUT;
    // A painted window here would mean --hidden built one after all.
    let first = running.next_mark(deadline)?;
    ensure!(
        first.name == "tray",
        "expected the app to start in the tray, but it logged {:?} first (is there an appindicator library?)",
        first.name
    );
    std::thread::sleep(IDLE_BEFORE_MEMORY);
    let idle_in_tray = running.memory()?;
    let (opened_unix_ms, opened) = running.open(app, ws, display, &timeline_route(root))?;
    let shell = running.wait_for("shell", opened + PAINT_TIMEOUT)?;
    running.wait_for("timeline", opened + PAINT_TIMEOUT)?;
    std::thread::sleep(IDLE_BEFORE_MEMORY);
    let window_open = running.memory()?;
    running.close_window(display)?;
    std::thread::sleep(IDLE_BEFORE_MEMORY);
    Ok(TrayLaunch {
        idle_in_tray,
        window_from_tray: since(opened_unix_ms, shell.unix_ms),
        window_open,
        after_close: running.memory()?,
    })
}

/// The e2e tests' helper that closes a process's windows as a window
/// manager does (there is none under Xvfb).
fn close_window_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/desktop-e2e/close-window.py")
}

/// The value of `key` in the environment `pid` started with.
fn environ_var(pid: u32, key: &str) -> Option<String> {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    environ.split(|b| *b == 0).find_map(|entry| {
        let entry = std::str::from_utf8(entry).ok()?;
        let (k, v) = entry.split_once('=')?;
        (k == key).then(|| v.to_owned())
    })
}

/// Stops the app the way a user's logout does (SIGTERM: it drains its
/// daemon and removes the socket), then the D-Bus session around it.
fn stop(child: &mut Child) {
    for pid in descendants(child.id()) {
        if comm(pid).as_deref() == Some("hookd-desktop") {
            let _ = Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .status();
        }
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    for pid in descendants(child.id()) {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Memory of the app and its WebKit processes.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Memory {
    /// RSS of the app process alone, MiB.
    pub rss_app_mib: f64,
    /// RSS summed over the app and its WebKit processes, MiB.
    pub rss_total_mib: f64,
    /// PSS summed over the same processes, MiB.
    pub pss_total_mib: f64,
}

impl std::fmt::Display for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.0} MiB (app {:.0}), PSS {:.0} MiB",
            self.rss_total_mib, self.rss_app_mib, self.pss_total_mib
        )
    }
}

impl Memory {
    /// The median of each figure on its own.
    pub(crate) fn median(all: &[Memory]) -> Self {
        let median = |f: fn(&Memory) -> f64| {
            let mut values: Vec<f64> = all.iter().map(f).collect();
            values.sort_by(f64::total_cmp);
            values.get(values.len() / 2).copied().unwrap_or(0.0)
        };
        Self {
            rss_app_mib: median(|m| m.rss_app_mib),
            rss_total_mib: median(|m| m.rss_total_mib),
            pss_total_mib: median(|m| m.pss_total_mib),
        }
    }

    fn of_tree(session_pid: u32) -> Result<Self> {
        let mut memory = Self {
            rss_app_mib: 0.0,
            rss_total_mib: 0.0,
            pss_total_mib: 0.0,
        };
        let mut found_app = false;
        for pid in descendants(session_pid) {
            let Some(name) = comm(pid) else { continue };
            // dbus-daemon belongs to the session this benchmark provides, not to the app.
            if name != "hookd-desktop" && !name.starts_with("WebKit") {
                continue;
            }
            let rss = kib_field(&format!("/proc/{pid}/status"), "VmRSS:").unwrap_or(0.0) / 1024.0;
            let pss =
                kib_field(&format!("/proc/{pid}/smaps_rollup"), "Pss:").unwrap_or(0.0) / 1024.0;
            if name == "hookd-desktop" {
                found_app = true;
                memory.rss_app_mib += rss;
            }
            memory.rss_total_mib += rss;
            memory.pss_total_mib += pss;
        }
        ensure!(found_app, "the hookd-desktop process was not found");
        Ok(memory)
    }
}

fn kib_field(path: &str, key: &str) -> Option<f64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix(key))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
}

fn comm(pid: u32) -> Option<String> {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .ok()
        .map(|s| s.trim().to_owned())
}

/// Every live descendant of `root` (children first found through /proc).
fn descendants(root: u32) -> Vec<u32> {
    let mut parents: Vec<(u32, u32)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            // The command name may hold spaces and parentheses: fields start after the last ')'.
            let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
                continue;
            };
            let mut fields = after.split_whitespace();
            let state = fields.next();
            let ppid = fields.next().and_then(|p| p.parse::<u32>().ok());
            if let (Some(state), Some(ppid)) = (state, ppid)
                && state != "Z"
            {
                parents.push((pid, ppid));
            }
        }
    }
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            parents
                .iter()
                .filter(|(_, p)| *p == parent)
                .map(|(pid, _)| *pid),
        );
        i += 1;
    }
    found
}

pub(crate) fn unix_ms_now() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis())
}

pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_apps_mark_line() {
        let line = "2026-11-22T02:30:01.123456Z  INFO hookd_desktop::perf: window painted \
                    mark=timeline ms=212.5 rows=100000 unix_ms=1795000000123 since_launch_ms=950";
        assert_eq!(
            parse_mark(line),
            Some(PaintMark {
                name: "timeline".into(),
                unix_ms: 1_795_000_000_123,
                ms: 212.5,
                rows: Some(100_000),
            })
        );
        let shell = "INFO hookd_desktop::perf: window painted mark=shell ms=80 unix_ms=5";
        assert_eq!(
            parse_mark(shell).map(|m| (m.name, m.rows)),
            Some(("shell".into(), None))
        );
        assert_eq!(
            parse_mark("INFO hookd_core::daemon::server: listening"),
            None
        );
    }

    #[test]
    fn reads_a_variable_of_a_processs_environment() {
        // This process's start-up environment, as /proc shows it.
        let path = std::env::var("PATH").expect("tests run with a PATH");
        assert_eq!(environ_var(std::process::id(), "PATH"), Some(path));
        assert_eq!(
            environ_var(std::process::id(), "HOOKD_NO_SUCH_VARIABLE"),
            None
        );
    }

    #[test]
    fn the_tree_of_this_process_contains_itself() {
        assert!(descendants(std::process::id()).contains(&std::process::id()));
    }
}
