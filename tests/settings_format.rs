//! Hook edits through the real `hookd` binary change nothing but the hook:
//! settings files as people write them (inline arrays, blank lines,
//! `\u003e` escapes, minified, CRLF, a byte order mark, tabs) keep every
//! other byte, and adding a hook then removing it gives back the very
//! bytes the file had; and one group whose matcher is no valid pattern
//! (which the agent loads and never matches) does not lock the file.

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
