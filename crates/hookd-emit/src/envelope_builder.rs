//! Turns one hook call (arguments, stdin, process facts) into the exact line
//! sent to the daemon.
//!
//! Kept free of I/O so the awkward cases (stdin that is not JSON, payloads
//! over the daemon's line limit) can be unit-tested without a socket. The
//! rule throughout: an event is never dropped because of its payload. Bad
//! JSON travels as a string, an oversized payload is replaced by a small
//! stand-in (`hookd_proto::standin`: session, tool call, file and line
//! count), and both are flagged with `payload_invalid` so the daemon can
//! tell them from what the agent really sent; the stand-in also with
//! `payload_summarised`. Lone UTF-16 surrogate escapes are repaired
//! (`payload_repaired`).

use std::borrow::Cow;
use std::env;
use std::time::SystemTime;

use hookd_proto::{AgentKind, ENVELOPE_VERSION, Envelope, MAX_LINE_BYTES, standin, surrogates};
use serde_json::Value;

/// Environment variable through which Claude Code names the (sub)agent.
const AGENT_ID_ENV: &str = "CLAUDE_AGENT_ID";

/// Where Claude Code says the project is; project-scope managed hooks live there.
const PROJECT_DIR_ENV: &str = "CLAUDE_PROJECT_DIR";

/// Facts about the calling process, gathered once so building stays pure.
#[derive(Debug, Clone, PartialEq)]
pub struct CallContext {
    /// RFC 3339 UTC with milliseconds, as every emitter writes it.
    pub timestamp: String,
    /// Pid of the agent's hook shell (our parent), not of this short-lived binary.
    pub pid: u32,
    /// `$CLAUDE_AGENT_ID` when set and non-empty.
    pub agent_id: Option<String>,
    /// Our working directory, which the agent sets to the session's directory.
    pub cwd: Option<String>,
    /// `$CLAUDE_PROJECT_DIR` when set and non-empty: where project hooks live.
    pub project_dir: Option<String>,
    /// Whether the daemon should run managed hooks and reply (`--wait`).
    pub wait: bool,
    /// The event's id (UUIDv7): the same line may reach the daemon both over
    /// the socket and through the journal, and is stored once.
    pub event_id: String,
    /// The agent named by `--agent`; `None`: Claude Code (left out of the line).
    pub agent_kind: Option<hookd_proto::AgentKind>,
}

impl CallContext {
    /// Reads the clock, parent pid, agent id and working directory of this process.
    pub fn from_process() -> Self {
        Self {
            timestamp: humantime::format_rfc3339_millis(SystemTime::now()).to_string(),
            pid: std::os::unix::process::parent_id(),
            agent_id: env::var_os(AGENT_ID_ENV)
                .filter(|id| !id.is_empty())
                .map(|id| id.to_string_lossy().into_owned()),
            cwd: env::current_dir()
                .ok()
                .map(|dir| dir.to_string_lossy().into_owned()),
            project_dir: env::var_os(PROJECT_DIR_ENV)
                .filter(|dir| !dir.is_empty())
                .map(|dir| dir.to_string_lossy().into_owned()),
            wait: false,
            event_id: uuid::Uuid::now_v7().to_string(),
            agent_kind: None,
        }
    }
}

/// How the payload ended up in the envelope; only used for debug output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PayloadOutcome {
    /// Stdin was JSON and is carried as-is (re-serialised compactly).
    Json,
    /// Stdin was not JSON; it is carried as a string.
    NotJson,
    /// Stdin held lone UTF-16 surrogate escapes, replaced by `\uFFFD` so it parses.
    Repaired,
    /// The envelope would have exceeded the line limit; a summary was sent instead.
    TooLarge {
        /// Size of the hook's stdin, in bytes.
        stdin_bytes: usize,
    },
}

/// One ready-to-send envelope line.
#[derive(Debug)]
pub struct BuiltLine {
    /// Compact JSON followed by exactly one `\n`; no other newline inside.
    pub bytes: Vec<u8>,
    /// What happened to the payload on the way.
    pub outcome: PayloadOutcome,
    /// True where the daemon takes a snapshot before it closes the
    /// connection (before a Bash command, before and after a file tool:
    /// [`hookd_proto::snapshot`]); the agent must not act before that, so
    /// delivery waits (bounded) for the close.
    pub wait_for_daemon: bool,
}

/// Builds the line for one hook call, respecting [`MAX_LINE_BYTES`].
///
/// `tool_name` is the command-line argument; when absent, the payload's
/// top-level `tool_name` string is used, so one hook command can serve every
/// tool.
pub fn build_line(
    event_type: String,
    tool_name: Option<String>,
    stdin: &[u8],
    context: CallContext,
) -> Result<BuiltLine, serde_json::Error> {
    build_line_with_limit(event_type, tool_name, stdin, context, MAX_LINE_BYTES)
}

/// Whether the daemon takes a snapshot for this call before it closes the
/// connection ([`hookd_proto::snapshot::moment`]), with the daemon's rule
/// for the tool: the payload's tool ([`AgentKind::tool_name`]: `tool_name`,
/// GitHub Copilot's `toolName`) wins over the argument, and another agent's
/// event and tool are read as the Claude Code ones they are recorded as
/// ([`AgentKind::claude_event`], [`AgentKind::recorded_tool`]).
fn waits_for_snapshot(
    agent: Option<AgentKind>,
    event_type: &str,
    tool_arg: Option<&str>,
    payload: &Value,
) -> bool {
    let agent = agent.unwrap_or(AgentKind::Claude);
    let tool = agent
        .tool_name(payload)
        .or(tool_arg)
        .map(|tool| agent.recorded_tool(tool).unwrap_or(tool));
    let event = agent.claude_event(event_type);
    tool.is_some_and(|tool| hookd_proto::snapshot::moment(event, tool).is_some())
}

/// [`build_line`] with the line limit as a parameter, so tests need not
/// allocate megabytes to reach it.
fn build_line_with_limit(
    event_type: String,
    tool_name: Option<String>,
    stdin: &[u8],
    context: CallContext,
    max_line_bytes: usize,
) -> Result<BuiltLine, serde_json::Error> {
    // Parsed once (twice only when it held lone surrogates): the Value both
    // supplies tool_name and is re-serialised.
    let (payload, payload_invalid, payload_repaired) = parse_payload(stdin);
    let wait_for_daemon = waits_for_snapshot(
        context.agent_kind,
        &event_type,
        tool_name.as_deref(),
        &payload,
    );
    let tool_name = tool_name.or_else(|| {
        context
            .agent_kind
            .unwrap_or(AgentKind::Claude)
            .tool_name(&payload)
            .map(str::to_owned)
    });
    let mut envelope = Envelope {
        event_type,
        tool_name,
        payload,
        timestamp: context.timestamp,
        pid: Some(context.pid),
        agent_id: context.agent_id,
        cwd: context.cwd,
        version: Some(ENVELOPE_VERSION.to_owned()),
        payload_invalid,
        project_dir: context.project_dir,
        wait: context.wait,
        payload_repaired,
        payload_summarised: false,
        event_id: Some(context.event_id),
        agent_kind: context.agent_kind.map(|kind| kind.as_str().to_owned()),
    };

    let mut bytes = Vec::with_capacity(stdin.len() + 256);
    serde_json::to_writer(&mut bytes, &envelope)?;
    let mut outcome = if payload_invalid {
        PayloadOutcome::NotJson
    } else if payload_repaired {
        PayloadOutcome::Repaired
    } else {
        PayloadOutcome::Json
    };

    if bytes.len() > max_line_bytes {
        // The daemon discards over-long lines unparsed, so sending it would
        // lose the event entirely; a summary at least records that it happened.
        envelope.payload = standin::stand_in(&envelope.payload, stdin.len());
        envelope.payload_invalid = true;
        envelope.payload_summarised = true;
        bytes.clear();
        bytes.shrink_to(1024);
        serde_json::to_writer(&mut bytes, &envelope)?;
        outcome = PayloadOutcome::TooLarge {
            stdin_bytes: stdin.len(),
        };
    }

    // Compact serde_json output escapes every newline inside strings, so this
    // is the line's only one.
    bytes.push(b'\n');
    Ok(BuiltLine {
        bytes,
        outcome,
        wait_for_daemon,
    })
}

/// The payload, whether it is invalid (carried as a string), and whether
/// lone UTF-16 surrogate escapes had to be replaced for it to parse.
fn parse_payload(stdin: &[u8]) -> (Value, bool, bool) {
    let error = match serde_json::from_slice::<Value>(stdin) {
        Ok(value) => return (value, false, false),
        Err(error) => error,
    };
    // Only a string escape can be a lone surrogate; skip the scan for other errors.
    if error.is_syntax()
        && let Cow::Owned(repaired) = surrogates::repair_lone_surrogates(stdin)
        && let Ok(value) = serde_json::from_slice::<Value>(&repaired)
    {
        return (value, false, true);
    }
    (
        Value::String(String::from_utf8_lossy(stdin).into_owned()),
        true,
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> CallContext {
        CallContext {
            timestamp: "2026-11-21T10:00:00.123Z".into(),
            pid: 42,
            agent_id: None,
            cwd: Some("/home/u/project".into()),
            project_dir: None,
            wait: false,
            event_id: "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b".into(),
            agent_kind: None,
        }
    }

    fn build(tool_name: Option<&str>, stdin: &str, limit: usize) -> (String, PayloadOutcome) {
        let built = build_line_with_limit(
            "PostToolUse".into(),
            tool_name.map(str::to_owned),
            stdin.as_bytes(),
            context(),
            limit,
        )
        .unwrap();
        (String::from_utf8(built.bytes).unwrap(), built.outcome)
    }

    #[test]
    fn bash_before_and_file_tools_around_wait_for_the_daemon() {
        let waits = |event: &str, arg: Option<&str>, payload: Value| {
            waits_for_snapshot(None, event, arg, &payload)
        };
        assert!(waits(
            "PreToolUse",
            None,
            serde_json::json!({"tool_name": "Bash"})
        ));
        assert!(waits("pre_tool_use", Some("bash"), serde_json::json!({})));
        assert!(waits(
            "pre-tool-use",
            Some("write"),
            serde_json::json!({"tool_name": "Bash"})
        ));
        // After a command too: the daemon records what it left.
        assert!(waits(
            "PostToolUse",
            None,
            serde_json::json!({"tool_name": "Bash"})
        ));
        // A file tool waits before and after: the daemon reads its file.
        assert!(waits(
            "PreToolUse",
            Some("bash"),
            serde_json::json!({"tool_name": "Write"})
        ));
        assert!(waits("PostToolUse", Some("Edit"), serde_json::json!({})));
        assert!(!waits("PostToolUse", Some("Read"), serde_json::json!({})));
        assert!(!waits(
            "UserPromptSubmit",
            Some("Write"),
            serde_json::json!({})
        ));
        assert!(!waits(
            "PreToolUse",
            None,
            serde_json::json!("not an object")
        ));
        // Another agent's names, read as Claude Code's.
        let gemini = |event: &str, tool: &str| {
            waits_for_snapshot(
                Some(AgentKind::Gemini),
                event,
                None,
                &serde_json::json!({"tool_name": tool}),
            )
        };
        assert!(gemini("BeforeTool", "run_shell_command"));
        assert!(gemini("BeforeTool", "write_file"));
        assert!(gemini("AfterTool", "replace"));
        assert!(gemini("AfterTool", "run_shell_command"));
        assert!(!gemini("BeforeModel", "run_shell_command"));
        assert!(!gemini("BeforeTool", "read_file"));
        assert!(!waits(
            "BeforeTool",
            Some("run_shell_command"),
            serde_json::json!({})
        ));
        // GitHub Copilot names its tool `toolName`; its shells and file
        // tools wait, its other tools do not.
        let copilot = |event: &str, tool: &str| {
            waits_for_snapshot(
                Some(AgentKind::Copilot),
                event,
                None,
                &serde_json::json!({"sessionId": "s", "toolName": tool,
                    "toolArgs": "{\"command\":\"ls\"}"}),
            )
        };
        for tool in ["bash", "powershell", "create", "edit"] {
            assert!(copilot("preToolUse", tool), "{tool}");
            assert!(copilot("postToolUse", tool), "{tool}");
        }
        assert!(copilot("postToolUseFailure", "bash"));
        assert!(!copilot("preToolUse", "view"));
        assert!(!copilot("sessionStart", "bash"));
        // Another agent's `toolName` is no tool.
        assert!(!waits(
            "PreToolUse",
            None,
            serde_json::json!({"toolName": "bash"})
        ));
    }

    #[test]
    fn a_copilot_tool_name_travels_in_the_envelope() {
        let mut context = context();
        context.agent_kind = Some(AgentKind::Copilot);
        let stdin = br#"{"sessionId":"s","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#;
        let built =
            build_line_with_limit("preToolUse".into(), None, stdin, context, MAX_LINE_BYTES)
                .unwrap();
        let envelope: Envelope = serde_json::from_slice(&built.bytes).unwrap();
        assert_eq!(envelope.tool_name.as_deref(), Some("bash"));
        assert!(built.wait_for_daemon);
    }

    #[test]
    fn the_agent_travels_only_when_named() {
        let (line, _) = build(None, "{}", MAX_LINE_BYTES);
        assert!(!line.contains("agent_kind"), "{line}");
        let mut context = context();
        context.agent_kind = Some(hookd_proto::AgentKind::Codex);
        let built =
            build_line_with_limit("PostToolUse".into(), None, b"{}", context, MAX_LINE_BYTES)
                .unwrap();
        let envelope: Envelope = serde_json::from_slice(&built.bytes).unwrap();
        assert_eq!(envelope.agent_kind.as_deref(), Some("codex"));
    }

    #[test]
    fn pretty_json_becomes_one_compact_line_in_wire_order() {
        let (line, outcome) = build(
            None,
            "{\n  \"tool_name\": \"Write\",\n  \"tool_input\": {\"content\": \"a\\nb\"}\n}\n",
            MAX_LINE_BYTES,
        );
        assert_eq!(outcome, PayloadOutcome::Json);
        assert_eq!(
            line,
            concat!(
                r#"{"event_type":"PostToolUse","tool_name":"Write","#,
                r#""payload":{"tool_name":"Write","tool_input":{"content":"a\nb"}},"#,
                r#""timestamp":"2026-11-21T10:00:00.123Z","pid":42,"#,
                r#""cwd":"/home/u/project","version":"1","#,
                r#""event_id":"0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"}"#,
                "\n"
            )
        );
    }

    #[test]
    fn tool_name_argument_wins_over_payload() {
        let (line, _) = build(Some("Bash"), r#"{"tool_name":"Write"}"#, MAX_LINE_BYTES);
        assert!(line.contains(r#""tool_name":"Bash","payload""#), "{line}");
    }

    #[test]
    fn non_string_tool_name_in_payload_is_ignored() {
        let (line, _) = build(None, r#"{"tool_name":7}"#, MAX_LINE_BYTES);
        assert!(line.contains(r#""tool_name":null,"payload""#), "{line}");
    }

    #[test]
    fn invalid_json_travels_as_a_string_and_is_flagged() {
        let (line, outcome) = build(None, "not json\n{", MAX_LINE_BYTES);
        assert_eq!(outcome, PayloadOutcome::NotJson);
        assert!(line.contains(r#""payload":"not json\n{""#), "{line}");
        assert!(line.contains(",\"payload_invalid\":true,"), "{line}");
        assert_eq!(line.matches('\n').count(), 1);
    }

    #[test]
    fn lone_surrogates_are_repaired_and_flagged() {
        for (stdin, content) in [
            (
                r#"{"tool_name":"Write","tool_input":{"content":"a\uD83D"}}"#,
                "a\u{fffd}",
            ),
            (
                r#"{"tool_name":"Write","tool_input":{"content":"\uDE00b"}}"#,
                "\u{fffd}b",
            ),
        ] {
            let (line, outcome) = build(None, stdin, MAX_LINE_BYTES);
            assert_eq!(outcome, PayloadOutcome::Repaired, "{stdin}");
            let value: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(value["payload"]["tool_input"]["content"], content);
            assert_eq!(value["tool_name"], "Write");
            assert_eq!(value["payload_repaired"], true);
            assert_eq!(value.get("payload_invalid"), None);
        }
    }

    #[test]
    fn valid_pairs_and_escaped_backslashes_are_not_repairs() {
        let stdin = r#"{"a":"\uD83D\uDE00","b":"\\uD83D"}"#;
        let (line, outcome) = build(None, stdin, MAX_LINE_BYTES);
        assert_eq!(outcome, PayloadOutcome::Json);
        let value: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["payload"]["a"], "\u{1F600}");
        assert_eq!(value["payload"]["b"], "\\uD83D");
        assert_eq!(value.get("payload_repaired"), None);
    }

    #[test]
    fn oversized_payload_is_replaced_by_a_summary_within_the_limit() {
        let stdin = format!(
            r#"{{"session_id":"s1","hook_event_name":"PostToolUse","cwd":"/p","tool_name":"Write","tool_input":{{"content":"{}"}}}}"#,
            "x".repeat(2000)
        );
        let (line, outcome) = build(None, &stdin, 1000);
        assert_eq!(
            outcome,
            PayloadOutcome::TooLarge {
                stdin_bytes: stdin.len()
            }
        );
        assert!(line.len() <= 1000, "{line}");
        let value: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(
            value["payload"],
            serde_json::json!({
                "hookd_error": "payload too large",
                "bytes": stdin.len(),
                "tool_name": "Write",
                "session_id": "s1",
                "cwd": "/p",
                "hook_event_name": "PostToolUse",
                "lines_changed": 0,
            })
        );
        assert_eq!(value["tool_name"], "Write");
        assert_eq!(value["payload_invalid"], true);
        assert_eq!(value["payload_summarised"], true);
    }

    #[test]
    fn oversized_summary_skips_huge_fields() {
        let stdin = format!(r#"{{"session_id":"{}"}}"#, "s".repeat(5000));
        let (line, _) = build(None, &stdin, 1000);
        let value: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["payload"].get("session_id"), None);
        assert_eq!(value["payload"]["bytes"], stdin.len());
    }

    #[test]
    fn oversized_invalid_json_still_yields_a_summary() {
        let stdin = "y".repeat(3000);
        let (line, outcome) = build(Some("Bash"), &stdin, 1000);
        assert!(matches!(outcome, PayloadOutcome::TooLarge { .. }));
        let value: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(
            value["payload"],
            serde_json::json!({"hookd_error": "payload too large", "bytes": 3000})
        );
        assert_eq!(value["tool_name"], "Bash");
    }

    #[test]
    fn context_timestamp_has_millisecond_precision() {
        let stamp = CallContext::from_process().timestamp;
        assert_eq!(stamp.len(), "2026-11-21T10:00:00.123Z".len(), "{stamp}");
        assert!(
            stamp.ends_with('Z') && stamp.as_bytes()[19] == b'.',
            "{stamp}"
        );
    }
}
