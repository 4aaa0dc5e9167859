//! Where the daemon's socket lives, resolved the same way by every emitter.
//!
//! `$HOOKD_SOCKET` wins; otherwise `$XDG_RUNTIME_DIR/hookd.sock`
//! (`/run/user/$UID/hookd.sock`); where no runtime directory exists, a private
//! per-user directory under the temp dir. Only the daemon creates directories.

use std::env;
use std::path::{Path, PathBuf};

/// Environment variable that overrides the socket path.
pub const SOCKET_ENV: &str = "HOOKD_SOCKET";

/// File name of the socket inside the runtime directory.
pub const SOCKET_FILE_NAME: &str = "hookd.sock";

/// The socket path every emitter and the daemon agree on.
pub fn socket_path() -> PathBuf {
    match env::var_os(SOCKET_ENV) {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => runtime_dir().join(SOCKET_FILE_NAME),
    }
}

/// The per-user runtime directory used when `$HOOKD_SOCKET` is not set.
pub fn runtime_dir() -> PathBuf {
    let uid = rustix::process::getuid().as_raw();
    if let Some(dir) = env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        if dir.is_dir() {
            return dir;
        }
    }
    let run_user = PathBuf::from(format!("/run/user/{uid}"));
    if run_user.is_dir() {
        return run_user;
    }
    env::temp_dir().join(format!("hookd-{uid}"))
}

/// The PID file that sits beside a socket (`hookd.sock` → `hookd.pid`).
pub fn pid_file_for(socket: &Path) -> PathBuf {
    socket.with_extension("pid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pid_file_sits_beside_the_socket() {
        assert_eq!(
            pid_file_for(Path::new("/run/user/1000/hookd.sock")),
            PathBuf::from("/run/user/1000/hookd.pid")
        );
    }

    #[test]
    fn runtime_dir_is_absolute() {
        assert!(runtime_dir().is_absolute());
    }
}
