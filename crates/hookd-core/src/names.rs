//! Event and tool names as they arrive (`PostToolUse`, `post_tool_use`,
//! `write`) turned into the one spelling hookd stores.
//!
//! Hook types are stored in snake case (`post_tool_use`). Tool names keep the
//! agent's spelling (`Write`, `mcp__github__create_issue`); a lower-case name
//! from a config (`write`) is mapped back to the agent's spelling for the
//! tools hookd knows, so that one matcher passing `write` for
//! `Write|Edit|MultiEdit` still records the right tool.

/// Hook type of the event after a tool ran successfully.
pub const POST_TOOL_USE: &str = "post_tool_use";
/// Hook type of the event after a tool failed.
pub const POST_TOOL_USE_FAILURE: &str = "post_tool_use_failure";
/// Hook type of the event before a tool runs.
pub const PRE_TOOL_USE: &str = "pre_tool_use";

/// Tools whose successful use changes exactly the file named in their input.
/// The same list `hookd-emit` waits on ([`hookd_proto::snapshot`]).
pub const FILE_MUTATING_TOOLS: [&str; 4] = hookd_proto::snapshot::FILE_TOOLS;

/// The Bash tool, whose file changes hookd finds by comparing git status.
pub const BASH_TOOL: &str = hookd_proto::snapshot::SHELL_TOOL;

/// Tools with a canonical spelling, used to repair lower-cased names and
/// to show which tools a matcher would match.
pub const KNOWN_TOOLS: [&str; 14] = [
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "Bash",
    "PowerShell",
    "Read",
    "Glob",
    "Grep",
    "Task",
    "Agent",
    "WebFetch",
    "WebSearch",
    "TodoWrite",
];

/// Normalises a hook event name to snake case: `PostToolUse` → `post_tool_use`,
/// `post_tool_use` and `post-tool-use` → `post_tool_use`.
pub fn normalize_hook_type(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut previous_lower_or_digit = false;
    for ch in name.trim().chars() {
        if ch == '-' || ch == ' ' || ch == '.' || ch == '_' {
            if !out.ends_with('_') && !out.is_empty() {
                out.push('_');
            }
            previous_lower_or_digit = false;
        } else if ch.is_uppercase() {
            if previous_lower_or_digit && !out.ends_with('_') {
                out.push('_');
            }
            out.extend(ch.to_lowercase());
            previous_lower_or_digit = false;
        } else {
            out.push(ch);
            previous_lower_or_digit = ch.is_lowercase() || ch.is_ascii_digit();
        }
    }
    out.trim_end_matches('_').to_owned()
}

/// The agent's spelling of a tool name: known tools are matched case-insensitively
/// (`write` → `Write`); anything else is kept as given.
pub fn canonical_tool_name(name: &str) -> String {
    let trimmed = name.trim();
    KNOWN_TOOLS
        .iter()
        .find(|known| known.eq_ignore_ascii_case(trimmed))
        .map_or_else(|| trimmed.to_owned(), |known| (*known).to_owned())
}

/// The ledger's `event_type` for a mutation by `tool`: `tool.mutation.write`.
pub fn mutation_event_type(tool: &str) -> String {
    format!("tool.mutation.{}", tool.to_lowercase())
}

/// True for tools whose successful use writes the file in their input.
pub fn is_file_mutating_tool(tool: &str) -> bool {
    FILE_MUTATING_TOOLS.contains(&tool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_types_normalise_from_every_spelling() {
        for (input, expected) in [
            ("PostToolUse", "post_tool_use"),
            ("post_tool_use", "post_tool_use"),
            ("post-tool-use", "post_tool_use"),
            ("PreToolUse", "pre_tool_use"),
            ("SessionStart", "session_start"),
            ("UserPromptSubmit", "user_prompt_submit"),
            ("PostToolUseFailure", "post_tool_use_failure"),
            ("beforeShellExecution", "before_shell_execution"),
            ("  Stop ", "stop"),
        ] {
            assert_eq!(normalize_hook_type(input), expected, "{input}");
        }
    }

    #[test]
    fn tool_names_keep_the_agent_spelling() {
        assert_eq!(canonical_tool_name("write"), "Write");
        assert_eq!(canonical_tool_name("MULTIEDIT"), "MultiEdit");
        assert_eq!(canonical_tool_name("notebookedit"), "NotebookEdit");
        assert_eq!(
            canonical_tool_name("mcp__github__create_issue"),
            "mcp__github__create_issue"
        );
        assert_eq!(mutation_event_type("MultiEdit"), "tool.mutation.multiedit");
    }
}
