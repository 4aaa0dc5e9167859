//! Watching settings files for changes made outside hookd: the agent's own
//! `/hooks` editor, a text editor, `git pull`, another hookd.
//!
//! Editors replace a file by renaming a new one over it, which a watch on
//! the file itself would miss, so what is watched is the directory (not
//! recursively), and what changed is reported by path after a short
//! debounce (150 ms: one save is one report). The daemon's managed-hooks
//! cache ([`crate::daemon::managed`]) and the desktop app's Hook editor
//! both build on this one watcher; each decides which paths matter to it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use notify::RecursiveMode;
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer};

/// How long changes are gathered before they are reported.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// A debounced watcher of directories that reports changed paths.
pub struct DirWatcher {
    purpose: &'static str,
    debouncer: Mutex<Option<Debouncer<notify::RecommendedWatcher>>>,
    watched: Mutex<HashSet<PathBuf>>,
}

impl std::fmt::Debug for DirWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DirWatcher")
            .field("purpose", &self.purpose)
            .field("watched", &self.watched)
            .finish_non_exhaustive()
    }
}

impl DirWatcher {
    /// A watcher that calls `on_change` (on the watcher's own thread) with
    /// every path that changed in a watched directory. `purpose` names what
    /// is watched in log lines ("managed hook files"); `without` says what a
    /// user loses when no watcher can be had, which is logged as an error
    /// (the watcher then watches nothing).
    pub fn new(
        purpose: &'static str,
        without: &'static str,
        on_change: impl Fn(Vec<PathBuf>) + Send + 'static,
    ) -> Self {
        let debouncer = new_debouncer(DEBOUNCE, move |result: DebounceEventResult| match result {
            Ok(events) => on_change(events.into_iter().map(|e| e.path).collect()),
            Err(err) => tracing::warn!(error = %err, "{purpose}: watcher error"),
        });
        let debouncer = match debouncer {
            Ok(debouncer) => Some(debouncer),
            Err(err) => {
                tracing::error!(error = %err, "cannot watch {purpose}; {without}");
                None
            }
        };
        Self {
            purpose,
            debouncer: Mutex::new(debouncer),
            watched: Mutex::new(HashSet::new()),
        }
    }

    /// Watches `dir` (not recursively) from now on; watching it twice is a
    /// no-op. False when it cannot be watched (logged).
    pub fn watch(&self, dir: &Path) -> bool {
        let (Ok(mut watched), Ok(mut debouncer)) = (self.watched.lock(), self.debouncer.lock())
        else {
            return false;
        };
        if watched.contains(dir) {
            return true;
        }
        let Some(debouncer) = debouncer.as_mut() else {
            return false;
        };
        match debouncer.watcher().watch(dir, RecursiveMode::NonRecursive) {
            Ok(()) => {
                watched.insert(dir.to_path_buf());
                true
            }
            Err(err) => {
                tracing::warn!(dir = %dir.display(), error = %err, "cannot watch {}", self.purpose);
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_file_renamed_into_a_watched_directory_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let (tx, rx) = mpsc::channel();
        let watcher = DirWatcher::new("test files", "nothing", move |paths| {
            tx.send(paths).unwrap();
        });
        assert!(watcher.watch(dir.path()));
        assert!(watcher.watch(dir.path()), "a second watch is a no-op");
        let file = dir.path().join("settings.json");
        let temp = dir.path().join(".settings.json.tmp");
        std::fs::write(&temp, "{}").unwrap();
        std::fs::rename(&temp, &file).unwrap();
        // The temp file may come in a report of its own first.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        let mut seen = Vec::new();
        while !seen.contains(&file) {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match rx.recv_timeout(left) {
                Ok(paths) => seen.extend(paths),
                Err(_) => panic!("{} never reported; saw {seen:?}", file.display()),
            }
        }
        assert!(!watcher.watch(&dir.path().join("missing")));
    }
}
