//! One module per `hookd` subcommand.

pub mod amqp;
pub mod connect;
pub mod daemon;
pub mod hooks;
pub mod ledger;
pub mod query;
pub mod status;

/// Sends tracing output to stderr, filtered by `$HOOKD_LOG` (e.g. `debug`,
/// `hookd_core=trace`), else `default`.
pub fn init_logging(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("HOOKD_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    use std::io::IsTerminal as _;
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .init();
}

/// `path` with the home directory shown as `~`, as users write it.
pub fn show(path: &std::path::Path) -> String {
    match hookd_core::dirs::home_dir() {
        Ok(home) if path.starts_with(&home) && home.parent().is_some() => {
            let rest = path.strip_prefix(&home).unwrap_or(path);
            format!("~/{}", rest.display())
        }
        _ => path.display().to_string(),
    }
}

/// ` (backup: PATH)` when a write kept a backup, else nothing.
pub fn backup_note(backup: Option<&std::path::Path>) -> String {
    backup
        .map(|b| format!(" (backup: {})", show(b)))
        .unwrap_or_default()
}
