//! Running one hook command as a real process: spawn in its own process
//! group, feed stdin, capture capped output, enforce the timeout, and make
//! sure nothing of the hook outlives it.
//!
//! A common failure of hook runners (atuin's, for one): they cap the
//! output, but a timed-out hook's children keep running. Here:
//!
//! - the hook is the leader of a new process group (`process_group(0)`), so
//!   one `kill(-pgid, SIGKILL)` reaches every process it forked, including a
//!   child that ignores SIGTERM;
//! - the group is killed on timeout, after the hook exits (so `sleep 100 &`
//!   neither lingers nor keeps the pipes open), and when the run is
//!   cancelled (a guard's `Drop`); `kill_on_drop` covers the leader as well;
//! - stdout and stderr are read concurrently with the wait, capped at
//!   [`OUTPUT_CAP_BYTES`] each, and read past the cap (discarding) so a chatty
//!   hook never blocks on a full pipe;
//! - once the hook has exited, reading to EOF is bounded by [`DRAIN_GRACE`]:
//!   a process that escaped the group (`setsid cmd &`) may hold the pipes
//!   forever.
//!
//! The hook gets no controlling-terminal access that matters: stdin is a pipe
//! and the hook runs in a background process group, so reading the terminal
//! stops it (SIGTTIN) until the timeout kills it. A full `setsid` would need
//! `pre_exec`, which is `unsafe` (forbidden here); std's `setsid` is unstable.

use std::ffi::OsStr;
use std::io;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use rustix::process::{Pid, Signal, kill_process_group};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{ChildStdin, Command};

/// Most bytes kept of each of a hook's stdout and stderr (1 MiB); the rest is
/// read and discarded, and the stream is marked truncated.
pub const OUTPUT_CAP_BYTES: usize = 1024 * 1024;

/// How long, after the hook exited and its group was killed, reading its
/// pipes to EOF may take before hookd gives up on them.
pub const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// How long to wait for a SIGKILLed hook to be reaped before leaving it to
/// tokio's background reaper.
const REAP_GRACE: Duration = Duration::from_secs(5);

/// Read buffer size for the pipes; on the heap so futures stay small.
const CHUNK: usize = 64 * 1024;

/// What to run.
#[derive(Debug, Clone, Copy)]
pub struct ProcessRequest<'a> {
    /// Shell command, run with `sh -c`.
    pub command: &'a str,
    /// Working directory.
    pub cwd: &'a Path,
    /// Variables added to the inherited environment.
    pub env: &'a [(&'a str, &'a OsStr)],
    /// Bytes written to stdin, which is then closed.
    pub stdin: &'a [u8],
    /// Time allowed before the whole process group is killed.
    pub timeout: Duration,
}

/// How the hook process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// It exited with this code.
    Exited(i32),
    /// A signal killed it (not hookd's timeout).
    Signaled(i32),
    /// hookd killed its process group after this timeout.
    TimedOut(Duration),
}

/// One captured output stream.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Captured {
    /// The first [`OUTPUT_CAP_BYTES`] bytes.
    pub bytes: Vec<u8>,
    /// More was written than kept.
    pub truncated: bool,
}

impl Captured {
    fn push(&mut self, data: &[u8]) {
        let room = OUTPUT_CAP_BYTES.saturating_sub(self.bytes.len());
        let keep = data.len().min(room);
        self.bytes.extend_from_slice(&data[..keep]);
        if keep < data.len() {
            self.truncated = true;
        }
    }
}

/// A finished hook process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// How it ended.
    pub termination: Termination,
    /// Its stdout, capped.
    pub stdout: Captured,
    /// Its stderr, capped.
    pub stderr: Captured,
}

/// A hook process that could not be run.
#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    /// `sh` could not be started (missing cwd, no `sh`, resource limits).
    #[error("cannot start `sh -c` in {cwd}: {source}")]
    Spawn {
        /// The working directory it was to run in.
        cwd: PathBuf,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// Waiting for the process failed.
    #[error("cannot wait for the hook process: {0}")]
    Wait(#[source] io::Error),
}

/// Runs one hook process to completion (or timeout) and captures its output.
pub async fn run(req: ProcessRequest<'_>) -> Result<Finished, ProcessError> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(req.command)
        .current_dir(req.cwd)
        .envs(req.env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true)
        .spawn()
        .map_err(|source| ProcessError::Spawn {
            cwd: req.cwd.to_owned(),
            source,
        })?;
    // Declared after `child` so it drops first: the group is killed while the
    // leader is still unreaped, so its pgid cannot have been reused.
    let mut group = GroupGuard(
        child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .and_then(Pid::from_raw),
    );
    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let mut out = Captured::default();
    let mut err = Captured::default();

    let termination = {
        let io = async {
            tokio::join!(
                feed(stdin, req.stdin),
                capture(stdout, &mut out),
                capture(stderr, &mut err)
            );
        };
        tokio::pin!(io);
        let timeout = tokio::time::sleep(req.timeout);
        tokio::pin!(timeout);
        let mut io_done = false;
        let status = loop {
            tokio::select! {
                () = &mut io, if !io_done => io_done = true,
                status = child.wait() => break Some(status),
                () = &mut timeout => break None,
            }
        };
        // Always kill the group: on timeout that is the point; after a normal
        // exit it ends background children that would linger and hold the
        // pipes. (After a normal exit the leader is already reaped; its pid
        // stays reserved while any group member lives, and if none does the
        // kill finds nothing.)
        let termination = match status {
            Some(status) => {
                group.kill();
                classify(status.map_err(ProcessError::Wait)?)
            }
            None => {
                group.kill();
                if tokio::time::timeout(REAP_GRACE, child.wait())
                    .await
                    .is_err()
                {
                    tracing::warn!(command = req.command, "killed hook not reaped in time");
                }
                Termination::TimedOut(req.timeout)
            }
        };
        if !io_done && tokio::time::timeout(DRAIN_GRACE, &mut io).await.is_err() {
            tracing::debug!(
                command = req.command,
                "hook output pipes still open after exit (a process escaped its group); stopped reading"
            );
        }
        termination
    };
    Ok(Finished {
        termination,
        stdout: out,
        stderr: err,
    })
}

fn classify(status: ExitStatus) -> Termination {
    match (status.code(), status.signal()) {
        (Some(code), _) => Termination::Exited(code),
        (None, Some(signal)) => Termination::Signaled(signal),
        // Neither code nor signal does not happen for a reaped child on Unix.
        (None, None) => Termination::Signaled(0),
    }
}

/// Writes the payload and closes stdin; a hook that ignores stdin and exits
/// early makes the write fail with a broken pipe, which is fine.
async fn feed(stdin: Option<ChildStdin>, bytes: &[u8]) {
    let Some(mut stdin) = stdin else { return };
    if let Err(e) = stdin.write_all(bytes).await {
        if e.kind() != io::ErrorKind::BrokenPipe {
            tracing::debug!(error = %e, "writing hook stdin failed");
        }
        return;
    }
    // Dropping closes the pipe; shutdown flushes first.
    let _ = stdin.shutdown().await;
}

/// Reads a pipe to EOF, keeping at most the cap and discarding the rest.
async fn capture<R: AsyncRead + Unpin>(pipe: Option<R>, into: &mut Captured) {
    let Some(mut pipe) = pipe else { return };
    let mut chunk = vec![0_u8; CHUNK];
    loop {
        match pipe.read(&mut chunk).await {
            Ok(0) => return,
            Ok(n) => into.push(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                tracing::debug!(error = %e, "reading hook output failed");
                return;
            }
        }
    }
}

/// Kills a hook's whole process group once, explicitly or when dropped (a
/// cancelled run must not leave the hook's children behind).
struct GroupGuard(Option<Pid>);

impl GroupGuard {
    fn kill(&mut self) {
        let Some(pgid) = self.0.take() else { return };
        match kill_process_group(pgid, Signal::KILL) {
            Ok(()) | Err(rustix::io::Errno::SRCH) => {}
            Err(e) => {
                tracing::warn!(pgid = pgid.as_raw_pid(), error = %e, "cannot kill hook process group");
            }
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_keeps_the_cap_and_flags_the_rest() {
        let mut c = Captured::default();
        c.push(&vec![b'a'; OUTPUT_CAP_BYTES - 1]);
        assert!(!c.truncated);
        c.push(b"bc");
        assert_eq!(c.bytes.len(), OUTPUT_CAP_BYTES);
        assert_eq!(c.bytes.last(), Some(&b'b'));
        assert!(c.truncated);
        c.push(b"more");
        assert_eq!(c.bytes.len(), OUTPUT_CAP_BYTES);
    }
}
