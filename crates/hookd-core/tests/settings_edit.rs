//! The settings model against real files: edits leave everything else in
//! place (values, key order, bytes), disable/enable round-trips exactly,
//! concurrent changes are refused, and invalid content is never written.

use std::fs;

use hookd_core::settings::{
    self, DisabledStore, HookSelector, Kind, Scope, SettingsDocument, SettingsError,
    command_handler,
};
use hookd_testkit::{SettingsFixture, pretty_json, read_json, user_settings};
use serde_json::{Value, json};

fn keys(value: &Value) -> Vec<String> {
    value.as_object().unwrap().keys().cloned().collect()
}

fn store(fx: &SettingsFixture) -> DisabledStore {
    DisabledStore::for_roots(&fx.roots)
}

fn selector(event: &str, matcher: Option<&str>, command: &str) -> HookSelector {
    HookSelector {
        event: event.into(),
        matcher: matcher.map(str::to_owned),
        command: command.into(),
    }
}

#[test]
fn add_then_remove_changes_only_the_edit_and_round_trips_bytes() {
    let fx = SettingsFixture::new();
    let original = pretty_json(&user_settings());
    let loc = fx.write(Kind::Agent, Scope::Project, &original);

    let mut doc = SettingsDocument::load(&loc).unwrap();
    settings::add_hook(
        &mut doc,
        "PreToolUse",
        Some("Bash"),
        command_handler("./lint.sh", Some(30.0)),
    )
    .unwrap();
    settings::add_hook(
        &mut doc,
        "SessionStart",
        Some("startup"),
        command_handler("./hello.sh", None),
    )
    .unwrap();
    let outcome = doc.save(false).unwrap();
    assert!(!outcome.created);
    assert_eq!(
        fs::read_to_string(outcome.backup.unwrap()).unwrap(),
        original
    );

    let mut expected = user_settings();
    expected["hooks"]["PreToolUse"][0]["hooks"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "command", "command": "./lint.sh", "timeout": 30}));
    expected["hooks"].as_object_mut().unwrap().insert(
        "SessionStart".into(),
        json!([{"matcher": "startup", "hooks": [{"type": "command", "command": "./hello.sh"}]}]),
    );
    let written = read_json(&loc.path);
    assert_eq!(written, expected);
    assert_eq!(
        keys(&written),
        keys(&user_settings()),
        "top-level key order"
    );
    assert_eq!(
        keys(&written["hooks"]),
        ["PreToolUse", "Stop", "PostCompact", "SessionStart"]
    );
    // Byte-wise the file is what the same pretty printer makes of the value.
    assert_eq!(
        fs::read_to_string(&loc.path).unwrap(),
        pretty_json(&expected)
    );

    let mut doc = SettingsDocument::load(&loc).unwrap();
    let removed =
        settings::remove_hook(&mut doc, &selector("PreToolUse", None, "./lint.sh")).unwrap();
    assert_eq!(removed.len(), 1);
    settings::remove_hook(
        &mut doc,
        &selector("session_start", Some("startup"), "./hello.sh"),
    )
    .unwrap();
    doc.save(false).unwrap();
    assert_eq!(fs::read_to_string(&loc.path).unwrap(), original);
}

#[test]
fn formatting_is_kept_four_spaces_crlf_bom_no_newline() {
    let fx = SettingsFixture::new();
    let four = "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"Stop\": [\n            {\n                \"hooks\": [\n                    {\n                        \"type\": \"command\",\n                        \"command\": \"a\"\n                    }\n                ]\n            }\n        ]\n    }\n}";
    let crlf = format!("\u{feff}{}\r\n", four.replace('\n', "\r\n"));
    for text in [four.to_owned(), crlf] {
        let loc = fx.write(Kind::Managed, Scope::Local, &text);
        let mut doc = SettingsDocument::load(&loc).unwrap();
        settings::add_hook(&mut doc, "Stop", None, command_handler("b", None)).unwrap();
        doc.save(false).unwrap();
        let after = fs::read_to_string(&loc.path).unwrap();
        assert!(
            after.contains("                    {\r\n                        \"type\"")
                || after.contains("                    {\n                        \"type\""),
            "{after:?}"
        );
        assert_eq!(after.starts_with('\u{feff}'), text.starts_with('\u{feff}'));
        let mut doc = SettingsDocument::load(&loc).unwrap();
        settings::remove_hook(&mut doc, &selector("Stop", None, "b")).unwrap();
        doc.save(false).unwrap();
        assert_eq!(fs::read_to_string(&loc.path).unwrap(), text);
    }
}

#[test]
fn disable_then_enable_gives_back_the_exact_bytes() {
    let fx = SettingsFixture::new();
    let mut value = user_settings();
    value["hooks"]["PreToolUse"].as_array_mut().unwrap().push(
        json!({"matcher": "Edit|Write", "hooks": [
            {"type": "command", "command": "./fmt.sh"},
            {"type": "command", "command": "~/bin/guard.sh", "async": true}
        ]}),
    );
    let original = pretty_json(&value);
    let loc = fx.write(Kind::Agent, Scope::Local, &original);
    let store = store(&fx);

    // Both groups hold the command: both are disabled, the first group goes.
    let done = store
        .disable(&loc, &selector("PreToolUse", None, "~/bin/guard.sh"), false)
        .unwrap();
    assert_eq!(done.len(), 2);
    assert_eq!(done[0].matcher.as_deref(), Some("Bash"));
    assert_eq!(done[0].handler["x-custom"], json!({"keep": true}));
    assert_eq!((done[1].group_index, done[1].handler_index), (0, 1));
    let disabled = read_json(&loc.path);
    assert_eq!(
        disabled["hooks"]["PreToolUse"],
        json!([{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "./fmt.sh"}]}])
    );
    assert_eq!(keys(&disabled), keys(&value));
    assert_eq!(disabled["hooks"]["Stop"], value["hooks"]["Stop"]);
    let stored = store.load().unwrap();
    assert_eq!(stored.len(), 2);
    assert_eq!(stored[0].path, loc.path);
    assert_eq!(stored[0].kind, Kind::Agent);
    assert_eq!(stored[0].scope, Scope::Local);

    // The listing shows them, disabled.
    let view = settings::effective_in(&fx.roots, Kind::Agent, Some(&fx.project)).unwrap();
    let off: Vec<_> = view.hooks.iter().filter(|h| !h.enabled).collect();
    assert_eq!(off.len(), 2);
    assert!(
        off.iter()
            .all(|h| h.command.as_deref() == Some("~/bin/guard.sh"))
    );
    assert!(
        view.matching("PreToolUse", &json!({"tool_name": "Bash"}))
            .is_empty(),
        "disabled hooks never match"
    );

    // Disabling again: nothing enabled is left to disable.
    let err = store
        .disable(&loc, &selector("PreToolUse", None, "~/bin/guard.sh"), false)
        .unwrap_err();
    assert!(err.to_string().contains("already disabled"), "{err}");

    // Enable only the one in the Bash group first, then the other.
    store
        .enable(
            &loc,
            &selector("PreToolUse", Some("Bash"), "~/bin/guard.sh"),
            false,
        )
        .unwrap();
    assert_eq!(store.load().unwrap().len(), 1);
    store
        .enable(&loc, &selector("PreToolUse", None, "~/bin/guard.sh"), false)
        .unwrap();
    assert_eq!(fs::read_to_string(&loc.path).unwrap(), original);
    assert!(store.load().unwrap().is_empty());

    let err = store
        .enable(&loc, &selector("PreToolUse", None, "~/bin/guard.sh"), false)
        .unwrap_err();
    assert!(matches!(err, SettingsError::NotFound { .. }), "{err}");
}

#[test]
fn disabling_the_only_hook_removes_hooks_and_enabling_restores_its_place() {
    let fx = SettingsFixture::new();
    let original = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"x\"\n          }\n        ]\n      }\n    ]\n  },\n  \"env\": {}\n}\n";
    let loc = fx.write(Kind::Managed, Scope::Project, original);
    let store = store(&fx);
    store
        .disable(&loc, &selector("Stop", None, "x"), false)
        .unwrap();
    assert_eq!(read_json(&loc.path), json!({"model": "opus", "env": {}}));
    store
        .enable(&loc, &selector("Stop", None, "x"), false)
        .unwrap();
    assert_eq!(fs::read_to_string(&loc.path).unwrap(), original);
}

#[test]
fn a_change_on_disk_between_load_and_save_is_refused_unless_forced() {
    let fx = SettingsFixture::new();
    let original = pretty_json(&user_settings());
    let loc = fx.write(Kind::Agent, Scope::Global, &original);
    let mut doc = SettingsDocument::load(&loc).unwrap();
    settings::add_hook(&mut doc, "Stop", None, command_handler("./mine.sh", None)).unwrap();

    // Someone else (the agent's /hooks editor, say) saves meanwhile.
    let theirs = original.replace("opus", "sonnet");
    fs::write(&loc.path, &theirs).unwrap();
    let err = doc.save(false).unwrap_err();
    assert!(
        matches!(err, SettingsError::ChangedOnDisk { .. }),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .contains("changed on disk since it was read"),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(&loc.path).unwrap(),
        theirs,
        "nothing written"
    );

    doc.save(true).unwrap();
    let forced = read_json(&loc.path);
    assert_eq!(forced["model"], "opus");
    assert_eq!(
        forced["hooks"]["Stop"][0]["hooks"][1]["command"],
        "./mine.sh"
    );

    // A file that disappeared counts as changed too.
    let doc = SettingsDocument::load(&loc).unwrap();
    fs::remove_file(&loc.path).unwrap();
    assert!(matches!(
        doc.save(false),
        Err(SettingsError::ChangedOnDisk { .. })
    ));
    assert!(!loc.path.exists());
}

#[test]
fn disable_rolls_back_the_store_when_the_file_cannot_be_saved() {
    let fx = SettingsFixture::new();
    let loc = fx.write(
        Kind::Managed,
        Scope::Global,
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#,
    );
    // Policy files are read-only: refused before anything is recorded.
    fs::write(
        &fx.roots.policy,
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#,
    )
    .unwrap();
    let policy = fx.roots.location(Kind::Agent, Scope::Policy, None).unwrap();
    let err = store(&fx)
        .disable(&policy, &selector("Stop", None, "x"), false)
        .unwrap_err();
    assert!(matches!(err, SettingsError::ReadOnly { .. }), "{err:?}");
    assert!(store(&fx).load().unwrap().is_empty());
    let mut doc = SettingsDocument::load(&policy).unwrap();
    assert!(matches!(
        settings::add_hook(&mut doc, "Stop", None, command_handler("y", None)),
        Err(SettingsError::ReadOnly { .. })
    ));
    assert!(store(&fx).load().unwrap().is_empty());
    // The managed global file itself is fine.
    store(&fx)
        .disable(&loc, &selector("Stop", None, "x"), false)
        .unwrap();
    assert_eq!(store(&fx).load().unwrap().len(), 1);
}

#[test]
fn invalid_content_is_refused_with_every_path_and_nothing_written() {
    let fx = SettingsFixture::new();
    let text = r#"{"hooks": {"PreToolUse": [{"matcher": "Edit(", "hooks": [{"type": "command", "command": "x", "timeout": 0}]}], "Stopp": [], "Stop": [{"hooks": [{"type": "http"}, "x"]}]}}"#;
    let loc = fx.write(Kind::Agent, Scope::Project, text);
    let mut doc = SettingsDocument::load(&loc).unwrap();
    let err = settings::add_hook(&mut doc, "Stop", None, command_handler("y", None)).unwrap_err();
    let SettingsError::Invalid { path, errors } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(path, &loc.path);
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            // The matcher that is no pattern is a warning, not one of these.
            "hooks.PreToolUse[0].hooks[0].timeout: expected a positive number (seconds)",
            "hooks.Stopp: unknown event (did you mean Stop?)",
            "hooks.Stop[0].hooks[0].url: missing (required for http handlers)",
            "hooks.Stop[0].hooks[1]: expected a handler object",
        ]
    );
    // save validates too, whatever the edit functions did.
    *doc.value_mut() = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "once": "no"}]}]}});
    let err = doc.save(true).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{} is not valid hook settings: hooks.Stop[0].hooks[0].once: expected true or false",
            loc.path.display()
        )
    );
    assert_eq!(fs::read_to_string(&loc.path).unwrap(), text);

    // Unparsable JSON: an error naming the file, the file untouched.
    let loc = fx.write(Kind::Agent, Scope::Local, "{\"hooks\": ");
    let err = SettingsDocument::load(&loc).unwrap_err();
    assert!(matches!(err, SettingsError::Parse { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("settings.local.json: not valid JSON"),
        "{err}"
    );
}

#[test]
fn creating_project_managed_settings_opens_the_ledger_gitignore() {
    let fx = SettingsFixture::new();
    let dir = fx.project.join(".hookd");
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join(".gitignore"),
        "# hookd's ledger: local history, never committed.\n*\n",
    )
    .unwrap();
    fs::write(dir.join("mutations.db"), "").unwrap();
    let loc = fx.location(Kind::Managed, Scope::Project);
    let mut doc = SettingsDocument::load(&loc).unwrap();
    assert!(!doc.existed());
    settings::add_hook(
        &mut doc,
        "PreToolUse",
        Some("Bash"),
        command_handler("./g.sh", None),
    )
    .unwrap();
    assert!(doc.save(false).unwrap().created);
    assert_eq!(
        fs::read_to_string(dir.join(".gitignore")).unwrap(),
        hookd_core::state_dir::SHARED_GITIGNORE
    );
    assert_eq!(
        fs::read_to_string(&loc.path).unwrap(),
        "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"./g.sh\"\n          }\n        ]\n      }\n    ]\n  }\n}\n"
    );
}

/// Twelve hooks each in two files: hookd's global file (in the same
/// directory as the store of disabled hooks) and a project file.
fn twelve_hooks_each(fx: &SettingsFixture) -> [hookd_core::settings::SettingsLocation; 2] {
    let handlers: Vec<Value> = (0..12)
        .map(|i| json!({"type": "command", "command": format!("c{i}")}))
        .collect();
    let text = pretty_json(&json!({"hooks": {"Stop": [{"hooks": handlers}]}}));
    [
        fx.write(Kind::Managed, Scope::Global, &text),
        fx.write(Kind::Agent, Scope::Project, &text),
    ]
}

#[test]
fn concurrent_disables_and_enables_lose_no_hook() {
    let fx = SettingsFixture::new();
    let locations = twelve_hooks_each(&fx);
    let originals: Vec<Vec<u8>> = locations
        .iter()
        .map(|l| fs::read(&l.path).unwrap())
        .collect();
    let store = store(&fx);
    for enable in [false, true] {
        std::thread::scope(|s| {
            for loc in &locations {
                for i in 0..12 {
                    let store = store.clone();
                    s.spawn(move || {
                        let sel = selector("Stop", None, &format!("c{i}"));
                        let done = if enable {
                            store.enable(loc, &sel, false)
                        } else {
                            store.disable(loc, &sel, false)
                        };
                        assert_eq!(done.unwrap().len(), 1, "c{i} in {}", loc.path.display());
                    });
                }
            }
        });
        if enable {
            assert!(store.load().unwrap().is_empty());
        } else {
            assert_eq!(store.load().unwrap().len(), 24, "every disabled hook kept");
            for loc in &locations {
                assert!(
                    !fs::read_to_string(&loc.path).unwrap().contains("\"c"),
                    "all taken out of {}",
                    loc.path.display()
                );
            }
        }
    }
    // Every hook is back (order and grouping may differ: they came back in
    // any order, each into the group it was recorded with).
    for (loc, original) in locations.iter().zip(originals) {
        let mut now: Vec<String> = read_json(&loc.path)["hooks"]["Stop"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["hooks"].as_array().unwrap().clone())
            .map(|h| h["command"].as_str().unwrap().to_owned())
            .collect();
        now.sort();
        let mut was: Vec<String> = (0..12).map(|i| format!("c{i}")).collect();
        was.sort();
        assert_eq!(now, was, "{}", String::from_utf8_lossy(&original));
    }
}

#[test]
fn disable_and_enable_with_a_version_refuse_a_changed_file() {
    let fx = SettingsFixture::new();
    let [_, loc] = twelve_hooks_each(&fx);
    let store = store(&fx);
    let shown = SettingsDocument::load(&loc).unwrap().version();
    let c0 = selector("Stop", None, "c0");
    // Someone else's edit after the window showed the file.
    SettingsDocument::update(&loc, false, |doc| {
        settings::remove_hook(doc, &selector("Stop", None, "c11")).map(|_| ())
    })
    .unwrap();
    let now = fs::read(&loc.path).unwrap();
    let err = store.disable_if_version(&loc, &c0, &shown).unwrap_err();
    assert!(matches!(err, SettingsError::ChangedOnDisk { .. }), "{err}");
    assert_eq!(fs::read(&loc.path).unwrap(), now, "nothing changed");
    assert!(store.load().unwrap().is_empty());

    let current = SettingsDocument::load(&loc).unwrap().version();
    store.disable_if_version(&loc, &c0, &current).unwrap();
    let err = store.enable_if_version(&loc, &c0, &current).unwrap_err();
    assert!(matches!(err, SettingsError::ChangedOnDisk { .. }), "{err}");
    assert_eq!(store.load().unwrap().len(), 1, "still disabled");
    let current = SettingsDocument::load(&loc).unwrap().version();
    store.enable_if_version(&loc, &c0, &current).unwrap();
    assert!(store.load().unwrap().is_empty());
}
