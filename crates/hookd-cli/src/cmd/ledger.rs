//! `hookd ledger consume`: runs a ledger consumer in the foreground, so the
//! per-repository ledgers can be written from RabbitMQ (one or more
//! consumers sharing a queue) instead of by each daemon. All the logic lives
//! in `hookd_core::amqp::consumer`; this parses flags, wires SIGTERM/SIGINT
//! to a graceful stop and prints what was done.
//!
//! `hookd ledger verify`: checks ledgers read-only with SQLite's
//! `integrity_check` (`hookd_core::ledger::integrity::verify`) and prints
//! one line per ledger.
//!
//! `hookd ledger compact`: stores older history as new rows are stored
//! (`hookd_core::ledger::compact`), then rebuilds the file smaller.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use hookd_core::amqp::DEFAULT_EXCHANGE;
use hookd_core::amqp::consumer::{
    self, ConsumerConfig, ConsumerReport, DEFAULT_PREFETCH, DEFAULT_QUEUE,
};
use hookd_core::config::{AMQP_EXCHANGE_ENV, AMQP_URL_ENV};
use tokio_util::sync::CancellationToken;

/// Subcommands of `hookd ledger`.
#[derive(Debug, Args)]
pub struct LedgerArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: LedgerCommand,
}

/// `hookd ledger <command>`.
#[derive(Debug, Subcommand)]
pub enum LedgerCommand {
    /// Write the ledgers from RabbitMQ: consume every hook event from a durable queue
    /// and store it in its repository's ledger, acking only after the commit. Stops
    /// cleanly on SIGTERM/SIGINT.
    Consume(ConsumeArgs),
    /// Check ledgers with SQLite's integrity check, read-only (never creates, migrates or
    /// changes one, never follows a symbolic link): one line per ledger, `ok` or the problem;
    /// exits 1 when any ledger is damaged or refused.
    Verify(VerifyArgs),
    /// Store older history as hookd stores new rows, in place: a payload's large file
    /// contents in the repository's content store by reference (`.hookd/content/`), a
    /// mutation's payload once, with its event. Every payload reads back byte for byte as
    /// before; the ledger stays append-only. Then the file is rebuilt smaller (VACUUM).
    Compact(CompactArgs),
}

/// Flags of `hookd ledger compact`.
#[derive(Debug, Args)]
pub struct CompactArgs {
    /// Which ledgers.
    #[command(flatten)]
    pub ledgers: LedgerChoice,
    /// Leave the file its size (SQLite reuses the freed pages for new rows) instead of
    /// rebuilding it, which needs as much free disk as the ledger and the daemon to pause
    /// its writes.
    #[arg(long)]
    pub no_vacuum: bool,
}

/// Flags of `hookd ledger verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Which ledgers.
    #[command(flatten)]
    pub ledgers: LedgerChoice,
}

/// The ledgers a `hookd ledger` command works on: one repository's, or all.
#[derive(Debug, Args)]
pub struct LedgerChoice {
    /// Repository whose ledger to use: any directory inside it.
    #[arg(long, value_name = "DIR", default_value = ".", conflicts_with = "all")]
    pub repo: PathBuf,
    /// Every known repository's ledger and the ledger of events outside git
    /// (repositories without a ledger are listed as such, not counted as failures).
    #[arg(long)]
    pub all: bool,
    /// Data directory holding the repository registry and the ledger of events outside git
    /// [default: $HOOKD_DATA_DIR, else $XDG_DATA_HOME/hookd, else ~/.local/share/hookd].
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
}

/// Flags of `hookd ledger consume`.
#[derive(Debug, Args)]
pub struct ConsumeArgs {
    /// RabbitMQ URL, e.g. amqp://guest:guest@127.0.0.1:5672/%2f (required: flag or environment).
    #[arg(long = "amqp", value_name = "URL", env = AMQP_URL_ENV, hide_env_values = true)]
    pub amqp: Option<String>,
    /// Topic exchange the daemons publish to; declared if missing.
    #[arg(long, value_name = "NAME", env = AMQP_EXCHANGE_ENV, default_value = DEFAULT_EXCHANGE)]
    pub exchange: String,
    /// Durable queue to consume (declared if missing, bound to every event). Consumers
    /// sharing a queue share the work; unreadable messages are parked in NAME.dead.
    #[arg(long, value_name = "NAME", default_value = DEFAULT_QUEUE)]
    pub queue: String,
    /// Most unacknowledged messages at once, which is also the largest batch written in one
    /// transaction.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PREFETCH,
          value_parser = clap::value_parser!(u16).range(1..))]
    pub prefetch: u16,
    /// Data directory for the repository registry and the ledger of events outside git
    /// [default: $HOOKD_DATA_DIR, else $XDG_DATA_HOME/hookd, else ~/.local/share/hookd].
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
}

/// Runs `hookd ledger <command>`.
pub fn run(args: &LedgerArgs) -> anyhow::Result<()> {
    match &args.command {
        LedgerCommand::Consume(args) => consume(args),
        LedgerCommand::Verify(args) => verify(args),
        LedgerCommand::Compact(args) => compact(args),
    }
}

/// The ledgers `--repo DIR` or `--all` name.
fn chosen_ledgers(choice: &LedgerChoice) -> anyhow::Result<Vec<PathBuf>> {
    if choice.all {
        let data_dir = match &choice.data_dir {
            Some(dir) => dir.clone(),
            None => hookd_core::dirs::data_dir()?,
        };
        return Ok(hookd_core::ledger::query::all_ledgers(&data_dir)?
            .into_iter()
            .map(|(_, path)| path)
            .collect());
    }
    let root = hookd_core::ledger::query::resolve_repo_root(&choice.repo)?;
    let path = hookd_core::dirs::repo_ledger_path(&root);
    if std::fs::symlink_metadata(&path).is_err() {
        return Err(hookd_core::Error::NoLedger {
            repo: root,
            ledger: path,
        }
        .into());
    }
    Ok(vec![path])
}

fn compact(args: &CompactArgs) -> anyhow::Result<()> {
    use hookd_core::ledger::Ledger;
    use std::io::IsTerminal as _;
    let ledgers = chosen_ledgers(&args.ledgers)?;
    let live = std::io::stderr().is_terminal();
    for path in ledgers {
        if std::fs::symlink_metadata(&path).is_err() {
            println!("missing  {} (no ledger yet)", path.display());
            continue;
        }
        // The database and its write-ahead log.
        let size = || {
            ["", "-wal"]
                .iter()
                .map(|suffix| {
                    let mut name = path.clone().into_os_string();
                    name.push(suffix);
                    std::fs::metadata(name).map_or(0, |m| m.len())
                })
                .sum::<u64>()
        };
        let before = size();
        let mut ledger = Ledger::open_existing(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        let mut last = std::time::Instant::now();
        let report = ledger.compact_history(|p| {
            if live && last.elapsed() > std::time::Duration::from_millis(200) {
                let table = if p.step == 1 { "mutations" } else { "events" };
                eprint!("\r{}: {table} {}/{} rows ", path.display(), p.done, p.total);
                last = std::time::Instant::now();
            }
        })?;
        if live {
            eprint!("\r\x1b[K");
        }
        if !args.no_vacuum {
            if live {
                eprint!("{}: rebuilding the file (VACUUM)…", path.display());
            }
            ledger.vacuum().with_context(|| {
                format!(
                    "compacted {}, but could not rebuild the file smaller (is the daemon writing to it? \
                     run again later, or pass --no-vacuum)",
                    path.display()
                )
            })?;
            if live {
                eprint!("\r\x1b[K");
            }
        }
        drop(ledger);
        println!(
            "compacted {}: {} event payloads by reference ({} contents), {} mutation payloads read from their event, {} left as received; {} → {} MB",
            path.display(),
            report.events,
            report.references,
            report.mutations,
            report.kept,
            mb(before),
            mb(size()),
        );
    }
    Ok(())
}

/// `bytes` in megabytes, one decimal.
fn mb(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / 1e6)
}

fn verify(args: &VerifyArgs) -> anyhow::Result<()> {
    use hookd_core::ledger::integrity::{self, Verdict};
    let ledgers = chosen_ledgers(&args.ledgers)?;
    let mut bad = 0;
    for path in &ledgers {
        match integrity::verify(path) {
            Verdict::Ok { events } => println!("ok       {} ({events} events)", path.display()),
            Verdict::Missing => println!("missing  {} (no ledger yet)", path.display()),
            Verdict::Bad(problem) => {
                bad += 1;
                println!("DAMAGED  {}: {problem}", path.display());
            }
        }
    }
    if bad > 0 {
        anyhow::bail!(
            "{bad} of {} ledger(s) failed the check; the daemon moves a damaged ledger aside and starts a new one the next time it opens it",
            ledgers.len()
        );
    }
    Ok(())
}

/// The broker URL from `--amqp` / `$HOOKD_AMQP_URL`, else the config file's
/// `[amqp] url` (the daemon's layers), or the error users see without one.
pub fn broker_url(amqp: Option<&str>) -> anyhow::Result<String> {
    let from_config = || {
        hookd_core::config::HookdConfig::load(&hookd_core::config::Overrides::default())
            .ok()
            .and_then(|config| config.amqp_url)
    };
    amqp.map(str::trim)
        .filter(|url| !url.is_empty())
        .map(str::to_owned)
        .or_else(from_config)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "no broker URL: pass --amqp or set {AMQP_URL_ENV} (or [amqp] url in the config file)"
            )
        })
}

fn consume(args: &ConsumeArgs) -> anyhow::Result<()> {
    let url = broker_url(args.amqp.as_deref())?;
    crate::cmd::init_logging("info");
    let data_dir = match &args.data_dir {
        Some(dir) => dir.clone(),
        None => hookd_core::dirs::data_dir()?,
    };
    let mut config = ConsumerConfig::new(url, data_dir);
    config.exchange.clone_from(&args.exchange);
    config.queue.clone_from(&args.queue);
    config.prefetch = args.prefetch;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let report = runtime.block_on(async move {
        // Handlers first: a SIGTERM that arrives while connecting must stop
        // the consumer gracefully, not kill it.
        let stop = super::StopSignals::install()?;
        let shutdown = CancellationToken::new();
        let signals = shutdown.clone();
        tokio::spawn(async move {
            stop.wait().await;
            tracing::info!("stop signal received; finishing the current batch");
            signals.cancel();
        });
        anyhow::Ok(consumer::run(config, shutdown).await?)
    })?;
    println!("{}", summary(&report));
    Ok(())
}

/// The line printed at exit.
fn summary(report: &ConsumerReport) -> String {
    format!(
        "hookd ledger consume: stored {} events, {} duplicates, {} dead-lettered",
        report.stored, report.duplicates, report.dead_lettered
    )
}
