//! Real recorded history for the backtest tests: Bash calls handed to the
//! real daemon through the real `hookd-emit --wait`, as Claude Code makes
//! them in a project connected in managed mode. `hookd hooks backtest` and
//! the desktop app's backtests replay what this leaves in the project's
//! ledger; one copy of it keeps both suites replaying the same history.

use std::path::Path;

use serde_json::json;

use crate::env::TestEnv;
use crate::payload::tool_payload;

impl TestEnv {
    /// Connects `root` in managed mode (`hookd connect --managed --scope
    /// local`), starts the daemon, hands it one `PreToolUse` Bash call per
    /// command (tool use ids `t0`, `t1`, ...; each must be answered with
    /// exit 0), and stops it as a user would, so everything it was handed is
    /// in the project's ledger.
    pub fn record_bash_calls(&self, root: &Path, commands: &[&str]) {
        self.hookd(root, &["connect", "--managed", "--scope", "local"])
            .assert_ok();
        let mut daemon = self.start_daemon();
        for (n, command) in commands.iter().enumerate() {
            let payload = tool_payload(
                "PreToolUse",
                "Bash",
                root,
                &format!("t{n}"),
                json!({"command": command}),
            );
            let out = self.emit(&["--wait", "PreToolUse"], &payload, root);
            assert_eq!(out.status.code(), Some(0), "{command}: {out:?}");
        }
        daemon.terminate();
    }
}
