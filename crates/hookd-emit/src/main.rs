//! `hookd-emit [--agent NAME] [--wait [--fail-closed] [--timeout SECS]] <event_type> [tool_name]`:
//! the command agents put in their hook config. It reads the hook's JSON
//! from stdin and hands it to the hookd daemon as one envelope line on its
//! Unix socket.
//!
//! It runs on every tool call of every agent, so it starts fast (std,
//! serde_json, humantime, socket2 and the wire contract only; no argument
//! parser, no logger, no async runtime) and it must never change what the
//! agent does unless asked to.
//!
//! It talks only to a daemon of the caller's own user (`deliver.rs`): a
//! socket in another user's directory, or with another user's process
//! behind it, gets nothing, and nothing it says is relayed.
//!
//! # Recording mode (default): exit codes and output
//! - Always 0 at run time, even when stdin is unreadable, the daemon is down,
//!   or the socket stalls. Claude Code treats exit 2 as a *blocking* error
//!   (it cancels the tool call or erases the prompt) and any other non-zero
//!   code as an error shown to the user; a recorder must do neither.
//! - Nothing on stdout, because Claude Code parses hook stdout as a decision
//!   (or, for some events, feeds it to the model). Only `--help` and
//!   `--version` print there.
//! - Stderr is silent unless `HOOKD_DEBUG=1`: then one line per failure, or
//!   `hookd-emit: delivered N bytes to PATH` on success.
//! - A wrong command line prints the usage on stderr, still with exit 0: a
//!   misconfigured hook should not stop the agent.
//!
//! # Nothing lost (`hookd_proto::journal`)
//! Every line carries an event id. When the line cannot be handed to a
//! trusted daemon (none listening, a full backlog, a stalled write, a
//! socket of another user, no answer in managed mode), it is appended to
//! `{data dir}/journal/pending.jsonl`, which the daemon replays at start and
//! every few seconds; the event id keeps a line that arrived both ways from
//! being stored twice. In recording mode the daemon acknowledges a line
//! once it has journaled it on its side; without that acknowledgement (the
//! daemon was killed with the line still in its socket) the line is kept
//! too. The journal is touched only on failure, so a live daemon costs the
//! hook one round trip and no file I/O.
//!
//! # Managed mode (`--wait`)
//! The daemon records the event, runs hookd's managed hooks for it and
//! answers with their merged outcome; hookd-emit prints that answer's stdout
//! and stderr and exits with its code (0, or 2 to block), exactly as one
//! Claude Code hook would. When the daemon is not running or does not answer
//! within the budget (the event's default hook timeout plus a margin, or
//! `--timeout`), it fails open: exit 0, nothing printed. With
//! `--fail-closed` it blocks instead: exit 2 with the reason on stderr.

mod args;
mod deliver;
mod envelope_builder;
mod error;

use std::env;
use std::io::{self, Read, Write};
use std::process::ExitCode;
use std::time::Duration;

use crate::args::{Command, EmitArgs, UsageError};
use crate::deliver::{Delivered, Timeouts};
use crate::envelope_builder::{BuiltLine, CallContext, PayloadOutcome};
use crate::error::EmitError;

/// Environment variable that turns on diagnostics on stderr.
const DEBUG_ENV: &str = "HOOKD_DEBUG";

/// Budgets chosen so a dead or stuck daemon costs a hook half a second at worst.
const TIMEOUTS: Timeouts = Timeouts {
    connect: Duration::from_millis(200),
    write: Duration::from_millis(300),
};

/// How long recording mode waits for the daemon to acknowledge a line
/// (normally well under a millisecond); past it the line goes to the journal
/// too, and the event id keeps it from being stored twice.
const ACK_WAIT: Duration = Duration::from_millis(500);

/// How long a call the daemon takes a snapshot for
/// ([`hookd_proto::snapshot`]) waits for the daemon to take it (git status
/// of a large work tree can take a while; a file is read in a millisecond
/// or two); past it the agent simply goes on, and the daemon, which sees
/// this process gone when its read is done, records that change's before
/// as unknown rather than what the agent may already have written.
const SNAPSHOT_WAIT: Duration = Duration::from_secs(2);

/// Added to the event's hook timeout when waiting for the daemon's answer,
/// so a hook that runs to its own timeout still gets its answer relayed.
const REPLY_MARGIN: Duration = Duration::from_secs(5);

const USAGE: &str = "\
Usage: hookd-emit [--agent NAME] [--wait [--fail-closed] [--timeout SECS]] <event_type> [tool_name]

Reads a hook's JSON payload on stdin and sends it, wrapped in an envelope,
to the hookd daemon's socket ($HOOKD_SOCKET, else $XDG_RUNTIME_DIR/hookd.sock).
Without [tool_name], the payload's \"tool_name\" (GitHub Copilot's
\"toolName\") is used.

Without --wait it only records: it always exits 0 and prints nothing, so it
can never block or confuse the agent.

Options:
  --agent NAME     The agent whose hook this is: claude (the default), codex,
                   gemini, cursor or copilot; the ledger keeps it with the
                   event, and with --wait the answer is in its output shape
  --wait           Managed mode: the daemon also runs hookd's managed hooks
                   (~/.hookd/settings.json, <project>/.hookd/settings*.json)
                   and hookd-emit relays their merged answer: their stdout,
                   stderr and exit code (0, or 2 to block), in the agent's
                   own output contract (a deny is a deny for every agent)
  --fail-closed    With --wait: when the daemon cannot answer, block (exit 2)
                   instead of letting the action proceed
  --timeout SECS   With --wait: how long to wait for the answer
                   [default: the event's hook timeout (600 s; 30 s for
                   UserPromptSubmit) plus 5 s]
  -h, --help       Print this help
  -V, --version    Print the version

Set HOOKD_DEBUG=1 to see on stderr what happened.

Examples (Claude Code settings.json):
  {\"type\": \"command\", \"command\": \"hookd-emit PostToolUse\"}
  {\"type\": \"command\", \"command\": \"hookd-emit --wait PreToolUse\", \"timeout\": 610}
";

fn main() -> ExitCode {
    let debug = env::var_os(DEBUG_ENV).is_some_and(|value| value == "1");
    match args::parse(env::args_os().skip(1)) {
        Ok(Command::Help) => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Ok(Command::Version) => {
            println!("hookd-emit {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Ok(Command::Emit(args)) if args.wait => managed(&args, debug),
        Ok(Command::Emit(args)) => {
            if let Err(err) = record(args, debug)
                && debug
            {
                say(&format!("hookd-emit: {err}"));
            }
            ExitCode::SUCCESS
        }
        Err(UsageError(message)) => {
            say(&format!(
                "hookd-emit: {message}; nothing recorded\n\n{USAGE}"
            ));
            ExitCode::SUCCESS
        }
    }
}

/// Recording mode: deliver and go.
fn record(args: EmitArgs, debug: bool) -> Result<(), EmitError> {
    let Some(line) = read_and_build(args, false, debug)? else {
        return Ok(());
    };
    let delivered = match send(&line, debug) {
        Ok(delivered) => delivered,
        Err(err) => {
            if debug {
                say(&format!("hookd-emit: {err}"));
            }
            journal(&line, debug);
            return Ok(());
        }
    };
    // The line is in the daemon's socket, not yet safe: a daemon killed now
    // never reads it. Safe once the daemon says it journaled it.
    match delivered.wait_for_ack(ACK_WAIT) {
        Ok(true) => {}
        Ok(false) => {
            journal(&line, debug);
            if debug {
                say("hookd-emit: the daemon closed without acknowledging; kept the event");
            }
        }
        Err(err) => {
            journal(&line, debug);
            if debug {
                say(&format!("hookd-emit: {err}; kept the event"));
            }
        }
    }
    if line.wait_for_daemon
        && let Err(err) = delivered.wait_for_close(SNAPSHOT_WAIT)
        && debug
    {
        say(&format!(
            "hookd-emit: the tool may run before the daemon recorded what it changes: {err}"
        ));
    }
    Ok(())
}

/// Managed mode: deliver, wait for the merged outcome, relay it.
fn managed(args: &EmitArgs, debug: bool) -> ExitCode {
    let budget = args
        .timeout
        .unwrap_or_else(|| default_budget(&args.event_type));
    let answer = read_and_build(args.clone(), true, debug).and_then(|line| match line {
        None => Ok(None),
        Some(line) => {
            let answered = send(&line, debug).and_then(|delivered| {
                delivered
                    .read_reply(budget)
                    .map_err(|source| EmitError::Reply { source })
            });
            if answered.is_err() {
                // Maybe recorded, maybe not: the event id makes a second copy harmless.
                journal(&line, debug);
            }
            answered.map(Some)
        }
    });
    match answer {
        Ok(None) => ExitCode::SUCCESS,
        Ok(Some(reply)) => {
            let _ = io::stdout().lock().write_all(reply.stdout.as_bytes());
            let _ = io::stderr().lock().write_all(reply.stderr.as_bytes());
            ExitCode::from(u8::try_from(reply.exit_code.clamp(0, 255)).unwrap_or(1))
        }
        Err(err) if args.fail_closed => {
            // The reason goes to the agent (exit 2 shows stderr), so it is said even without debug.
            say(&format!(
                "hookd: managed hooks unavailable ({err}); blocked because of --fail-closed"
            ));
            ExitCode::from(2)
        }
        Err(err) => {
            if debug {
                say(&format!("hookd-emit: {err}; failing open"));
            }
            ExitCode::SUCCESS
        }
    }
}

/// The hook timeout Claude Code applies to the event by default, plus a margin.
fn default_budget(event_type: &str) -> Duration {
    let squashed: String = event_type
        .chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect();
    let hook_timeout = if squashed == "userpromptsubmit" {
        30
    } else {
        600
    };
    Duration::from_secs(hook_timeout) + REPLY_MARGIN
}

/// Reads stdin and builds the line; `None` when stdin is empty (nothing to send).
fn read_and_build(args: EmitArgs, wait: bool, debug: bool) -> Result<Option<BuiltLine>, EmitError> {
    let mut stdin = Vec::new();
    io::stdin()
        .lock()
        .read_to_end(&mut stdin)
        .map_err(EmitError::ReadStdin)?;
    if stdin.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let mut context = CallContext::from_process();
    context.wait = wait;
    context.agent_kind = args.agent;
    let line = envelope_builder::build_line(args.event_type, args.tool_name, &stdin, context)
        .map_err(EmitError::Encode)?;
    if debug {
        match line.outcome {
            PayloadOutcome::Json => {}
            PayloadOutcome::Repaired => say(
                "hookd-emit: stdin held lone UTF-16 surrogate escapes; replaced them with U+FFFD",
            ),
            PayloadOutcome::NotJson => {
                say("hookd-emit: stdin is not valid JSON; sending it as a string");
            }
            PayloadOutcome::TooLarge { stdin_bytes } => say(&format!(
                "hookd-emit: payload of {stdin_bytes} bytes exceeds the {} byte line limit; \
                 sending a summary instead",
                hookd_proto::MAX_LINE_BYTES
            )),
        }
    }
    Ok(Some(line))
}

fn send(line: &BuiltLine, debug: bool) -> Result<Delivered, EmitError> {
    let path = hookd_proto::socket_path();
    let delivered = deliver::deliver(&path, &line.bytes, TIMEOUTS)?;
    if debug {
        say(&format!(
            "hookd-emit: delivered {} bytes to {}",
            line.bytes.len(),
            path.display()
        ));
    }
    Ok(delivered)
}

/// Keeps a line no daemon took in the journal, for the daemon to replay.
fn journal(line: &BuiltLine, debug: bool) {
    let appended = hookd_proto::journal::data_dir()
        .ok_or(hookd_proto::journal::JournalError::NoDataDir)
        .and_then(|data_dir| hookd_proto::journal::append(&data_dir, &line.bytes));
    if debug {
        match appended {
            Ok(path) => say(&format!(
                "hookd-emit: kept the event in {} for the daemon",
                path.display()
            )),
            Err(err) => say(&format!("hookd-emit: event lost: {err}")),
        }
    }
}

/// Writes one line to stderr, ignoring failure: `eprintln!` panics on a
/// broken stderr, and a panic would mean a non-zero exit.
fn say(message: &str) {
    let _ = writeln!(io::stderr().lock(), "{message}");
}
