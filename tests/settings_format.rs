//! Hook edits through the real `hookd` binary change nothing but the hook:
//! settings files as people write them (inline arrays, blank lines,
//! `\u003e` escapes, minified, CRLF, a byte order mark, tabs) keep every
//! other byte, and adding a hook then removing it gives back the very
//! bytes the file had, also when the user's own empty `"hooks": {}` or
//! `"PostToolUse": []` held the hook (after a hook edit, `connect` +
//! `disconnect` and a template install + uninstall alike); and one group
//! whose matcher is no valid pattern (which the agent loads and never
//! matches) does not lock the file.

use std::path::Path;

use hookd_testkit::{GitRepo, TestEnv};

/// The styles real settings files come in, each with a hook already there.
const STYLES: &[(&str, &str)] = &[
    (
        "inline arrays, blank lines and escapes",
        "{\n  \"permissions\": {\"allow\": [\"Bash(ls)\", \"Read\"], \"deny\": []},\n\n  \"env\": {\"GREETING\": \"a \\u003e b\"},\n\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}]\n  }\n}\n",
    ),
    (
        "minified",
        "{\"model\":\"opus\",\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"notify-send done\"}]}]}}",
    ),
    (
        "CRLF",
        "{\r\n  \"model\": \"opus\",\r\n  \"hooks\": {\r\n    \"Stop\": [\r\n      {\r\n        \"hooks\": [\r\n          {\r\n            \"type\": \"command\",\r\n            \"command\": \"notify-send done\"\r\n          }\r\n        ]\r\n      }\r\n    ]\r\n  }\r\n}\r\n",
    ),
    (
        "byte order mark",
        "\u{feff}{\n  \"model\": \"opus\",\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}]}\n}\n",
    ),
    (
        "tabs",
        "{\n\t\"model\": \"opus\",\n\t\"hooks\": {\n\t\t\"Stop\": [\n\t\t\t{\n\t\t\t\t\"hooks\": [\n\t\t\t\t\t{\n\t\t\t\t\t\t\"type\": \"command\",\n\t\t\t\t\t\t\"command\": \"notify-send done\"\n\t\t\t\t\t}\n\t\t\t\t]\n\t\t\t}\n\t\t]\n\t}\n}",
    ),
];

fn hooks(env: &TestEnv, root: &Path, verb: &str, event: &str, command: &str) {
    let out = env.hookd(
        root,
        &[
            "hooks",
            verb,
            "--kind",
            "agent",
            "--scope",
            "project",
            "--event",
            event,
            "--matcher",
            "Bash",
            "--command",
            command,
        ],
    );
    assert!(out.ok(), "hooks {verb}: {out:?}");
}

#[test]
fn adding_and_removing_a_hook_keeps_every_other_byte_of_each_style() {
    let env = TestEnv::new();
    for (style, text) in STYLES {
        let repo = GitRepo::new();
        let root = repo.root();
        let path = root.join(".claude/settings.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();

        hooks(&env, &root, "add", "PreToolUse", "~/bin/guard.sh");
        let added = String::from_utf8(std::fs::read(&path).unwrap()).unwrap();
        // Everything before the hooks section is as it was.
        let head = &text[..text.find("\"hooks\"").unwrap()];
        assert!(added.starts_with(head), "{style}: {added:?}");
        // And the hook that was there, as it was written.
        let stop = &text[text.find("\"Stop\"").unwrap()..];
        let stop = &stop[..stop.find(']').unwrap()];
        assert!(added.contains(stop), "{style}: {added:?}");
        let value: serde_json::Value =
            serde_json::from_str(added.trim_start_matches('\u{feff}')).unwrap();
        assert_eq!(
            value["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "~/bin/guard.sh",
            "{style}"
        );
        if text.contains("\r\n") {
            assert!(
                !added.replace("\r\n", "").contains('\n'),
                "{style}: a line without its CR: {added:?}"
            );
        }

        hooks(&env, &root, "remove", "PreToolUse", "~/bin/guard.sh");
        assert_eq!(
            String::from_utf8(std::fs::read(&path).unwrap()).unwrap(),
            *text,
            "{style}: add then remove gives back the file's bytes"
        );
    }
}

#[test]
fn a_group_whose_matcher_is_no_pattern_is_flagged_and_the_file_still_edited() {
    let env = TestEnv::new();
    let repo = GitRepo::new();
    let root = repo.root();
    let path = root.join(".claude/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text = "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash(*docker*)\", \"hooks\": [{\"type\": \"command\", \"command\": \"x\"}]}]}}\n";
    std::fs::write(&path, text).unwrap();

    let listed = env.hookd(&root, &["hooks", "list"]);
    assert!(listed.ok(), "{listed:?}");
    assert!(
        listed
            .stdout
            .contains("Bash(*docker*) (never matches: not a valid pattern)"),
        "{}",
        listed.stdout
    );
    let checked = env.hookd(&root, &["hooks", "validate", ".claude/settings.json"]);
    assert!(checked.ok(), "{checked:?}");
    assert!(checked.stdout.contains("warn"), "{}", checked.stdout);
    assert!(
        checked.stdout.contains("never matches this group"),
        "{}",
        checked.stdout
    );

    hooks(&env, &root, "add", "Stop", "notify-send done");
    let added = String::from_utf8(std::fs::read(&path).unwrap()).unwrap();
    assert!(added.contains("\"matcher\": \"Bash(*docker*)\""), "{added}");
    assert!(added.contains("notify-send done"), "{added}");

    // A new one is never written.
    let refused = env.hookd(
        &root,
        &[
            "hooks",
            "add",
            "--kind",
            "agent",
            "--scope",
            "project",
            "--event",
            "Stop",
            "--matcher",
            "Edit(",
            "--command",
            "y",
        ],
    );
    assert!(!refused.ok(), "{refused:?}");
    assert!(
        refused.stderr.contains("unclosed group"),
        "{}",
        refused.stderr
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), added);
}

/// Files holding the user's own empty containers, each filled by one kind
/// of edit and emptied by its undo, in separate runs of `hookd`.
#[test]
fn the_users_empty_containers_survive_an_edit_and_its_undo() {
    let env = TestEnv::new();
    let files = [
        "{\n  \"model\": \"opus\",\n  \"hooks\": {},\n  \"env\": {}\n}\n",
        "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}], \"PreToolUse\": [], \"PostToolUse\": []}}\n",
        "{\n  \"hooks\": {\n    \"PreToolUse\": []\n  },\n  \"model\": \"opus\"\n}\n",
    ];
    let templates = |verb| {
        vec![
            "templates",
            verb,
            "block-dangerous-shell",
            "--kind",
            "agent",
            "--scope",
            "project",
        ]
    };
    let edits: [(&str, Vec<&str>, Vec<&str>); 3] = [
        (
            "hooks add + remove",
            vec![
                "hooks",
                "add",
                "--kind",
                "agent",
                "--scope",
                "project",
                "--event",
                "PreToolUse",
                "--matcher",
                "Bash",
                "--command",
                "~/bin/guard.sh",
            ],
            vec![
                "hooks",
                "remove",
                "--kind",
                "agent",
                "--scope",
                "project",
                "--event",
                "PreToolUse",
                "--matcher",
                "Bash",
                "--command",
                "~/bin/guard.sh",
            ],
        ),
        (
            "connect + disconnect",
            vec!["connect", "--scope", "project"],
            vec!["disconnect", "--scope", "project"],
        ),
        (
            "template install + uninstall",
            templates("install"),
            templates("uninstall"),
        ),
    ];
    for (what, fill, undo) in &edits {
        for text in files {
            let repo = GitRepo::new();
            let root = repo.root();
            let path = root.join(".claude/settings.json");
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();

            let out = env.hookd(&root, fill);
            assert!(out.ok(), "{what}: {out:?}");
            assert_ne!(
                std::fs::read_to_string(&path).unwrap(),
                text,
                "{what}: nothing added"
            );
            let out = env.hookd(&root, undo);
            assert!(out.ok(), "{what}: {out:?}");
            assert_eq!(
                std::fs::read_to_string(&path).unwrap(),
                text,
                "{what}: the file's bytes are back"
            );
        }
    }

    // A container hookd created still goes when emptied.
    let repo = GitRepo::new();
    let root = repo.root();
    let path = root.join(".claude/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text = "{\n  \"model\": \"opus\"\n}\n";
    std::fs::write(&path, text).unwrap();
    let (_, fill, undo) = &edits[0];
    assert!(env.hookd(&root, fill).ok());
    assert!(env.hookd(&root, undo).ok());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}
