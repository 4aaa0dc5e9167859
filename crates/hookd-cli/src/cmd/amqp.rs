//! `hookd amqp declare`: creates hookd's exchange and the ledger queue
//! topology on the broker ahead of time, so events published before the
//! first ledger consumer starts are queued instead of dropped as unroutable.

use anyhow::Context as _;
use clap::{Args, Subcommand};
use hookd_core::amqp::DEFAULT_EXCHANGE;
use hookd_core::amqp::consumer::{self, DEFAULT_QUEUE, LEDGER_BINDING_KEY};
use hookd_core::amqp::topology::redact;
use hookd_core::config::{AMQP_EXCHANGE_ENV, AMQP_URL_ENV};

/// Subcommands of `hookd amqp`.
#[derive(Debug, Args)]
pub struct AmqpArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: AmqpCommand,
}

/// `hookd amqp <command>`.
#[derive(Debug, Subcommand)]
pub enum AmqpCommand {
    /// Declare the exchange and the ledger queue (with its dead-letter exchange and
    /// parking queue) on the broker; idempotent.
    Declare(DeclareArgs),
}

/// Flags of `hookd amqp declare`.
#[derive(Debug, Args)]
pub struct DeclareArgs {
    /// RabbitMQ URL, e.g. amqp://guest:guest@127.0.0.1:5672/%2f (required: flag or environment).
    #[arg(long = "amqp", value_name = "URL", env = AMQP_URL_ENV, hide_env_values = true)]
    pub amqp: Option<String>,
    /// Topic exchange the daemons publish to.
    #[arg(long, value_name = "NAME", env = AMQP_EXCHANGE_ENV, default_value = DEFAULT_EXCHANGE)]
    pub exchange: String,
    /// Durable queue the ledger consumers read; its parking queue is NAME.dead.
    #[arg(long, value_name = "NAME", default_value = DEFAULT_QUEUE)]
    pub queue: String,
}

/// Runs `hookd amqp <command>`.
pub fn run(args: &AmqpArgs) -> anyhow::Result<()> {
    match &args.command {
        AmqpCommand::Declare(args) => declare(args),
    }
}

fn declare(args: &DeclareArgs) -> anyhow::Result<()> {
    let url = crate::cmd::ledger::broker_url(args.amqp.as_deref())?;
    crate::cmd::init_logging("warn");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let depths = runtime.block_on(consumer::declare_topology(
        &url,
        &args.exchange,
        &args.queue,
    ))?;
    let dead_exchange = consumer::dead_letter_exchange(&args.exchange);
    let parking = consumer::parking_queue(&args.queue);
    println!("Declared on {}:", redact(&url));
    println!("  exchange {} (topic, durable)", args.exchange);
    println!("  exchange {dead_exchange} (fanout, durable): receives dead letters");
    println!(
        "  queue {} (durable, bound to {} with {LEDGER_BINDING_KEY}, dead-letters to {dead_exchange}): {} ready",
        args.queue, args.exchange, depths.ready
    );
    println!(
        "  queue {parking} (durable, bound to {dead_exchange}): {} parked",
        depths.parked
    );
    Ok(())
}
