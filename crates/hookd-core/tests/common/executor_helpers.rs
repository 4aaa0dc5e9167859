//! Helpers for the executor's integration tests: a temp project root, hook
//! invocations, running an event's hooks, and checking from `/proc` that a
//! process is gone.
//!
//! A file of its own (pulled in with `#[path]`) so it cannot collide with a
//! `common/mod.rs` other test binaries of this crate may grow.

#![allow(dead_code, missing_docs)] // each test binary uses a different subset

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hookd_core::executor::{ExecContext, ExecReport, HookInvocation, run_all};
use hookd_core::settings::events::lookup;
use serde_json::{Value, json};

/// A project root in a temp dir; hooks run there.
pub struct Project {
    pub dir: tempfile::TempDir,
}

impl Project {
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("temp project dir"),
        }
    }

    /// The canonical root (what `pwd -P` prints in a hook).
    pub fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().expect("canonical root")
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.root().join(name)
    }

    pub fn context(&self, event: &str, payload: Value) -> ExecContext {
        ExecContext {
            event: lookup(event).expect("known event"),
            payload,
            project_root: self.root(),
        }
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

/// True when `pid` no longer runs: no `/proc` entry, or a zombie (nothing
/// reaps orphans on these machines, so a killed orphan stays `Z`).
pub fn is_gone(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return true;
    };
    // The state follows the parenthesised command name, which may hold spaces.
    let state = stat
        .rfind(')')
        .and_then(|i| stat[i + 1..].split_whitespace().next());
    matches!(state, Some("Z" | "X" | "x"))
}

/// The process group of a live `pid`.
pub fn pgrp(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    // fields after the name: state, ppid, pgrp
    rest.split_whitespace().nth(2)?.parse().ok()
}

/// Polls until `pid` is gone, for at most `within`.
pub async fn wait_gone(pid: i32, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    loop {
        if is_gone(pid) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// PIDs written one per line to `file`.
pub fn read_pids(file: &Path) -> Vec<i32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}
