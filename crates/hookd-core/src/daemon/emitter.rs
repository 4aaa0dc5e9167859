//! Whether the `hookd-emit` on the other end of a connection still waits.
//!
//! For a call the daemon takes a snapshot for ([`hookd_proto::snapshot`]),
//! `hookd-emit` holds the agent until the daemon closes the connection, so
//! the agent cannot change a file before the daemon read it. It holds it a
//! bounded time only: on a slow daemon it gives up, exits, and the agent
//! runs the tool. A file read after that may already hold the agent's
//! change, and recorded as the change's *before* it would make a revert
//! silently do nothing.
//!
//! The agent waits for the hook process to exit, and the exit closes the
//! process's end of the socket. So a read that finished while the emitter's
//! end was still open happened before the agent could act, and one that
//! finished after it closed may not have: the daemon asks once the read is
//! done ([`Emitter::gone`]) and records such a before as unknown. A
//! half-close is not a hang-up: `hookd-emit` shuts down its writing side as
//! soon as the line is sent and keeps reading. On a Unix stream socket
//! `POLLHUP` reports the peer's full close only.

use std::os::fd::{AsFd, OwnedFd};

use rustix::event::{PollFd, PollFlags, Timespec};

/// Why a before read after its emitter stopped waiting is not kept.
pub const GAVE_UP: &str = "hookd-emit stopped waiting before the daemon had read the file (the daemon was slow), so the agent may have changed it first";

/// Why a Bash snapshot taken after its emitter stopped waiting is not used
/// for the command's befores.
pub const GAVE_UP_BASH: &str = "hookd-emit stopped waiting before the daemon had recorded the repository's state (the daemon was slow), so the command may have run first";

/// The emitter end of one connection, watched through a duplicate of the
/// daemon's socket descriptor (so a blocking task may hold it).
#[derive(Debug)]
pub struct Emitter {
    socket: OwnedFd,
}

impl Emitter {
    /// Watches the peer of `socket`; `None` when the descriptor cannot be
    /// duplicated (out of descriptors), in which case callers treat the
    /// emitter as gone: a before the daemon cannot vouch for is not kept.
    pub fn of(socket: &impl AsFd) -> Option<Self> {
        match socket.as_fd().try_clone_to_owned() {
            Ok(socket) => Some(Self { socket }),
            Err(err) => {
                tracing::warn!(error = %err, "cannot watch an emitter's connection");
                None
            }
        }
    }

    /// Whether the emitter has closed its end (it exited, so the agent may
    /// be running the tool). Asked without waiting; an error in asking
    /// counts as gone.
    pub fn gone(&self) -> bool {
        let mut fds = [PollFd::new(&self.socket, PollFlags::empty())];
        let now = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        match rustix::event::poll(&mut fds, Some(&now)) {
            Ok(_) => fds[0]
                .revents()
                .intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL),
            Err(_) => true,
        }
    }
}

/// Whether a read done for `emitter` may be trusted as done before the
/// agent acted: the emitter was watched and has not gone.
pub fn still_waiting(emitter: Option<&Emitter>) -> bool {
    emitter.is_some_and(|emitter| !emitter.gone())
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;
    use std::net::Shutdown;
    use std::os::unix::net::UnixStream;

    use super::*;

    #[test]
    fn a_peer_that_only_stopped_writing_still_waits_and_one_that_closed_is_gone() {
        let (daemon, emitter) = UnixStream::pair().unwrap();
        let watched = Emitter::of(&daemon).unwrap();
        assert!(!watched.gone(), "an open peer");

        // What hookd-emit does once its line is sent.
        (&emitter).write_all(b"{}\n").unwrap();
        emitter.shutdown(Shutdown::Write).unwrap();
        assert!(!watched.gone(), "a half-closed peer still waits");
        assert!(still_waiting(Some(&watched)));

        // What its exit does.
        drop(emitter);
        assert!(watched.gone(), "a closed peer");
        assert!(!still_waiting(Some(&watched)));
        assert!(!still_waiting(None), "an unwatched peer is not vouched for");
    }

    #[test]
    fn the_watch_outlives_the_daemons_own_handle() {
        let (daemon, emitter) = UnixStream::pair().unwrap();
        let watched = Emitter::of(&daemon).unwrap();
        drop(daemon);
        assert!(!watched.gone(), "the duplicate keeps the socket open");
        drop(emitter);
        assert!(watched.gone());
    }
}
