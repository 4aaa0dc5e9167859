//! The tray icon and its menu: a status line, open the window, pause or
//! resume recording, the last few file changes, the connected projects,
//! launch on login (a check item; the same entry as the Settings screen's
//! switch, see [`crate::autostart`]), quit. The icon shows the state:
//! recording, paused (or attached to another daemon), or an error (no
//! daemon, the daemon the app attached to is gone, or the broker is down
//! while publishing). A refresher re-reads the daemon's status file, the newest
//! mutations and the projects every few seconds and rebuilds the menu when
//! something changed; choosing a change or a project opens its timeline.
//! A project with serious hook health findings (a guard that cannot start,
//! hooks that stopped firing, see [`crate::health`]) gets a "⚠ N hook
//! problems" item that opens its Health view; those counts are recomputed
//! once a minute on the refresher's blocking task.
//!
//! Linux trays go through libappindicator, which `tray-icon` loads at run
//! time and panics when it is missing. The app must survive that (it then
//! works from the window, and closing the window quits), so creation is
//! guarded twice: the library is looked for first, and a panic during
//! creation is caught where panics unwind (debug builds; release builds
//! abort on panic, which is why the lookup comes first).

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::Mutex;
use std::time::Duration;

use hookd_core::daemon::status::DaemonStatus;
use hookd_core::record::MutationRow;
use tauri::image::Image;
use tauri::menu::{CheckMenuItem, Menu, MenuEvent, MenuItem, PredefinedMenuItem, Submenu};
use tauri::tray::{TrayIcon, TrayIconBuilder};
use tauri::{AppHandle, Manager, Runtime};

use crate::projects::{self, ProjectInfo};
use crate::state::AppState;
use crate::state::{DaemonInfo, DaemonMode};
use crate::timeline::{self, TimelineQuery};

const TRAY_ID: &str = "hookd";
const OPEN_ID: &str = "open";
const PAUSE_ID: &str = "pause";
const LOGIN_ID: &str = "launch-on-login";
const QUIT_ID: &str = "quit";
/// Ids of the recent-change and project items start with this; the rest is a key into [`Tray::routes`].
const ROUTE_PREFIX: &str = "route:";

/// How many recent changes the menu lists.
pub const RECENT_CHANGES: u64 = 5;
/// How often the refresher looks at the status file, ledgers and projects.
const REFRESH_EVERY: Duration = Duration::from_secs(2);
/// How old the attached daemon's status file may get (it rewrites it every
/// second) before the tray says that daemon is gone.
const ATTACHED_STALE_AFTER: chrono::TimeDelta = chrono::TimeDelta::seconds(5);

/// Event asking the window to show a route (`timeline?repo=...`).
pub const NAVIGATE_EVENT: &str = "navigate";

const ICON_RECORDING: &[u8] = include_bytes!("../../icons/tray-recording.png");
const ICON_PAUSED: &[u8] = include_bytes!("../../icons/tray-paused.png");
const ICON_ERROR: &[u8] = include_bytes!("../../icons/tray-error.png");

/// The tray. Managed by Tauri; its presence means the app has a tray.
pub struct Tray<R: Runtime> {
    icon: TrayIcon<R>,
    /// What the menu shows now; the menu is rebuilt only when this changes.
    shown: Mutex<Option<TrayView>>,
    /// Menu item id → the route it opens.
    routes: Mutex<HashMap<String, String>>,
}

/// Everything the tray shows, computed from the app's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrayView {
    /// The icon's state.
    pub look: Look,
    /// The first, disabled line of the menu (also the tooltip).
    pub status: String,
    /// Whether "Pause recording" applies (own daemon only) and its label.
    pub pause: Option<&'static str>,
    /// Recent changes: label and route, newest first.
    pub recent: Vec<(String, String)>,
    /// Connected projects: label and route.
    pub projects: Vec<(String, String)>,
    /// Warnings for projects whose managed hooks hookd does not run because
    /// the user has not approved them: label and route (their Hook editor).
    pub untrusted: Vec<(String, String)>,
    /// Projects with serious health findings: label (`⚠ N hook problems in
    /// name`) and route (their Health view).
    pub health: Vec<(String, String)>,
    /// Whether the app starts on login; `None` when that cannot be read
    /// (the item is then greyed out).
    pub launch_on_login: Option<bool>,
}

/// The icon's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// The own daemon records.
    Recording,
    /// Recording paused, or another daemon records.
    Paused,
    /// No daemon, or the broker is unreachable while publishing.
    Error,
}

/// True when the app has a tray (so closing the window keeps the app running).
pub fn is_available<R: Runtime>(app: &AppHandle<R>) -> bool {
    app.try_state::<Tray<R>>().is_some()
}

/// Set to `1` to run without a tray (desktops with no tray host, where the
/// icon would be invisible and a hidden window unreachable; tests).
pub const NO_TRAY_ENV: &str = "HOOKD_NO_TRAY";

/// Creates the tray and its refresher, or explains in the log why there is
/// none. Returns whether there is one.
pub fn create<R: Runtime>(app: &AppHandle<R>) -> bool {
    if std::env::var_os(NO_TRAY_ENV).is_some_and(|v| v == "1") {
        tracing::info!("no tray: {NO_TRAY_ENV}=1; closing the window quits");
        return false;
    }
    if let Some(missing) = missing_appindicator() {
        tracing::warn!(
            "no tray: {missing}; install libayatana-appindicator3-1 for one. The app works from its window, and closing the window quits."
        );
        return false;
    }
    match std::panic::catch_unwind(AssertUnwindSafe(|| build(app))) {
        Ok(Ok(tray)) => {
            app.manage(tray);
            refresh(app);
            let app = app.clone();
            tauri::async_runtime::spawn(async move {
                let mut ticks = tokio::time::interval(REFRESH_EVERY);
                loop {
                    ticks.tick().await;
                    let app = app.clone();
                    // SQLite and file reads stay off the async workers.
                    if tauri::async_runtime::spawn_blocking(move || refresh(&app))
                        .await
                        .is_err()
                    {
                        return;
                    }
                }
            });
            true
        }
        Ok(Err(err)) => {
            tracing::warn!(error = %err, "no tray: cannot create it; the app works from its window");
            false
        }
        Err(_) => {
            tracing::warn!("no tray: creating it panicked; the app works from its window");
            false
        }
    }
}

fn build<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<Tray<R>> {
    let icon = TrayIconBuilder::with_id(TRAY_ID)
        .icon(Image::from_bytes(ICON_RECORDING)?)
        .tooltip("hookd")
        .show_menu_on_left_click(true)
        .on_menu_event(|app, event| on_menu_event(app, &event))
        .build(app)?;
    Ok(Tray {
        icon,
        shown: Mutex::new(None),
        routes: Mutex::new(HashMap::new()),
    })
}

fn on_menu_event<R: Runtime>(app: &AppHandle<R>, event: &MenuEvent) {
    let id = event.id().as_ref();
    match id {
        OPEN_ID => crate::window::open_main_window(app, None),
        PAUSE_ID => {
            let paused = app.state::<AppState>().recording.toggle();
            tracing::info!(paused, "recording toggled from the tray");
            refresh_in_background(app, false);
        }
        LOGIN_ID => {
            let wanted = crate::autostart::is_enabled_for_app(app).map(|on| !on);
            match wanted.and_then(|on| crate::autostart::set_for_app(app, on)) {
                Ok(on) => tracing::info!(on, "launch on login toggled from the tray"),
                Err(err) => tracing::warn!(error = %err, "cannot change launch on login"),
            }
            // The check mark shows the entry's state, not the click's.
            refresh_in_background(app, true);
        }
        QUIT_ID => app.exit(0),
        _ if id.starts_with(ROUTE_PREFIX) => {
            let route = app
                .try_state::<Tray<R>>()
                .and_then(|tray| lock(&tray.routes).get(id).cloned());
            if let Some(route) = route {
                crate::window::open_main_window(app, Some(&route));
            }
        }
        _ => {}
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// [`refresh`] off the calling thread. Menu events and commands run on the
/// main thread, which must stay free: the refresher may hold the menu's lock
/// while it waits for the main thread to install a new menu. With `rebuild`
/// the menu is rebuilt even when nothing changed (a check item the host
/// toggled on its own gets its true state back).
pub fn refresh_in_background<R: Runtime>(app: &AppHandle<R>, rebuild: bool) {
    let app = app.clone();
    tauri::async_runtime::spawn_blocking(move || {
        if rebuild && let Some(tray) = app.try_state::<Tray<R>>() {
            *lock(&tray.shown) = None;
        }
        refresh(&app);
    });
}

/// Re-reads the state and updates the icon and menu when they changed.
pub fn refresh<R: Runtime>(app: &AppHandle<R>) {
    let Some(tray) = app.try_state::<Tray<R>>() else {
        return;
    };
    let state = app.state::<AppState>();
    let mut view = view_of(&state);
    view.launch_on_login = crate::autostart::is_enabled_for_app(app).ok();
    let mut shown = lock(&tray.shown);
    if shown.as_ref() == Some(&view) {
        return;
    }
    match apply(app, &tray, &view) {
        Ok(()) => *shown = Some(view),
        Err(err) => tracing::warn!(error = %err, "cannot update the tray"),
    }
}

/// What the tray should show for `state` now.
pub fn view_of(state: &AppState) -> TrayView {
    let mut daemon = state.daemon_info();
    let status = state.daemon_status().ok().flatten();
    if daemon.mode == DaemonMode::Attached
        && let Some(why) = attached_daemon_gone(status.as_ref(), chrono::Utc::now())
    {
        daemon.mode = DaemonMode::Unavailable;
        daemon.error = Some(format!("the daemon this app attached to is gone ({why})"));
    }
    let recent = timeline::timeline(
        state,
        &TimelineQuery {
            all: true,
            limit: Some(RECENT_CHANGES),
            ..TimelineQuery::default()
        },
    )
    .unwrap_or_default();
    let projects = projects::list_projects(state).unwrap_or_default();
    let untrusted: Vec<String> = state
        .roots()
        .map(|roots| {
            projects
                .iter()
                .filter(|p| {
                    hookd_core::settings::trust::review(roots, std::path::Path::new(&p.root))
                        .is_ok_and(|files| files.iter().any(|f| f.needs_approval()))
                })
                .map(|p| p.root.clone())
                .collect()
        })
        .unwrap_or_default();
    let health = state.health.serious(state);
    let mut view = compose(
        &daemon,
        status.as_ref(),
        state.recording.is_paused(),
        &recent,
        &projects,
        &untrusted,
    );
    view.health = health_items(&health);
    view
}

/// In attached mode, why the other daemon looks gone at `now`: it left no
/// status file (a daemon that stops removes it) or stopped rewriting it (it
/// was killed). `None` while it runs.
pub fn attached_daemon_gone(
    status: Option<&DaemonStatus>,
    now: chrono::DateTime<chrono::Utc>,
) -> Option<String> {
    let Some(status) = status else {
        return Some("no status file".to_owned());
    };
    let written = chrono::DateTime::parse_from_rfc3339(&status.updated_at).ok()?;
    (now.signed_duration_since(written) > ATTACHED_STALE_AFTER).then(|| {
        format!(
            "status not updated since {}",
            status.updated_at.get(11..19).unwrap_or(&status.updated_at)
        )
    })
}

/// The tray's items for projects with serious health findings: label and
/// the route of their Health view.
pub fn health_items(serious: &[(String, usize)]) -> Vec<(String, String)> {
    serious
        .iter()
        .map(|(root, n)| {
            let name = std::path::Path::new(root)
                .file_name()
                .map_or_else(|| root.clone(), |n| n.to_string_lossy().into_owned());
            (
                format!(
                    "⚠ {n} hook problem{} in {name}…",
                    if *n == 1 { "" } else { "s" }
                ),
                format!("health?project={root}"),
            )
        })
        .collect()
}

/// The tray's contents from plain data (tested without a tray).
pub fn compose(
    daemon: &DaemonInfo,
    status: Option<&DaemonStatus>,
    paused: bool,
    recent: &[MutationRow],
    projects: &[ProjectInfo],
    untrusted: &[String],
) -> TrayView {
    let broker_problem = status.and_then(|s| s.publisher.as_ref()).and_then(|p| {
        let state = p.state.as_str();
        (state != "connected").then(|| {
            let why = p.last_error.as_deref().unwrap_or("not connected");
            format!("broker {state}: {}", shorten(why, 50))
        })
    });
    let mut line = status_line(daemon, paused);
    let look = match daemon.mode {
        DaemonMode::Unavailable => Look::Error,
        _ if broker_problem.is_some() => Look::Error,
        DaemonMode::Own if !paused => Look::Recording,
        _ => Look::Paused,
    };
    if let Some(problem) = broker_problem {
        line = format!("{line}; {problem}");
    }
    let pause = (daemon.mode == DaemonMode::Own).then_some(if paused {
        "Resume recording"
    } else {
        "Pause recording"
    });
    let root_name = |root: &str| {
        std::path::Path::new(root)
            .file_name()
            .map_or_else(|| root.to_owned(), |n| n.to_string_lossy().into_owned())
    };
    let recent = recent
        .iter()
        .rev()
        .map(|row| {
            let r = &row.record;
            let file = r.file_path.as_deref().unwrap_or("(no file)");
            let time = r.event_timestamp.get(11..16).unwrap_or("");
            let repo = row.repo.as_deref().unwrap_or("");
            let label = format!(
                "{time}  {} {}  ({})",
                r.tool_name,
                shorten(file, 40),
                root_name(repo)
            );
            let route = match &r.file_path {
                Some(f) => format!("timeline?repo={repo}&file={f}"),
                None => format!("timeline?repo={repo}"),
            };
            (label, route)
        })
        .collect();
    let projects = projects
        .iter()
        .filter(|p| {
            p.connected.global
                || p.connected.project
                || p.connected.local
                || !p.agents_connected.is_empty()
        })
        .map(|p| (p.name.clone(), format!("timeline?repo={}", p.root)))
        .collect();
    let untrusted = untrusted
        .iter()
        .map(|root| {
            (
                format!("⚠ Hooks not trusted in {}: review…", root_name(root)),
                format!("hooks?project={root}&tab=managed-project"),
            )
        })
        .collect();
    TrayView {
        look,
        status: line,
        pause,
        recent,
        projects,
        untrusted,
        health: Vec::new(),
        launch_on_login: None,
    }
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    // Keep the end of paths: the file name matters most.
    let tail: String = text
        .chars()
        .rev()
        .take(max - 1)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("…{tail}")
}

fn apply<R: Runtime>(app: &AppHandle<R>, tray: &Tray<R>, view: &TrayView) -> tauri::Result<()> {
    let (menu, routes) = menu_of(app, view)?;
    let icon = match view.look {
        Look::Recording => ICON_RECORDING,
        Look::Paused => ICON_PAUSED,
        Look::Error => ICON_ERROR,
    };
    tray.icon.set_menu(Some(menu))?;
    tray.icon
        .set_tooltip(Some(format!("hookd: {}", view.status)))?;
    tray.icon.set_icon(Some(Image::from_bytes(icon)?))?;
    *lock(&tray.routes) = routes;
    Ok(())
}

/// The menu showing `view`, and which route each route item opens.
fn menu_of<R: Runtime>(
    app: &AppHandle<R>,
    view: &TrayView,
) -> tauri::Result<(Menu<R>, HashMap<String, String>)> {
    let mut routes = HashMap::new();
    let mut route_item = |label: &str, route: &str| -> tauri::Result<MenuItem<R>> {
        let id = format!("{ROUTE_PREFIX}{}", routes.len());
        routes.insert(id.clone(), route.to_owned());
        MenuItem::with_id(app, id, label, true, None::<&str>)
    };
    let status = MenuItem::with_id(app, "status", &view.status, false, None::<&str>)?;
    let open = MenuItem::with_id(app, OPEN_ID, "Open window", true, None::<&str>)?;
    let pause = MenuItem::with_id(
        app,
        PAUSE_ID,
        view.pause.unwrap_or("Pause recording"),
        view.pause.is_some(),
        None::<&str>,
    )?;
    let recent = Submenu::with_id(app, "recent", "Recent changes", true)?;
    if view.recent.is_empty() {
        recent.append(&MenuItem::with_id(
            app,
            "recent-none",
            "No changes yet",
            false,
            None::<&str>,
        )?)?;
    }
    for (label, route) in &view.recent {
        recent.append(&route_item(label, route)?)?;
    }
    let connected = Submenu::with_id(app, "projects", "Connected projects", true)?;
    if view.projects.is_empty() {
        connected.append(&MenuItem::with_id(
            app,
            "projects-none",
            "None connected yet (Projects → Connect)",
            false,
            None::<&str>,
        )?)?;
    }
    for (label, route) in &view.projects {
        connected.append(&route_item(label, route)?)?;
    }
    let login = CheckMenuItem::with_id(
        app,
        LOGIN_ID,
        "Launch on login",
        view.launch_on_login.is_some(),
        view.launch_on_login == Some(true),
        None::<&str>,
    )?;
    let quit = MenuItem::with_id(app, QUIT_ID, "Quit hookd", true, None::<&str>)?;
    let warnings = view
        .health
        .iter()
        .chain(&view.untrusted)
        .map(|(label, route)| route_item(label, route))
        .collect::<tauri::Result<Vec<_>>>()?;
    let separator = PredefinedMenuItem::separator(app)?;
    let mut top: Vec<&dyn tauri::menu::IsMenuItem<R>> = vec![&status];
    for warning in &warnings {
        top.push(warning);
    }
    top.push(&separator);
    let menu = Menu::with_items(
        app,
        &[
            top.as_slice(),
            &[
                &open,
                &pause,
                &PredefinedMenuItem::separator(app)?,
                &recent,
                &connected,
                &PredefinedMenuItem::separator(app)?,
                &login,
                &quit,
            ],
        ]
        .concat(),
    )?;
    Ok((menu, routes))
}

/// The tray's one-line summary of the daemon.
pub fn status_line(daemon: &DaemonInfo, paused: bool) -> String {
    match daemon.mode {
        DaemonMode::Own if paused => "Recording paused (hooks still answer)".to_owned(),
        DaemonMode::Own => "Recording".to_owned(),
        DaemonMode::Attached => "Attached: another hookd daemon is recording".to_owned(),
        DaemonMode::Unavailable => {
            let why = daemon.error.as_deref().unwrap_or("unknown error");
            format!("Not recording: {}", shorten_end(why, 60))
        }
    }
}

fn shorten_end(text: &str, max: usize) -> String {
    let short: String = text.chars().take(max).collect();
    let ellipsis = if text.chars().count() > max {
        "…"
    } else {
        ""
    };
    format!("{short}{ellipsis}")
}

/// The libraries `libappindicator-sys` tries, in its order.
const APPINDICATOR_LIBS: [&str; 4] = [
    "libayatana-appindicator3.so.1",
    "libappindicator3.so.1",
    "libayatana-appindicator3.so",
    "libappindicator3.so",
];

/// `None` when an appindicator library can be loaded, else why not. Looks
/// where the dynamic loader looks: `$LD_LIBRARY_PATH`, its cache
/// (`/etc/ld.so.cache` holds every library name it knows), the usual dirs.
fn missing_appindicator() -> Option<String> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let cache = std::fs::read("/etc/ld.so.cache").unwrap_or_default();
    let in_cache = APPINDICATOR_LIBS.iter().any(|lib| {
        let needle = format!("{lib}\0");
        cache
            .windows(needle.len())
            .any(|window| window == needle.as_bytes())
    });
    if in_cache {
        return None;
    }
    let multiarch = format!("{}-linux-gnu", std::env::consts::ARCH);
    let mut dirs: Vec<std::path::PathBuf> = std::env::var_os("LD_LIBRARY_PATH")
        .map(|paths| std::env::split_paths(&paths).collect())
        .unwrap_or_default();
    for base in ["/usr/lib", "/lib", "/usr/local/lib"] {
        dirs.push(std::path::Path::new(base).join(&multiarch));
        dirs.push(base.into());
    }
    dirs.extend(["/usr/lib64".into(), "/lib64".into()]);
    let found = dirs
        .iter()
        .any(|dir| APPINDICATOR_LIBS.iter().any(|lib| dir.join(lib).exists()));
    (!found).then(|| "no libayatana-appindicator3 or libappindicator3 library found".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_line_says_what_pausing_means() {
        let own = DaemonInfo {
            mode: DaemonMode::Own,
            socket: "/s".into(),
            error: None,
        };
        assert_eq!(status_line(&own, false), "Recording");
        assert_eq!(
            status_line(&own, true),
            "Recording paused (hooks still answer)"
        );
        let down = DaemonInfo {
            mode: DaemonMode::Unavailable,
            socket: "/s".into(),
            error: Some("x".repeat(100)),
        };
        let line = status_line(&down, false);
        assert!(
            line.starts_with("Not recording: xxx") && line.ends_with('…'),
            "{line}"
        );
    }

    fn row(id: i64, tool: &str, file: &str, at: &str) -> MutationRow {
        let record: hookd_core::record::MutationRecord = serde_json::from_value(serde_json::json!({
            "event_type": "tool.mutation.edit", "hook_type": "post_tool_use", "tool_name": tool,
            "agent_id": "a1", "file_path": file, "file_ext": null, "lines_changed": 1,
            "branch": "main", "head_sha": "abc", "raw_payload": "{}", "event_timestamp": at,
            "received_at": at, "event_id": format!("e{id}"), "mutation_seq": 0, "session_id": null,
            "tool_use_id": null, "remote_url": null, "command": null, "source_pid": null
        }))
        .unwrap();
        MutationRow {
            id,
            record,
            repo: Some("/src/app".into()),
        }
    }

    fn project(name: &str, connected: bool) -> ProjectInfo {
        ProjectInfo {
            root: format!("/src/{name}"),
            name: name.into(),
            origin: "manual".into(),
            first_seen: "2026-11-22T00:00:00Z".into(),
            last_activity: None,
            events: 0,
            mutations: 0,
            has_ledger: false,
            connected: crate::projects::Connected {
                global: false,
                project: connected,
                local: false,
            },
            agent_kinds: Vec::new(),
            agents_connected: Vec::new(),
        }
    }

    #[test]
    fn the_menu_lists_recent_changes_newest_first_and_only_connected_projects() {
        let own = DaemonInfo {
            mode: DaemonMode::Own,
            socket: "/s".into(),
            error: None,
        };
        let rows = [
            row(1, "Edit", "src/old.rs", "2026-11-22T10:01:00.000Z"),
            row(2, "Write", "src/new.rs", "2026-11-22T10:02:00.000Z"),
        ];
        let view = compose(
            &own,
            None,
            false,
            &rows,
            &[project("app", true), project("other", false)],
            &["/src/other".to_owned()],
        );
        assert_eq!(view.look, Look::Recording);
        assert_eq!(view.pause, Some("Pause recording"));
        assert_eq!(
            view.recent,
            [
                (
                    "10:02  Write src/new.rs  (app)".to_owned(),
                    "timeline?repo=/src/app&file=src/new.rs".to_owned()
                ),
                (
                    "10:01  Edit src/old.rs  (app)".to_owned(),
                    "timeline?repo=/src/app&file=src/old.rs".to_owned()
                ),
            ]
        );
        assert_eq!(
            view.projects,
            [("app".to_owned(), "timeline?repo=/src/app".to_owned())]
        );
        assert_eq!(compose(&own, None, true, &[], &[], &[]).look, Look::Paused);
        assert_eq!(
            compose(&own, None, true, &[], &[], &[]).pause,
            Some("Resume recording")
        );
    }

    #[test]
    fn a_project_with_unapproved_hooks_is_a_warning_that_opens_its_hook_editor() {
        let own = DaemonInfo {
            mode: DaemonMode::Own,
            socket: "/s".into(),
            error: None,
        };
        let view = compose(&own, None, false, &[], &[], &["/src/app".to_owned()]);
        assert_eq!(
            view.untrusted,
            [(
                "⚠ Hooks not trusted in app: review…".to_owned(),
                "hooks?project=/src/app&tab=managed-project".to_owned()
            )]
        );
        assert!(
            compose(&own, None, false, &[], &[], &[])
                .untrusted
                .is_empty()
        );
    }

    #[test]
    fn a_broker_that_is_down_turns_the_icon_to_error_and_says_why() {
        let own = DaemonInfo {
            mode: DaemonMode::Own,
            socket: "/s".into(),
            error: None,
        };
        let status: DaemonStatus = serde_json::from_value(serde_json::json!({
            "pid": 1, "socket": "/s", "started_at": "", "updated_at": "", "ledger_mode": "amqp",
            "stats": {"connections": 0, "lines_accepted": 0, "lines_rejected": 0, "events_stored": 0, "events_spooled": 0},
            "publisher": {"state": "disconnected", "url": "amqp://h", "exchange": "x", "backlog": 3,
                          "published": 0, "last_error": "connection refused", "last_error_at": null, "connected_since": null}
        }))
        .unwrap();
        let view = compose(&own, Some(&status), false, &[], &[], &[]);
        assert_eq!(view.look, Look::Error);
        assert_eq!(
            view.status,
            "Recording; broker disconnected: connection refused"
        );
        let attached = DaemonInfo {
            mode: DaemonMode::Attached,
            ..own
        };
        let view = compose(&attached, None, false, &[], &[], &[]);
        assert_eq!((view.look, view.pause), (Look::Paused, None));
    }

    #[test]
    fn the_menu_has_a_launch_on_login_check_item_showing_the_entry_state() {
        let app = tauri::test::mock_app();
        let own = DaemonInfo {
            mode: DaemonMode::Own,
            socket: "/s".into(),
            error: None,
        };
        let mut view = compose(&own, None, false, &[], &[], &[]);
        let login = |view: &TrayView| {
            let (menu, _) = menu_of(app.handle(), view).unwrap();
            let item = menu.get(LOGIN_ID).expect("a launch-on-login item");
            let check = item.as_check_menuitem().expect("a check item").clone();
            (
                check.text().unwrap(),
                check.is_checked().unwrap(),
                check.is_enabled().unwrap(),
            )
        };
        // Unknown (no config directory): shown, greyed out.
        assert_eq!(login(&view), ("Launch on login".to_owned(), false, false));
        view.launch_on_login = Some(true);
        assert_eq!(login(&view), ("Launch on login".to_owned(), true, true));
        view.launch_on_login = Some(false);
        assert_eq!(login(&view), ("Launch on login".to_owned(), false, true));
        // It sits just above Quit.
        let (menu, _) = menu_of(app.handle(), &view).unwrap();
        let ids: Vec<String> = menu
            .items()
            .unwrap()
            .iter()
            .map(|item| item.id().as_ref().to_owned())
            .collect();
        assert_eq!(ids[ids.len() - 2..], [LOGIN_ID, QUIT_ID]);
    }

    #[test]
    fn an_attached_daemon_that_stopped_or_was_killed_is_gone() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-22T10:00:10Z")
            .unwrap()
            .with_timezone(&chrono::Utc);
        let written_at = |at: &str| -> DaemonStatus {
            serde_json::from_value(serde_json::json!({
                "pid": 1, "socket": "/s", "started_at": "", "updated_at": at, "ledger_mode": "local",
                "stats": {"connections": 0, "lines_accepted": 0, "lines_rejected": 0, "events_stored": 0, "events_spooled": 0}
            }))
            .unwrap()
        };
        assert_eq!(
            attached_daemon_gone(Some(&written_at("2026-11-22T10:00:09.500Z")), now),
            None
        );
        assert_eq!(
            attached_daemon_gone(None, now).as_deref(),
            Some("no status file")
        );
        assert_eq!(
            attached_daemon_gone(Some(&written_at("2026-11-22T10:00:01.000Z")), now).as_deref(),
            Some("status not updated since 10:00:01")
        );
    }

    #[test]
    fn the_build_machine_has_an_appindicator() {
        // The GUI build packages include it (scripts/setup); if this fails
        // the tray silently disappears, which the app survives but users miss.
        assert_eq!(missing_appindicator(), None);
    }
}
