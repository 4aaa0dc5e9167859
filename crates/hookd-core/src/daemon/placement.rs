//! Which ledger an event and the file change it reveals go to.
//!
//! An event belongs to the repository of its directory. The file it wrote
//! usually does too, but not always: `../other/x.rs`, or an absolute path
//! into another repository or no repository at all. Stored in the event's
//! ledger relative to its root, such a path read as a file inside it
//! (`../other/x.rs`), and a `--file` query of the repository that really
//! holds it missed it. So a change whose (lexically cleaned) path leaves the
//! event's repository is stored in the ledger of the repository that holds
//! it, or the ledger outside git, beside a copy of its event (same
//! `event_id`: every mutation has its event in its own ledger); the event
//! itself stays in its own repository's ledger. Both carry
//! [`Flag::PathOutsideRepo`]. A path absolute on another OS names no file
//! here: it stays with its event, as given, with [`Flag::PathForeign`].

use std::path::Path;

use crate::daemon::enrich::Enricher;
use crate::daemon::extract;
use crate::names::is_file_mutating_tool;
use crate::project::is_foreign_path;
use crate::record::{ContentRef, Flag, HookEvent, LedgerEntry, RepoFacts};

/// Where an event's rows go.
#[derive(Debug)]
pub struct Placement {
    /// The event, in the ledger of its own repository, with its direct
    /// mutation when the file lies in that repository.
    pub own: LedgerEntry,
    /// The event's copy and its direct mutation, for the ledger of the
    /// repository that holds a file outside the event's own repository.
    pub elsewhere: Option<LedgerEntry>,
}

impl Placement {
    /// Everything in one entry, for the broker: its consumers dedupe on the
    /// event id, so each event is published once, with its repository. A
    /// change placed elsewhere rides along flagged, by its absolute path
    /// (relative to the other repository's root it would read as a file of
    /// this one).
    pub fn combined(&self) -> LedgerEntry {
        let mut entry = self.own.clone();
        if self.elsewhere.is_some() {
            entry
                .mutations
                .extend(extract::direct_mutation(&entry.event, &entry.repo));
        }
        entry
    }

    /// Sets the lines added and removed of the direct mutation (a file
    /// tool's one change), wherever it was placed.
    pub fn set_counts(&mut self, counts: crate::diff::LineCounts) {
        let entries = std::iter::once(&mut self.own).chain(self.elsewhere.as_mut());
        for mutation in entries.flat_map(|entry| entry.mutations.iter_mut()) {
            if is_file_mutating_tool(&mutation.tool_name) {
                mutation.lines_added = Some(i64::from(counts.added));
                mutation.lines_removed = Some(i64::from(counts.removed));
            }
        }
    }

    /// Sets the before and after contents of the direct mutation (a file
    /// tool's one change), wherever it was placed.
    pub fn set_contents(&mut self, before: &ContentRef, after: &ContentRef) {
        let entries = std::iter::once(&mut self.own).chain(self.elsewhere.as_mut());
        for mutation in entries.flat_map(|entry| entry.mutations.iter_mut()) {
            if is_file_mutating_tool(&mutation.tool_name) {
                mutation.before = Some(before.clone());
                mutation.after = Some(after.clone());
            }
        }
    }
}

/// Flags the event's file path and places the event and its direct mutation
/// (a Write/Edit/…; Bash changes are found per repository and stay with
/// their event). `repo` is the event's own repository.
pub fn place(mut event: HookEvent, repo: RepoFacts, enricher: &mut Enricher) -> Placement {
    let path = event.file_path.clone();
    let path = path.as_deref();
    if path.is_some_and(is_foreign_path) {
        add_flag(&mut event, Flag::PathForeign);
    }
    // The repository holding a file outside the event's own, looked up from
    // the filesystem (cached per directory). The same repository under
    // another spelling (a symlinked directory that discovery resolved) is no
    // other repository: the change stays, stored by its absolute path.
    let holder = path
        .filter(|path| leaves_repository(path, repo.git_root.as_deref()))
        .and_then(Path::parent)
        .map(|dir| enricher.facts_for_dir(dir))
        .filter(|facts| facts.git_root != repo.git_root);
    let Some(holder) = holder else {
        let mutations = extract::direct_mutation(&event, &repo)
            .into_iter()
            .collect();
        return Placement {
            own: LedgerEntry {
                event,
                repo,
                mutations,
            },
            elsewhere: None,
        };
    };
    add_flag(&mut event, Flag::PathOutsideRepo);
    let elsewhere = extract::direct_mutation(&event, &holder).map(|mutation| LedgerEntry {
        event: event.clone(),
        repo: holder,
        mutations: vec![mutation],
    });
    Placement {
        own: LedgerEntry {
            event,
            repo,
            mutations: Vec::new(),
        },
        elsewhere,
    }
}

/// True when `path` (already cleaned) is an absolute path of this OS outside
/// the work tree at `root`. Outside any repository there is nothing to leave.
fn leaves_repository(path: &Path, root: Option<&Path>) -> bool {
    match root {
        Some(root) => path.is_absolute() && !is_foreign_path(path) && !path.starts_with(root),
        None => false,
    }
}

fn add_flag(event: &mut HookEvent, flag: Flag) {
    if !event.flags.contains(&flag) {
        event.flags.push(flag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn event(file_path: &str) -> HookEvent {
        HookEvent {
            event_id: "e1".into(),
            hook_type: "post_tool_use".into(),
            tool_name: Some("Write".into()),
            agent_id: "a".into(),
            session_id: None,
            tool_use_id: Some("t1".into()),
            cwd: Some(PathBuf::from("/nonexistent-hookd/repo")),
            file_path: Some(PathBuf::from(file_path)),
            lines_changed: Some(1),
            lines_added: None,
            lines_removed: None,
            command: None,
            payload_valid: true,
            raw_payload: "{}".into(),
            event_timestamp: "2026-11-21T10:00:00.000Z".into(),
            received_at: "2026-11-21T10:00:00.000Z".into(),
            source_pid: None,
            flags: Vec::new(),
            agent_kind: crate::record::claude(),
        }
    }

    fn repo() -> RepoFacts {
        RepoFacts {
            git_root: Some(PathBuf::from("/nonexistent-hookd/repo")),
            branch: "main".into(),
            head_sha: "abc".into(),
            remote_url: None,
        }
    }

    #[test]
    fn a_file_inside_stays_with_its_event_unflagged() {
        let placed = place(
            event("/nonexistent-hookd/repo/src/a.rs"),
            repo(),
            &mut Enricher::new(),
        );
        assert!(placed.elsewhere.is_none());
        assert_eq!(placed.own.event.flags, []);
        assert_eq!(
            placed.own.mutations[0].file_path.as_deref(),
            Some("src/a.rs")
        );
    }

    #[test]
    fn a_file_outside_goes_with_a_flagged_copy_of_its_event() {
        // No repository holds /nonexistent-hookd/other: the ledger outside git.
        let placed = place(
            event("/nonexistent-hookd/other/x.rs"),
            repo(),
            &mut Enricher::new(),
        );
        assert_eq!(placed.own.event.flags, [Flag::PathOutsideRepo]);
        assert!(placed.own.mutations.is_empty());
        let elsewhere = placed.elsewhere.as_ref().expect("placed elsewhere");
        assert_eq!(elsewhere.event, placed.own.event);
        if elsewhere.repo.git_root.is_none() {
            assert_eq!(
                elsewhere.mutations[0].file_path.as_deref(),
                Some("/nonexistent-hookd/other/x.rs")
            );
        }
        assert_eq!(elsewhere.mutations[0].flags, [Flag::PathOutsideRepo]);
        let combined = placed.combined();
        assert_eq!(combined.repo, repo());
        assert_eq!(combined.mutations.len(), 1);
        assert_eq!(
            combined.mutations[0].file_path.as_deref(),
            Some("/nonexistent-hookd/other/x.rs")
        );
        assert_eq!(combined.mutations[0].flags, [Flag::PathOutsideRepo]);
    }

    #[test]
    fn a_foreign_path_stays_with_its_event_as_given() {
        let placed = place(event(r"C:\Users\me\a.rs"), repo(), &mut Enricher::new());
        assert!(placed.elsewhere.is_none());
        assert_eq!(placed.own.event.flags, [Flag::PathForeign]);
        let mutation = &placed.own.mutations[0];
        assert_eq!(mutation.file_path.as_deref(), Some(r"C:\Users\me\a.rs"));
        assert_eq!(mutation.flags, [Flag::PathForeign]);
    }

    #[test]
    fn a_symlinked_spelling_of_the_same_repository_is_not_elsewhere() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().canonicalize().unwrap().join("real");
        std::fs::create_dir(&real).unwrap();
        git2::Repository::init(&real).unwrap();
        let link = real.parent().unwrap().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let mut enricher = Enricher::new();
        let repo = enricher.facts_for_dir(&real);
        assert_eq!(repo.git_root.as_deref(), Some(real.as_path()));

        let mut e = event(link.join("a.rs").to_str().unwrap());
        e.cwd = Some(real.clone());
        let placed = place(e, repo, &mut enricher);
        assert!(placed.elsewhere.is_none(), "{:?}", placed.elsewhere);
        assert_eq!(placed.own.event.flags, []);
        assert_eq!(placed.own.mutations.len(), 1);
    }
}
