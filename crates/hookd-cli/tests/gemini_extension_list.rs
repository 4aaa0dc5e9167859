//! `hookd hooks list --agent gemini` shows an installed Gemini CLI
//! extension's hook commands as Gemini runs them: `${extensionPath}`,
//! `${workspacePath}` and `${/}` substituted when it loads the extension.
//! The real binary, a temp HOME (the test kit's) and a git project.

use hookd_testkit::{GitRepo, TestEnv, write_file};
use serde_json::Value;

#[test]
fn gemini_extension_commands_are_listed_as_gemini_runs_them() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let ext = env.home().join(".gemini/extensions/audit");
    write_file(
        &ext.join("gemini-extension.json"),
        r#"{"name": "audit", "version": "1.0.0"}"#,
    );
    let raw = "node ${extensionPath}${/}on-start.js ${workspacePath}";
    write_file(
        &ext.join("hooks/hooks.json"),
        &format!(
            r#"{{"hooks": {{"SessionStart": [{{"hooks": [{{"type": "command", "command": "{raw}"}}]}}]}}}}"#
        ),
    );
    let list = env.hookd(
        &root,
        &["hooks", "list", "--agent", "gemini", "--format", "json"],
    );
    let doc: Value = serde_json::from_str(list.assert_ok()).unwrap();
    let file = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["extension"] == "audit")
        .unwrap_or_else(|| panic!("{doc}"));
    assert_eq!(
        file["hooks"][0]["command"],
        format!("node {}/on-start.js {}", ext.display(), root.display()),
        "{doc}"
    );
    let text = env.hookd(&root, &["hooks", "list", "--agent", "gemini"]);
    let out = text.assert_ok();
    assert!(
        out.contains("/on-start.js") && !out.contains("${extensionPath}"),
        "{out}"
    );
}
