//! Which hook calls the daemon takes a snapshot for before it lets the
//! emitter go, so the agent cannot act first.
//!
//! A rewind needs what a file held before and after each change. The daemon
//! reads it as the hook call arrives: before and after a Bash command or a
//! Codex patch runs (the repository's state, compared) and before and after
//! a file tool (Write, Edit, MultiEdit, NotebookEdit) writes its file. `hookd-emit` waits, bounded,
//! until the daemon closes the connection for exactly these calls; both
//! sides take the rule from here, so they cannot disagree.

/// Tools whose one file the daemon reads before and after they run.
pub const FILE_TOOLS: [&str; 4] = ["Write", "Edit", "MultiEdit", "NotebookEdit"];

/// The shell tool (Claude Code's and Codex CLI's name for it).
pub const SHELL_TOOL: &str = "Bash";

/// Codex CLI's file-editing tool: one patch that may add, change, move and
/// delete several files (`*** Begin Patch` … `*** End Patch`).
pub const PATCH_TOOL: &str = "apply_patch";

/// Tools whose changes are found by comparing the repository's state
/// before and after they run: what they change is not one file named in
/// their input (a command's are unknown; a patch names several).
pub const REPOSITORY_TOOLS: [&str; 2] = [SHELL_TOOL, PATCH_TOOL];

/// Whether `tool` is one of [`REPOSITORY_TOOLS`] (any case).
#[must_use]
pub fn is_repository_tool(tool: &str) -> bool {
    REPOSITORY_TOOLS
        .iter()
        .any(|t| t.eq_ignore_ascii_case(tool))
}

/// When in a tool call the daemon takes its snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// Before the tool runs (`PreToolUse`).
    Before,
    /// After it ran (`PostToolUse`).
    After,
}

/// The snapshot the daemon takes for a call of `tool` at `event_type`, if
/// any. `event_type` may be spelled as agents send it (`PreToolUse`) or as
/// hookd stores it (`pre_tool_use`); tool names match case-insensitively,
/// as the daemon repairs a lower-cased name.
pub fn moment(event_type: &str, tool: &str) -> Option<Moment> {
    let event: String = event_type
        .chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect();
    let file_tool = FILE_TOOLS.iter().any(|t| t.eq_ignore_ascii_case(tool));
    match event.as_str() {
        "pretooluse" if file_tool || is_repository_tool(tool) => Some(Moment::Before),
        "posttooluse" if file_tool => Some(Moment::After),
        // The repository after a command or a patch, before the agent's
        // next call can change it too (a failed command may have written).
        "posttooluse" | "posttoolusefailure" if is_repository_tool(tool) => Some(Moment::After),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshots_are_taken_before_bash_and_around_file_tools_only() {
        assert_eq!(moment("PreToolUse", "Bash"), Some(Moment::Before));
        assert_eq!(moment("pre_tool_use", "bash"), Some(Moment::Before));
        // Codex's patches change the repository as a command does.
        assert_eq!(moment("PreToolUse", "apply_patch"), Some(Moment::Before));
        assert_eq!(moment("PostToolUse", "apply_patch"), Some(Moment::After));
        assert_eq!(moment("PreToolUse", "Write"), Some(Moment::Before));
        assert_eq!(moment("pre-tool-use", "multiedit"), Some(Moment::Before));
        assert_eq!(moment("PostToolUse", "Edit"), Some(Moment::After));
        assert_eq!(moment("post_tool_use", "NotebookEdit"), Some(Moment::After));
        // A command's after too: the agent's next call must not run first.
        assert_eq!(moment("PostToolUse", "Bash"), Some(Moment::After));
        assert_eq!(moment("post_tool_use_failure", "Bash"), Some(Moment::After));
        assert_eq!(moment("PostToolUseFailure", "Write"), None);
        assert_eq!(moment("PreToolUse", "Read"), None);
        assert_eq!(moment("UserPromptSubmit", "Write"), None);
    }
}
