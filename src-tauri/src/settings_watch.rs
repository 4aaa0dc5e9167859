//! Tells the window when a hook settings file changes on disk, so the Hook
//! editor can show "changed on disk" (and reload or merge) the moment the
//! agent's `/hooks` editor, the user's editor or `hookd hooks` writes one of
//! the files it has open, instead of finding out only when a save is refused.
//!
//! The core's settings watcher ([`hookd_core::settings::watch`]) watches the
//! directories of the tracked
//! files: the global ones (`~/.claude/settings.json`, hookd's home with its
//! `settings.json` and store of disabled hooks) from the start, and the four
//! files of each project the editor opens. A directory that does not exist
//! yet is watched through its parent until it appears. Every change of a
//! tracked file becomes one [`SETTINGS_CHANGED_EVENT`] with its path.

use hookd_core::settings::Scope;
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use hookd_core::settings::watch::DirWatcher;
use hookd_core::settings::{Kind, SettingsRoots};
use serde::Serialize;
use ts_rs::TS;

use crate::editor::EDITABLE;
use crate::error::{AppError, ErrorKind, Result};

/// Name of the event sent when a tracked settings file changed.
pub const SETTINGS_CHANGED_EVENT: &str = "settings-changed";

/// Payload of [`SETTINGS_CHANGED_EVENT`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SettingsChanged {
    /// The file that changed (or appeared, or went).
    pub path: String,
}

type Callback = Box<dyn Fn(SettingsChanged) + Send + Sync>;

/// The watcher of settings files; cheap to clone.
#[derive(Clone)]
pub struct SettingsWatch {
    inner: Arc<Inner>,
}

struct Inner {
    roots: Option<SettingsRoots>,
    /// The files whose changes are reported.
    files: Mutex<HashSet<PathBuf>>,
    /// Watches the tracked files' directories.
    watcher: DirWatcher,
    on_change: Callback,
}

impl std::fmt::Debug for SettingsWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SettingsWatch")
            .field("roots", &self.inner.roots)
            .finish_non_exhaustive()
    }
}

impl SettingsWatch {
    /// Starts watching the global files of `roots` and calls `on_change`
    /// (on the watcher's thread) for every change of a tracked file. Without
    /// a working watcher nothing is reported (logged); the editor still
    /// refuses stale saves.
    pub fn new(
        roots: Option<SettingsRoots>,
        on_change: impl Fn(SettingsChanged) + Send + Sync + 'static,
    ) -> Self {
        let inner = Arc::new_cyclic(|weak: &std::sync::Weak<Inner>| {
            let weak = weak.clone();
            Inner {
                roots,
                files: Mutex::new(HashSet::new()),
                watcher: DirWatcher::new(
                    "settings files",
                    "the editor will not see outside changes",
                    move |paths| {
                        if let Some(inner) = weak.upgrade() {
                            inner.changed(paths.iter().map(PathBuf::as_path));
                        }
                    },
                ),
                on_change: Box::new(on_change),
            }
        });
        let globals: Vec<PathBuf> = inner
            .roots
            .iter()
            .flat_map(|roots| {
                let mut files: Vec<PathBuf> = Kind::ALL
                    .iter()
                    .filter_map(|kind| {
                        roots
                            .location(*kind, hookd_core::settings::Scope::Global, None)
                            .ok()
                    })
                    .map(|l| l.path)
                    .collect();
                files.push(roots.disabled_store());
                files
            })
            .collect();
        inner.track(globals);
        Self { inner }
    }

    /// Also reports changes of the agent's and hookd's project and local
    /// files of `project`. Returns every file tracked for it (global ones
    /// included), sorted.
    pub fn watch_project(&self, project: &Path) -> Result<Vec<String>> {
        let roots = self.inner.roots.as_ref().ok_or_else(|| {
            AppError::new(
                ErrorKind::Unavailable,
                "no home directory: settings files are not watched",
            )
        })?;
        let mut files = Vec::new();
        for (kind, scope) in EDITABLE {
            if scope == Scope::Global {
                continue;
            }
            let location = roots
                .location(kind, scope, Some(project))
                .map_err(crate::editor::settings_error)?;
            files.push(location.path);
        }
        self.inner.track(files);
        let all: BTreeSet<String> = self
            .inner
            .files
            .lock()
            .map(|f| f.iter().map(|p| p.display().to_string()).collect())
            .unwrap_or_default();
        Ok(all.into_iter().collect())
    }
}

impl Inner {
    /// Tracks `files` and watches what is needed to see them change.
    fn track(&self, files: Vec<PathBuf>) {
        if let Ok(mut tracked) = self.files.lock() {
            tracked.extend(files);
        }
        self.arm();
    }

    /// Watches each tracked file's directory, or its parent while the
    /// directory does not exist yet.
    fn arm(&self) {
        let dirs: Vec<PathBuf> = match self.files.lock() {
            Ok(files) => files
                .iter()
                .filter_map(|f| {
                    let dir = f.parent()?;
                    if dir.is_dir() {
                        Some(dir.to_path_buf())
                    } else {
                        dir.parent().filter(|p| p.is_dir()).map(Path::to_path_buf)
                    }
                })
                .collect(),
            Err(_) => return,
        };
        for dir in dirs {
            self.watch(&dir);
        }
    }

    fn watch(&self, dir: &Path) {
        self.watcher.watch(dir);
    }

    /// Reports the tracked files among `paths`; a directory of tracked files
    /// that appeared is watched from now on and its existing files reported.
    fn changed<'a>(&self, paths: impl Iterator<Item = &'a Path>) {
        let Ok(files) = self.files.lock().map(|f| f.clone()) else {
            return;
        };
        let mut report = BTreeSet::new();
        let mut new_dir = false;
        for path in paths {
            if files.contains(path) {
                report.insert(path.to_path_buf());
            } else if path.is_dir() {
                for file in files.iter().filter(|f| f.parent() == Some(path)) {
                    new_dir = true;
                    if file.exists() {
                        report.insert(file.clone());
                    }
                }
            }
        }
        if new_dir {
            self.arm();
        }
        for path in report {
            tracing::debug!(file = %path.display(), "settings file changed");
            (self.on_change)(SettingsChanged {
                path: path.display().to_string(),
            });
        }
    }
}
