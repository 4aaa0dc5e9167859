//! The daemon, in-process: the same [`hookd_core::daemon::server::Daemon`] that
//! `hookd daemon` runs, on the same socket, on a runtime of its own so its
//! blocking work never competes with the window's command handlers.
//!
//! If another hookd daemon already owns the socket the app works "attached":
//! it starts no second listener and reads the ledgers as usual (the other
//! daemon keeps writing them). Any other failure leaves the app usable with
//! the daemon "unavailable" and the reason shown in `app_info`.

use std::sync::Mutex;
use std::time::Duration;

use hookd_core::config::{HookdConfig, Overrides};
use hookd_core::daemon::server::{Daemon, DaemonConfig};
use hookd_core::daemon::stats::StatsSnapshot;
use hookd_core::record::CommitNotice;
use tokio::runtime::Runtime;
use tokio::sync::broadcast;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::error::{AppError, Result, chain};
use crate::state::{AppState, DaemonInfo, DaemonMode};

/// How long the daemon may take to drain on quit before the app exits anyway.
pub const STOP_GRACE: Duration = Duration::from_secs(5);

/// The daemon's settings for this app: paths from `state`, ledger mode and
/// broker from the usual layers (config file, `HOOKD_*` variables), as
/// `hookd daemon` would run without flags.
pub fn daemon_config(state: &AppState) -> Result<DaemonConfig> {
    let settings = HookdConfig::load(&Overrides::default())
        .map_err(|err| AppError::invalid_input(format!("hookd configuration: {}", chain(&err))))?;
    let mut config =
        DaemonConfig::from_config(state.socket.clone(), state.data_dir.clone(), &settings);
    config.settings_roots = state.settings_roots.clone();
    config.recording = state.recording.clone();
    Ok(config)
}

/// A started (or attached, or failed) daemon.
pub struct Started {
    /// What to report in `app_info`.
    pub info: DaemonInfo,
    /// The runtime and the daemon task, to stop on quit.
    pub handle: DaemonHandle,
    /// Commit notices of the own daemon; `None` when attached or unavailable.
    pub notices: Option<broadcast::Receiver<CommitNotice>>,
}

/// Starts the daemon for the app: the configuration from the environment
/// (see [`daemon_config`]), on a runtime of its own.
pub fn start_for(state: &AppState) -> Started {
    let socket = state.socket.display().to_string();
    let runtime = match new_runtime() {
        Ok(runtime) => runtime,
        Err(err) => return no_runtime(socket, &err),
    };
    match daemon_config(state) {
        Ok(config) => start_on(runtime, config),
        Err(err) => {
            tracing::error!(socket, error = %err.message, "cannot start the daemon");
            Started {
                info: unavailable(socket, err.message),
                handle: DaemonHandle::empty(Some(runtime)),
                notices: None,
            }
        }
    }
}

/// Starts the daemon of `config` on a runtime of its own.
pub fn start(config: DaemonConfig) -> Started {
    match new_runtime() {
        Ok(runtime) => start_on(runtime, config),
        Err(err) => no_runtime(config.socket_path.display().to_string(), &err),
    }
}

fn new_runtime() -> std::io::Result<Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("hookd-daemon")
        .enable_all()
        .build()
}

fn no_runtime(socket: String, err: &std::io::Error) -> Started {
    Started {
        info: unavailable(socket, format!("cannot start the async runtime: {err}")),
        handle: DaemonHandle::empty(None),
        notices: None,
    }
}

fn start_on(runtime: Runtime, config: DaemonConfig) -> Started {
    let socket = config.socket_path.display().to_string();
    // The listener registers with the reactor, so bind inside the runtime.
    let bound = {
        let _entered = runtime.enter();
        Daemon::bind(config)
    };
    match bound {
        Ok(daemon) => {
            let notices = daemon.subscribe();
            let shutdown = CancellationToken::new();
            let task = runtime.spawn(daemon.run(shutdown.clone()));
            tracing::info!(socket, "daemon started in-process");
            Started {
                info: DaemonInfo {
                    mode: DaemonMode::Own,
                    socket,
                    error: None,
                },
                handle: DaemonHandle {
                    runtime: Mutex::new(Some(runtime)),
                    shutdown,
                    task: Mutex::new(Some(task)),
                },
                notices: Some(notices),
            }
        }
        Err(hookd_core::Error::AlreadyRunning { pid, .. }) => {
            tracing::info!(
                socket,
                ?pid,
                "another hookd daemon owns the socket; working attached"
            );
            Started {
                info: DaemonInfo {
                    mode: DaemonMode::Attached,
                    socket,
                    error: None,
                },
                handle: DaemonHandle::empty(Some(runtime)),
                notices: None,
            }
        }
        Err(err) => {
            let message = chain(&err);
            tracing::error!(socket, error = %message, "cannot start the daemon");
            Started {
                info: unavailable(socket, message),
                handle: DaemonHandle::empty(Some(runtime)),
                notices: None,
            }
        }
    }
}

fn unavailable(socket: String, error: String) -> DaemonInfo {
    DaemonInfo {
        mode: DaemonMode::Unavailable,
        socket,
        error: Some(error),
    }
}

/// The daemon's runtime and task. The runtime also carries the app's other
/// background tasks (the bridge, the signal handler).
pub struct DaemonHandle {
    runtime: Mutex<Option<Runtime>>,
    shutdown: CancellationToken,
    task: Mutex<Option<JoinHandle<hookd_core::Result<StatsSnapshot>>>>,
}

impl DaemonHandle {
    fn empty(runtime: Option<Runtime>) -> Self {
        Self {
            runtime: Mutex::new(runtime),
            shutdown: CancellationToken::new(),
            task: Mutex::new(None),
        }
    }

    /// Runs `task` on the daemon's runtime; `false` when there is none.
    pub fn spawn<F>(&self, task: F) -> bool
    where
        F: Future<Output = ()> + Send + 'static,
    {
        match self.runtime.lock() {
            Ok(guard) => match guard.as_ref() {
                Some(runtime) => {
                    runtime.spawn(task);
                    true
                }
                None => false,
            },
            Err(_) => false,
        }
    }

    /// Fires when the daemon is asked to stop.
    pub fn shutdown_token(&self) -> CancellationToken {
        self.shutdown.clone()
    }

    /// Stops the daemon: it stops accepting, reads what is queued, commits
    /// everything and removes its socket, within `grace`. Blocks; call it
    /// from a thread that is not a runtime worker (the app's exit handler).
    pub fn stop(&self, grace: Duration) {
        self.shutdown.cancel();
        let runtime = self.runtime.lock().ok().and_then(|mut r| r.take());
        let task = self.task.lock().ok().and_then(|mut t| t.take());
        let Some(runtime) = runtime else { return };
        if let Some(task) = task {
            match runtime.block_on(async { tokio::time::timeout(grace, task).await }) {
                Ok(Ok(Ok(totals))) => tracing::info!(
                    accepted = totals.lines_accepted,
                    rejected = totals.lines_rejected,
                    "daemon stopped"
                ),
                Ok(Ok(Err(err))) => tracing::error!(error = %chain(&err), "daemon failed"),
                Ok(Err(err)) => tracing::error!(error = %err, "daemon task panicked"),
                Err(_) => tracing::warn!(
                    grace_secs = grace.as_secs(),
                    "daemon did not drain in time; exiting anyway"
                ),
            }
        }
        runtime.shutdown_timeout(Duration::from_millis(500));
    }
}

impl Drop for DaemonHandle {
    fn drop(&mut self) {
        // Dropping a runtime inside another one panics; shutting it down in
        // the background never does. `stop` normally ran before this.
        self.shutdown.cancel();
        if let Some(runtime) = self.runtime.get_mut().ok().and_then(Option::take) {
            runtime.shutdown_background();
        }
    }
}
