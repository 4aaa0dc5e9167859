//! An isolated hookd environment in a temp dir: its own HOME, hookd home,
//! data dir, private socket directory, (absent) policy settings and a
//! stand-in for the other agents' files under `/etc`, so no test reads or
//! writes the developer's or the machine's files or talks to their daemon.

use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use crate::bins::{bash_emitter, bin};
use crate::process::ChildProcess;
use crate::run::{Run, run, run_with_stdin};
use crate::wait::poll_until;

/// How long [`TestEnv::start_daemon`] waits for the socket to accept.
pub const DAEMON_START_TIMEOUT: Duration = Duration::from_secs(10);

/// A temp dir holding `home/`, `data/` and `run/` (mode 0700, where the
/// socket goes); everything is removed when it is dropped.
pub struct TestEnv {
    /// The temp dir itself, for files a test wants next to the environment.
    pub dir: tempfile::TempDir,
}

impl TestEnv {
    /// Creates the directories.
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

    /// `$HOME` of every program run here.
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// Writes `text` as the managed hook file `path` of a project and
    /// approves exactly that content, as `hookd trust` would (a project's
    /// managed files run only once approved).
    pub fn write_approved(&self, path: &Path, text: &str) {
        crate::fs::write_file(path, text);
        let roots = hookd_core::settings::SettingsRoots::under(&self.home());
        hookd_core::settings::TrustStore::for_roots(&roots)
            .approve(path, text.as_bytes())
            .expect("approve the managed hook file");
    }

    /// hookd's data dir (`$HOOKD_DATA_DIR`): registry, outbox, status.
    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// The daemon's socket (`$HOOKD_SOCKET`), in a private directory.
    pub fn socket(&self) -> PathBuf {
        self.dir.path().join("run/hookd.sock")
    }

    /// Where the policy (managed) settings file is (`$HOOKD_POLICY_SETTINGS`);
    /// nothing is there unless a test writes it.
    pub fn policy_settings(&self) -> PathBuf {
        self.dir.path().join("managed-settings.json")
    }

    /// The environment's stand-in for `/etc`: the other agents' system and
    /// administrator files are read from under it (`codex/`,
    /// `gemini-cli/settings.json` and `system-defaults.json`,
    /// `cursor/hooks.json`), so no test reads the machine's own. Nothing
    /// is there unless a test writes it.
    pub fn system_dir(&self) -> PathBuf {
        self.dir.path().join("etc")
    }

    /// A folder in the environment that is not a git repository, canonical.
    pub fn plain_dir(&self, name: &str) -> PathBuf {
        let dir = self.dir.path().join(name);
        std::fs::create_dir_all(&dir).expect("mkdir");
        dir.canonicalize().expect("canonical")
    }

    /// A file name in the environment no other call returns.
    pub fn unique_file(&self, prefix: &str, extension: &str) -> PathBuf {
        self.dir
            .path()
            .join(format!("{prefix}-{}.{extension}", crate::names::unique()))
    }

    /// Points `command` at this environment, and clears what the
    /// developer's shell could leak in (a config file, a broker, debug
    /// output, an agent id).
    pub fn apply(&self, command: &mut Command) {
        command
            .env("HOOKD_SOCKET", self.socket())
            .env("HOOKD_DATA_DIR", self.data_dir())
            .env("HOME", self.home())
            .env("HOOKD_HOME", self.home().join(".hookd"))
            .env("HOOKD_POLICY_SETTINGS", self.policy_settings())
            .env("HOOKD_CODEX_SYSTEM_DIR", self.system_dir().join("codex"))
            .env(
                "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
                self.system_dir().join("gemini-cli/settings.json"),
            )
            .env(
                "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
                self.system_dir().join("gemini-cli/system-defaults.json"),
            )
            .env(
                "HOOKD_CURSOR_ENTERPRISE_HOOKS",
                self.system_dir().join("cursor/hooks.json"),
            );
        for inherited in [
            "XDG_DATA_HOME",
            "XDG_CONFIG_HOME",
            "HOOKD_CONFIG",
            "HOOKD_AMQP_URL",
            "HOOKD_AMQP_EXCHANGE",
            "HOOKD_LEDGER_MODE",
            "HOOKD_DEBUG",
            "CLAUDE_AGENT_ID",
            "CODEX_HOME",
            "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
        ] {
            command.env_remove(inherited);
        }
    }

    /// A command for the workspace binary `name`, pointed at this environment.
    pub fn command(&self, name: &str) -> Command {
        let mut command = Command::new(bin(name));
        self.apply(&mut command);
        command
    }

    /// Runs the workspace binary `name` with `args` in `cwd`, `stdin` fed
    /// in, pointed at this environment.
    pub fn run(&self, name: &str, cwd: &Path, args: &[&str], stdin: &[u8]) -> Run {
        run(self.command(name).args(args).current_dir(cwd), stdin)
    }

    /// Runs `hookd args` in `cwd` with nothing on stdin.
    pub fn hookd(&self, cwd: &Path, args: &[&str]) -> Run {
        self.run("hookd", cwd, args, b"")
    }

    /// Starts `hookd daemon` and waits until it accepts connections.
    pub fn start_daemon(&self) -> ChildProcess {
        self.start_daemon_with(&[])
    }

    /// Starts `hookd daemon` with extra flags and waits until it accepts
    /// connections; panics with its log when it does not.
    pub fn start_daemon_with(&self, extra: &[&str]) -> ChildProcess {
        let mut command = self.command("hookd");
        command.arg("daemon").args(extra).env("HOOKD_LOG", "info");
        let daemon = ChildProcess::spawn(
            "hookd daemon",
            &mut command,
            &self.unique_file("daemon", "log"),
        );
        let up = poll_until(DAEMON_START_TIMEOUT, || {
            std::os::unix::net::UnixStream::connect(self.socket())
                .ok()
                .map(drop)
        });
        assert!(
            up.is_some(),
            "daemon did not start; log:\n{}",
            daemon.log_text()
        );
        daemon
    }

    /// Starts `hookd daemon` socket-activated: `listener` (bound at
    /// [`Self::socket`], as `hookd.socket` would) on its standard input, as
    /// systemd passes it with `StandardInput=socket`. Waits until the daemon
    /// wrote its PID file; panics with its log when it does not.
    pub fn start_daemon_on(&self, listener: &std::os::unix::net::UnixListener) -> ChildProcess {
        use std::os::fd::AsFd as _;
        let fd = listener.as_fd().try_clone_to_owned().expect("dup listener");
        let mut command = self.command("hookd");
        command.arg("daemon").env("HOOKD_LOG", "info");
        let daemon = ChildProcess::spawn_with_stdin(
            "hookd daemon (socket-activated)",
            &mut command,
            &self.unique_file("daemon", "log"),
            std::process::Stdio::from(fd),
        );
        let pid = daemon.pid().to_string();
        let pid_file = hookd_proto::pid_file_for(&self.socket());
        let up = poll_until(DAEMON_START_TIMEOUT, || {
            std::fs::read_to_string(&pid_file)
                .ok()
                .filter(|text| text.trim() == pid)
                .map(drop)
        });
        assert!(
            up.is_some(),
            "socket-activated daemon did not start; log:\n{}",
            daemon.log_text()
        );
        daemon
    }

    /// Runs `hookd-emit args` with `stdin` in `cwd`.
    pub fn emit(&self, args: &[&str], stdin: &str, cwd: &Path) -> Output {
        run_with_stdin(
            self.command("hookd-emit").args(args).current_dir(cwd),
            stdin.as_bytes(),
        )
    }

    /// Runs the bash emitter with `stdin` in `cwd`.
    pub fn bash_emit(&self, args: &[&str], stdin: &str, cwd: &Path) -> Output {
        let mut command = Command::new(bash_emitter());
        self.apply(&mut command);
        run_with_stdin(command.args(args).current_dir(cwd), stdin.as_bytes())
    }

    /// Runs `hookd query args` in `cwd`.
    pub fn query(&self, args: &[&str], cwd: &Path) -> Output {
        self.command("hookd")
            .arg("query")
            .args(args)
            .current_dir(cwd)
            .output()
            .expect("run hookd query")
    }

    /// `hookd query --format json args`, parsed; panics with stderr on failure.
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

    /// Where the daemon keeps events no ledger would take
    /// (`{data dir}/spool/unstored-events.jsonl`).
    pub fn spool_path(&self) -> PathBuf {
        hookd_core::daemon::ingest::spool_path(&self.data_dir())
    }

    /// `{data dir}/journal`, where `hookd-emit` keeps what no daemon took,
    /// created (0700) as the emitter creates it.
    pub fn journal_dir(&self) -> PathBuf {
        hookd_proto::journal::prepare_dir(&self.data_dir()).expect("journal directory")
    }

    /// The spooled events so far, one JSON object each (none without a
    /// spool); a last line the daemon is still writing is left out.
    pub fn spooled(&self) -> Vec<serde_json::Value> {
        std::fs::read_to_string(self.spool_path())
            .unwrap_or_default()
            .split_inclusive('\n')
            .filter_map(|line| line.strip_suffix('\n'))
            .map(|line| serde_json::from_str(line).expect("a spool line is JSON"))
            .collect()
    }

    /// The daemon's status file (`hookd status --json`), parsed; `None`
    /// before the daemon wrote one.
    pub fn daemon_status(&self) -> Option<serde_json::Value> {
        let path = hookd_core::daemon::status::status_path(&self.socket());
        let bytes = std::fs::read(path).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Writes raw bytes on a fresh connection to the daemon and closes it.
    pub fn send_raw(&self, bytes: &[u8]) {
        let mut stream =
            std::os::unix::net::UnixStream::connect(self.socket()).expect("connect to daemon");
        stream.write_all(bytes).expect("write to daemon");
    }

    /// Sends `line` and a newline on a fresh connection and closes it.
    pub fn send_line(&self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }
}

impl Default for TestEnv {
    fn default() -> Self {
        Self::new()
    }
}
