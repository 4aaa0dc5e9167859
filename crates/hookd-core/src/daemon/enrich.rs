//! Git facts for events (root, branch, HEAD, remote), read with libgit2 and
//! cached so the hot ingest loop does not re-open repositories.
//!
//! Two caches: directory → git root (discovery walks up the tree, so it is
//! done once per directory), and git root → open repository with its last
//! known facts. HEAD is re-read at most once per ingest batch
//! ([`Enricher::begin_batch`]), so a checkout or commit shows up on the next
//! batch without re-opening anything.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use git2::Repository;

use crate::project::discover_root;
use crate::record::RepoFacts;

/// Branch name recorded when HEAD is detached.
pub const DETACHED_BRANCH: &str = "HEAD (detached)";

/// How long a "not in a repository" answer is trusted before discovery is retried
/// (someone may run `git init`).
const NEGATIVE_CACHE_TTL: Duration = Duration::from_secs(30);

/// Bound on the directory cache; it is simply cleared when full.
const MAX_CACHED_DIRS: usize = 10_000;

/// Finds and describes the git repository of each event's directory.
#[derive(Default)]
pub struct Enricher {
    roots_by_dir: HashMap<PathBuf, DirLookup>,
    repos: HashMap<PathBuf, CachedRepo>,
    batch: u64,
}

enum DirLookup {
    Root(PathBuf),
    NoRepo(Instant),
}

struct CachedRepo {
    repo: Repository,
    facts: RepoFacts,
    refreshed_in_batch: u64,
}

impl Enricher {
    /// An enricher with empty caches.
    pub fn new() -> Self {
        Self::default()
    }

    /// Marks the start of an ingest batch: HEAD is re-read once per repository per batch.
    pub fn begin_batch(&mut self) {
        self.batch += 1;
    }

    /// Git facts for `dir`; [`RepoFacts::default`] (no root) outside any repository.
    pub fn facts_for_dir(&mut self, dir: &Path) -> RepoFacts {
        match self.root_for_dir(dir) {
            Some(root) => self.facts_for_root(&root),
            None => RepoFacts::default(),
        }
    }

    /// The open repository rooted at `root`, when it is cached.
    pub fn repository(&mut self, root: &Path) -> Option<&Repository> {
        if !self.repos.contains_key(root) {
            self.open_root(root)?;
        }
        self.repos.get(root).map(|cached| &cached.repo)
    }

    /// The work-tree root of the repository containing `dir`, if any.
    pub fn root_for_dir(&mut self, dir: &Path) -> Option<PathBuf> {
        match self.roots_by_dir.get(dir) {
            Some(DirLookup::Root(root)) => return Some(root.clone()),
            Some(DirLookup::NoRepo(at)) if at.elapsed() < NEGATIVE_CACHE_TTL => return None,
            _ => {}
        }
        if self.roots_by_dir.len() >= MAX_CACHED_DIRS {
            self.roots_by_dir.clear();
        }
        let found = discover_root(dir);
        let entry = match &found {
            Some(root) => DirLookup::Root(root.clone()),
            None => DirLookup::NoRepo(Instant::now()),
        };
        self.roots_by_dir.insert(dir.to_path_buf(), entry);
        found
    }

    fn facts_for_root(&mut self, root: &Path) -> RepoFacts {
        if !self.repos.contains_key(root) && self.open_root(root).is_none() {
            return RepoFacts::default();
        }
        let batch = self.batch;
        let Some(cached) = self.repos.get_mut(root) else {
            return RepoFacts::default();
        };
        if cached.refreshed_in_batch != batch {
            cached.facts = read_facts(&cached.repo, root);
            cached.refreshed_in_batch = batch;
        }
        cached.facts.clone()
    }

    fn open_root(&mut self, root: &Path) -> Option<()> {
        let repo = match Repository::open(root) {
            Ok(repo) => repo,
            Err(err) => {
                tracing::warn!(root = %root.display(), error = %err, "cannot open git repository");
                return None;
            }
        };
        let facts = read_facts(&repo, root);
        self.repos.insert(
            root.to_path_buf(),
            CachedRepo {
                repo,
                facts,
                refreshed_in_batch: self.batch,
            },
        );
        Some(())
    }
}

/// Reads branch, HEAD and remote from an open repository.
pub fn read_facts(repo: &Repository, root: &Path) -> RepoFacts {
    let (branch, head_sha) = match repo.head() {
        Ok(head) => {
            let sha = head.target().map(|oid| oid.to_string()).unwrap_or_default();
            let branch = if repo.head_detached().unwrap_or(false) {
                DETACHED_BRANCH.to_owned()
            } else {
                head.shorthand().unwrap_or(DETACHED_BRANCH).to_owned()
            };
            (branch, sha)
        }
        // No commit yet: HEAD names a branch that does not exist.
        Err(_) => (unborn_branch(repo).unwrap_or_default(), String::new()),
    };
    RepoFacts {
        git_root: Some(root.to_path_buf()),
        branch,
        head_sha,
        remote_url: remote_url(repo),
    }
}

fn unborn_branch(repo: &Repository) -> Option<String> {
    let head = repo.find_reference("HEAD").ok()?;
    let target = head.symbolic_target().ok().flatten()?;
    Some(
        target
            .strip_prefix("refs/heads/")
            .unwrap_or(target)
            .to_owned(),
    )
}

fn remote_url(repo: &Repository) -> Option<String> {
    let remote = match repo.find_remote("origin") {
        Ok(remote) => remote,
        Err(_) => {
            let names = repo.remotes().ok()?;
            let first = names.iter().flatten().flatten().next()?.to_owned();
            repo.find_remote(&first).ok()?
        }
    };
    remote.url().ok().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use git2::Signature;

    fn commit(repo: &Repository, message: &str) -> git2::Oid {
        let sig = Signature::now("t", "t@example.com").unwrap();
        let tree_id = repo.index().unwrap().write_tree().unwrap();
        let tree = repo.find_tree(tree_id).unwrap();
        let parents: Vec<_> = repo
            .head()
            .ok()
            .and_then(|h| h.peel_to_commit().ok())
            .into_iter()
            .collect();
        let parent_refs: Vec<_> = parents.iter().collect();
        repo.commit(Some("HEAD"), &sig, &sig, message, &tree, &parent_refs)
            .unwrap()
    }

    #[test]
    fn facts_follow_commits_checkouts_and_detached_head() {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path()).unwrap();
        repo.remote("origin", "https://example.com/r.git").unwrap();
        let mut enricher = Enricher::new();
        let sub = dir.path().join("a/b");
        std::fs::create_dir_all(&sub).unwrap();

        let unborn = enricher.facts_for_dir(&sub);
        assert_eq!(unborn.head_sha, "");
        assert!(!unborn.branch.is_empty());
        let root = dir.path().canonicalize().unwrap();
        assert_eq!(
            unborn
                .git_root
                .as_deref()
                .map(|p| p.canonicalize().unwrap()),
            Some(root)
        );
        assert_eq!(
            unborn.remote_url.as_deref(),
            Some("https://example.com/r.git")
        );

        let first = commit(&repo, "one");
        // Same batch: cached facts.
        assert_eq!(enricher.facts_for_dir(&sub).head_sha, "");
        enricher.begin_batch();
        assert_eq!(enricher.facts_for_dir(&sub).head_sha, first.to_string());

        let c = repo.find_commit(first).unwrap();
        repo.branch("feature", &c, false).unwrap();
        repo.set_head("refs/heads/feature").unwrap();
        enricher.begin_batch();
        assert_eq!(enricher.facts_for_dir(&sub).branch, "feature");

        repo.set_head_detached(first).unwrap();
        enricher.begin_batch();
        let detached = enricher.facts_for_dir(&sub);
        assert_eq!(detached.branch, DETACHED_BRANCH);
        assert_eq!(detached.head_sha, first.to_string());
    }

    #[test]
    fn outside_any_repository_gives_no_root() {
        let dir = tempfile::tempdir().unwrap();
        let mut enricher = Enricher::new();
        // The temp dir could sit inside a repository on a developer machine; only
        // assert when discovery from the system temp dir finds none.
        if discover_root(&std::env::temp_dir()).is_none() {
            assert_eq!(enricher.facts_for_dir(dir.path()), RepoFacts::default());
        }
    }
}
