//! Claude Code plugins as a source of hooks.
//!
//! An installed plugin can ship hooks in `<plugin>/hooks/hooks.json` (the
//! settings' `hooks` shape, with `${CLAUDE_PLUGIN_ROOT}` for its own
//! folder). They run in the agent beside the settings files' hooks while
//! the plugin is enabled, and a user who looks only at the settings files
//! cannot see them. hookd lists them, read-only, with their plugin: they
//! belong to the plugin, and an edit would be lost at its next update.
//!
//! Where Claude Code keeps them: `~/.claude/plugins/installed_plugins.json`
//! (`{"version": 2, "plugins": {"<name>@<marketplace>": [{"scope",
//! "installPath", "version", "projectPath"?}]}}`); whether one is enabled is
//! the `enabledPlugins` key of the settings files (`{"<id>": true}`), the
//! highest-precedence file that names it deciding (global < project <
//! local < policy).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::document::SettingsDocument;
use super::edit::group_matcher;
use super::error::Result;
use super::location::{Kind, SettingsRoots};

/// One hook a plugin ships.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PluginHook {
    /// The plugin (`<name>@<marketplace>`).
    pub plugin: String,
    /// Its installed version, when recorded.
    pub version: Option<String>,
    /// Whether the plugin is enabled for the project (its hooks run only then).
    pub enabled: bool,
    /// The plugin's `hooks/hooks.json`.
    pub path: PathBuf,
    /// The event.
    pub event: String,
    /// Its group's matcher.
    pub matcher: Option<String>,
    /// The handler's type.
    pub handler_type: String,
    /// What it runs (command, URL, prompt), `${CLAUDE_PLUGIN_ROOT}` as written.
    pub runs: String,
}

#[derive(Debug, Deserialize)]
struct Installed {
    #[serde(default)]
    plugins: BTreeMap<String, Vec<Install>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Install {
    #[serde(default)]
    scope: Option<String>,
    install_path: PathBuf,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    project_path: Option<PathBuf>,
}

/// A plugin installed for a project, enabled or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InstalledPlugin {
    /// `<name>@<marketplace>`.
    pub(crate) id: String,
    /// Its installed version, when recorded.
    pub(crate) version: Option<String>,
    /// Whether it is enabled for the project.
    pub(crate) enabled: bool,
    /// Its folder (`${CLAUDE_PLUGIN_ROOT}`).
    pub(crate) root: PathBuf,
}

/// Every plugin installed for `project` (user-wide installs, and project or
/// local installs of this project), enabled or not, in registry order. No
/// registry, or one hookd cannot read, is no plugins: the agent would not
/// load any either.
pub(crate) fn installed_plugins(
    roots: &SettingsRoots,
    project: Option<&Path>,
) -> Result<Vec<InstalledPlugin>> {
    let registry = roots.home.join(".claude/plugins/installed_plugins.json");
    let Ok(bytes) = std::fs::read(&registry) else {
        return Ok(Vec::new());
    };
    let Ok(installed) = serde_json::from_slice::<Installed>(&bytes) else {
        tracing::warn!(file = %registry.display(), "not a plugin registry hookd can read");
        return Ok(Vec::new());
    };
    let enabled = enabled_plugins(roots, project)?;
    Ok(installed
        .plugins
        .into_iter()
        .filter_map(|(id, installs)| {
            let install = installs.into_iter().find(|i| match i.scope.as_deref() {
                Some("project" | "local") => i.project_path.as_deref() == project,
                _ => true,
            })?;
            Some(InstalledPlugin {
                enabled: enabled.get(&id).copied().unwrap_or(false),
                id,
                version: install.version,
                root: install.install_path,
            })
        })
        .collect())
}

/// The hooks of every plugin installed for `project` (see
/// `installed_plugins`), enabled or not, in plugin order. A plugin or
/// `hooks.json` that cannot be read is skipped: the agent would not load it
/// either.
pub fn plugin_hooks(roots: &SettingsRoots, project: Option<&Path>) -> Result<Vec<PluginHook>> {
    let mut out = Vec::new();
    for plugin in installed_plugins(roots, project)? {
        let path = plugin.root.join("hooks").join("hooks.json");
        let Some(value) = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        else {
            continue;
        };
        let Some(hooks) = value.get("hooks").and_then(Value::as_object) else {
            continue;
        };
        for (event, matcher, handler) in handlers(hooks) {
            out.push(PluginHook {
                plugin: plugin.id.clone(),
                version: plugin.version.clone(),
                enabled: plugin.enabled,
                path: path.clone(),
                event: event.clone(),
                matcher: matcher.map(str::to_owned),
                handler_type: handler_type(handler),
                runs: handler_runs(handler),
            });
        }
    }
    Ok(out)
}

/// Every handler of a `hooks` object (the settings' shape), with its
/// event and its group's matcher, in document order; what is not an array
/// of groups is skipped.
pub(crate) fn handlers(
    hooks: &serde_json::Map<String, Value>,
) -> impl Iterator<Item = (&String, Option<&str>, &Value)> {
    hooks.iter().flat_map(|(event, groups)| {
        groups
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(move |group| {
                let matcher = group_matcher(group);
                group
                    .get("hooks")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .map(move |handler| (event, matcher, handler))
            })
    })
}

/// A handler's `type` (empty when absent).
pub(crate) fn handler_type(handler: &Value) -> String {
    handler
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// What a handler runs: its command, URL or prompt, else the handler as JSON.
pub(crate) fn handler_runs(handler: &Value) -> String {
    ["command", "url", "prompt"]
        .iter()
        .find_map(|k| handler.get(*k).and_then(Value::as_str))
        .map_or_else(|| handler.to_string(), str::to_owned)
}

/// `enabledPlugins` across the agent's files for `project`: the
/// highest-precedence file naming a plugin decides.
fn enabled_plugins(
    roots: &SettingsRoots,
    project: Option<&Path>,
) -> Result<BTreeMap<String, bool>> {
    let mut out = BTreeMap::new();
    for location in roots.locations(Kind::Agent, project)? {
        let Ok(doc) = SettingsDocument::load(&location) else {
            continue;
        };
        if let Some(map) = doc.value().get("enabledPlugins").and_then(Value::as_object) {
            for (id, on) in map {
                out.insert(id.clone(), on.as_bool().unwrap_or(false));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::fs;

    use serde_json::json;

    use super::*;
    use crate::settings::Scope;

    #[test]
    fn lists_the_hooks_of_installed_plugins_with_whether_each_is_enabled() {
        let tmp = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(tmp.path());
        let project = tmp.path().join("p");
        let plugin_dir = |name: &str| tmp.path().join("cache").join(name);
        for (name, event) in [
            ("guard", "PreToolUse"),
            ("notes", "Stop"),
            ("other", "Stop"),
        ] {
            let dir = plugin_dir(name).join("hooks");
            fs::create_dir_all(&dir).unwrap();
            fs::write(
                dir.join("hooks.json"),
                json!({"description": name, "hooks": {event: [{"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/run.sh"}]}]}})
                .to_string(),
            )
            .unwrap();
        }
        let registry = tmp.path().join(".claude/plugins/installed_plugins.json");
        fs::create_dir_all(registry.parent().unwrap()).unwrap();
        fs::write(
            &registry,
            json!({"version": 2, "plugins": {
                "guard@market": [{"scope": "user", "installPath": plugin_dir("guard"), "version": "1.2.0"}],
                "notes@market": [{"scope": "user", "installPath": plugin_dir("notes")}],
                "other@market": [{"scope": "project", "installPath": plugin_dir("other"), "projectPath": tmp.path().join("elsewhere")}]
            }})
            .to_string(),
        )
        .unwrap();
        let global = roots.location(Kind::Agent, Scope::Global, None).unwrap();
        fs::create_dir_all(global.path.parent().unwrap()).unwrap();
        fs::write(
            &global.path,
            json!({"enabledPlugins": {"guard@market": true, "notes@market": true}}).to_string(),
        )
        .unwrap();
        // The project's local file turns notes off for this project.
        let local = roots
            .location(Kind::Agent, Scope::Local, Some(&project))
            .unwrap();
        fs::create_dir_all(local.path.parent().unwrap()).unwrap();
        fs::write(
            &local.path,
            json!({"enabledPlugins": {"notes@market": false}}).to_string(),
        )
        .unwrap();

        let hooks = plugin_hooks(&roots, Some(&project)).unwrap();
        let seen: Vec<(&str, &str, bool)> = hooks
            .iter()
            .map(|h| (h.plugin.as_str(), h.event.as_str(), h.enabled))
            .collect();
        assert_eq!(
            seen,
            [
                ("guard@market", "PreToolUse", true),
                ("notes@market", "Stop", false)
            ]
        );
        assert_eq!(hooks[0].runs, "${CLAUDE_PLUGIN_ROOT}/run.sh");
        assert_eq!(hooks[0].version.as_deref(), Some("1.2.0"));
        assert_eq!(hooks[0].matcher.as_deref(), Some("Bash"));
        // No registry: no plugin hooks, no error.
        fs::remove_file(&registry).unwrap();
        assert!(plugin_hooks(&roots, Some(&project)).unwrap().is_empty());
    }
}
