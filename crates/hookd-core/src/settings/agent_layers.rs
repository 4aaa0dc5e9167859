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
//! [`super::agent_edit::file_location`] refuses them.
//!
//! Gemini CLI also runs the hooks of the extensions the user installed
//! (`~/.gemini/extensions/<dir>/hooks/hooks.json`, §2.1): those files are
//! the extension's, listed at the user's scope with the extension's name
//! ([`gemini_extensions`]) and just as read only; whether Gemini loads an
//! extension for a folder is in `extension-enablement.json`
//! ([`gemini_extension_enabled`]). Where they are comes
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

/// Gemini CLI's extensions directory, under the user's `.gemini`.
const GEMINI_EXTENSIONS_DIR: &str = ".gemini/extensions";

/// An extension's manifest, which Gemini CLI needs (with a `name` and a
/// `version`) to load it.
const GEMINI_EXTENSION_MANIFEST: &str = "gemini-extension.json";

/// Where Gemini CLI keeps how an extension was installed (`"type": "link"`:
/// it lives at its `source`).
const GEMINI_INSTALL_METADATA: &str = ".gemini-extension-install.json";

/// Gemini CLI's record of which extension is enabled where.
const GEMINI_ENABLEMENT: &str = "extension-enablement.json";

/// One Gemini CLI extension installed for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeminiExtension {
    /// Its name (its manifest's `name`).
    pub name: String,
    /// Its hooks file, `<extension dir>/hooks/hooks.json` (it need not exist).
    pub hooks: PathBuf,
}

/// The extensions Gemini CLI would load (`extension-manager.ts`
/// `loadExtensions`): each directory of `~/.gemini/extensions`, by name,
/// at the `source` of a linked one, whose `gemini-extension.json` has a
/// `name` and a `version` (Gemini skips any other).
pub fn gemini_extensions(roots: &SettingsRoots) -> Vec<GeminiExtension> {
    let Ok(entries) = fs::read_dir(roots.home.join(GEMINI_EXTENSIONS_DIR)) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let read =
        |path: &Path| -> Option<Value> { serde_json::from_slice(&fs::read(path).ok()?).ok() };
    let mut out = Vec::new();
    for dir in dirs {
        let linked = read(&dir.join(GEMINI_INSTALL_METADATA)).and_then(|meta| {
            (meta.get("type").and_then(Value::as_str) == Some("link"))
                .then(|| meta.get("source")?.as_str().map(PathBuf::from))
                .flatten()
        });
        let dir = linked.unwrap_or(dir);
        let Some(manifest) = read(&dir.join(GEMINI_EXTENSION_MANIFEST)) else {
            continue;
        };
        let (Some(name), Some(_)) = (
            manifest.get("name").and_then(Value::as_str),
            manifest.get("version").and_then(Value::as_str),
        ) else {
            continue;
        };
        out.push(GeminiExtension {
            name: name.to_owned(),
            hooks: dir.join("hooks").join("hooks.json"),
        });
    }
    out
}

/// Whether the extension `name` is enabled for `folder`, as Gemini CLI's
/// `ExtensionEnablementManager.isEnabled` reads `extension-enablement.json`:
/// enabled unless the last rule matching the folder is a `!` one (`*` at
/// the end: the folder and those inside it). `None` when the file is there
/// but cannot be read as JSON.
pub fn gemini_extension_enabled(roots: &SettingsRoots, name: &str, folder: &Path) -> Option<bool> {
    let path = roots
        .home
        .join(GEMINI_EXTENSIONS_DIR)
        .join(GEMINI_ENABLEMENT);
    let config: Value = match fs::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes).ok()?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some(true),
        Err(_) => return None,
    };
    let mut folder = folder.to_string_lossy().replace('\\', "/");
    if !folder.starts_with('/') {
        folder.insert(0, '/');
    }
    if !folder.ends_with('/') {
        folder.push('/');
    }
    let mut enabled = true;
    let rules = config
        .get(name)
        .and_then(|c| c.get("overrides"))
        .and_then(Value::as_array);
    for rule in rules.into_iter().flatten().filter_map(Value::as_str) {
        let (disable, rule) = match rule.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, rule),
        };
        let matches = match rule.strip_suffix('*') {
            // `base*`: the base folder and everything inside it.
            Some(base) => folder.starts_with(&format!("{}/", base.trim_end_matches('/'))),
            None => folder == rule,
        };
        if matches {
            enabled = !disable;
        }
    }
    Some(enabled)
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

    #[test]
    fn gemini_extensions_are_found_as_gemini_loads_them_and_enablement_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(dir.path());
        let exts = dir.path().join(".gemini/extensions");
        write(
            &exts.join("audit/gemini-extension.json"),
            r#"{"name": "audit", "version": "1.0.0"}"#,
        );
        // No version: Gemini skips it.
        write(
            &exts.join("broken/gemini-extension.json"),
            r#"{"name": "broken"}"#,
        );
        // Linked: it lives at its source.
        let source = dir.path().join("src/linted");
        write(
            &source.join("gemini-extension.json"),
            r#"{"name": "linted", "version": "0.1.0"}"#,
        );
        write(
            &exts.join("linted/.gemini-extension-install.json"),
            &format!(r#"{{"type": "link", "source": "{}"}}"#, source.display()),
        );
        let found = gemini_extensions(&roots);
        assert_eq!(
            found,
            [
                GeminiExtension {
                    name: "audit".into(),
                    hooks: exts.join("audit/hooks/hooks.json"),
                },
                GeminiExtension {
                    name: "linted".into(),
                    hooks: source.join("hooks/hooks.json"),
                },
            ]
        );

        let project = Path::new("/work/app");
        assert_eq!(
            gemini_extension_enabled(&roots, "audit", project),
            Some(true)
        );
        write(
            &exts.join("extension-enablement.json"),
            r#"{"audit": {"overrides": ["!/work/*", "/work/app/"]}, "linted": {"overrides": ["!/work/*"]}}"#,
        );
        assert_eq!(
            gemini_extension_enabled(&roots, "audit", project),
            Some(true)
        );
        assert_eq!(
            gemini_extension_enabled(&roots, "linted", project),
            Some(false)
        );
        assert_eq!(
            gemini_extension_enabled(&roots, "linted", Path::new("/elsewhere")),
            Some(true)
        );
        write(&exts.join("extension-enablement.json"), "{ not json");
        assert_eq!(gemini_extension_enabled(&roots, "audit", project), None);
    }
}
