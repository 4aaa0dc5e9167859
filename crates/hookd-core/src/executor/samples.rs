//! Ready-made hook payloads: what Claude Code sends on stdin for the events
//! and tools people write hooks for most (Write, Edit, MultiEdit, Bash,
//! NotebookEdit, an MCP tool, UserPromptSubmit, Stop, SessionStart,
//! PreModelSwitch).
//!
//! Testing a hook needs a realistic payload, and writing one by hand from
//! the hooks reference is where matchers and scripts go wrong (a missing
//! `tool_input` field, `hook_event_name` of another event). One catalogue,
//! shaped per `docs/hooks-contract.md`, serves the desktop app's test
//! bench and can serve the CLI too. Paths point inside the chosen project,
//! so a hook that inspects `file_path` or `cwd` sees its own project.

use std::path::Path;

use serde_json::{Value, json};

/// The session id every sample carries (a fixed UUID, so runs compare).
pub const SAMPLE_SESSION_ID: &str = "3f2a9c4e-7b1d-4e8a-9c5f-0d6e2b7a1c93";

/// One ready payload.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// Stable identifier (`bash`, `mcp`, `session-start`, ...).
    pub id: &'static str,
    /// What it is, for a picker: `Bash: run a command`.
    pub label: &'static str,
    /// The event it belongs to, as the catalogue names it (`PreToolUse`).
    pub event: &'static str,
    /// The stdin JSON, `hook_event_name` included.
    pub payload: Value,
}

/// Every sample for a project at `cwd`, with the agent's home `home` (for
/// `transcript_path`), in picker order: the tool calls first (as PreToolUse,
/// where hooks can still refuse them), then one PostToolUse, then the
/// session and prompt events.
pub fn samples(cwd: &Path, home: &Path) -> Vec<Sample> {
    let root = cwd.display().to_string();
    let file = |rel: &str| format!("{root}/{rel}");
    let base = |event: &str| -> Value {
        json!({
            "session_id": SAMPLE_SESSION_ID,
            "transcript_path": transcript_path(cwd, home),
            "cwd": root,
            "permission_mode": "default",
            "hook_event_name": event,
        })
    };
    let tool = |event: &str, name: &str, input: Value, extra: Value| -> Value {
        let mut payload = base(event);
        payload["tool_name"] = json!(name);
        payload["tool_input"] = input;
        payload["tool_use_id"] = json!("toolu_01HookdSampleToolUse000001");
        if let (Value::Object(map), Value::Object(more)) = (&mut payload, extra) {
            map.extend(more);
        }
        payload
    };
    let none = Value::Object(serde_json::Map::new());
    let write_input = json!({
        "file_path": file("src/hello.rs"),
        "content": "pub fn hello() -> &'static str {\n    \"hello\"\n}\n",
    });
    let pre = "PreToolUse";
    let mut list = vec![
        Sample {
            id: "write",
            label: "Write: create a file",
            event: pre,
            payload: tool(pre, "Write", write_input.clone(), none.clone()),
        },
        Sample {
            id: "edit",
            label: "Edit: replace a string in a file",
            event: pre,
            payload: tool(
                pre,
                "Edit",
                json!({
                    "file_path": file("README.md"),
                    "old_string": "hello\n",
                    "new_string": "hello, hookd\n",
                    "replace_all": false,
                }),
                none.clone(),
            ),
        },
        Sample {
            id: "multiedit",
            label: "MultiEdit: several edits to one file",
            event: pre,
            payload: tool(
                pre,
                "MultiEdit",
                json!({
                    "file_path": file("src/config.rs"),
                    "edits": [
                        {"old_string": "const LIMIT: u32 = 100;", "new_string": "const LIMIT: u32 = 1_000;"},
                        {"old_string": "timeout: 30", "new_string": "timeout: 10", "replace_all": true},
                    ],
                }),
                none.clone(),
            ),
        },
        Sample {
            id: "bash",
            label: "Bash: run a command",
            event: pre,
            payload: tool(
                pre,
                "Bash",
                json!({
                    "command": "cargo test --workspace",
                    "description": "Run the test suite",
                    "timeout": 120_000,
                    "run_in_background": false,
                }),
                none.clone(),
            ),
        },
        Sample {
            id: "notebook-edit",
            label: "NotebookEdit: replace a cell",
            event: pre,
            payload: tool(
                pre,
                "NotebookEdit",
                json!({
                    "notebook_path": file("notebooks/analysis.ipynb"),
                    "cell_id": "cell-3",
                    "new_source": "import pandas as pd\ndf = pd.read_csv(\"data.csv\")\ndf.describe()\n",
                    "cell_type": "code",
                    "edit_mode": "replace",
                }),
                none.clone(),
            ),
        },
        Sample {
            id: "mcp",
            label: "MCP tool: mcp__filesystem__write_file",
            event: pre,
            payload: tool(
                pre,
                "mcp__filesystem__write_file",
                json!({
                    "path": file("notes/todo.md"),
                    "content": "- [ ] ship the test bench\n",
                }),
                none,
            ),
        },
        Sample {
            id: "write-done",
            label: "Write, after it ran (PostToolUse)",
            event: "PostToolUse",
            payload: tool(
                "PostToolUse",
                "Write",
                write_input,
                json!({
                    "tool_response": {"filePath": file("src/hello.rs"), "success": true},
                    "duration_ms": 12,
                }),
            ),
        },
    ];
    let mut prompt = base("UserPromptSubmit");
    prompt["prompt"] = json!("Add a --verbose flag to the CLI and document it in the README.");
    let mut stop = base("Stop");
    stop["stop_hook_active"] = json!(false);
    stop["last_assistant_message"] =
        json!("I added the --verbose flag, documented it and the tests pass.");
    let mut start = base("SessionStart");
    start["source"] = json!("startup");
    start["model"] = json!("claude-sonnet-4-5");
    if let Value::Object(map) = &mut start {
        // SessionStart carries no permission mode.
        map.shift_remove("permission_mode");
    }
    let mut switch = base("PreModelSwitch");
    switch["from_model"] = json!("claude-opus-4-5");
    switch["to_model"] = json!("claude-haiku-4-5");
    list.extend([
        Sample {
            id: "user-prompt-submit",
            label: "UserPromptSubmit: a prompt",
            event: "UserPromptSubmit",
            payload: prompt,
        },
        Sample {
            id: "stop",
            label: "Stop: the agent finished its turn",
            event: "Stop",
            payload: stop,
        },
        Sample {
            id: "session-start",
            label: "SessionStart: a new session",
            event: "SessionStart",
            payload: start,
        },
        Sample {
            id: "pre-model-switch",
            label: "PreModelSwitch: the user asks for another model",
            event: "PreModelSwitch",
            payload: switch,
        },
    ]);
    list
}

/// Where Claude Code keeps the transcript of a session in `cwd`:
/// `~/.claude/projects/<cwd with every non-alphanumeric character as ->/<session>.jsonl`.
fn transcript_path(cwd: &Path, home: &Path) -> String {
    let slug: String = cwd
        .display()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    home.join(".claude/projects")
        .join(slug)
        .join(format!("{SAMPLE_SESSION_ID}.jsonl"))
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::events;

    #[test]
    fn every_sample_is_a_payload_of_a_known_event_in_the_project() {
        let list = samples(Path::new("/src/my app"), Path::new("/home/dev"));
        assert!(list.len() >= 9);
        for sample in &list {
            let spec = events::lookup(sample.event)
                .unwrap_or_else(|| panic!("{}: unknown event {}", sample.id, sample.event));
            assert_eq!(spec.name, sample.event, "{}: canonical name", sample.id);
            // What a hook reads from stdin: the text must parse back to the same object.
            let text = serde_json::to_string(&sample.payload).unwrap();
            let parsed: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(parsed, sample.payload);
            assert_eq!(parsed["hook_event_name"], sample.event, "{}", sample.id);
            assert_eq!(parsed["cwd"], "/src/my app", "{}", sample.id);
            assert_eq!(parsed["session_id"], SAMPLE_SESSION_ID);
            assert_eq!(
                parsed["transcript_path"],
                format!("/home/dev/.claude/projects/-src-my-app/{SAMPLE_SESSION_ID}.jsonl")
            );
            if spec.is_tool_event() {
                assert!(parsed["tool_name"].is_string(), "{}", sample.id);
                assert!(parsed["tool_input"].is_object(), "{}", sample.id);
                assert!(parsed["tool_use_id"].is_string(), "{}", sample.id);
            }
            // The event's matcher has something to test.
            if let events::MatchField::Payload(field) = spec.matcher {
                assert!(
                    events::match_target(spec, &parsed).is_some(),
                    "{}: no {field}",
                    sample.id
                );
            }
        }
        let ids: Vec<&str> = list.iter().map(|s| s.id).collect();
        for (i, id) in ids.iter().enumerate() {
            assert!(!ids[i + 1..].contains(id), "{id} twice");
        }
    }

    #[test]
    fn the_issue_s_samples_are_all_there_with_their_fields() {
        let list = samples(Path::new("/r"), Path::new("/h"));
        let by_tool = |tool: &str| {
            list.iter()
                .find(|s| s.event == "PreToolUse" && s.payload["tool_name"] == tool)
                .unwrap_or_else(|| panic!("no PreToolUse {tool} sample"))
        };
        assert_eq!(
            by_tool("Write").payload["tool_input"]["file_path"],
            "/r/src/hello.rs"
        );
        assert!(by_tool("Edit").payload["tool_input"]["old_string"].is_string());
        assert!(by_tool("MultiEdit").payload["tool_input"]["edits"].is_array());
        assert!(by_tool("Bash").payload["tool_input"]["command"].is_string());
        assert_eq!(
            by_tool("NotebookEdit").payload["tool_input"]["edit_mode"],
            "replace"
        );
        assert!(list.iter().any(|s| {
            s.payload["tool_name"]
                .as_str()
                .is_some_and(|t| t.starts_with("mcp__"))
        }));
        let post = list.iter().find(|s| s.event == "PostToolUse").unwrap();
        assert!(post.payload["tool_response"].is_object());
        for event in ["UserPromptSubmit", "Stop", "SessionStart"] {
            assert!(list.iter().any(|s| s.event == event), "{event}");
        }
        let start = list.iter().find(|s| s.event == "SessionStart").unwrap();
        assert_eq!(start.payload["source"], "startup");
        assert!(start.payload.get("permission_mode").is_none());
    }
}
