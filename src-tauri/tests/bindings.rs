//! The UI's TypeScript types are generated from the Rust types that cross the
//! IPC (with ts-rs) and committed in `ui/src/lib/bindings/`, so the two sides
//! cannot drift. This test regenerates them into a temp dir and fails when
//! the committed files differ; `scripts/gen-types` (which sets
//! `HOOKD_UPDATE_BINDINGS=1`) rewrites them instead.
//!
//! Every type a command takes or returns, or an event carries, belongs in
//! [`export_all`]; the types they refer to follow automatically.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hookd_core::daemon::status::DaemonStatus;
use hookd_core::ledger::ActivityEvent;
use hookd_core::ledger::previous::PreviousContent;
use hookd_core::record::{HookRunRecord, MutationRow};
use hookd_desktop::AppError;
use hookd_desktop::bench::{BenchCatalog, BenchMatch, BenchRun};
use hookd_desktop::bridge::LedgerCommit;
use hookd_desktop::connect::{ConnectMode, ConnectPreview, ConnectResult, ConnectScope};
use hookd_desktop::editor::{
    EffectiveView, FileRef, HookEventInfo, HookFile, HookRef, MatcherCheck, MoveResult,
    SavePreview, SaveResult,
};
use hookd_desktop::history::{EventRef, RowRef};
use hookd_desktop::perf::UiMark;
use hookd_desktop::projects::{AddProjectsResult, ProjectInfo};
use hookd_desktop::settings_watch::SettingsChanged;
use hookd_desktop::state::AppInfo;
use hookd_desktop::templates::{TemplateCatalog, TemplateChange, TemplateInfo};
use hookd_desktop::timeline::TimelineQuery;
use ts_rs::{Config, TS};

/// Writes the declarations of every IPC type (and what they refer to) into `dir`.
fn export_all(dir: &Path) {
    // JavaScript numbers hold every count and id hookd produces exactly
    // (they stay far below 2^53), and JSON.parse gives numbers, not bigints.
    let cfg = Config::new().with_large_int("number").with_out_dir(dir);
    macro_rules! export {
        ($($ty:ty),+ $(,)?) => {
            $(
                <$ty as TS>::export_all(&cfg)
                    .unwrap_or_else(|err| panic!("export {}: {err}", stringify!($ty)));
            )+
        };
    }
    export!(
        AppError,
        AppInfo,
        DaemonStatus,
        ProjectInfo,
        AddProjectsResult,
        TimelineQuery,
        MutationRow,
        HookRunRecord,
        LedgerCommit,
        ActivityEvent,
        PreviousContent,
        RowRef,
        EventRef,
        BenchCatalog,
        BenchMatch,
        BenchRun,
        ConnectScope,
        ConnectMode,
        ConnectPreview,
        ConnectResult,
        HookEventInfo,
        HookFile,
        EffectiveView,
        MatcherCheck,
        FileRef,
        HookRef,
        SavePreview,
        SaveResult,
        MoveResult,
        SettingsChanged,
        TemplateCatalog,
        TemplateInfo,
        TemplateChange,
        UiMark,
    );
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
    assert!(
        fresh.contains_key(Path::new("AppInfo.ts")),
        "the export wrote nothing: {fresh:?}"
    );

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
        "ui/src/lib/bindings is out of date with the Rust types; run scripts/gen-types and commit the result:\n  {}",
        problems.join("\n  ")
    );
}
