//! Settings writes through the real `hookd` binary under two threats: many
//! writers at once (every "Added" must be in the file: hookd holds a lock
//! from load to rename) and a repository whose settings paths are symbolic
//! links out of the project (a project or local write is refused; the
//! user's own dotfiles link keeps working).

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread;

use hookd_testkit::{GitRepo, Run, TestEnv, is_symlink, read_json};
use serde_json::Value;

/// Worker processes adding at once, and adds in all.
const WORKERS: usize = 8;
const ADDS: usize = 100;

/// Every command of a settings file's `PreToolUse` hooks.
fn commands(path: &Path) -> Vec<String> {
    let value = read_json(path);
    value["hooks"]["PreToolUse"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| g["hooks"].as_array().cloned().unwrap_or_default())
        .filter_map(|h| h["command"].as_str().map(str::to_owned))
        .collect()
}

fn add(env: &TestEnv, root: &Path, kind: &str, scope: &str, command: &str) -> Run {
    env.hookd(
        root,
        &[
            "hooks",
            "add",
            "--kind",
            kind,
            "--scope",
            scope,
            "--event",
            "PreToolUse",
            "--matcher",
            "Bash",
            "--command",
            command,
        ],
    )
}

/// `ADDS` adds from `WORKERS` processes at a time on one file: every add
/// that said "Added" (exit 0) is in the file, and any other one said why.
fn parallel_adds(kind: &str, scope: &str, file: &str) {
    let env = Arc::new(TestEnv::new());
    let repo = GitRepo::new();
    let root = Arc::new(repo.root());
    let workers: Vec<_> = (0..WORKERS)
        .map(|w| {
            let (env, root) = (Arc::clone(&env), Arc::clone(&root));
            let (kind, scope) = (kind.to_owned(), scope.to_owned());
            thread::spawn(move || {
                let mut results = Vec::new();
                for i in (w..ADDS).step_by(WORKERS) {
                    let command = format!("./guard-{i}.sh");
                    let run = add(&env, &root, &kind, &scope, &command);
                    results.push((command, run));
                }
                results
            })
        })
        .collect();
    let results: Vec<(String, Run)> = workers
        .into_iter()
        .flat_map(|w| w.join().unwrap())
        .collect();
    assert_eq!(results.len(), ADDS);
    let in_file = commands(&root.join(file));
    let mut added = 0;
    for (command, run) in &results {
        if run.ok() {
            added += 1;
            assert!(
                run.stdout.starts_with("Added PreToolUse hook"),
                "{}",
                run.stdout
            );
            assert!(
                in_file.contains(command),
                "{command} was reported added but is not in {file}"
            );
        } else {
            assert!(
                run.stderr.contains(file),
                "a refusal names the file: {}",
                run.stderr
            );
            assert!(!in_file.contains(command), "{command} refused yet written");
        }
    }
    assert_eq!(in_file.len(), added, "{in_file:?}");
    assert_eq!(added, ADDS, "every add waits for the lock and makes it");
}

#[test]
fn parallel_adds_to_the_managed_project_file_are_all_kept() {
    parallel_adds("managed", "project", ".hookd/settings.json");
}

#[test]
fn parallel_adds_to_the_agent_project_file_are_all_kept() {
    parallel_adds("agent", "project", ".claude/settings.json");
}

#[test]
fn parallel_adds_to_the_agent_local_file_are_all_kept() {
    parallel_adds("agent", "local", ".claude/settings.local.json");
}

/// The user's global agent settings, with one hook of theirs.
fn global_settings(env: &TestEnv) -> (PathBuf, Vec<u8>) {
    let path = env.home().join(".claude/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text = b"{\n  \"model\": \"opus\"\n}\n".to_vec();
    std::fs::write(&path, &text).unwrap();
    (path, text)
}

fn assert_refused_outside(run: &Run, shown: &str) {
    assert!(!run.ok(), "refused: {}", run.stdout);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr.contains("outside the project"),
        "says why: {}",
        run.stderr
    );
    assert!(run.stderr.contains(shown), "names the file: {}", run.stderr);
}

#[test]
fn project_settings_linked_out_of_the_project_are_refused() {
    let env = TestEnv::new();
    let (global, before) = global_settings(&env);
    for (kind, scope, file) in [
        ("agent", "project", ".claude/settings.json"),
        ("agent", "local", ".claude/settings.local.json"),
        ("managed", "project", ".hookd/settings.json"),
        ("managed", "local", ".hookd/settings.local.json"),
    ] {
        let repo = GitRepo::new();
        let root = repo.root();
        let link = root.join(file);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        symlink(&global, &link).unwrap();
        let run = add(&env, &root, kind, scope, "./x.sh");
        assert_refused_outside(&run, file);
        assert_eq!(std::fs::read(&global).unwrap(), before, "{kind} {scope}");
        assert!(is_symlink(&link), "the link is left as it was");
        assert!(
            !global.with_extension("json.hookd-backup").exists(),
            "no backup beside the global file either"
        );
    }
}

#[test]
fn a_settings_directory_linked_out_of_the_project_is_refused() {
    let env = TestEnv::new();
    let (global, before) = global_settings(&env);
    let elsewhere = env.plain_dir("elsewhere");
    for (kind, scope, dir, target) in [
        ("agent", "project", ".claude", global.parent().unwrap()),
        ("agent", "local", ".claude", global.parent().unwrap()),
        ("managed", "project", ".hookd", elsewhere.as_path()),
    ] {
        let repo = GitRepo::new();
        let root = repo.root();
        symlink(target, root.join(dir)).unwrap();
        let run = add(&env, &root, kind, scope, "./x.sh");
        assert_refused_outside(&run, dir);
        assert_eq!(std::fs::read(&global).unwrap(), before);
        assert!(
            !global
                .parent()
                .unwrap()
                .join("settings.local.json")
                .exists(),
            "nothing created through the link"
        );
        assert_eq!(
            std::fs::read_dir(&elsewhere).unwrap().count(),
            0,
            "nothing created through the link"
        );
    }
}

#[test]
fn a_link_that_stays_inside_the_project_is_followed() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    std::fs::create_dir_all(root.join("config")).unwrap();
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    std::fs::write(root.join("config/claude.json"), "{}\n").unwrap();
    symlink("../config/claude.json", root.join(".claude/settings.json")).unwrap();
    add(&env, &root, "agent", "project", "./x.sh").assert_ok();
    assert_eq!(commands(&root.join("config/claude.json")), ["./x.sh"]);
    assert!(is_symlink(&root.join(".claude/settings.json")));
}

#[test]
fn a_user_settings_link_into_dotfiles_is_edited_through() {
    let env = TestEnv::new();
    let dotfiles = env.plain_dir("dotfiles");
    let real = dotfiles.join("claude-settings.json");
    std::fs::write(&real, "{\n  \"model\": \"opus\"\n}\n").unwrap();
    let link = env.home().join(".claude/settings.json");
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    symlink(&real, &link).unwrap();
    let repo = GitRepo::new();
    let run = add(&env, &repo.root(), "agent", "global", "./x.sh");
    run.assert_ok();
    assert!(is_symlink(&link), "link kept");
    assert_eq!(commands(&real), ["./x.sh"]);
    let value: Value = read_json(&real);
    assert_eq!(value["model"], "opus");
}

#[test]
fn connect_and_disconnect_take_the_same_lock_as_hooks_add() {
    let env = Arc::new(TestEnv::new());
    let repo = GitRepo::new();
    let root = Arc::new(repo.root());
    let file = root.join(".claude/settings.json");
    let toggler = {
        let (env, root) = (Arc::clone(&env), Arc::clone(&root));
        thread::spawn(move || {
            for round in 0..20 {
                let verb = if round % 2 == 0 {
                    "connect"
                } else {
                    "disconnect"
                };
                env.hookd(&root, &[verb, "--scope", "project"]).assert_ok();
            }
        })
    };
    let adders: Vec<_> = (0..4)
        .map(|w| {
            let (env, root) = (Arc::clone(&env), Arc::clone(&root));
            thread::spawn(move || {
                for i in 0..10 {
                    let command = format!("./w{w}-{i}.sh");
                    add(&env, &root, "agent", "project", &command).assert_ok();
                }
            })
        })
        .collect();
    toggler.join().unwrap();
    for a in adders {
        a.join().unwrap();
    }
    let in_file = commands(&file);
    let mine: Vec<&String> = in_file.iter().filter(|c| c.starts_with("./w")).collect();
    assert_eq!(mine.len(), 40, "no add lost to a connect: {in_file:?}");
    assert!(
        !in_file.iter().any(|c| c.contains("hookd-emit")),
        "the last disconnect removed hookd's entries: {in_file:?}"
    );
}

#[test]
fn connect_into_project_settings_linked_out_of_the_project_is_refused() {
    let env = TestEnv::new();
    let (global, before) = global_settings(&env);
    let repo = GitRepo::new();
    let root = repo.root();
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    symlink(&global, root.join(".claude/settings.json")).unwrap();
    for args in [
        &["connect", "--scope", "project"][..],
        &["disconnect", "--scope", "project"][..],
    ] {
        let run = env.hookd(&root, args);
        assert_refused_outside(&run, ".claude/settings.json");
        assert_eq!(std::fs::read(&global).unwrap(), before);
    }
    // The global scope itself is still connected as usual.
    env.hookd(&root, &["connect"]).assert_ok();
    assert!(
        std::fs::read_to_string(&global)
            .unwrap()
            .contains("hookd-emit")
    );
}

/// Every file under `dir`, recursively (links not followed).
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && !is_symlink(&path) {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

fn install(env: &TestEnv, root: &Path, template: &str, scope: &str) -> Run {
    env.hookd(
        root,
        &[
            "templates",
            "install",
            template,
            "--kind",
            "agent",
            "--scope",
            scope,
        ],
    )
}

#[test]
fn template_scripts_are_never_written_beyond_a_symbolic_link() {
    let env = TestEnv::new();
    let elsewhere = env.plain_dir("elsewhere");
    let victim = elsewhere.join("victim.py");
    std::fs::write(&victim, "print('mine')\n").unwrap();
    std::fs::set_permissions(&victim, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
    // Scope, the link planted (relative to the root), where it points.
    let cases = [
        ("project", ".hookd/hooks", &elsewhere),
        ("local", ".hookd/hooks-local", &elsewhere),
        ("project", ".hookd", &elsewhere),
        ("project", ".hookd/hooks/block-dangerous-shell.py", &victim),
    ];
    for (scope, link, target) in cases {
        let repo = GitRepo::new();
        let root = repo.root();
        let planted = root.join(link);
        std::fs::create_dir_all(planted.parent().unwrap()).unwrap();
        symlink(target, &planted).unwrap();
        let run = install(&env, &root, "block-dangerous-shell", scope);
        assert!(!run.ok(), "{link}: {}", run.stdout);
        assert!(
            run.stderr.contains("symbolic link") && run.stderr.contains(link),
            "{link}: {}",
            run.stderr
        );
        assert_eq!(
            files_under(&elsewhere),
            std::slice::from_ref(&victim),
            "{link}: nothing written through the link"
        );
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "print('mine')\n");
        let mode = std::fs::metadata(&victim).unwrap().permissions();
        assert_eq!(
            std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
            0o644,
            "{link}: not made executable"
        );
        assert!(
            !root.join(".claude/settings.json").exists()
                && !root.join(".claude/settings.local.json").exists(),
            "{link}: no handler points at a script that was not written"
        );
    }
}

#[test]
fn parallel_template_installs_and_adds_keep_every_handler() {
    let env = Arc::new(TestEnv::new());
    let repo = GitRepo::new();
    let root = Arc::new(repo.root());
    let templates: [&'static str; 4] = [
        "block-dangerous-shell",
        "protect-secrets",
        "protect-main-branch",
        "stay-in-project",
    ];
    let mut workers: Vec<_> = templates
        .into_iter()
        .map(|t| {
            let (env, root) = (Arc::clone(&env), Arc::clone(&root));
            thread::spawn(move || install(&env, &root, t, "project").assert_ok().to_owned())
        })
        .collect();
    workers.extend((0..4).map(|i| {
        let (env, root) = (Arc::clone(&env), Arc::clone(&root));
        thread::spawn(move || {
            add(&env, &root, "agent", "project", &format!("./mine-{i}.sh"))
                .assert_ok()
                .to_owned()
        })
    }));
    for w in workers {
        w.join().unwrap();
    }
    let text = std::fs::read_to_string(root.join(".claude/settings.json")).unwrap();
    for t in templates {
        assert!(text.contains(&format!("{t}.py")), "{t} lost: {text}");
    }
    for i in 0..4 {
        assert!(
            text.contains(&format!("./mine-{i}.sh")),
            "add {i} lost: {text}"
        );
    }
}

#[test]
fn uninstalling_a_template_never_deletes_beyond_a_symbolic_link() {
    let env = TestEnv::new();
    let elsewhere = env.plain_dir("elsewhere");
    let repo = GitRepo::new();
    let root = repo.root();
    install(&env, &root, "block-dangerous-shell", "project").assert_ok();
    // The directory is swapped for a link to a folder holding a file of the
    // same name (a pull could do this).
    let hooks = root.join(".hookd/hooks");
    std::fs::remove_dir_all(&hooks).unwrap();
    let theirs = elsewhere.join("block-dangerous-shell.py");
    std::fs::write(&theirs, "keep me\n").unwrap();
    symlink(&elsewhere, &hooks).unwrap();
    let settings = std::fs::read(root.join(".claude/settings.json")).unwrap();
    let run = env.hookd(
        &root,
        &[
            "templates",
            "uninstall",
            "block-dangerous-shell",
            "--kind",
            "agent",
            "--scope",
            "project",
        ],
    );
    assert!(!run.ok(), "{}", run.stdout);
    assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), "keep me\n");
    assert_eq!(
        std::fs::read(root.join(".claude/settings.json")).unwrap(),
        settings,
        "refused before the settings were edited"
    );
}

#[test]
fn a_linked_hookd_gitignore_is_never_written_through() {
    let env = TestEnv::new();
    let elsewhere = env.plain_dir("elsewhere");
    let theirs = elsewhere.join("ignore");
    std::fs::write(&theirs, "# hookd's ledger\n*\n").unwrap();
    let repo = GitRepo::new();
    let root = repo.root();
    std::fs::create_dir_all(root.join(".hookd")).unwrap();
    symlink(&theirs, root.join(".hookd/.gitignore")).unwrap();
    let run = add(&env, &root, "managed", "project", "./x.sh");
    assert!(!run.ok(), "{}", run.stdout);
    assert!(
        run.stderr.contains("symbolic link") && run.stderr.contains(".hookd/.gitignore"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&theirs).unwrap(),
        "# hookd's ledger\n*\n"
    );
    assert!(!root.join(".hookd/settings.json").exists());
}

#[test]
fn a_writer_that_never_lets_go_gets_a_clear_refusal_not_a_lost_write() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let dir = root.join(".claude");
    std::fs::create_dir_all(&dir).unwrap();
    // Another writer holds the lock (as a stuck hookd would).
    let held = std::fs::File::open(&dir).unwrap();
    held.lock().unwrap();
    let run = add(&env, &root, "agent", "project", "./x.sh");
    assert!(!run.ok(), "{}", run.stdout);
    assert!(
        run.stderr
            .contains(".claude/settings.json is being written by another process")
            && run.stderr.contains("wrote nothing"),
        "{}",
        run.stderr
    );
    assert!(
        run.elapsed >= std::time::Duration::from_secs(5),
        "it waited"
    );
    assert!(!dir.join("settings.json").exists());
    held.unlock().unwrap();
    add(&env, &root, "agent", "project", "./x.sh").assert_ok();
    assert_eq!(commands(&dir.join("settings.json")), ["./x.sh"]);
}

/// `git status --porcelain` of `root`, untracked files one by one.
fn git_status(root: &Path) -> String {
    let out = std::process::Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=all"])
        .current_dir(root)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn edits_of_a_committed_settings_file_leave_only_that_file_in_git_status() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    let file = root.join(".claude/settings.json");
    std::fs::write(&file, "{\n  \"model\": \"opus\"\n}\n").unwrap();
    repo.commit_all("settings");

    add(&env, &root, "agent", "project", "./first.sh").assert_ok();
    add(&env, &root, "agent", "project", "./second.sh").assert_ok();
    let before_connect = std::fs::read(&file).unwrap();
    env.hookd(&root, &["connect", "--scope", "project"])
        .assert_ok();
    env.hookd(&root, &["disconnect", "--scope", "project"])
        .assert_ok();
    assert_eq!(git_status(&root), " M .claude/settings.json\n");

    // The versions are hookd's to give back: version 2 is the file before
    // the connect, and restoring it leaves git status as it was.
    env.hookd(
        &root,
        &["hooks", "restore-backup", file.to_str().unwrap(), "2"],
    )
    .assert_ok();
    assert_eq!(std::fs::read(&file).unwrap(), before_connect);
    assert_eq!(commands(&file), ["./first.sh", "./second.sh"]);
    assert_eq!(git_status(&root), " M .claude/settings.json\n");
}
