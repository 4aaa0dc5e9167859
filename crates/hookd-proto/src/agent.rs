//! Which coding agent an event came from.
//!
//! hookd records the hooks of several agents in one ledger (Claude Code,
//! Codex CLI, Gemini CLI, Cursor, GitHub Copilot). Each calls `hookd-emit`
//! from its own hook settings, and `hookd-emit --agent NAME` names the
//! agent in the envelope ([`crate::Envelope::agent_kind`]) so the daemon
//! reads the payload in that agent's shape and the ledger keeps whose
//! event it was. An envelope without it is Claude Code's: every emitter
//! before this field, and the default `hookd connect`.
//!
//! The rules for reading another agent's payload as Claude Code's (its
//! event, tool and tool input under their names) are here, not in the
//! daemon, because `hookd-emit` needs the same ones to know which calls
//! the daemon snapshots ([`crate::snapshot`]) and must not disagree.

use std::borrow::Cow;

use serde_json::Value;

/// A coding agent hookd knows the hooks of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AgentKind {
    /// Anthropic's Claude Code (the default).
    Claude,
    /// OpenAI's Codex CLI.
    Codex,
    /// Google's Gemini CLI.
    Gemini,
    /// Cursor's agent.
    Cursor,
    /// GitHub Copilot (CLI and coding agent).
    Copilot,
}

impl AgentKind {
    /// Every agent, in the order hookd lists them.
    pub const ALL: [Self; 5] = [
        Self::Claude,
        Self::Codex,
        Self::Gemini,
        Self::Cursor,
        Self::Copilot,
    ];

    /// The name on the command line, in the envelope and in the ledger.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Claude => "claude",
            Self::Codex => "codex",
            Self::Gemini => "gemini",
            Self::Cursor => "cursor",
            Self::Copilot => "copilot",
        }
    }

    /// The agent named `name` (as [`Self::as_str`] spells it, any case).
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.as_str().eq_ignore_ascii_case(name.trim()))
    }

    /// The names, comma-separated, for messages.
    #[must_use]
    pub fn names() -> String {
        Self::ALL.map(Self::as_str).join(", ")
    }
}

/// Gemini CLI's events that are Claude Code's under another name.
const GEMINI_EVENTS: [(&str, &str); 5] = [
    ("BeforeTool", "PreToolUse"),
    ("AfterTool", "PostToolUse"),
    ("BeforeAgent", "UserPromptSubmit"),
    ("AfterAgent", "Stop"),
    ("PreCompress", "PreCompact"),
];

/// Gemini CLI's tools that are Claude Code's under another name, with the
/// same input fields (`file_path` and `content`; `file_path`,
/// `old_string` and `new_string`; `command`).
const GEMINI_TOOLS: [(&str, &str); 3] = [
    ("write_file", "Write"),
    ("replace", "Edit"),
    ("run_shell_command", "Bash"),
];

/// Cursor's events that are Claude Code's under another name (the others,
/// `preToolUse`, `sessionStart`, …, differ only in case).
const CURSOR_EVENTS: [(&str, &str); 1] = [("beforeSubmitPrompt", "UserPromptSubmit")];

/// GitHub Copilot's events that are Claude Code's under another name (the
/// rest differ only in case: `preToolUse`, `sessionStart`, …), so its
/// prompts and turns are the ledger's prompts and stops.
const COPILOT_EVENTS: [(&str, &str); 3] = [
    ("userPromptSubmitted", "UserPromptSubmit"),
    ("agentStop", "Stop"),
    ("subagentStop", "SubagentStop"),
];

/// Cursor's tools that are Claude Code's under another name: its shell
/// (`tool_input: {command, working_directory}`).
const CURSOR_TOOLS: [(&str, &str); 1] = [("Shell", "Bash")];

/// GitHub Copilot's tools that are Claude Code's under another name with
/// the same input: its shells (`toolArgs: {command, description}`).
/// Copilot's own table for its Claude-compatible (PascalCase) events names
/// `powershell` `Bash` too; a PowerShell command's changes are found as a
/// bash command's, by comparing the repository before and after it.
const COPILOT_TOOLS: [(&str, &str); 2] = [("bash", "Bash"), ("powershell", "Bash")];

/// GitHub Copilot's file tools, recorded as the Claude Code tool they are
/// though their input differs: the file is `toolArgs.path` (GitHub's own
/// example reads it so); the rest (`old_str`, `new_str`, `file_text`?) is
/// not documented, so the daemon counts their lines from the file as it
/// read it before and after the call, never from the arguments.
const COPILOT_FILE_TOOLS: [(&str, &str); 2] = [("create", "Write"), ("edit", "Edit")];

impl AgentKind {
    /// The Claude Code event an event of this agent is (`BeforeTool` of
    /// Gemini CLI is `PreToolUse`), so hookd records and snapshots it as
    /// that event; an event with no such counterpart keeps its own name.
    /// Codex CLI names its events as Claude Code does.
    #[must_use]
    pub fn claude_event(self, event: &str) -> &str {
        let table: &[(&str, &str)] = match self {
            Self::Gemini => &GEMINI_EVENTS,
            Self::Cursor => &CURSOR_EVENTS,
            Self::Copilot => &COPILOT_EVENTS,
            _ => &[],
        };
        table
            .iter()
            .find(|(own, _)| own.eq_ignore_ascii_case(event.trim()))
            .map_or(event, |(_, claude)| claude)
    }

    /// The Claude Code tool a tool of this agent is, when its input has
    /// the same fields (`write_file` of Gemini CLI is `Write`), so hookd
    /// finds and keeps its file change as that tool's; `None`: no such
    /// tool (Codex CLI's `Bash` is Claude Code's already; its
    /// `apply_patch` is a tool of its own, [`crate::snapshot::PATCH_TOOL`]).
    #[must_use]
    pub fn claude_tool(self, tool: &str) -> Option<&'static str> {
        let table: &[(&str, &str)] = match self {
            Self::Gemini => &GEMINI_TOOLS,
            Self::Cursor => &CURSOR_TOOLS,
            Self::Copilot => &COPILOT_TOOLS,
            _ => &[],
        };
        find_tool(table, tool)
    }

    /// The Claude Code tool a call of this agent's `tool` is recorded as:
    /// [`Self::claude_tool`], or a file tool whose input has other fields
    /// (GitHub Copilot's `create` is a `Write`, its `edit` an `Edit`: the
    /// daemon reads their file, `path`, before and after the call and counts
    /// the lines from that). Only for recording: a managed hook told such a
    /// call as a `Write` would look for a `file_path` it does not have.
    #[must_use]
    pub fn recorded_tool(self, tool: &str) -> Option<&'static str> {
        self.claude_tool(tool).or_else(|| match self {
            Self::Copilot => find_tool(&COPILOT_FILE_TOOLS, tool),
            _ => None,
        })
    }

    /// The tool a hook payload of this agent names: `tool_name`, else
    /// GitHub Copilot's camelCase `toolName`.
    #[must_use]
    pub fn tool_name(self, payload: &Value) -> Option<&str> {
        let name = |key| payload.get(key).and_then(Value::as_str);
        name("tool_name").or_else(|| match self {
            Self::Copilot => name("toolName"),
            _ => None,
        })
    }

    /// The tool input a hook payload of this agent holds: `tool_input`,
    /// else GitHub Copilot's camelCase `toolArgs`, which comes as an object
    /// or as a JSON-encoded string (then parsed; a string that is not JSON
    /// is kept as the string).
    #[must_use]
    pub fn tool_input(self, payload: &Value) -> Option<Cow<'_, Value>> {
        if let Some(input) = payload.get("tool_input") {
            return Some(Cow::Borrowed(input));
        }
        match (self, payload.get("toolArgs")?) {
            (Self::Copilot, Value::String(text)) => Some(Cow::Owned(
                serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.clone())),
            )),
            (Self::Copilot, args) => Some(Cow::Borrowed(args)),
            _ => None,
        }
    }
}

/// The Claude Code name `table` gives `tool` (exact, spaces trimmed).
fn find_tool(table: &[(&str, &'static str)], tool: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|(own, _)| *own == tool.trim())
        .map(|(_, claude)| *claude)
}

impl std::fmt::Display for AgentKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_round_trip_and_unknown_ones_are_refused() {
        for kind in AgentKind::ALL {
            assert_eq!(AgentKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(AgentKind::parse("Codex"), Some(AgentKind::Codex));
        assert_eq!(AgentKind::parse("windsurf"), None);
        assert_eq!(AgentKind::parse(""), None);
        assert_eq!(AgentKind::names(), "claude, codex, gemini, cursor, copilot");
    }

    #[test]
    fn gemini_events_and_tools_read_as_claude_codes() {
        let gemini = AgentKind::Gemini;
        assert_eq!(gemini.claude_event("BeforeTool"), "PreToolUse");
        assert_eq!(gemini.claude_event("AfterTool"), "PostToolUse");
        assert_eq!(gemini.claude_event("SessionStart"), "SessionStart");
        assert_eq!(gemini.claude_event("BeforeModel"), "BeforeModel");
        assert_eq!(gemini.claude_tool("replace"), Some("Edit"));
        assert_eq!(gemini.claude_tool("run_shell_command"), Some("Bash"));
        assert_eq!(gemini.claude_tool("read_file"), None);
        assert_eq!(
            AgentKind::Cursor.claude_event("beforeSubmitPrompt"),
            "UserPromptSubmit"
        );
        assert_eq!(AgentKind::Cursor.claude_event("preToolUse"), "preToolUse");
        let copilot = AgentKind::Copilot;
        assert_eq!(
            copilot.claude_event("userPromptSubmitted"),
            "UserPromptSubmit"
        );
        assert_eq!(copilot.claude_event("agentStop"), "Stop");
        assert_eq!(copilot.claude_event("subagentStop"), "SubagentStop");
        assert_eq!(copilot.claude_event("preToolUse"), "preToolUse");
        assert_eq!(AgentKind::Cursor.claude_tool("Shell"), Some("Bash"));
        // Other agents' names are left alone.
        assert_eq!(AgentKind::Codex.claude_event("BeforeTool"), "BeforeTool");
        assert_eq!(AgentKind::Claude.claude_tool("replace"), None);
    }

    #[test]
    fn copilot_shells_are_bash_and_its_file_tools_are_recorded_as_claude_codes() {
        let copilot = AgentKind::Copilot;
        assert_eq!(copilot.claude_tool("bash"), Some("Bash"));
        assert_eq!(copilot.claude_tool("powershell"), Some("Bash"));
        // Its file tools' input is not a Write's or an Edit's: managed
        // hooks are not told them so, only the recording is.
        assert_eq!(copilot.claude_tool("edit"), None);
        assert_eq!(copilot.recorded_tool("create"), Some("Write"));
        assert_eq!(copilot.recorded_tool("edit"), Some("Edit"));
        assert_eq!(copilot.recorded_tool("bash"), Some("Bash"));
        assert_eq!(copilot.recorded_tool("view"), None);
        assert_eq!(AgentKind::Gemini.recorded_tool("edit"), None);
        assert_eq!(AgentKind::Gemini.recorded_tool("write_file"), Some("Write"));
    }

    #[test]
    fn copilots_tool_and_arguments_are_read_from_its_camel_case_fields() {
        let as_string = json!({"sessionId": "s", "toolName": "bash",
            "toolArgs": "{\"command\":\"npm test\"}"});
        let as_object = json!({"sessionId": "s", "toolName": "edit",
            "toolArgs": {"path": "/w/a.rs"}});
        let copilot = AgentKind::Copilot;
        assert_eq!(copilot.tool_name(&as_string), Some("bash"));
        assert_eq!(
            copilot.tool_input(&as_string).as_deref(),
            Some(&json!({"command": "npm test"}))
        );
        assert_eq!(
            copilot.tool_input(&as_object).as_deref(),
            Some(&json!({"path": "/w/a.rs"}))
        );
        let not_json = json!({"toolArgs": "rm -rf"});
        assert_eq!(
            copilot.tool_input(&not_json).as_deref(),
            Some(&json!("rm -rf"))
        );
        // The snake_case fields win (Copilot's PascalCase events send them).
        let both = json!({"tool_name": "Bash", "toolName": "bash",
            "tool_input": {"command": "ls"}, "toolArgs": "{}"});
        assert_eq!(copilot.tool_name(&both), Some("Bash"));
        assert_eq!(
            copilot.tool_input(&both).as_deref(),
            Some(&json!({"command": "ls"}))
        );
        // Other agents' payloads are not read so.
        assert_eq!(AgentKind::Cursor.tool_name(&as_string), None);
        assert_eq!(AgentKind::Claude.tool_input(&as_object), None);
    }
}
