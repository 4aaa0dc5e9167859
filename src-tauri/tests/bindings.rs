//! The UI's TypeScript view of the backend is generated and committed in
//! `ui/src/lib/bindings/`, so the two sides cannot drift: one ts-rs
//! declaration per type that crosses the IPC, and `commands.ts`, the map of
//! every registered command (its argument object and result) and event
//! (its payload), written from the `register!` list in
//! `src-tauri/src/commands/mod.rs`. This test regenerates them into a temp
//! dir and fails when the committed files differ; `scripts/gen-types`
//! (which sets `HOOKD_UPDATE_BINDINGS=1`) rewrites them instead.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hookd_desktop::commands::typescript;

/// Writes every binding and the command map into `dir`.
fn export_all(dir: &Path) {
    typescript::write_all(dir).unwrap_or_else(|err| panic!("export the bindings: {err}"));
}

/// The committed bindings.
fn committed_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/lib/bindings")
}

/// Every `.ts` file under `dir`, by path relative to it.
fn ts_files(dir: &Path) -> BTreeMap<PathBuf, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.expect("read dir entry").path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|ext| ext == "ts") {
                let text = std::fs::read_to_string(&path).expect("read binding");
                out.insert(
                    path.strip_prefix(root).expect("under root").to_owned(),
                    text,
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn ui_bindings_are_current() {
    let fresh_dir = tempfile::tempdir().expect("temp dir");
    export_all(fresh_dir.path());
    let fresh = ts_files(fresh_dir.path());
    for expected in ["AppInfo.ts", "AppError.ts", typescript::COMMANDS_FILE] {
        assert!(
            fresh.contains_key(Path::new(expected)),
            "the export did not write {expected}: {:?}",
            fresh.keys()
        );
    }

    let committed_dir = committed_dir();
    if std::env::var_os("HOOKD_UPDATE_BINDINGS").is_some_and(|v| v == "1") {
        for stale in ts_files(&committed_dir).keys() {
            std::fs::remove_file(committed_dir.join(stale)).expect("remove stale binding");
        }
        for (path, text) in &fresh {
            let target = committed_dir.join(path);
            std::fs::create_dir_all(target.parent().expect("has a parent")).expect("mkdir");
            std::fs::write(&target, text).expect("write binding");
        }
        return;
    }

    let committed = ts_files(&committed_dir);
    let mut problems = Vec::new();
    for (path, text) in &fresh {
        match committed.get(path) {
            None => problems.push(format!("missing: {}", path.display())),
            Some(old) if old != text => problems.push(format!("stale: {}", path.display())),
            Some(_) => {}
        }
    }
    for path in committed.keys().filter(|p| !fresh.contains_key(*p)) {
        problems.push(format!("no longer generated: {}", path.display()));
    }
    assert!(
        problems.is_empty(),
        "ui/src/lib/bindings is out of date with the Rust types or commands; run scripts/gen-types and commit the result:\n  {}",
        problems.join("\n  ")
    );
}
