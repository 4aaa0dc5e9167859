//! Helpers for the executor's integration tests: a temp project root, hook
//! invocations, running an event's hooks and reading the reply. Processes
//! gone or not are checked with hookd-testkit.

use std::path::{Path, PathBuf};
use std::time::Duration;

use hookd_core::executor::{ExecContext, ExecReport, HookInvocation, run_all};
use hookd_core::settings::events::lookup;
use serde_json::{Value, json};

/// A project root in a temp dir; hooks run there.
pub struct Project {
    /// Removes the project when dropped.
    pub dir: tempfile::TempDir,
}

impl Project {
    /// A fresh, empty project.
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("temp project dir"),
        }
    }

    /// The canonical root (what `pwd -P` prints in a hook).
    pub fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().expect("canonical root")
    }

    /// A file in the project.
    pub fn path(&self, name: &str) -> PathBuf {
        self.root().join(name)
    }

    /// The context the executor runs `event`'s hooks in, here, with `payload`.
    pub fn context(&self, event: &str, payload: Value) -> ExecContext {
        exec_context(&self.root(), event, payload)
    }

    /// Runs `commands` as the hooks of `event` with a typical payload.
    pub async fn run(&self, event: &str, commands: &[&str]) -> ExecReport {
        let hooks = commands.iter().map(|c| HookInvocation::new(*c)).collect();
        run_all(&self.context(event, payload(event)), hooks).await
    }

    /// Runs hooks with explicit invocations.
    pub async fn run_hooks(&self, event: &str, hooks: Vec<HookInvocation>) -> ExecReport {
        run_all(&self.context(event, payload(event)), hooks).await
    }
}

/// The context the executor runs `event`'s hooks in: `payload` on stdin,
/// `root` as the project.
pub fn exec_context(root: &Path, event: &str, payload: Value) -> ExecContext {
    ExecContext {
        event: lookup(event).expect("known event"),
        payload,
        project_root: root.to_path_buf(),
        backtest: false,
    }
}

/// A hook with a timeout.
pub fn with_timeout(command: &str, timeout: Duration) -> HookInvocation {
    HookInvocation {
        timeout: Some(timeout),
        ..HookInvocation::new(command)
    }
}

/// A plausible stdin payload for `event`.
pub fn payload(event: &str) -> Value {
    let mut p = json!({
        "session_id": "s-1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/tmp",
        "hook_event_name": event,
    });
    let extra = match event {
        "PreToolUse" => {
            json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "tu-1"})
        }
        "PostToolUse" => json!({"tool_name": "Bash", "tool_input": {"command": "ls"},
            "tool_response": {"stdout": "a"}, "tool_use_id": "tu-1"}),
        "UserPromptSubmit" => json!({"prompt": "hello"}),
        "SessionStart" => json!({"source": "startup"}),
        "Stop" => json!({"stop_hook_active": false, "last_assistant_message": "done"}),
        _ => json!({}),
    };
    if let (Some(p), Some(extra)) = (p.as_object_mut(), extra.as_object()) {
        p.extend(extra.clone());
    }
    p
}

/// The reply's stdout as JSON (asserting exit 0).
pub fn reply_json(report: &ExecReport) -> Value {
    let reply = report.outcome.reply();
    assert_eq!(reply.exit_code, 0, "{reply:?}");
    assert!(reply.stderr.is_empty(), "{reply:?}");
    serde_json::from_str(&reply.stdout)
        .unwrap_or_else(|e| panic!("reply stdout is not JSON ({e}): {reply:?}"))
}
