//! The core's one error type, so callers (the CLI, the desktop app)
//! can branch on what went wrong instead of parsing strings.

use std::path::PathBuf;

/// Result alias used throughout `hookd-core`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in hookd's core.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file-system operation failed on a known path.
    #[error("{action} {path}")]
    Io {
        /// What was being done, e.g. "cannot create directory".
        action: &'static str,
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// SQLite refused an operation on a ledger or the registry.
    #[error("database {path}")]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: rusqlite::Error,
    },
    /// A ledger's directory or file is not one hookd may write: a symbolic
    /// link, not a directory, owned by someone else.
    #[error(transparent)]
    UnsafePath(#[from] crate::state_dir::UnsafePath),
    /// A database could not be brought to the current schema.
    #[error("database {path}: schema migration failed")]
    Migration {
        /// The database file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: rusqlite_migration::Error,
    },
    /// libgit2 failed while reading a repository.
    #[error("git: {0}")]
    Git(#[from] git2::Error),
    /// Another daemon already answers on the socket.
    #[error(
        "a hookd daemon is already running on {socket}{}; stop it first or pick another socket with --socket / HOOKD_SOCKET",
        pid.map(|p| format!(" (pid {p})")).unwrap_or_default()
    )]
    AlreadyRunning {
        /// The socket that answered.
        socket: PathBuf,
        /// PID recorded beside it, when readable.
        pid: Option<u32>,
    },
    /// The socket's directory could be reached by other users.
    #[error("refusing to use socket directory {path}: {reason}")]
    InsecureSocketDir {
        /// The directory.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// Something that is not a socket sits where the socket should be.
    #[error("{0} exists and is not a socket; refusing to remove it")]
    NotASocket(PathBuf),
    /// A directory given as a repository is not inside a git work tree.
    #[error("{0} is not inside a git repository")]
    NotARepository(PathBuf),
    /// A path given on the command line does not exist.
    #[error("{0} does not exist")]
    NoSuchPath(PathBuf),
    /// A repository has no ledger yet.
    #[error(
        "no ledger for {repo}: {ledger} does not exist (no events recorded yet: is `hookd daemon` running and the agent connected with `hookd connect`?)"
    )]
    NoLedger {
        /// The repository's root.
        repo: PathBuf,
        /// Where its ledger would be.
        ledger: PathBuf,
    },
    /// A time or duration given on the command line could not be read.
    #[error(
        "invalid time {input:?}: expected a duration such as 30m, 1h, 2d or an RFC 3339 time such as 2026-11-21T10:00:00Z"
    )]
    InvalidTime {
        /// What the user wrote.
        input: String,
    },
    /// A filter given as a glob that is not one.
    #[error("invalid pattern {pattern:?}: {reason}")]
    InvalidPattern {
        /// What the user wrote.
        pattern: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No home directory to put per-user files in.
    #[error("cannot find the home directory: $HOME is not set")]
    NoHome,
    /// A directory given as a project cannot be one.
    #[error(transparent)]
    Project(#[from] crate::project::ProjectError),
    /// Editing the agent's settings failed.
    #[error(transparent)]
    AgentConnect(#[from] crate::settings::connect::AgentConnectError),
    /// Publishing to or consuming from the broker failed. The broker
    /// client's own error is the source; the shared error type names no
    /// broker type, so a build without the `amqp` feature has the same enum.
    #[error(transparent)]
    Amqp(Box<dyn std::error::Error + Send + Sync + 'static>),
    /// hookd's own configuration is unusable.
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    /// Reading, validating or writing hook settings failed.
    #[error(transparent)]
    Settings(#[from] crate::settings::SettingsError),
    /// A repository's content store could not keep or give a content.
    #[error(transparent)]
    Content(#[from] crate::ledger::content_store::ContentError),
}

impl Error {
    /// Wraps an I/O error with what was being done and where.
    pub fn io(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            action,
            path: path.into(),
            source,
        }
    }

    /// Wraps a SQLite error with the database it came from.
    pub fn sqlite(path: impl Into<PathBuf>, source: rusqlite::Error) -> Self {
        Self::Sqlite {
            path: path.into(),
            source,
        }
    }
}

/// An error followed by every cause in its `source()` chain, for logs and
/// messages: `database /r/.hookd/mutations.db: attempt to write a readonly
/// database`, where the error alone says only `database /r/.hookd/mutations.db`.
/// A cause that only repeats the one before it (SQLite's message, then the
/// same message behind its error code) is left out.
pub struct ErrorChain<'a>(pub &'a (dyn std::error::Error + 'static));

impl std::fmt::Display for ErrorChain<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut previous = self.0.to_string();
        f.write_str(&previous)?;
        let mut cause = self.0.source();
        while let Some(err) = cause {
            let text = err.to_string();
            if !text.is_empty() && !previous.contains(&text) && !text.contains(&previous) {
                write!(f, ": {text}")?;
            }
            previous = text;
            cause = err.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_names_every_cause_once() {
        let inner = std::io::Error::other("No space left on device");
        let err = Error::io("cannot write", "/r/.hookd/mutations.db", inner);
        assert_eq!(
            ErrorChain(&err).to_string(),
            "cannot write /r/.hookd/mutations.db: No space left on device"
        );
        let sqlite = rusqlite::Connection::open_in_memory()
            .unwrap()
            .execute_batch("PRAGMA query_only=1; CREATE TABLE t(x)")
            .unwrap_err();
        let err = Error::sqlite("/r/.hookd/mutations.db", sqlite);
        let text = ErrorChain(&err).to_string();
        assert!(
            text.starts_with("database /r/.hookd/mutations.db: "),
            "{text}"
        );
        assert!(text.contains("readonly"), "{text}");
        assert_eq!(text.matches("readonly").count(), 1, "said once: {text}");
    }
}
