//! `hookd-emit <event_type> [tool_name]`: the command agents put in their
//! hook config. It reads the hook's JSON from stdin and hands it to the
//! hookd daemon as one envelope line on its Unix socket, then exits.
//!
//! It runs on every tool call of every agent, so it starts fast (std,
//! serde_json, humantime, socket2 and the wire contract only; no argument
//! parser, no logger, no async runtime) and it must never change what the
//! agent does.
//!
//! # Exit codes and output
//! - Always 0 at run time, even when stdin is unreadable, the daemon is down,
//!   or the socket stalls. Claude Code treats exit 2 as a *blocking* error
//!   (it cancels the tool call or erases the prompt) and any other non-zero
//!   code as an error shown to the user; a recorder must do neither.
//! - Nothing on stdout, because Claude Code parses hook stdout as a decision
//!   (or, for some events, feeds it to the model). Only `--help` and
//!   `--version` print there.
//! - Stderr is silent unless `HOOKD_DEBUG=1`: then one line per failure, or
//!   `hookd-emit: delivered N bytes to PATH` on success.
//! - Without any argument the usage goes to stderr, still with exit 0: a
//!   misconfigured hook should not stop the agent.

mod deliver;
mod envelope_builder;
mod error;

use std::env;
use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::time::Duration;

use crate::deliver::Timeouts;
use crate::envelope_builder::{CallContext, PayloadOutcome};
use crate::error::EmitError;

/// Environment variable that turns on diagnostics on stderr.
const DEBUG_ENV: &str = "HOOKD_DEBUG";

/// Budgets chosen so a dead or stuck daemon costs a hook half a second at worst.
const TIMEOUTS: Timeouts = Timeouts {
    connect: Duration::from_millis(200),
    write: Duration::from_millis(300),
};

/// How long a Bash `pre_tool_use` waits for the daemon to record the
/// repository's state (git status of a large work tree can take a while);
/// past it the command simply starts and its changes may be missed.
const SNAPSHOT_WAIT: Duration = Duration::from_millis(500);

const USAGE: &str = "\
Usage: hookd-emit <event_type> [tool_name]

Reads a hook's JSON payload on stdin and sends it, wrapped in an envelope,
to the hookd daemon's socket ($HOOKD_SOCKET, else $XDG_RUNTIME_DIR/hookd.sock).
Without [tool_name], the payload's \"tool_name\" is used.

Always exits 0 and prints nothing, so it can never block or confuse the agent.
Set HOOKD_DEBUG=1 to see on stderr what happened.

Options:
  -h, --help       Print this help
  -V, --version    Print the version

Example (Claude Code settings.json):
  {\"type\": \"command\", \"command\": \"hookd-emit PostToolUse\"}
";

fn main() {
    let debug = env::var_os(DEBUG_ENV).is_some_and(|value| value == "1");
    let mut args = env::args_os().skip(1);

    let Some(first) = args.next() else {
        say(&format!(
            "hookd-emit: missing <event_type> argument; nothing recorded\n\n{USAGE}"
        ));
        return;
    };
    match first.to_str() {
        Some("-h" | "--help") => {
            print!("{USAGE}");
            return;
        }
        Some("-V" | "--version") => {
            println!("hookd-emit {}", env!("CARGO_PKG_VERSION"));
            return;
        }
        _ => {}
    }

    let event_type = lossy(first);
    // An empty argument is what a templated config yields for "no tool".
    let tool_name = args.next().filter(|arg| !arg.is_empty()).map(lossy);

    match run(event_type, tool_name, debug) {
        Ok(()) => {}
        Err(err) if debug => say(&format!("hookd-emit: {err}")),
        Err(_) => {}
    }
}

/// Reads stdin, builds the line and delivers it; `Ok` also covers "nothing to send".
fn run(event_type: String, tool_name: Option<String>, debug: bool) -> Result<(), EmitError> {
    let mut stdin = Vec::new();
    io::stdin()
        .lock()
        .read_to_end(&mut stdin)
        .map_err(EmitError::ReadStdin)?;
    if stdin.iter().all(u8::is_ascii_whitespace) {
        return Ok(());
    }

    let line =
        envelope_builder::build_line(event_type, tool_name, &stdin, CallContext::from_process())
            .map_err(EmitError::Encode)?;
    drop(stdin);

    if debug {
        match line.outcome {
            PayloadOutcome::Json => {}
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

    let path = hookd_proto::socket_path();
    let delivered = deliver::deliver(&path, &line.bytes, TIMEOUTS)?;
    if debug {
        say(&format!(
            "hookd-emit: delivered {} bytes to {}",
            line.bytes.len(),
            path.display()
        ));
    }
    if line.wait_for_daemon
        && let Err(err) = delivered.wait_for_close(SNAPSHOT_WAIT)
        && debug
    {
        say(&format!(
            "hookd-emit: Bash may start before the daemon recorded the repository state: {err}"
        ));
    }
    Ok(())
}

/// Writes one line to stderr, ignoring failure: `eprintln!` panics on a
/// broken stderr, and a panic would mean a non-zero exit.
fn say(message: &str) {
    let _ = writeln!(io::stderr().lock(), "{message}");
}

fn lossy(arg: OsString) -> String {
    arg.into_string()
        .unwrap_or_else(|arg| arg.to_string_lossy().into_owned())
}
