//! Reading what hookd needs out of an envelope and its free-form payload:
//! names, agent, session, file touched, lines written (`lines_changed`,
//! newlines, the stand-in's rule) and lines added and removed (the diff
//! rule of [`crate::diff`], counted only where a mutation row is made).
//!
//! The payload is whatever the agent sent, so every field is optional and
//! nothing here can fail: absent or oddly-typed fields give `None`.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use hookd_proto::{AgentKind, standin, surrogates};
use serde_json::Value;

use crate::names::{self, canonical_tool_name, is_file_mutating_tool, normalize_hook_type};
use crate::project::{clean_path, is_foreign_path, stored_path};
use crate::record::{Flag, HookEvent, MutationRecord, RepoFacts};
use crate::{Envelope, diff};

/// Turns a validated envelope into a [`HookEvent`].
///
/// `event_timestamp` must already be in the stored format (the server
/// validates it before anything else).
pub fn hook_event(
    envelope: &Envelope,
    event_id: String,
    event_timestamp: String,
    received_at: String,
) -> HookEvent {
    let side = payload_side(envelope);
    let payload = side.payload.as_ref();
    let (agent, agent_kind) = agent_kind(envelope);
    // Another agent's events and tools are recorded as the Claude Code ones
    // they are (Gemini CLI's `AfterTool` of `write_file` is a `PostToolUse`
    // of `Write`), so its changes are found and kept alike; the payload
    // keeps the agent's own names.
    // Cursor's `afterFileEdit` is an edit made: its payload holds the file
    // and its `edits` (`old_string`, `new_string`) as a MultiEdit's input
    // does, so it is recorded as a `PostToolUse` of `MultiEdit` (here only:
    // managed hooks are not told it as a tool event).
    let cursor_edit = agent == AgentKind::Cursor
        && envelope
            .event_type
            .trim()
            .eq_ignore_ascii_case(CURSOR_FILE_EDIT);
    // GitHub Copilot's camelCase payloads name the tool `toolName` and its
    // input `toolArgs` (a JSON string or an object); its `create` and
    // `edit` are recorded as a Write and an Edit of `toolArgs.path`
    // ([`AgentKind::recorded_tool`]).
    let tool_name = agent
        .tool_name(payload)
        .or(envelope.tool_name.as_deref())
        .or(cursor_edit.then_some(CURSOR_EDIT_TOOL))
        .filter(|name| !name.trim().is_empty())
        .map(|name| {
            agent
                .recorded_tool(name)
                .map_or_else(|| canonical_tool_name(name), str::to_owned)
        });
    // Cursor names its session `conversation_id` on every event but its
    // session's start and end; GitHub Copilot's camelCase payloads name it
    // `sessionId`.
    let session_id = str_field(payload, "session_id")
        .or_else(|| match agent {
            AgentKind::Cursor => str_field(payload, "conversation_id"),
            AgentKind::Copilot => str_field(payload, "sessionId"),
            _ => None,
        })
        .map(str::to_owned);
    let agent_id = envelope
        .agent_id
        .as_deref()
        .filter(|a| !a.is_empty())
        .or_else(|| str_field(payload, "agent_id"))
        .or(session_id.as_deref())
        .unwrap_or("unknown")
        .to_owned();
    let tool_input = if cursor_edit {
        Some(Cow::Borrowed(payload))
    } else {
        agent.tool_input(payload)
    };
    let tool_input = tool_input.as_deref();
    // Cursor's events outside a tool call carry no `cwd`, only the
    // workspace's roots: the first is where the agent works.
    let cwd = str_field(payload, "cwd")
        .or(envelope.cwd.as_deref())
        .or_else(|| {
            (agent == AgentKind::Cursor)
                .then(|| payload.get("workspace_roots")?.get(0)?.as_str())
                .flatten()
        })
        .filter(|c| !c.is_empty())
        .map(PathBuf::from);
    let hook_type = if cursor_edit {
        names::POST_TOOL_USE.to_owned()
    } else {
        normalize_hook_type(agent.claude_event(&envelope.event_type))
    };
    // Diffing costs more than counting newlines: only the events that make
    // a mutation row (see `direct_mutation`) are diffed. Copilot's file
    // tools' arguments beyond `path` are not documented: their lines are
    // counted from the file before and after the call (`daemon::ingest`).
    let makes_mutation = hook_type == names::POST_TOOL_USE
        && agent != AgentKind::Copilot
        && tool_name.as_deref().is_some_and(is_file_mutating_tool);
    let counts = if makes_mutation {
        tool_input
            .and_then(|input| diff::tool_input_counts(input, diff::reported_previous(payload)))
    } else {
        None
    };
    let tool_use_id = str_field(payload, "tool_use_id")
        .map(str::to_owned)
        .or_else(|| derived_tool_use_id(agent, &hook_type, payload));
    HookEvent {
        event_id,
        hook_type,
        agent_id,
        session_id,
        tool_use_id,
        file_path: tool_input
            .and_then(file_path)
            .map(|p| absolutize(&p, cwd.as_deref())),
        lines_changed: tool_input
            .filter(|_| agent != AgentKind::Copilot)
            .and_then(lines_changed)
            .or(side.kept_lines),
        lines_added: counts.map(|c| i64::from(c.added)),
        lines_removed: counts.map(|c| i64::from(c.removed)),
        command: tool_input
            .and_then(|input| str_field(input, "command"))
            .map(str::to_owned),
        cwd,
        tool_name,
        payload_valid: side.valid,
        raw_payload: payload.to_string(),
        event_timestamp,
        received_at,
        source_pid: envelope.pid,
        flags: side.flags,
        agent_kind,
    }
}

/// Cursor's event after an agent edits a file.
const CURSOR_FILE_EDIT: &str = "afterFileEdit";

/// The Claude Code tool whose input a Cursor `afterFileEdit` payload has
/// (`file_path`, `edits`).
const CURSOR_EDIT_TOOL: &str = "MultiEdit";

/// The id of a tool call whose agent gives none (Gemini CLI, GitHub
/// Copilot): its session, tool and input, hashed. The call's before and
/// after events carry the same three, so they pair as Claude Code's
/// `tool_use_id` pairs them (for the repository's state around a command,
/// a file's contents around an edit); an identical call repeated later
/// pairs with its own events, as each ends before the next begins.
/// Copilot's input is hashed as parsed ([`AgentKind::tool_input`]), so a
/// `toolArgs` sent as a string before and as an object after still pairs.
fn derived_tool_use_id(agent: AgentKind, hook_type: &str, payload: &Value) -> Option<String> {
    use sha2::{Digest, Sha256};
    let session = match agent {
        AgentKind::Gemini => str_field(payload, "session_id"),
        AgentKind::Copilot => {
            str_field(payload, "session_id").or_else(|| str_field(payload, "sessionId"))
        }
        _ => return None,
    };
    if !matches!(
        hook_type,
        names::PRE_TOOL_USE | names::POST_TOOL_USE | names::POST_TOOL_USE_FAILURE
    ) {
        return None;
    }
    let mut hash = Sha256::new();
    for part in [
        session.unwrap_or_default(),
        agent.tool_name(payload)?,
        &agent.tool_input(payload)?.to_string(),
    ] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    let hex: String = hash.finalize()[..12]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Some(format!("{}-{hex}", agent.as_str()))
}

/// The envelope's agent, whose payload shape is read, and the name stored
/// for it ([`hookd_proto::AgentKind`]'s); Claude Code when it names none. A
/// name hookd does not know (a newer emitter's) is read in Claude Code's
/// shape and kept when it reads as a name, else stored as `unknown`: never
/// guessed.
fn agent_kind(envelope: &Envelope) -> (AgentKind, String) {
    let Some(name) = envelope.agent_kind.as_deref() else {
        return (AgentKind::Claude, crate::record::claude());
    };
    if let Some(kind) = AgentKind::parse(name) {
        return (kind, kind.as_str().to_owned());
    }
    let plain = !name.is_empty()
        && name.len() <= 32
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    let stored = if plain { name } else { "unknown" };
    (AgentKind::Claude, stored.to_owned())
}

/// The payload as it is recorded, with what the emitter or this side had to do to it.
struct PayloadSide<'a> {
    payload: Cow<'a, Value>,
    valid: bool,
    flags: Vec<Flag>,
    /// The line count a stand-in kept from the payload it replaced.
    kept_lines: Option<i64>,
}

/// Reads the envelope's payload flags: a payload the emitter repaired
/// (lone surrogates) or replaced by its stand-in (too large) is flagged;
/// raw text an older emitter could not parse is repaired here when
/// replacing lone surrogates makes it JSON.
fn payload_side(envelope: &Envelope) -> PayloadSide<'_> {
    let mut side = PayloadSide {
        payload: Cow::Borrowed(&envelope.payload),
        valid: !envelope.payload_invalid,
        flags: Vec::new(),
        kept_lines: None,
    };
    if envelope.payload_repaired {
        side.flags.push(Flag::PayloadRepaired);
    }
    if envelope.payload_summarised {
        side.flags.push(Flag::PayloadSummarised);
        side.kept_lines = standin::kept_lines_changed(&envelope.payload);
    } else if let (false, true, Value::String(text)) = (
        envelope.payload_repaired,
        envelope.payload_invalid,
        &envelope.payload,
    ) && let Cow::Owned(repaired) = surrogates::repair_lone_surrogates(text.as_bytes())
        && let Ok(value) = serde_json::from_slice::<Value>(&repaired)
    {
        side.payload = Cow::Owned(value);
        side.valid = true;
        side.flags.push(Flag::PayloadRepaired);
    }
    side
}

/// The directory whose repository an event belongs to: its `cwd`, else the
/// directory of the file it touched. Only an absolute path of this OS can
/// name one: a relative or Windows path would be looked up from the
/// daemon's own directory.
pub fn event_dir(event: &HookEvent) -> Option<PathBuf> {
    let local = |dir: &Path| dir.is_absolute() && !is_foreign_path(dir);
    match event.cwd.as_deref() {
        Some(cwd) => local(cwd).then(|| cwd.to_path_buf()),
        None => event
            .file_path
            .as_deref()
            .filter(|path| local(path))
            .and_then(Path::parent)
            .map(Path::to_path_buf),
    }
}

/// The mutation a Write/Edit/MultiEdit/NotebookEdit event records, if it is one.
///
/// Only `post_tool_use` counts: before the tool ran nothing changed, and a
/// failed tool changed nothing.
pub fn direct_mutation(event: &HookEvent, repo: &RepoFacts) -> Option<MutationRecord> {
    let tool = event.tool_name.as_deref()?;
    if event.hook_type != names::POST_TOOL_USE || !is_file_mutating_tool(tool) {
        return None;
    }
    // Cursor's edits are recorded from its `afterFileEdit` (a MultiEdit of
    // the file); the `postToolUse` of its own `Write` tool is the same edit
    // told again, which would be a second row.
    if event.agent_kind == AgentKind::Cursor.as_str() && tool != CURSOR_EDIT_TOOL {
        return None;
    }
    let file_path = event
        .file_path
        .as_deref()
        .map(|p| stored_path(p, repo.git_root.as_deref()));
    let mut record =
        MutationRecord::for_event(event, repo, tool, 0, file_path, event.lines_changed);
    record.lines_added = event.lines_added;
    record.lines_removed = event.lines_removed;
    Some(record)
}

fn file_path(tool_input: &Value) -> Option<PathBuf> {
    ["file_path", "path", "notebook_path"]
        .iter()
        .find_map(|key| str_field(tool_input, key))
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
}

/// The file path as stored with the event: a relative path joined onto the
/// event's directory, then cleaned lexically ([`clean_path`]), so one file
/// has one spelling and a `..` that leaves the repository shows. A path
/// absolute on another OS ([`is_foreign_path`]) is kept as given: joined
/// onto a Unix directory it would name a file that does not exist.
fn absolutize(path: &Path, cwd: Option<&Path>) -> PathBuf {
    if is_foreign_path(path) {
        return path.to_path_buf();
    }
    match cwd {
        Some(cwd) if path.is_relative() && !is_foreign_path(cwd) => clean_path(&cwd.join(path)),
        Some(_) if path.is_relative() => path.to_path_buf(),
        _ => clean_path(path),
    }
}

fn lines_changed(tool_input: &Value) -> Option<i64> {
    if let Some(edits) = tool_input.get("edits").and_then(Value::as_array) {
        let total = edits
            .iter()
            .filter_map(|edit| str_field(edit, "new_string"))
            .map(count_newlines)
            .sum();
        return Some(total);
    }
    ["new_string", "content", "new_source"]
        .iter()
        .find_map(|key| str_field(tool_input, key))
        .map(count_newlines)
}

fn count_newlines(text: &str) -> i64 {
    i64::try_from(text.bytes().filter(|b| *b == b'\n').count()).unwrap_or(i64::MAX)
}

fn str_field<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn envelope(event_type: &str, tool: Option<&str>, payload: Value) -> Envelope {
        Envelope::new(
            event_type,
            tool.map(Into::into),
            payload,
            "2026-11-21T10:00:00.000Z",
            Some(7),
        )
    }

    fn event(envelope: &Envelope) -> HookEvent {
        hook_event(
            envelope,
            "id".into(),
            envelope.timestamp.clone(),
            "now".into(),
        )
    }

    #[test]
    fn a_copilot_session_is_its_session_id() {
        let mut e = envelope(
            "sessionStart",
            None,
            json!({"sessionId": "s-9", "cwd": "/w"}),
        );
        e.agent_kind = Some("copilot".into());
        assert_eq!(event(&e).session_id.as_deref(), Some("s-9"));
        assert_eq!(event(&e).agent_id, "s-9");
        // Another agent's payload is not read so.
        e.agent_kind = Some("codex".into());
        assert_eq!(event(&e).session_id, None);
    }

    /// A Copilot camelCase tool event of `tool` with `args` as its `toolArgs`.
    fn copilot(event_type: &str, tool: &str, args: &Value) -> HookEvent {
        let mut payload = json!({"sessionId": "s-9", "timestamp": 1_704_614_600_000_i64,
            "cwd": "/w", "toolName": tool, "toolArgs": args});
        if event_type == "postToolUse" {
            payload["toolResult"] = json!({"resultType": "success", "textResultForLlm": "ok"});
        }
        let mut e = envelope(event_type, None, payload);
        e.agent_kind = Some("copilot".into());
        event(&e)
    }

    #[test]
    fn a_copilot_shell_call_is_a_bash_call_paired_by_its_session_tool_and_arguments() {
        let args = json!({"command": "echo hi > out.txt", "description": "write"});
        let pre = copilot("preToolUse", "bash", &json!(args.to_string()));
        let post = copilot("postToolUse", "bash", &args);
        for e in [&pre, &post] {
            assert_eq!(e.tool_name.as_deref(), Some("Bash"));
            assert_eq!(e.command.as_deref(), Some("echo hi > out.txt"));
            assert_eq!(e.session_id.as_deref(), Some("s-9"));
            assert_eq!(e.cwd.as_deref(), Some(Path::new("/w")));
            assert!(
                e.tool_use_id.as_deref().unwrap().starts_with("copilot-"),
                "{:?}",
                e.tool_use_id
            );
        }
        assert_eq!(
            (pre.hook_type.as_str(), post.hook_type.as_str()),
            ("pre_tool_use", "post_tool_use")
        );
        // toolArgs as a string before and an object after: the same call.
        assert_eq!(pre.tool_use_id, post.tool_use_id);
        let failed = copilot("postToolUseFailure", "bash", &args);
        assert_eq!(failed.tool_use_id, pre.tool_use_id);
        // Another command is another call.
        let other = copilot("postToolUse", "bash", &json!({"command": "ls"}));
        assert_ne!(other.tool_use_id, pre.tool_use_id);
        let powershell = copilot(
            "preToolUse",
            "powershell",
            &json!({"command": "Get-ChildItem"}),
        );
        assert_eq!(powershell.tool_name.as_deref(), Some("Bash"));
        assert_eq!(powershell.command.as_deref(), Some("Get-ChildItem"));
        // Outside a tool call there is no call to name.
        assert_eq!(copilot("sessionStart", "bash", &args).tool_use_id, None);
    }

    #[test]
    fn copilot_creates_and_edits_are_writes_and_edits_of_their_path_counted_later() {
        for args in [
            json!({"path": "src/a.rs", "old_str": "a", "new_str": "b\nc"}),
            json!("{\"path\":\"src/a.rs\",\"old_str\":\"a\",\"new_str\":\"b\\nc\"}"),
        ] {
            let edit = copilot("postToolUse", "edit", &args);
            assert_eq!(edit.tool_name.as_deref(), Some("Edit"), "{args}");
            assert_eq!(edit.file_path.as_deref(), Some(Path::new("/w/src/a.rs")));
            assert_eq!(edit.session_id.as_deref(), Some("s-9"));
            assert!(edit.tool_use_id.is_some());
            // Not from the undocumented arguments: from the file read
            // before and after (`daemon::ingest`).
            assert_eq!((edit.lines_added, edit.lines_removed), (None, None));
            assert_eq!(edit.lines_changed, None);
            let m = direct_mutation(&edit, &repo("/w")).unwrap();
            assert_eq!(
                (m.tool_name.as_str(), m.file_path.as_deref()),
                ("Edit", Some("src/a.rs"))
            );
            let pre = copilot("preToolUse", "edit", &args);
            assert_eq!(pre.tool_use_id, edit.tool_use_id);
        }
        let create = copilot(
            "postToolUse",
            "create",
            &json!({"path": "/w/new.txt", "file_text": "x\n"}),
        );
        assert_eq!(create.tool_name.as_deref(), Some("Write"));
        assert_eq!(create.file_path.as_deref(), Some(Path::new("/w/new.txt")));
        assert_eq!(
            direct_mutation(&create, &repo("/w")).unwrap().event_type,
            "tool.mutation.write"
        );
        // Copilot's other tools change nothing.
        let view = copilot("postToolUse", "view", &json!({"path": "/w/a.rs"}));
        assert_eq!(view.tool_name.as_deref(), Some("view"));
        assert!(direct_mutation(&view, &repo("/w")).is_none());
    }

    #[test]
    fn a_cursor_file_edit_is_a_multiedit_made_in_its_workspace() {
        let payload = json!({"conversation_id": "c-1", "generation_id": "g-1",
            "hook_event_name": "afterFileEdit", "workspace_roots": ["/w"],
            "file_path": "/w/src/lib.rs",
            "edits": [{"old_string": "a\n", "new_string": "b\nc\n"}]});
        let mut e = envelope("afterFileEdit", None, payload);
        e.agent_kind = Some("cursor".into());
        let ev = event(&e);
        assert_eq!(ev.hook_type, names::POST_TOOL_USE);
        assert_eq!(ev.tool_name.as_deref(), Some("MultiEdit"));
        assert_eq!(ev.session_id.as_deref(), Some("c-1"));
        assert_eq!(ev.file_path.as_deref(), Some(Path::new("/w/src/lib.rs")));
        assert_eq!(ev.cwd.as_deref(), Some(Path::new("/w")));
        assert_eq!((ev.lines_added, ev.lines_removed), (Some(2), Some(1)));
        assert!(direct_mutation(&ev, &repo("/w")).is_some());
        // The postToolUse of Cursor's own Write tool is that edit again: no
        // second row.
        let mut write = envelope(
            "postToolUse",
            Some("Write"),
            json!({"conversation_id": "c-1", "hook_event_name": "postToolUse", "tool_name": "Write",
                "tool_input": {"file_path": "/w/src/lib.rs", "content": "b\nc\n"}, "cwd": "/w"}),
        );
        write.agent_kind = Some("cursor".into());
        let written = event(&write);
        assert_eq!(written.tool_name.as_deref(), Some("Write"));
        assert!(direct_mutation(&written, &repo("/w")).is_none());
        write.agent_kind = None;
        assert!(
            direct_mutation(&event(&write), &repo("/w")).is_some(),
            "Claude Code's Write is one"
        );
        // The same event name from another agent is not read so.
        e.agent_kind = Some("gemini".into());
        let other = event(&e);
        assert_eq!(other.hook_type, "after_file_edit");
        assert_eq!(other.file_path, None);
    }

    #[test]
    fn the_agent_is_the_envelopes_and_claude_code_by_default() {
        let mut e = envelope("PostToolUse", None, json!({}));
        assert_eq!(event(&e).agent_kind, "claude");
        for (given, stored) in [
            ("codex", "codex"),
            ("Gemini", "gemini"),
            ("windsurf-2", "windsurf-2"),
            ("Not A Name!", "unknown"),
            ("", "unknown"),
        ] {
            e.agent_kind = Some(given.into());
            assert_eq!(event(&e).agent_kind, stored, "{given:?}");
        }
    }

    fn repo(root: &str) -> RepoFacts {
        RepoFacts {
            git_root: Some(PathBuf::from(root)),
            branch: "main".into(),
            head_sha: "abc".into(),
            remote_url: None,
        }
    }

    #[test]
    fn payload_tool_name_wins_over_the_envelope() {
        let e = event(&envelope(
            "PostToolUse",
            Some("write"),
            json!({"tool_name": "Edit"}),
        ));
        assert_eq!(e.tool_name.as_deref(), Some("Edit"));
        assert_eq!(e.hook_type, "post_tool_use");
        let e = event(&envelope("post_tool_use", Some("write"), json!({})));
        assert_eq!(e.tool_name.as_deref(), Some("Write"));
    }

    #[test]
    fn agent_id_falls_back_in_order() {
        let mut env = envelope("x", None, json!({"agent_id": "sub", "session_id": "s"}));
        env.agent_id = Some("env".into());
        assert_eq!(event(&env).agent_id, "env");
        env.agent_id = None;
        assert_eq!(event(&env).agent_id, "sub");
        env.payload = json!({"session_id": "s"});
        assert_eq!(event(&env).agent_id, "s");
        env.payload = json!({});
        assert_eq!(event(&env).agent_id, "unknown");
    }

    #[test]
    fn file_path_sources_and_relative_storage() {
        for key in ["file_path", "path", "notebook_path"] {
            let e = event(&envelope(
                "post_tool_use",
                Some("Write"),
                json!({"tool_input": {key: "/repo/src/main.rs"}}),
            ));
            assert_eq!(
                e.file_path,
                Some(PathBuf::from("/repo/src/main.rs")),
                "{key}"
            );
            let m = direct_mutation(&e, &repo("/repo")).unwrap();
            assert_eq!(m.file_path.as_deref(), Some("src/main.rs"));
            assert_eq!(m.file_ext.as_deref(), Some("rs"));
            assert_eq!(m.event_type, "tool.mutation.write");
        }
        let outside = stored_path(Path::new("/elsewhere/a.txt"), Some(Path::new("/repo")));
        assert_eq!(outside, "/elsewhere/a.txt");
    }

    #[test]
    fn relative_file_paths_are_resolved_against_cwd() {
        let e = event(&envelope(
            "post_tool_use",
            Some("Write"),
            json!({"cwd": "/repo/sub", "tool_input": {"file_path": "x.py"}}),
        ));
        assert_eq!(e.file_path, Some(PathBuf::from("/repo/sub/x.py")));
    }

    #[test]
    fn file_paths_are_cleaned_and_foreign_ones_kept_as_given() {
        let cases = [
            ("./src//b.rs", "/repo/src/b.rs"),
            ("../outside/x.rs", "/outside/x.rs"),
            ("/repo/./src/../a.rs", "/repo/a.rs"),
            (r"C:\Users\me\a.rs", r"C:\Users\me\a.rs"),
            (r"\\wsl$\Ubuntu\a.rs", r"\\wsl$\Ubuntu\a.rs"),
        ];
        for (given, stored) in cases {
            let e = event(&envelope(
                "post_tool_use",
                Some("Write"),
                json!({"cwd": "/repo", "tool_input": {"file_path": given}}),
            ));
            assert_eq!(e.file_path, Some(PathBuf::from(stored)), "{given}");
        }
        // A foreign file path names no directory to look a repository up in.
        let e = event(&envelope(
            "post_tool_use",
            Some("Write"),
            json!({"tool_input": {"file_path": "C:/x/a.rs"}}),
        ));
        assert_eq!(event_dir(&e), None);
    }

    #[test]
    fn lines_changed_counts_newlines_per_tool() {
        let write = json!({"tool_input": {"content": "a\nb\nc\n"}});
        assert_eq!(
            event(&envelope("post_tool_use", Some("Write"), write)).lines_changed,
            Some(3)
        );
        let edit = json!({"tool_input": {"old_string": "x", "new_string": "y\nz\n"}});
        assert_eq!(
            event(&envelope("post_tool_use", Some("Edit"), edit)).lines_changed,
            Some(2)
        );
        let multi =
            json!({"tool_input": {"edits": [{"new_string": "a\n"}, {"new_string": "b\nc\n"}]}});
        assert_eq!(
            event(&envelope("post_tool_use", Some("MultiEdit"), multi)).lines_changed,
            Some(3)
        );
        let nb = json!({"tool_input": {"notebook_path": "/r/n.ipynb", "new_source": "x\n"}});
        assert_eq!(
            event(&envelope("post_tool_use", Some("NotebookEdit"), nb)).lines_changed,
            Some(1)
        );
    }

    /// `(lines_added, lines_removed)` of the mutation a post_tool_use of `tool` makes.
    fn counts(tool: &str, input: &Value) -> (Option<i64>, Option<i64>) {
        let payload = json!({"tool_input": input});
        let e = event(&envelope("post_tool_use", Some(tool), payload));
        let m = direct_mutation(&e, &repo("/repo")).unwrap();
        (m.lines_added, m.lines_removed)
    }

    #[test]
    fn mutations_count_lines_added_and_removed_by_the_diff_rule() {
        let one_line = json!({"file_path": "/repo/a.rs", "old_string": "let a = 1;", "new_string": "let a = 2;"});
        assert_eq!(
            counts("Edit", &one_line),
            (Some(1), Some(1)),
            "a one-line Edit"
        );
        let new_file = json!({"file_path": "/repo/n.txt", "content": "a\nb\nc\n"});
        assert_eq!(
            counts("Write", &new_file),
            (Some(3), Some(0)),
            "a new 3-line file"
        );
        let multi = json!({"file_path": "/repo/a.rs", "edits": [
            {"old_string": "a", "new_string": "b"},
            {"old_string": "c\nd", "new_string": "c\nd\ne\nf"},
        ]});
        assert_eq!(
            counts("MultiEdit", &multi),
            (Some(3), Some(1)),
            "MultiEdit sums"
        );
        let cell = json!({"notebook_path": "/repo/n.ipynb", "new_source": "x = 1\ny = 2\n"});
        assert_eq!(counts("NotebookEdit", &cell), (Some(2), Some(0)));

        // Only the events that make a mutation are diffed.
        let pre = event(&envelope(
            "pre_tool_use",
            Some("Edit"),
            json!({"tool_input": {"old_string": "a", "new_string": "b"}}),
        ));
        assert_eq!((pre.lines_added, pre.lines_removed), (None, None));
    }

    #[test]
    fn only_successful_file_tools_are_direct_mutations() {
        let input = json!({"tool_input": {"file_path": "/repo/a.rs", "content": ""}});
        let pre = event(&envelope("pre_tool_use", Some("Write"), input.clone()));
        assert!(direct_mutation(&pre, &repo("/repo")).is_none());
        let failed = event(&envelope(
            "post_tool_use_failure",
            Some("Write"),
            input.clone(),
        ));
        assert!(direct_mutation(&failed, &repo("/repo")).is_none());
        let read = event(&envelope("post_tool_use", Some("Read"), input));
        assert!(direct_mutation(&read, &repo("/repo")).is_none());
    }

    #[test]
    fn a_stand_in_gives_its_kept_path_and_line_count_and_is_flagged() {
        let mut env = envelope(
            "post_tool_use",
            Some("Write"),
            json!({"hookd_error": "payload too large", "bytes": 9_000_000, "tool_use_id": "t",
                   "tool_input": {"file_path": "/repo/big.txt"}, "lines_changed": 42}),
        );
        env.payload_invalid = true;
        env.payload_summarised = true;
        let e = event(&env);
        assert_eq!(e.flags, [Flag::PayloadSummarised]);
        assert!(!e.payload_valid);
        assert_eq!(e.tool_use_id.as_deref(), Some("t"));
        let m = direct_mutation(&e, &repo("/repo")).unwrap();
        assert_eq!(m.file_path.as_deref(), Some("big.txt"));
        assert_eq!(m.lines_changed, Some(42));
        // The emitter links no diff: a stand-in's added and removed lines are not known.
        assert_eq!((m.lines_added, m.lines_removed), (None, None));
        assert_eq!(m.flags, [Flag::PayloadSummarised]);
    }

    #[test]
    fn the_line_count_rule_is_the_stand_ins() {
        for input in [
            json!({"content": "a\nb\n"}),
            json!({"new_string": "x\n", "content": "a\nb\n"}),
            json!({"edits": [{"new_string": "a\n"}, {"new_string": "b\nc\n"}]}),
            json!({"new_source": "\n\n\n"}),
            json!({"command": "ls"}),
        ] {
            assert_eq!(
                lines_changed(&input),
                standin::lines_changed(&input),
                "{input}"
            );
        }
    }

    #[test]
    fn a_flagged_string_is_repaired_only_when_that_makes_it_json() {
        let mut env = envelope(
            "post_tool_use",
            Some("Write"),
            json!(r#"{"session_id":"s","tool_input":{"content":"a\uD83D"}}"#),
        );
        env.payload_invalid = true;
        let e = event(&env);
        assert_eq!(e.flags, [Flag::PayloadRepaired]);
        assert!(e.payload_valid);
        assert_eq!(e.session_id.as_deref(), Some("s"));
        env.payload = json!("not json \\uD83D");
        let e = event(&env);
        assert!(e.flags.is_empty());
        assert!(!e.payload_valid);
    }

    #[test]
    fn event_dir_falls_back_to_the_file_directory() {
        let e = event(&envelope(
            "post_tool_use",
            Some("Write"),
            json!({"tool_input": {"file_path": "/repo/src/a.rs"}}),
        ));
        assert_eq!(event_dir(&e), Some(PathBuf::from("/repo/src")));
    }
}
