//! Processes under test: a long-running child (a daemon, a consumer) with
//! its output in files, signals, and the `/proc` reads that tell whether a
//! process is gone.
//!
//! Nothing reaps orphans on the machines these tests run on, so a killed
//! process can linger as a zombie: [`process_gone`] counts state `Z` as gone
//! (`kill -0` still succeeds on a zombie).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;

pub use rustix::process::Signal;

use crate::wait::poll_until;

/// How long [`ChildProcess::terminate`] waits for the exit after SIGTERM.
pub const TERMINATE_GRACE: Duration = Duration::from_secs(20);

/// A long-running child (`hookd daemon`, `hookd ledger consume`) whose
/// stdout and stderr go to files; killed if the test forgets to stop it.
pub struct ChildProcess {
    name: String,
    child: Option<Child>,
    /// Where its stderr goes (hookd logs there).
    pub log: PathBuf,
    /// Where its stdout goes.
    pub stdout: PathBuf,
}

impl ChildProcess {
    /// Spawns `command` with no stdin, stderr to `log` and stdout to `log`
    /// with the extension `stdout`; `name` is used in failure messages.
    pub fn spawn(name: &str, command: &mut Command, log: &Path) -> Self {
        Self::spawn_with_stdin(name, command, log, Stdio::null())
    }

    /// [`Self::spawn`] with `stdin` as standard input (for example a
    /// listening socket, as systemd passes one to a socket-activated service).
    pub fn spawn_with_stdin(name: &str, command: &mut Command, log: &Path, stdin: Stdio) -> Self {
        let stdout = log.with_extension("stdout");
        let child = command
            .stdin(stdin)
            .stdout(create(&stdout))
            .stderr(create(log))
            .spawn()
            .unwrap_or_else(|err| panic!("spawn {name}: {err}"));
        Self {
            name: name.to_owned(),
            child: Some(child),
            log: log.to_path_buf(),
            stdout,
        }
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// Everything it logged so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Everything it printed on stdout so far.
    pub fn stdout_text(&self) -> String {
        std::fs::read_to_string(&self.stdout).unwrap_or_default()
    }

    /// Sends SIGTERM and waits (at most [`TERMINATE_GRACE`]) for the exit.
    pub fn terminate(&mut self) -> ExitStatus {
        signal(self.pid(), Signal::TERM);
        self.wait(TERMINATE_GRACE)
    }

    /// Sends SIGKILL (no chance to clean up, as in a crash or an OOM kill)
    /// and reaps the process.
    pub fn kill_hard(&mut self) -> ExitStatus {
        signal(self.pid(), Signal::KILL);
        self.wait(TERMINATE_GRACE)
    }

    /// Waits for the process to exit by itself; kills it and panics with
    /// its log after `limit`.
    pub fn wait(&mut self, limit: Duration) -> ExitStatus {
        let mut child = self.child.take().expect("running");
        if let Some(status) = poll_until(limit, || child.try_wait().expect("try_wait")) {
            return status;
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!(
            "{} did not exit within {limit:?}; log:\n{}",
            self.name,
            self.log_text()
        );
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn create(path: &Path) -> std::fs::File {
    std::fs::File::create(path).unwrap_or_else(|err| panic!("create {}: {err}", path.display()))
}

/// Sends `signal` to `pid`; panics when the process cannot be signalled.
pub fn signal(pid: u32, signal: Signal) {
    let raw = i32::try_from(pid).expect("pid fits in i32");
    let target = rustix::process::Pid::from_raw(raw).expect("pid is not 0");
    rustix::process::kill_process(target, signal)
        .unwrap_or_else(|err| panic!("signal {signal:?} to {pid}: {err}"));
}

/// True when `pid` no longer runs: no `/proc` entry, or a zombie (or dead)
/// process nobody has reaped.
pub fn process_gone(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return true;
    };
    matches!(stat_fields(&stat).next(), Some("Z" | "X" | "x"))
}

/// The process group of a live `pid`.
pub fn pgrp(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the name: state, ppid, pgrp.
    stat_fields(&stat).nth(2)?.parse().ok()
}

/// The fields of a `/proc/PID/stat` line after the command name, which is
/// parenthesised and may itself hold spaces and parentheses.
fn stat_fields(stat: &str) -> std::str::SplitWhitespace<'_> {
    let rest = stat.rfind(')').map_or("", |i| &stat[i + 1..]);
    rest.split_whitespace()
}

/// The pids written to `file`, separated by white space or newlines (none
/// while it does not exist).
pub fn read_pids(file: &Path) -> Vec<i32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|pid| pid.parse().ok())
        .collect()
}

/// Resident memory of a live `pid` in KiB (`VmRSS` of `/proc/PID/status`).
pub fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_else(|err| panic!("read /proc/{pid}/status: {err}"));
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no VmRSS for {pid}"))
}

/// Raises this process's soft limit on open files to at least `wanted`
/// (within the hard limit), so a test can hold thousands of connections;
/// children started afterwards inherit it. Returns the soft limit now in
/// force, which is less than `wanted` when the hard limit is.
pub fn raise_open_files_limit(wanted: u64) -> u64 {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    let current = limit.current.unwrap_or(u64::MAX);
    if current >= wanted {
        return current;
    }
    let raised = limit.maximum.map_or(wanted, |max| wanted.min(max));
    limit.current = Some(raised);
    match setrlimit(Resource::Nofile, limit) {
        Ok(()) => raised,
        Err(_) => current,
    }
}
