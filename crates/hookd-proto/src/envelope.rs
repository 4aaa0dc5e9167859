//! The envelope: one newline-terminated JSON object per hook call.
//!
//! The first five fields are fixed by existing emitters (a bash script using
//! `jq` and `socat` sends exactly `event_type`, `tool_name`, `payload`,
//! `timestamp`, `pid`, in that order); everything after them is optional so
//! such emitters keep working.

use serde::{Deserialize, Serialize};

/// Version of the envelope written by `hookd-emit`, carried in [`Envelope::version`].
pub const ENVELOPE_VERSION: &str = "1";

/// One hook call as it travels over the socket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// Hook event, as the emitter named it: `post_tool_use` or the agent's `PostToolUse`.
    pub event_type: String,
    /// Tool the hook fired for; `null` or absent for events without a tool.
    #[serde(default)]
    pub tool_name: Option<String>,
    /// The hook's stdin JSON; a JSON string when stdin was not valid JSON (see `payload_invalid`).
    pub payload: serde_json::Value,
    /// When the emitter ran: RFC 3339, UTC, milliseconds (`2026-11-21T10:00:00.123Z`).
    pub timestamp: String,
    /// Process id of the emitter (the agent's hook process).
    #[serde(default)]
    pub pid: Option<u32>,
    /// Agent identity from `$CLAUDE_AGENT_ID`, when the agent set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// Working directory of the emitter, used when the payload has no `cwd`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Envelope version written by `hookd-emit`; absent from third-party emitters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// True when stdin was not valid JSON and `payload` holds it as a string.
    #[serde(default, skip_serializing_if = "is_false")]
    pub payload_invalid: bool,
    /// The agent's project directory (`$CLAUDE_PROJECT_DIR`), where project
    /// and local managed hooks live.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_dir: Option<String>,
    /// The emitter waits for a [`Reply`] line: run the managed hooks and answer.
    #[serde(default, skip_serializing_if = "is_false")]
    pub wait: bool,
    /// True when the hook's stdin held lone UTF-16 surrogate escapes, which
    /// the emitter replaced by `\uFFFD` so the payload parses
    /// ([`crate::surrogates`]).
    #[serde(default, skip_serializing_if = "is_false")]
    pub payload_repaired: bool,
    /// True when `payload` is the stand-in for one too large to send
    /// ([`crate::standin`]); `payload_invalid` is set too, for daemons that
    /// predate this flag.
    #[serde(default, skip_serializing_if = "is_false")]
    pub payload_summarised: bool,
    /// The event's id (a UUIDv7), chosen by the emitter so that a line
    /// delivered twice (over the socket and from the journal, or replayed
    /// after a crash) is stored once. Absent from third-party emitters; the
    /// daemon then assigns one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_id: Option<String>,
    /// The agent whose hook this is (`hookd-emit --agent`: `codex`,
    /// `gemini`, ...; [`crate::AgentKind`]). Absent: Claude Code. Kept as
    /// text, so a name a newer emitter knows is stored, not refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_kind: Option<String>,
}

impl Envelope {
    /// An envelope with the five fields every emitter sends and none of the optional ones.
    pub fn new(
        event_type: impl Into<String>,
        tool_name: Option<String>,
        payload: serde_json::Value,
        timestamp: impl Into<String>,
        pid: Option<u32>,
    ) -> Self {
        Self {
            event_type: event_type.into(),
            tool_name,
            payload,
            timestamp: timestamp.into(),
            pid,
            agent_id: None,
            cwd: None,
            version: None,
            payload_invalid: false,
            project_dir: None,
            wait: false,
            payload_repaired: false,
            payload_summarised: false,
            event_id: None,
            agent_kind: None,
        }
    }
}

/// The daemon's answer to an envelope sent with `wait`: exactly what the
/// agent's hook process must print and exit with.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    /// Exit code for the hook process: 0; 2 for a blocking outcome; 1 when the
    /// only news is that a hook failed (Claude Code shows it, the action proceeds).
    pub exit_code: i32,
    /// What to print on stdout (JSON starting with `{`, or empty).
    #[serde(default)]
    pub stdout: String,
    /// What to print on stderr (the reason, for exit code 2).
    #[serde(default)]
    pub stderr: String,
}

// serde's skip_serializing_if takes a path to a fn(&T) -> bool.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(value: &bool) -> bool {
    !*value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_fields_serialise_first_and_in_the_bash_emitter_order() {
        let envelope = Envelope::new(
            "post_tool_use",
            Some("write".into()),
            serde_json::json!({"a": 1}),
            "2026-11-21T10:00:00.123Z",
            Some(42),
        );
        let line = serde_json::to_string(&envelope).unwrap();
        assert_eq!(
            line,
            r#"{"event_type":"post_tool_use","tool_name":"write","payload":{"a":1},"timestamp":"2026-11-21T10:00:00.123Z","pid":42}"#
        );
    }

    #[test]
    fn optional_fields_may_be_absent() {
        let envelope: Envelope = serde_json::from_str(
            r#"{"event_type":"PostToolUse","payload":{},"timestamp":"2026-11-21T10:00:00.123Z"}"#,
        )
        .unwrap();
        assert_eq!(envelope.tool_name, None);
        assert_eq!(envelope.pid, None);
        assert!(!envelope.payload_invalid);
        assert!(!envelope.payload_repaired);
        assert!(!envelope.payload_summarised);
    }

    #[test]
    fn missing_payload_is_an_error_naming_the_field() {
        let err = serde_json::from_str::<Envelope>(
            r#"{"event_type":"x","timestamp":"2026-11-21T10:00:00.123Z"}"#,
        )
        .unwrap_err();
        assert!(err.to_string().contains("payload"), "{err}");
    }
}
