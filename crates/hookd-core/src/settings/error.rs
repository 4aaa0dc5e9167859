//! Everything that can go wrong while reading, checking or editing hook
//! settings, as one enum so the CLI and the daemon can tell a refused edit
//! (changed on disk, read-only, invalid) from a broken disk.
//!
//! Messages never repeat the underlying error; it is exposed as `source()`
//! so a chain printer (`{:#}` in anyhow) shows it exactly once.

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::fs_atomic::FsAtomicError;
use crate::settings::matcher::MatcherError;

use super::validate::ValidationError;

/// Result alias for the settings module.
pub type Result<T, E = SettingsError> = std::result::Result<T, E>;

/// Errors from the settings model.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// No home directory to find the global files in.
    #[error("cannot find the home directory: $HOME is not set")]
    NoHome,
    /// A file-system operation failed on a known path.
    #[error("{action} {path}")]
    Io {
        /// What was being done, e.g. "cannot read".
        action: &'static str,
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// Writing a file (or its backup) failed.
    #[error(transparent)]
    Write(#[from] FsAtomicError),
    /// A file is not valid JSON; it is left alone.
    #[error("{path}: not valid JSON: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// Where and why parsing failed (line and column).
        message: String,
    },
    /// A settings document has problems the agent would reject.
    #[error("{path} is not valid hook settings: {}", ErrorList(errors))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Every problem found, each with its JSON path.
        errors: Vec<ValidationError>,
    },
    /// The file was changed by someone else between reading and writing.
    #[error("{path} changed on disk since it was read; nothing was written")]
    ChangedOnDisk {
        /// The file.
        path: PathBuf,
    },
    /// The location is read-only for hookd (managed policy settings).
    #[error("{path} is managed policy settings and read-only; hookd never writes it")]
    ReadOnly {
        /// The file.
        path: PathBuf,
    },
    /// An edit's selector matched no hook.
    #[error("no {what} in {path}")]
    NotFound {
        /// The file searched.
        path: PathBuf,
        /// What was looked for, e.g. `PreToolUse hook with command "x"`.
        what: String,
    },
    /// An event name that is not in the catalogue.
    #[error("unknown event {name:?}{}", suggestion.map(|s| format!(" (did you mean {s}?)")).unwrap_or_default())]
    UnknownEvent {
        /// The name given.
        name: String,
        /// The closest known event, if any is close.
        suggestion: Option<&'static str>,
    },
    /// A matcher that does not parse (an invalid regex). The message is
    /// complete in itself (pattern, position, reason), so it is not a source.
    #[error("invalid matcher: {0}")]
    Matcher(MatcherError),
    /// The handler is already in the group it would be added to.
    #[error("{path} already has this {event} hook (command {command:?}) in that matcher group")]
    Duplicate {
        /// The file.
        path: PathBuf,
        /// The event.
        event: String,
        /// The command (or the handler's JSON for other types).
        command: String,
    },
    /// hookd's own store of disabled hooks cannot be used.
    #[error("{path}: {message}")]
    Store {
        /// The store file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// hookd kept no earlier version of this file.
    #[error("hookd kept no backup of {path} (it keeps one each time it writes the file)")]
    NoBackup {
        /// The file.
        path: PathBuf,
    },
    /// The version asked for is not kept.
    #[error("{path} has {kept} kept version(s); there is no version {nth} (1 is the newest)")]
    NoSuchBackup {
        /// The file.
        path: PathBuf,
        /// The version asked for.
        nth: usize,
        /// How many are kept.
        kept: usize,
    },
    /// The file now leads somewhere else than where its backup came from
    /// (a symbolic link changed): nothing is written through it.
    #[error("{path} now leads to {now}, not to {kept} whose backup this is; nothing was written")]
    BackupElsewhere {
        /// The file.
        path: PathBuf,
        /// The file the backup was taken of.
        kept: PathBuf,
        /// Where the path leads now.
        now: PathBuf,
    },
    /// A kind name that is not agent or managed.
    #[error("unknown kind {0:?}: expected agent or managed")]
    UnknownKind(String),
    /// A scope name that is not global, project, local or policy.
    #[error("unknown scope {0:?}: expected global, project, local or policy")]
    UnknownScope(String),
    /// A project scope was asked for without a project directory.
    #[error("the {0} scope needs a project directory")]
    NoProject(&'static str),
    /// A scope another agent's settings do not have (Gemini CLI has no
    /// local file).
    #[error("{agent} has no {scope} settings file hookd writes: use {expected}")]
    NoSuchScope {
        /// The agent.
        agent: &'static str,
        /// The scope asked for.
        scope: &'static str,
        /// The scopes it has.
        expected: &'static str,
    },
}

impl SettingsError {
    /// Wraps an I/O error with what was being done and where.
    pub fn io(action: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Self {
        Self::Io {
            action,
            path: path.into(),
            source,
        }
    }
}

impl From<MatcherError> for SettingsError {
    fn from(err: MatcherError) -> Self {
        Self::Matcher(err)
    }
}

/// Validation errors on one line: the CLI prints one line per failure.
struct ErrorList<'a>(&'a [ValidationError]);

impl fmt::Display for ErrorList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.len() {
            0 => f.write_str("invalid settings"),
            1 => write!(f, "{}", self.0[0]),
            n => {
                write!(f, "{n} problems: ")?;
                for (i, error) in self.0.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{error}")?;
                }
                Ok(())
            }
        }
    }
}
