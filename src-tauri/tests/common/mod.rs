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
