//! The tray icon and its menu: open the window, pause/resume live updates,
//! quit. The icon and a status line show the state (recording, live updates
//! paused, attached to another daemon, daemon unavailable).
//!
//! Linux trays go through libappindicator, which `tray-icon` loads at run
//! time and panics when it is missing. The app must survive that (it then
//! works from the window, and closing the window quits), so creation is
//! guarded twice: the library is looked for first, and a panic during
//! creation is caught where panics unwind (debug builds; release builds
//! abort on panic, which is why the lookup comes first).

use std::panic::AssertUnwindSafe;

use tauri::image::Image;
use tauri::menu::{Menu, MenuEvent, MenuItem, PredefinedMenuItem};
use tauri::tray::{TrayIcon, TrayIconBuilder};
use tauri::{AppHandle, Manager, Runtime};

use crate::daemon::{DaemonInfo, DaemonMode};
use crate::state::AppState;

const TRAY_ID: &str = "hookd";
const OPEN_ID: &str = "open";
const PAUSE_ID: &str = "pause";
const QUIT_ID: &str = "quit";

const ICON_RECORDING: &[u8] = include_bytes!("../../icons/tray.png");
const ICON_PAUSED: &[u8] = include_bytes!("../../icons/tray-paused.png");

/// The tray's parts that change with the state. Managed by Tauri; its
/// presence means the app has a tray.
pub struct Tray<R: Runtime> {
    icon: TrayIcon<R>,
    status: MenuItem<R>,
    pause: MenuItem<R>,
}

/// True when the app has a tray (so closing the window may hide it).
pub fn is_available<R: Runtime>(app: &AppHandle<R>) -> bool {
    app.try_state::<Tray<R>>().is_some()
}

/// Set to `1` to run without a tray (desktops with no tray host, where the
/// icon would be invisible and a hidden window unreachable; tests).
pub const NO_TRAY_ENV: &str = "HOOKD_NO_TRAY";

/// Creates the tray, or explains in the log why there is none. Returns
/// whether there is one.
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
    let status = MenuItem::with_id(app, "status", "hookd", false, None::<&str>)?;
    let open = MenuItem::with_id(app, OPEN_ID, "Open window", true, None::<&str>)?;
    let pause = MenuItem::with_id(app, PAUSE_ID, "Pause live updates", true, None::<&str>)?;
    let quit = MenuItem::with_id(app, QUIT_ID, "Quit hookd", true, None::<&str>)?;
    let menu = Menu::with_items(
        app,
        &[
            &status,
            &PredefinedMenuItem::separator(app)?,
            &open,
            &pause,
            &PredefinedMenuItem::separator(app)?,
            &quit,
        ],
    )?;
    let icon = TrayIconBuilder::with_id(TRAY_ID)
        .icon(Image::from_bytes(ICON_RECORDING)?)
        .tooltip("hookd")
        .menu(&menu)
        .show_menu_on_left_click(true)
        .on_menu_event(|app, event| on_menu_event(app, &event))
        .build(app)?;
    Ok(Tray {
        icon,
        status,
        pause,
    })
}

fn on_menu_event<R: Runtime>(app: &AppHandle<R>, event: &MenuEvent) {
    match event.id().as_ref() {
        OPEN_ID => crate::show_main_window(app),
        PAUSE_ID => {
            let paused = app.state::<AppState>().live.toggle();
            tracing::info!(paused, "live updates toggled from the tray");
            refresh(app);
        }
        QUIT_ID => app.exit(0),
        _ => {}
    }
}

/// Brings the icon, status line, tooltip and pause item in line with the state.
pub fn refresh<R: Runtime>(app: &AppHandle<R>) {
    let Some(tray) = app.try_state::<Tray<R>>() else {
        return;
    };
    let state = app.state::<AppState>();
    let paused = state.live.is_paused();
    let status = status_line(&state.daemon_info(), paused);
    let icon = if paused || state.daemon_info().mode != DaemonMode::Own {
        ICON_PAUSED
    } else {
        ICON_RECORDING
    };
    let pause_text = if paused {
        "Resume live updates"
    } else {
        "Pause live updates"
    };
    let outcome = (|| -> tauri::Result<()> {
        tray.status.set_text(&status)?;
        tray.pause.set_text(pause_text)?;
        tray.icon.set_tooltip(Some(format!("hookd: {status}")))?;
        tray.icon.set_icon(Some(Image::from_bytes(icon)?))?;
        Ok(())
    })();
    if let Err(err) = outcome {
        tracing::warn!(error = %err, "cannot update the tray");
    }
}

/// The tray's one-line summary of the state.
pub fn status_line(daemon: &DaemonInfo, paused: bool) -> String {
    let live = if paused {
        "live updates paused"
    } else {
        "live updates on"
    };
    match daemon.mode {
        // Pausing only stops the window's live updates, never the recording.
        DaemonMode::Own => format!("Recording ({live})"),
        DaemonMode::Attached => "Attached: another hookd daemon is recording".to_owned(),
        DaemonMode::Unavailable => {
            let why = daemon.error.as_deref().unwrap_or("unknown error");
            let short: String = why.chars().take(60).collect();
            let ellipsis = if why.chars().count() > 60 { "…" } else { "" };
            format!("Not recording: {short}{ellipsis}")
        }
    }
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
        assert_eq!(status_line(&own, false), "Recording (live updates on)");
        assert_eq!(status_line(&own, true), "Recording (live updates paused)");
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

    #[test]
    fn the_build_machine_has_an_appindicator() {
        // The GUI build packages include it (scripts/setup); if this fails
        // the tray silently disappears, which the app survives but users miss.
        assert_eq!(missing_appindicator(), None);
    }
}
