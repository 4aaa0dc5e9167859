//! Hook edits through the real `hookd` binary change nothing but the hook:
//! settings files as people write them (inline arrays, blank lines,
//! `\u003e` escapes, minified, CRLF, a byte order mark, tabs) keep every
//! other byte, and adding a hook then removing it gives back the very
//! bytes the file had.

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
