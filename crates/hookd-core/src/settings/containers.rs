//! The user's empty containers survive an add and a remove.
//!
//! Removing the last hook of an event removes the event's list, and removing
//! the last event removes `hooks`: they were created for that hook, and
//! leaving `"hooks": {"PostToolUse": []}` behind would change a file that
//! had no hooks at all. But a file may *already* hold an empty container the
//! user wrote (`"hooks": {}`, `"PostToolUse": []`). A hook added into it and
//! later removed must leave it as it was, byte for byte, and the removal may
//! run in another process, days later, with only the file to look at.
//!
//! So, like git keeps what it cannot read from the work tree in its own
//! directory, hookd remembers in its home (`$HOOKD_HOME/kept-empty.json`)
//! each empty container of a settings file that one of its writes filled
//! ([`KeptContainers::remember`]). A later write that empties such a
//! container again puts it back empty, where it was, instead of dropping it
//! ([`KeptContainers::keep`]); the record goes once the container is empty
//! or gone in what is written. Every writer goes through this (hook edits,
//! the editor's save, disable, connect, templates), and previews render the
//! same way, so the diff shown is what is written.
//!
//! If the record is lost (another machine, a crash between the file's write
//! and the record's), the container is dropped as it always was: the file
//! stays valid and equivalent, only not byte-identical.
//!
//! Scope: the `hooks` object and the event lists. A matcher group the user
//! left with no handlers is not touched by hookd's edits unless hookd
//! emptied it; that rule lives in the edits themselves.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::error::Result;
use super::store;

/// File name of the record in hookd's home.
pub const KEPT_FILE_NAME: &str = "kept-empty.json";

/// Version of the record's file format.
const STORE_VERSION: u32 = 1;

/// One remembered container: the settings file and the keys leading to it
/// (`["hooks"]` or `["hooks", "<Event>"]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Kept {
    file: PathBuf,
    key: Vec<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct StoreFile {
    version: u32,
    #[serde(default)]
    kept: Vec<Kept>,
}

/// hookd's record of the user's empty containers its writes filled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptContainers {
    path: PathBuf,
}

impl KeptContainers {
    /// The record at `path`.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    /// `new`, the value a write puts over `old`, with every remembered
    /// container of `file` that `old` held filled and `new` no longer holds
    /// put back empty, at the place it had among its siblings in `old`.
    pub fn keep(&self, file: &Path, old: &Value, new: &mut Value) -> Result<()> {
        let Some(stored) = self.read()? else {
            return Ok(());
        };
        let file = identity(file);
        let mut keys: Vec<&[String]> = stored
            .kept
            .iter()
            .filter(|k| k.file == file)
            .map(|k| k.key.as_slice())
            .collect();
        // Parents first, so an event's list finds its `hooks` back.
        keys.sort_by_key(|k| k.len());
        for key in keys {
            if filled(old, key) && lookup(new, key).is_none() {
                put_back(old, new, key);
            }
        }
        Ok(())
    }

    /// After `new` was written over `old` in `file`: remembers the empty
    /// containers of `old` that `new` fills, and forgets those of `file`
    /// that `new` no longer fills. Writes the record only when it changes,
    /// so the usual save costs one read of a missing file.
    pub fn remember(&self, file: &Path, old: &Value, new: &Value) -> Result<()> {
        let fills: Vec<Vec<String>> = containers(old)
            .into_iter()
            .filter(|key| is_empty_container(lookup(old, key)) && filled(new, key))
            .collect();
        let file = identity(file);
        let known = self
            .read()?
            .is_some_and(|s| s.kept.iter().any(|k| k.file == file));
        if fills.is_empty() && !known {
            return Ok(());
        }
        store::update_locked(
            &self.path,
            "record of kept empty containers",
            |f: &StoreFile| f.version,
            STORE_VERSION,
            |stored: &mut StoreFile| {
                let before = stored.kept.clone();
                stored
                    .kept
                    .retain(|k| k.file != file || filled(new, &k.key));
                for key in fills {
                    let kept = Kept {
                        file: file.clone(),
                        key,
                    };
                    if !stored.kept.contains(&kept) {
                        stored.kept.push(kept);
                    }
                }
                stored.version = STORE_VERSION;
                stored.kept != before
            },
        )
    }

    fn read(&self) -> Result<Option<StoreFile>> {
        store::read(
            &self.path,
            "record of kept empty containers",
            |f: &StoreFile| f.version,
            STORE_VERSION,
        )
    }
}

/// The name a file is remembered by: its directory resolved (so a path
/// through a symbolic link or `..` is the same file), else as given.
fn identity(file: &Path) -> PathBuf {
    match (file.parent(), file.file_name()) {
        (Some(dir), Some(name)) => dir
            .canonicalize()
            .map_or_else(|_| file.to_path_buf(), |dir| dir.join(name)),
        _ => file.to_path_buf(),
    }
}

/// The containers of a settings value: `hooks` and each event's list.
fn containers(value: &Value) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    if let Some(hooks) = value.get("hooks").and_then(Value::as_object) {
        out.push(vec!["hooks".to_owned()]);
        out.extend(
            hooks
                .keys()
                .map(|event| vec!["hooks".to_owned(), event.clone()]),
        );
    }
    out
}

fn lookup<'a>(value: &'a Value, key: &[String]) -> Option<&'a Value> {
    key.iter().try_fold(value, |v, k| v.as_object()?.get(k))
}

fn is_empty_container(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Object(o)) => o.is_empty(),
        Some(Value::Array(a)) => a.is_empty(),
        _ => false,
    }
}

/// True when `key` names a container in `value` that holds something.
fn filled(value: &Value, key: &[String]) -> bool {
    match lookup(value, key) {
        Some(Value::Object(o)) => !o.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        _ => false,
    }
}

/// Inserts an empty container of `old`'s kind at `key` in `new`, creating
/// the parents it needs as empty objects, each at its index in `old`.
fn put_back(old: &Value, new: &mut Value, key: &[String]) {
    let mut at_old = old;
    let mut at_new = new;
    for (depth, name) in key.iter().enumerate() {
        let (Some(old_map), Some(new_map)) = (at_old.as_object(), at_new.as_object_mut()) else {
            return;
        };
        let Some(old_child) = old_map.get(name) else {
            return;
        };
        if !new_map.contains_key(name) {
            let empty = match old_child {
                Value::Array(_) if depth + 1 == key.len() => Value::Array(Vec::new()),
                Value::Object(_) => Value::Object(Map::new()),
                _ => return,
            };
            let index = index_among(old_map, new_map, name);
            new_map.shift_insert(index, name.clone(), empty);
        }
        at_old = old_child;
        let Some(child) = new_map.get_mut(name) else {
            return;
        };
        at_new = child;
    }
}

/// Where `name` goes among `new`'s keys: after the keys that preceded it in
/// `old` and are still there.
fn index_among(old: &Map<String, Value>, new: &Map<String, Value>, name: &str) -> usize {
    let before: Vec<&String> = old.keys().take_while(|k| *k != name).collect();
    new.keys()
        .rposition(|k| before.contains(&k))
        .map_or(0, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn record() -> (tempfile::TempDir, KeptContainers, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let kept = KeptContainers::new(tmp.path().join("home").join(KEPT_FILE_NAME));
        let file = tmp.path().join("settings.json");
        (tmp, kept, file)
    }

    #[test]
    fn an_empty_event_list_filled_then_emptied_comes_back_in_place() {
        let (_tmp, kept, file) = record();
        let user =
            json!({"a": 1, "hooks": {"Stop": [{"hooks": []}], "PostToolUse": [], "Z": []}, "b": 2});
        let mut added = user.clone();
        added["hooks"]["PostToolUse"] = json!([{"hooks": [{"type": "command", "command": "x"}]}]);
        kept.remember(&file, &user, &added).unwrap();

        // The removal, in another process: the edit dropped the emptied list.
        let mut removed = added.clone();
        removed["hooks"]
            .as_object_mut()
            .unwrap()
            .shift_remove("PostToolUse");
        kept.keep(&file, &added, &mut removed).unwrap();
        assert_eq!(
            serde_json::to_string(&removed).unwrap(),
            serde_json::to_string(&user).unwrap()
        );
        kept.remember(&file, &added, &removed).unwrap();
        // Forgotten once written empty: a later removal by the user's hand stays.
        let stored = kept.read().unwrap().unwrap();
        assert!(stored.kept.is_empty(), "{stored:?}");
    }

    #[test]
    fn an_empty_hooks_object_comes_back_with_its_place_among_the_keys() {
        let (_tmp, kept, file) = record();
        let user = json!({"model": "x", "hooks": {}, "env": {}});
        let added = json!({"model": "x", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "y"}]}]}, "env": {}});
        kept.remember(&file, &user, &added).unwrap();
        let mut removed = json!({"model": "x", "env": {}});
        kept.keep(&file, &added, &mut removed).unwrap();
        assert_eq!(
            serde_json::to_string(&removed).unwrap(),
            serde_json::to_string(&user).unwrap()
        );
    }

    #[test]
    fn containers_hookd_created_still_go_and_nothing_is_recorded() {
        let (_tmp, kept, file) = record();
        let user = json!({"model": "x"});
        let added = json!({"model": "x", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "y"}]}]}});
        kept.remember(&file, &user, &added).unwrap();
        assert!(!kept.path.exists(), "no record written for the usual save");
        let mut removed = user.clone();
        kept.keep(&file, &added, &mut removed).unwrap();
        assert_eq!(removed, user);
    }

    #[test]
    fn another_files_record_does_not_apply() {
        let (tmp, kept, file) = record();
        let other = tmp.path().join("other.json");
        let user = json!({"hooks": {}});
        let added = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "y"}]}]}});
        kept.remember(&file, &user, &added).unwrap();
        let mut removed = json!({});
        kept.keep(&other, &added, &mut removed).unwrap();
        assert_eq!(removed, json!({}));
    }
}
