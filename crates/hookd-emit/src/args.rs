//! Command-line arguments, parsed by hand: a full argument parser would
//! cost start-up time on every tool call for four flags.

use std::ffi::OsString;
use std::time::Duration;

use hookd_proto::AgentKind;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Print the usage on stdout.
    Help,
    /// Print the version on stdout.
    Version,
    /// Send one event.
    Emit(EmitArgs),
}

/// Flags and operands of one emit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmitArgs {
    /// Hook event as configured (`post_tool_use`, `PreToolUse`).
    pub event_type: String,
    /// Tool name from the config; `None` means "take it from the payload".
    pub tool_name: Option<String>,
    /// Managed mode: wait for the daemon's merged hook outcome and relay it.
    pub wait: bool,
    /// In managed mode, block (exit 2) when the daemon cannot answer.
    pub fail_closed: bool,
    /// In managed mode, how long to wait for the answer.
    pub timeout: Option<Duration>,
    /// The agent whose hook this is (`--agent`); `None`: Claude Code.
    pub agent: Option<AgentKind>,
}

/// Why the command line could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

/// Parses the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut wait = false;
    let mut fail_closed = false;
    let mut timeout = None;
    let mut agent = None;
    let mut operands = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("-h" | "--help") => return Ok(Command::Help),
            Some("-V" | "--version") => return Ok(Command::Version),
            Some("--wait") => wait = true,
            Some("--fail-closed") => fail_closed = true,
            Some("--timeout") => {
                let value = args
                    .next()
                    .ok_or_else(|| UsageError("--timeout needs a number of seconds".into()))?;
                timeout = Some(parse_seconds(&value.to_string_lossy())?);
            }
            Some(flag) if flag.starts_with("--timeout=") => {
                timeout = Some(parse_seconds(&flag["--timeout=".len()..])?);
            }
            Some("--agent") => {
                let value = args
                    .next()
                    .ok_or_else(|| UsageError("--agent needs an agent's name".into()))?;
                agent = Some(parse_agent(&value.to_string_lossy())?);
            }
            Some(flag) if flag.starts_with("--agent=") => {
                agent = Some(parse_agent(&flag["--agent=".len()..])?);
            }
            Some(flag) if flag.starts_with("--") => {
                return Err(UsageError(format!("unknown option {flag}")));
            }
            _ => operands.push(arg.to_string_lossy().into_owned()),
        }
    }
    let mut operands = operands.into_iter();
    let event_type = operands
        .next()
        .ok_or_else(|| UsageError("missing <event_type> argument".into()))?;
    // An empty argument is what a templated config yields for "no tool".
    let tool_name = operands.next().filter(|arg| !arg.is_empty());
    if let Some(extra) = operands.next() {
        return Err(UsageError(format!("unexpected argument {extra:?}")));
    }
    if fail_closed && !wait {
        return Err(UsageError("--fail-closed only applies with --wait".into()));
    }
    Ok(Command::Emit(EmitArgs {
        event_type,
        tool_name,
        wait,
        fail_closed,
        timeout,
        agent,
    }))
}

fn parse_agent(text: &str) -> Result<AgentKind, UsageError> {
    AgentKind::parse(text).ok_or_else(|| {
        UsageError(format!(
            "--agent takes one of {}, not {text:?}",
            AgentKind::names()
        ))
    })
}

fn parse_seconds(text: &str) -> Result<Duration, UsageError> {
    text.parse::<f64>()
        .ok()
        .filter(|secs| secs.is_finite() && *secs > 0.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| {
            UsageError(format!(
                "--timeout takes a positive number of seconds, not {text:?}"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(args: &[&str]) -> Result<Command, UsageError> {
        parse(args.iter().map(OsString::from))
    }

    #[test]
    fn operands_and_flags_in_any_order() {
        let expected = EmitArgs {
            event_type: "PreToolUse".into(),
            tool_name: Some("Bash".into()),
            wait: true,
            fail_closed: true,
            timeout: Some(Duration::from_secs(5)),
            agent: None,
        };
        let cases: [&[&str]; 3] = [
            &[
                "--wait",
                "--fail-closed",
                "--timeout",
                "5",
                "PreToolUse",
                "Bash",
            ],
            &[
                "PreToolUse",
                "--wait",
                "Bash",
                "--timeout=5",
                "--fail-closed",
            ],
            &[
                "--timeout",
                "5.0",
                "--fail-closed",
                "--wait",
                "PreToolUse",
                "Bash",
            ],
        ];
        for args in cases {
            assert_eq!(
                parse_str(args),
                Ok(Command::Emit(expected.clone())),
                "{args:?}"
            );
        }
    }

    #[test]
    fn plain_emit_and_empty_tool() {
        let Ok(Command::Emit(args)) = parse_str(&["post_tool_use", ""]) else {
            panic!()
        };
        assert_eq!(args.tool_name, None);
        assert!(!args.wait);
        assert_eq!(parse_str(&["-h"]), Ok(Command::Help));
        assert_eq!(parse_str(&["x", "--version"]), Ok(Command::Version));
    }

    #[test]
    fn usage_errors_say_what_is_wrong() {
        let err = |args: &[&str]| parse_str(args).unwrap_err().0;
        assert!(err(&[]).contains("missing <event_type>"));
        assert!(err(&["--wait"]).contains("missing <event_type>"));
        assert!(err(&["--frobnicate", "x"]).contains("unknown option --frobnicate"));
        assert!(err(&["--timeout", "-3", "x"]).contains("positive"));
        assert!(err(&["--timeout"]).contains("needs a number"));
        assert!(err(&["x", "y", "z"]).contains("unexpected argument"));
        assert!(err(&["--fail-closed", "x"]).contains("only applies with --wait"));
        assert!(err(&["--agent", "windsurf", "x"]).contains("one of claude, codex"));
        assert!(err(&["x", "--agent"]).contains("needs an agent's name"));
    }

    #[test]
    fn the_agent_is_named_by_flag() {
        let agent = |args: &[&str]| match parse_str(args) {
            Ok(Command::Emit(args)) => args.agent,
            other => panic!("{other:?}"),
        };
        assert_eq!(agent(&["PostToolUse"]), None);
        assert_eq!(
            agent(&["--agent", "codex", "PostToolUse"]),
            Some(AgentKind::Codex)
        );
        assert_eq!(
            agent(&["AfterTool", "--agent=Gemini"]),
            Some(AgentKind::Gemini)
        );
        // Every agent may wait: the daemon answers in its shape.
        for kind in AgentKind::ALL {
            assert_eq!(
                agent(&["--wait", "--agent", kind.as_str(), "PreToolUse"]),
                Some(kind)
            );
        }
    }
}
