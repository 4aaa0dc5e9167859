//! File paths from the agent are cleaned lexically before they are stored,
//! through the real binaries (hookd-emit → hookd daemon → ledger → hookd
//! query): `.` and `//` never make two spellings of one file, a `..` that
//! leaves the repository puts the change in the ledger the file belongs to
//! (flagged `path_outside_repo`), and a Windows or UNC path is stored as
//! given (flagged `path_foreign`), never glued onto the agent's directory.

use std::path::Path;

use hookd_testkit::{GitRepo, TestEnv, tool_payload, wait_for_count, wait_for_ledger_count};
use serde_json::{Value, json};

/// Emits a successful Write of `file_path` (exactly as given) from `cwd`.
fn emit_write(env: &TestEnv, cwd: &Path, tool_use_id: &str, file_path: &str) {
    let input = json!({"file_path": file_path, "content": "x\n"});
    let out = env.emit(
        &["post_tool_use", "Write"],
        &tool_payload("PostToolUse", "Write", cwd, tool_use_id, input),
        cwd,
    );
    assert!(out.status.success(), "hookd-emit failed: {out:?}");
}

/// The `flags` of a row as strings.
fn flags(row: &Value) -> Vec<String> {
    row["flags"]
        .as_array()
        .map(|flags| {
            flags
                .iter()
                .filter_map(|f| f.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// `(file_path, flags)` of every event in a ledger, by path (each emitter
/// is its own connection, so arrival order is not emit order).
fn ledger_events(path: &Path) -> Vec<(Option<String>, Option<String>)> {
    let conn = hookd_testkit::open_ledger(path);
    let mut stmt = conn
        .prepare("SELECT file_path, flags FROM events ORDER BY file_path")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn dot_and_double_slash_are_cleaned_so_a_file_query_finds_the_change() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();

    emit_write(&env, &root, "rel", "./src//b.rs");
    let absolute = format!("{}/./src//./b.rs", root.display());
    emit_write(&env, &root, "abs", &absolute);
    wait_for_count(&repo, "mutations", 2);

    let rows = env.query_json(&["--file", "src/b.rs"], &root);
    assert_eq!(rows.len(), 2, "{rows:#?}");
    for row in &rows {
        assert_eq!(row["file_path"], "src/b.rs");
        assert_eq!(row["file_ext"], "rs");
        assert!(flags(row).is_empty(), "{row:#?}");
    }
    // The event keeps the cleaned absolute path.
    let expected = root.join("src/b.rs").display().to_string();
    for (path, flags) in ledger_events(&repo.ledger_path()) {
        assert_eq!(path.as_deref(), Some(expected.as_str()));
        assert_eq!(flags, None);
    }
}

#[test]
fn a_path_leaving_the_repository_is_stored_in_the_repository_that_holds_it() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let other = GitRepo::new();
    let root = repo.root();
    let other_root = other.root();
    let _daemon = env.start_daemon();

    // `../<other>/src/x.rs`, relative to the agent's directory, and
    // `<repo>/../<other>/y.rs`, absolute: both name files of the other repository.
    let other_name = other_root.file_name().unwrap().to_str().unwrap();
    assert_eq!(root.parent(), other_root.parent(), "sibling temp dirs");
    emit_write(&env, &root, "rel", &format!("../{other_name}/src/x.rs"));
    emit_write(
        &env,
        &root,
        "abs",
        &format!("{}/../{other_name}/y.rs", root.display()),
    );
    wait_for_count(&other, "mutations", 2);
    wait_for_count(&repo, "events", 2);

    let rows = env.query_json(&[], &other_root);
    let mut paths: Vec<&str> = rows
        .iter()
        .filter_map(|r| r["file_path"].as_str())
        .collect();
    paths.sort_unstable();
    assert_eq!(paths, ["src/x.rs", "y.rs"], "{rows:#?}");
    for row in &rows {
        assert_eq!(flags(row), ["path_outside_repo"], "{row:#?}");
        assert_eq!(row["branch"], "main");
        assert_eq!(row["head_sha"], other.head_sha());
    }
    // Nothing is stored in the agent's repository as if it were inside it.
    assert_eq!(env.query_json(&[], &root), Vec::<Value>::new());
    // The event stays in the agent's repository, flagged, with the cleaned path.
    let events = ledger_events(&repo.ledger_path());
    assert_eq!(
        events,
        [
            (
                Some(other_root.join("src/x.rs").display().to_string()),
                Some("path_outside_repo".to_owned())
            ),
            (
                Some(other_root.join("y.rs").display().to_string()),
                Some("path_outside_repo".to_owned())
            ),
        ]
    );
}

#[test]
fn a_path_leaving_the_repository_for_no_repository_goes_to_the_ledger_outside_git() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let outside = env.plain_dir("outside");
    if hookd_core_discovers_a_repository(&outside) {
        eprintln!("skipped: the temp dir is inside a git repository");
        return;
    }
    let _daemon = env.start_daemon();

    // `<repo>/../../<env>/outside/z.rs`: up past the repository into a plain folder.
    let ups = root.components().count() - 1;
    let path = format!(
        "{}/{}{}/z.rs",
        root.display(),
        "../".repeat(ups),
        outside.display().to_string().trim_start_matches('/')
    );
    emit_write(&env, &root, "out", &path);
    wait_for_count(&repo, "events", 1);
    let unversioned = env.unversioned_ledger_path();
    wait_for_ledger_count(&unversioned, "mutations", 1);

    let expected = outside.join("z.rs").display().to_string();
    let rows = env.query_json(&["--all"], &root);
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(rows[0]["file_path"], expected.as_str());
    assert_eq!(flags(&rows[0]), ["path_outside_repo"]);
    assert_eq!(repo.count("mutations"), 0);
    assert_eq!(
        ledger_events(&repo.ledger_path()),
        [(Some(expected), Some("path_outside_repo".to_owned()))]
    );
}

/// Whether `dir` lies inside a git repository (then the test cannot make a
/// path that leaves every repository).
fn hookd_core_discovers_a_repository(dir: &Path) -> bool {
    dir.ancestors().any(|a| a.join(".git").exists())
}

#[test]
fn windows_and_unc_paths_are_stored_as_given_and_flagged() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let _daemon = env.start_daemon();

    // In byte order, as the ledger's ORDER BY file_path returns them.
    let foreign = [
        "C:/Users/me/proj/b.rs",
        r"C:\Users\me\proj\a.rs",
        r"\\server\share\c.rs",
        r"\\wsl$\Ubuntu\home\me\d.rs",
    ];
    for (i, path) in foreign.iter().enumerate() {
        emit_write(&env, &root, &format!("f{i}"), path);
    }
    wait_for_count(&repo, "mutations", 4);

    let rows = env.query_json(&[], &root);
    let mut paths: Vec<&str> = rows
        .iter()
        .filter_map(|r| r["file_path"].as_str())
        .collect();
    paths.sort_unstable();
    assert_eq!(paths, foreign, "{rows:#?}");
    for row in &rows {
        assert_eq!(flags(row), ["path_foreign"], "{row:#?}");
    }
    // The events keep the path as the agent gave it, not joined onto its directory.
    let events = ledger_events(&repo.ledger_path());
    let stored: Vec<_> = events.iter().map(|(p, _)| p.as_deref().unwrap()).collect();
    assert_eq!(stored, foreign);
    assert!(
        events
            .iter()
            .all(|(_, f)| f.as_deref() == Some("path_foreign"))
    );
}
