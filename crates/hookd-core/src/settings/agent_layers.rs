//! The hooks files of other coding agents that the user does not own: an
//! administrator's or the system's layers, listed and judged but never
//! written.
//!
//! Each agent reads hooks from more places than the user's and the
//! project's files ([`mod@super::agent_files`]), and those places decide
//! just as much what runs (`docs/agent-hooks.md` §1.1, §2.1, §3.1):
//! - Codex CLI: the administrator's `requirements.toml` (its `[hooks]`,
//!   loaded first, and `allow_managed_hooks_only`, which stops every hook
//!   that is not managed), then the system layer's `hooks.json` and the
//!   `[hooks]` of its `config.toml`. All three are *managed*: their hooks
//!   run without the user's trust and cannot be turned off in `/hooks`.
//! - Gemini CLI: `system-defaults.json` and the system `settings.json`,
//!   whose `hooks` are concatenated with the user's and the project's.
//! - Cursor: the enterprise `hooks.json`.
//!
//! They are all the administrator's, so they share [`Scope::Policy`] (the
//! scope Claude Code's managed settings have): read only,
//! [`super::agent_edit::file_location`] refuses them. Where they are comes
//! from [`SettingsRoots`], so tests point them at temp dirs and never read
//! the real `/etc`.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::location::{Scope, SettingsRoots};
use crate::AgentKind;

/// Codex CLI's administrator file: its `[hooks]` and its switches.
pub const CODEX_REQUIREMENTS: &str = "requirements.toml";

/// The keys of a `requirements.toml`'s `[hooks]` that are not events: the
/// directory of the managed hooks' scripts, per platform.
const CODEX_REQUIREMENTS_DIR_KEYS: [&str; 2] = ["managed_dir", "windows_managed_dir"];

/// The administrator's files of `agent`, in the order the agent reads
/// them (whether or not they exist). Codex CLI: `requirements.toml`, then
/// the system layer's `hooks.json` and `config.toml` (its discovery order,
/// §1.1); Gemini CLI: `system-defaults.json`, then the system settings;
/// Cursor: the enterprise `hooks.json`; none for the other agents.
pub fn policy_files(roots: &SettingsRoots, agent: AgentKind) -> Vec<PathBuf> {
    match agent {
        AgentKind::Codex => vec![
            roots.codex_system.join(CODEX_REQUIREMENTS),
            roots.codex_system.join("hooks.json"),
            roots.codex_system.join("config.toml"),
        ],
        AgentKind::Gemini => vec![
            roots.gemini_system_defaults.clone(),
            roots.gemini_system_settings.clone(),
        ],
        AgentKind::Cursor => vec![roots.cursor_enterprise.clone()],
        AgentKind::Claude | AgentKind::Copilot => Vec::new(),
    }
}

/// Whether `path` of `agent` at `scope` is Codex CLI's `requirements.toml`.
pub fn is_codex_requirements(agent: AgentKind, scope: Scope, path: &Path) -> bool {
    agent == AgentKind::Codex
        && scope == Scope::Policy
        && path.file_name().is_some_and(|n| n == CODEX_REQUIREMENTS)
}

/// A `requirements.toml`'s hooks as read by [`super::codex_toml::hooks_value`],
/// its `managed_dir` keys taken out: they name where the managed hooks'
/// scripts are, not an event.
pub fn requirements_hooks(mut value: Value) -> Value {
    if let Some(hooks) = value.get_mut("hooks").and_then(Value::as_object_mut) {
        for key in CODEX_REQUIREMENTS_DIR_KEYS {
            hooks.remove(key);
        }
    }
    value
}

/// What Codex CLI's administrator says of every hook that is not managed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ManagedOnly {
    /// No `requirements.toml`, or it does not set `allow_managed_hooks_only`.
    No,
    /// `allow_managed_hooks_only = true`: only managed hooks run.
    Yes,
    /// The file is there but hookd cannot read or parse it.
    Unknown,
}

/// Whether `requirements.toml` sets `allow_managed_hooks_only = true` (a
/// top-level key, honoured there only, §1.1 "Admin switches").
pub fn codex_managed_only(roots: &SettingsRoots) -> ManagedOnly {
    let text = match fs::read_to_string(roots.codex_system.join(CODEX_REQUIREMENTS)) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return ManagedOnly::No,
        Err(_) => return ManagedOnly::Unknown,
    };
    match text.parse::<toml::Table>() {
        Ok(table) => match table
            .get("allow_managed_hooks_only")
            .and_then(toml::Value::as_bool)
        {
            Some(true) => ManagedOnly::Yes,
            _ => ManagedOnly::No,
        },
        Err(_) => ManagedOnly::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hookd_testkit::write_file as write;

    #[test]
    fn each_agents_administrator_files_are_under_the_roots() {
        let roots = SettingsRoots::under(Path::new("/t"));
        assert_eq!(
            policy_files(&roots, AgentKind::Codex),
            [
                Path::new("/t/etc/codex/requirements.toml"),
                Path::new("/t/etc/codex/hooks.json"),
                Path::new("/t/etc/codex/config.toml"),
            ]
        );
        assert_eq!(
            policy_files(&roots, AgentKind::Gemini),
            [
                Path::new("/t/etc/gemini-cli/system-defaults.json"),
                Path::new("/t/etc/gemini-cli/settings.json"),
            ]
        );
        assert_eq!(
            policy_files(&roots, AgentKind::Cursor),
            [Path::new("/t/etc/cursor/hooks.json")]
        );
        assert!(policy_files(&roots, AgentKind::Copilot).is_empty());
    }

    #[test]
    fn codex_allow_managed_hooks_only_is_read_from_requirements() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(dir.path());
        assert_eq!(codex_managed_only(&roots), ManagedOnly::No);
        let file = roots.codex_system.join(CODEX_REQUIREMENTS);
        write(&file, "allow_managed_hooks_only = false\n");
        assert_eq!(codex_managed_only(&roots), ManagedOnly::No);
        write(&file, "allow_managed_hooks_only = true\n[hooks]\n");
        assert_eq!(codex_managed_only(&roots), ManagedOnly::Yes);
        write(&file, "allow_managed_hooks_only = \n");
        assert_eq!(codex_managed_only(&roots), ManagedOnly::Unknown);
    }
}
