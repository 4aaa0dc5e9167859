//! Surgical edits of a settings document: add one handler, remove handlers
//! by command, and put a removed handler back exactly where it was.
//!
//! Everything an edit does not target (other keys, events, groups, handlers,
//! and their order) stays as it was, so the saved file differs from the
//! original only by the edit. An edit refuses to start on a document that is
//! already invalid: its structure cannot be trusted, and saving it would fail
//! anyway. Removals record enough of where each handler sat for
//! [`restore_hook`] to undo them to the byte (used by disable/enable).

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::settings::events::{self, EVENTS, EventSpec};
use crate::settings::matcher::Matcher;

use super::document::SettingsDocument;
use super::error::{Result, SettingsError};
use super::validate::{ValidationError, event_path, suggest_event};

/// Which command handlers an edit targets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookSelector {
    /// The event (agent name such as `PreToolUse`, or its snake_case form).
    pub event: String,
    /// The group's matcher text, compared literally (`None`: any group;
    /// `Some("")` is not the same as an absent matcher).
    pub matcher: Option<String>,
    /// The handler's command text, compared exactly.
    pub command: String,
}

impl HookSelector {
    /// A description for messages: `PreToolUse hook (matcher "Bash") with command "x"`.
    pub fn describe(&self) -> String {
        let matcher = self
            .matcher
            .as_deref()
            .map(|m| format!(" (matcher {m:?})"))
            .unwrap_or_default();
        format!(
            "{} hook{matcher} with command {:?}",
            self.event, self.command
        )
    }
}

/// Where an added or restored handler now sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookPosition {
    /// The event's key under `hooks`.
    pub event: String,
    /// Index of the group in the event's array.
    pub group_index: usize,
    /// Index of the handler in the group's `hooks`.
    pub handler_index: usize,
    /// A new group was created for it.
    pub created_group: bool,
    /// False when an identical handler was already there (restore only).
    pub inserted: bool,
}

/// A handler taken out of a document, and where it was, so
/// [`restore_hook`] can put it back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RemovedHook {
    /// The event's key under `hooks`.
    pub event: String,
    /// The group's matcher (`None`: the group had none).
    pub matcher: Option<String>,
    /// Index of its group in the event's array.
    pub group_index: usize,
    /// Index of the handler in the group's `hooks`.
    pub handler_index: usize,
    /// The handler, verbatim.
    pub handler: Value,
    /// When the removal emptied and so removed the group: the group's other
    /// keys (its `hooks` left empty), to recreate it as it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<Value>,
    /// When the removal emptied the event: the position of its key in `hooks`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_index: Option<usize>,
    /// When the removal emptied `hooks`: the position of that key in the document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hooks_index: Option<usize>,
}

/// The catalogue entry for an event name: the exact agent name, or another
/// spelling of it (`pre_tool_use`); otherwise an error with a suggestion.
pub fn resolve_event(name: &str) -> Result<&'static EventSpec> {
    EVENTS
        .iter()
        .find(|e| e.name == name)
        .or_else(|| events::lookup(name))
        .ok_or_else(|| SettingsError::UnknownEvent {
            name: name.to_owned(),
            suggestion: suggest_event(name),
        })
}

/// A command handler: `{"type": "command", "command": ..., "timeout": ...}`.
/// A whole-second timeout is written as an integer (`30`, not `30.0`).
pub fn command_handler(command: &str, timeout_secs: Option<f64>) -> Value {
    let mut handler = Map::new();
    handler.insert("type".into(), "command".into());
    handler.insert("command".into(), command.into());
    if let Some(secs) = timeout_secs {
        let number = if secs.fract() == 0.0 && secs > 0.0 && secs < 1e15 {
            // Exact: the value is a whole number well inside u64's range.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Value::from(secs as u64)
        } else {
            Value::from(secs)
        };
        handler.insert("timeout".into(), number);
    }
    Value::Object(handler)
}

/// True when two handlers are the same hook: for command handlers the same
/// command text, for other types the same JSON. The agent runs such a
/// handler once however often it is configured.
pub fn same_handler(a: &Value, b: &Value) -> bool {
    match (command_of(a), command_of(b)) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a == b,
        _ => false,
    }
}

/// Appends `handler` to the first group of `event` whose matcher text is
/// `matcher` (absent only equals absent), or to a new group at the end.
/// Refuses an unknown event, an invalid matcher, a handler already in that
/// group, a read-only file, and an edit that would leave the document
/// invalid (e.g. a command handler without a command); nothing is changed
/// then.
pub fn add_hook(
    doc: &mut SettingsDocument,
    event: &str,
    matcher: Option<&str>,
    handler: Value,
) -> Result<HookPosition> {
    let spec = resolve_event(event)?;
    Matcher::parse(matcher)?;
    check_editable(doc)?;
    let path = doc.path().to_path_buf();
    let mut value = doc.value().clone();
    let root = object_mut(&mut value, &path, "top level")?;
    let hooks = root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let hooks = object_mut(hooks, &path, "hooks")?;
    let groups = hooks
        .entry(spec.name)
        .or_insert_with(|| Value::Array(Vec::new()));
    let groups = array_mut(groups, &path, &event_path(spec.name))?;
    let position = match groups.iter().position(|g| group_matcher(g) == matcher) {
        Some(group_index) => {
            let handlers = group_handlers(&mut groups[group_index], &path)?;
            if handlers.iter().any(|h| same_handler(h, &handler)) {
                return Err(SettingsError::Duplicate {
                    path,
                    event: spec.name.to_owned(),
                    command: handler_label(&handler),
                });
            }
            handlers.push(handler);
            HookPosition {
                event: spec.name.to_owned(),
                group_index,
                handler_index: handlers.len() - 1,
                created_group: false,
                inserted: true,
            }
        }
        None => {
            groups.push(new_group(matcher, handler));
            HookPosition {
                event: spec.name.to_owned(),
                group_index: groups.len() - 1,
                handler_index: 0,
                created_group: true,
                inserted: true,
            }
        }
    };
    commit(doc, value)?;
    Ok(position)
}

/// Removes every command handler `selector` matches, in document order.
/// A group left without handlers goes, as does an event left without
/// groups, and `hooks` when this removal emptied it. Returns what was
/// removed, each with the position it had at the moment it was removed (so
/// restoring them in reverse order rebuilds the original exactly). Matching
/// nothing is [`SettingsError::NotFound`].
pub fn remove_hook(
    doc: &mut SettingsDocument,
    selector: &HookSelector,
) -> Result<Vec<RemovedHook>> {
    let spec = resolve_event(&selector.event)?;
    check_editable(doc)?;
    let mut removed = Vec::new();
    while let Some(one) = remove_first(doc.value_mut(), spec.name, selector) {
        removed.push(one);
    }
    if removed.is_empty() {
        return Err(SettingsError::NotFound {
            path: doc.path().to_path_buf(),
            what: HookSelector {
                event: spec.name.to_owned(),
                ..selector.clone()
            }
            .describe(),
        });
    }
    Ok(removed)
}

/// Puts a removed handler back: into its recreated group when the removal
/// had removed the group, else into the group at its old index if that
/// group still has the same matcher, else the first group with that
/// matcher, else a new group at the old index; at its old handler index
/// (clamped). An identical handler already in that group is left alone
/// (`inserted: false`).
pub fn restore_hook(doc: &mut SettingsDocument, removed: &RemovedHook) -> Result<HookPosition> {
    check_editable(doc)?;
    let path = doc.path().to_path_buf();
    let mut value = doc.value().clone();
    let root = object_mut(&mut value, &path, "top level")?;
    if !root.contains_key("hooks") {
        let at = removed.hooks_index.unwrap_or(root.len()).min(root.len());
        root.shift_insert(at, "hooks".into(), Value::Object(Map::new()));
    }
    let hooks = object_mut(root.get_mut("hooks"), &path, "hooks")?;
    if !hooks.contains_key(&removed.event) {
        let at = removed.event_index.unwrap_or(hooks.len()).min(hooks.len());
        hooks.shift_insert(at, removed.event.clone(), Value::Array(Vec::new()));
    }
    let groups = array_mut(
        hooks.get_mut(&removed.event),
        &path,
        &event_path(&removed.event),
    )?;
    let matcher = removed.matcher.as_deref();
    let existing = if removed.group.is_some() {
        None
    } else {
        groups
            .get(removed.group_index)
            .filter(|g| group_matcher(g) == matcher)
            .map(|_| removed.group_index)
            .or_else(|| groups.iter().position(|g| group_matcher(g) == matcher))
    };
    let (group_index, created_group) = match existing {
        Some(i) => (i, false),
        None => {
            let mut group = match &removed.group {
                Some(Value::Object(template)) => template.clone(),
                _ => Map::new(),
            };
            if removed.group.is_none()
                && let Some(matcher) = matcher
            {
                group.insert("matcher".into(), matcher.into());
            }
            group.insert("hooks".into(), Value::Array(Vec::new()));
            let at = removed.group_index.min(groups.len());
            groups.insert(at, Value::Object(group));
            (at, true)
        }
    };
    let handlers = group_handlers(&mut groups[group_index], &path)?;
    let (handler_index, inserted) = match handlers
        .iter()
        .position(|h| same_handler(h, &removed.handler))
    {
        Some(i) => (i, false),
        None => {
            let at = removed.handler_index.min(handlers.len());
            handlers.insert(at, removed.handler.clone());
            (at, true)
        }
    };
    commit(doc, value)?;
    Ok(HookPosition {
        event: removed.event.clone(),
        group_index,
        handler_index,
        created_group,
        inserted,
    })
}

/// Replaces the whole `hooks` tree of `doc` with `hooks` (an object of event
/// → matcher groups), as an editor that shows every hook of a file saves
/// it. The key keeps its place among the others, which stay untouched. An
/// empty tree removes the key when the edit emptied it (as removing the last
/// hook does) and leaves an absent or already empty one as it was.
///
/// The document may be invalid beforehand (this is how a broken `hooks` tree
/// is repaired); the result must be valid. Refuses, changing nothing: a
/// read-only file, a `hooks` that is not an object, and any validation
/// error of the result (with its JSON path).
pub fn replace_hooks(doc: &mut SettingsDocument, hooks: Value) -> Result<()> {
    if doc.location().read_only {
        return Err(SettingsError::ReadOnly {
            path: doc.path().to_path_buf(),
        });
    }
    let path = doc.path().to_path_buf();
    let Value::Object(tree) = hooks else {
        return Err(unexpected(&path, "hooks", "expected an object"));
    };
    let mut value = doc.value().clone();
    let root = object_mut(&mut value, &path, "top level")?;
    let had = root.get("hooks").map(|old| match old {
        Value::Object(old) => !old.is_empty(),
        _ => true,
    });
    match (tree.is_empty(), had) {
        (true, Some(true)) => {
            // shift_remove keeps the order of the other keys.
            root.shift_remove("hooks");
        }
        (true, _) => {}
        (false, _) => {
            // On an existing key, insert keeps its position.
            root.insert("hooks".into(), Value::Object(tree));
        }
    }
    commit(doc, value)
}

/// Removes the first handler `selector` matches in `event`, recording where
/// it was. The document is known to be valid, so shapes are as expected.
fn remove_first(value: &mut Value, event: &str, selector: &HookSelector) -> Option<RemovedHook> {
    let root = value.as_object_mut()?;
    let hooks_index = root.keys().position(|k| k == "hooks")?;
    let hooks = root.get_mut("hooks")?.as_object_mut()?;
    let event_index = hooks.keys().position(|k| k == event)?;
    let groups = hooks.get_mut(event)?.as_array_mut()?;
    let (group_index, handler_index) = groups.iter().enumerate().find_map(|(gi, group)| {
        let wanted = selector.matcher.as_deref();
        if wanted.is_some() && group_matcher(group) != wanted {
            return None;
        }
        let handlers = group.get("hooks")?.as_array()?;
        handlers
            .iter()
            .position(|h| is_command(h, &selector.command))
            .map(|hi| (gi, hi))
    })?;
    let group = &mut groups[group_index];
    let matcher = group_matcher(group).map(str::to_owned);
    let handlers = group.get_mut("hooks")?.as_array_mut()?;
    let handler = handlers.remove(handler_index);
    let mut removed = RemovedHook {
        event: event.to_owned(),
        matcher,
        group_index,
        handler_index,
        handler,
        group: None,
        event_index: None,
        hooks_index: None,
    };
    if handlers.is_empty() {
        removed.group = Some(groups.remove(group_index));
        if groups.is_empty() {
            // shift_remove keeps the order of the other keys (plain remove
            // would swap the last key into this place).
            hooks.shift_remove(event);
            removed.event_index = Some(event_index);
            if hooks.is_empty() {
                root.shift_remove("hooks");
                removed.hooks_index = Some(hooks_index);
            }
        }
    }
    Some(removed)
}

/// The command of a command handler.
pub(crate) fn command_of(handler: &Value) -> Option<&str> {
    if handler.get("type").and_then(Value::as_str) == Some("command") {
        handler.get("command").and_then(Value::as_str)
    } else {
        None
    }
}

fn is_command(handler: &Value, command: &str) -> bool {
    handler.get("type").and_then(Value::as_str) == Some("command")
        && handler.get("command").and_then(Value::as_str) == Some(command)
}

/// The matcher text of a group, `None` when absent.
pub(crate) fn group_matcher(group: &Value) -> Option<&str> {
    group.get("matcher").and_then(Value::as_str)
}

fn new_group(matcher: Option<&str>, handler: Value) -> Value {
    let mut group = Map::new();
    if let Some(matcher) = matcher {
        group.insert("matcher".into(), matcher.into());
    }
    group.insert("hooks".into(), Value::Array(vec![handler]));
    Value::Object(group)
}

/// The command of a handler, else its compact JSON, for messages.
pub(crate) fn handler_label(handler: &Value) -> String {
    handler
        .get("command")
        .and_then(Value::as_str)
        .map_or_else(|| handler.to_string(), str::to_owned)
}

fn check_editable(doc: &SettingsDocument) -> Result<()> {
    if doc.location().read_only {
        return Err(SettingsError::ReadOnly {
            path: doc.path().to_path_buf(),
        });
    }
    let errors = doc.errors();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(SettingsError::Invalid {
            path: doc.path().to_path_buf(),
            errors,
        })
    }
}

/// Replaces the document's content with an edited copy, unless the edit
/// made it invalid.
fn commit(doc: &mut SettingsDocument, value: Value) -> Result<()> {
    let errors = doc.refusals(&value);
    if !errors.is_empty() {
        return Err(SettingsError::Invalid {
            path: doc.path().to_path_buf(),
            errors,
        });
    }
    *doc.value_mut() = value;
    Ok(())
}

/// The object a validated document has at `json_path`. Failing means the
/// validator and the editor disagree; it is reported, never panicked on.
fn object_mut<'a>(
    value: impl Into<Option<&'a mut Value>>,
    path: &Path,
    json_path: &str,
) -> Result<&'a mut Map<String, Value>> {
    value
        .into()
        .and_then(Value::as_object_mut)
        .ok_or_else(|| unexpected(path, json_path, "expected an object"))
}

/// The array a validated document has at `json_path`; see [`object_mut`].
fn array_mut<'a>(
    value: impl Into<Option<&'a mut Value>>,
    path: &Path,
    json_path: &str,
) -> Result<&'a mut Vec<Value>> {
    value
        .into()
        .and_then(Value::as_array_mut)
        .ok_or_else(|| unexpected(path, json_path, "expected an array"))
}

fn group_handlers<'a>(group: &'a mut Value, path: &Path) -> Result<&'a mut Vec<Value>> {
    array_mut(group.get_mut("hooks"), path, "a group's hooks")
}

fn unexpected(path: &Path, json_path: &str, message: &str) -> SettingsError {
    SettingsError::Invalid {
        path: path.to_path_buf(),
        errors: vec![ValidationError {
            path: json_path.to_owned(),
            message: message.to_owned(),
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::location::{Kind, Scope, SettingsLocation};
    use serde_json::json;
    use std::fs;

    fn doc_with(text: &str) -> (tempfile::TempDir, SettingsDocument) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("settings.json");
        fs::write(&path, text).unwrap();
        let loc = SettingsLocation {
            kind: Kind::Agent,
            scope: Scope::Project,
            path,
            read_only: false,
            trust_store: None,
            kept_store: None,
            backup_store: None,
            comments: false,
        };
        let doc = SettingsDocument::load(&loc).unwrap();
        (tmp, doc)
    }

    #[test]
    fn command_handler_writes_whole_seconds_as_integers() {
        assert_eq!(
            command_handler("x", Some(30.0)).to_string(),
            r#"{"type":"command","command":"x","timeout":30}"#
        );
        assert_eq!(command_handler("x", Some(1.5))["timeout"], json!(1.5));
        assert_eq!(
            command_handler("x", None),
            json!({"type": "command", "command": "x"})
        );
    }

    #[test]
    fn add_appends_to_the_group_with_the_same_literal_matcher() {
        let (_tmp, mut doc) = doc_with(
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}]}, {"hooks": []}]}}"#,
        );
        let pos = add_hook(
            &mut doc,
            "pre_tool_use",
            Some("Bash"),
            command_handler("b", None),
        )
        .unwrap();
        assert_eq!(
            (pos.group_index, pos.handler_index, pos.created_group),
            (0, 1, false)
        );
        let pos = add_hook(&mut doc, "PreToolUse", None, command_handler("c", None)).unwrap();
        assert_eq!((pos.group_index, pos.handler_index), (1, 0));
        let pos = add_hook(&mut doc, "PreToolUse", Some(""), command_handler("d", None)).unwrap();
        assert_eq!((pos.group_index, pos.created_group), (2, true));
        let err = add_hook(
            &mut doc,
            "PreToolUse",
            Some("Bash"),
            command_handler("a", Some(5.0)),
        );
        assert!(
            matches!(err, Err(SettingsError::Duplicate { .. })),
            "{err:?}"
        );
        assert_eq!(
            doc.value()["hooks"]["PreToolUse"],
            json!([
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}, {"type": "command", "command": "b"}]},
                {"hooks": [{"type": "command", "command": "c"}]},
                {"matcher": "", "hooks": [{"type": "command", "command": "d"}]}
            ])
        );
    }

    #[test]
    fn add_refuses_bad_input_without_changing_anything() {
        let (_tmp, mut doc) = doc_with(r#"{"model": "opus"}"#);
        let before = doc.value().clone();
        let err = add_hook(&mut doc, "PreToolUs", None, command_handler("x", None)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown event \"PreToolUs\" (did you mean PreToolUse?)"
        );
        let err = add_hook(
            &mut doc,
            "PreToolUse",
            Some("Edit("),
            command_handler("x", None),
        )
        .unwrap_err();
        assert!(err.to_string().contains("position 4"), "{err}");
        let err = add_hook(&mut doc, "Stop", None, command_handler("", None)).unwrap_err();
        assert!(
            err.to_string()
                .contains("hooks.Stop[0].hooks[0].command: expected a non-empty string"),
            "{err}"
        );
        assert_eq!(doc.value(), &before);
    }

    #[test]
    fn remove_then_restore_in_reverse_rebuilds_the_document() {
        let original = json!({
            "a": 1,
            "hooks": {
                "Stop": [{"hooks": [{"type": "command", "command": "x"}]}],
                "PreToolUse": [
                    {"hooks": [{"type": "command", "command": "x"}], "matcher": "Bash", "note": "mine"},
                    {"matcher": "Edit", "hooks": [{"type": "command", "command": "y"}, {"type": "command", "command": "x"}]}
                ],
                "Notification": []
            },
            "z": 2
        });
        let (_tmp, mut doc) = doc_with(&original.to_string());
        let any = HookSelector {
            event: "PreToolUse".into(),
            matcher: None,
            command: "x".into(),
        };
        let removed = remove_hook(&mut doc, &any).unwrap();
        assert_eq!(removed.len(), 2);
        assert_eq!(
            removed[0].group,
            Some(json!({"hooks": [], "matcher": "Bash", "note": "mine"}))
        );
        assert_eq!((removed[1].group_index, removed[1].handler_index), (0, 1));
        assert_eq!(
            doc.value()["hooks"]["PreToolUse"],
            json!([{"matcher": "Edit", "hooks": [{"type": "command", "command": "y"}]}])
        );
        for r in removed.iter().rev() {
            assert!(restore_hook(&mut doc, r).unwrap().inserted);
        }
        assert_eq!(doc.value(), &original);
        assert_eq!(
            serde_json::to_string(doc.value()).unwrap(),
            serde_json::to_string(&original).unwrap(),
            "key order too"
        );

        // Emptying the last event removes `hooks`; restoring puts it back in place.
        let stop = HookSelector {
            event: "Stop".into(),
            matcher: None,
            command: "x".into(),
        };
        let (_tmp2, mut doc) = doc_with(
            r#"{"a": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}, "z": 2}"#,
        );
        let removed = remove_hook(&mut doc, &stop).unwrap();
        assert_eq!(doc.value().to_string(), r#"{"a":1,"z":2}"#);
        assert_eq!(removed[0].hooks_index, Some(1));
        restore_hook(&mut doc, &removed[0]).unwrap();
        assert_eq!(
            doc.value().to_string(),
            r#"{"a":1,"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]},"z":2}"#
        );
    }

    #[test]
    fn remove_by_matcher_and_not_found() {
        let (_tmp, mut doc) = doc_with(
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}, {"hooks": [{"type": "command", "command": "x"}]}]}}"#,
        );
        let sel = |matcher: Option<&str>, command: &str| HookSelector {
            event: "PreToolUse".into(),
            matcher: matcher.map(str::to_owned),
            command: command.into(),
        };
        let err = remove_hook(&mut doc, &sel(Some("Edit"), "x")).unwrap_err();
        assert!(matches!(err, SettingsError::NotFound { .. }));
        assert!(err.to_string().contains("matcher \"Edit\""), "{err}");
        assert_eq!(
            remove_hook(&mut doc, &sel(Some("Bash"), "x"))
                .unwrap()
                .len(),
            1
        );
        assert_eq!(
            doc.value()["hooks"]["PreToolUse"],
            json!([{"hooks": [{"type": "command", "command": "x"}]}])
        );
        assert!(remove_hook(&mut doc, &sel(None, "y")).is_err());
    }

    #[test]
    fn identity() {
        let a = json!({"type": "command", "command": "x", "timeout": 1});
        assert!(same_handler(
            &a,
            &json!({"type": "command", "command": "x"})
        ));
        assert!(!same_handler(
            &a,
            &json!({"type": "command", "command": "y"})
        ));
        let p = json!({"type": "prompt", "prompt": "p"});
        assert!(same_handler(&p, &json!({"type": "prompt", "prompt": "p"})));
        assert!(!same_handler(
            &p,
            &json!({"type": "prompt", "prompt": "p", "model": "m"})
        ));
        assert!(!same_handler(&a, &p));
    }

    #[test]
    fn replace_hooks_keeps_the_key_in_place_and_everything_else() {
        let (_tmp, mut doc) = doc_with(
            r#"{"model": "opus", "hooks": {"Stop": [{"matcher": "Edit(", "hooks": []}]}, "env": {"A": "1"}}"#,
        );
        assert!(!doc.warnings().is_empty(), "starts with a bad regex");
        let tree = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x", "extra": [1]}]}]});
        replace_hooks(&mut doc, tree.clone()).unwrap();
        assert_eq!(
            serde_json::to_string(doc.value()).unwrap(),
            format!(r#"{{"model":"opus","hooks":{tree},"env":{{"A":"1"}}}}"#)
        );

        let before = doc.value().clone();
        let err = replace_hooks(
            &mut doc,
            json!({"PreToolUse": [{"hooks": [{"type": "command"}]}]}),
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("hooks.PreToolUse[0].hooks[0].command: missing"),
            "{err}"
        );
        assert!(replace_hooks(&mut doc, json!([])).is_err());
        assert_eq!(
            doc.value(),
            &before,
            "a refused replacement changes nothing"
        );

        replace_hooks(&mut doc, json!({})).unwrap();
        assert_eq!(
            doc.value().to_string(),
            r#"{"model":"opus","env":{"A":"1"}}"#
        );
        replace_hooks(&mut doc, json!({})).unwrap();
        assert_eq!(
            doc.value().to_string(),
            r#"{"model":"opus","env":{"A":"1"}}"#
        );

        let (_tmp2, mut doc) = doc_with(r#"{"hooks": {}, "z": 1}"#);
        replace_hooks(&mut doc, json!({})).unwrap();
        assert_eq!(
            doc.value().to_string(),
            r#"{"hooks":{},"z":1}"#,
            "left as it was"
        );
    }
}
