//! The Revert commands against a real ledger, content store and files in a
//! temp git repository: the preview shows the core's plan (per file, its
//! kind and the line diff from now), the apply carries out exactly the
//! previewed plan (and nothing when a file changed since, conflicts or is
//! not restorable), and the undo gives back what a revert replaced.

mod common;

use common::{DesktopEnv, invoke, ipc_window};
use hookd_core::daemon::capture;
use hookd_core::ledger::Ledger;
use hookd_core::ledger::content_store::ContentStore;
use hookd_core::record::{ContentRef, RepoFacts};
use hookd_desktop::ErrorKind;
use hookd_desktop::rewind::{
    RewindConflicts, RewindFileKind, RewindFilePreview, RewindPreview, RewindTarget, rewind_apply,
    rewind_preview, rewind_undo,
};
use hookd_testkit::{Event, GitRepo, TestEnv, ledger_entry};
use serde_json::{Value, json};

/// A repository whose ledger records changes as the daemon would, with
/// each change's content before and after kept in its content store.
struct Recorded {
    repo: GitRepo,
    ledger: Ledger,
    store: ContentStore,
    clock: u32,
}

/// One recorded change: who made it and what it left.
struct Change<'a> {
    file: &'a str,
    /// The file after the change (`None`: deleted).
    after: Option<&'a str>,
    agent: &'a str,
    /// The before is recorded as not known (no `PreToolUse` was seen).
    before_unknown: bool,
}

impl<'a> Change<'a> {
    fn write(file: &'a str, after: &'a str) -> Self {
        Self {
            file,
            after: Some(after),
            agent: "agent-a",
            before_unknown: false,
        }
    }
}

impl Recorded {
    fn new() -> Self {
        let repo = GitRepo::new();
        let ledger = Ledger::open_or_create(&repo.ledger_path()).expect("ledger");
        let state_dir = repo.ledger_path().parent().unwrap().to_path_buf();
        let store = ContentStore::open(&state_dir).expect("content store");
        Self {
            repo,
            ledger,
            store,
            clock: 0,
        }
    }

    fn root(&self) -> String {
        self.repo.root().display().to_string()
    }

    fn read(&self, file: &str) -> Option<String> {
        std::fs::read_to_string(self.repo.root().join(file)).ok()
    }

    fn content(&self, text: Option<&str>) -> ContentRef {
        text.map_or(ContentRef::Absent, |t| {
            capture::keep(&self.store, t.as_bytes())
        })
    }

    /// Records one tool call making `changes` (the file on disk is read as
    /// the before, then left as the after); returns its tool call id.
    fn call(&mut self, changes: &[Change<'_>]) -> String {
        self.clock += 1;
        let timestamp = format!("2026-11-28T10:{:02}:00.000Z", self.clock);
        let root = self.repo.root();
        let facts = RepoFacts {
            git_root: Some(root.clone()),
            branch: "main".into(),
            head_sha: self.repo.head_sha(),
            remote_url: None,
        };
        let mut entries = Vec::new();
        for (seq, change) in changes.iter().enumerate() {
            let mut event = Event::write(change.file, &timestamp);
            event.agent = change.agent;
            let line = event.envelope(&root).to_string();
            let mut hook =
                hookd_core::daemon::server::parse_envelope(line.as_bytes()).expect("envelope");
            hook.event_id = format!("{}-{seq}", hook.event_id);
            let mut entry = ledger_entry(hook, &facts);
            let before = self.read(change.file);
            let path = root.join(change.file);
            match change.after {
                Some(text) => std::fs::write(&path, text).unwrap(),
                None => std::fs::remove_file(&path).unwrap(),
            }
            let mutation = entry.mutations.first_mut().expect("a Write is a mutation");
            mutation.before = Some(if change.before_unknown {
                ContentRef::Unknown {
                    why: "no PreToolUse was seen".into(),
                }
            } else {
                self.content(before.as_deref())
            });
            mutation.after = Some(self.content(change.after));
            entries.push(entry);
        }
        self.ledger.append(&entries).expect("append");
        format!("toolu-{timestamp}")
    }

    /// The row id of the mutation `call` made to `file`.
    fn row_id(&self, call: &str, file: &str) -> i64 {
        self.repo
            .ledger()
            .query_row(
                "SELECT id FROM mutations WHERE tool_use_id = ?1 AND file_path = ?2",
                [call, file],
                |r| r.get(0),
            )
            .expect("row id")
    }
}

fn file<'p>(preview: &'p RewindPreview, path: &str) -> &'p RewindFilePreview {
    preview
        .files
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("{path} not in {preview:#?}"))
}

/// The diff as `+line`, `-line` and ` line`.
fn lines(file: &RewindFilePreview) -> Vec<String> {
    file.diff
        .iter()
        .map(|l| format!("{}{}", l.op.sign(), l.text))
        .collect()
}

fn call(id: &str) -> RewindTarget {
    RewindTarget::Call { id: id.into() }
}

#[test]
fn a_calls_revert_is_previewed_with_the_cores_diff_applied_as_previewed_and_undone() {
    let env = TestEnv::new();
    let state = env.state();
    let mut rec = Recorded::new();
    std::fs::write(rec.repo.root().join("a.txt"), "one\n").unwrap();
    let first = rec.call(&[
        Change::write("a.txt", "one\ntwo\n"),
        Change::write("b.txt", "created\n"),
    ]);
    // A later call's change to the same file is kept by the revert.
    rec.call(&[Change::write("a.txt", "zero\none\ntwo\n")]);

    let preview = rewind_preview(&state, &rec.root(), &call(&first)).unwrap();
    assert_eq!(preview.root, rec.root());
    assert_eq!(preview.changes, 2);
    assert_eq!(preview.undo_of, None);
    assert_eq!(preview.files.len(), 2);
    let a = file(&preview, "a.txt");
    assert_eq!(a.kind, RewindFileKind::Modify);
    assert_eq!(lines(a), [" zero", " one", "-two"]);
    assert_eq!((a.counts.added, a.counts.removed), (0, 1));
    assert_eq!(a.changes, 1);
    assert_eq!(a.why, None);
    let b = file(&preview, "b.txt");
    assert_eq!(b.kind, RewindFileKind::Delete);
    assert!(b.diff.is_empty());
    assert_eq!(
        rec.read("a.txt").as_deref(),
        Some("zero\none\ntwo\n"),
        "a preview writes nothing"
    );
    assert_eq!(state.rewinds.len(), 1, "the plan is kept for the apply");

    let applied = rewind_apply(&state, &preview.preview, RewindConflicts::Refuse).unwrap();
    assert_eq!(applied.written, ["a.txt"]);
    assert_eq!(applied.deleted, ["b.txt"]);
    assert!(applied.skipped.is_empty() && applied.marked.is_empty());
    assert!(
        applied.rewind_id.starts_with("hookd-rewind-"),
        "{applied:?}"
    );
    assert_eq!(rec.read("a.txt").as_deref(), Some("zero\none\n"));
    assert_eq!(rec.read("b.txt"), None);

    // An applied preview is gone: it cannot be written twice.
    let again = rewind_apply(&state, &preview.preview, RewindConflicts::Refuse).unwrap_err();
    assert_eq!(again.kind, ErrorKind::NotFound, "{again:?}");
    assert!(state.rewinds.is_empty());

    // Undo (the newest revert by default) puts back what it replaced.
    let undo = rewind_undo(&state, &rec.root(), None).unwrap();
    assert_eq!(undo.undo_of.as_deref(), Some(applied.rewind_id.as_str()));
    assert_eq!(file(&undo, "a.txt").kind, RewindFileKind::Modify);
    assert_eq!(lines(file(&undo, "a.txt")), [" zero", " one", "+two"]);
    let b = file(&undo, "b.txt");
    assert_eq!(b.kind, RewindFileKind::Create);
    assert_eq!(lines(b), ["+created"]);
    rewind_apply(&state, &undo.preview, RewindConflicts::Refuse).unwrap();
    assert_eq!(rec.read("a.txt").as_deref(), Some("zero\none\ntwo\n"));
    assert_eq!(rec.read("b.txt").as_deref(), Some("created\n"));

    // The undo by its id gives the same plan as the newest.
    let by_id = rewind_undo(&state, &rec.root(), Some(&applied.rewind_id)).unwrap();
    assert_eq!(by_id.undo_of.as_deref(), Some(applied.rewind_id.as_str()));
}

#[test]
fn a_file_changed_since_the_preview_is_a_conflict_and_nothing_is_written() {
    let env = TestEnv::new();
    let state = env.state();
    let mut rec = Recorded::new();
    let id = rec.call(&[
        Change::write("a.txt", "a after\n"),
        Change::write("b.txt", "b after\n"),
    ]);
    let preview = rewind_preview(&state, &rec.root(), &call(&id)).unwrap();
    std::fs::write(rec.repo.root().join("b.txt"), "b by hand\n").unwrap();

    let err = rewind_apply(&state, &preview.preview, RewindConflicts::Refuse).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Conflict, "{err:?}");
    assert!(
        err.message.contains("b.txt changed since"),
        "{}",
        err.message
    );
    assert_eq!(
        rec.read("a.txt").as_deref(),
        Some("a after\n"),
        "checked before anything is written"
    );
    assert_eq!(rec.read("b.txt").as_deref(), Some("b by hand\n"));

    // Previewed again, the file the user changed is a conflict.
    let fresh = rewind_preview(&state, &rec.root(), &call(&id)).unwrap();
    assert_ne!(fresh.preview, preview.preview);
    let b = file(&fresh, "b.txt");
    assert_eq!(b.kind, RewindFileKind::Conflict);
    assert!(b.why.as_deref().is_some_and(|w| !w.is_empty()), "{b:?}");
}

#[test]
fn a_conflict_is_refused_skipped_or_written_with_markers_as_chosen() {
    let env = TestEnv::new();
    let state = env.state();
    let mut rec = Recorded::new();
    std::fs::write(rec.repo.root().join("a.txt"), "line\n").unwrap();
    let id = rec.call(&[
        Change::write("a.txt", "agent's line\n"),
        Change::write("c.txt", "c new\n"),
    ]);
    // The same line changed again afterwards: reverting the call overlaps it.
    rec.call(&[Change::write("a.txt", "user's line\n")]);

    let preview = rewind_preview(&state, &rec.root(), &call(&id)).unwrap();
    let a = file(&preview, "a.txt");
    assert_eq!(a.kind, RewindFileKind::Conflict);
    assert!(a.markers, "overlapping lines can be written with markers");
    assert!(a.why.is_some());
    assert!(
        lines(a).iter().any(|l| l.starts_with("+<<<<<<<")),
        "the diff shows the file with markers: {:?}",
        lines(a)
    );
    assert_eq!(file(&preview, "c.txt").kind, RewindFileKind::Delete);

    let err = rewind_apply(&state, &preview.preview, RewindConflicts::Refuse).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Conflict, "{err:?}");
    assert!(err.message.contains("a.txt"), "{}", err.message);
    assert_eq!(
        rec.read("c.txt").as_deref(),
        Some("c new\n"),
        "nothing written"
    );

    // A refused apply keeps the preview: the user can choose again.
    let applied = rewind_apply(&state, &preview.preview, RewindConflicts::Skip).unwrap();
    assert_eq!(applied.skipped, ["a.txt"]);
    assert_eq!(applied.deleted, ["c.txt"]);
    assert_eq!(rec.read("a.txt").as_deref(), Some("user's line\n"));

    // With markers, on a fresh preview of the same call.
    let mut rec2 = Recorded::new();
    std::fs::write(rec2.repo.root().join("a.txt"), "line\n").unwrap();
    let id2 = rec2.call(&[Change::write("a.txt", "agent's line\n")]);
    rec2.call(&[Change::write("a.txt", "user's line\n")]);
    let preview = rewind_preview(&state, &rec2.root(), &call(&id2)).unwrap();
    let applied = rewind_apply(&state, &preview.preview, RewindConflicts::Markers).unwrap();
    assert_eq!(applied.marked, ["a.txt"]);
    let text = rec2.read("a.txt").unwrap();
    assert!(
        text.contains("<<<<<<<") && text.contains("user's line") && text.contains(">>>>>>>"),
        "{text}"
    );
}

#[test]
fn a_change_whose_before_was_not_kept_is_not_restorable_and_blocks_the_apply() {
    let env = TestEnv::new();
    let state = env.state();
    let mut rec = Recorded::new();
    std::fs::write(rec.repo.root().join("a.txt"), "old\n").unwrap();
    let id = rec.call(&[
        Change {
            before_unknown: true,
            ..Change::write("a.txt", "new\n")
        },
        Change::write("b.txt", "b\n"),
    ]);

    let preview = rewind_preview(&state, &rec.root(), &call(&id)).unwrap();
    let a = file(&preview, "a.txt");
    assert_eq!(a.kind, RewindFileKind::NotRestorable);
    let why = a.why.as_deref().unwrap();
    assert!(why.contains("no PreToolUse was seen"), "{why}");
    assert!(a.diff.is_empty());
    let json = serde_json::to_value(&preview).unwrap();
    assert_eq!(json["files"][0]["kind"], "not_restorable", "{json}");

    let err = rewind_apply(&state, &preview.preview, RewindConflicts::Skip).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput, "{err:?}");
    assert!(
        err.message.contains("a.txt cannot be restored"),
        "{}",
        err.message
    );
    assert_eq!(rec.read("b.txt").as_deref(), Some("b\n"), "nothing written");
}

#[test]
fn a_file_is_restored_to_a_version_and_session_and_agent_reverts_take_all_their_changes() {
    let env = TestEnv::new();
    let state = env.state();
    let mut rec = Recorded::new();
    let v1 = rec.call(&[Change::write("a.txt", "v1\n")]);
    rec.call(&[Change::write("a.txt", "v2\n")]);
    rec.call(&[Change {
        agent: "agent-b",
        ..Change::write("a.txt", "v3\n")
    }]);
    rec.call(&[Change {
        agent: "agent-b",
        ..Change::write("b.txt", "by b\n")
    }]);

    // "Restore this version": the file as row v1 left it, as the UI sends it.
    let target: RewindTarget = serde_json::from_value(serde_json::json!({
        "kind": "file", "path": "a.txt", "after_id": rec.row_id(&v1, "a.txt"),
    }))
    .unwrap();
    let preview = rewind_preview(&state, &rec.root(), &target).unwrap();
    assert_eq!(preview.files.len(), 1);
    assert_eq!(preview.changes, 2);
    assert_eq!(lines(&preview.files[0]), ["-v3", "+v1"]);

    // agent-b's session (the session is the agent in these events).
    let session = rewind_preview(
        &state,
        &rec.root(),
        &RewindTarget::Session {
            id: "agent-b".into(),
        },
    )
    .unwrap();
    assert_eq!(session.changes, 2);
    assert_eq!(lines(file(&session, "a.txt")), ["-v3", "+v2"]);
    assert_eq!(file(&session, "b.txt").kind, RewindFileKind::Delete);

    let agent = rewind_preview(
        &state,
        &rec.root(),
        &RewindTarget::Agent {
            id: "agent-a".into(),
        },
    )
    .unwrap();
    assert_eq!(agent.changes, 2);
    assert_eq!(agent.files.len(), 1);
    let a = file(&agent, "a.txt");
    // Reverting v1 and v2 under v3 overlaps the same line.
    assert_eq!(a.kind, RewindFileKind::Conflict, "{a:?}");
}

#[test]
fn bad_requests_get_typed_errors() {
    let env = TestEnv::new();
    let state = env.state();
    let mut rec = Recorded::new();
    rec.call(&[Change::write("a.txt", "x\n")]);

    let err = rewind_preview(&state, "relative/dir", &call("x")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput, "{err:?}");

    let err = rewind_preview(&state, &rec.root(), &call("no-such-call")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound, "{err:?}");

    let since = RewindTarget::Since {
        time: "whenever".into(),
    };
    let err = rewind_preview(&state, &rec.root(), &since).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput, "{err:?}");

    let err = rewind_undo(&state, &rec.root(), None).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound, "{err:?}");
    assert!(err.message.contains("nothing to undo"), "{}", err.message);

    let err = rewind_apply(&state, "rewind-preview-999", RewindConflicts::Refuse).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound, "{err:?}");

    let bare = GitRepo::new();
    let err = rewind_preview(&state, &bare.root().display().to_string(), &call("x")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound, "{err:?}");
    assert!(err.message.contains("no ledger"), "{}", err.message);
}

#[test]
fn only_the_newest_previews_are_kept() {
    let env = TestEnv::new();
    let state = env.state();
    let mut rec = Recorded::new();
    let id = rec.call(&[Change::write("a.txt", "x\n")]);
    let first = rewind_preview(&state, &rec.root(), &call(&id)).unwrap();
    for _ in 0..hookd_desktop::rewind::KEPT_PREVIEWS {
        rewind_preview(&state, &rec.root(), &call(&id)).unwrap();
    }
    assert_eq!(state.rewinds.len(), hookd_desktop::rewind::KEPT_PREVIEWS);
    let err = rewind_apply(&state, &first.preview, RewindConflicts::Refuse).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound, "{err:?}");
    assert_eq!(rec.read("a.txt").as_deref(), Some("x\n"));
}

#[test]
fn the_commands_take_and_give_the_uis_json_through_ipc() {
    let env = TestEnv::new();
    let mut rec = Recorded::new();
    std::fs::write(rec.repo.root().join("a.txt"), "one\n").unwrap();
    let id = rec.call(&[Change::write("a.txt", "one\ntwo\n")]);
    let (_app, window) = ipc_window(env.state());

    let preview = invoke(
        &window,
        "rewind_preview",
        json!({"repo": rec.root(), "target": {"kind": "call", "id": id}}),
    )
    .unwrap();
    assert_eq!(preview["changes"], 1);
    assert_eq!(preview["undo_of"], Value::Null);
    let file = &preview["files"][0];
    assert_eq!(file["path"], "a.txt");
    assert_eq!(file["kind"], "modify");
    assert_eq!(file["counts"], json!({"added": 0, "removed": 1}));
    assert_eq!(
        file["diff"][1],
        json!({"op": "del", "text": "two", "old_no": 2, "new_no": null})
    );

    let applied = invoke(
        &window,
        "rewind_apply",
        json!({"preview": preview["preview"], "conflicts": "refuse"}),
    )
    .unwrap();
    assert_eq!(applied["written"], json!(["a.txt"]));
    assert_eq!(rec.read("a.txt").as_deref(), Some("one\n"));

    let undo = invoke(
        &window,
        "rewind_undo",
        json!({"repo": rec.root(), "rewind": null}),
    )
    .unwrap();
    assert_eq!(undo["undo_of"], applied["rewind_id"]);

    let err = invoke(
        &window,
        "rewind_apply",
        json!({"preview": preview["preview"], "conflicts": "refuse"}),
    )
    .unwrap_err();
    assert_eq!(err["kind"], "not_found", "{err}");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("preview the revert again"),
        "{err}"
    );
}
