//! The catalog's manifest (`hooks-templates/index.json`): its types, and the
//! rules a manifest must follow before anything is installed from it (names,
//! events, matchers, embedded scripts, and `connect` templates that are
//! exactly what `hookd connect` installs).

use serde::{Deserialize, Serialize};

use super::{CATALOG_VERSION, INDEX_JSON, Result, SCRIPT_PLACEHOLDER, TemplateError, script_bytes};
use crate::settings;
use crate::settings::connect;
use crate::settings::matcher::Matcher;

/// The whole catalog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    /// Schema version ([`CATALOG_VERSION`]).
    pub version: u32,
    /// The templates, in display order.
    pub templates: Vec<Template>,
}

/// One ready-made hook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Template {
    /// Unique name: lowercase letters, digits and `-`.
    pub name: String,
    /// One line saying what it does.
    pub description: String,
    /// The script file in `hooks-templates/` (absent for `connect` templates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub script: Option<String>,
    /// `"record"`: the template is `hookd connect`'s hookd-emit hooks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct TemplateHook {
    /// The agent event, e.g. `PreToolUse`.
    pub event: String,
    /// The group's matcher (absent: every occurrence of the event).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub matcher: Option<String>,
    /// The command; [`SCRIPT_PLACEHOLDER`] stands for the installed script.
    pub command: String,
    /// Timeout in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
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
    let expected: Vec<TemplateHook> = connect::HOOKS
        .iter()
        .map(|spec| TemplateHook {
            event: spec.event.to_owned(),
            matcher: spec.matcher.map(str::to_owned),
            command: connect::Mode::Record.command(connect::EMIT_PROGRAM, spec),
            timeout: Some(connect::HANDLER_TIMEOUT_SECS),
        })
        .collect();
    if t.hooks == expected {
        Ok(())
    } else {
        Err("hooks differ from what `hookd connect` installs".into())
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::PermissionsExt as _;
    use std::path::{Path, PathBuf};

    use super::super::SCRIPTS;
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
}
