//! The Effective view's answer for the other coding agents: whether each
//! hook of their files will run for the project, and why not.
//!
//! The core judges it (`hookd_core::settings::agent_runs`) from what hookd
//! can read of each agent's own settings; this lists the verdicts per file,
//! in the order and with the paths of `agent_hook_files`, so the window
//! pairs each verdict with the hook it shows.

use hookd_core::settings::agent_files;
use hookd_core::settings::agent_runs::{self, AgentVerdict};
use serde::Serialize;
use ts_rs::TS;

use super::{display, project_dir};
use crate::error::Result;
use crate::state::AppState;

/// The verdicts of one agent hooks file's hooks, in its hooks' order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct AgentFileVerdicts {
    /// The file (as `AgentHookFile.path` names it).
    pub path: String,
    /// One per hook, in file order.
    pub verdicts: Vec<AgentVerdict>,
}

/// The verdicts of every other agent's hooks file that exists for `project`.
pub fn agent_verdicts(state: &AppState, project: &str) -> Result<Vec<AgentFileVerdicts>> {
    let project = project_dir(project)?;
    let roots = state.roots()?;
    Ok(agent_files::agent_hook_files(roots, Some(&project))
        .iter()
        .map(|file| AgentFileVerdicts {
            path: display(&file.path),
            verdicts: agent_runs::verdicts(roots, Some(&project), file),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use hookd_core::settings::{NotRunCode, SettingsRoots};

    use super::*;

    #[test]
    fn hookds_own_codex_entries_are_said_not_to_run_until_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("repo");
        std::fs::create_dir_all(project.join(".codex")).unwrap();
        std::fs::write(
            project.join(".codex/hooks.json"),
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "hookd-emit --agent codex Stop"}]}]}}"#,
        )
        .unwrap();
        let state = AppState::new(
            dir.path().join("data"),
            dir.path().join("hookd.sock"),
            Some(SettingsRoots::under(&dir.path().join("home"))),
        );
        let found = agent_verdicts(&state, &project.display().to_string()).unwrap();
        assert_eq!(found.len(), 1);
        assert!(found[0].path.ends_with(".codex/hooks.json"));
        let verdict = &found[0].verdicts[0];
        assert!(!verdict.runs);
        let codes: Vec<_> = verdict.reasons.iter().map(|r| r.code).collect();
        assert_eq!(
            codes,
            [NotRunCode::ProjectNotTrusted, NotRunCode::NotTrustedInAgent]
        );
    }
}
