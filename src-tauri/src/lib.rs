//! hookd's desktop app: a tray, the daemon in-process, and the backend of the
//! window. All logic lives in `hookd-core`; this crate only adapts it:
//!
//! - [`commands`]: the `#[tauri::command]`s, each declared once (the UI's
//!   TypeScript signatures are generated from the same list), thin wrappers
//!   around plain functions in [`projects`], [`timeline`], [`editor`], ...
//!   that tests call without a window;
//! - [`state`]: paths, settings roots, daemon status, the recording switch;
//! - [`daemon`]: runs `hookd_core::daemon::server::Daemon` on the usual socket, or
//!   works attached when another daemon owns it;
//! - [`bridge`]: forwards the daemon's commit notices to the window as the
//!   batched `ledger-commit` event;
//! - [`tray`]: the tray icon and menu, guarded so the app survives without
//!   an appindicator library;
//! - [`autostart`](mod@autostart): launch on login, the XDG autostart entry
//!   under `$XDG_CONFIG_HOME/autostart`;
//! - [`error`]: the `{kind, message}` error every command returns;
//! - [`editor`] and [`settings_watch`]: the Hook editor's files, saves and
//!   moves, and the `settings-changed` event;
//! - [`bench`](mod@bench) and [`connect`]: the Test bench (match and run an event's
//!   hooks) and the Projects screen's Connect button (previewed edits of
//!   the agent's settings);
//! - [`rewind`](mod@rewind): the Timeline's Revert actions (`hookd rewind`
//!   previewed, then applied exactly as previewed, and undone);
//! - [`window`]: the main window: building it on a route (`--open`),
//!   opening it again, navigating, closes and dropped folders;
//! - [`perf`]: paint marks from the window, logged for users and the benchmark;
//! - [`render`]: the window renders on the CPU (`HOOKD_DESKTOP_GPU=1` undoes it).
//!
//! Arguments: `--hidden` (start in the tray; the login entry passes it) and
//! `--open ROUTE` (first screen, e.g. `--open 'timeline?repo=/src/app'`; given
//! to a second launch, the running app's window opens ROUTE).
//!
//! The window exists only while it is open. With a tray, closing it
//! destroys it (its WebKit web process ends and gives its memory back) while
//! the app and its daemon go on in the tray; `--hidden` never builds it; the
//! tray or a second launch builds it anew, on the screen it showed when it
//! was closed, with the Hook editor's unsaved edits ([`closing`]). Without a
//! tray, closing it quits. Folders dropped on it are
//! added as projects and announced with `projects-changed`.

pub mod activity;
pub mod autostart;
pub mod backtest;
pub mod bench;
pub mod bench_runs;
pub mod bridge;
pub mod closing;
pub mod commands;
pub mod connect;
pub mod daemon;
pub mod editor;
pub mod error;
pub mod find;
pub mod health;
pub mod history;
pub mod perf;
pub mod project;
pub mod projects;
pub mod render;
pub mod rewind;
pub mod settings_watch;
pub mod state;
pub mod templates;
pub mod timeline;
pub mod tray;
pub mod window;

use tauri::{App, AppHandle, Emitter, Manager, RunEvent, Runtime};

pub use error::{AppError, ErrorKind};
pub use state::AppState;
pub use window::MAIN_WINDOW;

use crate::daemon::{DaemonHandle, STOP_GRACE};

/// Passed by the login autostart entry: start in the tray, window hidden.
pub const HIDDEN_FLAG: &str = "--hidden";

/// Builds and runs the app until it quits.
pub fn run() -> error::Result<()> {
    // Before any thread starts: fewer arenas keep fewer pages after a burst.
    hookd_core::daemon::memory::limit_arenas(hookd_core::daemon::memory::APP_ARENAS);
    perf::note_launch();
    init_logging();
    let state = AppState::from_env()?;
    let app = tauri::Builder::default()
        // First, so a second launch hands over before anything else starts.
        .plugin(tauri_plugin_single_instance::init(|app, argv, _cwd| {
            if argv.iter().any(|arg| arg == HIDDEN_FLAG) {
                // A login entry running twice: the app is already in the tray.
                tracing::info!("second launch with {HIDDEN_FLAG}: already running");
                return;
            }
            tracing::info!("second launch: opening the running app's window");
            // `hookd-desktop --open ROUTE` while the app runs opens ROUTE
            // in its window (a terminal, a script, the benchmark).
            window::open_main_window(app, window::start_route(argv).as_deref());
        }))
        .plugin(tauri_plugin_shell::init())
        .plugin(tauri_plugin_dialog::init())
        .manage(state)
        .manage(closing::Handover::default())
        .invoke_handler(commands::handler())
        .setup(|app| {
            setup(app)?;
            Ok(())
        })
        .on_window_event(window::on_window_event)
        .build(tauri::generate_context!())?;
    app.run(|app, event| match event {
        // The last window closed (no exit code): with a tray the app goes
        // on there. `app.exit` (Quit, a stop signal) carries a code and ends it.
        RunEvent::ExitRequested {
            code: None, api, ..
        } if tray::is_available(app) => {
            tracing::info!("window closed; running on in the tray");
            api.prevent_exit();
        }
        RunEvent::Exit => {
            if let Some(daemon) = app.try_state::<DaemonHandle>() {
                tracing::info!("quitting: stopping the daemon");
                daemon.stop(STOP_GRACE);
            }
        }
        _ => {}
    });
    Ok(())
}

/// Starts the daemon, the bridge, the signal handler and the tray, then
/// builds the window (unless autostarted into a working tray).
fn setup<R: Runtime>(app: &mut App<R>) -> tauri::Result<()> {
    let handle = app.handle().clone();
    manage_autostart(app);
    let state = app.state::<AppState>();
    let started = daemon::start_for(&state);
    state.set_daemon_info(started.info.clone());
    let emitter = handle.clone();
    let emit = move |batch| {
        if let Err(err) = emitter.emit(bridge::LEDGER_COMMIT_EVENT, batch) {
            tracing::warn!(error = %err, "cannot send live update to the window");
        }
    };
    if let Some(notices) = started.notices {
        started.handle.spawn(bridge::forward(notices, emit));
    } else if started.info.mode == state::DaemonMode::Attached {
        // Another daemon records: its commits reach the window by polling.
        started.handle.spawn(bridge::poll_attached(
            state.data_dir.clone(),
            started.handle.shutdown_token(),
            emit,
        ));
    }
    started.handle.spawn(quit_on_signal(handle.clone()));
    // What the window's reads freed goes back to the system once they stop
    // (the daemon does the same for its own work, which ends earlier).
    let reads = handle.clone();
    started
        .handle
        .spawn(hookd_core::daemon::memory::release_after_work(
            move || reads.state::<AppState>().window_reads(),
            started.handle.shutdown_token(),
        ));
    app.manage(started.handle);
    let emitter = handle.clone();
    app.manage(settings_watch::SettingsWatch::new(
        state.settings_roots.clone(),
        move |changed| {
            if let Err(err) = emitter.emit(settings_watch::SETTINGS_CHANGED_EVENT, changed) {
                tracing::warn!(error = %err, "cannot tell the window a settings file changed");
            }
        },
    ));

    let has_tray = tray::create(&handle);
    if has_tray && std::env::args().any(|arg| arg == HIDDEN_FLAG) {
        tracing::info!("started in the tray; the window opens from its menu");
        return Ok(());
    }
    window::build_main_window(&handle, window::start_route(std::env::args()).as_deref())?;
    Ok(())
}

/// Manages the [`autostart::Autostart`] entry that starts this program (or
/// its AppImage) with [`HIDDEN_FLAG`]; without one, launch on login says it
/// is unavailable.
fn manage_autostart<R: Runtime>(app: &App<R>) {
    let program = app
        .env()
        .appimage
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::current_exe().ok());
    let Some(program) = program else {
        tracing::warn!("launch on login unavailable: cannot tell this program's path");
        return;
    };
    match autostart::Autostart::from_env(program, vec![HIDDEN_FLAG.to_owned()]) {
        Ok(entry) => {
            app.manage(entry);
        }
        Err(err) => tracing::warn!(error = %err, "launch on login unavailable"),
    }
}

/// SIGTERM or SIGINT quit the app the way the tray's Quit does, so the
/// daemon drains and removes its socket; a second signal exits at once.
async fn quit_on_signal<R: Runtime>(app: AppHandle<R>) {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        tracing::warn!("cannot handle SIGTERM/SIGINT; a signal will stop the app without draining");
        return;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
    tracing::info!("stop signal received; quitting");
    app.exit(0);
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
    tracing::warn!("second stop signal; exiting without waiting");
    std::process::exit(1);
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("HOOKD_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // A second init (tests) keeps the first subscriber.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}
