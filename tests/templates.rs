//! `hookd templates` end to end: the real binary installs and uninstalls
//! catalog templates in a real git repository with a temp HOME, and the
//! settings files keep every other key and hook, installing twice changes
//! nothing, and uninstalling removes exactly what was installed.

mod common;

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{GitRepo, TestEnv};
use serde_json::{Value, json};

fn hookd(env: &TestEnv, cwd: &Path, args: &[&str]) -> Output {
    env.command("hookd")
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run hookd")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "hookd failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn catalog_file(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../hooks-templates")
            .join(name),
    )
    .unwrap()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Settings with other keys and hooks than any template's.
fn busy_settings() -> Value {
    json!({
        "model": "opus",
        "permissions": {"allow": ["Bash(ls:*)"], "deny": []},
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "./mine.sh", "timeout": 5}]},
                {"matcher": "Write", "hooks": [{"type": "http", "url": "http://localhost:1/x"}]}
            ],
            "Stop": [{"hooks": [{"type": "command", "command": "make check"}]}]
        },
        "env": {"A": "1"}
    })
}

fn write_pretty(path: &Path, value: &Value) -> Vec<u8> {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut bytes = serde_json::to_vec_pretty(value).unwrap();
    bytes.push(b'\n');
    std::fs::write(path, &bytes).unwrap();
    bytes
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

const SHELL_CMD: &str = "\"$CLAUDE_PROJECT_DIR\"/.hookd/hooks/block-dangerous-shell.py";

#[test]
fn install_is_surgical_idempotent_and_uninstall_is_exact() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let sub = root.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    let settings = root.join(".claude/settings.json");
    let original = write_pretty(&settings, &busy_settings());

    // From a subdirectory: the git root is the project.
    let out = ok(&hookd(
        &env,
        &sub,
        &[
            "templates",
            "install",
            "block-dangerous-shell",
            "--kind",
            "agent",
            "--scope",
            "project",
        ],
    ));
    assert!(
        out.starts_with("Installed block-dangerous-shell into"),
        "{out}"
    );
    let script = root.join(".hookd/hooks/block-dangerous-shell.py");
    assert_eq!(
        std::fs::read(&script).unwrap(),
        catalog_file("block-dangerous-shell.py")
    );
    assert_eq!(mode(&script), 0o755);

    // Exactly one handler more: in the existing Bash group, everything else as it was.
    let mut expected = busy_settings();
    expected["hooks"]["PreToolUse"][0]["hooks"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "command", "command": SHELL_CMD, "timeout": 10}));
    let after = read_json(&settings);
    assert_eq!(after, expected);
    assert_eq!(
        after.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["model", "permissions", "hooks", "env"],
        "key order kept"
    );
    let installed_bytes = std::fs::read(&settings).unwrap();

    // Twice: nothing changes, byte for byte.
    let out = ok(&hookd(
        &env,
        &root,
        &[
            "templates",
            "install",
            "block-dangerous-shell",
            "--kind",
            "agent",
            "--project",
            sub.to_str().unwrap(),
        ],
    ));
    assert!(out.contains("is already installed"), "{out}");
    assert_eq!(std::fs::read(&settings).unwrap(), installed_bytes);

    // Uninstall: back to the original bytes, script gone.
    let out = ok(&hookd(
        &env,
        &root,
        &[
            "templates",
            "uninstall",
            "block-dangerous-shell",
            "--kind",
            "agent",
        ],
    ));
    assert!(
        out.starts_with("Uninstalled block-dangerous-shell"),
        "{out}"
    );
    assert_eq!(
        String::from_utf8(std::fs::read(&settings).unwrap()).unwrap(),
        String::from_utf8(original).unwrap()
    );
    assert!(!script.exists());

    // Uninstalling again changes nothing.
    let before = std::fs::read(&settings).unwrap();
    let out = ok(&hookd(
        &env,
        &root,
        &[
            "templates",
            "uninstall",
            "block-dangerous-shell",
            "--kind",
            "agent",
        ],
    ));
    assert!(out.contains("is not installed"), "{out}");
    assert_eq!(std::fs::read(&settings).unwrap(), before);
}

#[test]
fn a_script_shared_by_two_settings_files_stays_until_the_last_uninstall() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let install = |args: &[&str]| {
        let mut all = vec!["templates"];
        all.extend_from_slice(args);
        ok(&hookd(&env, &root, &all))
    };
    install(&[
        "install",
        "protect-secrets",
        "--kind",
        "agent",
        "--scope",
        "project",
    ]);
    install(&[
        "install",
        "protect-secrets",
        "--kind",
        "managed",
        "--scope",
        "local",
    ]);
    let script = root.join(".hookd/hooks/protect-secrets.py");
    let managed = root.join(".hookd/settings.local.json");
    assert_eq!(
        read_json(&managed)["hooks"]["PreToolUse"][0],
        json!({"matcher": "Read|Write|Edit|MultiEdit|Bash", "hooks": [{"type": "command",
            "command": "\"$CLAUDE_PROJECT_DIR\"/.hookd/hooks/protect-secrets.py", "timeout": 10}]})
    );
    let out = install(&[
        "uninstall",
        "protect-secrets",
        "--kind",
        "agent",
        "--scope",
        "project",
    ]);
    assert!(out.contains("another settings file still runs it"), "{out}");
    assert!(script.is_file());
    assert_eq!(read_json(&root.join(".claude/settings.json")), json!({}));
    install(&[
        "uninstall",
        "protect-secrets",
        "--kind",
        "managed",
        "--scope",
        "local",
    ]);
    assert!(!script.exists());
    assert_eq!(read_json(&managed), json!({}));
}

#[test]
fn user_scope_installs_into_hookd_home_with_an_absolute_command() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let settings = env.home.join(".hookd/settings.json");
    let original = write_pretty(
        &settings,
        &json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}),
    );
    ok(&hookd(
        &env,
        &root,
        &[
            "templates",
            "install",
            "stay-in-project",
            "--kind",
            "managed",
            "--scope",
            "user",
        ],
    ));
    let script: PathBuf = env.home.join(".hookd/hooks/stay-in-project.py");
    assert_eq!(mode(&script), 0o755);
    let value = read_json(&settings);
    assert_eq!(
        value["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        json!(script.to_str().unwrap())
    );
    assert_eq!(
        value["hooks"]["Stop"],
        json!([{"hooks": [{"type": "command", "command": "true"}]}])
    );
    let project_flag = hookd(
        &env,
        &root,
        &[
            "templates",
            "install",
            "stay-in-project",
            "--scope",
            "user",
            "--project",
            ".",
        ],
    );
    assert!(!project_flag.status.success());
    ok(&hookd(
        &env,
        &root,
        &[
            "templates",
            "uninstall",
            "stay-in-project",
            "--kind",
            "managed",
            "--scope",
            "global",
        ],
    ));
    assert_eq!(std::fs::read(&settings).unwrap(), original);
    assert!(!script.exists());
}

#[test]
fn record_into_hookd_is_what_hookd_connect_installs() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let refused = hookd(
        &env,
        &root,
        &[
            "templates",
            "install",
            "record-into-hookd",
            "--kind",
            "managed",
        ],
    );
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("use --kind agent"));

    let settings = root.join(".claude/settings.json");
    let original = write_pretty(&settings, &busy_settings());
    ok(&hookd(
        &env,
        &root,
        &[
            "templates",
            "install",
            "record-into-hookd",
            "--kind",
            "agent",
        ],
    ));
    let by_template = std::fs::read(&settings).unwrap();
    let out = ok(&hookd(
        &env,
        &root,
        &[
            "templates",
            "install",
            "record-into-hookd",
            "--kind",
            "agent",
        ],
    ));
    assert!(out.contains("is already installed"), "{out}");
    assert_eq!(std::fs::read(&settings).unwrap(), by_template);

    // `hookd connect` on the original gives the very same file.
    let other = GitRepo::new();
    let other_settings = other.root().join(".claude/settings.json");
    write_pretty(&other_settings, &busy_settings());
    ok(&hookd(
        &env,
        &other.root(),
        &["connect", "--scope", "project"],
    ));
    assert_eq!(read_json(&other_settings), read_json(&settings));

    ok(&hookd(
        &env,
        &root,
        &[
            "templates",
            "uninstall",
            "record-into-hookd",
            "--kind",
            "agent",
        ],
    ));
    assert_eq!(read_json(&settings), read_json_bytes(&original));
}

fn read_json_bytes(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap()
}

#[test]
fn list_and_show_read_the_embedded_catalog() {
    let env = TestEnv::new();
    let dir = tempfile::tempdir().unwrap();
    let listed: Value = serde_json::from_str(&ok(&hookd(
        &env,
        dir.path(),
        &["templates", "list", "--json"],
    )))
    .unwrap();
    let names: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    let index: Value = serde_json::from_slice(&catalog_file("index.json")).unwrap();
    let want: Vec<&str> = index["templates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, want);
    assert!(names.contains(&"block-dangerous-shell"));
    let shown = ok(&hookd(
        &env,
        dir.path(),
        &["templates", "show", "protect-main-branch", "--script"],
    ));
    assert!(shown.starts_with("protect-main-branch: "), "{shown}");
    assert!(shown.contains(&String::from_utf8(catalog_file("protect-main-branch.py")).unwrap()));
    let unknown = hookd(&env, dir.path(), &["templates", "show", "nope"]);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no template named \"nope\""));
}

#[test]
fn record_into_hookd_leaves_managed_mode_alone() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    ok(&hookd(
        &env,
        &root,
        &["connect", "--managed", "--scope", "project"],
    ));
    let settings = root.join(".claude/settings.json");
    let managed = std::fs::read(&settings).unwrap();
    let out = ok(&hookd(
        &env,
        &root,
        &[
            "templates",
            "install",
            "record-into-hookd",
            "--kind",
            "agent",
        ],
    ));
    assert!(out.contains("is already installed"), "{out}");
    assert_eq!(std::fs::read(&settings).unwrap(), managed);
}

#[test]
fn an_installed_managed_template_denies_through_the_daemon() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    ok(&hookd(
        &env,
        &root,
        &[
            "templates",
            "install",
            "block-dangerous-shell",
            "--kind",
            "managed",
            "--scope",
            "project",
        ],
    ));
    let _daemon = env.start_daemon();
    let emit = |command: &str| {
        let payload = common::tool_payload(
            "PreToolUse",
            "Bash",
            &root,
            "t1",
            json!({"command": command}),
        );
        let mut cmd = env.command("hookd-emit");
        cmd.args(["--wait", "PreToolUse"])
            .current_dir(&root)
            .env("CLAUDE_PROJECT_DIR", &root)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        {
            use std::io::Write as _;
            let _ = child.stdin.take().unwrap().write_all(payload.as_bytes());
        }
        child.wait_with_output().unwrap()
    };
    let denied = emit("sudo rm  -rf   \"/\"");
    assert_eq!(denied.status.code(), Some(0), "{denied:?}");
    let answer: Value = serde_json::from_slice(&denied.stdout).expect("a JSON answer");
    assert_eq!(
        answer,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "block-dangerous-shell: `rm` would recursively delete the filesystem root (/). Delete specific files or subdirectories inside the project instead."}})
    );
    let allowed = emit("cargo test");
    assert_eq!(allowed.status.code(), Some(0), "{allowed:?}");
    assert!(allowed.stdout.is_empty(), "{allowed:?}");
}
