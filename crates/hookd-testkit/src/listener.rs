//! A stand-in for whatever listens on hookd's socket, run as any user: it
//! keeps every byte it is sent and answers each connection with a fixed
//! line. As another user it is the listener an attacker plants where the
//! socket should be; as the test's own user it is a daemon that answers.
//!
//! It is `socat` in a child process (a process of its own is the only way to
//! hold another uid, and the peer credentials the kernel reports are the
//! listening process's), started with `Command::uid`, which needs root.

use std::os::unix::fs::{FileTypeExt as _, PermissionsExt as _};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::process::ChildProcess;
use crate::wait::poll_until;

/// The uid of `nobody`: "another user" in tests.
pub const NOBODY: u32 = 65534;

/// True when the tests run as root, so they can act as another user
/// (`chown`, `Command::uid`).
pub fn is_root() -> bool {
    rustix::process::getuid().is_root()
}

/// The uid the tests run as.
pub fn my_uid() -> u32 {
    rustix::process::getuid().as_raw()
}

/// Gives `path` (not what a symbolic link points to) to `uid`; needs root.
pub fn chown(path: &Path, uid: u32) {
    std::os::unix::fs::lchown(path, Some(uid), Some(uid))
        .unwrap_or_else(|err| panic!("chown {} to {uid}: {err}", path.display()));
}

/// Sets the permission bits of `path`.
pub fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .unwrap_or_else(|err| panic!("chmod {:o} {}: {err}", mode, path.display()));
}

/// A listener bound at a socket path, running as a chosen uid.
pub struct PlantedListener {
    _child: ChildProcess,
    /// Private to the listener's uid: what it received, what it answers, its log.
    stash: tempfile::TempDir,
}

impl PlantedListener {
    /// Binds `socket` as `uid` and answers every connection with `reply`
    /// (a newline is added) once the peer has finished sending.
    ///
    /// The socket's directory must exist; while the listener binds, it is
    /// opened to everyone (mode 0777) when `uid` is not the caller's, then
    /// its mode is put back. The directories above it must be searchable by
    /// `uid`.
    pub fn start(socket: &Path, uid: u32, reply: &str) -> Self {
        let stash = tempfile::tempdir().expect("temp dir");
        std::fs::write(stash.path().join("reply"), format!("{reply}\n")).expect("write reply");
        chmod(&stash.path().join("reply"), 0o644);
        chmod(stash.path(), 0o755);
        if uid != my_uid() {
            chown(stash.path(), uid);
        }
        let dir = socket.parent().expect("socket has a directory");
        let mode = std::fs::metadata(dir)
            .expect("socket dir")
            .permissions()
            .mode()
            & 0o7777;
        chmod(dir, 0o777);
        let received = stash.path().join("received");
        let mut command = Command::new("socat");
        command
            .arg(format!("UNIX-LISTEN:{},fork", socket.display()))
            .arg(format!(
                "SYSTEM:cat >> {}; cat {}",
                received.display(),
                stash.path().join("reply").display()
            ))
            .current_dir("/")
            .uid(uid)
            .gid(uid);
        let child = ChildProcess::spawn(
            &format!("socat as uid {uid}"),
            &mut command,
            &stash.path().join("socat.log"),
        );
        let bound = poll_until(Duration::from_secs(10), || {
            std::fs::symlink_metadata(socket)
                .ok()
                .filter(|m| m.file_type().is_socket())
        });
        chmod(dir, mode);
        assert!(
            bound.is_some(),
            "socat did not bind {}; log:\n{}",
            socket.display(),
            child.log_text()
        );
        Self {
            _child: child,
            stash,
        }
    }

    /// Every byte received so far, over all connections.
    pub fn received(&self) -> Vec<u8> {
        std::fs::read(self.received_path()).unwrap_or_default()
    }

    /// Whether anyone connected at all (the file exists from the first connection on).
    pub fn was_connected(&self) -> bool {
        self.received_path().exists()
    }

    fn received_path(&self) -> PathBuf {
        self.stash.path().join("received")
    }
}
