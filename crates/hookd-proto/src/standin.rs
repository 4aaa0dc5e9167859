//! The small payload `hookd-emit` sends in place of one too large for a line.
//!
//! A payload over [`crate::MAX_LINE_BYTES`] (a Write of a huge file, a Bash
//! command with a huge here-document) cannot travel whole, but the event
//! must still be recorded usefully: which session and tool call (the daemon
//! pairs a Bash call's pre and post events by `tool_use_id`), which file was
//! written and how many lines. The emitter builds the stand-in and flags the
//! envelope with `payload_summarised`; the daemon reads the kept fields back
//! with the same names and counts lines with the same rule ([`lines_changed`]).
//! It keeps no lines added and removed: they are counted by the daemon's
//! line diff (`hookd_core::diff`), which the emitter does not link to stay
//! small, so a stand-in's row has them NULL (shown as "—").

use serde_json::Value;

/// Marker key the stand-in always has; its value says why it replaced the payload.
pub const MARKER_KEY: &str = "hookd_error";

/// The marker's value.
pub const MARKER: &str = "payload too large";

/// Key of the size of the hook's stdin, in bytes.
pub const BYTES_KEY: &str = "bytes";

/// Key of the line count computed from the whole payload's tool input.
pub const LINES_CHANGED_KEY: &str = "lines_changed";

/// Top-level payload fields the stand-in keeps (strings only); GitHub
/// Copilot's camelCase payloads name the tool and session `toolName` and
/// `sessionId`.
pub const KEPT_FIELDS: [&str; 8] = [
    "tool_name",
    "session_id",
    "agent_id",
    "cwd",
    "hook_event_name",
    "tool_use_id",
    "toolName",
    "sessionId",
];

/// Tool input fields the stand-in keeps (strings only), under
/// `tool_input`: the file touched. The input is `tool_input`, or Copilot's
/// `toolArgs` (an object or a JSON-encoded string).
pub const KEPT_INPUT_FIELDS: [&str; 3] = ["file_path", "notebook_path", "path"];

/// Longest string the stand-in keeps; a multi-megabyte `session_id` must
/// not make the stand-in oversized in turn.
pub const KEPT_FIELD_MAX_BYTES: usize = 4096;

/// Lines a tool input writes: newlines in `new_string`, summed over
/// MultiEdit's `edits`; else in `new_string`, `content` or `new_source`.
pub fn lines_changed(tool_input: &Value) -> Option<i64> {
    if let Some(edits) = tool_input.get("edits").and_then(Value::as_array) {
        let total = edits
            .iter()
            .filter_map(|edit| edit.get("new_string").and_then(Value::as_str))
            .map(count_newlines)
            .sum();
        return Some(total);
    }
    ["new_string", "content", "new_source"]
        .iter()
        .find_map(|key| tool_input.get(key).and_then(Value::as_str))
        .map(count_newlines)
}

fn count_newlines(text: &str) -> i64 {
    i64::try_from(text.bytes().filter(|b| *b == b'\n').count()).unwrap_or(i64::MAX)
}

/// The stand-in for `payload`, whose hook stdin was `stdin_bytes` long.
pub fn stand_in(payload: &Value, stdin_bytes: usize) -> Value {
    let mut summary = serde_json::Map::new();
    summary.insert(MARKER_KEY.into(), MARKER.into());
    summary.insert(BYTES_KEY.into(), stdin_bytes.into());
    for field in KEPT_FIELDS {
        if let Some(value) = short_str(payload, field) {
            summary.insert(field.into(), value.into());
        }
    }
    // No agent but GitHub Copilot sends `toolArgs`: reading it for every
    // payload is reading it for Copilot's.
    if let Some(input) = crate::AgentKind::Copilot.tool_input(payload) {
        let input = input.as_ref();
        let kept: serde_json::Map<String, Value> = KEPT_INPUT_FIELDS
            .iter()
            .filter_map(|field| short_str(input, field).map(|v| ((*field).to_owned(), v.into())))
            .collect();
        if !kept.is_empty() {
            summary.insert("tool_input".into(), Value::Object(kept));
        }
        if let Some(lines) = lines_changed(input) {
            summary.insert(LINES_CHANGED_KEY.into(), lines.into());
        }
    }
    Value::Object(summary)
}

/// The line count a stand-in carries.
pub fn kept_lines_changed(stand_in: &Value) -> Option<i64> {
    stand_in.get(LINES_CHANGED_KEY).and_then(Value::as_i64)
}

fn short_str<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| s.len() <= KEPT_FIELD_MAX_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_the_call_the_file_and_the_line_count() {
        let payload = json!({
            "session_id": "s1",
            "transcript_path": "/t.jsonl",
            "cwd": "/p",
            "hook_event_name": "PostToolUse",
            "tool_name": "Write",
            "tool_use_id": "toolu_1",
            "tool_input": {"file_path": "/p/big.txt", "content": "a\nb\nc\n"},
            "tool_response": {"content": "a\nb\nc\n"},
        });
        assert_eq!(
            stand_in(&payload, 99),
            json!({
                "hookd_error": "payload too large",
                "bytes": 99,
                "tool_name": "Write",
                "session_id": "s1",
                "cwd": "/p",
                "hook_event_name": "PostToolUse",
                "tool_use_id": "toolu_1",
                "tool_input": {"file_path": "/p/big.txt"},
                "lines_changed": 3,
            })
        );
    }

    #[test]
    fn a_copilot_calls_session_tool_and_file_are_kept() {
        for args in [
            json!({"path": "/w/big.txt", "file_text": "a\nb\n"}),
            json!("{\"path\":\"/w/big.txt\",\"file_text\":\"a\\nb\\n\"}"),
        ] {
            let payload = json!({"sessionId": "s-1", "timestamp": 1, "cwd": "/w",
                "toolName": "create", "toolArgs": args});
            assert_eq!(
                stand_in(&payload, 9),
                json!({"hookd_error": "payload too large", "bytes": 9, "cwd": "/w",
                    "toolName": "create", "sessionId": "s-1",
                    "tool_input": {"path": "/w/big.txt"}}),
                "{args}"
            );
        }
    }

    #[test]
    fn a_subagents_id_is_kept() {
        let payload =
            json!({"session_id": "s", "agent_id": "sub-1", "tool_input": {"content": ""}});
        assert_eq!(stand_in(&payload, 1)["agent_id"], "sub-1");
    }

    #[test]
    fn notebooks_multiedits_and_commands() {
        let nb = json!({"tool_input": {"notebook_path": "/n.ipynb", "new_source": "x\n"}});
        assert_eq!(
            stand_in(&nb, 1)["tool_input"],
            json!({"notebook_path": "/n.ipynb"})
        );
        assert_eq!(kept_lines_changed(&stand_in(&nb, 1)), Some(1));
        let multi = json!({"tool_input": {"file_path": "/a", "edits": [{"new_string": "a\n"}, {"new_string": "b\nc\n"}]}});
        assert_eq!(kept_lines_changed(&stand_in(&multi, 1)), Some(3));
        let bash = json!({"tool_name": "Bash", "tool_use_id": "t", "tool_input": {"command": "x"}});
        let summary = stand_in(&bash, 1);
        assert_eq!(summary.get("tool_input"), None);
        assert_eq!(summary.get("lines_changed"), None);
        assert_eq!(summary["tool_use_id"], "t");
    }

    #[test]
    fn huge_fields_and_non_objects_are_skipped() {
        let payload =
            json!({"session_id": "s".repeat(5000), "tool_input": {"file_path": "f".repeat(5000)}});
        let summary = stand_in(&payload, 7);
        assert_eq!(
            summary,
            json!({"hookd_error": "payload too large", "bytes": 7})
        );
        assert_eq!(
            stand_in(&json!("not json"), 3),
            json!({"hookd_error": "payload too large", "bytes": 3})
        );
    }
}
