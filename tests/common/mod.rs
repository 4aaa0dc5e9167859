//! Helpers shared by the end-to-end tests: locating the real binaries,
//! isolated environments (socket, data dir, HOME in a temp dir), a real
//! daemon process, real git repositories and direct reads of the ledger.
//!
//! The binaries are built by the test command (`scripts/test` runs
//! `cargo build --workspace --bins` first); a missing one is a loud failure.

#![allow(dead_code, missing_docs)] // each test binary uses a different subset

use std::io::{Read as _, Write as _};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use git2::{Repository, Signature};

/// Path of a workspace binary in the same profile as this test.
pub fn bin(name: &str) -> PathBuf {
    // tests run from target/<profile>/deps/<test>-<hash>
    let exe = std::env::current_exe().expect("test executable path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>");
    let path = profile_dir.join(name);
    assert!(
        path.is_file(),
        "{} is missing: build the workspace binaries first (`cargo build --workspace --bins`, or run scripts/test)",
        path.display()
    );
    path
}

/// The bash + jq + socat emitter users had before hookd.
pub fn bash_emitter() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bash-emitter.sh")
}

/// An isolated hookd environment: its own socket, data dir and HOME.
pub struct TestEnv {
    pub dir: tempfile::TempDir,
    pub socket: PathBuf,
    pub data_dir: PathBuf,
    pub home: PathBuf,
}

impl TestEnv {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let run = dir.path().join("run");
        std::fs::create_dir(&run).expect("run dir");
        std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o700)).expect("chmod run");
        let home = dir.path().join("home");
        std::fs::create_dir(&home).expect("home");
        Self {
            socket: run.join("hookd.sock"),
            data_dir: dir.path().join("data"),
            home,
            dir,
        }
    }

    /// A command for one of the workspace binaries, pointed at this environment.
    pub fn command(&self, name: &str) -> Command {
        let mut cmd = Command::new(bin(name));
        self.apply(&mut cmd);
        cmd
    }

    /// Points any command at this environment.
    pub fn apply(&self, cmd: &mut Command) {
        cmd.env("HOOKD_SOCKET", &self.socket)
            .env("HOOKD_DATA_DIR", &self.data_dir)
            .env("HOME", &self.home)
            .env("HOOKD_HOME", self.home.join(".hookd"))
            .env(
                "HOOKD_POLICY_SETTINGS",
                self.dir.path().join("no-policy.json"),
            )
            .env_remove("XDG_DATA_HOME")
            .env_remove("CLAUDE_AGENT_ID")
            .env_remove("HOOKD_DEBUG");
    }

    /// Starts `hookd daemon` and waits until it accepts connections.
    pub fn start_daemon(&self) -> DaemonProcess {
        self.start_daemon_with(&[])
    }

    /// Starts `hookd daemon` with extra flags.
    pub fn start_daemon_with(&self, extra: &[&str]) -> DaemonProcess {
        let log = self.dir.path().join(format!("daemon-{}.log", unique()));
        let log_file = std::fs::File::create(&log).expect("daemon log");
        let child = self
            .command("hookd")
            .arg("daemon")
            .args(extra)
            .env("HOOKD_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file)
            .spawn()
            .expect("spawn hookd daemon");
        let daemon = DaemonProcess {
            child: Some(child),
            log,
        };
        wait_until(Duration::from_secs(10), || {
            std::os::unix::net::UnixStream::connect(&self.socket).is_ok()
        })
        .unwrap_or_else(|()| panic!("daemon did not start; log:\n{}", daemon.log_text()));
        daemon
    }

    /// Runs `hookd-emit` with `stdin` in `cwd`; returns its output.
    pub fn emit(&self, args: &[&str], stdin: &str, cwd: &Path) -> Output {
        run_with_stdin(
            self.command("hookd-emit").args(args).current_dir(cwd),
            stdin,
        )
    }

    /// Runs the bash emitter with `stdin` in `cwd`.
    pub fn bash_emit(&self, args: &[&str], stdin: &str, cwd: &Path) -> Output {
        let mut cmd = Command::new(bash_emitter());
        self.apply(&mut cmd);
        run_with_stdin(cmd.args(args).current_dir(cwd), stdin)
    }

    /// Runs `hookd query` with `args` in `cwd`.
    pub fn query(&self, args: &[&str], cwd: &Path) -> Output {
        self.command("hookd")
            .arg("query")
            .args(args)
            .current_dir(cwd)
            .output()
            .expect("run hookd query")
    }

    /// `hookd query --format json` parsed; panics with stderr on failure.
    pub fn query_json(&self, args: &[&str], cwd: &Path) -> Vec<serde_json::Value> {
        let mut all = vec!["--format", "json"];
        all.extend_from_slice(args);
        let out = self.query(&all, cwd);
        assert!(
            out.status.success(),
            "hookd query {all:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("query output is a JSON array")
    }

    /// Writes raw bytes on a fresh connection to the daemon and closes it.
    pub fn send_raw(&self, bytes: &[u8]) {
        let mut stream =
            std::os::unix::net::UnixStream::connect(&self.socket).expect("connect to daemon");
        stream.write_all(bytes).expect("write to daemon");
    }
}

impl Default for TestEnv {
    fn default() -> Self {
        Self::new()
    }
}

/// A running `hookd daemon` child; killed if the test forgets to stop it.
pub struct DaemonProcess {
    child: Option<Child>,
    pub log: PathBuf,
}

impl DaemonProcess {
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Sends SIGTERM and waits (bounded) for the exit.
    pub fn terminate(&mut self) -> ExitStatus {
        signal(self.pid(), "TERM");
        self.wait(Duration::from_secs(20))
    }

    /// Waits for the process to exit by itself.
    pub fn wait(&mut self, limit: Duration) -> ExitStatus {
        let mut child = self.child.take().expect("running");
        let start = Instant::now();
        loop {
            if let Some(status) = child.try_wait().expect("try_wait") {
                return status;
            }
            if start.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "daemon did not exit within {limit:?}; log:\n{}",
                    self.log_text()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for DaemonProcess {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Sends a signal by name with kill(1).
pub fn signal(pid: u32, name: &str) {
    let status = Command::new("kill")
        .arg(format!("-{name}"))
        .arg(pid.to_string())
        .status()
        .expect("kill");
    assert!(status.success(), "kill -{name} {pid} failed");
}

/// A real git repository in a temp dir, with one commit on `main`.
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
        let this = Self { dir, repo };
        this.commit_all("initial");
        this
    }

    /// The work tree root, canonical (as hookd stores it).
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

    pub fn head_sha(&self) -> String {
        self.repo
            .head()
            .expect("head")
            .target()
            .expect("direct")
            .to_string()
    }

    /// The ledger file of this repository.
    pub fn ledger_path(&self) -> PathBuf {
        self.root().join(".hookd/mutations.db")
    }

    /// Opens the ledger read-only (fails if it does not exist).
    pub fn ledger(&self) -> rusqlite::Connection {
        rusqlite::Connection::open_with_flags(
            self.ledger_path(),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .expect("open ledger")
    }

    /// Row count of a ledger table, 0 while the ledger (or its schema) does not exist yet.
    pub fn count(&self, table: &str) -> i64 {
        if !self.ledger_path().exists() {
            return 0;
        }
        match self
            .ledger()
            .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
        {
            Ok(count) => count,
            // The daemon created the file but has not run the migration yet.
            Err(err) if err.to_string().contains("no such table") => 0,
            Err(err) => panic!("count {table}: {err}"),
        }
    }
}

impl Default for GitRepo {
    fn default() -> Self {
        Self::new()
    }
}

impl GitRepo {
    /// Number of distinct values of `column` in the `mutations` table.
    pub fn distinct_mutations(&self, column: &str) -> i64 {
        self.ledger()
            .query_row(
                &format!("SELECT COUNT(DISTINCT {column}) FROM mutations"),
                [],
                |r| r.get(0),
            )
            .expect("count distinct")
    }
}

/// Polls `condition` every 20 ms until it holds or `limit` passes.
pub fn wait_until(limit: Duration, mut condition: impl FnMut() -> bool) -> Result<(), ()> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if condition() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    if condition() { Ok(()) } else { Err(()) }
}

/// Waits until `repo`'s table holds `expected` rows; panics with the count reached.
pub fn wait_for_count(repo: &GitRepo, table: &str, expected: i64) {
    let mut last = 0;
    let reached = wait_until(Duration::from_secs(30), || {
        last = repo.count(table);
        last >= expected
    });
    assert!(
        reached.is_ok(),
        "{table}: expected {expected} rows, reached {last}"
    );
}

/// A hook payload as Claude Code sends it for `tool` in `cwd`.
pub fn tool_payload(
    hook: &str,
    tool: &str,
    cwd: &Path,
    tool_use_id: &str,
    input: serde_json::Value,
) -> String {
    let mut payload = serde_json::json!({
        "session_id": "session-1",
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": cwd,
        "hook_event_name": hook,
        "permission_mode": "default",
        "tool_name": tool,
        "tool_input": null,
        "tool_use_id": tool_use_id,
    });
    payload["tool_input"] = input;
    payload.to_string()
}

fn run_with_stdin(cmd: &mut Command, stdin: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn emitter");
    let mut pipe = child.stdin.take().expect("stdin");
    // Ignore EPIPE: an emitter may exit before reading everything.
    let _ = pipe.write_all(stdin.as_bytes());
    drop(pipe);
    child.wait_with_output().expect("emitter output")
}

/// A process-unique number for file names.
pub fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Reads everything a stream sends until EOF (used to prove the daemon sends nothing).
pub fn read_all(stream: &mut std::os::unix::net::UnixStream) -> Vec<u8> {
    let mut buf = Vec::new();
    let _ = stream.read_to_end(&mut buf);
    buf
}
