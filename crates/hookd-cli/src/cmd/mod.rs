//! One module per `hookd` subcommand.

pub mod agents;
pub mod amqp;
pub mod backtest;
pub mod backups;
pub mod connect;
pub mod convert;
pub mod daemon;
pub mod doctor;
pub mod hooks;
pub mod ledger;
pub mod query;
pub mod rewind;
pub mod status;
pub mod target;
pub mod templates;
pub mod trust;

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

/// Widens `widths` (one per column) to fit `header` and `rows`.
pub fn fit_widths(widths: &mut Vec<usize>, header: &[&str], rows: &[Vec<String>]) {
    widths.resize(header.len(), 0);
    for (col, width) in widths.iter_mut().enumerate() {
        let widest = rows
            .iter()
            .map(|cells| cells[col].chars().count())
            .chain([header[col].len()])
            .max()
            .unwrap_or(0);
        *width = (*width).max(widest);
    }
}

/// One line of an aligned table: cells padded to `widths`, two spaces apart.
pub fn table_line<S: AsRef<str>>(cells: &[S], widths: &[usize]) -> String {
    let padded: Vec<String> = cells
        .iter()
        .zip(widths)
        .map(|(cell, width)| format!("{:<width$}", cell.as_ref()))
        .collect();
    padded.join("  ").trim_end().to_owned()
}

/// ` (previous version kept: …)` when a write kept what the file held
/// (in hookd's data directory, not beside the file), else nothing.
pub fn backup_note(backup: Option<&std::path::Path>) -> String {
    backup
        .map(|_| " (previous version kept: `hookd hooks backups` lists it)".to_owned())
        .unwrap_or_default()
}

/// SIGTERM and SIGINT, registered before a long-running command binds or
/// connects, so a signal that arrives early stops it cleanly instead of
/// killing it.
pub struct StopSignals {
    term: tokio::signal::unix::Signal,
    int: tokio::signal::unix::Signal,
}

impl StopSignals {
    /// Registers both handlers (inside a tokio runtime).
    pub fn install() -> anyhow::Result<Self> {
        use anyhow::Context as _;
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Self {
            term: signal(SignalKind::terminate()).context("cannot handle SIGTERM")?,
            int: signal(SignalKind::interrupt()).context("cannot handle SIGINT")?,
        })
    }

    /// Resolves at the first SIGTERM or SIGINT.
    pub async fn wait(mut self) {
        tokio::select! {
            _ = self.term.recv() => {}
            _ = self.int.recv() => {}
        }
    }
}
