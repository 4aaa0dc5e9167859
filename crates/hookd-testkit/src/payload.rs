//! Hook payloads as the agent sends them and envelope lines as an emitter
//! puts them on the socket.

use std::path::Path;

use hookd_proto::Envelope;
use serde_json::{Value, json};

/// A hook payload as Claude Code sends it for `tool` in `cwd`, as JSON text.
pub fn tool_payload(hook: &str, tool: &str, cwd: &Path, tool_use_id: &str, input: Value) -> String {
    let mut payload = json!({
        "session_id": "session-1",
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": cwd,
        "hook_event_name": hook,
        "permission_mode": "default",
        "tool_name": tool,
        "tool_input": null,
        "tool_use_id": tool_use_id,
    });
    payload["tool_input"] = input;
    payload.to_string()
}

/// One envelope line (the five fields every emitter sends, then a newline),
/// as a third-party emitter writes it on the socket.
pub fn envelope_line(
    event_type: &str,
    tool_name: Option<&str>,
    payload: Value,
    timestamp: &str,
    pid: u32,
) -> String {
    let envelope = Envelope::new(
        event_type,
        tool_name.map(str::to_owned),
        payload,
        timestamp,
        Some(pid),
    );
    format!(
        "{}\n",
        serde_json::to_string(&envelope).expect("serialise envelope")
    )
}

/// One hook event for a ledger: which tool, what file, when, by whom.
pub struct Event<'a> {
    /// The hook (`post_tool_use`, `user_prompt_submit`...).
    pub hook: &'a str,
    /// The tool, empty for events without one.
    pub tool: &'a str,
    /// The file written, relative to the repository.
    pub file: Option<&'a str>,
    /// What was written (an Edit's `new_string`).
    pub content: &'a str,
    /// An Edit's `old_string`: with it the tool input is an Edit's.
    pub old_string: Option<&'a str>,
    /// The envelope's timestamp.
    pub timestamp: &'a str,
    /// The session, which is also the agent.
    pub agent: &'a str,
    /// The branch recorded with the event.
    pub branch: &'a str,
}

impl<'a> Event<'a> {
    /// A `post_tool_use` Write of `file` (relative to the repository) at `timestamp`.
    pub fn write(file: &'a str, timestamp: &'a str) -> Self {
        Self {
            hook: "post_tool_use",
            tool: "Write",
            file: Some(file),
            content: "one\ntwo\n",
            old_string: None,
            timestamp,
            agent: "agent-a",
            branch: "main",
        }
    }

    /// A `post_tool_use` Edit of `file` replacing `old` by `new` at `timestamp`.
    pub fn edit(file: &'a str, old: &'a str, new: &'a str, timestamp: &'a str) -> Self {
        Self {
            tool: "Edit",
            content: new,
            old_string: Some(old),
            ..Self::write(file, timestamp)
        }
    }

    /// A hook event with no mutation (a prompt).
    pub fn prompt(timestamp: &'a str) -> Self {
        Self {
            hook: "user_prompt_submit",
            tool: "",
            file: None,
            content: "",
            old_string: None,
            timestamp,
            agent: "agent-a",
            branch: "main",
        }
    }

    /// The envelope `hookd-emit` would send for this event in `root`.
    pub fn envelope(&self, root: &Path) -> Value {
        let mut payload = json!({
            "session_id": self.agent,
            "cwd": root,
            "hook_event_name": self.hook,
        });
        if self.tool.is_empty() {
            payload["prompt"] = json!("hello");
        } else {
            payload["tool_name"] = json!(self.tool);
            payload["tool_use_id"] = json!(format!("toolu-{}", self.timestamp));
            let file = self.file.map(|f| root.join(f));
            payload["tool_input"] = match self.old_string {
                Some(old) => json!({
                    "file_path": file,
                    "old_string": old,
                    "new_string": self.content,
                }),
                None => json!({"file_path": file, "content": self.content}),
            };
        }
        json!({
            "event_type": self.hook,
            "tool_name": self.tool,
            "payload": payload,
            "timestamp": self.timestamp,
            "pid": 4242,
        })
    }
}
