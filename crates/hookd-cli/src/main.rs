//! `hookd`: the headless face of hookd.
//!
//! `hookd daemon` runs the event listener that `hookd-emit` talks to,
//! `hookd query` reads the per-repository mutation ledgers, and
//! `hookd connect` / `hookd disconnect` wire the agent's hook settings to
//! `hookd-emit`. All logic lives in `hookd-core`; this binary parses flags,
//! sets up logging and turns errors into exit codes.

mod cmd;

use clap::{Parser, Subcommand};

/// hookd: record, query and manage what your AI coding agents do.
#[derive(Debug, Parser)]
#[command(name = "hookd", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the event daemon in the foreground (listens on the Unix socket hookd-emit writes to).
    Daemon(cmd::daemon::DaemonArgs),
    /// Show recorded file mutations from the per-repository ledgers, oldest first.
    Query(cmd::query::QueryArgs),
    /// List the agents the ledgers know by a readable name, and name them (`hookd agents label`).
    Agents(cmd::agents::AgentsArgs),
    /// Add hookd-emit hooks to the agent's settings file (Claude Code).
    Connect(cmd::connect::ConnectArgs),
    /// Remove exactly the hooks `hookd connect` added, nothing else.
    Disconnect(cmd::connect::DisconnectArgs),
    /// Tell whether a daemon is listening, and where.
    Status(cmd::status::StatusArgs),
    /// Check the health of a project's hooks: missing scripts, guards that do not run or do
    /// not block, hooks that fail or time out, agent sessions that stopped calling hookd.
    Doctor(cmd::doctor::DoctorArgs),
    /// List, add, remove, enable/disable, validate and test agent and managed hooks.
    Hooks(cmd::hooks::HooksArgs),
    /// Review and approve a project's managed hooks (.hookd/settings*.json): hookd runs
    /// them only while their content is what you approved.
    Trust(cmd::trust::TrustArgs),
    /// List, show, install and uninstall ready-made hooks from hookd's templates catalog.
    Templates(cmd::templates::TemplatesArgs),
    /// Write the per-repository ledgers from RabbitMQ (`hookd ledger consume`).
    Ledger(cmd::ledger::LedgerArgs),
    /// Set up hookd's exchange and queues on RabbitMQ (`hookd amqp declare`).
    Amqp(cmd::amqp::AmqpArgs),
    /// Undo recorded agent changes (a tool call, a session, an agent's, since a time, or a
    /// file back to a point), keeping later changes; a dry run unless --apply.
    Rewind(cmd::rewind::RewindArgs),
    /// Print a file as it was at a recorded point (a time or a tool call).
    Show(cmd::rewind::ShowArgs),
    /// The diff of a file between two recorded points (a time or a tool call), or from one to now.
    Diff(cmd::rewind::DiffArgs),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Daemon(args) => cmd::daemon::run(&args),
        Command::Query(args) => cmd::query::run(&args),
        Command::Agents(args) => cmd::agents::run(&args),
        Command::Connect(args) => cmd::connect::connect(&args),
        Command::Disconnect(args) => cmd::connect::disconnect(&args),
        Command::Status(args) => cmd::status::run(&args),
        Command::Doctor(args) => cmd::doctor::run(&args),
        Command::Hooks(args) => cmd::hooks::run(&args),
        Command::Trust(args) => cmd::trust::run(&args),
        Command::Templates(args) => cmd::templates::run(&args),
        Command::Ledger(args) => cmd::ledger::run(&args),
        Command::Amqp(args) => cmd::amqp::run(&args),
        Command::Rewind(args) => cmd::rewind::run(&args),
        Command::Show(args) => cmd::rewind::show(&args),
        Command::Diff(args) => cmd::rewind::diff(&args),
    };
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("hookd: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
