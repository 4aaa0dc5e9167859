//! Files the tests write and read back: settings files, scripts, JSON.

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;

use serde_json::Value;

/// Writes `text` to `path`, creating its parent directories.
pub fn write_file(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .unwrap_or_else(|err| panic!("create {}: {err}", parent.display()));
    }
    std::fs::write(path, text).unwrap_or_else(|err| panic!("write {}: {err}", path.display()));
}

/// Writes an executable (mode 0755) script `text` to `path`, creating its
/// parent directories.
pub fn write_script(path: &Path, text: &str) {
    write_file(path, text);
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .unwrap_or_else(|err| panic!("chmod {}: {err}", path.display()));
}

/// Writes `value` as pretty JSON plus a newline to `path` (creating its
/// parent directories) and returns the bytes written.
pub fn write_json_pretty(path: &Path, value: &Value) -> Vec<u8> {
    let text = pretty_json(value);
    write_file(path, &text);
    text.into_bytes()
}

/// The names of the entries of `dir` (not recursive), sorted: what a test
/// asserts was (or was not) left beside a file.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("read {}: {err}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Reads and parses the JSON file at `path`.
pub fn read_json(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap_or_else(|err| panic!("read {}: {err}", path.display()));
    serde_json::from_slice(&bytes)
        .unwrap_or_else(|err| panic!("{} is not JSON: {err}", path.display()))
}

/// `value` as pretty JSON text with a final newline, as editors save it.
pub fn pretty_json(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("serialise JSON") + "\n"
}

/// A fresh temp dir with mode 0700, as a socket directory must be (the
/// emitter and the daemon refuse one that other users can enter).
pub fn private_tempdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
        .expect("chmod 700 temp dir");
    dir
}

/// True when `path` itself is a symbolic link (not followed).
pub fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}
