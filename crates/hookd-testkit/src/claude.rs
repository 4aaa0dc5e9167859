//! What Claude Code itself keeps in a test HOME beside the settings files:
//! installed plugins (the registry, each plugin's `hooks/hooks.json` and
//! `enabledPlugins`), laid out as Claude Code records them, so a test of the
//! hook sources hookd lists reads the real layout, not a stand-in.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::env::TestEnv;

impl TestEnv {
    /// Installs the plugin `id` (`<name>@<marketplace>`) at `version` for
    /// every project, as Claude Code does: its folder under
    /// `~/.claude/plugins/cache/` with `hooks` (the settings' `hooks` object)
    /// as its `hooks/hooks.json`, and its entry in
    /// `~/.claude/plugins/installed_plugins.json` (other installs are kept).
    /// Returns the plugin's folder. Whether it is enabled is
    /// [`Self::enable_plugin`]'s.
    pub fn install_plugin(&self, id: &str, version: &str, hooks: &Value) -> PathBuf {
        let (name, market) = id.split_once('@').expect("a plugin id is name@marketplace");
        let folder = self
            .home()
            .join(".claude/plugins/cache")
            .join(market)
            .join(name)
            .join(version);
        std::fs::create_dir_all(folder.join("hooks")).expect("mkdir plugin");
        crate::fs::write_file(
            &folder.join("hooks/hooks.json"),
            &json!({ "hooks": hooks }).to_string(),
        );
        let registry = self.home().join(".claude/plugins/installed_plugins.json");
        let mut installed: Value = std::fs::read(&registry)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_else(|| json!({"version": 2, "plugins": {}}));
        installed["plugins"][id] =
            json!([{"scope": "user", "installPath": folder, "version": version}]);
        crate::fs::write_file(&registry, &installed.to_string());
        folder
    }

    /// Sets `enabledPlugins[id]` in the settings file `settings` (the
    /// user's `~/.claude/settings.json`, or a project's), keeping its other
    /// keys.
    pub fn enable_plugin(&self, settings: &Path, id: &str, enabled: bool) {
        let mut value: Value = std::fs::read(settings)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_else(|| json!({}));
        value["enabledPlugins"][id] = json!(enabled);
        crate::fs::write_file(settings, &value.to_string());
    }
}
