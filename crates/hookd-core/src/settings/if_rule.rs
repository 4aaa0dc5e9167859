//! A handler's `if`: one permission rule (`Bash(git *)`, `Edit(src/**)`)
//! that a tool call must match for the hook to run.
//!
//! Claude Code evaluates it only on tool events (PreToolUse, PostToolUse,
//! PostToolUseFailure, PermissionRequest, PermissionDenied); on any other
//! event a hook with an `if` never runs. The rule is the permission rules'
//! syntax: `Tool` alone, or `Tool(specifier)`:
//! - `Bash(...)`: the command, or any part of a compound command (`&&`,
//!   `||`, `;`, `|`), matches the specifier, where `*` is any text and a
//!   trailing `:*` means "starts with";
//! - `Edit(...)` (any file-editing tool: Edit, Write, MultiEdit,
//!   NotebookEdit) and `Read(...)`: the file path matches a glob. Globs are
//!   depth-strict (since Claude Code 2.1.214): `*` stays within a directory,
//!   `**` crosses them, and a relative pattern is anchored at the session's
//!   directory (`dir/**` is only `<cwd>/dir`; write `**/dir/**` for any
//!   depth). `//abs/path` is absolute and `~/` is the home directory;
//! - any other tool: the name must be the tool's; a specifier hookd cannot
//!   judge lets the hook run, as the agent's best-effort match does.

use std::path::Path;

use globset::GlobBuilder;
use serde_json::Value;

use super::events::EventSpec;

/// Events on which Claude Code evaluates `if`.
const IF_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "PermissionDenied",
];

/// Tools an `Edit(...)` rule covers.
const EDIT_TOOLS: &[&str] = &["Edit", "Write", "MultiEdit", "NotebookEdit"];

/// Whether a hook whose handler has `if: rule` runs for `event` with
/// `payload`, `home` being the user's home for `~/` patterns.
pub fn allows(rule: &str, event: &EventSpec, payload: &Value, home: Option<&Path>) -> bool {
    if !IF_EVENTS.contains(&event.name) {
        return false;
    }
    let rule = rule.trim();
    let (tool, specifier) = match rule.split_once('(') {
        Some((tool, rest)) => match rest.strip_suffix(')') {
            Some(spec) => (tool.trim(), Some(spec.trim())),
            // Not a rule hookd can read: best effort, the hook runs.
            None => return true,
        },
        None => (rule, None),
    };
    let Some(called) = payload.get("tool_name").and_then(Value::as_str) else {
        return true;
    };
    let same_tool = called == tool || (tool == "Edit" && EDIT_TOOLS.contains(&called));
    if !same_tool {
        return false;
    }
    let Some(specifier) = specifier.filter(|s| !s.is_empty() && *s != "*") else {
        return true;
    };
    let input = payload.get("tool_input");
    match tool {
        "Bash" => {
            let Some(command) = input.and_then(|i| i.get("command")).and_then(Value::as_str) else {
                return true;
            };
            bash_matches(specifier, command)
        }
        "Edit" | "Read" => {
            let path = input
                .and_then(|i| i.get("file_path").or_else(|| i.get("notebook_path")))
                .and_then(Value::as_str);
            let cwd = payload.get("cwd").and_then(Value::as_str);
            match (path, cwd) {
                (Some(path), Some(cwd)) => path_matches(specifier, path, Path::new(cwd), home),
                _ => true,
            }
        }
        _ => true,
    }
}

/// A Bash specifier against a command or any of its parts.
fn bash_matches(specifier: &str, command: &str) -> bool {
    let parts = command
        .split(['\n', ';', '|', '&'])
        .map(str::trim)
        .filter(|p| !p.is_empty());
    let wanted = |part: &str| match specifier.strip_suffix(":*") {
        Some(prefix) => part.starts_with(prefix.trim_end()),
        None => wildcard(specifier, part),
    };
    std::iter::once(command.trim()).chain(parts).any(wanted)
}

/// `*` is any text (spaces and slashes too); everything else literal.
fn wildcard(pattern: &str, text: &str) -> bool {
    let pieces: Vec<&str> = pattern.split('*').collect();
    if pieces.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !text.starts_with(first) || !text[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    true
}

/// A depth-strict path glob against an absolute `path`.
fn path_matches(specifier: &str, path: &str, cwd: &Path, home: Option<&Path>) -> bool {
    let pattern = if let Some(abs) = specifier.strip_prefix("//") {
        format!("/{abs}")
    } else if let Some(rest) = specifier.strip_prefix("~/") {
        match home {
            Some(home) => format!("{}/{rest}", home.display()),
            None => return true,
        }
    } else {
        let rel = specifier.trim_start_matches("./").trim_start_matches('/');
        format!("{}/{rel}", cwd.display())
    };
    let Ok(glob) = GlobBuilder::new(&pattern).literal_separator(true).build() else {
        return true;
    };
    glob.compile_matcher().is_match(path)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::settings::events::lookup;

    fn call(tool: &str, input: &Value) -> Value {
        json!({"tool_name": tool, "tool_input": input, "cwd": "/work/app"})
    }

    fn pre(rule: &str, payload: &Value) -> bool {
        allows(
            rule,
            lookup("PreToolUse").unwrap(),
            payload,
            Some(Path::new("/home/u")),
        )
    }

    #[test]
    fn bash_rules_match_the_command_or_a_part_of_it() {
        let git = call("Bash", &json!({"command": "cd src && git push --force"}));
        assert!(pre("Bash(git *)", &git));
        assert!(pre("Bash(git push:*)", &git));
        assert!(pre("Bash", &git));
        assert!(!pre("Bash(npm *)", &git));
        assert!(!pre("Edit", &git));
        assert!(pre("Bash(cd src && git push --force)", &git));
    }

    #[test]
    fn path_globs_are_depth_strict_and_anchored_at_the_session_directory() {
        let deep = call("Write", &json!({"file_path": "/work/app/src/ui/a.ts"}));
        let top = call("Edit", &json!({"file_path": "/work/app/a.ts"}));
        assert!(pre("Edit(*.ts)", &top));
        assert!(!pre("Edit(*.ts)", &deep), "* stays within a directory");
        assert!(pre("Edit(**/*.ts)", &deep));
        assert!(pre("Edit(src/**)", &deep));
        assert!(!pre("Edit(ui/**)", &deep), "dir/** is only <cwd>/dir");
        assert!(pre("Edit(**/ui/**)", &deep));
        assert!(pre("Edit(//work/app/src/**)", &deep));
        let secret = call("Read", &json!({"file_path": "/home/u/.ssh/id_ed25519"}));
        assert!(pre("Read(~/.ssh/**)", &secret));
        assert!(!pre("Edit(~/.ssh/**)", &secret));
    }

    #[test]
    fn outside_tool_events_a_hook_with_if_never_runs() {
        let stop = json!({"cwd": "/work/app"});
        assert!(!allows("Bash", lookup("Stop").unwrap(), &stop, None));
        // A rule hookd cannot read lets the hook run.
        assert!(pre("Bash(git *", &call("Bash", &json!({"command": "ls"}))));
        assert!(pre(
            "WebFetch(domain:example.com)",
            &call("WebFetch", &json!({"url": "x"}))
        ));
    }
}
