//! The shapes an event takes between the socket and the ledger.
//!
//! [`HookEvent`] is an envelope after normalisation (names, agent, paths),
//! [`RepoFacts`] is what enrichment learnt from git, and [`MutationRecord`]
//! is one row of the `mutations` table, whose column names existing
//! consumers query by name.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// A hook event after normalisation, before it is tied to a repository.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HookEvent {
    /// Unique id given by the daemon on receipt (UUID v7, time-ordered).
    pub event_id: String,
    /// Snake-case hook type: `post_tool_use`, `session_start`, ...
    pub hook_type: String,
    /// Tool in the agent's spelling, when the event concerns a tool.
    pub tool_name: Option<String>,
    /// Who acted: envelope `agent_id`, else payload `agent_id`, else `session_id`, else `unknown`.
    pub agent_id: String,
    /// The agent session, when the payload has one.
    pub session_id: Option<String>,
    /// The tool call, pairing pre and post events.
    pub tool_use_id: Option<String>,
    /// Directory the event happened in (payload `cwd`, else envelope `cwd`).
    pub cwd: Option<PathBuf>,
    /// File named in the tool input, absolute when the payload had it absolute.
    pub file_path: Option<PathBuf>,
    /// Newlines written by the tool (`content`, `new_string`, summed over `edits`).
    pub lines_changed: Option<i64>,
    /// Lines the tool added, by [`crate::diff`]'s rule; `None` except for a
    /// file tool's `post_tool_use` whose payload carries its text.
    #[serde(default)]
    pub lines_added: Option<i64>,
    /// Lines the tool removed, as `lines_added`.
    #[serde(default)]
    pub lines_removed: Option<i64>,
    /// The shell command, for Bash.
    pub command: Option<String>,
    /// False when the emitter could not parse the hook's stdin as JSON.
    pub payload_valid: bool,
    /// The payload as compact JSON text.
    pub raw_payload: String,
    /// When the emitter ran, in the stored timestamp format.
    pub event_timestamp: String,
    /// When the daemon read the line, in the stored timestamp format.
    pub received_at: String,
    /// Process id of the emitter.
    pub source_pid: Option<u32>,
    /// What the recorder had to repair or could not place (usually none).
    pub flags: Vec<Flag>,
    /// The agent whose hook this was (`claude`, `codex`, ...:
    /// [`hookd_proto::AgentKind`]); rows and messages from before hookd
    /// knew other agents are Claude Code's.
    #[serde(default = "claude")]
    pub agent_kind: String,
}

/// The agent kind of rows and messages that do not name one.
pub fn claude() -> String {
    hookd_proto::AgentKind::Claude.as_str().to_owned()
}

impl HookEvent {
    /// A `post_tool_use` of `tool` by `agent_id` with its payload, at
    /// `timestamp` (received then too), and nothing else set: what hookd
    /// records of its own actions (a rewind), and what tests and benchmarks
    /// build.
    pub fn post_tool_use(
        event_id: String,
        tool: &str,
        agent_id: &str,
        raw_payload: String,
        timestamp: String,
    ) -> Self {
        Self {
            event_id,
            hook_type: crate::names::POST_TOOL_USE.to_owned(),
            tool_name: Some(tool.to_owned()),
            agent_id: agent_id.to_owned(),
            session_id: None,
            tool_use_id: None,
            cwd: None,
            file_path: None,
            lines_changed: None,
            lines_added: None,
            lines_removed: None,
            command: None,
            payload_valid: true,
            raw_payload,
            received_at: timestamp.clone(),
            event_timestamp: timestamp,
            source_pid: None,
            flags: Vec::new(),
            agent_kind: claude(),
        }
    }
}

/// Something the recorder had to repair in an event, or could not place,
/// kept with the row so a reader knows (`events.flags`, `mutations.flags`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// The payload held lone UTF-16 surrogate escapes, replaced by U+FFFD.
    PayloadRepaired,
    /// The payload was too large and a summary was stored in its place.
    PayloadSummarised,
    /// The file path leaves the repository (`..`): stored where it belongs.
    PathOutsideRepo,
    /// The file path is absolute on another OS (`C:\…`, `\\server\…`): stored as given.
    PathForeign,
}

impl Flag {
    /// Every flag, in column order.
    pub const ALL: [Flag; 4] = [
        Flag::PayloadRepaired,
        Flag::PayloadSummarised,
        Flag::PathOutsideRepo,
        Flag::PathForeign,
    ];

    /// The flag's word in the ledger and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Flag::PayloadRepaired => "payload_repaired",
            Flag::PayloadSummarised => "payload_summarised",
            Flag::PathOutsideRepo => "path_outside_repo",
            Flag::PathForeign => "path_foreign",
        }
    }

    /// The `flags` column for a set of flags: space-separated words, `None` when empty.
    pub fn to_column(flags: &[Flag]) -> Option<String> {
        (!flags.is_empty()).then(|| {
            flags
                .iter()
                .map(|f| f.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
    }

    /// Reads a `flags` column back; unknown words (from a newer hookd) are skipped.
    pub fn from_column(column: Option<&str>) -> Vec<Flag> {
        column
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|w| Flag::ALL.into_iter().find(|f| f.as_str() == w))
            .collect()
    }
}

/// What git says about the repository an event happened in.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RepoFacts {
    /// Root of the work tree; `None` outside any git repository.
    pub git_root: Option<PathBuf>,
    /// Current branch, `HEAD (detached)` when detached, empty outside git.
    pub branch: String,
    /// Commit HEAD points to, empty before the first commit or outside git.
    pub head_sha: String,
    /// URL of `origin` (or the first remote), when there is one.
    pub remote_url: Option<String>,
}

/// One row of the ledger's `mutations` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MutationRecord {
    /// `tool.mutation.<tool in lower case>`.
    pub event_type: String,
    /// Hook type of the event that revealed the change (`post_tool_use`).
    pub hook_type: String,
    /// Tool that made the change, agent spelling; `bash` rows use `Bash`.
    pub tool_name: String,
    /// Who made the change.
    pub agent_id: String,
    /// Changed file, relative to the git root when inside it.
    pub file_path: Option<String>,
    /// Extension of `file_path` without the dot (`rs`), when it has one.
    pub file_ext: Option<String>,
    /// Newlines written (in `content`, `new_string`, summed over `edits`):
    /// kept as it always was; the diff's counts are `lines_added` and
    /// `lines_removed`. `None` where the tool does not say (Bash).
    pub lines_changed: Option<i64>,
    /// Lines added, by the diff rule of [`crate::diff`] (a Write against
    /// no earlier content); `None` for Bash, for an oversized payload's
    /// stand-in and for rows recorded before hookd counted them.
    #[serde(default)]
    pub lines_added: Option<i64>,
    /// Lines removed, as `lines_added`.
    #[serde(default)]
    pub lines_removed: Option<i64>,
    /// Branch at the time of the change.
    pub branch: String,
    /// HEAD commit at the time of the change.
    pub head_sha: String,
    /// The hook payload as compact JSON.
    pub raw_payload: String,
    /// When the emitter ran.
    pub event_timestamp: String,
    /// When the daemon received it.
    pub received_at: String,
    /// The hook event this mutation came from (`events.event_id`).
    pub event_id: String,
    /// Position among the mutations of one event (a Bash call can change several files).
    pub mutation_seq: i64,
    /// The agent session.
    pub session_id: Option<String>,
    /// The tool call.
    pub tool_use_id: Option<String>,
    /// Remote URL of the repository.
    pub remote_url: Option<String>,
    /// The shell command, for Bash mutations.
    pub command: Option<String>,
    /// Process id of the emitter.
    pub source_pid: Option<u32>,
    /// What the recorder had to repair or could not place (usually none).
    #[serde(default)]
    pub flags: Vec<Flag>,
    /// The file's content before the change, as the content store keeps it
    /// (`before_content`); `None` on rows recorded before hookd kept
    /// contents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub before: Option<ContentRef>,
    /// The file's content after the change (`after_content`), as `before`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub after: Option<ContentRef>,
    /// The agent that made the change, as its event's
    /// ([`HookEvent::agent_kind`]).
    #[serde(default = "claude")]
    pub agent_kind: String,
}

/// What a mutation row knows of its file's content at one moment, before
/// or after the change: what a rewind can give back.
///
/// Stored as compact JSON in the `before_content` and `after_content`
/// columns (`{"state":"kept","hash":"…","size":120}`), so a consumer can
/// read it with SQLite's `json_extract`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ContentRef {
    /// The bytes are in the repository's content store
    /// ([`crate::ledger::content_store`]) under `hash`.
    Kept {
        /// SHA-256 of the content, lower-case hex.
        hash: String,
        /// Its length in bytes.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        size: u64,
        /// The file's permission bits (`0o644` = 420) when it was read, so
        /// a rewind that creates the file again gives it that mode. Absent
        /// on references recorded before hookd kept it, and for contents
        /// that were never a file on disk.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        mode: Option<u32>,
    },
    /// No file was there.
    Absent,
    /// The file was bigger than the store keeps: recorded, not restorable.
    TooLarge {
        /// Its length in bytes.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        size: u64,
    },
    /// Not known, and why (no `PreToolUse` was seen, the path is a symbolic
    /// link, the file could not be read): a rewind never guesses it.
    Unknown {
        /// Why, in words.
        why: String,
    },
}

impl ContentRef {
    /// The same reference with the file's permission bits `mode` (only
    /// `0o777`: a rewind never sets setuid, setgid or sticky bits), for a
    /// kept content; other states are returned as they are.
    #[must_use]
    pub fn with_mode(self, mode: u32) -> Self {
        match self {
            Self::Kept { hash, size, .. } => Self::Kept {
                hash,
                size,
                mode: Some(mode & 0o777),
            },
            other => other,
        }
    }

    /// The permission bits recorded with a kept content.
    pub fn mode(&self) -> Option<u32> {
        match self {
            Self::Kept { mode, .. } => *mode,
            _ => None,
        }
    }

    /// An unknown content, for `why`.
    pub fn unknown(why: impl Into<String>) -> Self {
        Self::Unknown { why: why.into() }
    }

    /// The column text (compact JSON).
    pub fn to_column(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a column written by [`ContentRef::to_column`]; `None` for
    /// NULL. Text that does not parse reads as unknown, saying so, never
    /// as something restorable.
    pub fn from_column(text: Option<&str>) -> Option<Self> {
        let text = text?;
        Some(serde_json::from_str(text).unwrap_or_else(|_| {
            Self::unknown(format!(
                "the ledger holds an unreadable content reference: {text}"
            ))
        }))
    }
}

/// A mutation read back from a ledger, with its row id.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MutationRow {
    /// The row's `id`.
    pub id: i64,
    /// The row's columns.
    #[serde(flatten)]
    pub record: MutationRecord,
    /// The repository the row belongs to (its git root), set by multi-repository queries.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub repo: Option<String>,
}

/// One event and the mutations it revealed, ready to be appended to a ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LedgerEntry {
    /// The hook event.
    pub event: HookEvent,
    /// Git facts at the time it was processed.
    pub repo: RepoFacts,
    /// File changes derived from it (often none).
    pub mutations: Vec<MutationRecord>,
}

/// One managed hook run, as the ledger's `hook_runs` table stores it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HookRunRecord {
    /// Unique id of this run.
    pub run_id: String,
    /// The hook event the run answered (`events.event_id`).
    pub event_id: String,
    /// Snake-case hook type of that event.
    pub hook_type: String,
    /// Tool of the event, if any.
    pub tool_name: Option<String>,
    /// Agent session.
    pub session_id: Option<String>,
    /// Tool call.
    pub tool_use_id: Option<String>,
    /// Scope of the settings file the hook came from (global, project, local).
    pub scope: String,
    /// The settings file the hook came from.
    pub source: String,
    /// The matcher of its group, if any.
    pub matcher: Option<String>,
    /// The command run.
    pub command: String,
    /// Exit code; `None` when killed (timeout) or never started.
    pub exit_code: Option<i32>,
    /// Killed at its timeout.
    pub timed_out: bool,
    /// What it decided (`deny`, `allow`, `block`, ...), if anything.
    pub decision: Option<String>,
    /// Wall time in milliseconds.
    pub duration_ms: f64,
    /// Captured stdout (capped).
    pub stdout: String,
    /// Captured stderr (capped).
    pub stderr: String,
    /// Either stream hit the capture cap.
    pub output_truncated: bool,
    /// Why it failed to start, or why its JSON was ignored.
    pub error: Option<String>,
    /// When it started.
    pub started_at: String,
    /// Why the hook was not run (e.g. its settings file is not trusted);
    /// `None` when it ran.
    pub skipped: Option<String>,
}

/// Sent after each commit, for observers (benchmarks, the desktop app).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CommitNotice {
    /// The ledger that committed.
    pub ledger: PathBuf,
    /// The events committed, in order.
    pub events: Vec<CommittedEvent>,
    /// Mutation rows committed with them.
    pub mutations: usize,
    /// Managed hook runs committed (announced on their own, after their event).
    pub hook_runs: usize,
}

/// One committed event, as announced in a [`CommitNotice`].
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CommittedEvent {
    /// The event's id.
    pub event_id: String,
    /// Its hook type.
    pub hook_type: String,
    /// Its tool, if any.
    pub tool_name: Option<String>,
    /// Its tool call id, if any.
    pub tool_use_id: Option<String>,
}

impl MutationRecord {
    /// Builds a mutation row for `event`; Bash rows name their own file.
    pub fn for_event(
        event: &HookEvent,
        repo: &RepoFacts,
        tool: &str,
        seq: i64,
        file_path: Option<String>,
        lines_changed: Option<i64>,
    ) -> MutationRecord {
        MutationRecord {
            event_type: crate::names::mutation_event_type(tool),
            hook_type: event.hook_type.clone(),
            tool_name: tool.to_owned(),
            agent_id: event.agent_id.clone(),
            file_ext: file_path.as_deref().and_then(file_ext),
            file_path,
            lines_changed,
            lines_added: None,
            lines_removed: None,
            branch: repo.branch.clone(),
            head_sha: repo.head_sha.clone(),
            raw_payload: event.raw_payload.clone(),
            event_timestamp: event.event_timestamp.clone(),
            received_at: event.received_at.clone(),
            event_id: event.event_id.clone(),
            mutation_seq: seq,
            session_id: event.session_id.clone(),
            tool_use_id: event.tool_use_id.clone(),
            remote_url: repo.remote_url.clone(),
            command: event.command.clone(),
            source_pid: event.source_pid,
            flags: event.flags.clone(),
            before: None,
            after: None,
            agent_kind: event.agent_kind.clone(),
        }
    }
}

/// Extension of a path without the dot, when it has one.
pub fn file_ext(path: &str) -> Option<String> {
    Path::new(path)
        .extension()
        .map(|ext| ext.to_string_lossy().into_owned())
        .filter(|ext| !ext.is_empty())
}
