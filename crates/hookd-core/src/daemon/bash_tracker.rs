//! Files changed by Bash commands, which never reach Write/Edit hooks.
//!
//! At a Bash `pre_tool_use` the tracker records the content id of every path
//! git reports as changed or untracked; at the matching `post_tool_use` (or
//! `post_tool_use_failure`: a failing command can still write) it does so
//! again, paired by `tool_use_id`. A path whose content differs between the
//! two moments was changed by the command. A path clean at one moment has the
//! content of that moment's HEAD, so a command that commits its own change
//! is not mistaken for one that changed files it only committed.
//!
//! For a rewind, the contents go into the repository's content store
//! ([`crate::ledger::content_store`]) too: at the pre snapshot, every
//! changed or untracked file's (a clean file's is in HEAD's tree, read from
//! git when it turns out to have changed); at the post, each changed
//! file's ([`contents`]).
//!
//! The pre snapshot is taken as soon as the daemon reads the pre event, and
//! `hookd-emit` waits (bounded) for that before it returns, so the agent does
//! not start the command first. It is held in memory and remembered in the
//! content store as well ([`Snapshot::to_text`]), so a daemon that stops
//! before the post event leaves it to the next one. Files ignored by git and files outside the
//! repository are not seen.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use git2::{ObjectType, Oid, Repository, Status, StatusOptions};

use crate::daemon::capture;
use crate::ledger::content_store::ContentStore;
use crate::record::ContentRef;

/// How long a pre snapshot waits for its post event before it is dropped.
const PENDING_TTL: Duration = Duration::from_secs(6 * 60 * 60);

/// Content of the work tree's changed paths at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    head_tree: Option<Oid>,
    /// Path (relative to the root) → blob id of the work-tree file, `None` if deleted.
    dirty: BTreeMap<String, Option<Oid>>,
    /// What the content store keeps of each dirty path, when the snapshot
    /// was taken with one ([`snapshot_keeping`]).
    kept: BTreeMap<String, ContentRef>,
    /// Why the snapshot may already hold the command's changes (it was
    /// finished after `hookd-emit` stopped waiting): then no path's before
    /// is taken from it ([`Snapshot::distrust`]).
    distrusted: Option<String>,
}

/// [`Snapshot`] as text, to be remembered in the content store.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredSnapshot {
    head_tree: Option<String>,
    dirty: BTreeMap<String, Option<String>>,
    kept: BTreeMap<String, ContentRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    distrusted: Option<String>,
}

impl Snapshot {
    /// Marks the snapshot as possibly taken after the command started:
    /// every path it reports changed gets an unknown before, saying `why`.
    pub fn distrust(&mut self, why: &str) {
        self.distrusted = Some(why.to_owned());
    }

    /// The snapshot as compact JSON, for [`ContentStore::remember_before`].
    pub fn to_text(&self) -> String {
        let stored = StoredSnapshot {
            head_tree: self.head_tree.map(|id| id.to_string()),
            dirty: self
                .dirty
                .iter()
                .map(|(path, id)| (path.clone(), id.map(|id| id.to_string())))
                .collect(),
            kept: self.kept.clone(),
            distrusted: self.distrusted.clone(),
        };
        serde_json::to_string(&stored).unwrap_or_default()
    }

    /// A snapshot read back from [`Snapshot::to_text`]'s text; `None` when
    /// it does not parse (never a snapshot of something else).
    pub fn from_text(text: &str) -> Option<Self> {
        let stored: StoredSnapshot = serde_json::from_str(text).ok()?;
        let oid = |hex: &str| Oid::from_str(hex).ok();
        Some(Self {
            head_tree: match stored.head_tree {
                Some(hex) => Some(oid(&hex)?),
                None => None,
            },
            dirty: stored
                .dirty
                .into_iter()
                .map(|(path, id)| match id {
                    Some(hex) => oid(&hex).map(|id| (path, Some(id))),
                    None => Some((path, None)),
                })
                .collect::<Option<_>>()?,
            kept: stored.kept,
            distrusted: stored.distrusted,
        })
    }
}

/// Pairs Bash pre/post events: holds the pre snapshots until their post event.
///
/// The daemon shares one tracker between the connection tasks (which take the
/// pre snapshot the moment the event arrives, before the command can run) and
/// the ingest thread (which compares at the post event). Snapshots are taken
/// outside the tracker so its lock is only held for a map operation.
#[derive(Default)]
pub struct BashTracker {
    pending: HashMap<String, Pending>,
    /// The states after calls whose post event arrived, until the ingest
    /// thread compares them with their befores.
    afters: HashMap<String, Pending>,
}

struct Pending {
    root: PathBuf,
    snapshot: Snapshot,
    taken: Instant,
}

impl BashTracker {
    /// A tracker with nothing pending.
    pub fn new() -> Self {
        Self::default()
    }

    /// Keeps the state of `root` before the Bash call `tool_use_id` runs.
    pub fn before(&mut self, tool_use_id: &str, root: &Path, snapshot: Snapshot) {
        keep(&mut self.pending, tool_use_id, root, snapshot);
    }

    /// Removes and returns the pre snapshot of `tool_use_id` in `root`, if one was taken.
    pub fn take(&mut self, tool_use_id: &str, root: &Path) -> Option<Snapshot> {
        take(&mut self.pending, tool_use_id, root)
    }

    /// Keeps the state of `root` as the call `tool_use_id` left it: taken
    /// when its post event arrives, while `hookd-emit` holds the agent's
    /// next call back, so a change made after is not put down to it.
    pub fn after(&mut self, tool_use_id: &str, root: &Path, snapshot: Snapshot) {
        keep(&mut self.afters, tool_use_id, root, snapshot);
    }

    /// Removes and returns the after snapshot of `tool_use_id` in `root`.
    pub fn take_after(&mut self, tool_use_id: &str, root: &Path) -> Option<Snapshot> {
        take(&mut self.afters, tool_use_id, root)
    }

    /// Number of Bash calls waiting for their post event.
    pub fn pending_len(&self) -> usize {
        self.pending.len()
    }
}

/// Keeps `snapshot` of `root` for the call `tool_use_id`, forgetting the
/// ones older than [`PENDING_TTL`] (their call's other event never came).
fn keep(map: &mut HashMap<String, Pending>, tool_use_id: &str, root: &Path, snapshot: Snapshot) {
    map.retain(|_, p| p.taken.elapsed() < PENDING_TTL);
    map.insert(
        tool_use_id.to_owned(),
        Pending {
            root: root.to_path_buf(),
            snapshot,
            taken: Instant::now(),
        },
    );
}

/// Removes and returns the snapshot kept for `tool_use_id` in `root`.
fn take(map: &mut HashMap<String, Pending>, tool_use_id: &str, root: &Path) -> Option<Snapshot> {
    let pending = map.remove(tool_use_id)?;
    (pending.root == root).then_some(pending.snapshot)
}

/// The paths (relative to `root`, sorted) whose content changed since `before`.
pub fn changes_since(
    repo: &Repository,
    root: &Path,
    before: &Snapshot,
) -> Result<Vec<String>, git2::Error> {
    let after = snapshot(repo, root)?;
    Ok(changed_paths(repo, before, &after))
}

/// What `path` (one of [`changes_since`]'s or [`changed_paths`]'s) held
/// before and after the command, kept in `store`: before, what the pre
/// snapshot kept (a path clean then, from HEAD's tree of that moment);
/// after, what the `after` snapshot kept the same way, or without one the
/// file as it is now.
pub fn contents(
    repo: &Repository,
    root: &Path,
    before: &Snapshot,
    after: Option<&Snapshot>,
    path: &str,
    store: &ContentStore,
) -> (ContentRef, ContentRef) {
    let after = match after {
        Some(after) => content_in(repo, after, path, store, "ended"),
        None => capture::read_into(store, &root.join(path)),
    };
    (content_in(repo, before, path, store, "started"), after)
}

/// What `snapshot` (taken when the command `moment`: "started", "ended")
/// says `path` held: unknown if the snapshot is distrusted, else what it
/// kept, absent, or (clean then) its HEAD's.
fn content_in(
    repo: &Repository,
    snapshot: &Snapshot,
    path: &str,
    store: &ContentStore,
    moment: &str,
) -> ContentRef {
    if let Some(why) = &snapshot.distrusted {
        return ContentRef::unknown(why.clone());
    }
    if let Some(kept) = snapshot.kept.get(path) {
        return kept.clone();
    }
    match snapshot.dirty.get(path) {
        Some(None) => ContentRef::Absent,
        Some(Some(_)) => ContentRef::unknown(format!(
            "the file's content was not kept when the command {moment}"
        )),
        None => committed(repo, snapshot, path, store),
    }
}

/// What HEAD's tree of `snapshot` holds at `path`, kept in `store`.
fn committed(
    repo: &Repository,
    snapshot: &Snapshot,
    path: &str,
    store: &ContentStore,
) -> ContentRef {
    let Some(tree) = snapshot.head_tree.and_then(|id| repo.find_tree(id).ok()) else {
        // No commit yet: a path that is not dirty does not exist.
        return ContentRef::Absent;
    };
    let Ok(entry) = tree.get_path(Path::new(path)) else {
        return ContentRef::Absent;
    };
    // Git keeps a file's executable bit, not its other permission bits:
    // a file restored from the commit gets what a checkout would give it.
    let mode = if entry.filemode() == i32::from(git2::FileMode::BlobExecutable) {
        0o755
    } else {
        0o644
    };
    match repo.find_blob(entry.id()) {
        Ok(blob) => capture::keep(store, blob.content()).with_mode(mode),
        Err(err) => ContentRef::unknown(format!("cannot read the committed file from git: {err}")),
    }
}

/// Takes a snapshot of every changed or untracked (not ignored) path.
pub fn snapshot(repo: &Repository, root: &Path) -> Result<Snapshot, git2::Error> {
    snapshot_keeping(repo, root, None)
}

/// [`snapshot`], keeping each changed or untracked file's content in
/// `store` as well: a clean file's is in git, theirs exist nowhere else.
pub fn snapshot_keeping(
    repo: &Repository,
    root: &Path,
    store: Option<&ContentStore>,
) -> Result<Snapshot, git2::Error> {
    let mut options = StatusOptions::new();
    options
        .include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false)
        .exclude_submodules(true);
    let statuses = repo.statuses(Some(&mut options))?;
    let mut dirty = BTreeMap::new();
    let mut kept = BTreeMap::new();
    for entry in statuses.iter() {
        if entry.status() == Status::CURRENT || entry.status().contains(Status::IGNORED) {
            continue;
        }
        let Ok(path) = entry.path() else { continue };
        if is_hookd_ledger_file(path) {
            // hookd's own writes are not the command's, even where git sees them.
            continue;
        }
        let full = root.join(path);
        let read = store.map(|store| capture::read_file(&full, store.limit()));
        let content = match (read, store) {
            (Some(Ok(read)), Some(store)) => {
                kept.insert(
                    path.to_owned(),
                    capture::keep(store, &read.bytes).with_mode(read.mode),
                );
                Oid::hash_object(ObjectType::Blob, &read.bytes).ok()
            }
            (read, _) => {
                if let Some(Err(recorded)) = read {
                    kept.insert(path.to_owned(), recorded);
                }
                if full.is_file() {
                    Oid::hash_file(ObjectType::Blob, &full).ok()
                } else {
                    None
                }
            }
        };
        dirty.insert(path.to_owned(), content);
    }
    let head_tree = repo
        .head()
        .ok()
        .and_then(|h| h.peel_to_tree().ok())
        .map(|t| t.id());
    Ok(Snapshot {
        head_tree,
        dirty,
        kept,
        distrusted: None,
    })
}

/// True for files hookd itself writes inside `.hookd/`: the content store's
/// objects, the ledger's database files, the `.gitignore` created with them (a command that
/// edits that `.gitignore` is not reported; settings files are), and the
/// short-lived temp file an atomic write of that `.gitignore` goes through
/// (`..gitignore.XXXXXX.tmp`, seen when a snapshot races the ledger's first
/// write).
fn is_hookd_ledger_file(path: &str) -> bool {
    let path = Path::new(path);
    // The content store, at any depth (objects and their temporary files).
    let state = Path::new(crate::dirs::REPO_STATE_DIR);
    if path.starts_with(state.join(crate::ledger::content_store::CONTENT_DIR)) {
        return true;
    }
    path.parent()
        .and_then(Path::file_name)
        .is_some_and(|d| d == crate::dirs::REPO_STATE_DIR)
        && path.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
            n.starts_with(crate::dirs::LEDGER_FILE_NAME)
                || n == ".gitignore"
                || (n.starts_with("..gitignore.") && n.ends_with(".tmp"))
        })
}

/// Paths whose content differs between two snapshots.
pub fn changed_paths(repo: &Repository, before: &Snapshot, after: &Snapshot) -> Vec<String> {
    let paths: BTreeSet<&String> = before.dirty.keys().chain(after.dirty.keys()).collect();
    paths
        .into_iter()
        .filter(|path| content_at(repo, before, path) != content_at(repo, after, path))
        .cloned()
        .collect()
}

fn content_at(repo: &Repository, snapshot: &Snapshot, path: &str) -> Option<Oid> {
    if let Some(content) = snapshot.dirty.get(path) {
        return *content;
    }
    // A clean path holds exactly what HEAD's tree holds at that moment.
    let tree = repo.find_tree(snapshot.head_tree?).ok()?;
    let entry = tree.get_path(Path::new(path)).ok()?;
    Some(entry.id())
}

#[cfg(test)]
mod tests {
    use super::*;
    use git2::Signature;
    use std::fs;

    fn commit_all(repo: &Repository) {
        let mut index = repo.index().unwrap();
        index
            .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
            .unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = Signature::now("t", "t@example.com").unwrap();
        let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
        let parents: Vec<_> = parent.iter().collect();
        repo.commit(Some("HEAD"), &sig, &sig, "c", &tree, &parents)
            .unwrap();
    }

    fn setup() -> (tempfile::TempDir, Repository) {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path()).unwrap();
        fs::write(dir.path().join("tracked.txt"), "v1\n").unwrap();
        fs::write(dir.path().join("already-dirty.txt"), "base\n").unwrap();
        commit_all(&repo);
        fs::write(dir.path().join("already-dirty.txt"), "dirty before\n").unwrap();
        (dir, repo)
    }

    #[test]
    fn a_snapshot_reads_back_from_its_text_and_bad_text_is_none() {
        let (dir, repo) = setup();
        let root = dir.path();
        fs::remove_file(root.join("tracked.txt")).unwrap();
        fs::write(root.join("untracked.txt"), "u\n").unwrap();
        let state = root.join(".hookd");
        fs::create_dir(&state).unwrap();
        let store = ContentStore::open(&state).unwrap();
        let taken = snapshot_keeping(&repo, root, Some(&store)).unwrap();
        assert!(taken.head_tree.is_some());
        assert_eq!(taken.dirty.len(), 3, "{taken:?}");
        assert!(
            taken.dirty.values().any(Option::is_none),
            "the deleted file"
        );
        assert_eq!(taken.kept.len(), 3);
        assert_eq!(Snapshot::from_text(&taken.to_text()), Some(taken.clone()));
        assert_eq!(Snapshot::from_text("{}"), None);
        let bad = taken
            .to_text()
            .replace(&taken.head_tree.unwrap().to_string(), "not-an-id");
        assert_eq!(Snapshot::from_text(&bad), None);
    }

    #[test]
    fn reports_new_modified_and_deleted_files_only() {
        let (dir, repo) = setup();
        let root = dir.path();
        let mut tracker = BashTracker::new();
        tracker.before("t1", root, snapshot(&repo, root).unwrap());
        fs::write(root.join("tracked.txt"), "v2\n").unwrap();
        fs::create_dir_all(root.join("out")).unwrap();
        fs::write(root.join("out/new.txt"), "new\n").unwrap();
        let before = tracker.take("t1", root).unwrap();
        let changed = changes_since(&repo, root, &before).unwrap();
        assert_eq!(
            changed,
            vec!["out/new.txt".to_owned(), "tracked.txt".to_owned()]
        );
        assert_eq!(tracker.pending_len(), 0);

        let before = snapshot(&repo, root).unwrap();
        fs::remove_file(root.join("tracked.txt")).unwrap();
        fs::write(root.join("already-dirty.txt"), "dirty again\n").unwrap();
        let changed = changes_since(&repo, root, &before).unwrap();
        assert_eq!(
            changed,
            vec!["already-dirty.txt".to_owned(), "tracked.txt".to_owned()]
        );
    }

    /// The text `store` keeps for `content`, which must be kept.
    fn kept_text(store: &ContentStore, content: &ContentRef) -> String {
        let ContentRef::Kept { hash, .. } = content else {
            panic!("not kept: {content:?}");
        };
        let hash = crate::ledger::content_store::ContentHash::parse(hash).unwrap();
        String::from_utf8(store.get(&hash).unwrap()).unwrap()
    }

    #[test]
    fn a_change_keeps_its_before_from_the_snapshot_or_git_and_its_after_from_disk() {
        let (dir, repo) = setup();
        let root = dir.path();
        let state = tempfile::tempdir().unwrap();
        let store = ContentStore::open(state.path()).unwrap();
        let get = |content: &ContentRef| kept_text(&store, content);
        let before = snapshot_keeping(&repo, root, Some(&store)).unwrap();
        // The command: a committed file changed, a dirty one changed again,
        // one created; and the committed file then deleted by a second command.
        fs::write(root.join("tracked.txt"), "v2\n").unwrap();
        fs::write(root.join("already-dirty.txt"), "dirty again\n").unwrap();
        fs::write(root.join("made.txt"), "made\n").unwrap();
        let paths = changes_since(&repo, root, &before).unwrap();
        assert_eq!(paths, ["already-dirty.txt", "made.txt", "tracked.txt"]);
        let (b, a) = contents(&repo, root, &before, None, "tracked.txt", &store);
        assert_eq!((get(&b), get(&a)), ("v1\n".into(), "v2\n".into()));
        let (b, a) = contents(&repo, root, &before, None, "already-dirty.txt", &store);
        assert_eq!(
            (get(&b), get(&a)),
            ("dirty before\n".into(), "dirty again\n".into())
        );
        let (b, a) = contents(&repo, root, &before, None, "made.txt", &store);
        assert_eq!((b, get(&a)), (ContentRef::Absent, "made\n".into()));

        let before = snapshot_keeping(&repo, root, Some(&store)).unwrap();
        fs::remove_file(root.join("tracked.txt")).unwrap();
        let (b, a) = contents(&repo, root, &before, None, "tracked.txt", &store);
        assert_eq!((get(&b), a), ("v2\n".into(), ContentRef::Absent));
    }

    #[test]
    fn the_state_after_the_command_is_its_change_not_what_came_later() {
        let (dir, repo) = setup();
        let root = dir.path();
        let state = tempfile::tempdir().unwrap();
        let store = ContentStore::open(state.path()).unwrap();
        let get = |content: &ContentRef| kept_text(&store, content);
        let before = snapshot_keeping(&repo, root, Some(&store)).unwrap();
        fs::write(root.join("made.txt"), "by the command\n").unwrap();
        let after = snapshot_keeping(&repo, root, Some(&store)).unwrap();
        // The agent's next call, before the daemon compares.
        fs::write(root.join("made.txt"), "by the next call\n").unwrap();
        fs::write(root.join("later.txt"), "later\n").unwrap();
        assert_eq!(changed_paths(&repo, &before, &after), ["made.txt"]);
        let (b, a) = contents(&repo, root, &before, Some(&after), "made.txt", &store);
        assert_eq!(
            (b, get(&a)),
            (ContentRef::Absent, "by the command\n".into())
        );
        // Without the after state, today's files (what a replayed line gets).
        let (_, now) = contents(&repo, root, &before, None, "made.txt", &store);
        assert_eq!(get(&now), "by the next call\n");
    }

    #[test]
    fn the_content_store_is_never_a_change() {
        let (dir, repo) = setup();
        let root = dir.path();
        let before = snapshot(&repo, root).unwrap();
        fs::create_dir_all(root.join(".hookd/content/ab")).unwrap();
        fs::write(root.join(".hookd/content/ab/cdef.zst"), "object").unwrap();
        fs::write(root.join(".hookd/content/ab/.tmp-1"), "temp").unwrap();
        assert_eq!(
            changes_since(&repo, root, &before).unwrap(),
            Vec::<String>::new()
        );
    }

    #[test]
    fn untouched_dirty_files_and_commits_are_not_changes() {
        let (dir, repo) = setup();
        let root = dir.path();
        let before = snapshot(&repo, root).unwrap();
        // The command commits the already-dirty file without changing its content.
        commit_all(&repo);
        assert_eq!(
            changes_since(&repo, root, &before).unwrap(),
            Vec::<String>::new()
        );
    }

    #[test]
    fn the_ledger_itself_is_never_a_change_even_when_not_ignored() {
        let (dir, repo) = setup();
        let root = dir.path();
        fs::create_dir_all(root.join(".hookd")).unwrap();
        let before = snapshot(&repo, root).unwrap();
        fs::write(root.join(".hookd/mutations.db"), "sqlite").unwrap();
        fs::write(root.join(".hookd/mutations.db-wal"), "wal").unwrap();
        fs::write(
            root.join(".hookd/.gitignore"),
            "*\n!.gitignore\n!settings.json\n",
        )
        .unwrap();
        fs::write(root.join(".hookd/settings.json"), "{}").unwrap();
        assert_eq!(
            changes_since(&repo, root, &before).unwrap(),
            vec![".hookd/settings.json".to_owned()]
        );
    }

    #[test]
    fn the_temp_file_of_the_first_gitignore_write_is_not_a_change() {
        // Before `.hookd/.gitignore` exists nothing ignores its temp file.
        let (dir, repo) = setup();
        let root = dir.path();
        fs::create_dir_all(root.join(".hookd")).unwrap();
        let before = snapshot(&repo, root).unwrap();
        fs::write(root.join(".hookd/..gitignore.AbC123.tmp"), "*\n").unwrap();
        fs::write(root.join("made.txt"), "x\n").unwrap();
        assert_eq!(
            changes_since(&repo, root, &before).unwrap(),
            vec!["made.txt".to_owned()]
        );
    }

    #[test]
    fn snapshots_are_taken_once_and_only_for_their_root() {
        let (dir, repo) = setup();
        let mut tracker = BashTracker::new();
        assert_eq!(tracker.take("never-seen", dir.path()), None);
        tracker.before("t", dir.path(), snapshot(&repo, dir.path()).unwrap());
        assert_eq!(tracker.take("t", Path::new("/elsewhere")), None);
        tracker.before("t", dir.path(), snapshot(&repo, dir.path()).unwrap());
        assert!(tracker.take("t", dir.path()).is_some());
        assert_eq!(tracker.take("t", dir.path()), None);
        assert_eq!(tracker.pending_len(), 0);
    }
}
