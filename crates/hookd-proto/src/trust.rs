//! Whether whoever sits behind hookd's socket may be trusted with an event.
//!
//! Where no runtime directory exists, the socket lives in
//! `$TMPDIR/hookd-UID/`, a name any user can create first. Whoever owns that
//! directory can put a listener there, receive every hook payload, and (in
//! `hookd-emit --wait` mode) answer "allow" with a rewritten Bash command
//! that the agent then runs. So, as tmux's client does, both sides apply the
//! same two rules:
//!
//! - [`check_socket_dir`]: the socket's directory belongs to the caller and
//!   has no group or other permission bits (the daemon checks this before it
//!   binds, the emitter before it connects). A symbolic link in its place
//!   must belong to the caller too: another user could repoint it at will.
//! - [`check_peer`]: after connecting, the process on the other end runs as
//!   the caller's uid (`SO_PEERCRED`). This also closes the window between
//!   the directory check and the connect.
//!
//! The checks are by uid and mode, not by access: root can reach anything,
//! and must still refuse another user's socket.

use std::fmt;
use std::io;
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

/// Why the socket, or the process behind it, is not the caller's own.
#[derive(Debug)]
pub enum Untrusted {
    /// The socket's directory could not be inspected (missing, unreadable).
    Inspect {
        /// The directory.
        dir: PathBuf,
        /// What the OS said.
        source: io::Error,
    },
    /// Something other than a directory sits where the directory should be.
    NotADirectory {
        /// The path.
        dir: PathBuf,
    },
    /// The directory (or the symbolic link standing for it) belongs to another user.
    ForeignOwner {
        /// The directory.
        dir: PathBuf,
        /// Its owner.
        owner: u32,
        /// The caller.
        uid: u32,
        /// It is a symbolic link that belongs to `owner`.
        symlink: bool,
    },
    /// The directory lets other users in (group or other permission bits).
    SharedMode {
        /// The directory.
        dir: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The peer's credentials could not be read.
    PeerUnknown(io::Error),
    /// The process behind the socket runs as another user.
    ForeignPeer {
        /// Its uid.
        peer_uid: u32,
        /// Its pid, as the kernel reported it.
        peer_pid: i32,
        /// The caller.
        uid: u32,
    },
}

impl Untrusted {
    /// What is wrong, without the directory's name (for messages that give it already).
    pub fn reason(&self) -> String {
        match self {
            Self::Inspect { source, .. } => format!("cannot inspect it: {source}"),
            Self::NotADirectory { .. } => "it is not a directory".to_owned(),
            Self::ForeignOwner {
                owner,
                uid,
                symlink: false,
                ..
            } => format!("it belongs to uid {owner}, not to you (uid {uid})"),
            Self::ForeignOwner {
                owner,
                uid,
                symlink: true,
                ..
            } => {
                format!("it is a symbolic link that belongs to uid {owner}, not to you (uid {uid})")
            }
            Self::SharedMode { dir, mode } => format!(
                "its mode is {mode:o}; other users could reach the socket (use a 0700 directory, e.g. `chmod 700 {}`)",
                dir.display()
            ),
            Self::PeerUnknown(source) => format!("cannot read the peer's credentials: {source}"),
            Self::ForeignPeer {
                peer_uid,
                peer_pid,
                uid,
            } => format!(
                "the process behind it (pid {peer_pid}) runs as uid {peer_uid}, not as you (uid {uid})"
            ),
        }
    }
}

impl fmt::Display for Untrusted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Inspect { dir, .. }
            | Self::NotADirectory { dir }
            | Self::ForeignOwner { dir, .. }
            | Self::SharedMode { dir, .. } => {
                write!(
                    f,
                    "untrusted socket directory {}: {}",
                    dir.display(),
                    self.reason()
                )
            }
            Self::PeerUnknown(_) | Self::ForeignPeer { .. } => {
                write!(f, "untrusted socket: {}", self.reason())
            }
        }
    }
}

impl std::error::Error for Untrusted {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Inspect { source, .. } | Self::PeerUnknown(source) => Some(source),
            _ => None,
        }
    }
}

/// The directory the socket at `socket` lives in (`.` for a bare file name).
pub fn socket_dir(socket: &Path) -> &Path {
    socket
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Checks that `dir` is a directory of the caller's that no other user can reach.
pub fn check_socket_dir(dir: &Path) -> Result<(), Untrusted> {
    let uid = rustix::process::getuid().as_raw();
    let inspect = |source| Untrusted::Inspect {
        dir: dir.to_path_buf(),
        source,
    };
    let link = std::fs::symlink_metadata(dir).map_err(inspect)?;
    if link.file_type().is_symlink() && link.uid() != uid {
        return Err(Untrusted::ForeignOwner {
            dir: dir.to_path_buf(),
            owner: link.uid(),
            uid,
            symlink: true,
        });
    }
    let meta = if link.file_type().is_symlink() {
        std::fs::metadata(dir).map_err(inspect)?
    } else {
        link
    };
    if !meta.is_dir() {
        return Err(Untrusted::NotADirectory {
            dir: dir.to_path_buf(),
        });
    }
    if meta.uid() != uid {
        return Err(Untrusted::ForeignOwner {
            dir: dir.to_path_buf(),
            owner: meta.uid(),
            uid,
            symlink: false,
        });
    }
    if meta.mode() & 0o077 != 0 {
        return Err(Untrusted::SharedMode {
            dir: dir.to_path_buf(),
            mode: meta.mode() & 0o777,
        });
    }
    Ok(())
}

/// Checks that the process on the other end of the connected Unix socket
/// `socket` runs as the caller's uid (`SO_PEERCRED`).
#[cfg(any(target_os = "linux", target_os = "android"))]
pub fn check_peer(socket: impl AsFd) -> Result<(), Untrusted> {
    let uid = rustix::process::getuid().as_raw();
    let cred = rustix::net::sockopt::socket_peercred(socket)
        .map_err(|err| Untrusted::PeerUnknown(err.into()))?;
    if cred.uid.as_raw() == uid {
        Ok(())
    } else {
        Err(Untrusted::ForeignPeer {
            peer_uid: cred.uid.as_raw(),
            peer_pid: cred.pid.as_raw_nonzero().get(),
            uid,
        })
    }
}

/// Checks that the process on the other end of `socket` runs as the caller.
///
/// Only Linux reports a peer's credentials this way; elsewhere the peer
/// cannot be verified, so it is refused rather than trusted blindly.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub fn check_peer(socket: impl AsFd) -> Result<(), Untrusted> {
    let _ = socket;
    Err(Untrusted::PeerUnknown(io::Error::new(
        io::ErrorKind::Unsupported,
        "SO_PEERCRED is not available on this platform",
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn a_private_directory_passes_and_a_shared_one_does_not() {
        let dir = tempfile::tempdir().unwrap();
        chmod(dir.path(), 0o700);
        check_socket_dir(dir.path()).unwrap();
        for mode in [0o755, 0o750, 0o701, 0o1777] {
            chmod(dir.path(), mode);
            let err = check_socket_dir(dir.path()).unwrap_err();
            assert!(
                matches!(err, Untrusted::SharedMode { .. }),
                "{mode:o}: {err}"
            );
            assert!(err.to_string().contains("chmod 700"), "{err}");
        }
    }

    #[test]
    fn a_file_or_a_missing_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "").unwrap();
        assert!(matches!(
            check_socket_dir(&file),
            Err(Untrusted::NotADirectory { .. })
        ));
        assert!(matches!(
            check_socket_dir(&dir.path().join("missing")),
            Err(Untrusted::Inspect { .. })
        ));
    }

    #[test]
    fn an_own_symlink_to_a_private_directory_passes() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real");
        std::fs::create_dir(&target).unwrap();
        chmod(&target, 0o700);
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        check_socket_dir(&link).unwrap();
        chmod(&target, 0o755);
        assert!(matches!(
            check_socket_dir(&link),
            Err(Untrusted::SharedMode { .. })
        ));
    }

    #[test]
    fn socket_dir_of_a_bare_name_is_the_current_directory() {
        assert_eq!(socket_dir(Path::new("hookd.sock")), Path::new("."));
        assert_eq!(socket_dir(Path::new("/r/hookd.sock")), Path::new("/r"));
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn a_peer_of_our_own_passes() {
        let (ours, _theirs) = std::os::unix::net::UnixStream::pair().unwrap();
        check_peer(&ours).unwrap();
    }
}
