//! The settings watcher against real files: a change to a tracked file is
//! reported with its path, also when its directory did not exist yet, and
//! files nobody opened are not.

use std::fs;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use hookd_core::settings::SettingsRoots;
use hookd_desktop::settings_watch::{SettingsChanged, SettingsWatch};
use hookd_testkit::{GitRepo, TestEnv, wait_until};

/// Waits (10 s at most) until `rx` reports a change of `path`; `what` says
/// which change, for the failure message.
fn wait_for(rx: &mpsc::Receiver<SettingsChanged>, path: &Path, what: &str) {
    let path = path.display().to_string();
    wait_until(Duration::from_secs(10), what, || {
        rx.try_iter().any(|changed| changed.path == path)
    });
}

#[test]
fn reports_changes_of_tracked_settings_files() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let (tx, rx) = mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    let watch = SettingsWatch::new(Some(SettingsRoots::under(&env.home())), move |changed| {
        if let Ok(tx) = tx.lock() {
            let _ = tx.send(changed);
        }
    });

    // Not tracked yet: the project's files are reported once the editor opened it.
    let tracked = watch.watch_project(&root).unwrap();
    let project_file = root.join(".claude/settings.json");
    assert!(
        tracked.contains(&project_file.display().to_string()),
        "{tracked:?}"
    );
    assert!(
        tracked.contains(
            &env.home()
                .join(".claude/settings.json")
                .display()
                .to_string()
        )
    );

    // .claude does not exist yet: watched through the project root.
    fs::create_dir_all(project_file.parent().unwrap()).unwrap();
    fs::write(&project_file, "{}\n").unwrap();
    wait_for(&rx, &project_file, "the new file to be reported");
    // Give the watcher time to arm .claude itself, then change the file again.
    std::thread::sleep(Duration::from_millis(400));
    while rx.try_recv().is_ok() {}
    fs::write(&project_file, "{\"model\": \"opus\"}\n").unwrap();
    wait_for(&rx, &project_file, "the edit to be reported");

    let global = env.home().join(".claude/settings.json");
    fs::create_dir_all(global.parent().unwrap()).unwrap();
    fs::write(&global, "{}\n").unwrap();
    wait_for(&rx, &global, "the global file to be reported");

    // Other files in the same directories are not settings files.
    while rx.try_recv().is_ok() {}
    fs::write(root.join(".claude/notes.txt"), "x").unwrap();
    assert!(
        rx.recv_timeout(Duration::from_millis(800)).is_err(),
        "an unrelated file is not reported"
    );
}
