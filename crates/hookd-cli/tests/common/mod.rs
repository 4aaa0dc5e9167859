//! Helpers for the CLI's integration tests: run the real `hookd` binary
//! against a throw-away HOME so no test can touch the developer's settings.
//!
//! hookd-cli has no `tempfile` dev-dependency, so a minimal temp dir lives here.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A directory removed (with its contents) when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates a fresh, empty directory under the system temp dir.
    pub fn create() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path =
                std::env::temp_dir().join(format!("hookd-cli-test-{}-{n}", std::process::id()));
            // `create_dir` fails on a leftover from an earlier run with the same pid.
            if std::fs::create_dir(&path).is_ok() {
                return Self(path);
            }
        }
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The finished `hookd` run, with its output as text.
pub struct Run {
    /// Exit status was success.
    pub ok: bool,
    /// Everything printed on stdout.
    pub stdout: String,
    /// Everything printed on stderr.
    pub stderr: String,
}

/// Runs `hookd args...` with `HOME=home` in directory `cwd`.
pub fn hookd(home: &Path, cwd: &Path, args: &[&str]) -> Run {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(env!("CARGO_BIN_EXE_hookd"))
        .args(args)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .current_dir(cwd)
        .output()
        .expect("run hookd");
    Run {
        ok: status.success(),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

/// Runs `hookd args...` with `HOME=home`, hookd's home in `home/.hookd`, no
/// policy settings (unless `home/managed-settings.json` exists) and `stdin`
/// as standard input, in directory `cwd`.
// Not every test binary that includes this module uses every helper.
#[allow(dead_code)]
pub fn hookd_in(home: &Path, cwd: &Path, args: &[&str], stdin: &[u8]) -> Run {
    use std::io::Write as _;
    use std::process::Stdio;

    let mut child = Command::new(env!("CARGO_BIN_EXE_hookd"))
        .args(args)
        .env("HOME", home)
        .env("HOOKD_HOME", home.join(".hookd"))
        .env("HOOKD_POLICY_SETTINGS", home.join("managed-settings.json"))
        .env_remove("XDG_CONFIG_HOME")
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hookd");
    // hookd may exit before reading stdin (bad flags); a broken pipe is fine.
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("wait for hookd");
    Run {
        ok: status.success(),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}
