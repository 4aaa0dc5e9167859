//! Real git repositories (libgit2, no `git` binary or user config needed).

use std::path::{Path, PathBuf};

use git2::{IndexAddOption, Repository, Signature};
use hookd_core::record::RepoFacts;

/// A real git repository in a temp dir: `README.md` and `src/deep/lib.rs`
/// committed on `main` (the nested file is there for tests that start from
/// a subfolder).
pub struct GitRepo {
    /// Removes the repository when dropped.
    pub dir: tempfile::TempDir,
    /// The repository, for tests that commit or branch.
    pub repo: Repository,
}

impl GitRepo {
    /// Initialises the repository and makes the first commit.
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("repo dir");
        let repo = init_repo(dir.path(), "main");
        std::fs::write(dir.path().join("README.md"), "hello\n").expect("write README");
        std::fs::create_dir_all(dir.path().join("src/deep")).expect("mkdir src/deep");
        std::fs::write(dir.path().join("src/deep/lib.rs"), "// lib\n").expect("write lib");
        commit_all(&repo, "initial");
        Self { dir, repo }
    }

    /// The work-tree root, canonical (as hookd stores it).
    pub fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().expect("canonical root")
    }

    /// Stages every file and commits; returns the new commit's id.
    pub fn commit_all(&self, message: &str) -> String {
        commit_all(&self.repo, message)
    }

    /// The id of the commit HEAD points at.
    pub fn head_sha(&self) -> String {
        self.repo
            .head()
            .expect("head")
            .target()
            .expect("direct")
            .to_string()
    }

    /// The git facts the daemon records with each event in this repository.
    pub fn facts(&self) -> RepoFacts {
        hookd_core::daemon::enrich::read_facts(&self.repo, &self.root())
    }
}

impl Default for GitRepo {
    fn default() -> Self {
        Self::new()
    }
}

/// `git init` in `dir` (which must exist), with HEAD on `branch`.
pub fn init_repo(dir: &Path, branch: &str) -> Repository {
    let repo = Repository::init(dir).expect("git init");
    repo.set_head(&format!("refs/heads/{branch}"))
        .expect("HEAD → branch");
    repo
}

/// Stages every file of the work tree and commits on HEAD; returns the
/// commit's id.
pub fn commit_all(repo: &Repository, message: &str) -> String {
    let mut index = repo.index().expect("index");
    index
        .add_all(["*"], IndexAddOption::DEFAULT, None)
        .expect("add");
    index.write().expect("write index");
    commit_index(repo, message)
}

/// Commits what the index holds (nothing staged: an empty tree) on HEAD,
/// as "hookd tests"; returns the commit's id.
pub fn commit_index(repo: &Repository, message: &str) -> String {
    let tree_id = repo.index().expect("index").write_tree().expect("tree");
    let tree = repo.find_tree(tree_id).expect("find tree");
    let sig = Signature::now("hookd tests", "tests@hookd.invalid").expect("signature");
    let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
    let parents: Vec<_> = parent.iter().collect();
    repo.commit(Some("HEAD"), &sig, &sig, message, &tree, &parents)
        .expect("commit")
        .to_string()
}
