//! The one main window: building it on a route, opening it again from the
//! tray or a second launch, asking it to navigate, and what happens to it
//! (a close, folders dropped on it). The window exists only while it is
//! open; [`crate::closing`] holds what a closed window leaves behind.

use tauri::{
    AppHandle, DragDropEvent, Emitter, Manager, Runtime, WebviewUrl, WebviewWindow,
    WebviewWindowBuilder, Window, WindowEvent,
};

use crate::state::AppState;
use crate::{closing, projects, render, tray};

/// Label of the one window.
pub const MAIN_WINDOW: &str = "main";

/// The route given with `--open ROUTE` or `--open=ROUTE` (a leading `#` or
/// `#/` is dropped), if any.
pub fn start_route(args: impl IntoIterator<Item = String>) -> Option<String> {
    let mut args = args.into_iter();
    let mut found = None;
    while let Some(arg) = args.next() {
        let value = if arg == "--open" {
            args.next()
        } else {
            arg.strip_prefix("--open=").map(str::to_owned)
        };
        if let Some(value) = value {
            let route = value.trim_start_matches('#').trim_start_matches('/');
            found = (!route.is_empty()).then(|| route.to_owned());
        }
    }
    found
}

/// Builds the main window from its configuration, showing `route` (a hash
/// route without `#/`, e.g. `timeline?repo=/src/app`) or the Projects screen.
pub fn build_main_window<R: Runtime>(
    app: &AppHandle<R>,
    route: Option<&str>,
) -> tauri::Result<WebviewWindow<R>> {
    let mut config = app
        .config()
        .app
        .windows
        .iter()
        .find(|w| w.label == MAIN_WINDOW)
        .cloned()
        .ok_or(tauri::Error::WindowNotFound)?;
    if let Some(route) = route {
        // Everything after `#` is the fragment: a route cannot leave the app's origin.
        config.url = WebviewUrl::App(format!("index.html#/{route}").into());
    }
    let window = WebviewWindowBuilder::from_config(app, &config)?.build()?;
    render::apply(&window);
    Ok(window)
}

/// Asks the window to show `route` (e.g. `timeline?repo=/src/app`) with the
/// [`tray::NAVIGATE_EVENT`] event.
pub fn navigate<R: Runtime>(app: &AppHandle<R>, route: &str) {
    if let Err(err) = app.emit(tray::NAVIGATE_EVENT, route) {
        tracing::warn!(error = %err, "cannot ask the window to navigate");
    }
}

/// Opens the main window on `route` (or where it is): shows, unminimises
/// and focuses it, or builds it when it was closed to the tray (on the
/// screen it showed then, when no route is given).
pub fn open_main_window<R: Runtime>(app: &AppHandle<R>, route: Option<&str>) {
    let Some(window) = app.get_webview_window(MAIN_WINDOW) else {
        let closed = app
            .try_state::<closing::Handover>()
            .and_then(|handover| handover.take_route());
        if let Err(err) = build_main_window(app, route.or(closed.as_deref())) {
            tracing::error!(error = %err, "cannot open the window");
        }
        return;
    };
    if let Some(route) = route {
        navigate(app, route);
    }
    for (what, outcome) in [
        ("show", window.show()),
        ("unminimize", window.unminimize()),
        ("focus", window.set_focus()),
    ] {
        if let Err(err) = outcome {
            tracing::warn!(error = %err, "cannot {what} the window");
        }
    }
}

/// The main window asks to close (the close handshake of [`closing`]), or
/// folders were dropped on a window (each is added as a project and
/// announced with `projects-changed`).
pub fn on_window_event<R: Runtime>(window: &Window<R>, event: &WindowEvent) {
    if let WindowEvent::CloseRequested { api, .. } = event
        && window.label() == MAIN_WINDOW
    {
        closing::on_close_requested(window, api);
    }
    if let WindowEvent::DragDrop(DragDropEvent::Drop { paths, .. }) = event {
        let app = window.app_handle().clone();
        let paths = paths.clone();
        tauri::async_runtime::spawn_blocking(move || {
            let result = projects::add_dropped(&app.state::<AppState>(), &paths);
            if let Err(err) = app.emit(projects::PROJECTS_CHANGED_EVENT, &result) {
                tracing::warn!(error = %err, "cannot announce dropped projects");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::start_route;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn open_takes_the_next_argument_or_an_equals_value() {
        assert_eq!(
            start_route(args(&["hookd-desktop", "--open", "timeline?repo=/src/a"])),
            Some("timeline?repo=/src/a".into())
        );
        assert_eq!(
            start_route(args(&["hookd-desktop", "--hidden", "--open=#/settings"])),
            Some("settings".into())
        );
    }

    #[test]
    fn no_or_empty_open_means_the_default_screen() {
        assert_eq!(start_route(args(&["hookd-desktop", "--hidden"])), None);
        assert_eq!(start_route(args(&["hookd-desktop", "--open"])), None);
        assert_eq!(start_route(args(&["hookd-desktop", "--open", "#/"])), None);
    }
}
