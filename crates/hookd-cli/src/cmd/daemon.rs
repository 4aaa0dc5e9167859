//! `hookd daemon`: runs the listener in the foreground until SIGTERM/SIGINT.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;
use hookd_core::config::{HookdConfig, Overrides};
use hookd_core::daemon::server::{Daemon, DaemonConfig};
use tokio_util::sync::CancellationToken;

/// Flags of `hookd daemon`.
#[derive(Debug, Args)]
pub struct DaemonArgs {
    /// Unix socket to listen on [default: $HOOKD_SOCKET, else $XDG_RUNTIME_DIR/hookd.sock].
    #[arg(long, value_name = "PATH")]
    pub socket: Option<PathBuf>,
    /// Data directory for the repository registry and the ledger of events outside git
    /// [default: $HOOKD_DATA_DIR, else $XDG_DATA_HOME/hookd, else ~/.local/share/hookd].
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Close a connection that sends nothing for this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub idle_timeout: u64,
    /// Serve at most this many connections at once; more wait in the socket backlog.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub max_connections: usize,
    /// Publish every event to this RabbitMQ broker (amqp://user:pass@host:port/vhost)
    /// [default: $HOOKD_AMQP_URL, else the `[amqp] url` of the config file; none: no publishing].
    #[arg(long, value_name = "URL")]
    pub amqp: Option<String>,
    /// Topic exchange to publish to [default: $HOOKD_AMQP_EXCHANGE, else the config file, else hookd.events].
    #[arg(long, value_name = "NAME")]
    pub amqp_exchange: Option<String>,
    /// Who writes the ledgers: local (the daemon), amqp (ledger consumers only) or both
    /// [default: $HOOKD_LEDGER_MODE, else the config file, else both with a broker URL and local without].
    #[arg(long, value_name = "MODE")]
    pub ledger_mode: Option<hookd_core::config::LedgerMode>,
    /// Config file [default: $HOOKD_CONFIG, else $XDG_CONFIG_HOME/hookd/config.toml].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// Runs the daemon until a signal asks it to stop; exits 0 after a clean drain.
pub fn run(args: &DaemonArgs) -> anyhow::Result<()> {
    crate::cmd::init_logging("info");
    let socket_path = args.socket.clone().unwrap_or_else(hookd_proto::socket_path);
    let data_dir = match &args.data_dir {
        Some(dir) => dir.clone(),
        None => hookd_core::dirs::data_dir()?,
    };
    let settings = HookdConfig::load(&Overrides {
        amqp_url: args.amqp.clone(),
        amqp_exchange: args.amqp_exchange.clone(),
        ledger_mode: args.ledger_mode,
        config_file: args.config.clone(),
    })?;
    let mut config = DaemonConfig::from_config(socket_path, data_dir, &settings);
    config.idle_timeout = Duration::from_secs(args.idle_timeout.max(1));
    config.max_connections = args.max_connections.max(1);
    config.settings_roots = match hookd_core::settings::SettingsRoots::from_env() {
        Ok(roots) => Some(roots),
        Err(err) => {
            tracing::warn!(error = %err, "managed hooks disabled: `hookd-emit --wait` will get empty answers");
            None
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        // Handlers first: a SIGTERM that arrives as soon as the socket answers
        // must drain, not kill.
        let stop = super::StopSignals::install()?;
        let daemon = Daemon::bind(config)?;
        let shutdown = CancellationToken::new();
        let signals = shutdown.clone();
        tokio::spawn(async move {
            stop.wait().await;
            tracing::info!("stop signal received; draining");
            signals.cancel();
        });
        daemon.run(shutdown).await?;
        Ok(())
    })
}
