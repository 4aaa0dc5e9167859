//! One settings file, loaded for reading or editing and saved back safely.
//!
//! A document remembers the exact bytes it was read from (or that the file
//! did not exist), so a save can tell whether someone else (the agent's own
//! `/hooks` editor, the user's editor, another hookd) changed the file in the
//! meantime and refuse instead of silently overwriting their change. It also
//! remembers the file's formatting, so a save only differs where the content
//! changed. A save is validated first and goes through
//! [`crate::fs_atomic`] with a backup, so it can neither truncate the file
//! nor leave something the agent would reject.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::fs_atomic::{self, WriteOutcome};
use crate::state_dir::{GITIGNORE, GitignoreNeed, keep_gitignore};

use super::error::{Result, SettingsError};
use super::format::{self, Format};
use super::location::{Kind, MANAGED_PROJECT_DIR, Scope, SettingsLocation};
use super::trust::{self, TrustStore};
use super::validate::{ValidationError, validate};

/// A settings file as loaded: its parsed JSON (key order preserved), the
/// bytes it came from and its formatting.
#[derive(Debug, Clone)]
pub struct SettingsDocument {
    location: SettingsLocation,
    value: Value,
    original: Option<Vec<u8>>,
    format: Format,
}

impl SettingsDocument {
    /// Reads and parses the file at `location`. A missing file is an empty
    /// object (remembered as missing); invalid JSON is an error and the file
    /// is left alone. The content is not validated here: see
    /// [`SettingsDocument::errors`].
    pub fn load(location: &SettingsLocation) -> Result<Self> {
        let original = read_if_exists(&location.path)?;
        let (value, format) = match &original {
            None => (Value::Object(Map::new()), Format::default()),
            Some(bytes) => format::parse(bytes).map_err(|e| parse_error(&location.path, &e))?,
        };
        Ok(Self {
            location: location.clone(),
            value,
            original,
            format,
        })
    }

    /// Reads any file as a document of its own, for checking (`hookd hooks
    /// validate FILE`): its location is marked read-only, since it may not
    /// be a settings file at all. A missing file is an error here, since it
    /// was named explicitly.
    pub fn load_file(path: &Path) -> Result<Self> {
        let location = SettingsLocation {
            kind: Kind::Agent,
            scope: Scope::Global,
            path: path.to_path_buf(),
            read_only: true,
            trust_store: None,
        };
        let doc = Self::load(&location)?;
        if doc.original.is_none() {
            return Err(SettingsError::io(
                "cannot read",
                path,
                io::Error::from(io::ErrorKind::NotFound),
            ));
        }
        Ok(doc)
    }

    /// Where the document was loaded from.
    pub fn location(&self) -> &SettingsLocation {
        &self.location
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.location.path
    }

    /// The parsed content.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The content, for edits (the edit functions in [`super::edit`] keep
    /// everything they do not touch in place).
    pub fn value_mut(&mut self) -> &mut Value {
        &mut self.value
    }

    /// The exact bytes read; `None` when the file did not exist.
    pub fn original_bytes(&self) -> Option<&[u8]> {
        self.original.as_deref()
    }

    /// The version token of the bytes read ([`super::version`]).
    pub fn version(&self) -> String {
        super::version::version_token(self.original_bytes())
    }

    /// True when the file was read with the bytes `token` stands for: the
    /// editor that holds `token` saw exactly this file.
    pub fn is_version(&self, token: &str) -> bool {
        self.version() == token
    }

    /// True when the file existed when loaded.
    pub fn existed(&self) -> bool {
        self.original.is_some()
    }

    /// The formatting a save reproduces.
    pub fn format(&self) -> &Format {
        &self.format
    }

    /// Every validation problem of the current content.
    pub fn errors(&self) -> Vec<ValidationError> {
        validate(&self.value)
    }

    /// The bytes a save would write.
    pub fn render(&self) -> Result<Vec<u8>> {
        format::render(&self.value, &self.format).map_err(|e| SettingsError::Parse {
            path: self.location.path.clone(),
            message: format!("cannot serialise: {e}"),
        })
    }

    /// Validates the content and writes it back atomically (with a
    /// `.hookd-backup` of the previous file), in the original formatting.
    ///
    /// Refuses, writing nothing: a read-only location; invalid content (with
    /// every error); and, unless `force`, a file whose bytes changed on disk
    /// since [`SettingsDocument::load`] (also one that appeared or
    /// disappeared). A document is saved once: load it again to edit further.
    /// Creating `<project>/.hookd/settings.json` also lets it into git (see
    /// [`SHARED_GITIGNORE`](crate::state_dir::SHARED_GITIGNORE)).
    pub fn save(&self, force: bool) -> Result<WriteOutcome> {
        let path = &self.location.path;
        if self.location.read_only {
            return Err(SettingsError::ReadOnly { path: path.clone() });
        }
        let errors = self.errors();
        if !errors.is_empty() {
            return Err(SettingsError::Invalid {
                path: path.clone(),
                errors,
            });
        }
        let bytes = self.render()?;
        if !force && read_if_exists(path)? != self.original {
            return Err(SettingsError::ChangedOnDisk { path: path.clone() });
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            self.prepare_dir(dir)?;
        }
        let keeps_approval = self.keeps_approval()?;
        let outcome = fs_atomic::write_atomic(path, &bytes, true)?;
        if let (Some(store), true) = (&self.location.trust_store, keeps_approval) {
            // Saving through hookd is an approval of what it wrote, when the
            // user had approved what was there (or there was nothing to
            // approve). Failing here leaves the file untrusted: safe, and said.
            if let Err(err) = TrustStore::new(store).approve(path, &bytes) {
                tracing::warn!(file = %path.display(), error = %err, "saved, but cannot record the approval; run `hookd trust`");
            }
        }
        Ok(outcome)
    }

    /// For a file whose hooks run only once approved: whether what is on
    /// disk now is approved, absent, or runs nothing, so that the content
    /// this save writes may inherit the approval. Another party's
    /// unapproved hooks never become approved by an unrelated edit.
    fn keeps_approval(&self) -> Result<bool> {
        let Some(store) = &self.location.trust_store else {
            return Ok(false);
        };
        let Some(current) = read_if_exists(&self.location.path)? else {
            return Ok(true);
        };
        let runs_nothing = format::parse(&current).ok().is_some_and(|(value, _)| {
            value
                .get("hooks")
                .is_none_or(|h| h.as_object().is_none_or(serde_json::Map::is_empty))
        });
        if runs_nothing {
            return Ok(true);
        }
        let approved = TrustStore::new(store).load()?;
        Ok(trust::trust_in(&approved, &self.location.path, Some(&current)).allows_running())
    }

    /// Creates the file's directory if needed and, for hookd's project
    /// directory, keeps its `.gitignore` right: a new `.hookd/` gets
    /// [`SHARED_GITIGNORE`](crate::state_dir::SHARED_GITIGNORE), creating the shared `settings.json` opens up
    /// hookd's ledger-only `*`, and an older hookd-written version is
    /// upgraded. A `.gitignore` the user wrote is left alone.
    fn prepare_dir(&self, dir: &Path) -> Result<()> {
        let hookd_dir = self.location.kind == Kind::Managed
            && self.location.scope.is_project()
            && dir.file_name().is_some_and(|n| n == MANAGED_PROJECT_DIR);
        if !dir.is_dir() {
            fs::create_dir_all(dir)
                .map_err(|e| SettingsError::io("cannot create directory", dir, e))?;
            if hookd_dir {
                // Like the ledger does for a new `.hookd/`, so a ledger created
                // later in this directory is never committed either.
                keep_gitignore(dir, GitignoreNeed::Shared)?;
            }
            return Ok(());
        }
        if hookd_dir {
            // Opening up a ledger-only `.gitignore` only when the shared
            // file is created; upgrading an older hookd-written one always.
            let need = if self.location.scope == Scope::Project && !self.existed() {
                GitignoreNeed::Shared
            } else {
                GitignoreNeed::Current
            };
            if dir.join(GITIGNORE).exists() {
                keep_gitignore(dir, need)?;
            }
        }
        Ok(())
    }
}

/// The file's bytes, or `None` when it does not exist.
pub(crate) fn read_if_exists(path: &Path) -> Result<Option<Vec<u8>>> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(SettingsError::io("cannot read", path, e)),
    }
}

pub(crate) fn parse_error(path: &Path, err: &serde_json::Error) -> SettingsError {
    SettingsError::Parse {
        path: PathBuf::from(path),
        message: err.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state_dir::{PREVIOUS_SHARED_GITIGNORES, SHARED_GITIGNORE};

    fn loc(path: &Path, kind: Kind, scope: Scope) -> SettingsLocation {
        SettingsLocation {
            kind,
            scope,
            path: path.to_path_buf(),
            read_only: scope == Scope::Policy,
            trust_store: None,
        }
    }

    #[test]
    fn saving_local_settings_upgrades_a_previous_shared_gitignore() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(".hookd");
        fs::create_dir(&dir).unwrap();
        let ignore = dir.join(".gitignore");
        fs::write(&ignore, PREVIOUS_SHARED_GITIGNORES[0]).unwrap();
        let local = dir.join("settings.local.json");
        SettingsDocument::load(&loc(&local, Kind::Managed, Scope::Local))
            .unwrap()
            .save(false)
            .unwrap();
        assert_eq!(fs::read_to_string(&ignore).unwrap(), SHARED_GITIGNORE);
    }

    #[test]
    fn save_refuses_read_only_and_changed_files() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s.json");
        fs::write(&path, "{}").unwrap();
        let doc = SettingsDocument::load(&loc(&path, Kind::Agent, Scope::Policy)).unwrap();
        assert!(matches!(
            doc.save(true),
            Err(SettingsError::ReadOnly { .. })
        ));

        let doc = SettingsDocument::load(&loc(&path, Kind::Agent, Scope::Global)).unwrap();
        fs::write(&path, "{ }").unwrap();
        assert!(matches!(
            doc.save(false),
            Err(SettingsError::ChangedOnDisk { .. })
        ));
        doc.save(true).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "{}");
    }

    #[test]
    fn a_file_that_appeared_counts_as_changed() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("d/s.json");
        let doc = SettingsDocument::load(&loc(&path, Kind::Agent, Scope::Global)).unwrap();
        assert!(!doc.existed());
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, "{\"a\": 1}").unwrap();
        let err = doc.save(false).unwrap_err();
        assert!(
            err.to_string()
                .contains("changed on disk since it was read"),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"a\": 1}");
    }

    #[test]
    fn new_hookd_dir_gets_a_gitignore_and_ledger_only_one_is_opened_up() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(".hookd/settings.local.json");
        let doc = SettingsDocument::load(&loc(&path, Kind::Managed, Scope::Local)).unwrap();
        doc.save(false).unwrap();
        let ignore = tmp.path().join(".hookd/.gitignore");
        assert_eq!(fs::read_to_string(&ignore).unwrap(), SHARED_GITIGNORE);

        let other = tempfile::tempdir().unwrap();
        fs::create_dir(other.path().join(".hookd")).unwrap();
        let ignore = other.path().join(".hookd/.gitignore");
        fs::write(
            &ignore,
            "# hookd's ledger: local history, never committed.\n*\n",
        )
        .unwrap();
        let local = other.path().join(".hookd/settings.local.json");
        SettingsDocument::load(&loc(&local, Kind::Managed, Scope::Local))
            .unwrap()
            .save(false)
            .unwrap();
        assert!(
            fs::read_to_string(&ignore).unwrap().ends_with("\n*\n"),
            "local leaves it"
        );
        let shared = other.path().join(".hookd/settings.json");
        SettingsDocument::load(&loc(&shared, Kind::Managed, Scope::Project))
            .unwrap()
            .save(false)
            .unwrap();
        assert_eq!(fs::read_to_string(&ignore).unwrap(), SHARED_GITIGNORE);

        // A .gitignore of the user's own is kept as it is.
        let third = tempfile::tempdir().unwrap();
        fs::create_dir(third.path().join(".hookd")).unwrap();
        let ignore = third.path().join(".hookd/.gitignore");
        fs::write(&ignore, "mutations.db\n").unwrap();
        let shared = third.path().join(".hookd/settings.json");
        SettingsDocument::load(&loc(&shared, Kind::Managed, Scope::Project))
            .unwrap()
            .save(false)
            .unwrap();
        assert_eq!(fs::read_to_string(&ignore).unwrap(), "mutations.db\n");
    }
}
