//! Whether each hook of another agent's file will really run for a
//! project, and why not: the other agents' side of [`super::runs`].
//!
//! A hook in Codex CLI's, Gemini CLI's, Cursor's or GitHub Copilot's file
//! is not a hook that runs, and each agent has its own reasons
//! (`docs/agent-hooks.md` §1.1, §2.1, §3.1, §4.1):
//! - the agent drops a file it cannot parse whole, or one hook of it
//!   (Codex CLI: a group whose matcher does not compile, a hook with an
//!   empty command) ([`super::agent_schema::check`]'s errors);
//! - Codex CLI loads a project's `.codex/hooks.json` only when the project
//!   is trusted (`[projects."<path>"] trust_level = "trusted"` in its
//!   `config.toml`), and runs any unmanaged hook only once the user has
//!   trusted that exact hook in `/hooks` (`[hooks.state."<key>"]
//!   trusted_hash`, the hash hookd computes as Codex does,
//!   [`super::codex_trust`]: a hook changed since is not run), and never
//!   one turned off there (`enabled = false`);
//! - Codex CLI's managed layers (the administrator's `requirements.toml`,
//!   the system `config.toml` and `hooks.json`, [`super::agent_layers`])
//!   run without trust and cannot be turned off; with
//!   `allow_managed_hooks_only = true` in `requirements.toml` no other
//!   Codex hook runs;
//! - Gemini CLI runs an extension's hooks only while the extension is
//!   enabled for the folder (`extension-enablement.json`) and extensions
//!   are not turned off (`admin.extensions.enabled: false`);
//! - Gemini CLI runs no hook with `hooksConfig.enabled: false`, none named
//!   in `hooksConfig.disabled`, and a project's only in a trusted folder
//!   when its folder trust is on (`security.folderTrust.enabled` in the
//!   user's settings): a folder `~/.gemini/trustedFolders.json` trusts
//!   (`TRUST_FOLDER`, or `TRUST_PARENT` of a folder inside), not one it
//!   marks `DO_NOT_TRUST`; for any other Gemini asks when it opens it;
//! - Cursor runs a project's hooks only in a trusted workspace;
//! - Copilot skips a file with `"disableAllHooks": true`.
//!
//! What hookd can read it says ([`AgentVerdict::reasons`]); what it cannot
//! (Cursor's workspace trust, a folder Gemini has not been asked about yet,
//! Codex's hash of an `mcp_tool` hook) it names as a condition
//! ([`AgentVerdict::provided`]) rather than guess. So the Effective view
//! and `hookd hooks list --agent` say, for instance, that hookd's own Codex
//! entries record nothing until trusted.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::agent_files::{AgentHook, AgentHookFile};
use super::agent_layers::{self, GeminiLayer, ManagedOnly};
use super::agent_schema;
use super::codex_trust::{self, HookTrust};
use super::format;
use super::location::{Scope, SettingsRoots};
use super::runs::{NotRun, NotRunCode};
use super::validate::ValidationError;
use crate::AgentKind;

/// Whether one hook of another agent's file will run for the project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AgentVerdict {
    /// No reason stops it (it runs when its event comes and its matcher
    /// matches, if the conditions in `provided` hold).
    pub runs: bool,
    /// Why it will not run, every reason hookd can see.
    pub reasons: Vec<NotRun>,
    /// What must hold for it to run that hookd cannot check (the agent
    /// keeps it where hookd cannot read it, or in a form hookd does not
    /// reproduce).
    pub provided: Vec<String>,
}

impl AgentVerdict {
    /// The verdict in one line: `runs`, `runs if …`, or the reasons.
    pub fn summary(&self) -> String {
        if !self.runs {
            return self
                .reasons
                .iter()
                .map(|r| r.message.as_str())
                .collect::<Vec<_>>()
                .join("; ");
        }
        if self.provided.is_empty() {
            "runs".to_owned()
        } else {
            format!("runs if {}", self.provided.join(" and "))
        }
    }
}

/// The verdict of each hook of `file` (in its order), for `project` (the
/// user's files only without one); `roots` locate the agent's own settings
/// (Codex's `config.toml`, Gemini's user `settings.json`).
pub fn verdicts(
    roots: &SettingsRoots,
    project: Option<&Path>,
    file: &AgentHookFile,
) -> Vec<AgentVerdict> {
    let raw = file.value.as_ref();
    let context = Context::read(roots, project, file);
    file.hooks
        .iter()
        .map(|hook| {
            let mut verdict = AgentVerdict {
                runs: true,
                reasons: Vec::new(),
                provided: Vec::new(),
            };
            context.judge(file, hook, raw, &mut verdict);
            verdict.runs = verdict.reasons.is_empty();
            verdict
        })
        .collect()
}

/// What the agent's own settings say about the file being judged.
struct Context {
    /// Codex CLI's `config.toml`, parsed (empty when there is none; `None`
    /// when it cannot be read or parsed).
    codex: Option<toml::Table>,
    /// Whether Codex CLI's administrator allows only managed hooks.
    codex_managed_only: ManagedOnly,
    /// Codex CLI's administrator turned hooks off (`[features] hooks = false`).
    codex_hooks_off: bool,
    /// Gemini CLI's master switch is off (`hooksConfig.enabled: false`).
    gemini_off: bool,
    /// Gemini CLI loads no extension (`admin.extensions.enabled: false`).
    gemini_no_extensions: bool,
    /// Whether the extension that ships the file is enabled for the
    /// project (`None`: its enablement file cannot be read).
    gemini_extension_on: Option<bool>,
    /// The hook names (or commands) Gemini CLI's `hooksConfig.disabled`
    /// lists, user's and project's.
    gemini_disabled: Vec<String>,
    /// Whether Gemini CLI trusts the project's folder.
    gemini_folder: FolderTrust,
    /// The project, for Codex's trust entry.
    project: Option<std::path::PathBuf>,
}

/// What Gemini CLI's own settings say of the project's folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FolderTrust {
    /// Its folder trust is off (the default): every folder is trusted.
    Off,
    /// `trustedFolders.json` trusts it.
    Trusted,
    /// `trustedFolders.json` marks it `DO_NOT_TRUST`.
    NotTrusted,
    /// Nothing decided (Gemini asks when it opens the folder), or the file
    /// cannot be read.
    Unknown,
}

/// Environment variable Gemini CLI reads its trusted folders file from,
/// instead of `~/.gemini/trustedFolders.json`.
const GEMINI_TRUSTED_FOLDERS_ENV: &str = "GEMINI_CLI_TRUSTED_FOLDERS_PATH";

/// Gemini CLI's trust in `project` (`docs/agent-hooks.md` §2.1): off unless
/// `security.folderTrust.enabled` is true in the user's settings; then the
/// rules of its trusted folders file, the way its `isPathTrusted` applies
/// them (a trusted folder and everything inside it; `DO_NOT_TRUST` only
/// that very folder).
fn gemini_folder_trust(roots: &SettingsRoots, user: Option<&Value>, project: &Path) -> FolderTrust {
    let enabled = user
        .and_then(|u| u.pointer("/security/folderTrust/enabled"))
        .and_then(Value::as_bool)
        == Some(true);
    if !enabled {
        return FolderTrust::Off;
    }
    let file = std::env::var_os(GEMINI_TRUSTED_FOLDERS_ENV)
        .filter(|p| !p.is_empty())
        .map_or_else(
            || roots.home.join(".gemini/trustedFolders.json"),
            std::path::PathBuf::from,
        );
    let Some(rules) = read_json(&file, true) else {
        return FolderTrust::Unknown;
    };
    let Some(rules) = rules.as_object() else {
        return FolderTrust::Unknown;
    };
    let mut untrusted = false;
    for (path, level) in rules {
        let path = Path::new(path);
        let trusted_root = match level.as_str() {
            Some("TRUST_FOLDER") => Some(path),
            Some("TRUST_PARENT") => path.parent(),
            Some("DO_NOT_TRUST") => {
                untrusted |= path.components().eq(project.components());
                None
            }
            _ => None,
        };
        if trusted_root.is_some_and(|root| project.starts_with(root)) {
            return FolderTrust::Trusted;
        }
    }
    if untrusted {
        FolderTrust::NotTrusted
    } else {
        FolderTrust::Unknown
    }
}

impl Context {
    fn read(roots: &SettingsRoots, project: Option<&Path>, file: &AgentHookFile) -> Self {
        let mut context = Self {
            codex: None,
            codex_managed_only: ManagedOnly::No,
            codex_hooks_off: false,
            gemini_off: false,
            gemini_no_extensions: false,
            gemini_extension_on: Some(true),
            gemini_disabled: Vec::new(),
            gemini_folder: FolderTrust::Unknown,
            project: project.map(Path::to_path_buf),
        };
        match file.agent {
            AgentKind::Codex => {
                // No config.toml: nothing trusted yet. One hookd cannot
                // read or parse: nothing known.
                context.codex = match std::fs::read_to_string(roots.codex_home.join("config.toml"))
                {
                    Ok(text) => text.parse::<toml::Table>().ok(),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(toml::Table::new()),
                    Err(_) => None,
                };
                context.codex_managed_only = agent_layers::codex_managed_only(roots);
                context.codex_hooks_off = agent_layers::codex_hooks_off(roots);
            }
            AgentKind::Gemini => {
                // Gemini merges its system defaults, the user's, the
                // project's and the system settings, in that order; the
                // disabled lists are a union, the switch the last one set.
                let layers = agent_layers::gemini_settings(roots, project);
                let user = layers
                    .iter()
                    .find(|l| l.layer == GeminiLayer::User)
                    .map(|l| &l.value);
                if let Some(project) = project {
                    context.gemini_folder = gemini_folder_trust(roots, user, project);
                }
                context.gemini_off =
                    agent_layers::gemini_hooks_switch(&layers).is_some_and(|(_, on)| !on);
                for settings in layers.iter().map(|l| &l.value) {
                    let config = settings.get("hooksConfig");
                    if let Some(on) = settings
                        .pointer("/admin/extensions/enabled")
                        .and_then(Value::as_bool)
                    {
                        context.gemini_no_extensions = !on;
                    }
                    for list in [
                        config.and_then(|c| c.get("disabled")),
                        settings.get("hooks").and_then(|h| h.get("disabled")),
                    ] {
                        context.gemini_disabled.extend(
                            list.and_then(Value::as_array)
                                .into_iter()
                                .flatten()
                                .filter_map(Value::as_str)
                                .map(str::to_owned),
                        );
                    }
                }
                if let Some(name) = &file.extension {
                    let folder = project.unwrap_or(&roots.home);
                    context.gemini_extension_on =
                        agent_layers::gemini_extension_enabled(roots, name, folder);
                }
            }
            AgentKind::Claude | AgentKind::Cursor | AgentKind::Copilot => {}
        }
        context
    }

    fn judge(
        &self,
        file: &AgentHookFile,
        hook: &AgentHook,
        raw: Option<&Value>,
        v: &mut AgentVerdict,
    ) {
        let agent = crate::settings::convert::label(file.agent);
        // What the agent drops: the whole file, or this hook.
        let mut whole = None;
        let mut this = None;
        for error in &file.check.errors {
            match drops(file, hook, error) {
                Drops::File => whole = whole.or(Some(error)),
                Drops::ThisHook => this = this.or(Some(error)),
                Drops::Another => {}
            }
        }
        if let Some(first) = whole {
            v.reasons.push(not_run(
                NotRunCode::Dropped,
                format!(
                    "{agent} drops this file ({}: {})",
                    first.path, first.message
                ),
            ));
        } else if let Some(first) = this {
            v.reasons.push(not_run(
                NotRunCode::Dropped,
                format!(
                    "{agent} drops this hook ({}: {})",
                    first.path, first.message
                ),
            ));
        }
        match file.agent {
            AgentKind::Codex => self.codex(file, hook, v),
            AgentKind::Gemini => self.gemini(file, hook, v),
            AgentKind::Cursor if file.scope == Scope::Project => {
                v.provided.push(
                    "Cursor trusts this workspace (it runs a project's hooks only then)".to_owned(),
                );
            }
            AgentKind::Copilot
                if raw
                    .and_then(|r| r.get("disableAllHooks"))
                    .and_then(Value::as_bool)
                    == Some(true) =>
            {
                v.reasons.push(not_run(
                    NotRunCode::TurnedOff,
                    "this file sets \"disableAllHooks\": true, so GitHub Copilot skips its hooks"
                        .to_owned(),
                ));
            }
            _ => {}
        }
    }

    fn codex(&self, file: &AgentHookFile, hook: &AgentHook, v: &mut AgentVerdict) {
        if self.codex_hooks_off {
            v.reasons.push(not_run(
                NotRunCode::TurnedOff,
                format!(
                    "the administrator's {} sets [features] hooks = false: Codex CLI runs no hook",
                    agent_layers::CODEX_REQUIREMENTS
                ),
            ));
        }
        if file.scope == Scope::Policy {
            // Managed (§1.1): it runs without the user's trust, and `/hooks`
            // cannot turn it off.
            return;
        }
        match self.codex_managed_only {
            ManagedOnly::No => {}
            ManagedOnly::Yes => v.reasons.push(not_run(
                NotRunCode::ManagedHooksOnly,
                format!(
                    "the administrator's {} sets allow_managed_hooks_only = true: Codex CLI runs only managed hooks, not this one",
                    agent_layers::CODEX_REQUIREMENTS
                ),
            )),
            ManagedOnly::Unknown => v.provided.push(format!(
                "the administrator's {} does not set allow_managed_hooks_only (hookd cannot read it)",
                agent_layers::CODEX_REQUIREMENTS
            )),
        }
        let Some(config) = &self.codex else {
            if file.scope == Scope::Project {
                v.provided.push(
                    "Codex CLI trusts this project (its config.toml could not be read or parsed)"
                        .to_owned(),
                );
            }
            v.provided
                .push("you trusted this hook in Codex's /hooks".to_owned());
            return;
        };
        if file.scope == Scope::Project {
            let trusted = self.project.as_deref().is_some_and(|project| {
                config
                    .get("projects")
                    .and_then(|p| p.get(project.display().to_string()))
                    .and_then(|p| p.get("trust_level"))
                    .and_then(toml::Value::as_str)
                    == Some("trusted")
            });
            if !trusted {
                v.reasons.push(not_run(
                    NotRunCode::ProjectNotTrusted,
                    format!(
                        "Codex CLI loads a project's .codex/{} only in a trusted project, and your config.toml does not trust this one (Codex asks when it opens it)",
                        file.path.file_name().map_or_else(
                            || "hooks.json".into(),
                            |name| name.to_string_lossy()
                        )
                    ),
                ));
            }
        }
        let Some(key) = codex_state_key(file, hook) else {
            return;
        };
        let state = codex_trust::hook_state(config, &key);
        if state.enabled == Some(false) {
            v.reasons.push(not_run(
                NotRunCode::TurnedOff,
                "turned off in Codex's /hooks".to_owned(),
            ));
        }
        let Some(stored) = state.trusted_hash else {
            v.reasons.push(not_run(
                NotRunCode::NotTrustedInAgent,
                "Codex CLI runs it only once you trust it: open /hooks in Codex".to_owned(),
            ));
            return;
        };
        let trust = codex_hook_hash(file, hook).map(|now| codex_trust::trust(Some(&stored), &now));
        match trust {
            Some(HookTrust::Modified) => v.reasons.push(not_run(
                NotRunCode::NotTrustedInAgent,
                "changed since you trusted it; trust it again in Codex's /hooks".to_owned(),
            )),
            Some(HookTrust::Trusted | HookTrust::Untrusted) => {}
            // A hook hookd cannot hash as Codex does (an `mcp_tool` one).
            None => v.provided.push(
                "it is unchanged since you trusted it in Codex's /hooks (hookd cannot compute Codex's hash of this kind of hook)".to_owned(),
            ),
        }
    }

    fn gemini(&self, file: &AgentHookFile, hook: &AgentHook, v: &mut AgentVerdict) {
        if self.gemini_off {
            v.reasons.push(not_run(
                NotRunCode::TurnedOff,
                "Gemini CLI's hooksConfig.enabled is false: it runs no hook".to_owned(),
            ));
        }
        if let Some(extension) = &file.extension {
            if self.gemini_no_extensions {
                v.reasons.push(not_run(
                    NotRunCode::TurnedOff,
                    "Gemini CLI's admin.extensions.enabled is false: it loads no extension"
                        .to_owned(),
                ));
            }
            match self.gemini_extension_on {
                Some(true) => v.provided.push(format!(
                    "Gemini CLI is not started with --extensions (-e) leaving the extension {extension} out"
                )),
                Some(false) => v.reasons.push(not_run(
                    NotRunCode::TurnedOff,
                    format!(
                        "the Gemini CLI extension {extension} is disabled for this folder (gemini extensions enable {extension} turns it on)"
                    ),
                )),
                None => v.provided.push(format!(
                    "the extension {extension} is enabled for this folder (hookd cannot read Gemini CLI's extension-enablement.json)"
                )),
            }
        }
        // Gemini names a hook by its `name`, or without one by its command.
        let name = hook.name.clone().or_else(|| hook.command.clone());
        if name.is_some_and(|n| self.gemini_disabled.contains(&n)) {
            v.reasons.push(not_run(
                NotRunCode::TurnedOff,
                "listed in Gemini CLI's hooksConfig.disabled".to_owned(),
            ));
        }
        if file.scope == Scope::Project {
            match self.gemini_folder {
                FolderTrust::Off | FolderTrust::Trusted => {}
                FolderTrust::NotTrusted => v.reasons.push(not_run(
                    NotRunCode::ProjectNotTrusted,
                    "Gemini CLI does not trust this folder (DO_NOT_TRUST in its trustedFolders.json), so it runs none of the project's hooks".to_owned(),
                )),
                FolderTrust::Unknown => v.provided.push(
                    "Gemini CLI trusts this folder (it runs a project's hooks only then, and asks when it opens one)".to_owned(),
                ),
            }
        }
    }
}

fn not_run(code: NotRunCode, message: String) -> NotRun {
    NotRun { code, message }
}

fn read_json(path: &Path, comments: bool) -> Option<Value> {
    let bytes = std::fs::read(path).ok()?;
    format::parse_with(&bytes, comments)
        .ok()
        .map(|(value, _)| value)
}

/// `path` is `hook` or inside it (`hooks.Stop[0].hooks[1].command` is in
/// `hooks.Stop[0].hooks[1]`).
fn within(path: &str, hook: &str) -> bool {
    path == hook
        || path
            .strip_prefix(hook)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

/// What the agent drops for one error of `file`, seen from `hook`.
enum Drops {
    /// The whole file (Codex CLI drops a file it cannot parse whole,
    /// [`agent_schema::codex_drops_file`]; every agent one whose top level,
    /// `hooks` or an event list is wrong).
    File,
    /// `hook`: the error is in it or in its group.
    ThisHook,
    /// Another hook.
    Another,
}

fn drops(file: &AgentHookFile, hook: &AgentHook, error: &ValidationError) -> Drops {
    let path = error.path.as_str();
    let Some(entry) = event_entry(path) else {
        return Drops::File;
    };
    if file.agent == AgentKind::Codex && agent_schema::codex_drops_file(error) {
        return Drops::File;
    }
    if within(path, &hook.json_path) {
        return Drops::ThisHook;
    }
    let in_another = file
        .hooks
        .iter()
        .any(|other| other.json_path != hook.json_path && within(path, &other.json_path));
    if !in_another && within(&hook.json_path, &entry) {
        Drops::ThisHook
    } else {
        Drops::Another
    }
}

/// The event list entry a path is in (`hooks.Stop[0]` of
/// `hooks.Stop[0].hooks[1].command`); `None` above that level.
fn event_entry(path: &str) -> Option<String> {
    let rest = path.strip_prefix("hooks")?;
    let bracket = rest.find("][").map(|i| i + 1).or_else(|| {
        // `hooks.Event[0]…`: the first index.
        let open = rest.find('[')?;
        // `hooks["odd name"][0]`: skip the key's own brackets.
        if rest[open..].starts_with("[\"") {
            rest[open..].find("][").map(|i| open + i + 1)
        } else {
            Some(open)
        }
    })?;
    let close = rest[bracket..].find(']')? + bracket;
    Some(format!("hooks{}", &rest[..=close]))
}

/// Codex CLI's trust hash of `hook` as it is in `file`
/// ([`codex_trust::hook_hash`]), read from the file as parsed; `None` when
/// Codex would not hash it that way.
fn codex_hook_hash(file: &AgentHookFile, hook: &AgentHook) -> Option<String> {
    let [group, handler] = hook_indexes(hook)[..] else {
        return None;
    };
    let group = file
        .value
        .as_ref()?
        .get("hooks")?
        .get(&hook.event)?
        .get(group)?;
    let matcher = match group.get("matcher") {
        None | Some(Value::Null) => None,
        Some(matcher) => Some(matcher.as_str()?),
    };
    codex_trust::hook_hash(&hook.event, matcher, group.get("hooks")?.get(handler)?)
}

/// The group and handler indexes of `hook` (`[0, 1]` of
/// `hooks.Stop[0].hooks[1]`).
fn hook_indexes(hook: &AgentHook) -> Vec<usize> {
    hook.json_path
        .split('[')
        .skip(1)
        .filter_map(|part| part.split(']').next()?.parse().ok())
        .collect()
}

/// Codex CLI's key of a hook's enable and trust state:
/// `<file>:<event_snake>:<group>:<handler>` (`docs/agent-hooks.md` §1.1).
fn codex_state_key(file: &AgentHookFile, hook: &AgentHook) -> Option<String> {
    let [group, handler] = hook_indexes(hook)[..] else {
        return None;
    };
    Some(format!(
        "{}:{}:{group}:{handler}",
        file.path.display(),
        crate::names::normalize_hook_type(&hook.event)
    ))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::settings::agent_files::agent_hook_files;
    use hookd_testkit::write_file as write;

    pub(crate) fn summaries(
        roots: &SettingsRoots,
        project: &Path,
        agent: AgentKind,
    ) -> Vec<(Scope, String)> {
        agent_hook_files(roots, Some(project))
            .iter()
            .filter(|f| f.agent == agent)
            .flat_map(|f| {
                verdicts(roots, Some(project), f)
                    .into_iter()
                    .map(|v| (f.scope, v.summary()))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// `sha256:<hex>` of `identity`, the bytes Codex CLI hashes for a hook
    /// (`codex_trust`), written out here by hand.
    fn codex_hash(identity: &str) -> String {
        use sha2::{Digest, Sha256};
        let hex: String = Sha256::digest(identity.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("sha256:{hex}")
    }

    #[test]
    fn codex_hooks_run_once_trusted_and_a_projects_only_in_a_trusted_project() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(&dir.path().join("home"));
        let project = dir.path().join("repo");
        let user_file = roots.codex_home.join("hooks.json");
        write(
            &user_file,
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "./a.sh"}, {"type": "command", "command": "./b.sh"}]}],
              "Stop": [{"hooks": [{"type": "command", "command": "./c.sh"}]}]}}"#,
        );
        let project_file = project.join(".codex/hooks.json");
        write(
            &project_file,
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./d.sh", "timeout": 30}]}]}}"#,
        );
        // Hashes of other hooks than these: changed since trusted.
        let config = format!(
            "[hooks.state.\"{f}:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:x\"\n\n[hooks.state.\"{f}:pre_tool_use:0:1\"]\nenabled = false\ntrusted_hash = \"sha256:y\"\n",
            f = user_file.display()
        );
        write(&roots.codex_home.join("config.toml"), &config);
        let found = summaries(&roots, &project, AgentKind::Codex);
        assert_eq!(found.len(), 4, "{found:?}");
        let changed = "changed since you trusted it; trust it again in Codex's /hooks";
        assert_eq!(found[0].1, changed);
        assert_eq!(
            found[1].1,
            format!("turned off in Codex's /hooks; {changed}")
        );
        assert_eq!(
            found[2].1,
            "Codex CLI runs it only once you trust it: open /hooks in Codex"
        );
        assert!(
            found[3].1.contains("only in a trusted project") && found[3].1.contains("open /hooks"),
            "{found:?}"
        );

        // The hash /hooks writes for the hook as it is: it runs.
        let a_sh = codex_hash(
            r#"{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"./a.sh","timeout":600,"type":"command"}],"matcher":"Bash"}"#,
        );
        let config = config.replacen("sha256:x", &a_sh, 1);
        write(&roots.codex_home.join("config.toml"), &config);
        let found = summaries(&roots, &project, AgentKind::Codex);
        assert_eq!(found[0].1, "runs");
        // Still turned off, and its own hash is still another hook's.
        assert_eq!(
            found[1].1,
            format!("turned off in Codex's /hooks; {changed}")
        );

        // Trusting the project leaves the hook's own trust to give.
        let config = format!(
            "{config}\n[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
            project.display()
        );
        write(&roots.codex_home.join("config.toml"), &config);
        let found = summaries(&roots, &project, AgentKind::Codex);
        assert_eq!(
            found[3].1,
            "Codex CLI runs it only once you trust it: open /hooks in Codex"
        );
        let d_sh = codex_hash(
            r#"{"event_name":"stop","hooks":[{"async":false,"command":"./d.sh","timeout":30,"type":"command"}]}"#,
        );
        write(
            &roots.codex_home.join("config.toml"),
            &format!(
                "{config}\n[hooks.state.\"{}:stop:0:0\"]\ntrusted_hash = \"{d_sh}\"\n",
                project_file.display()
            ),
        );
        let found = summaries(&roots, &project, AgentKind::Codex);
        assert_eq!(found[3].1, "runs");
        // Edited since: no longer the hook trusted.
        write(
            &project_file,
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./d.sh", "timeout": 31}]}]}}"#,
        );
        let found = summaries(&roots, &project, AgentKind::Codex);
        assert_eq!(found[3].1, changed);
    }

    #[test]
    fn codex_config_toml_hooks_have_their_own_trust_and_enable_state() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(&dir.path().join("home"));
        let project = dir.path().join("repo");
        let config = roots.codex_home.join("config.toml");
        let hooks = "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{ type = \"command\", command = \"./a.sh\" }, { type = \"command\", command = \"./b.sh\" }]\n";
        let state = format!(
            "\n[hooks.state.\"{f}:pre_tool_use:0:1\"]\nenabled = false\n",
            f = config.display()
        );
        write(&config, &format!("{hooks}{state}"));
        let found = summaries(&roots, &project, AgentKind::Codex);
        assert_eq!(
            found.iter().map(|(_, s)| s.as_str()).collect::<Vec<_>>(),
            [
                "Codex CLI runs it only once you trust it: open /hooks in Codex",
                "turned off in Codex's /hooks; Codex CLI runs it only once you trust it: open /hooks in Codex",
            ]
        );
        // The same hook as in a hooks.json has the same hash: trusted, it runs.
        let a_sh = codex_hash(
            r#"{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"./a.sh","timeout":600,"type":"command"}],"matcher":"Bash"}"#,
        );
        let trusted = format!(
            "\n[hooks.state.\"{f}:pre_tool_use:0:0\"]\ntrusted_hash = \"{a_sh}\"\n",
            f = config.display()
        );
        write(&config, &format!("{hooks}{state}{trusted}"));
        assert_eq!(summaries(&roots, &project, AgentKind::Codex)[0].1, "runs");
        // Its matcher edited: changed since trusted.
        write(
            &config,
            &format!("{}{state}{trusted}", hooks.replace("\"Bash\"", "\"Edit\"")),
        );
        assert_eq!(
            summaries(&roots, &project, AgentKind::Codex)[0].1,
            "changed since you trusted it; trust it again in Codex's /hooks"
        );
        // A project's config.toml is named as itself while the project is not trusted.
        write(&project.join(".codex/config.toml"), hooks);
        let found = summaries(&roots, &project, AgentKind::Codex);
        assert!(
            found.iter().any(|(_, s)| s
                .contains("loads a project's .codex/config.toml only in a trusted project")),
            "{found:?}"
        );
    }

    /// Codex CLI skips a group whose matcher does not compile and a hook
    /// with an empty command, and runs the rest of the file; only what it
    /// cannot parse drops the whole file.
    #[test]
    fn codex_skips_a_group_with_an_invalid_matcher_and_keeps_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(&dir.path().join("home"));
        let project = dir.path().join("repo");
        let user_file = roots.codex_home.join("hooks.json");
        write(
            &user_file,
            r#"{"hooks": {"PreToolUse": [
                {"matcher": "Bash(", "hooks": [{"type": "command", "command": "./a.sh"}, {"type": "command", "command": "./b.sh"}]},
                {"matcher": "Bash", "hooks": [{"type": "command", "command": " "}, {"type": "command", "command": "./c.sh"}]}]}}"#,
        );
        let untrusted = "Codex CLI runs it only once you trust it: open /hooks in Codex";
        let found = summaries(&roots, &project, AgentKind::Codex);
        let said: Vec<&str> = found.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(said.len(), 4, "{said:?}");
        for skipped in &said[..2] {
            assert!(
                skipped.starts_with("Codex CLI drops this hook (hooks.PreToolUse[0].matcher: not a valid regular expression (unclosed group)"),
                "{said:?}"
            );
        }
        assert!(
            said[2].starts_with(
                "Codex CLI drops this hook (hooks.PreToolUse[1].hooks[0].command: empty"
            ),
            "{said:?}"
        );
        assert_eq!(said[3], untrusted);
        // What Codex cannot parse still drops the file, every hook of it.
        write(
            &user_file,
            r#"{"hooks": {"PreToolUse": [
                {"matcher": "Bash(", "hooks": [{"type": "command", "command": "./a.sh", "timeout": 1.5}]},
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "./c.sh"}]}]}}"#,
        );
        let found = summaries(&roots, &project, AgentKind::Codex);
        assert!(
            found.iter().all(|(_, s)| s
                .starts_with("Codex CLI drops this file (hooks.PreToolUse[0].hooks[0].timeout")),
            "{found:?}"
        );
    }

    #[test]
    fn a_codex_hook_hookd_cannot_hash_stays_a_condition() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(&dir.path().join("home"));
        let project = dir.path().join("repo");
        let user_file = roots.codex_home.join("hooks.json");
        write(
            &user_file,
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "t"}]}]}}"#,
        );
        write(
            &roots.codex_home.join("config.toml"),
            &format!(
                "[hooks.state.\"{}:stop:0:0\"]\ntrusted_hash = \"sha256:x\"\n",
                user_file.display()
            ),
        );
        let found = summaries(&roots, &project, AgentKind::Codex);
        assert!(
            found[0]
                .1
                .starts_with("runs if it is unchanged since you trusted it in Codex's /hooks (hookd cannot compute"),
            "{found:?}"
        );
    }

    #[test]
    fn gemini_switches_names_and_folder_trust_and_what_agents_drop() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(&dir.path().join("home"));
        let project = dir.path().join("repo");
        write(
            &roots.home.join(".gemini/settings.json"),
            r#"{
              // comments allowed
              "hooksConfig": {"disabled": ["quiet"]},
              "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [
                {"type": "command", "name": "quiet", "command": "./q.sh"},
                {"type": "command", "command": "./loud.sh"}]}]}}"#,
        );
        write(
            &project.join(".gemini/settings.json"),
            r#"{"hooks": {"AfterTool": [{"hooks": [{"type": "command", "command": "./log.sh"}]}]}}"#,
        );
        let found = summaries(&roots, &project, AgentKind::Gemini);
        assert_eq!(
            found.iter().map(|(_, s)| s.as_str()).collect::<Vec<_>>(),
            [
                "listed in Gemini CLI's hooksConfig.disabled",
                "runs",
                // Gemini's folder trust is off unless turned on: trusted.
                "runs",
            ]
        );
        // The project turns every hook off.
        write(
            &project.join(".gemini/settings.json"),
            r#"{"hooksConfig": {"enabled": false}, "hooks": {"AfterTool": [{"hooks": [{"type": "command", "command": "./log.sh"}]}]}}"#,
        );
        let found = summaries(&roots, &project, AgentKind::Gemini);
        assert!(
            found
                .iter()
                .all(|(_, s)| s.contains("hooksConfig.enabled is false")),
            "{found:?}"
        );

        // Cursor: a hook without a command is dropped, its sibling runs in
        // a trusted workspace; Copilot's disableAllHooks stops its file.
        write(
            &project.join(".cursor/hooks.json"),
            r#"{"version": 1, "hooks": {"stop": [{"timeout": 3}, {"command": "./ok.sh"}]}}"#,
        );
        let found = summaries(&roots, &project, AgentKind::Cursor);
        assert!(
            found[0]
                .1
                .starts_with("Cursor drops this hook (hooks.stop[0]"),
            "{found:?}"
        );
        assert_eq!(
            found[1].1,
            "runs if Cursor trusts this workspace (it runs a project's hooks only then)"
        );
        write(
            &project.join(".github/hooks/guard.json"),
            r#"{"version": 1, "disableAllHooks": true, "hooks": {"preToolUse": [{"type": "command", "bash": "./g.sh"}]}}"#,
        );
        let found = summaries(&roots, &project, AgentKind::Copilot);
        assert_eq!(
            found[0].1,
            "this file sets \"disableAllHooks\": true, so GitHub Copilot skips its hooks"
        );
    }

    #[test]
    fn geminis_folder_trust_is_read_when_it_is_on() {
        let dir = tempfile::tempdir().unwrap();
        let roots = SettingsRoots::under(&dir.path().join("home"));
        let project = dir.path().join("src/repo");
        write(
            &project.join(".gemini/settings.json"),
            r#"{"hooks": {"AfterTool": [{"hooks": [{"type": "command", "command": "./log.sh"}]}]}}"#,
        );
        let verdict = |trusted: Option<&str>| {
            if let Some(rules) = trusted {
                write(&roots.home.join(".gemini/trustedFolders.json"), rules);
            }
            summaries(&roots, &project, AgentKind::Gemini)[0].1.clone()
        };
        // Folder trust off (Gemini's default): every folder is trusted.
        assert_eq!(verdict(None), "runs");
        write(
            &roots.home.join(".gemini/settings.json"),
            r#"{"security": {"folderTrust": {"enabled": true}}}"#,
        );
        // On, and nothing decided for this folder: a condition.
        assert!(
            verdict(None).starts_with("runs if Gemini CLI trusts this folder"),
            "{}",
            verdict(None)
        );
        let repo = project.display().to_string();
        let parent = dir.path().join("src").display().to_string();
        assert_eq!(
            verdict(Some(&format!(r#"{{"{repo}": "DO_NOT_TRUST"}}"#))),
            "Gemini CLI does not trust this folder (DO_NOT_TRUST in its trustedFolders.json), so it runs none of the project's hooks"
        );
        // A trusted parent folder trusts what is inside; TRUST_PARENT trusts the folder above.
        assert_eq!(
            verdict(Some(&format!(r#"{{"{parent}": "TRUST_FOLDER"}}"#))),
            "runs"
        );
        assert_eq!(
            verdict(Some(&format!(r#"{{"{repo}/.gemini": "TRUST_PARENT"}}"#))),
            "runs"
        );
        // DO_NOT_TRUST of another folder says nothing of this one.
        assert!(
            verdict(Some(&format!(r#"{{"{parent}/other": "DO_NOT_TRUST"}}"#)))
                .starts_with("runs if")
        );
    }

    #[test]
    fn json_paths_are_read_back() {
        assert_eq!(
            event_entry("hooks.Stop[0].hooks[1].command").as_deref(),
            Some("hooks.Stop[0]")
        );
        assert_eq!(
            event_entry("hooks[\"a b\"][2].command").as_deref(),
            Some("hooks[\"a b\"][2]")
        );
        assert_eq!(event_entry("version"), None);
        assert!(within(
            "hooks.Stop[0].hooks[1].command",
            "hooks.Stop[0].hooks[1]"
        ));
        assert!(!within("hooks.Stop[0].hooks[10]", "hooks.Stop[0].hooks[1]"));
    }
}
