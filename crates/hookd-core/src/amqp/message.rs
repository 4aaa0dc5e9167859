//! The message hookd publishes for every hook event: a JSON
//! `ToolMutationEvent` (schema version 1), and the routing key it travels
//! under.
//!
//! It carries the whole ledger entry (event, git facts, derived mutation
//! rows), so a ledger consumer writes exactly the rows the daemon would have
//! written itself, and other consumers find the flat fields they expect
//! (`file_path`, `file_ext`, `lines_changed` of the first mutation) at the
//! top level. `lines_added` and `lines_removed` (schema 7 of the ledger)
//! are optional, left out when unknown: a message without them is read as
//! before, and an older consumer ignores them. So is `agent_kind` (the
//! agent whose hook it was; absent: Claude Code).
//!
//! A mutation's before and after are references into the content store of
//! the machine that recorded them ([`crate::ledger::content_store`]); a
//! consumer on another machine has no such store. So the message also
//! carries the contents it refers to (`contents`, optional like the line
//! counts, up to [`CARRIED_LIMIT`] bytes a message), and the consumer keeps
//! them in the store beside the ledger it writes before the rows that refer
//! to them, so a rewind there finds them.

use std::path::PathBuf;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::{Deserialize, Serialize};

use crate::names::normalize_hook_type;
use crate::record::{HookEvent, LedgerEntry, MutationRecord, RepoFacts};

/// Version of the message body; bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// The topic exchange every daemon publishes to.
pub use crate::config::DEFAULT_EXCHANGE;

/// Content type of every message.
pub const CONTENT_TYPE: &str = "application/json";

/// Most content bytes one message carries: well under RabbitMQ's default
/// largest message (16 MiB since 4.0) once text is escaped or bytes are
/// base64. Contents past it are left out (logged); a rewind on the
/// consumer's machine then says which content its store lacks.
pub const CARRIED_LIMIT: usize = 8 << 20;

/// One content a mutation's before or after refers to, carried in the
/// message: text as text, other bytes as base64 (exactly one of the two).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CarriedContent {
    /// Its SHA-256, as the mutation's reference names it.
    pub hash: String,
    /// The content, when it is UTF-8 text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The content in standard base64, when it is not text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base64: Option<String>,
}

impl CarriedContent {
    /// Carries `bytes`, named `hash`.
    pub fn new(hash: &str, bytes: Vec<u8>) -> Self {
        match String::from_utf8(bytes) {
            Ok(text) => Self {
                hash: hash.to_owned(),
                text: Some(text),
                base64: None,
            },
            Err(err) => Self {
                hash: hash.to_owned(),
                text: None,
                base64: Some(BASE64.encode(err.as_bytes())),
            },
        }
    }

    /// The bytes carried; `None` when the message holds neither form or
    /// bad base64 (the consumer then keeps nothing of it).
    pub fn bytes(&self) -> Option<Vec<u8>> {
        match (&self.text, &self.base64) {
            (Some(text), None) => Some(text.as_bytes().to_vec()),
            (None, Some(encoded)) => BASE64.decode(encoded).ok(),
            _ => None,
        }
    }

    /// Bytes it carries (for [`CARRIED_LIMIT`]).
    pub fn len(&self) -> usize {
        self.text
            .as_ref()
            .or(self.base64.as_ref())
            .map_or(0, String::len)
    }

    /// Whether it carries no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Git facts of the repository the event happened in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepoRef {
    /// Work-tree root; `None` outside git.
    pub git_root: Option<String>,
    /// Branch (`HEAD (detached)` when detached; empty outside git).
    pub branch: String,
    /// HEAD commit (empty before the first commit or outside git).
    pub head_sha: String,
    /// Remote URL, when there is one.
    pub remote_url: Option<String>,
}

/// The message body: one hook event with everything the ledger stores for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolMutationEvent {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Unique id of the event; also the AMQP `message_id`, and what makes
    /// consumers idempotent.
    pub event_id: String,
    /// The routing key: `tool.mutation.write`, `session.start`, ...
    pub event_type: String,
    /// Snake-case hook type: `post_tool_use`, `session_start`, ...
    pub hook_type: String,
    /// Tool in the agent's spelling, for tool events.
    pub tool_name: Option<String>,
    /// Who acted.
    pub agent_id: String,
    /// The agent session.
    pub session_id: Option<String>,
    /// The tool call.
    pub tool_use_id: Option<String>,
    /// Directory the event happened in.
    pub cwd: Option<String>,
    /// The repository.
    pub repo: RepoRef,
    /// File changed (first mutation), relative to the git root inside one.
    pub file_path: Option<String>,
    /// Its extension.
    pub file_ext: Option<String>,
    /// Newlines written (first mutation).
    pub lines_changed: Option<i64>,
    /// Lines added (first mutation), by the diff rule of [`crate::diff`];
    /// left out when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_added: Option<i64>,
    /// Lines removed (first mutation), as `lines_added`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_removed: Option<i64>,
    /// The hook payload (a JSON string when the emitter could not parse it).
    pub raw_payload: serde_json::Value,
    /// False when the emitter could not parse the hook's stdin.
    pub payload_valid: bool,
    /// When the emitter ran (RFC 3339 UTC, ms).
    pub timestamp: String,
    /// When the daemon received it.
    pub received_at: String,
    /// Process id of the emitter.
    pub source_pid: Option<u32>,
    /// What the recorder had to repair or could not place (left out when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<crate::record::Flag>,
    /// The agent whose hook it was (`claude`, `codex`, ...); a message
    /// without it, from a daemon before hookd knew other agents, is Claude
    /// Code's.
    #[serde(default = "crate::record::claude")]
    pub agent_kind: String,
    /// Every mutation row derived from the event (a Bash call can change several files).
    pub mutations: Vec<MutationRecord>,
    /// The contents the mutations' befores and afters refer to (left out
    /// when none; see the module's doc).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contents: Vec<CarriedContent>,
}

impl ToolMutationEvent {
    /// The message for one ledger entry.
    pub fn from_entry(entry: &LedgerEntry) -> Self {
        let e = &entry.event;
        let first = entry.mutations.first();
        Self {
            schema_version: SCHEMA_VERSION,
            event_id: e.event_id.clone(),
            event_type: routing_key(&e.hook_type, e.tool_name.as_deref()),
            hook_type: e.hook_type.clone(),
            tool_name: e.tool_name.clone(),
            agent_id: e.agent_id.clone(),
            session_id: e.session_id.clone(),
            tool_use_id: e.tool_use_id.clone(),
            cwd: e.cwd.as_deref().map(|p| p.to_string_lossy().into_owned()),
            repo: RepoRef {
                git_root: entry
                    .repo
                    .git_root
                    .as_deref()
                    .map(|p| p.to_string_lossy().into_owned()),
                branch: entry.repo.branch.clone(),
                head_sha: entry.repo.head_sha.clone(),
                remote_url: entry.repo.remote_url.clone(),
            },
            file_path: first.and_then(|m| m.file_path.clone()),
            file_ext: first.and_then(|m| m.file_ext.clone()),
            lines_changed: first.and_then(|m| m.lines_changed),
            lines_added: first.and_then(|m| m.lines_added),
            lines_removed: first.and_then(|m| m.lines_removed),
            raw_payload: serde_json::from_str(&e.raw_payload)
                .unwrap_or_else(|_| serde_json::Value::String(e.raw_payload.clone())),
            payload_valid: e.payload_valid,
            timestamp: e.event_timestamp.clone(),
            received_at: e.received_at.clone(),
            source_pid: e.source_pid,
            flags: e.flags.clone(),
            agent_kind: e.agent_kind.clone(),
            mutations: entry.mutations.clone(),
            contents: Vec::new(),
        }
    }

    /// The message carrying `contents` too.
    #[must_use]
    pub fn with_contents(mut self, contents: Vec<CarriedContent>) -> Self {
        self.contents = contents;
        self
    }

    /// Takes the carried contents out, for the consumer to keep.
    pub fn take_contents(&mut self) -> Vec<CarriedContent> {
        std::mem::take(&mut self.contents)
    }

    /// The ledger entry a consumer writes, equal to the one the daemon built.
    pub fn into_entry(self) -> LedgerEntry {
        let event = HookEvent {
            event_id: self.event_id,
            hook_type: self.hook_type,
            tool_name: self.tool_name,
            agent_id: self.agent_id,
            session_id: self.session_id,
            tool_use_id: self.tool_use_id,
            cwd: self.cwd.map(PathBuf::from),
            // The absolute path is not carried; the ledger's events table keeps
            // it only as context, so the first mutation's path stands in.
            file_path: self.file_path.map(PathBuf::from),
            lines_changed: self.lines_changed,
            lines_added: self.lines_added,
            lines_removed: self.lines_removed,
            command: self.mutations.first().and_then(|m| m.command.clone()),
            payload_valid: self.payload_valid,
            raw_payload: self.raw_payload.to_string(),
            event_timestamp: self.timestamp,
            received_at: self.received_at,
            source_pid: self.source_pid,
            flags: self.flags,
            agent_kind: self.agent_kind,
        };
        let repo = RepoFacts {
            git_root: self.repo.git_root.map(PathBuf::from),
            branch: self.repo.branch,
            head_sha: self.repo.head_sha,
            remote_url: self.repo.remote_url,
        };
        LedgerEntry {
            event,
            repo,
            mutations: self.mutations,
        }
    }
}

/// The routing key of an event: `tool.mutation.<tool in lower case>` for
/// events about a tool, so `tool.mutation.#` gets exactly the tool events;
/// a key of its own for every other event (see [`event_key`]).
pub fn routing_key(hook_type: &str, tool_name: Option<&str>) -> String {
    match tool_name.filter(|t| !t.is_empty()) {
        Some(tool) => crate::names::mutation_event_type(tool),
        None => event_key(hook_type),
    }
}

/// Keys of events without a tool: `session.start`, `session.end`,
/// `prompt.submit`, `agent.stop`, `subagent.start`, `subagent.stop`,
/// `notification`, `compact.pre`, `compact.post`; any other event:
/// `event.<hook_type>`.
pub fn event_key(hook_type: &str) -> String {
    let key = match normalize_hook_type(hook_type).as_str() {
        "session_start" => "session.start",
        "session_end" => "session.end",
        "user_prompt_submit" => "prompt.submit",
        "stop" => "agent.stop",
        "subagent_start" => "subagent.start",
        "subagent_stop" => "subagent.stop",
        "notification" => "notification",
        "pre_compact" => "compact.pre",
        "post_compact" => "compact.post",
        other => return format!("event.{other}"),
    };
    key.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daemon::extract;

    #[test]
    fn routing_keys_separate_tool_events_from_the_rest() {
        assert_eq!(
            routing_key("post_tool_use", Some("Write")),
            "tool.mutation.write"
        );
        assert_eq!(
            routing_key("post_tool_use", Some("MultiEdit")),
            "tool.mutation.multiedit"
        );
        assert_eq!(
            routing_key("pre_tool_use", Some("Bash")),
            "tool.mutation.bash"
        );
        assert_eq!(routing_key("session_start", None), "session.start");
        assert_eq!(routing_key("SessionEnd", None), "session.end");
        assert_eq!(routing_key("stop", None), "agent.stop");
        assert_eq!(routing_key("cwd_changed", None), "event.cwd_changed");
        assert!(!routing_key("stop", None).starts_with("tool.mutation."));
    }

    #[test]
    fn carried_contents_travel_as_text_or_base64_and_come_back_byte_for_byte() {
        let text = CarriedContent::new("h1", b"fn main() {}\n".to_vec());
        assert_eq!(text.text.as_deref(), Some("fn main() {}\n"));
        assert_eq!(text.base64, None);
        let binary = CarriedContent::new("h2", vec![0xff, 0x00, 0xfe]);
        assert_eq!(binary.text, None);
        assert_eq!(binary.base64.as_deref(), Some("/wD+"));

        let message = ToolMutationEvent {
            contents: vec![text, binary],
            ..sample()
        };
        let body = serde_json::to_vec(&message).unwrap();
        let mut back: ToolMutationEvent = serde_json::from_slice(&body).unwrap();
        let carried = back.take_contents();
        assert_eq!(carried[0].bytes().unwrap(), b"fn main() {}\n");
        assert_eq!(carried[1].bytes().unwrap(), [0xff, 0x00, 0xfe]);
        // Neither form, or both, or bad base64: nothing is taken for it.
        let broken = CarriedContent {
            hash: "h3".into(),
            text: None,
            base64: Some("not base64!".into()),
        };
        assert_eq!(broken.bytes(), None);
        // A message without contents says nothing of them (an older
        // consumer's shape), and reads back with none.
        let plain = serde_json::to_value(sample()).unwrap();
        assert!(plain.get("contents").is_none(), "{plain}");
        let read: ToolMutationEvent = serde_json::from_value(plain).unwrap();
        assert!(read.contents.is_empty());
    }

    fn sample() -> ToolMutationEvent {
        let entry = LedgerEntry {
            event: HookEvent::post_tool_use(
                "e1".into(),
                "Write",
                "a",
                "{}".into(),
                "2026-11-21T10:00:00.000Z".into(),
            ),
            repo: RepoFacts::default(),
            mutations: Vec::new(),
        };
        ToolMutationEvent::from_entry(&entry)
    }

    #[test]
    fn a_message_round_trips_to_the_same_ledger_entry() {
        let envelope = crate::Envelope::new(
            "post_tool_use",
            None,
            serde_json::json!({"tool_name": "Write", "session_id": "s", "cwd": "/r",
                "tool_input": {"file_path": "/r/src/a.rs", "content": "x\ny\n"}}),
            "2026-11-21T10:00:00.000Z",
            Some(9),
        );
        let event = extract::hook_event(
            &envelope,
            "e1".into(),
            envelope.timestamp.clone(),
            "now".into(),
        );
        let repo = RepoFacts {
            git_root: Some("/r".into()),
            branch: "main".into(),
            head_sha: "abc".into(),
            remote_url: Some("git@x:y.git".into()),
        };
        let mutations = extract::direct_mutation(&event, &repo)
            .into_iter()
            .collect();
        let entry = LedgerEntry {
            event,
            repo,
            mutations,
        };
        let message = ToolMutationEvent::from_entry(&entry);
        assert_eq!(message.event_type, "tool.mutation.write");
        assert_eq!(message.file_path.as_deref(), Some("src/a.rs"));
        assert_eq!(message.lines_changed, Some(2));
        assert_eq!(
            (message.lines_added, message.lines_removed),
            (Some(2), Some(0))
        );
        let body = serde_json::to_vec(&message).unwrap();
        let back: ToolMutationEvent = serde_json::from_slice(&body).unwrap();
        let restored = back.into_entry();
        assert_eq!(restored.mutations, entry.mutations);
        assert_eq!(restored.repo, entry.repo);
        assert_eq!(restored.event.raw_payload, entry.event.raw_payload);
        assert_eq!(restored.event.event_id, "e1");
        assert_eq!(restored.event.lines_added, Some(2));

        // A message of a hookd that did not count them (no such keys,
        // at the top level or in its mutations) still reads, as unknown.
        let mut old: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let top = old.as_object_mut().unwrap();
        top.remove("lines_added");
        top.remove("lines_removed");
        for m in top["mutations"].as_array_mut().unwrap() {
            let m = m.as_object_mut().unwrap();
            m.remove("lines_added");
            m.remove("lines_removed");
        }
        let old: ToolMutationEvent = serde_json::from_value(old).unwrap();
        assert_eq!((old.lines_added, old.lines_removed), (None, None));
        assert_eq!(old.into_entry().mutations[0].lines_added, None);
    }
}
