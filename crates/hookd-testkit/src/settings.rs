//! Agent and hookd settings files in a temp dir, and the realistic user
//! file the settings suites edit.

use std::path::PathBuf;

use hookd_core::settings::trust::{self, TrustStore};
use hookd_core::settings::{Kind, Scope, SettingsLocation, SettingsRoots};
use serde_json::{Value, json};

use crate::fs::write_file;

/// Settings roots (home, hookd home, policy) and a project folder, all in
/// one temp dir.
pub struct SettingsFixture {
    /// Removes everything when dropped.
    pub dir: tempfile::TempDir,
    /// Where every settings file of every kind and scope is looked up.
    pub roots: SettingsRoots,
    /// The project the project and local scopes belong to.
    pub project: PathBuf,
}

impl SettingsFixture {
    /// Creates the temp dir and the project folder.
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let roots = SettingsRoots::under(dir.path());
        let project = dir.path().join("project");
        std::fs::create_dir_all(&project).expect("mkdir project");
        Self {
            dir,
            roots,
            project,
        }
    }

    /// The file of `kind` at `scope` (for the project).
    pub fn location(&self, kind: Kind, scope: Scope) -> SettingsLocation {
        self.roots
            .location(kind, scope, Some(&self.project))
            .expect("settings location")
    }

    /// Writes `text` as the file of `kind` at `scope` and, for a project's
    /// managed file, approves it as the user would with `hookd trust` (so
    /// its hooks run); returns its location.
    pub fn write(&self, kind: Kind, scope: Scope, text: &str) -> SettingsLocation {
        let location = self.write_untrusted(kind, scope, text);
        if trust::needs_trust(&location) {
            TrustStore::for_roots(&self.roots)
                .approve(&location.path, text.as_bytes())
                .expect("approve the file");
        }
        location
    }

    /// Writes `text` as the file of `kind` at `scope` without approving
    /// it, as a clone or another program would; returns its location.
    pub fn write_untrusted(&self, kind: Kind, scope: Scope, text: &str) -> SettingsLocation {
        let location = self.location(kind, scope);
        write_file(&location.path, text);
        location
    }

    /// Writes `value` as pretty JSON (no final newline) as the file of
    /// `kind` at `scope`; returns its path.
    pub fn write_json(&self, kind: Kind, scope: Scope, value: &Value) -> PathBuf {
        let text = serde_json::to_string_pretty(value).expect("serialise settings");
        self.write(kind, scope, &text).path
    }
}

impl Default for SettingsFixture {
    fn default() -> Self {
        Self::new()
    }
}

/// A realistic user settings file: other keys, other events, handler types
/// hookd never runs, with fields it does not know.
pub fn user_settings() -> Value {
    json!({
        "permissions": {"allow": ["Bash(git status)"], "deny": []},
        "env": {"FOO": "bar"},
        "model": "opus",
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "~/bin/guard.sh", "timeout": 5, "statusMessage": "guarding", "x-custom": {"keep": true}}
                ]}
            ],
            "Stop": [
                {"hooks": [{"type": "prompt", "prompt": "Is the task done?", "model": "haiku"}]}
            ],
            "PostCompact": [
                {"hooks": [{"type": "http", "url": "https://example.invalid/h", "headers": {"X-Token": "$TOKEN"}, "allowedEnvVars": ["TOKEN"]}]}
            ]
        },
        "statusLine": {"type": "command", "command": "status.sh"},
        "enabledPlugins": {"a@b": true}
    })
}
