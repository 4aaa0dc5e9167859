//! Smoke test through Tauri's IPC layer (`tauri::test::mock_builder`, no
//! display needed): the commands are registered under the contract's names,
//! take the contract's argument names, and answer with the contract's JSON,
//! errors included.

mod common;

use common::{DesktopEnv, invoke, ipc_window};
use hookd_testkit::{Event, GitRepo, TestEnv, record};
use serde_json::{Value, json};

#[test]
fn commands_answer_through_ipc_with_the_contract_shapes() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    record(
        &env,
        &repo,
        &[Event::write("a.txt", "2026-11-20T10:00:00.000Z")],
    );
    let (_app, window) = ipc_window(env.state());

    let info = invoke(&window, "app_info", json!({})).unwrap();
    assert_eq!(info["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        info["daemon"]["mode"], "unavailable",
        "no daemon started here"
    );
    assert_eq!(info["daemon"]["socket"], env.socket().display().to_string());

    let status = invoke(&window, "daemon_status", json!({})).unwrap();
    assert_eq!(status, Value::Null, "no status file: null");

    let listed = invoke(&window, "list_projects", json!({})).unwrap();
    assert_eq!(listed[0]["root"], repo.root().display().to_string());
    assert_eq!(listed[0]["mutations"], 1);

    let plain = env.plain_dir("notes");
    let added = invoke(
        &window,
        "add_projects",
        json!({"paths": [plain, "/definitely/not/here"]}),
    )
    .unwrap();
    assert_eq!(added["added"][0]["root"], plain.display().to_string());
    assert_eq!(
        added["rejected"],
        json!([{"path": "/definitely/not/here", "reason": "does not exist"}])
    );

    let page = invoke(
        &window,
        "timeline_page",
        json!({"query": {
            "repo": repo.root(), "all": false, "since": null, "until": null,
            "file": "a.txt", "agent": null, "branch": null, "tool": "write", "limit": 10
        }, "anchor": {"at": "newest"}, "limit": 200}),
    )
    .unwrap();
    assert_eq!(page["total"], 1);
    assert_eq!(page["first"], 0);
    assert_eq!(page["rows"].as_array().unwrap().len(), 1);
    assert_eq!(page["rows"][0]["file_path"], "a.txt");

    let err = invoke(
        &window,
        "timeline_page",
        json!({"query": {"all": true, "since": "whenever"}, "anchor": {"at": "oldest"}, "limit": 10}),
    )
    .unwrap_err();
    assert_eq!(err["kind"], "invalid_input");
    assert!(err["message"].as_str().unwrap().contains("whenever"));

    // The autostart plugin is not registered in this app: a typed error, not a panic.
    let err = invoke(&window, "launch_on_login", json!({})).unwrap_err();
    assert_eq!(err["kind"], "unavailable");
}

/// The editor's move through the IPC, with the arguments as the window
/// sends them (the names of the generated `commands.ts`): the preview
/// writes nothing, and the move takes back the preview's `versions`.
#[test]
fn a_hook_is_moved_through_ipc_as_previewed() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let project = root.join(".claude/settings.json");
    let text = "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"say done\"\n          }\n        ]\n      }\n    ]\n  }\n}\n";
    hookd_testkit::write_file(&project, text);
    let (_app, window) = ipc_window(env.state());
    let files = invoke(
        &window,
        "hook_files",
        json!({"project": root.display().to_string()}),
    )
    .unwrap();
    let source = files
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == project.display().to_string())
        .unwrap();
    let from = json!({"project": root.display().to_string(), "kind": "agent", "scope": "project"});
    let to = json!({"project": root.display().to_string(), "kind": "agent", "scope": "local"});
    let hook = json!({"event": "Stop", "matcher": null, "command": "say done"});

    let preview = invoke(
        &window,
        "preview_move_hook",
        json!({"from": from, "to": to, "hook": hook, "version": source["version"]}),
    )
    .unwrap();
    assert_eq!(preview["from"]["before"], text);
    assert_eq!(preview["to"]["creates"], true);
    assert_eq!(
        preview["versions"],
        json!({"from": source["version"], "to": "absent"})
    );
    assert_eq!(std::fs::read_to_string(&project).unwrap(), text);

    let moved = invoke(
        &window,
        "move_hook",
        json!({"from": from, "to": to, "hook": hook, "versions": preview["versions"]}),
    )
    .unwrap();
    assert_eq!(moved["moved"], 1);
    let local = root.join(".claude/settings.local.json");
    assert_eq!(
        std::fs::read_to_string(&local).unwrap(),
        preview["to"]["after"].as_str().unwrap()
    );
    assert_eq!(
        std::fs::read_to_string(&project).unwrap(),
        preview["from"]["after"].as_str().unwrap()
    );
}
