//! The one error type every command returns, serialised as
//! `{"kind": "...", "message": "..."}` so the UI can branch on `kind` and show
//! `message` as is. Commands never return bare strings: a string cannot tell
//! the UI whether to highlight an input, retry, or report a bug.

use std::fmt;

use hookd_core::project::ProjectError;
use hookd_core::rewind::RewindError;
use hookd_core::settings::SettingsError;
use hookd_core::settings::connect::AgentConnectError;
use hookd_core::settings::templates::TemplateError;
use serde::Serialize;
use ts_rs::TS;

/// Result alias for the app's plain functions and commands.
pub type Result<T, E = AppError> = std::result::Result<T, E>;

/// What kind of failure, for the UI to branch on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// A path, project or ledger that does not exist.
    NotFound,
    /// The request itself is wrong (bad time, bad combination of fields, bad file content).
    InvalidInput,
    /// The file system refused (permissions, disk full, ...).
    Io,
    /// SQLite failed on a ledger or the registry.
    Database,
    /// Someone else holds the resource (a locked database, a socket in use); retrying may work.
    Busy,
    /// A file changed on disk since it was read; nothing was written.
    Conflict,
    /// A service the command needs is not there (autostart, the daemon).
    Unavailable,
    /// The user stopped the work before it finished (a test bench run).
    Cancelled,
    /// A bug or an unexpected failure.
    Internal,
}

impl ErrorKind {
    /// The name the UI sees.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotFound => "not_found",
            Self::InvalidInput => "invalid_input",
            Self::Io => "io",
            Self::Database => "database",
            Self::Busy => "busy",
            Self::Conflict => "conflict",
            Self::Unavailable => "unavailable",
            Self::Cancelled => "cancelled",
            Self::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error as the UI receives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error, TS)]
#[error("{kind}: {message}")]
pub struct AppError {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// A complete sentence for people, including the causes.
    pub message: String,
}

impl AppError {
    /// An error of `kind` with `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }

    /// A request the command cannot make sense of.
    pub fn invalid_input(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidInput, message)
    }

    /// Something that should not happen (a panicked task, a Tauri failure).
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Internal, message)
    }
}

/// `err` and its causes, joined the way `anyhow` prints `{:#}`, skipping a
/// cause whose text the previous message already ends with.
pub fn chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut message = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !text.is_empty() && !message.ends_with(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = cause.source();
    }
    message
}

impl From<hookd_core::Error> for AppError {
    fn from(err: hookd_core::Error) -> Self {
        Self::new(core_kind(&err), chain(&err))
    }
}

/// The kind of a core error.
fn core_kind(err: &hookd_core::Error) -> ErrorKind {
    use hookd_core::Error as E;
    match err {
        E::Io { source, .. } => io_kind(source),
        E::Sqlite { source, .. } => sqlite_kind(source),
        E::Migration { .. } => ErrorKind::Database,
        E::Git(_) => ErrorKind::Io,
        E::AlreadyRunning { .. } => ErrorKind::Busy,
        E::InsecureSocketDir { .. } | E::NotASocket(_) | E::UnsafePath(_) => ErrorKind::Io,
        E::NotARepository(_) | E::InvalidTime { .. } | E::InvalidPattern { .. } | E::Config(_) => {
            ErrorKind::InvalidInput
        }
        E::NoSuchPath(_) | E::NoLedger { .. } => ErrorKind::NotFound,
        E::NoHome => ErrorKind::Unavailable,
        E::Project(inner) => project_kind(inner),
        E::AgentConnect(inner) => agent_connect_kind(inner),
        E::Amqp(_) => ErrorKind::Unavailable,
        E::Settings(inner) => settings_kind(inner),
        // Same as the rewind's own store errors.
        E::Content(_) => ErrorKind::Io,
    }
}

impl From<RewindError> for AppError {
    fn from(err: RewindError) -> Self {
        let kind = match &err {
            RewindError::NoLedger { .. } | RewindError::NothingRecorded { .. } => {
                ErrorKind::NotFound
            }
            RewindError::NoSuchPoint { .. } | RewindError::NotRestorable { .. } => {
                ErrorKind::InvalidInput
            }
            // Both leave every file as it was; previewing again shows why.
            RewindError::Conflict { .. } | RewindError::ChangedSincePlan { .. } => {
                ErrorKind::Conflict
            }
            RewindError::Write { source, .. } => io_kind(source),
            RewindError::Store(_) | RewindError::Confined(_) | RewindError::Atomic(_) => {
                ErrorKind::Io
            }
            RewindError::Ledger(inner) => core_kind(inner),
        };
        Self::new(kind, chain(&err))
    }
}

impl From<AgentConnectError> for AppError {
    fn from(err: AgentConnectError) -> Self {
        AppError::from(hookd_core::Error::from(err))
    }
}

impl From<TemplateError> for AppError {
    fn from(err: TemplateError) -> Self {
        let kind = match &err {
            TemplateError::Parse(_) | TemplateError::Invalid { .. } => ErrorKind::Internal,
            TemplateError::Unknown { .. } => ErrorKind::NotFound,
            TemplateError::AgentOnly(_) | TemplateError::NoProject(_) => ErrorKind::InvalidInput,
            TemplateError::Settings(inner) => settings_kind(inner),
            TemplateError::Connect(inner) => agent_connect_kind(inner),
            TemplateError::Io { source, .. } => io_kind(source),
        };
        Self::new(kind, chain(&err))
    }
}

impl From<tauri::Error> for AppError {
    fn from(err: tauri::Error) -> Self {
        Self::internal(chain(&err))
    }
}

impl From<std::io::Error> for AppError {
    fn from(err: std::io::Error) -> Self {
        Self::new(io_kind(&err), chain(&err))
    }
}

fn io_kind(err: &std::io::Error) -> ErrorKind {
    match err.kind() {
        std::io::ErrorKind::NotFound => ErrorKind::NotFound,
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::ResourceBusy => ErrorKind::Busy,
        _ => ErrorKind::Io,
    }
}

fn sqlite_kind(err: &rusqlite::Error) -> ErrorKind {
    use rusqlite::ErrorCode;
    match err.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => ErrorKind::Busy,
        _ => ErrorKind::Database,
    }
}

fn agent_connect_kind(err: &AgentConnectError) -> ErrorKind {
    match err {
        AgentConnectError::Read { source, .. }
        | AgentConnectError::CreateDir { source, .. }
        | AgentConnectError::Remove { source, .. } => io_kind(source),
        AgentConnectError::Write(_) => ErrorKind::Io,
        AgentConnectError::Changed { .. } => ErrorKind::Conflict,
        AgentConnectError::Parse { .. }
        | AgentConnectError::ParseToml { .. }
        | AgentConnectError::Shape { .. }
        | AgentConnectError::OutOfProject { .. }
        | AgentConnectError::EmitCommand(_) => ErrorKind::InvalidInput,
    }
}

fn project_kind(err: &ProjectError) -> ErrorKind {
    match err {
        ProjectError::Unreadable { source, .. } => io_kind(source),
        ProjectError::NotADirectory(_) => ErrorKind::InvalidInput,
    }
}

fn settings_kind(err: &SettingsError) -> ErrorKind {
    match err {
        SettingsError::Io { source, .. } => io_kind(source),
        SettingsError::Write(_) | SettingsError::Store { .. } => ErrorKind::Io,
        SettingsError::ChangedOnDisk { .. } => ErrorKind::Conflict,
        SettingsError::NotFound { .. } => ErrorKind::NotFound,
        SettingsError::NoHome => ErrorKind::Unavailable,
        _ => ErrorKind::InvalidInput,
    }
}

/// A core error of any module as the UI gets it (kind from the core's classification).
pub fn core(err: impl Into<hookd_core::Error>) -> AppError {
    AppError::from(err.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn serialises_as_kind_and_message() {
        let err = AppError::invalid_input("since: bad time");
        assert_eq!(
            serde_json::to_value(&err).unwrap(),
            serde_json::json!({"kind": "invalid_input", "message": "since: bad time"})
        );
    }

    #[test]
    fn core_errors_keep_their_causes_and_get_a_kind() {
        let io = hookd_core::Error::io(
            "cannot read",
            "/x/y",
            std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        );
        let err = AppError::from(io);
        assert_eq!(err.kind, ErrorKind::Io);
        assert!(
            err.message.starts_with("cannot read /x/y: "),
            "{}",
            err.message
        );

        let cases = [
            (
                hookd_core::Error::NoSuchPath(PathBuf::from("/nope")),
                "not_found",
            ),
            (
                hookd_core::Error::InvalidTime {
                    input: "soon".into(),
                },
                "invalid_input",
            ),
            (
                hookd_core::Error::AlreadyRunning {
                    socket: PathBuf::from("/s"),
                    pid: Some(7),
                },
                "busy",
            ),
            (
                hookd_core::Error::NotARepository(PathBuf::from("/tmp")),
                "invalid_input",
            ),
        ];
        for (core, kind) in cases {
            let value = serde_json::to_value(AppError::from(core)).unwrap();
            assert_eq!(value["kind"], kind, "{value}");
            assert!(value["message"].as_str().is_some_and(|m| !m.is_empty()));
            assert_eq!(value.as_object().unwrap().len(), 2, "{value}");
        }
    }

    #[test]
    fn a_locked_database_is_busy() {
        let locked = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
            Some("database is locked".into()),
        );
        let err = AppError::from(hookd_core::Error::sqlite("/r/.hookd/mutations.db", locked));
        assert_eq!(err.kind, ErrorKind::Busy);
        assert!(
            err.message.contains("database is locked"),
            "{}",
            err.message
        );
    }
}
