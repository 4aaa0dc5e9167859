//! Helpers for the app's tests: a private environment in temp dirs, real git
//! repositories, and ledgers written through hookd-core (so the tests read
//! exactly what the daemon would have written).

#![allow(dead_code, missing_docs)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use git2::{Repository, Signature};
use hookd_core::dirs;
use hookd_core::ledger::Ledger;
use hookd_core::ledger::registry::{Origin, Registry};
use hookd_core::record::{LedgerEntry, RepoFacts};
use hookd_core::settings::SettingsRoots;
use hookd_desktop::AppState;
use serde_json::{Value, json};

/// A home, a data dir and a private socket dir, all temporary.
pub struct TestEnv {
    pub dir: tempfile::TempDir,
}

impl TestEnv {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        for sub in ["home", "data", "run"] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
        }
        std::fs::set_permissions(
            dir.path().join("run"),
            std::fs::Permissions::from_mode(0o700),
        )
        .expect("chmod run");
        Self { dir }
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    pub fn socket(&self) -> PathBuf {
        self.dir.path().join("run/hookd.sock")
    }

    pub fn state(&self) -> AppState {
        AppState::new(
            self.data_dir(),
            self.socket(),
            Some(SettingsRoots::under(&self.home())),
        )
    }

    /// A folder that is not a git repository.
    pub fn plain_dir(&self, name: &str) -> PathBuf {
        let dir = self.dir.path().join(name);
        std::fs::create_dir_all(&dir).expect("mkdir");
        dir.canonicalize().expect("canonical")
    }
}

/// A real git repository with one commit on `main`.
pub struct GitRepo {
    pub dir: tempfile::TempDir,
    pub repo: Repository,
}

impl GitRepo {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("repo dir");
        let repo = Repository::init(dir.path()).expect("git init");
        repo.set_head("refs/heads/main").expect("HEAD → main");
        std::fs::write(dir.path().join("README.md"), "hello\n").expect("write README");
        std::fs::create_dir_all(dir.path().join("src/deep")).expect("mkdir src");
        std::fs::write(dir.path().join("src/deep/lib.rs"), "// lib\n").expect("write lib");
        let this = Self { dir, repo };
        this.commit_all("initial");
        this
    }

    /// The work-tree root, canonical (as hookd stores it).
    pub fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().expect("canonical root")
    }

    pub fn commit_all(&self, message: &str) -> String {
        let mut index = self.repo.index().expect("index");
        index
            .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
            .expect("add");
        index.write().expect("write index");
        let tree = self
            .repo
            .find_tree(index.write_tree().expect("tree"))
            .expect("find tree");
        let sig = Signature::now("hookd tests", "tests@hookd.invalid").expect("signature");
        let parent = self.repo.head().ok().and_then(|h| h.peel_to_commit().ok());
        let parents: Vec<_> = parent.iter().collect();
        self.repo
            .commit(Some("HEAD"), &sig, &sig, message, &tree, &parents)
            .expect("commit")
            .to_string()
    }

    pub fn ledger_path(&self) -> PathBuf {
        dirs::repo_ledger_path(&self.root())
    }
}

/// One hook event for the ledger: which tool, what file, when, by whom.
pub struct Event<'a> {
    pub hook: &'a str,
    pub tool: &'a str,
    pub file: Option<&'a str>,
    pub content: &'a str,
    pub timestamp: &'a str,
    pub agent: &'a str,
    pub branch: &'a str,
}

impl<'a> Event<'a> {
    /// A `post_tool_use` Write of `file` (relative to the repository) at `timestamp`.
    pub fn write(file: &'a str, timestamp: &'a str) -> Self {
        Self {
            hook: "post_tool_use",
            tool: "Write",
            file: Some(file),
            content: "one\ntwo\n",
            timestamp,
            agent: "agent-a",
            branch: "main",
        }
    }

    /// A hook event with no mutation (a prompt).
    pub fn prompt(timestamp: &'a str) -> Self {
        Self {
            hook: "user_prompt_submit",
            tool: "",
            file: None,
            content: "",
            timestamp,
            agent: "agent-a",
            branch: "main",
        }
    }

    /// The envelope line `hookd-emit` would send for this event in `root`.
    pub fn envelope(&self, root: &Path) -> Value {
        let mut payload = json!({
            "session_id": self.agent,
            "cwd": root,
            "hook_event_name": self.hook,
        });
        if !self.tool.is_empty() {
            payload["tool_name"] = json!(self.tool);
            payload["tool_use_id"] = json!(format!("toolu-{}", self.timestamp));
            payload["tool_input"] = json!({
                "file_path": self.file.map(|f| root.join(f)),
                "content": self.content,
            });
        } else {
            payload["prompt"] = json!("hello");
        }
        json!({
            "event_type": self.hook,
            "tool_name": self.tool,
            "payload": payload,
            "timestamp": self.timestamp,
            "pid": 4242,
        })
    }
}

/// Appends `events` to the ledger of `repo` exactly as the daemon would
/// (parse, git facts, mutation extraction, one transaction) and registers
/// the repository with origin `event`.
pub fn record(env: &TestEnv, repo: &GitRepo, events: &[Event<'_>]) {
    let root = repo.root();
    let head = repo
        .repo
        .head()
        .expect("head")
        .target()
        .expect("direct")
        .to_string();
    let entries: Vec<LedgerEntry> = events
        .iter()
        .map(|e| {
            let line = e.envelope(&root).to_string();
            let event = hookd_core::daemon::server::parse_envelope(line.as_bytes())
                .expect("valid envelope");
            let facts = RepoFacts {
                git_root: Some(root.clone()),
                branch: e.branch.to_owned(),
                head_sha: head.clone(),
                remote_url: None,
            };
            let mutations = hookd_core::daemon::extract::direct_mutation(&event, &facts)
                .into_iter()
                .collect();
            LedgerEntry {
                event,
                repo: facts,
                mutations,
            }
        })
        .collect();
    let mut ledger = Ledger::open_or_create(&repo.ledger_path()).expect("ledger");
    ledger.append(&entries).expect("append");
    Registry::open(&env.data_dir())
        .expect("registry")
        .add(&root, Origin::Event)
        .expect("register");
}

/// Polls `condition` until it holds or `limit` passes.
pub fn wait_until(limit: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if condition() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    condition()
}
