//! Which coding agent an event came from.
//!
//! hookd records the hooks of several agents in one ledger (Claude Code,
//! Codex CLI, Gemini CLI, Cursor, GitHub Copilot). Each calls `hookd-emit`
//! from its own hook settings, and `hookd-emit --agent NAME` names the
//! agent in the envelope ([`crate::Envelope::agent_kind`]) so the daemon
//! reads the payload in that agent's shape and the ledger keeps whose
//! event it was. An envelope without it is Claude Code's: every emitter
//! before this field, and the default `hookd connect`.

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

/// Cursor's tools that are Claude Code's under another name: its shell
/// (`tool_input: {command, working_directory}`).
const CURSOR_TOOLS: [(&str, &str); 1] = [("Shell", "Bash")];

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
            _ => &[],
        };
        table
            .iter()
            .find(|(own, _)| *own == tool.trim())
            .map(|(_, claude)| *claude)
    }
}

impl std::fmt::Display for AgentKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(AgentKind::Cursor.claude_tool("Shell"), Some("Bash"));
        // Other agents' names are left alone.
        assert_eq!(AgentKind::Codex.claude_event("BeforeTool"), "BeforeTool");
        assert_eq!(AgentKind::Claude.claude_tool("replace"), None);
    }
}
