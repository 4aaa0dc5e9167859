//! The apply's safety rules, on a real ledger, content store and files.

use std::path::Path;

use super::*;
use crate::daemon::capture;
use crate::ledger::Ledger;
use crate::ledger::content_store::ContentStore;
use crate::record::{ContentRef, HookEvent, LedgerEntry, MutationRecord, RepoFacts};

struct Repo {
    dir: tempfile::TempDir,
    ledger: Ledger,
    store: ContentStore,
}

impl Repo {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join(".hookd");
        let ledger = Ledger::open_or_create(&state.join("mutations.db")).unwrap();
        let store = ContentStore::open(&state).unwrap();
        Self { dir, ledger, store }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn content(&self, bytes: Option<&str>) -> ContentRef {
        bytes.map_or(ContentRef::Absent, |b| {
            capture::keep(&self.store, b.as_bytes())
        })
    }

    /// Records a `UserPromptSubmit` of session `s` with the event id `id`.
    fn prompt(&mut self, id: &str) {
        let mut event = event(id, None);
        event.hook_type = "user_prompt_submit".into();
        event.tool_name = None;
        event.tool_use_id = None;
        self.ledger
            .append(&[LedgerEntry {
                event,
                repo: facts(),
                mutations: Vec::new(),
            }])
            .unwrap();
    }

    /// Records that call `call` took `file` from `before` to `after`, and
    /// leaves the file as `after`.
    fn change(&mut self, call: &str, file: &str, before: Option<&str>, after: &str) {
        std::fs::write(self.root().join(file), after).unwrap();
        let event = event(&format!("event-{call}-{file}"), Some(call));
        let repo = facts();
        let mut mutation =
            MutationRecord::for_event(&event, &repo, "Write", 0, Some(file.into()), None);
        mutation.before = Some(self.content(before));
        mutation.after = Some(self.content(Some(after)));
        self.ledger
            .append(&[LedgerEntry {
                event,
                repo,
                mutations: vec![mutation],
            }])
            .unwrap();
    }

    /// Records that call `call` left `file` as `after`, its before not seen.
    fn change_unseen(&mut self, call: &str, file: &str, after: &str) {
        std::fs::write(self.root().join(file), after).unwrap();
        let event = event(&format!("event-{call}-{file}"), Some(call));
        let repo = facts();
        let mut mutation =
            MutationRecord::for_event(&event, &repo, "Write", 0, Some(file.into()), None);
        mutation.before = Some(ContentRef::unknown(capture::NO_BEFORE));
        mutation.after = Some(self.content(Some(after)));
        self.ledger
            .append(&[LedgerEntry {
                event,
                repo,
                mutations: vec![mutation],
            }])
            .unwrap();
    }

    fn plan(&self, call: &str) -> Plan {
        plan(
            self.ledger.connection(),
            &self.store,
            self.root(),
            &Target::Call(call.into()),
        )
        .unwrap()
    }

    fn apply(&mut self, plan: &Plan) -> Result<Applied, RewindError> {
        apply(
            plan,
            &mut self.ledger,
            &self.store,
            &facts(),
            OnConflict::Refuse,
        )
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.root().join(file)).unwrap()
    }
}

/// A Write's event of session `s`.
fn event(id: &str, call: Option<&str>) -> HookEvent {
    let mut event = HookEvent::post_tool_use(
        id.into(),
        "Write",
        "agent",
        "{}".into(),
        "2026-11-28T00:00:00.000Z".into(),
    );
    event.session_id = Some("s".into());
    event.tool_use_id = call.map(str::to_owned);
    event
}

fn facts() -> RepoFacts {
    RepoFacts {
        git_root: None,
        branch: "main".into(),
        head_sha: "abc".into(),
        remote_url: None,
    }
}

#[test]
fn a_file_changed_between_plan_and_apply_is_refused_and_nothing_is_written() {
    let mut repo = Repo::new();
    repo.change("t1", "a.txt", Some("a before\n"), "a after\n");
    repo.change("t1", "b.txt", Some("b before\n"), "b after\n");
    let plan = repo.plan("t1");
    assert_eq!(plan.files.len(), 2);
    std::fs::write(repo.root().join("b.txt"), "b by hand\n").unwrap();

    let err = repo.apply(&plan).unwrap_err();
    assert!(
        matches!(&err, RewindError::ChangedSincePlan { path } if path == "b.txt"),
        "{err}"
    );
    assert_eq!(
        repo.read("a.txt"),
        "a after\n",
        "checked before anything is written"
    );
    assert_eq!(repo.read("b.txt"), "b by hand\n");

    // Planned again, it goes through and keeps nothing of the old plan.
    let plan = repo.plan("t1");
    let err = repo.apply(&plan).unwrap_err();
    assert!(matches!(err, RewindError::Conflict { .. }), "{err}");
}

#[test]
fn a_link_below_the_root_is_never_written_through() {
    let mut repo = Repo::new();
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), repo.root().join("linked")).unwrap();
    repo.change("t1", "linked/x.txt", Some("old\n"), "new\n");
    let plan = repo.plan("t1");
    assert_eq!(plan.files[0].outcome, Outcome::Write(b"old\n".to_vec()));

    let err = repo.apply(&plan).unwrap_err();
    assert!(matches!(err, RewindError::Confined(_)), "{err}");
    assert_eq!(
        std::fs::read_to_string(outside.path().join("x.txt")).unwrap(),
        "new\n"
    );
}

#[test]
fn an_applied_rewind_is_recorded_and_its_undo_gives_back_what_it_replaced() {
    let mut repo = Repo::new();
    repo.change("t1", "a.txt", None, "created\n");
    repo.change("t2", "b.txt", Some("one\n"), "two\n");
    let applied = repo.apply(&repo.plan("t1")).unwrap();
    assert_eq!(applied.deleted, ["a.txt"]);
    assert!(!repo.root().join("a.txt").exists());
    assert_eq!(repo.read("b.txt"), "two\n", "another call is left alone");

    let undo = repo.plan(&applied.rewind_id);
    assert_eq!(undo.files[0].outcome, Outcome::Write(b"created\n".to_vec()));
    repo.apply(&undo).unwrap();
    assert_eq!(repo.read("a.txt"), "created\n");
}

#[test]
fn a_row_names_the_prompt_it_belongs_to() {
    let mut repo = Repo::new();
    repo.change("t0", "before-any-prompt.txt", None, "x\n");
    repo.prompt("p1");
    repo.change("t1", "a.txt", None, "one\n");
    repo.prompt("p2");
    repo.change("t2", "b.txt", None, "two\n");
    repo.change("t3", "c.txt", None, "three\n");
    let files = |event_id: &str| -> Vec<String> {
        plan(
            repo.ledger.connection(),
            &repo.store,
            repo.root(),
            &Target::PromptOf(event_id.into()),
        )
        .map(|plan| plan.files.into_iter().map(|f| f.path).collect())
        .unwrap_or_default()
    };
    assert_eq!(files("event-t3-c.txt"), ["b.txt", "c.txt"]);
    assert_eq!(files("event-t1-a.txt"), ["a.txt"]);
    assert_eq!(
        files("p2"),
        ["b.txt", "c.txt"],
        "a prompt belongs to itself"
    );
    assert!(files("event-t0-before-any-prompt.txt").is_empty());
}

#[test]
fn a_before_not_seen_is_the_same_files_last_recorded_after() {
    let mut repo = Repo::new();
    repo.change("c1", "a.rs", None, "one\n");
    repo.change("c2", "a.rs", Some("one\n"), "two\n");
    // Another file's change in between is not the file's history.
    repo.change("c3", "b.rs", None, "other\n");
    repo.change_unseen("c4", "a.rs", "three\n");

    let plan = repo.plan("c4");
    let file = &plan.files[0];
    assert_eq!(file.outcome, Outcome::Write(b"two\n".to_vec()), "{file:?}");
    assert_eq!(file.derived.len(), 1, "{:?}", file.derived);
    assert!(
        file.derived[0].contains("the before is row 2's recorded after"),
        "{:?}",
        file.derived
    );
    repo.apply(&plan).unwrap();
    assert_eq!(repo.read("a.rs"), "two\n");

    // The file's first change, its before not seen either: nothing to derive from.
    let mut fresh = Repo::new();
    fresh.change_unseen("d1", "a.rs", "first\n");
    let plan = fresh.plan("d1");
    assert!(
        matches!(&plan.files[0].outcome, Outcome::NotRestorable { why } if why.contains("no PreToolUse")),
        "{:?}",
        plan.files[0].outcome
    );
}
