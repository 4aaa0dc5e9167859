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
}
