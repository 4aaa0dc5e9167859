//! The hooks files of every other coding agent, as a person reads them.
//!
//! hookd shows Claude Code's and its own settings files as editable hooks
//! ([`mod@super::document`], [`mod@super::validate`]). A project is often
//! worked on by other agents too, and their hooks are just as much the
//! project's: Codex CLI's `hooks.json`, the `hooks` of Gemini CLI's
//! `settings.json`, Cursor's `hooks.json` and every GitHub Copilot hooks
//! file (`docs/agent-hooks.md` §1.1, §2.1, §3.1, §4.1). Each has a shape
//! and units of its own, so this module reads each one that exists, at the
//! user's scope and the project's, into one list of hooks: the agent's
//! event with its Claude Code counterpart, the matcher, the command, the
//! timeout in seconds (Gemini CLI's milliseconds converted) and whether the
//! entry is hookd's own (`hookd connect --agent`), together with what the
//! agent would make of the file ([`super::agent_schema::check`]).
//!
//! Codex CLI also reads inline `[hooks]` tables of each layer's
//! `config.toml` (the user's and the project's, §1.1): they are listed
//! beside its `hooks.json` as a file of their own, with the same JSON paths
//! (`hooks.PreToolUse[0].hooks[0]`) and the same checks
//! ([`super::codex_toml`] reads them, and edits them in place).
//!
//! The files an administrator puts in place (Codex CLI's system layer and
//! `requirements.toml`, Gemini CLI's system settings, Cursor's enterprise
//! file) are listed after them at [`Scope::Policy`]
//! ([`super::agent_layers`]), never to be edited.
//!
//! Reading only: a file is changed with the agent's own tools, with
//! `hookd connect --agent` / `hookd hooks convert --write`, or a hook at a
//! time with [`super::agent_edit`] (which edits only a file listed here). A
//! file that
//! cannot be read or parsed is listed with its error rather than left out
//! (a hooks file the agent cannot read either is worth seeing), and a
//! project's file that leads out of the project through a symbolic link is
//! never followed: it is listed with that refusal.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::agent_layers;
use super::agent_schema::{self, AgentFileCheck};
use super::codex_toml;
use super::connect;
use super::connector;
use super::convert;
use super::events;
use super::format;
use super::location::{Scope, SettingsLocation, SettingsRoots};
use super::{copilot, cursor};
use crate::AgentKind;
use crate::fs_atomic::confine::{self, ConfineError};

/// What the list says about Gemini CLI's timeouts, which its files count in
/// milliseconds.
pub const GEMINI_TIMEOUT_NOTE: &str =
    "Gemini CLI counts timeouts in milliseconds; they are shown here in seconds";

/// Why an agent's hooks file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum AgentFileError {
    /// The file (or Copilot's hooks directory) could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// The file is not JSON (for Gemini CLI: not JSON with comments).
    #[error("{path} is not valid JSON: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parser's message, with line and column.
        message: String,
    },
    /// Codex CLI's `config.toml` is not TOML, or its `hooks` is not a table.
    #[error("{path} is not valid TOML: {message}")]
    ParseToml {
        /// The file.
        path: PathBuf,
        /// The parser's message, with line and column.
        message: String,
    },
    /// A project's file that is a symbolic link (or lies below one) leading
    /// out of the project: hookd does not follow it.
    #[error(
        "{path} leads out of the project through a symbolic link (to {resolved}); hookd does not read it"
    )]
    OutOfProject {
        /// The file as found in the project.
        path: PathBuf,
        /// Where its links lead.
        resolved: PathBuf,
    },
}

/// One hook of an agent's file: one handler of Codex CLI's or Gemini CLI's
/// matcher groups, or one of Cursor's or Copilot's flat entries.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentHook {
    /// Its event, as the agent spells it (`BeforeTool`).
    pub event: String,
    /// The Claude Code event it is (`PreToolUse`); `None` when Claude Code
    /// has no such event (`BeforeModel`).
    pub claude_event: Option<String>,
    /// Its matcher (its group's for Codex CLI and Gemini CLI); `None`
    /// when absent.
    pub matcher: Option<String>,
    /// The entry's type: `command` (also when absent), `prompt`, `http`, …
    pub handler_type: String,
    /// The command it runs (Copilot's `bash`, else its `command`,
    /// `powershell` or `exec`); `None` for an entry of another type or
    /// one without a command.
    pub command: Option<String>,
    /// Its timeout in seconds (Gemini CLI's milliseconds divided by 1000);
    /// `None` when it has none (the agent's default applies) or it is not
    /// a number. Codex CLI's from `timeout` only: it ignores `timeoutSec`.
    pub timeout_secs: Option<f64>,
    /// The entry runs `hookd-emit`: hookd's own (`hookd connect --agent`).
    pub hookd: bool,
    /// Gemini CLI's handler `name` (its `hooks.disabled` list names hooks
    /// by it); `None` for other agents or when absent.
    pub name: Option<String>,
    /// Where it is in the file (`hooks.BeforeTool[0].hooks[1]`), as the
    /// check's findings name places.
    pub json_path: String,
}

/// One agent's hooks file as read.
#[derive(Debug)]
pub struct AgentHookFile {
    /// The agent.
    pub agent: AgentKind,
    /// The user's file ([`Scope::Global`]), the project's
    /// ([`Scope::Project`]) or an administrator's ([`Scope::Policy`]: read
    /// only, [`super::agent_layers`]).
    pub scope: Scope,
    /// Where it is.
    pub path: PathBuf,
    /// Why it could not be read; then `hooks` is empty and `check` holds
    /// nothing.
    pub error: Option<AgentFileError>,
    /// Its hooks, in file order.
    pub hooks: Vec<AgentHook>,
    /// What the agent would drop or skip ([`agent_schema::check`]).
    pub check: AgentFileCheck,
    /// What to know about its timeouts ([`GEMINI_TIMEOUT_NOTE`]).
    pub timeout_note: Option<&'static str>,
    /// The Gemini CLI extension that ships this file (its
    /// `hooks/hooks.json`, [`agent_layers::gemini_extensions`]); such a file
    /// is the extension's, read only. `None` for every other file.
    pub extension: Option<String>,
    /// The file as parsed (`None` with `error`), for what `hooks` does not
    /// carry (a Gemini handler's `name`, Copilot's `disableAllHooks`),
    /// so nobody reads the file again. For Codex CLI's `config.toml`: its
    /// `[hooks]` events as JSON, under `hooks` (its `state` table left out).
    pub value: Option<Value>,
}

impl AgentHookFile {
    /// The file's name (Copilot keeps several files per scope).
    pub fn file_name(&self) -> String {
        self.path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// Every other agent's hooks file that exists, for `project` (the user's
/// files only without one): per agent in [`AgentKind::ALL`] order, the
/// user's file(s) then the project's, Copilot's files by name, then the
/// administrator's ([`agent_layers::policy_files`]), then (Gemini CLI) the
/// hooks of each installed extension, at the user's scope. A project file that
/// is the user's one (the project is the home directory) is listed once,
/// as the user's.
pub fn agent_hook_files(roots: &SettingsRoots, project: Option<&Path>) -> Vec<AgentHookFile> {
    let mut out: Vec<AgentHookFile> = Vec::new();
    for agent in AgentKind::ALL {
        let Some(connector) = connector::of(agent) else {
            continue;
        };
        for scope in [Scope::Global, Scope::Project] {
            if scope == Scope::Project && project.is_none() {
                continue;
            }
            let Ok(location) = connector.location(roots, scope, project) else {
                continue;
            };
            let root = project.filter(|_| scope == Scope::Project);
            for file in candidates(agent, &location) {
                if out.iter().any(|o| same_file(&o.path, &file)) {
                    continue;
                }
                if let Some(read) = read_file(agent, scope, &file, location.comments, root) {
                    out.push(read);
                }
            }
        }
        for file in agent_layers::policy_files(roots, agent) {
            if out.iter().any(|o| same_file(&o.path, &file)) {
                continue;
            }
            let comments = agent == AgentKind::Gemini;
            if let Some(read) = read_file(agent, Scope::Policy, &file, comments, None) {
                out.push(read);
            }
        }
        if agent == AgentKind::Gemini {
            // Gemini CLI parses an extension's hooks.json as plain JSON.
            for extension in agent_layers::gemini_extensions(roots) {
                if let Some(mut read) =
                    read_file(agent, Scope::Global, &extension.hooks, false, None)
                {
                    extension.hydrate(&mut read, project);
                    read.extension = Some(extension.name);
                    out.push(read);
                }
            }
        }
    }
    out
}

/// The files of `agent` to read at `location`: the file itself, or for
/// Copilot every `*.json` of the directory hookd's own file goes in. A
/// directory that cannot be listed is one candidate, so its error shows.
fn candidates(agent: AgentKind, location: &SettingsLocation) -> Vec<PathBuf> {
    if agent == AgentKind::Codex {
        return vec![
            location.path.clone(),
            location.path.with_file_name(CODEX_CONFIG),
        ];
    }
    if agent != AgentKind::Copilot {
        return vec![location.path.clone()];
    }
    let Some(dir) = location.path.parent() else {
        return Vec::new();
    };
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Vec::new(),
        Err(_) => return vec![dir.to_path_buf()],
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json") && !path.is_dir())
        .collect();
    files.sort();
    files
}

/// Codex CLI's configuration file, whose `[hooks]` it reads beside `hooks.json`.
const CODEX_CONFIG: &str = "config.toml";

/// Whether `path` is Codex CLI's `config.toml` (its `[hooks]` read and
/// edited as TOML, [`super::codex_toml`]) rather than a JSON hooks file.
pub fn is_codex_config(agent: AgentKind, path: &Path) -> bool {
    agent == AgentKind::Codex && path.file_name().is_some_and(|n| n == CODEX_CONFIG)
}

/// `path` read as `agent`'s hooks file; `None` when there is no such file
/// (nor, for Codex CLI's `config.toml`, any hook event in it).
/// `project` confines a project's file: it is not followed out of it.
pub fn read_file(
    agent: AgentKind,
    scope: Scope,
    path: &Path,
    comments: bool,
    project: Option<&Path>,
) -> Option<AgentHookFile> {
    fs::symlink_metadata(path).ok()?;
    let requirements = agent_layers::is_codex_requirements(agent, scope, path);
    let toml = requirements || is_codex_config(agent, path);
    let mut file = AgentHookFile {
        agent,
        scope,
        path: path.to_path_buf(),
        error: None,
        hooks: Vec::new(),
        check: AgentFileCheck::default(),
        timeout_note: (agent == AgentKind::Gemini).then_some(GEMINI_TIMEOUT_NOTE),
        extension: None,
        value: None,
    };
    let parsed = if requirements {
        parse_codex_toml(path, project).map(|v| v.map(agent_layers::requirements_hooks))
    } else if toml {
        parse_codex_toml(path, project)
    } else {
        parse(path, comments, project)
    };
    match parsed {
        // A config.toml (or requirements.toml) without hooks is not a
        // hooks file.
        Ok(Some(value)) if toml && value["hooks"].as_object().is_none_or(Map::is_empty) => {
            return None;
        }
        Ok(Some(value)) => {
            file.hooks = hooks(agent, &value);
            file.check = agent_schema::check(agent, &value);
            file.value = Some(value);
        }
        // A link to nothing: no file.
        Ok(None) => return None,
        Err(error) => file.error = Some(error),
    }
    Some(file)
}

/// Codex CLI's `config.toml` as `{"hooks": <its [hooks] events>}`
/// ([`codex_toml::hooks_value`]); `None` when it vanished.
fn parse_codex_toml(path: &Path, project: Option<&Path>) -> Result<Option<Value>, AgentFileError> {
    let Some(bytes) = read(path, project)? else {
        return Ok(None);
    };
    let invalid = |message: String| AgentFileError::ParseToml {
        path: path.to_path_buf(),
        message,
    };
    let text = String::from_utf8(bytes).map_err(|e| invalid(e.to_string()))?;
    codex_toml::hooks_value(&text)
        .map(Some)
        .map_err(|e| invalid(e.to_string()))
}

/// The parsed file; `None` when it vanished (or is a dangling link).
fn parse(
    path: &Path,
    comments: bool,
    project: Option<&Path>,
) -> Result<Option<Value>, AgentFileError> {
    let Some(bytes) = read(path, project)? else {
        return Ok(None);
    };
    let (value, _) = format::parse_with(&bytes, comments).map_err(|err| AgentFileError::Parse {
        path: path.to_path_buf(),
        message: err.to_string(),
    })?;
    Ok(Some(value))
}

/// The file's bytes; `None` when it vanished (or is a dangling link).
/// `project` confines a project's file: it is not followed out of it.
fn read(path: &Path, project: Option<&Path>) -> Result<Option<Vec<u8>>, AgentFileError> {
    if let Some(root) = project {
        confine::resolve_within(root, path).map_err(|err| match err {
            ConfineError::Outside { resolved, .. } => AgentFileError::OutOfProject {
                path: path.to_path_buf(),
                resolved,
            },
            ConfineError::Symlink { link, .. } => AgentFileError::OutOfProject {
                path: path.to_path_buf(),
                resolved: link,
            },
            ConfineError::Io { source, .. } => AgentFileError::Read {
                path: path.to_path_buf(),
                source,
            },
        })?;
    }
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(AgentFileError::Read {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The hooks of a parsed hooks file of `agent` (for Gemini CLI its whole
/// `settings.json`), in file order. What is not a hook's shape (an event
/// that is not a list, an entry that is not an object) is passed over:
/// [`agent_schema::check`] says where it is.
pub fn hooks(agent: AgentKind, file: &Value) -> Vec<AgentHook> {
    let Some(events) = file.get("hooks").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (event, entries) in events {
        if agent == AgentKind::Gemini
            && agent_schema::GEMINI_CONFIG_FIELDS.contains(&event.as_str())
        {
            continue;
        }
        let Some(entries) = entries.as_array() else {
            continue;
        };
        let event_path = connect::event_path(event);
        for (i, entry) in entries.iter().enumerate() {
            let Some(entry) = entry.as_object() else {
                continue;
            };
            match agent {
                AgentKind::Cursor | AgentKind::Copilot => out.push(hook(
                    agent,
                    event,
                    entry,
                    text(entry, "matcher"),
                    format!("{event_path}[{i}]"),
                )),
                _ => {
                    let matcher = text(entry, "matcher");
                    let Some(handlers) = entry.get("hooks").and_then(Value::as_array) else {
                        continue;
                    };
                    for (j, handler) in handlers.iter().enumerate() {
                        if let Some(handler) = handler.as_object() {
                            out.push(hook(
                                agent,
                                event,
                                handler,
                                matcher.clone(),
                                format!("{event_path}[{i}].hooks[{j}]"),
                            ));
                        }
                    }
                }
            }
        }
    }
    out
}

/// The keys `agent` reads a hook's timeout from, the first present
/// counting: Copilot's `timeout` or `timeoutSec`; `timeout` elsewhere.
/// Codex CLI's `timeoutSec` is no alias (trust-era `hook_config.rs`, as
/// [`super::agent_schema`] warns): Codex ignores it and the hook gets its
/// default, so it is neither listed as the timeout nor written as one.
pub(crate) fn timeout_keys(agent: AgentKind) -> &'static [&'static str] {
    match agent {
        AgentKind::Copilot => &["timeout", "timeoutSec"],
        _ => &["timeout"],
    }
}

/// One handler or flat entry as an [`AgentHook`].
fn hook(
    agent: AgentKind,
    event: &str,
    entry: &Map<String, Value>,
    matcher: Option<String>,
    json_path: String,
) -> AgentHook {
    let handler_type = text(entry, "type").unwrap_or_else(|| "command".to_owned());
    let command_keys: &[&str] = match agent {
        AgentKind::Copilot => &["bash", "command", "powershell", "exec"],
        _ => &["command"],
    };
    let command = (handler_type == "command")
        .then(|| command_keys.iter().find_map(|key| text(entry, key)))
        .flatten();
    let timeout = timeout_keys(agent)
        .iter()
        .find_map(|key| entry.get(*key).and_then(Value::as_f64));
    let timeout_secs = match agent {
        AgentKind::Gemini => timeout.map(|ms| ms / 1000.0),
        _ => timeout,
    };
    let whole = Value::Object(entry.clone());
    let hookd = match agent {
        AgentKind::Cursor => cursor::is_hookd_entry(&whole),
        AgentKind::Copilot => copilot::is_hookd_entry(&whole),
        _ => {
            // Codex CLI and Gemini CLI handlers: a command handler (its
            // `type` is required there) running hookd-emit.
            connect::is_hookd_handler(&whole)
        }
    };
    AgentHook {
        event: event.to_owned(),
        claude_event: claude_event(agent, event).map(str::to_owned),
        matcher,
        handler_type,
        command,
        timeout_secs,
        hookd,
        name: (agent == AgentKind::Gemini)
            .then(|| text(entry, "name"))
            .flatten(),
        json_path,
    }
}

/// The Claude Code event `agent`'s `event` is: the reverse of
/// [`convert::event_for`]; for Copilot's PascalCase events (Claude Code's
/// own names, `docs/agent-hooks.md` §4.2) the event itself.
pub fn claude_event(agent: AgentKind, event: &str) -> Option<&'static str> {
    if let Some(spec) = events::EVENTS
        .iter()
        .find(|spec| convert::event_for(agent, spec.name) == Some(event))
    {
        return Some(spec.name);
    }
    if agent == AgentKind::Copilot {
        return events::EVENTS
            .iter()
            .find(|spec| spec.name == event)
            .map(|spec| spec.name);
    }
    None
}

/// The string at `key`, if it is one.
fn text(entry: &Map<String, Value>, key: &str) -> Option<String> {
    entry.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// Same file, also through a symbolic link or `..` (the files exist).
fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (fs::canonicalize(a), fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use hookd_testkit::write_file as write;

    /// A home with its roots, and a project inside it (also for
    /// [`super::super::agent_edit`]'s tests).
    pub(crate) fn setup() -> (tempfile::TempDir, SettingsRoots, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(dir.path());
        let project = dir.path().join("proj");
        fs::create_dir_all(&project).unwrap();
        (dir, roots, project)
    }

    pub(crate) fn listed(files: &[AgentHookFile]) -> Vec<(AgentKind, Scope, String)> {
        files
            .iter()
            .map(|f| (f.agent, f.scope, f.file_name()))
            .collect()
    }

    #[test]
    fn nothing_is_listed_where_no_agent_has_a_file() {
        let (_dir, roots, project) = setup();
        assert!(agent_hook_files(&roots, Some(&project)).is_empty());
    }

    #[test]
    fn codex_config_toml_hooks_are_listed_beside_hooks_json() {
        let (_dir, roots, project) = setup();
        write(
            &roots.codex_home.join("config.toml"),
            r#"model = "o3"

[[hooks.PreToolUse]]
matcher = "Bash"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "./toml-guard.sh"
timeout = 5

[[hooks.Stop]]
hooks = [{ type = "command", command = "hookd-emit --agent codex Stop" }]

[hooks.state."/x/hooks.json:stop:0:0"]
enabled = false
"#,
        );
        // Only trust state, no event: not a hooks file.
        write(
            &project.join(".codex/config.toml"),
            "[hooks.state.\"k\"]\nenabled = true\n",
        );
        let files = agent_hook_files(&roots, Some(&project));
        assert_eq!(
            listed(&files),
            [(AgentKind::Codex, Scope::Global, "config.toml".into())]
        );
        let toml = &files[0];
        assert!(toml.error.is_none());
        assert_eq!(toml.check, AgentFileCheck::default());
        let shown: Vec<String> = toml
            .hooks
            .iter()
            .map(|h| {
                format!(
                    "{} {:?} {:?} {:?} {} {}",
                    h.event, h.matcher, h.command, h.timeout_secs, h.hookd, h.json_path
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                r#"PreToolUse Some("Bash") Some("./toml-guard.sh") Some(5.0) false hooks.PreToolUse[0].hooks[0]"#,
                r#"Stop None Some("hookd-emit --agent codex Stop") None true hooks.Stop[0].hooks[0]"#,
            ]
        );

        // Beside a hooks.json, both are listed, the JSON file first; a
        // config.toml that is no TOML is listed with its error.
        write(&roots.codex_home.join("hooks.json"), r#"{"hooks": {}}"#);
        write(&project.join(".codex/config.toml"), "[hooks\nbroken");
        let files = agent_hook_files(&roots, Some(&project));
        assert_eq!(
            listed(&files),
            [
                (AgentKind::Codex, Scope::Global, "hooks.json".into()),
                (AgentKind::Codex, Scope::Global, "config.toml".into()),
                (AgentKind::Codex, Scope::Project, "config.toml".into()),
            ]
        );
        let broken = files[2].error.as_ref().expect("an error").to_string();
        assert!(broken.contains("is not valid TOML"), "{broken}");
    }

    #[test]
    fn each_existing_file_is_listed_per_agent_and_scope_with_its_hooks() {
        let (_dir, roots, project) = setup();
        write(
            &roots.codex_home.join("hooks.json"),
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "./guard.sh", "timeout": 5},
                {"type": "command", "command": "hookd-emit --agent codex PreToolUse", "timeout": 10}]}],
              "Interrupt": [{"hooks": [{"type": "command", "command": "./bye.sh"}]}]}}"#,
        );
        write(
            &project.join(".cursor/hooks.json"),
            r#"{"version": 1, "hooks": {"beforeSubmitPrompt": [{"command": "./audit.sh", "timeout": 3}],
              "preToolUse": [{"command": "/usr/local/bin/hookd-emit --agent cursor preToolUse", "matcher": "Shell"}]}}"#,
        );
        let files = agent_hook_files(&roots, Some(&project));
        assert_eq!(
            listed(&files),
            [
                (AgentKind::Codex, Scope::Global, "hooks.json".into()),
                (AgentKind::Cursor, Scope::Project, "hooks.json".into()),
            ]
        );
        let codex = &files[0];
        assert!(codex.error.is_none());
        assert_eq!(codex.check, AgentFileCheck::default());
        assert_eq!(codex.timeout_note, None);
        assert_eq!(
            codex.hooks[0],
            AgentHook {
                event: "PreToolUse".into(),
                claude_event: Some("PreToolUse".into()),
                matcher: Some("Bash".into()),
                handler_type: "command".into(),
                command: Some("./guard.sh".into()),
                timeout_secs: Some(5.0),
                hookd: false,
                name: None,
                json_path: "hooks.PreToolUse[0].hooks[0]".into(),
            }
        );
        assert!(codex.hooks[1].hookd);
        // Codex CLI's Interrupt has no Claude Code counterpart.
        assert_eq!(
            (codex.hooks[2].event.as_str(), &codex.hooks[2].claude_event),
            ("Interrupt", &None)
        );
        let cursor = &files[1];
        assert_eq!(cursor.hooks.len(), 2);
        assert_eq!(cursor.hooks[0].event, "beforeSubmitPrompt");
        assert_eq!(
            cursor.hooks[0].claude_event.as_deref(),
            Some("UserPromptSubmit")
        );
        assert_eq!(cursor.hooks[0].json_path, "hooks.beforeSubmitPrompt[0]");
        assert_eq!(cursor.hooks[1].matcher.as_deref(), Some("Shell"));
        assert_eq!(cursor.hooks[1].claude_event.as_deref(), Some("PreToolUse"));
        assert!(cursor.hooks[1].hookd && !cursor.hooks[0].hookd);
        // Without a project only the user's files.
        assert_eq!(listed(&agent_hook_files(&roots, None)).len(), 1);
    }

    /// Codex CLI has no `timeoutSec` (trust-era `hook_config.rs` has no
    /// alias): the hook gets Codex's default, so none is listed; `timeout`
    /// beside it counts. Copilot's `timeoutSec` is its own key.
    #[test]
    fn a_codex_timeout_sec_is_listed_as_codex_reads_it_none_and_copilots_as_its_timeout() {
        let (_dir, roots, project) = setup();
        write(
            &roots.codex_home.join("hooks.json"),
            r#"{"hooks": {"PreToolUse": [{"hooks": [
                {"type": "command", "command": "./a.sh", "timeoutSec": 30},
                {"type": "command", "command": "./b.sh", "timeout": 5, "timeoutSec": 30}]}]}}"#,
        );
        write(
            &roots.codex_home.join("config.toml"),
            "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"./c.sh\", timeoutSec = 30 }]\n",
        );
        write(
            &project.join(".github/hooks/guard.json"),
            r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./d.sh", "timeoutSec": 15}]}}"#,
        );
        let files = agent_hook_files(&roots, Some(&project));
        let timeouts: Vec<(&str, Option<f64>)> = files
            .iter()
            .flat_map(|f| &f.hooks)
            .map(|h| (h.command.as_deref().unwrap(), h.timeout_secs))
            .collect();
        assert_eq!(
            timeouts,
            [
                ("./a.sh", None),
                ("./b.sh", Some(5.0)),
                ("./c.sh", None),
                ("./d.sh", Some(15.0)),
            ]
        );
    }

    #[test]
    fn every_json_file_of_a_copilot_hooks_dir_is_a_file_of_its_own() {
        let (_dir, roots, project) = setup();
        let dir = project.join(".github/hooks");
        write(
            &dir.join("guard.json"),
            r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./guard.sh", "timeoutSec": 15, "matcher": "bash"}],
              "PostToolUse": [{"type": "http", "url": "https://example.invalid/hook"}]}}"#,
        );
        write(
            &dir.join("hookd.json"),
            r#"{"version": 1, "hooks": {"agentStop": [{"type": "command", "bash": "hookd-emit --agent copilot agentStop", "timeoutSec": 10}]}}"#,
        );
        write(&dir.join("notes.txt"), "not a hooks file");
        write(&dir.join("hookd.json.hookd-backup"), "{}");
        let files = agent_hook_files(&roots, Some(&project));
        assert_eq!(
            listed(&files),
            [
                (AgentKind::Copilot, Scope::Project, "guard.json".into()),
                (AgentKind::Copilot, Scope::Project, "hookd.json".into()),
            ]
        );
        let guard = &files[0].hooks;
        assert_eq!(guard[0].command.as_deref(), Some("./guard.sh"));
        assert_eq!(guard[0].timeout_secs, Some(15.0));
        assert_eq!(guard[0].claude_event.as_deref(), Some("PreToolUse"));
        // An http entry runs no command; a PascalCase event is Claude Code's.
        assert_eq!(
            (guard[1].handler_type.as_str(), &guard[1].command),
            ("http", &None)
        );
        assert_eq!(guard[1].claude_event.as_deref(), Some("PostToolUse"));
        let ours = &files[1].hooks[0];
        assert!(ours.hookd);
        assert_eq!(ours.claude_event.as_deref(), Some("Stop"));
    }

    #[test]
    fn geminis_settings_with_comments_are_read_and_its_milliseconds_are_seconds() {
        let (_dir, roots, _project) = setup();
        write(
            &roots.home.join(".gemini/settings.json"),
            r#"{
              // the user's theme
              "theme": "dark",
              "hooks": {
                /* guards */
                "BeforeTool": [{"matcher": "write_file", "hooks": [
                  {"type": "command", "name": "guard", "command": "./guard.sh", "timeout": 5000}]}],
                "disabled": ["guard"],
                "BeforeModel": [{"hooks": [{"type": "command", "command": "./model.sh"}]}]
              }
            }"#,
        );
        let files = agent_hook_files(&roots, None);
        assert_eq!(listed(&files).len(), 1);
        let gemini = &files[0];
        assert!(gemini.error.is_none(), "{:?}", gemini.error);
        assert_eq!(gemini.timeout_note, Some(GEMINI_TIMEOUT_NOTE));
        assert_eq!(gemini.hooks.len(), 2, "disabled is a setting, not an event");
        assert_eq!(gemini.hooks[0].timeout_secs, Some(5.0));
        assert_eq!(gemini.hooks[0].name.as_deref(), Some("guard"));
        assert_eq!(gemini.hooks[0].claude_event.as_deref(), Some("PreToolUse"));
        assert_eq!(gemini.hooks[1].claude_event, None);
        assert!(gemini.check.errors.is_empty(), "{:?}", gemini.check);
    }

    #[test]
    fn a_broken_or_unreadable_file_is_listed_with_its_error() {
        let (_dir, roots, project) = setup();
        write(&project.join(".codex/hooks.json"), "{\"hooks\": ");
        // A directory where the file should be: it exists and cannot be read
        // (the tests may run as root, which reads any mode).
        fs::create_dir_all(roots.home.join(".cursor/hooks.json")).unwrap();
        write(
            &project.join(".cursor/hooks.json"),
            r#"{"version": 1, "hooks": {"stop": [{"timeout": 3}], "preToolUse": [{"command": 7}]}}"#,
        );
        let files = agent_hook_files(&roots, Some(&project));
        assert_eq!(
            listed(&files),
            [
                (AgentKind::Codex, Scope::Project, "hooks.json".into()),
                (AgentKind::Cursor, Scope::Global, "hooks.json".into()),
                (AgentKind::Cursor, Scope::Project, "hooks.json".into()),
            ]
        );
        assert!(matches!(files[0].error, Some(AgentFileError::Parse { .. })));
        assert!(
            files[0]
                .error
                .as_ref()
                .unwrap()
                .to_string()
                .contains("not valid JSON")
        );
        assert!(matches!(files[1].error, Some(AgentFileError::Read { .. })));
        // Read, but the agent would drop a hook: the check says where.
        let cursor = &files[2];
        assert!(cursor.error.is_none());
        assert_eq!(cursor.hooks.len(), 2);
        assert_eq!(cursor.hooks[0].command, None);
        assert_eq!(cursor.hooks[1].command, None);
        let paths: Vec<&str> = cursor
            .check
            .errors
            .iter()
            .map(|e| e.path.as_str())
            .collect();
        assert!(
            paths.iter().any(|p| p.starts_with("hooks.stop[0]")),
            "{paths:?}"
        );
        assert!(
            paths.iter().any(|p| p.starts_with("hooks.preToolUse[0]")),
            "{paths:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_project_file_linking_out_of_the_project_is_not_followed() {
        let (dir, roots, project) = setup();
        let outside = dir.path().join("elsewhere.json");
        write(
            &outside,
            r#"{"version": 1, "hooks": {"stop": [{"command": "./secret.sh"}]}}"#,
        );
        fs::create_dir_all(project.join(".cursor")).unwrap();
        std::os::unix::fs::symlink(&outside, project.join(".cursor/hooks.json")).unwrap();
        // A link inside the project is fine.
        write(&project.join("shared/codex.json"), r#"{"hooks": {}}"#);
        fs::create_dir_all(project.join(".codex")).unwrap();
        std::os::unix::fs::symlink("../shared/codex.json", project.join(".codex/hooks.json"))
            .unwrap();
        // A dangling link is no file.
        fs::create_dir_all(project.join(".gemini")).unwrap();
        std::os::unix::fs::symlink("missing.json", project.join(".gemini/settings.json")).unwrap();
        let files = agent_hook_files(&roots, Some(&project));
        assert_eq!(
            listed(&files),
            [
                (AgentKind::Codex, Scope::Project, "hooks.json".into()),
                (AgentKind::Cursor, Scope::Project, "hooks.json".into()),
            ]
        );
        assert!(files[0].error.is_none());
        assert!(matches!(
            files[1].error,
            Some(AgentFileError::OutOfProject { .. })
        ));
        assert!(files[1].hooks.is_empty());
    }

    #[test]
    fn the_home_directory_as_project_lists_each_file_once() {
        let (dir, roots, _project) = setup();
        write(
            &dir.path().join(".cursor/hooks.json"),
            r#"{"version": 1, "hooks": {}}"#,
        );
        let files = agent_hook_files(&roots, Some(dir.path()));
        assert_eq!(
            listed(&files),
            [(AgentKind::Cursor, Scope::Global, "hooks.json".into())]
        );
    }

    #[test]
    fn claude_events_are_found_back_from_each_agents_spelling() {
        assert_eq!(claude_event(AgentKind::Gemini, "AfterAgent"), Some("Stop"));
        assert_eq!(claude_event(AgentKind::Gemini, "PreToolUse"), None);
        assert_eq!(
            claude_event(AgentKind::Copilot, "userPromptSubmitted"),
            Some("UserPromptSubmit")
        );
        assert_eq!(claude_event(AgentKind::Copilot, "Stop"), Some("Stop"));
        assert_eq!(claude_event(AgentKind::Copilot, "errorOccurred"), None);
        assert_eq!(claude_event(AgentKind::Cursor, "afterFileEdit"), None);
        assert_eq!(
            claude_event(AgentKind::Codex, "PermissionRequest"),
            Some("PermissionRequest")
        );
    }
}
