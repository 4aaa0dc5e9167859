//! Running a program to completion with a given stdin, as an agent runs a
//! hook command: everything it printed, how it exited, how long it took.

use std::borrow::BorrowMut;
use std::io::Write as _;
use std::process::{Command, ExitStatus, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use crate::process::{Signal, signal};

/// A run that outlives this is hung: [`run_with_stdin`] kills it and fails
/// the test instead of hanging the suite.
pub const RUN_WATCHDOG: Duration = Duration::from_secs(20);

/// Runs `command` to completion with `stdin` fed in, capturing stdout and
/// stderr; panics if it runs longer than [`RUN_WATCHDOG`].
pub fn run_with_stdin(mut command: impl BorrowMut<Command>, stdin: &[u8]) -> Output {
    let command = command.borrow_mut();
    let program = command.get_program().to_owned();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|err| panic!("spawn {program:?}: {err}"));
    let mut pipe = child.stdin.take().expect("stdin pipe");
    let input = stdin.to_vec();
    // The program may exit before reading everything (bad flags, --help,
    // no daemon), so a broken pipe is fine.
    let writer = thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let pid = child.id();
    let (done, finished) = mpsc::channel();
    thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    let output = match finished.recv_timeout(RUN_WATCHDOG) {
        Ok(output) => output.unwrap_or_else(|err| panic!("wait for {program:?}: {err}")),
        Err(_) => {
            signal(pid, Signal::KILL);
            panic!("{program:?} still running after {RUN_WATCHDOG:?}");
        }
    };
    writer.join().expect("stdin writer");
    output
}

/// What one run did, with its output as text.
#[derive(Debug)]
pub struct Run {
    /// How it exited (a signal death has no code).
    pub status: ExitStatus,
    /// Everything printed on stdout.
    pub stdout: String,
    /// Everything printed on stderr.
    pub stderr: String,
    /// Wall time from spawn to exit.
    pub elapsed: Duration,
}

impl Run {
    /// Exit status was success.
    pub fn ok(&self) -> bool {
        self.status.success()
    }

    /// Asserts success, showing stdout and stderr when it failed; returns stdout.
    pub fn assert_ok(&self) -> &str {
        assert!(
            self.ok(),
            "{:?}\nstdout: {}\nstderr: {}",
            self.status,
            self.stdout,
            self.stderr
        );
        &self.stdout
    }

    /// Asserts exit 0 and a silent stdout (what every emitter run keeps to).
    pub fn assert_exit_0_silent_stdout(&self) {
        self.assert_exit_0();
        assert!(
            self.stdout.is_empty(),
            "stdout must stay empty, got {:?}",
            self.stdout
        );
    }

    /// Asserts exit 0 and nothing on stderr; stdout is left to the caller.
    pub fn assert_exit_0_silent_stderr(&self) {
        self.assert_exit_0();
        assert_eq!(self.stderr, "");
    }

    fn assert_exit_0(&self) {
        assert_eq!(
            self.status.code(),
            Some(0),
            "status {:?}, stderr: {}",
            self.status,
            self.stderr
        );
    }
}

/// [`run_with_stdin`], timed, with the output as text (UTF-8, lossily).
pub fn run(command: impl BorrowMut<Command>, stdin: &[u8]) -> Run {
    let start = Instant::now();
    let Output {
        status,
        stdout,
        stderr,
    } = run_with_stdin(command, stdin);
    Run {
        status,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        elapsed: start.elapsed(),
    }
}

/// Runs `command` with `sh -c` in `dir`, as an agent's Bash tool does, and
/// fails the test if it does not succeed.
pub fn sh(dir: &std::path::Path, command: &str) {
    let mut command_line = Command::new("sh");
    command_line.arg("-c").arg(command).current_dir(dir);
    let out = run(command_line, b"");
    assert!(out.ok(), "sh -c {command:?}: {out:?}");
}
