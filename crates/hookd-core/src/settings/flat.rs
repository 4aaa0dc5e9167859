//! Cursor's and GitHub Copilot's hooks files: flat entries under each
//! event, without Claude Code's matcher groups (`{"version": 1, "hooks":
//! {"<event>": [{...}, ...]}}`). How hookd's own entries are added to such
//! a file and taken out again, once for both agents; each agent's module
//! says what its entry holds and how it is recognised.

use serde_json::{Map, Value, json};

use super::connect::{self, Mode, ShapeError};

/// The mode of `entry` when it is one of hookd's: a command entry (`type`
/// absent or `command`) whose command, under the first of `keys` that runs
/// a program named `hookd-emit`, is hookd's ([`connect::command_mode`]);
/// `None` for any other entry. Cursor keeps the command under `command`,
/// Copilot under `bash` (or `command`).
pub(crate) fn hookd_mode(entry: &Value, keys: &[&str]) -> Option<Mode> {
    if entry
        .get("type")
        .is_some_and(|kind| kind.as_str() != Some("command"))
    {
        return None;
    }
    keys.iter()
        .filter_map(|key| entry.get(key).and_then(Value::as_str))
        .find(|command| connect::runs_hookd_emit(command))
        .map(connect::command_mode)
}

/// Refuses what the agent would not read as a hooks file, before anything
/// is changed: the top level must be an object, `version` a number, `hooks`
/// an object of arrays of entry objects.
pub(crate) fn check_shape(file: &Value) -> Result<(), ShapeError> {
    let Value::Object(root) = file else {
        return Err(connect::shape("top level".into(), "an object"));
    };
    if root.get("version").is_some_and(|v| !v.is_number()) {
        return Err(connect::shape("version".into(), "a number"));
    }
    let Some(hooks) = root.get("hooks") else {
        return Ok(());
    };
    let Value::Object(hooks) = hooks else {
        return Err(connect::shape("hooks".into(), "an object"));
    };
    for (event, entries) in hooks {
        let Value::Array(entries) = entries else {
            return Err(connect::shape(connect::event_path(event), "an array"));
        };
        for (i, entry) in entries.iter().enumerate() {
            if !entry.is_object() {
                return Err(connect::shape(
                    format!("{}[{i}]", connect::event_path(event)),
                    "an object",
                ));
            }
        }
    }
    Ok(())
}

/// Adds `entry(event)` to each of `events` that has no entry of hookd's
/// in `mode` (`hookd_mode` says the mode of an entry that is hookd's), after
/// the entries there; a new (empty) file gets `"version": 1` first. hookd's
/// entries of the other mode become `entry(event)` where they stand, or go
/// where `events` has no such event, so switching modes leaves one entry
/// per event in its place. Returns the events that gained one.
pub(crate) fn add_entries(
    file: &mut Value,
    events: &[&str],
    mode: Mode,
    hookd_mode: impl Fn(&Value) -> Option<Mode>,
    entry: impl Fn(&str) -> Value,
) -> Result<Vec<String>, ShapeError> {
    check_shape(file)?;
    let mut added = Vec::new();
    if let Some(Value::Object(hooks)) = file.get_mut("hooks") {
        for (event, entries) in hooks.iter_mut() {
            let Value::Array(entries) = entries else {
                continue;
            };
            if !events.contains(&event.as_str()) {
                continue;
            }
            for slot in entries.iter_mut() {
                if hookd_mode(slot).is_some_and(|m| m != mode) {
                    *slot = entry(event);
                    added.push(event.clone());
                }
            }
        }
    }
    remove_entries(file, |e| hookd_mode(e).is_some_and(|m| m != mode))?;
    let Value::Object(root) = file else {
        return Err(connect::shape("top level".into(), "an object"));
    };
    for &event in events {
        let present = root
            .get("hooks")
            .and_then(|hooks| hooks.get(event))
            .and_then(Value::as_array)
            .is_some_and(|entries| entries.iter().any(|e| hookd_mode(e) == Some(mode)));
        if present {
            continue;
        }
        if root.is_empty() {
            root.insert("version".into(), json!(1));
        }
        let hooks = root
            .entry("hooks")
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(hooks) = hooks else {
            return Err(connect::shape("hooks".into(), "an object"));
        };
        let entries = hooks
            .entry(event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(entries) = entries else {
            return Err(connect::shape(connect::event_path(event), "an array"));
        };
        entries.push(entry(event));
        added.push(event.to_owned());
    }
    // In the order of `events`, however the file orders them.
    added.sort_by_key(|event| events.iter().position(|e| e == event));
    Ok(added)
}

/// Removes every entry `ours` recognises, and the event lists and `hooks`
/// object left empty by that (never ones that were empty already); returns
/// the event of each entry removed, in document order.
pub(crate) fn remove_entries(
    file: &mut Value,
    ours: impl Fn(&Value) -> bool,
) -> Result<Vec<String>, ShapeError> {
    check_shape(file)?;
    let Some(Value::Object(hooks)) = file.get_mut("hooks") else {
        return Ok(Vec::new());
    };
    let mut removed = Vec::new();
    hooks.retain(|event, entries| {
        let Value::Array(entries) = entries else {
            return true;
        };
        let before = entries.len();
        entries.retain(|entry| !ours(entry));
        let gone = before - entries.len();
        removed.extend(std::iter::repeat_n(event.clone(), gone));
        gone == 0 || !entries.is_empty()
    });
    if !removed.is_empty()
        && hooks.is_empty()
        && let Value::Object(root) = file
    {
        // `shift_remove`: with preserve_order `remove` swaps the last key
        // into this place, moving the user's keys.
        root.shift_remove("hooks");
    }
    Ok(removed)
}
