//! What every command needs: where hookd's files are, which settings roots to
//! read, and how the daemon is doing. Built once from the environment (the
//! same variables the CLI reads, so the app and `hookd` always agree) or, in
//! tests, from temp dirs.

use std::path::PathBuf;
use std::sync::RwLock;
use std::sync::atomic::{AtomicU64, Ordering};

use hookd_core::daemon::recording::RecordingSwitch;
use hookd_core::daemon::status::{self, DaemonStatus};
use hookd_core::settings::SettingsRoots;
use serde::Serialize;
use ts_rs::TS;

use crate::error::{AppError, ErrorKind, Result};

/// How the app relates to the daemon on its socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum DaemonMode {
    /// The app runs the daemon itself.
    Own,
    /// Another hookd daemon owns the socket; the app only reads.
    Attached,
    /// No daemon could be started (see `error`).
    Unavailable,
}

/// The daemon as `app_info` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct DaemonInfo {
    /// Own, attached or unavailable.
    pub mode: DaemonMode,
    /// The socket path.
    pub socket: String,
    /// Why the daemon is unavailable; `null` otherwise.
    pub error: Option<String>,
}

/// The app's shared state, managed by Tauri and passed to every plain function.
#[derive(Debug)]
pub struct AppState {
    /// hookd's data directory (registry of projects, ledger outside git).
    pub data_dir: PathBuf,
    /// The socket the in-process daemon listens on (or another daemon owns).
    pub socket: PathBuf,
    /// Where the agent's and hookd's settings files live; `None` without a
    /// home directory (then nothing counts as connected).
    pub settings_roots: Option<SettingsRoots>,
    /// How the daemon is doing; filled in once the app has tried to start it.
    daemon: RwLock<DaemonInfo>,
    /// Pauses the own daemon's recording (the tray's "Pause recording").
    pub recording: RecordingSwitch,
    /// The test bench's runs in flight, for its Cancel button.
    pub bench_runs: crate::bench_runs::BenchRuns,
    /// Reverts previewed and not yet applied: what `rewind_apply` carries out.
    pub rewinds: crate::rewind::Previews,
    /// The tray's counts of serious health findings, recomputed once a minute.
    pub health: crate::health::HealthCache,
    /// Rows (and charts) the window has read since the app started: the
    /// work whose freed memory is given back once it stops
    /// ([`hookd_core::daemon::memory::release_after_work`]).
    window_reads: AtomicU64,
}

impl AppState {
    /// State for explicit paths (tests, embedders).
    pub fn new(data_dir: PathBuf, socket: PathBuf, settings_roots: Option<SettingsRoots>) -> Self {
        let daemon = DaemonInfo {
            mode: DaemonMode::Unavailable,
            socket: socket.display().to_string(),
            error: Some("the daemon has not been started yet".into()),
        };
        Self {
            data_dir,
            socket,
            settings_roots,
            daemon: RwLock::new(daemon),
            recording: RecordingSwitch::new(),
            bench_runs: crate::bench_runs::BenchRuns::default(),
            rewinds: crate::rewind::Previews::default(),
            health: crate::health::HealthCache::default(),
            window_reads: AtomicU64::new(0),
        }
    }

    /// Counts `rows` read for the window (a chart counts as one).
    pub fn count_window_reads(&self, rows: usize) {
        self.window_reads
            .fetch_add(u64::try_from(rows).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    /// Rows (and charts) read for the window so far.
    pub fn window_reads(&self) -> u64 {
        self.window_reads.load(Ordering::Relaxed)
    }

    /// State from the environment, resolved exactly as `hookd daemon` does:
    /// `$HOOKD_DATA_DIR` / `$XDG_DATA_HOME/hookd`, `$HOOKD_SOCKET` /
    /// `$XDG_RUNTIME_DIR/hookd.sock`, `$HOME` and `$HOOKD_HOME`.
    pub fn from_env() -> Result<Self> {
        let data_dir = hookd_core::dirs::data_dir().map_err(AppError::from)?;
        let roots = match SettingsRoots::from_env() {
            Ok(roots) => Some(roots),
            Err(err) => {
                tracing::warn!(error = %err, "no settings roots: connection status and managed hooks are off");
                None
            }
        };
        Ok(Self::new(data_dir, hookd_proto::socket_path(), roots))
    }

    /// The settings roots, or why there are none (only a missing home
    /// directory takes them away).
    pub fn roots(&self) -> Result<&SettingsRoots> {
        self.settings_roots.as_ref().ok_or_else(|| {
            AppError::new(
                ErrorKind::Unavailable,
                "no home directory: the settings files cannot be found ($HOME is not set)",
            )
        })
    }

    /// How the daemon is doing.
    pub fn daemon_info(&self) -> DaemonInfo {
        match self.daemon.read() {
            Ok(info) => info.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Records how starting the daemon went.
    pub fn set_daemon_info(&self, info: DaemonInfo) {
        match self.daemon.write() {
            Ok(mut slot) => *slot = info,
            Err(poisoned) => *poisoned.into_inner() = info,
        }
    }

    /// What `daemon_status` returns: the status file the daemon on the app's
    /// socket rewrites every second (own or attached alike); `None` when
    /// there is none (no daemon has run on that socket).
    pub fn daemon_status(&self) -> Result<Option<DaemonStatus>> {
        status::read(&status::status_path(&self.socket)).map_err(AppError::from)
    }

    /// What `app_info` returns.
    pub fn app_info(&self) -> AppInfo {
        AppInfo {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            daemon: self.daemon_info(),
            data_dir: self.data_dir.display().to_string(),
        }
    }
}

/// The `app_info` command's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct AppInfo {
    /// The app's version.
    pub version: String,
    /// The daemon: own, attached or unavailable.
    pub daemon: DaemonInfo,
    /// hookd's data directory.
    pub data_dir: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn daemon_status_reads_the_file_beside_the_socket() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("hookd.sock");
        let state = AppState::new(dir.path().join("data"), socket.clone(), None);
        assert_eq!(state.daemon_status().unwrap(), None, "no file: null");

        let written = DaemonStatus {
            pid: 4242,
            socket: socket.clone(),
            started_at: "2026-01-01T00:00:00Z".into(),
            updated_at: "2026-01-01T00:00:05Z".into(),
            ledger_mode: "local".into(),
            stats: hookd_core::daemon::stats::StatsSnapshot {
                connections: 3,
                lines_accepted: 2,
                lines_rejected: 1,
                events_stored: 2,
                events_spooled: 0,
                ..Default::default()
            },
            publisher: None,
            recording_paused: false,
            moved_aside_ledgers: Vec::new(),
            ledgers_being_checked: Vec::new(),
        };
        status::write(&status::status_path(&socket), &written).unwrap();
        let read = state.daemon_status().unwrap().expect("a status");
        assert_eq!(read, written);
        let json = serde_json::to_value(&read).unwrap();
        assert_eq!(json["stats"]["events_stored"], 2);
        assert!(json.get("publisher").is_none());

        std::fs::write(status::status_path(&socket), b"{not json").unwrap();
        assert!(state.daemon_status().is_err(), "a corrupt file is an error");
    }
}
