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
//! ([`gemini_extensions`]) and just as read only, each hook shown as
//! Gemini loads it, `${extensionPath}` and its other variables substituted
//! ([`GeminiExtension::hydrate`]); whether Gemini loads an
//! extension for a folder is in `extension-enablement.json`
//! ([`gemini_extension_enabled`]). Where they are comes
//! from [`SettingsRoots`], so tests point them at temp dirs and never read
//! the real `/etc`.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::agent_files::AgentHookFile;
use super::format;
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

/// Codex CLI's `requirements.toml` parsed: `None` when there is none,
/// `Some(Err(()))` when hookd cannot read or parse it.
fn codex_requirements(roots: &SettingsRoots) -> Option<Result<toml::Table, ()>> {
    match fs::read_to_string(roots.codex_system.join(CODEX_REQUIREMENTS)) {
        Ok(text) => Some(text.parse::<toml::Table>().map_err(|_| ())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(_) => Some(Err(())),
    }
}

/// Whether `requirements.toml` sets `allow_managed_hooks_only = true` (a
/// top-level key, honoured there only, §1.1 "Admin switches").
pub fn codex_managed_only(roots: &SettingsRoots) -> ManagedOnly {
    match codex_requirements(roots) {
        None => ManagedOnly::No,
        Some(Err(())) => ManagedOnly::Unknown,
        Some(Ok(table)) => match table
            .get("allow_managed_hooks_only")
            .and_then(toml::Value::as_bool)
        {
            Some(true) => ManagedOnly::Yes,
            _ => ManagedOnly::No,
        },
    }
}

/// Whether `requirements.toml` turns Codex CLI's hooks off: `[features]
/// hooks = false`, or its deprecated alias `codex_hooks` (§1.1 "Admin
/// switches"); then no hook runs, managed ones included.
pub fn codex_hooks_off(roots: &SettingsRoots) -> bool {
    let Some(Ok(table)) = codex_requirements(roots) else {
        return false;
    };
    let features = table.get("features");
    let flag = |key: &str| {
        features
            .and_then(|f| f.get(key))
            .and_then(toml::Value::as_bool)
    };
    flag("hooks").or_else(|| flag("codex_hooks")) == Some(false)
}

/// Whose one of Gemini CLI's settings files is (`docs/agent-hooks.md` §2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeminiLayer {
    /// The administrator's `system-defaults.json`: the user's and the
    /// project's settings override it.
    SystemDefaults,
    /// The user's `~/.gemini/settings.json`.
    User,
    /// The project's `.gemini/settings.json`.
    Project,
    /// The administrator's system `settings.json`: it overrides every other.
    System,
}

/// One of Gemini CLI's settings files, parsed.
#[derive(Debug, Clone)]
pub struct GeminiSettings {
    /// Whose it is.
    pub layer: GeminiLayer,
    /// Where it is.
    pub path: PathBuf,
    /// Its content (comments allowed, as Gemini allows them).
    pub value: Value,
}

/// Gemini CLI's settings files that exist and parse, for `project` (the
/// user's and the administrator's only without one), in the order Gemini
/// merges them: system defaults < user < project < system (`settings.ts`
/// `mergeSettings`, §2.1), so a later file's value of a setting wins.
pub fn gemini_settings(roots: &SettingsRoots, project: Option<&Path>) -> Vec<GeminiSettings> {
    let files = [
        (
            GeminiLayer::SystemDefaults,
            Some(roots.gemini_system_defaults.clone()),
        ),
        (
            GeminiLayer::User,
            Some(roots.home.join(".gemini/settings.json")),
        ),
        (
            GeminiLayer::Project,
            project.map(|p| p.join(".gemini/settings.json")),
        ),
        (
            GeminiLayer::System,
            Some(roots.gemini_system_settings.clone()),
        ),
    ];
    files
        .into_iter()
        .filter_map(|(layer, path)| {
            let path = path?;
            let bytes = fs::read(&path).ok()?;
            let (value, _) = format::parse_with(&bytes, true).ok()?;
            Some(GeminiSettings { layer, path, value })
        })
        .collect()
}

/// The file of `settings` ([`gemini_settings`], in merge order) that sets
/// Gemini CLI's hooks master switch, `hooksConfig.enabled`, last, with the
/// value it sets; `None` when none sets it (hooks are on by default).
pub fn gemini_hooks_switch(settings: &[GeminiSettings]) -> Option<(&GeminiSettings, bool)> {
    settings.iter().rev().find_map(|file| {
        file.value
            .pointer("/hooksConfig/enabled")
            .and_then(Value::as_bool)
            .map(|on| (file, on))
    })
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
    /// Its directory (a linked one's `source`): Gemini's `${extensionPath}`.
    pub dir: PathBuf,
    /// Its hooks file, `<extension dir>/hooks/hooks.json` (it need not exist).
    pub hooks: PathBuf,
}

impl GeminiExtension {
    /// The hooks of `file`, this extension's hooks file as listed, made what
    /// Gemini CLI loads: every variable it substitutes replaced in each
    /// hook's command, matcher and name ([`gemini_extension_text`]), with
    /// `workspace` (the project) as `${workspacePath}`. The file as written
    /// stays in `file.value` (for an editor, and for the check).
    pub fn hydrate(&self, file: &mut AgentHookFile, workspace: Option<&Path>) {
        for hook in &mut file.hooks {
            for text in [&mut hook.command, &mut hook.matcher, &mut hook.name]
                .into_iter()
                .flatten()
            {
                *text = gemini_extension_text(text, &self.dir, workspace);
            }
        }
    }
}

/// A `${name}` reference, as Gemini CLI's `hydrateString` finds them
/// (`/\${(.*?)}/g`: the shortest name, on one line; Rust's `.` excludes
/// `\n` as JavaScript's does).
static GEMINI_VARIABLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\$\{(.*?)\}").expect("a valid regex"));

/// `text`, a string of an extension's `hooks/hooks.json`, as Gemini CLI
/// loads it: `extension-manager.ts` `loadExtensionHooks` runs
/// `recursivelyHydrateStrings` over every string of `hooks` (`variables.ts`
/// `hydrateString`, both at `5411f113`), replacing `${extensionPath}` (the
/// extension's directory, `dir`), `${workspacePath}` (the workspace Gemini
/// runs in: `workspace`, kept as written without one), `${/}` and
/// `${pathSeparator}` (the path separator). Any other `${name}` is kept as
/// written: Gemini replaces one named like an extension setting's
/// environment variable with its value (from the extension's `.env` or the
/// keychain, which hookd does not read) and keeps the rest. `$NAME` forms
/// (`$GEMINI_PROJECT_DIR`) are the shell's and the hook runner's, at run
/// time, for every hook alike: kept.
pub fn gemini_extension_text(text: &str, dir: &Path, workspace: Option<&Path>) -> String {
    GEMINI_VARIABLE
        .replace_all(text, |found: &regex::Captures<'_>| {
            let value = match &found[1] {
                "extensionPath" => Some(dir.display().to_string()),
                "workspacePath" => workspace.map(|w| w.display().to_string()),
                "/" | "pathSeparator" => Some(std::path::MAIN_SEPARATOR_STR.to_owned()),
                _ => None,
            };
            value.unwrap_or_else(|| found[0].to_owned())
        })
        .into_owned()
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
            dir,
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

// The listing and verdict tests of these layers live here, beside the
// layers, with the helpers of agent_files' and agent_runs' own tests.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::agent_files::agent_hook_files;
    use crate::settings::agent_files::tests::{listed, setup};
    use crate::settings::agent_runs::tests::summaries;
    use crate::settings::agent_runs::verdicts;
    use crate::settings::agent_schema::AgentFileCheck;
    use crate::settings::runs::NotRunCode;
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
        assert!(!codex_hooks_off(&roots));
        write(&file, "[features]\nhooks = true\ncodex_hooks = false\n");
        assert!(!codex_hooks_off(&roots), "the canonical key wins");
        write(&file, "[features]\ncodex_hooks = false\n");
        assert!(codex_hooks_off(&roots));
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
                    dir: exts.join("audit"),
                    hooks: exts.join("audit/hooks/hooks.json"),
                },
                GeminiExtension {
                    name: "linted".into(),
                    dir: source.clone(),
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

    /// Gemini CLI substitutes `${extensionPath}`, `${workspacePath}`, `${/}`
    /// and `${pathSeparator}` in an extension's hooks when it loads them:
    /// the listing shows the command Gemini runs (and matches
    /// `hooksConfig.disabled` against it, as Gemini does), the file as
    /// written stays in the listed file's value.
    #[test]
    fn gemini_extension_hooks_are_listed_with_geminis_variables_substituted() {
        let (_dir, roots, project) = setup();
        let exts = roots.home.join(".gemini/extensions");
        let source = roots.home.join("src/linted");
        write(
            &source.join("gemini-extension.json"),
            r#"{"name": "linted", "version": "0.1.0"}"#,
        );
        write(
            &exts.join("linted/.gemini-extension-install.json"),
            &format!(r#"{{"type": "link", "source": "{}"}}"#, source.display()),
        );
        let raw = "node ${extensionPath}${/}start.js --in ${workspacePath}${pathSeparator}src ${API_KEY} ${nope";
        write(
            &source.join("hooks/hooks.json"),
            &format!(
                r#"{{"hooks": {{"BeforeTool": [{{"matcher": "${{extensionPath}}", "hooks": [{{"type": "command", "name": "lint-${{workspacePath}}", "command": "{raw}"}}]}}]}}}}"#
            ),
        );
        let sep = std::path::MAIN_SEPARATOR_STR;
        let files = agent_hook_files(&roots, Some(&project));
        let listed = files.iter().find(|f| f.extension.is_some()).unwrap();
        let hook = &listed.hooks[0];
        assert_eq!(
            hook.command.as_deref(),
            Some(
                format!(
                    "node {}{sep}start.js --in {}{sep}src ${{API_KEY}} ${{nope",
                    source.display(),
                    project.display()
                )
                .as_str()
            ),
            "the linked extension's own directory; an extension setting and a broken reference kept"
        );
        assert_eq!(hook.matcher.as_deref(), Some(source.to_str().unwrap()));
        assert_eq!(
            hook.name.as_deref(),
            Some(format!("lint-{}", project.display()).as_str())
        );
        let value = listed.value.as_ref().unwrap();
        assert_eq!(
            value.pointer("/hooks/BeforeTool/0/hooks/0/command"),
            Some(&Value::String(raw.to_owned())),
            "the text as written is kept"
        );
        // Without a project the workspace is unknown: kept as written.
        let files = agent_hook_files(&roots, None);
        let listed = files.iter().find(|f| f.extension.is_some()).unwrap();
        assert!(
            listed.hooks[0]
                .command
                .as_deref()
                .is_some_and(|c| c.contains("--in ${workspacePath}")),
            "{:?}",
            listed.hooks[0]
        );

        // Gemini's hooksConfig.disabled names the loaded hook: the name
        // with the workspace substituted.
        write(
            &roots.home.join(".gemini/settings.json"),
            &format!(
                r#"{{"hooksConfig": {{"disabled": ["lint-{}"]}}}}"#,
                project.display()
            ),
        );
        let found = summaries(&roots, &project, AgentKind::Gemini);
        assert_eq!(found[0].1, "listed in Gemini CLI's hooksConfig.disabled");
    }

    #[test]
    fn codex_system_and_admin_layers_are_listed_as_policy_after_the_users() {
        let (_dir, roots, project) = setup();
        write(
            &roots.codex_system.join("requirements.toml"),
            r#"allow_managed_hooks_only = true

[features]
hooks = true

[hooks]
managed_dir = "/etc/codex/hooks"

[[hooks.PreToolUse]]
matcher = "^Bash$"
hooks = [{ type = "command", command = "/etc/codex/hooks/guard.sh", timeout = 5 }]
"#,
        );
        write(
            &roots.codex_system.join("hooks.json"),
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/opt/audit.sh"}]}]}}"#,
        );
        // Only settings, no hooks: not a hooks file.
        write(&roots.codex_system.join("config.toml"), "model = \"o3\"\n");
        write(&roots.codex_home.join("hooks.json"), r#"{"hooks": {}}"#);
        let files = agent_hook_files(&roots, Some(&project));
        assert_eq!(
            listed(&files),
            [
                (AgentKind::Codex, Scope::Global, "hooks.json".into()),
                (AgentKind::Codex, Scope::Policy, "requirements.toml".into()),
                (AgentKind::Codex, Scope::Policy, "hooks.json".into()),
            ]
        );
        let requirements = &files[1];
        assert!(requirements.error.is_none(), "{:?}", requirements.error);
        // managed_dir is where the scripts are, not an event.
        assert_eq!(requirements.check, AgentFileCheck::default());
        assert_eq!(requirements.hooks.len(), 1);
        assert_eq!(
            requirements.hooks[0].command.as_deref(),
            Some("/etc/codex/hooks/guard.sh")
        );
        assert_eq!(
            requirements.hooks[0].json_path,
            "hooks.PreToolUse[0].hooks[0]"
        );
        assert_eq!(files[2].path, roots.codex_system.join("hooks.json"));
        assert_eq!(files[2].hooks[0].event, "Stop");

        // The system config.toml's [hooks] are listed too; mangled files are
        // listed with their TOML line or JSON path.
        write(
            &roots.codex_system.join("config.toml"),
            "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"./s.sh\" }]\n",
        );
        write(
            &roots.codex_system.join("requirements.toml"),
            "[hooks]\nmanaged_dir = \"/x\"\n[[hooks.Stop]]\nhooks = [\n",
        );
        write(
            &roots.codex_system.join("hooks.json"),
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": 7}]}]}}"#,
        );
        let files = agent_hook_files(&roots, None);
        assert_eq!(
            listed(&files)[1..],
            [
                (AgentKind::Codex, Scope::Policy, "requirements.toml".into()),
                (AgentKind::Codex, Scope::Policy, "hooks.json".into()),
                (AgentKind::Codex, Scope::Policy, "config.toml".into()),
            ]
        );
        let broken = files[1].error.as_ref().expect("an error").to_string();
        assert!(
            broken.contains("is not valid TOML") && broken.contains("line 4"),
            "{broken}"
        );
        assert!(
            files[2]
                .check
                .errors
                .iter()
                .any(|e| e.path.starts_with("hooks.Stop[0].hooks[0]")),
            "{:?}",
            files[2].check
        );
        assert_eq!(files[3].hooks[0].command.as_deref(), Some("./s.sh"));
    }

    #[test]
    fn gemini_system_layers_extensions_and_cursors_enterprise_file_are_listed() {
        let (_dir, roots, project) = setup();
        write(
            &roots.gemini_system_defaults,
            r#"{"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "./d.sh"}]}]}}"#,
        );
        write(
            &roots.gemini_system_settings,
            r#"{
              // the administrator's
              "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "/opt/guard.sh", "timeout": 2000}]}]}
            }"#,
        );
        let ext = roots.home.join(".gemini/extensions/audit");
        write(
            &ext.join("gemini-extension.json"),
            r#"{"name": "audit", "version": "1.0.0"}"#,
        );
        write(
            &ext.join("hooks/hooks.json"),
            r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "node ${extensionPath}/on-start.js"}]}]}}"#,
        );
        // An extension without hooks has no file to list.
        write(
            &roots
                .home
                .join(".gemini/extensions/quiet/gemini-extension.json"),
            r#"{"name": "quiet", "version": "1.0.0"}"#,
        );
        write(
            &roots.cursor_enterprise,
            r#"{"version": 1, "hooks": {"stop": [{"command": "/opt/cursor-audit.sh"}]}}"#,
        );
        let files = agent_hook_files(&roots, Some(&project));
        let shown: Vec<(AgentKind, Scope, String, Option<String>)> = files
            .iter()
            .map(|f| (f.agent, f.scope, f.file_name(), f.extension.clone()))
            .collect();
        assert_eq!(
            shown,
            [
                (
                    AgentKind::Gemini,
                    Scope::Policy,
                    "system-defaults.json".into(),
                    None
                ),
                (
                    AgentKind::Gemini,
                    Scope::Policy,
                    "settings.json".into(),
                    None
                ),
                (
                    AgentKind::Gemini,
                    Scope::Global,
                    "hooks.json".into(),
                    Some("audit".into())
                ),
                (AgentKind::Cursor, Scope::Policy, "hooks.json".into(), None),
            ]
        );
        assert_eq!(
            files[1].hooks[0].timeout_secs,
            Some(2.0),
            "comments allowed"
        );
        assert_eq!(files[2].path, ext.join("hooks/hooks.json"));
        assert_eq!(
            files[2].hooks[0].claude_event.as_deref(),
            Some("SessionStart")
        );
        assert_eq!(
            files[3].hooks[0].command.as_deref(),
            Some("/opt/cursor-audit.sh")
        );

        // A mangled enterprise file: Cursor's check names the JSON path.
        write(
            &roots.cursor_enterprise,
            r#"{"version": 1, "hooks": {"stop": [{"timeout": 3}]}}"#,
        );
        let files = agent_hook_files(&roots, None);
        let cursor = files.iter().find(|f| f.agent == AgentKind::Cursor).unwrap();
        assert!(
            cursor
                .check
                .errors
                .iter()
                .any(|e| e.path.starts_with("hooks.stop[0]")),
            "{:?}",
            cursor.check
        );
    }

    #[test]
    fn codex_managed_hooks_run_without_trust_and_managed_only_stops_the_users() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(&dir.path().join("home"));
        let project = dir.path().join("repo");
        let user_file = roots.codex_home.join("hooks.json");
        write(
            &user_file,
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./mine.sh"}]}]}}"#,
        );
        let system_file = roots.codex_system.join("hooks.json");
        write(
            &system_file,
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/opt/audit.sh"}]}]}}"#,
        );
        // /hooks cannot turn a managed hook off: its state is not read.
        write(
            &roots.codex_home.join("config.toml"),
            &format!(
                "[hooks.state.\"{}:stop:0:0\"]\nenabled = false\n",
                system_file.display()
            ),
        );
        let requirements = roots.codex_system.join("requirements.toml");
        write(
            &requirements,
            "[hooks]\nmanaged_dir = \"/etc/codex/hooks\"\n[[hooks.PreToolUse]]\nhooks = [{ type = \"command\", command = \"/etc/codex/hooks/g.sh\" }]\n",
        );
        let untrusted = "Codex CLI runs it only once you trust it: open /hooks in Codex";
        let found = summaries(&roots, &project, AgentKind::Codex);
        assert_eq!(
            found,
            [
                (Scope::Global, untrusted.to_owned()),
                (Scope::Policy, "runs".to_owned()),
                (Scope::Policy, "runs".to_owned()),
            ]
        );

        // allow_managed_hooks_only: the user's hook does not run, trusted
        // or not; the managed ones still do.
        write(
            &requirements,
            "allow_managed_hooks_only = true\n[[hooks.PreToolUse]]\nhooks = [{ type = \"command\", command = \"/etc/codex/hooks/g.sh\" }]\n",
        );
        let files = agent_hook_files(&roots, Some(&project));
        let user = files.iter().find(|f| f.path == user_file).unwrap();
        let verdict = &verdicts(&roots, Some(&project), user)[0];
        assert!(!verdict.runs);
        assert_eq!(verdict.reasons[0].code, NotRunCode::ManagedHooksOnly);
        assert!(
            verdict.reasons[0]
                .message
                .contains("allow_managed_hooks_only = true"),
            "{verdict:?}"
        );
        let found = summaries(&roots, &project, AgentKind::Codex);
        assert_eq!(
            found[1..],
            [
                (Scope::Policy, "runs".to_owned()),
                (Scope::Policy, "runs".to_owned())
            ]
        );

        // [features] hooks = false: no Codex hook runs, managed or not.
        write(&requirements, "[features]\nhooks = false\n");
        let found = summaries(&roots, &project, AgentKind::Codex);
        assert!(
            found.iter().all(|(_, s)| s.starts_with(
                "the administrator's requirements.toml sets [features] hooks = false"
            )),
            "{found:?}"
        );

        // The key in an ordinary config.toml is ignored (§1.1).
        write(&requirements, "");
        write(
            &roots.codex_home.join("config.toml"),
            "allow_managed_hooks_only = true\n",
        );
        assert_eq!(
            summaries(&roots, &project, AgentKind::Codex)[0].1,
            untrusted
        );

        // A managed file Codex cannot parse is dropped, managed or not.
        write(&system_file, r#"{"hooks": {}, "extra": 1, "Stop": []}"#);
        write(
            &system_file,
            r#"{"extra": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/opt/audit.sh"}]}]}}"#,
        );
        let found = summaries(&roots, &project, AgentKind::Codex);
        assert!(
            found[1].1.starts_with("Codex CLI drops this file"),
            "{found:?}"
        );
    }

    #[test]
    fn gemini_extension_hooks_run_while_enabled_and_system_settings_switch_all_off() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(&dir.path().join("home"));
        let project = dir.path().join("repo");
        let exts = roots.home.join(".gemini/extensions");
        write(
            &exts.join("audit/gemini-extension.json"),
            r#"{"name": "audit", "version": "1.0.0"}"#,
        );
        write(
            &exts.join("audit/hooks/hooks.json"),
            r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "./start.sh"}]}]}}"#,
        );
        write(
            &roots.gemini_system_settings,
            r#"{"hooks": {"AfterTool": [{"hooks": [{"type": "command", "name": "log", "command": "/opt/log.sh"}]}]}}"#,
        );
        let found = summaries(&roots, &project, AgentKind::Gemini);
        assert_eq!(
            found,
            [
                (Scope::Policy, "runs".to_owned()),
                (
                    Scope::Global,
                    "runs if Gemini CLI is not started with --extensions (-e) leaving the extension audit out".to_owned()
                ),
            ]
        );
        // Disabled for this folder (what `gemini extensions disable` writes).
        write(
            &exts.join("extension-enablement.json"),
            &format!(
                r#"{{"audit": {{"overrides": ["!{}/*"]}}}}"#,
                project.display()
            ),
        );
        assert_eq!(
            summaries(&roots, &project, AgentKind::Gemini)[1].1,
            "the Gemini CLI extension audit is disabled for this folder (gemini extensions enable audit turns it on)"
        );
        // The system settings turn hooks off and list one by name: they win.
        write(
            &roots.home.join(".gemini/settings.json"),
            r#"{"hooksConfig": {"enabled": true}}"#,
        );
        write(
            &roots.gemini_system_settings,
            r#"{"hooksConfig": {"enabled": false, "disabled": ["log"]}, "hooks": {"AfterTool": [{"hooks": [{"type": "command", "name": "log", "command": "/opt/log.sh"}]}]}}"#,
        );
        let found = summaries(&roots, &project, AgentKind::Gemini);
        assert_eq!(
            found[0].1,
            "Gemini CLI's hooksConfig.enabled is false: it runs no hook; listed in Gemini CLI's hooksConfig.disabled"
        );
        assert!(
            found[1]
                .1
                .starts_with("Gemini CLI's hooksConfig.enabled is false"),
            "{found:?}"
        );

        // Cursor's enterprise hooks run without a workspace's trust.
        write(
            &roots.cursor_enterprise,
            r#"{"version": 1, "hooks": {"stop": [{"command": "/opt/a.sh"}]}}"#,
        );
        assert_eq!(
            summaries(&roots, &project, AgentKind::Cursor),
            [(Scope::Policy, "runs".to_owned())]
        );
    }
}
