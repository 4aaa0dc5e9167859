//! `list_projects` and `add_projects` against real git repositories, real
//! ledgers and the core's registry in temp dirs.

mod common;

use std::path::PathBuf;

use common::DesktopEnv;
use hookd_desktop::projects::{self, ProjectInfo};
use hookd_testkit::{Event, GitRepo, TestEnv, record};

fn find<'a>(projects: &'a [ProjectInfo], root: &std::path::Path) -> &'a ProjectInfo {
    let root = root.display().to_string();
    projects
        .iter()
        .find(|p| p.root == root)
        .unwrap_or_else(|| panic!("{root} not in {projects:#?}"))
}

#[test]
fn list_counts_events_and_mutations_and_orders_by_last_activity() {
    let env = TestEnv::new();
    let state = env.state();
    let busy = GitRepo::new();
    let older = GitRepo::new();
    let idle = GitRepo::new();
    record(
        &env,
        &busy,
        &[
            Event::write("a.txt", "2026-11-20T10:00:00.000Z"),
            Event::prompt("2026-11-20T10:05:00.000Z"),
            Event::write("src/b.rs", "2026-11-20T10:02:00.000Z"),
        ],
    );
    record(
        &env,
        &older,
        &[Event::write("x.md", "2026-11-19T08:00:00.000Z")],
    );
    projects::add_projects(&state, &[idle.root()]).unwrap();

    let listed = projects::list_projects(&state).unwrap();
    let roots: Vec<&str> = listed.iter().map(|p| p.root.as_str()).collect();
    let expected = [busy.root(), older.root(), idle.root()];
    let expected: Vec<String> = expected.iter().map(|r| r.display().to_string()).collect();
    assert_eq!(roots, expected, "newest activity first, idle last");

    let busy_info = find(&listed, &busy.root());
    assert_eq!(busy_info.events, 3);
    assert_eq!(busy_info.mutations, 2);
    assert_eq!(
        busy_info.last_activity.as_deref(),
        Some("2026-11-20T10:05:00.000Z"),
        "the newest event, whatever order it was appended in"
    );
    assert!(busy_info.has_ledger);
    assert_eq!(
        busy_info.agent_kinds,
        ["claude"],
        "who called hookd-emit here"
    );
    assert_eq!(busy_info.origin, "event");
    assert_eq!(
        busy_info.name,
        busy.root().file_name().unwrap().to_string_lossy()
    );

    let idle_info = find(&listed, &idle.root());
    assert_eq!(idle_info.origin, "manual");
    assert_eq!((idle_info.events, idle_info.mutations), (0, 0));
    assert_eq!(idle_info.last_activity, None);
    assert!(!idle_info.has_ledger);
    assert!(idle_info.agent_kinds.is_empty());

    // The JSON the UI gets.
    let value = serde_json::to_value(busy_info).unwrap();
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "agent_kinds",
            "agents_connected",
            "connected",
            "events",
            "first_seen",
            "has_ledger",
            "last_activity",
            "mutations",
            "name",
            "origin",
            "root"
        ]
    );
    assert_eq!(
        value["connected"],
        serde_json::json!({"global": false, "project": false, "local": false})
    );
}

#[test]
fn connected_reflects_each_claude_settings_scope() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    projects::add_projects(&state, &[repo.root()]).unwrap();
    let hookd = r#"{"hooks":{"PostToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"hookd-emit post_tool_use","timeout":10}]}]}}"#;

    std::fs::create_dir_all(env.home().join(".claude")).unwrap();
    std::fs::write(env.home().join(".claude/settings.json"), hookd).unwrap();
    std::fs::create_dir_all(repo.root().join(".claude")).unwrap();
    std::fs::write(repo.root().join(".claude/settings.local.json"), hookd).unwrap();
    std::fs::write(
        repo.root().join(".claude/settings.json"),
        r#"{"permissions":{"allow":[]}}"#,
    )
    .unwrap();

    let listed = projects::list_projects(&state).unwrap();
    let connected = find(&listed, &repo.root()).connected;
    assert!(connected.global);
    assert!(
        !connected.project,
        "project settings without hookd handlers"
    );
    assert!(connected.local);
}

/// A path typed as a shell user writes it: `~/…` and `$HOME/…` are the
/// home directory's; a relative path is refused with what to give instead
/// (it said "does not exist" for all three).
#[test]
fn typed_home_paths_are_expanded_and_relative_ones_explained() {
    let env = TestEnv::new();
    let state = env.state();
    let notes = env.home().join("src/notes");
    std::fs::create_dir_all(&notes).unwrap();
    let result = projects::add_projects(
        &state,
        &[
            PathBuf::from("~/src/notes"),
            PathBuf::from("$HOME/src/notes/"),
            PathBuf::from("${HOME}/src"),
            PathBuf::from("src/notes"),
            PathBuf::from("~someone/src"),
        ],
    )
    .unwrap();
    let added: Vec<&str> = result.added.iter().map(|p| p.root.as_str()).collect();
    assert_eq!(
        added,
        [
            notes.display().to_string(),
            env.home().join("src").display().to_string()
        ],
        "~ and $HOME are the home directory (the second names the first again)"
    );
    let rejected: Vec<(&str, &str)> = result
        .rejected
        .iter()
        .map(|r| (r.path.as_str(), r.reason.as_str()))
        .collect();
    assert_eq!(
        rejected,
        [
            (
                "src/notes",
                "a relative path: give the full path (/home/you/src/app, or ~/src/app)"
            ),
            (
                "~someone/src",
                "another user's home (~name) is not expanded: give the full path"
            ),
        ]
    );
}

#[test]
fn add_accepts_folders_by_their_git_root_and_rejects_files_and_missing_paths() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    let plain = env.plain_dir("notes");
    let file = repo.root().join("README.md");
    let missing = env.dir.path().join("gone");
    let subfolder = repo.root().join("src/deep");

    let result = projects::add_projects(
        &state,
        &[
            subfolder.clone(),
            plain.clone(),
            file.clone(),
            missing.clone(),
        ],
    )
    .unwrap();

    let added: Vec<&str> = result.added.iter().map(|p| p.root.as_str()).collect();
    assert_eq!(
        added,
        [
            repo.root().display().to_string(),
            plain.display().to_string()
        ],
        "a subfolder of a repository registers the repository's root; a plain folder registers itself"
    );
    assert!(result.added.iter().all(|p| p.origin == "manual"));
    let rejected: Vec<(String, &str)> = result
        .rejected
        .iter()
        .map(|r| (r.path.clone(), r.reason.as_str()))
        .collect();
    assert_eq!(
        rejected,
        [
            (file.display().to_string(), "not a folder"),
            (missing.display().to_string(), "does not exist"),
        ]
    );

    // Persisted in the core registry (what `hookd query --all` reads).
    let listed = projects::list_projects(&env.state()).unwrap();
    assert_eq!(listed.len(), 2);

    // Idempotent: adding again lists it again and changes nothing.
    let again = projects::add_projects(&state, &[repo.root(), subfolder]).unwrap();
    assert!(again.added.is_empty(), "nothing new: not said to be added");
    assert_eq!(again.known.len(), 1, "two paths, one root: listed once");
    assert!(again.rejected.is_empty());
    assert_eq!(projects::list_projects(&state).unwrap().len(), 2);
}

#[test]
fn a_repository_known_from_events_keeps_its_origin_when_added_by_hand() {
    let env = TestEnv::new();
    let state = env.state();
    let repo = GitRepo::new();
    record(
        &env,
        &repo,
        &[Event::write("a.txt", "2026-11-20T10:00:00.000Z")],
    );
    let result = projects::add_projects(&state, &[repo.root()]).unwrap();
    assert!(result.added.is_empty(), "listed already, from its events");
    assert_eq!(result.known[0].origin, "event");
    assert_eq!(result.known[0].mutations, 1);
}

#[test]
fn a_dropped_batch_never_fails_as_a_whole() {
    let env = TestEnv::new();
    let state = env.state();
    // A data dir that cannot be created: the registry fails, every path is
    // reported as rejected with the reason instead of an error nobody sees.
    let blocker = env.dir.path().join("blocker");
    std::fs::write(&blocker, "").unwrap();
    let broken = hookd_desktop::AppState::new(blocker.join("data"), env.socket(), None);
    let dir = env.plain_dir("p");
    let result = projects::add_dropped(&broken, std::slice::from_ref(&dir));
    assert!(result.added.is_empty());
    assert_eq!(result.rejected.len(), 1);
    assert_eq!(result.rejected[0].path, dir.display().to_string());
    assert!(!result.rejected[0].reason.is_empty());

    let ok = projects::add_dropped(&state, &[dir, PathBuf::from("/definitely/not/here")]);
    assert_eq!(ok.added.len(), 1);
    assert_eq!(ok.rejected[0].reason, "does not exist");
    // The payload of `projects-changed`.
    let value = serde_json::to_value(&ok).unwrap();
    assert!(value["added"].is_array() && value["rejected"][0]["path"].is_string());
}
