//! What only the desktop app's tests need on top of hookd-testkit: the app's
//! state built on a test environment, the editor's file references, and a
//! timeline query for one repository.
//! Everything that does not need tauri or the app's types lives in
//! hookd-testkit.

#![allow(dead_code)] // each test binary uses a different subset

use hookd_core::settings::{Kind, Scope};
use std::path::Path;

use hookd_core::settings::SettingsRoots;
use hookd_desktop::AppState;
use hookd_desktop::editor::FileRef;
use hookd_desktop::timeline::TimelineQuery;
use hookd_testkit::{GitRepo, TestEnv};

/// The app's state on a [`TestEnv`]: its data dir and socket, and settings
/// looked up under its HOME.
pub trait DesktopEnv {
    /// The state the window's commands run against.
    fn state(&self) -> AppState;
}

impl DesktopEnv for TestEnv {
    fn state(&self) -> AppState {
        AppState::new(
            self.data_dir(),
            self.socket(),
            Some(SettingsRoots::under(&self.home())),
        )
    }
}

/// The editor's reference to the settings file of `kind` at `scope` for `project`.
pub fn file(project: &Path, kind: Kind, scope: Scope) -> FileRef {
    FileRef {
        project: Some(project.display().to_string()),
        kind,
        scope,
    }
}

/// The timeline of `repo`, unfiltered.
pub fn repo_query(repo: &GitRepo) -> TimelineQuery {
    TimelineQuery {
        repo: Some(repo.root().display().to_string()),
        ..TimelineQuery::default()
    }
}

/// Calls the window's command `cmd` with `args` through Tauri's IPC, as the
/// webview does; the reply or the error as JSON.
pub fn invoke(
    window: &tauri::WebviewWindow<tauri::test::MockRuntime>,
    cmd: &str,
    args: serde_json::Value,
) -> Result<serde_json::Value, serde_json::Value> {
    tauri::test::get_ipc_response(
        window,
        tauri::webview::InvokeRequest {
            cmd: cmd.into(),
            callback: tauri::ipc::CallbackFn(0),
            error: tauri::ipc::CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: tauri::ipc::InvokeBody::Json(args),
            headers: Default::default(),
            invoke_key: tauri::test::INVOKE_KEY.to_string(),
        },
    )
    .map(|body| body.deserialize::<serde_json::Value>().unwrap())
}

/// The app with every command, on `state`, and its main window, mocked as
/// Tauri's test runtime does: what [`invoke`] talks to. Keep the app alive
/// while the window is used.
pub fn ipc_window(
    state: AppState,
) -> (
    tauri::App<tauri::test::MockRuntime>,
    tauri::WebviewWindow<tauri::test::MockRuntime>,
) {
    let app = tauri::test::mock_builder()
        .manage(state)
        .invoke_handler(hookd_desktop::commands::handler())
        .build(tauri::test::mock_context(tauri::test::noop_assets()))
        .expect("mock app");
    let window = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .expect("mock window");
    (app, window)
}
