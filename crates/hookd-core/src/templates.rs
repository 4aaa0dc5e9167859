//! The hooks-templates catalog: ready-made hooks (`hooks-templates/index.json`
//! plus their scripts) that `hookd templates` and the app list, show,
//! install and uninstall.
//!
//! The catalog and every script are embedded in the binary, so an installed
//! `hookd` works anywhere; a test checks the embedded copy against the files
//! on disk. Installing copies a template's script (mode 0755) to
//! `<project>/.hookd/hooks/` (project and local scopes) or
//! `<hookd home>/hooks/` (global scope), then adds its handlers through
//! [`settings::add_hook`] and [`SettingsDocument::save`], so nothing else in
//! the settings file moves. Installing twice changes nothing; uninstalling
//! removes exactly the handlers installed (and the script once no settings
//! file sharing that hooks directory uses it any more).
//!
//! A template with `connect` (record-into-hookd) has no script: it is the
//! `hookd-emit` entries of `hookd connect`, installed and removed through
//! [`crate::agent_connect`] so the two never disagree.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::agent_connect::{self, AgentConnectError, ChangeStatus};
use crate::fs_atomic;
use crate::matcher::Matcher;
use crate::settings::{
    self, HookSelector, Kind, Scope, SettingsDocument, SettingsError, SettingsLocation,
    SettingsRoots, WriteOutcome,
};

/// The catalog manifest, as shipped in `hooks-templates/index.json`.
pub const INDEX_JSON: &str = include_str!("../../../hooks-templates/index.json");

/// Every script the catalog refers to: file name and bytes.
pub const SCRIPTS: &[(&str, &[u8])] = &[
    (
        "block-dangerous-shell.py",
        include_bytes!("../../../hooks-templates/block-dangerous-shell.py"),
    ),
    (
        "protect-secrets.py",
        include_bytes!("../../../hooks-templates/protect-secrets.py"),
    ),
    (
        "protect-main-branch.py",
        include_bytes!("../../../hooks-templates/protect-main-branch.py"),
    ),
    (
        "stay-in-project.py",
        include_bytes!("../../../hooks-templates/stay-in-project.py"),
    ),
    (
        "session-git-context.sh",
        include_bytes!("../../../hooks-templates/session-git-context.sh"),
    ),
    (
        "log-bash-commands.py",
        include_bytes!("../../../hooks-templates/log-bash-commands.py"),
    ),
];

/// The placeholder in a template's command that installing replaces with
/// the installed script's path.
pub const SCRIPT_PLACEHOLDER: &str = "{script}";

/// The directory (inside `.hookd/` or hookd's home) installed scripts go to.
pub const HOOKS_DIR: &str = "hooks";

/// The only catalog schema version this build reads.
pub const CATALOG_VERSION: u32 = 1;

/// Errors from loading the catalog or installing a template.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    /// The manifest is not JSON of the catalog's shape.
    #[error("the templates catalog is not valid: {0}")]
    Parse(#[source] serde_json::Error),
    /// The manifest parsed but breaks a rule of the schema.
    #[error("the templates catalog is not valid: template {template:?}: {problem}")]
    Invalid {
        /// The template's name (or `#index` when it has none).
        template: String,
        /// What is wrong.
        problem: String,
    },
    /// No template of that name.
    #[error("no template named {name:?} (see `hookd templates list`)")]
    Unknown {
        /// The name asked for.
        name: String,
    },
    /// A `connect` template only exists as agent hooks.
    #[error(
        "template {0:?} installs the agent's own hookd-emit hooks: use --kind agent (managed hooks are run by hookd itself)"
    )]
    AgentOnly(String),
    /// A project scope without a project directory.
    #[error("the {0} scope needs a project directory")]
    NoProject(Scope),
    /// Reading, checking or saving a settings file failed.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// Editing the agent's hookd-emit hooks failed.
    #[error(transparent)]
    Connect(#[from] AgentConnectError),
    /// A file-system operation on a script failed.
    #[error("{action} {path}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
}

/// Result alias for this module.
pub type Result<T, E = TemplateError> = std::result::Result<T, E>;

/// The whole catalog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    /// Schema version ([`CATALOG_VERSION`]).
    pub version: u32,
    /// The templates, in display order.
    pub templates: Vec<Template>,
}

/// One ready-made hook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    /// Unique name: lowercase letters, digits and `-`.
    pub name: String,
    /// One line saying what it does.
    pub description: String,
    /// The script file in `hooks-templates/` (absent for `connect` templates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// `"record"`: the template is `hookd connect`'s hookd-emit hooks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connect: Option<String>,
    /// The handlers it installs.
    pub hooks: Vec<TemplateHook>,
    /// Programs the hook needs on `PATH` (e.g. `python3`, `git`).
    #[serde(default)]
    pub requires: Vec<String>,
    /// Platforms it is written for (`linux`, `macos`).
    pub platforms: Vec<String>,
}

/// One handler of a template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemplateHook {
    /// The agent event, e.g. `PreToolUse`.
    pub event: String,
    /// The group's matcher (absent: every occurrence of the event).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matcher: Option<String>,
    /// The command; [`SCRIPT_PLACEHOLDER`] stands for the installed script.
    pub command: String,
    /// Timeout in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
}

impl Catalog {
    /// The catalog embedded in this binary, validated.
    pub fn embedded() -> Result<Self> {
        Self::parse(INDEX_JSON)
    }

    /// Parses and validates a manifest; every script must be embedded.
    pub fn parse(json: &str) -> Result<Self> {
        let catalog: Self = serde_json::from_str(json).map_err(TemplateError::Parse)?;
        catalog.validate()?;
        Ok(catalog)
    }

    /// The template called `name`.
    pub fn get(&self, name: &str) -> Result<&Template> {
        self.templates
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| TemplateError::Unknown {
                name: name.to_owned(),
            })
    }

    fn validate(&self) -> Result<()> {
        let invalid = |template: &str, problem: String| TemplateError::Invalid {
            template: template.to_owned(),
            problem,
        };
        if self.version != CATALOG_VERSION {
            return Err(invalid(
                "#index",
                format!(
                    "version {} (this hookd reads {CATALOG_VERSION})",
                    self.version
                ),
            ));
        }
        for (i, t) in self.templates.iter().enumerate() {
            let name = t.name.as_str();
            let name_ok = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            if !name_ok {
                return Err(invalid(
                    name,
                    "name must be lowercase letters, digits and -".into(),
                ));
            }
            if self.templates[..i].iter().any(|o| o.name == name) {
                return Err(invalid(name, "name used twice".into()));
            }
            if t.description.trim().is_empty() || t.description.contains('\n') {
                return Err(invalid(
                    name,
                    "description must be one non-empty line".into(),
                ));
            }
            if t.platforms.is_empty() {
                return Err(invalid(name, "platforms is empty".into()));
            }
            if t.hooks.is_empty() {
                return Err(invalid(name, "hooks is empty".into()));
            }
            for h in &t.hooks {
                settings::resolve_event(&h.event).map_err(|e| invalid(name, e.to_string()))?;
                Matcher::parse(h.matcher.as_deref()).map_err(|e| invalid(name, e.to_string()))?;
                if h.timeout == Some(0) {
                    return Err(invalid(name, "timeout must be at least 1 second".into()));
                }
            }
            match (&t.script, t.connect.as_deref()) {
                (Some(script), None) => {
                    if script_bytes(script).is_none() {
                        return Err(invalid(name, format!("script {script:?} is not embedded")));
                    }
                    if let Some(h) = t
                        .hooks
                        .iter()
                        .find(|h| !h.command.contains(SCRIPT_PLACEHOLDER))
                    {
                        return Err(invalid(
                            name,
                            format!("command {:?} does not run {SCRIPT_PLACEHOLDER}", h.command),
                        ));
                    }
                }
                (None, Some("record")) => check_connect_hooks(t).map_err(|p| invalid(name, p))?,
                (None, Some(other)) => {
                    return Err(invalid(name, format!("unknown connect mode {other:?}")));
                }
                (Some(_), Some(_)) => {
                    return Err(invalid(name, "has both script and connect".into()));
                }
                (None, None) => return Err(invalid(name, "has neither script nor connect".into())),
            }
        }
        Ok(())
    }
}

/// The catalog's hookd-emit entries must be exactly what `hookd connect`
/// installs, so showing the template never misleads.
fn check_connect_hooks(t: &Template) -> Result<(), String> {
    let expected: Vec<TemplateHook> = agent_connect::HOOKS
        .iter()
        .map(|spec| TemplateHook {
            event: spec.event.to_owned(),
            matcher: spec.matcher.map(str::to_owned),
            command: agent_connect::Mode::Record.command(agent_connect::EMIT_PROGRAM, spec),
            timeout: Some(agent_connect::HANDLER_TIMEOUT_SECS),
        })
        .collect();
    if t.hooks == expected {
        Ok(())
    } else {
        Err("hooks differ from what `hookd connect` installs".into())
    }
}

/// The embedded bytes of the script `name`.
pub fn script_bytes(name: &str) -> Option<&'static [u8]> {
    SCRIPTS.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}

/// Where installed scripts live for a scope: `<project>/.hookd/hooks` for
/// project and local, `<hookd home>/hooks` for global.
pub fn hooks_dir(roots: &SettingsRoots, scope: Scope, project: Option<&Path>) -> Result<PathBuf> {
    if scope.is_project() {
        let project = project.ok_or(TemplateError::NoProject(scope))?;
        Ok(project
            .join(settings::location::MANAGED_PROJECT_DIR)
            .join(HOOKS_DIR))
    } else {
        Ok(roots.hookd_home.join(HOOKS_DIR))
    }
}

/// The handler command of `hook` for a script installed at `scope`: project
/// scopes go through `$CLAUDE_PROJECT_DIR` so a committed file works in every
/// checkout; the global scope uses the absolute path.
pub fn command_for(
    hook: &TemplateHook,
    script: &str,
    roots: &SettingsRoots,
    scope: Scope,
) -> String {
    let path = if scope.is_project() {
        format!(
            "\"$CLAUDE_PROJECT_DIR\"/{}/{HOOKS_DIR}/{}",
            settings::location::MANAGED_PROJECT_DIR,
            agent_connect::shell_quote(script)
        )
    } else {
        let abs = roots.hookd_home.join(HOOKS_DIR).join(script);
        agent_connect::shell_quote(&abs.to_string_lossy()).into_owned()
    };
    hook.command.replace(SCRIPT_PLACEHOLDER, &path)
}

/// What happened to the script file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileChange {
    /// It did not exist and was written.
    Created,
    /// It differed (content or mode) and was rewritten.
    Updated,
    /// It was already exactly right (install) or is still in use (uninstall).
    Unchanged,
    /// It was deleted (uninstall).
    Removed,
    /// There was none.
    Absent,
}

/// What [`install`] or [`uninstall`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeReport {
    /// The settings file edited.
    pub settings: PathBuf,
    /// Handlers added (install) or removed (uninstall), as `Event (matcher)`.
    pub handlers: Vec<String>,
    /// The settings file's write, when it was written.
    pub write: Option<WriteOutcome>,
    /// The installed script, for script templates.
    pub script: Option<PathBuf>,
    /// What happened to the script.
    pub script_change: FileChange,
}

impl ChangeReport {
    /// True when nothing at all was changed on disk.
    pub fn unchanged(&self) -> bool {
        self.write.is_none()
            && self.handlers.is_empty()
            && matches!(
                self.script_change,
                FileChange::Unchanged | FileChange::Absent
            )
    }
}

fn label(hook: &TemplateHook) -> String {
    match &hook.matcher {
        Some(m) => format!("{} ({m})", hook.event),
        None => hook.event.clone(),
    }
}

fn io_err<'a>(
    action: &'static str,
    path: &'a Path,
) -> impl FnOnce(io::Error) -> TemplateError + 'a {
    move |source| TemplateError::Io {
        action,
        path: path.to_path_buf(),
        source,
    }
}

/// Installs `template` into the settings file at `location` (`project` is
/// the project root for project and local scopes). The script is written
/// first so a handler never points at a missing file. Idempotent: when the
/// script is identical (bytes and mode 0755) and every handler is already in
/// its group, nothing is written.
pub fn install(
    template: &Template,
    roots: &SettingsRoots,
    location: &SettingsLocation,
    project: Option<&Path>,
) -> Result<ChangeReport> {
    if location.read_only {
        return Err(SettingsError::ReadOnly {
            path: location.path.clone(),
        }
        .into());
    }
    let Some(script) = &template.script else {
        return install_connect(template, location);
    };
    let bytes = script_bytes(script).ok_or_else(|| TemplateError::Invalid {
        template: template.name.clone(),
        problem: format!("script {script:?} is not embedded"),
    })?;
    let dir = hooks_dir(roots, location.scope, project)?;
    let path = dir.join(script);
    let script_change = write_script(&dir, &path, bytes)?;

    let mut doc = SettingsDocument::load(location)?;
    let mut handlers = Vec::new();
    for hook in &template.hooks {
        let command = command_for(hook, script, roots, location.scope);
        let timeout = hook.timeout.map(|s| s as f64);
        let handler = settings::command_handler(&command, timeout);
        match settings::add_hook(&mut doc, &hook.event, hook.matcher.as_deref(), handler) {
            Ok(_) => handlers.push(label(hook)),
            Err(SettingsError::Duplicate { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    let write = if handlers.is_empty() {
        None
    } else {
        Some(doc.save(false)?)
    };
    Ok(ChangeReport {
        settings: location.path.clone(),
        handlers,
        write,
        script: Some(path),
        script_change,
    })
}

fn write_script(dir: &Path, path: &Path, bytes: &[u8]) -> Result<FileChange> {
    let existing = match fs::read(path) {
        Ok(b) => Some(b),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_err("cannot read", path)(e)),
    };
    let mode_ok = fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o7777 == 0o755);
    if existing.as_deref() == Some(bytes) && mode_ok {
        return Ok(FileChange::Unchanged);
    }
    fs::create_dir_all(dir).map_err(io_err("cannot create directory", dir))?;
    fs_atomic::write_atomic(path, bytes, false)
        .map_err(|e| TemplateError::Settings(SettingsError::Write(e)))?;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))
        .map_err(io_err("cannot make executable", path))?;
    Ok(if existing.is_some() {
        FileChange::Updated
    } else {
        FileChange::Created
    })
}

fn install_connect(template: &Template, location: &SettingsLocation) -> Result<ChangeReport> {
    if location.kind != Kind::Agent {
        return Err(TemplateError::AgentOnly(template.name.clone()));
    }
    // `hookd connect --managed` already records every event (and relays
    // managed hooks); switching it back to record-only would silently turn
    // the managed hooks off, so that counts as installed.
    if let Ok(doc) = SettingsDocument::load(location)
        && has_managed_emit(doc.value())
    {
        return Ok(ChangeReport {
            settings: location.path.clone(),
            handlers: Vec::new(),
            write: None,
            script: None,
            script_change: FileChange::Absent,
        });
    }
    let emit = agent_connect::emit_command(None)?;
    let report =
        agent_connect::connect_mode(&location.path, &emit, agent_connect::Mode::Record, false)?;
    Ok(connect_report(location, report))
}

fn connect_report(
    location: &SettingsLocation,
    report: agent_connect::ChangeReport,
) -> ChangeReport {
    let write = match report.status {
        ChangeStatus::Written(outcome) => Some(outcome),
        _ => None,
    };
    ChangeReport {
        settings: location.path.clone(),
        handlers: if write.is_some() {
            report.events
        } else {
            Vec::new()
        },
        write,
        script: None,
        script_change: FileChange::Absent,
    }
}

/// Removes exactly the handlers [`install`] adds for `template` from the
/// settings file at `location`, then the script when no settings file
/// sharing its hooks directory (both kinds, same scopes) still runs it and
/// no disabled hook in hookd's store names it. Uninstalling what is not
/// installed changes nothing.
pub fn uninstall(
    template: &Template,
    roots: &SettingsRoots,
    location: &SettingsLocation,
    project: Option<&Path>,
) -> Result<ChangeReport> {
    if location.read_only {
        return Err(SettingsError::ReadOnly {
            path: location.path.clone(),
        }
        .into());
    }
    let Some(script) = &template.script else {
        if location.kind != Kind::Agent {
            return Err(TemplateError::AgentOnly(template.name.clone()));
        }
        let report = agent_connect::disconnect(&location.path, false)?;
        return Ok(connect_report(location, report));
    };
    let mut doc = SettingsDocument::load(location)?;
    let mut handlers = Vec::new();
    let commands: Vec<String> = template
        .hooks
        .iter()
        .map(|h| command_for(h, script, roots, location.scope))
        .collect();
    for (hook, command) in template.hooks.iter().zip(&commands) {
        if !doc.existed() {
            break;
        }
        let selector = HookSelector {
            event: hook.event.clone(),
            matcher: hook.matcher.clone(),
            command: command.clone(),
        };
        match settings::remove_hook(&mut doc, &selector) {
            Ok(_) => handlers.push(label(hook)),
            Err(SettingsError::NotFound { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    let write = if handlers.is_empty() {
        None
    } else {
        Some(doc.save(false)?)
    };
    let dir = hooks_dir(roots, location.scope, project)?;
    let path = dir.join(script);
    let script_change = if !path.exists() {
        FileChange::Absent
    } else if script_in_use(roots, location.scope, project, &commands, script)? {
        FileChange::Unchanged
    } else {
        fs::remove_file(&path).map_err(io_err("cannot remove", &path))?;
        // The directory goes too when it is now empty; otherwise it stays.
        let _ = fs::remove_dir(&dir);
        FileChange::Removed
    };
    Ok(ChangeReport {
        settings: location.path.clone(),
        handlers,
        write,
        script: Some(path),
        script_change,
    })
}

/// True when a settings file sharing the hooks directory of `scope` still
/// has a handler running one of `commands`, or the store of disabled hooks
/// mentions the script. A file that cannot be read counts as using it:
/// keeping a script is harmless, deleting one still in use is not.
fn script_in_use(
    roots: &SettingsRoots,
    scope: Scope,
    project: Option<&Path>,
    commands: &[String],
    script: &str,
) -> Result<bool> {
    let scopes: &[Scope] = if scope.is_project() {
        &[Scope::Project, Scope::Local]
    } else {
        &[Scope::Global]
    };
    for kind in Kind::ALL {
        for &scope in scopes {
            let location = roots.location(kind, scope, project)?;
            let Ok(doc) = SettingsDocument::load(&location) else {
                return Ok(true);
            };
            if has_command(doc.value(), commands) {
                return Ok(true);
            }
        }
    }
    match fs::read_to_string(roots.disabled_store()) {
        Ok(text) => Ok(text.contains(script)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(_) => Ok(true),
    }
}

/// Every handler of a settings document, in file order.
fn handlers(value: &Value) -> impl Iterator<Item = &Value> {
    value
        .get("hooks")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|hooks| hooks.values())
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|group| group.get("hooks").and_then(Value::as_array))
        .flatten()
}

fn has_command(value: &Value, commands: &[String]) -> bool {
    handlers(value)
        .filter_map(|h| h.get("command").and_then(Value::as_str))
        .any(|c| commands.iter().any(|m| m == c))
}

/// True when the file has `hookd-emit --wait` handlers (managed mode).
fn has_managed_emit(value: &Value) -> bool {
    let flag = format!(" {} ", agent_connect::WAIT_FLAG);
    handlers(value).any(|h| {
        agent_connect::is_hookd_handler(h)
            && h.get("command")
                .and_then(Value::as_str)
                .is_some_and(|c| c.contains(&flag))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../hooks-templates")
    }

    #[test]
    fn embedded_catalog_is_valid() {
        let catalog = Catalog::embedded().unwrap();
        assert!(catalog.get("block-dangerous-shell").is_ok());
        assert!(catalog.get("record-into-hookd").is_ok());
        assert!(matches!(
            catalog.get("nope"),
            Err(TemplateError::Unknown { .. })
        ));
    }

    #[test]
    fn embedded_files_equal_the_files_on_disk() {
        let dir = catalog_dir();
        assert_eq!(
            fs::read_to_string(dir.join("index.json")).unwrap(),
            INDEX_JSON
        );
        for (name, bytes) in SCRIPTS {
            assert_eq!(fs::read(dir.join(name)).unwrap(), *bytes, "{name}");
        }
        // Every script on disk is embedded and used by a template.
        let catalog = Catalog::embedded().unwrap();
        for entry in fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name == "index.json" || name == "README.md" {
                continue;
            }
            assert!(script_bytes(&name).is_some(), "{name} is not embedded");
            assert!(
                catalog
                    .templates
                    .iter()
                    .any(|t| t.script.as_deref() == Some(name.as_str())),
                "{name} is used by no template"
            );
            let mode = fs::metadata(dir.join(&name)).unwrap().permissions().mode();
            assert_eq!(mode & 0o111, 0o111, "{name} is not executable");
        }
    }

    #[test]
    fn invalid_catalogs_are_refused_with_the_reason() {
        let bad = |json: &str| Catalog::parse(json).unwrap_err().to_string();
        assert!(bad("{").contains("not valid"));
        assert!(bad(r#"{"version": 2, "templates": []}"#).contains("version 2"));
        let one = |hook: &str, extra: &str| {
            format!(
                r#"{{"version":1,"templates":[{{"name":"x","description":"d","platforms":["linux"],"hooks":[{hook}]{extra}}}]}}"#
            )
        };
        let ok_hook = r#"{"event":"PreToolUse","matcher":"Bash","command":"{script}"}"#;
        let script = r#","script":"block-dangerous-shell.py""#;
        assert!(Catalog::parse(&one(ok_hook, script)).is_ok());
        assert!(bad(&one(ok_hook, r#","script":"missing.py""#)).contains("not embedded"));
        assert!(bad(&one(ok_hook, "")).contains("neither script nor connect"));
        assert!(
            bad(&one(
                r#"{"event":"PreToolUze","command":"{script}"}"#,
                script
            ))
            .contains("PreToolUze")
        );
        assert!(
            bad(&one(
                r#"{"event":"PreToolUse","matcher":"(","command":"{script}"}"#,
                script
            ))
            .contains("template \"x\"")
        );
        assert!(
            bad(&one(r#"{"event":"PreToolUse","command":"run.sh"}"#, script))
                .contains("does not run {script}")
        );
        assert!(
            bad(&one(ok_hook, r#","connect":"record","script":"a""#))
                .contains("both script and connect")
        );
        assert!(
            bad(&one(ok_hook, r#","connect":"record""#))
                .contains("differ from what `hookd connect` installs")
        );
        assert!(bad(&one(ok_hook, r#","color":"red""#)).contains("unknown field"));
    }

    #[test]
    fn project_commands_go_through_claude_project_dir() {
        let roots = SettingsRoots::under(Path::new("/home/u"));
        let hook = TemplateHook {
            event: "PreToolUse".into(),
            matcher: Some("Bash".into()),
            command: "{script}".into(),
            timeout: None,
        };
        assert_eq!(
            command_for(&hook, "a.py", &roots, Scope::Project),
            "\"$CLAUDE_PROJECT_DIR\"/.hookd/hooks/a.py"
        );
        assert_eq!(
            command_for(&hook, "a.py", &roots, Scope::Global),
            "/home/u/.hookd/hooks/a.py"
        );
    }
}
