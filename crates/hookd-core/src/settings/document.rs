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
//!
//! Every write holds the file's [`SettingsLock`] (see
//! [`crate::fs_atomic::lock`]) from the comparison to the rename, so two
//! hookd writers never both win. An edit that should apply to whatever the
//! file holds now, rather than be refused when it changed, loads it under
//! the lock too: [`SettingsDocument::update`]. A project or local file whose
//! path leads out of the project through a symbolic link is never written
//! (see [`crate::fs_atomic::confine`]).

use std::cell::Cell;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::fs_atomic::{self, DirLock, FsAtomicError, LOCK_WAIT, LockError, WriteOutcome, confine};
use crate::state_dir::{GITIGNORE, GitignoreNeed, keep_gitignore};

use super::backups::BackupStore;
use super::containers::KeptContainers;
use super::error::{Result, SettingsError};
use super::format::{self, Format};
use super::location::{Kind, MANAGED_PROJECT_DIR, Scope, SettingsLocation};
use super::trust::{self, TrustStore};
use super::validate::{BadMatcher, ValidationError, bad_matchers, validate};

/// A settings file as loaded: its parsed JSON (key order preserved), the
/// bytes it came from and its formatting.
#[derive(Debug, Clone)]
pub struct SettingsDocument {
    location: SettingsLocation,
    value: Value,
    original: Option<Vec<u8>>,
    /// `original` parsed (`{}` when there was no file): what a save is
    /// compared with.
    loaded: Value,
    format: Format,
}

impl SettingsDocument {
    /// Reads and parses the file at `location`. A missing file is an empty
    /// object (remembered as missing); invalid JSON is an error and the file
    /// is left alone. The content is not validated here: see
    /// [`SettingsDocument::errors`].
    pub fn load(location: &SettingsLocation) -> Result<Self> {
        let original = read_if_exists(&location.path)?;
        Self::parse(location, original).map_err(|e| parse_error(&location.path, &e))
    }

    /// The document of `original` (the file's bytes, `None`: missing) as if
    /// loaded from `location`; a JSON error is returned as is.
    pub(crate) fn parse(
        location: &SettingsLocation,
        original: Option<Vec<u8>>,
    ) -> std::result::Result<Self, serde_json::Error> {
        let (value, format) = match &original {
            None => (Value::Object(Map::new()), Format::default()),
            Some(bytes) => format::parse_with(bytes, location.comments)?,
        };
        Ok(Self {
            location: location.clone(),
            loaded: value.clone(),
            value,
            original,
            format,
        })
    }

    /// Loads the file at `location` under its lock, applies `edit` and
    /// saves the result before letting go, so an edit made at the same
    /// moment by another hookd is neither lost nor refused: it is applied
    /// before or after this one. `force` only matters for a writer that does
    /// not take the lock (the agent's own editor) changing the file between
    /// the load and the rename: without it that is
    /// [`SettingsError::ChangedOnDisk`]. Nothing is written when `edit`
    /// fails.
    pub fn update<T, E>(
        location: &SettingsLocation,
        force: bool,
        edit: impl FnOnce(&mut Self) -> std::result::Result<T, E>,
    ) -> std::result::Result<(T, WriteOutcome), E>
    where
        E: From<SettingsError>,
    {
        let lock = SettingsLock::acquire(location)?;
        let mut doc = lock.load()?;
        let out = edit(&mut doc)?;
        let written = lock.save(&doc, force)?;
        Ok((out, written))
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
            kept_store: None,
            backup_store: None,
            comments: false,
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

    /// What the agent accepts but a user should know: groups whose matcher
    /// is not a valid pattern, which never match ([`BadMatcher`]).
    pub fn warnings(&self) -> Vec<ValidationError> {
        bad_matchers(&self.value)
            .iter()
            .map(BadMatcher::warning)
            .collect()
    }

    /// What keeps `value` from being saved in this file: every validation
    /// error, and each matcher that is no valid pattern and that the file
    /// as read did not already have (a save never adds one).
    pub fn refusals(&self, value: &Value) -> Vec<ValidationError> {
        let mut errors = validate(value);
        errors.extend(self.new_bad_matchers(value));
        errors
    }

    fn new_bad_matchers(&self, value: &Value) -> Vec<ValidationError> {
        let had: std::collections::HashSet<String> = bad_matchers(&self.loaded)
            .into_iter()
            .map(|b| b.text)
            .collect();
        bad_matchers(value)
            .iter()
            .filter(|bad| !had.contains(&bad.text))
            .map(BadMatcher::refusal)
            .collect()
    }

    /// The bytes a save would write: the content over the original bytes,
    /// with the user's empty containers this edit emptied kept
    /// ([`super::containers`]).
    pub fn render(&self) -> Result<Vec<u8>> {
        self.render_value(&self.to_write()?)
    }

    /// The value a save writes: the content, plus the user's empty
    /// containers it dropped ([`KeptContainers::keep`]).
    fn to_write(&self) -> Result<Value> {
        let mut value = self.value.clone();
        if let Some(store) = &self.location.kept_store
            && let Err(err) =
                KeptContainers::new(store).keep(&self.location.path, &self.loaded, &mut value)
        {
            // An unreadable record never blocks a save: the emptied
            // containers are dropped, as without one.
            tracing::warn!(file = %self.location.path.display(), error = %err, "cannot read the record of kept empty containers");
        }
        Ok(value)
    }

    fn render_value(&self, value: &Value) -> Result<Vec<u8>> {
        format::render_patched(self.original.as_deref(), &self.loaded, value, &self.format).map_err(
            |e| SettingsError::Parse {
                path: self.location.path.clone(),
                message: format!("cannot serialise: {e}"),
            },
        )
    }

    /// Validates the content and writes it back atomically (with a
    /// `.hookd-backup` of the previous file), in the original formatting,
    /// holding the file's [`SettingsLock`] from the comparison to the rename.
    ///
    /// Refuses, writing nothing: a read-only location; invalid content (with
    /// every error); a project or local file whose path leads out of the
    /// project; and, unless `force`, a file whose bytes changed on disk
    /// since [`SettingsDocument::load`] (also one that appeared or
    /// disappeared) — the token an editor kept ([`Self::is_version`]) is
    /// thereby checked under the lock too. A document is saved once: load
    /// it again to edit further. Creating `<project>/.hookd/settings.json`
    /// also lets it into git (see
    /// [`SHARED_GITIGNORE`](crate::state_dir::SHARED_GITIGNORE)).
    pub fn save(&self, force: bool) -> Result<WriteOutcome> {
        self.check()?;
        SettingsLock::acquire(&self.location)?.save(self, force)
    }

    /// The refusals that need no file-system access: read-only, invalid.
    fn check(&self) -> Result<()> {
        if self.location.read_only {
            return Err(SettingsError::ReadOnly {
                path: self.location.path.clone(),
            });
        }
        let errors = self.refusals(&self.value);
        if !errors.is_empty() {
            return Err(SettingsError::Invalid {
                path: self.location.path.clone(),
                errors,
            });
        }
        Ok(())
    }
}

/// A settings file held for writing: while it lives, no other hookd process
/// writes the file (they wait for it), so what is loaded through it and
/// saved through it is a read-modify-write nobody else's write can slip
/// into. Taking it refuses a read-only location and a project or local path
/// that leads out of the project, and creates the file's directory if
/// needed (removed again when nothing was written).
#[derive(Debug)]
pub struct SettingsLock {
    location: SettingsLocation,
    /// What is read and written: the path with its symbolic links followed.
    target: PathBuf,
    /// The directory this lock created, if it did.
    created_dir: Option<PathBuf>,
    written: Cell<bool>,
    lock: DirLock,
}

impl SettingsLock {
    /// Takes the lock of the file at `location`, waiting for another writer
    /// up to [`LOCK_WAIT`] (then a clear refusal naming the file).
    pub fn acquire(location: &SettingsLocation) -> Result<Self> {
        let path = &location.path;
        if location.read_only {
            return Err(SettingsError::ReadOnly { path: path.clone() });
        }
        let target = match location.project_root() {
            Some(root) => confine::resolve_within(root, path).map_err(FsAtomicError::from)?,
            None => fs_atomic::resolve_symlinks(path)
                .map_err(|e| SettingsError::io("cannot read", path, e))?,
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        // A directory another writer made, then removed again when its edit
        // was refused, is made again (a few times at most).
        let mut attempts = 0;
        let (created_dir, lock) = loop {
            attempts += 1;
            let created_dir = if dir.is_dir() {
                None
            } else {
                fs::create_dir_all(&dir)
                    .map_err(|e| SettingsError::io("cannot create directory", &dir, e))?;
                Some(dir.clone())
            };
            match DirLock::acquire(&dir, path, LOCK_WAIT) {
                Ok(lock) => break (created_dir, lock),
                Err(e) => {
                    if let Some(dir) = &created_dir {
                        let _ = fs::remove_dir(dir);
                    }
                    let gone = matches!(&e, LockError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound);
                    if !gone || attempts >= 5 {
                        return Err(FsAtomicError::from(e).into());
                    }
                }
            }
        };
        Ok(Self {
            location: location.clone(),
            target,
            created_dir,
            written: Cell::new(false),
            lock,
        })
    }

    /// The file held.
    pub fn location(&self) -> &SettingsLocation {
        &self.location
    }

    /// The directory whose lock is held: the file's, its links followed.
    pub fn dir(&self) -> &Path {
        self.lock.dir()
    }

    /// The file's bytes now, `None` when it does not exist.
    pub fn read(&self) -> Result<Option<Vec<u8>>> {
        read_if_exists(&self.target)
    }

    /// Loads the file as it is now (see [`SettingsDocument::load`]).
    pub fn load(&self) -> Result<SettingsDocument> {
        SettingsDocument::parse(&self.location, self.read()?)
            .map_err(|e| parse_error(&self.location.path, &e))
    }

    /// Saves `doc`, a document of this lock's file, as
    /// [`SettingsDocument::save`] does (validated; unless `force`, refused
    /// when the file is no longer the bytes `doc` was loaded from).
    pub fn save(&self, doc: &SettingsDocument, force: bool) -> Result<WriteOutcome> {
        debug_assert_eq!(doc.location.path, self.location.path, "another file's lock");
        doc.check()?;
        if !force && self.read()? != doc.original {
            return Err(SettingsError::ChangedOnDisk {
                path: self.location.path.clone(),
            });
        }
        self.put(doc)
    }

    /// Writes `doc` as the file's new content (rendered as
    /// [`SettingsDocument::render`] does, with a backup), unchecked: for
    /// edits that keep the rest of a file they did not validate
    /// ([`crate::settings::connect`]), loaded under this lock. Then
    /// remembers the user's empty containers it filled.
    pub(crate) fn put(&self, doc: &SettingsDocument) -> Result<WriteOutcome> {
        debug_assert_eq!(doc.location.path, self.location.path, "another file's lock");
        let value = doc.to_write()?;
        let bytes = doc.render_value(&value)?;
        let outcome = self.write(&bytes, doc.existed())?;
        if let Some(store) = &self.location.kept_store
            && let Err(err) =
                KeptContainers::new(store).remember(&self.location.path, &doc.loaded, &value)
        {
            // The file is written; without the record an emptied container
            // is dropped later, as before (the file stays equivalent).
            tracing::warn!(file = %self.location.path.display(), error = %err, "saved, but cannot record its empty containers");
        }
        Ok(outcome)
    }

    /// Writes `bytes`, read and edited under this lock as text rather than
    /// as a document (Codex CLI's `config.toml`,
    /// [`crate::settings::connect`]), as the file's new content: unchecked,
    /// with a backup, as [`Self::put`] writes. `existed`: the file existed
    /// when the edit read it.
    pub(crate) fn put_bytes(&self, bytes: &[u8], existed: bool) -> Result<WriteOutcome> {
        self.write(bytes, existed)
    }

    /// Writes `bytes` as the file's new content (with a backup).
    /// `existed`: the file existed when the edit read it.
    fn write(&self, bytes: &[u8], existed: bool) -> Result<WriteOutcome> {
        self.prepare_gitignore(existed)?;
        let keeps_approval = self.keeps_approval()?;
        self.written.set(true);
        let outcome = self.replace(bytes)?;
        if let (Some(store), true) = (&self.location.trust_store, keeps_approval) {
            // Saving through hookd is an approval of what it wrote, when the
            // user had approved what was there (or there was nothing to
            // approve). Failing here leaves the file untrusted: safe, and said.
            if let Err(err) = TrustStore::new(store).approve(&self.location.path, bytes) {
                tracing::warn!(file = %self.location.path.display(), error = %err, "saved, but cannot record the approval; run `hookd trust`");
            }
        }
        Ok(outcome)
    }

    /// Replaces the file with `bytes` atomically, first keeping what it
    /// held in the location's backup store ([`super::backups`]; never a
    /// file beside it). The outcome's `backup` is the version kept.
    fn replace(&self, bytes: &[u8]) -> Result<WriteOutcome> {
        let mut backup = None;
        if let Some(store) = &self.location.backup_store {
            let store = BackupStore::new(store);
            if let Err(err) = store.adopt_legacy(&self.location, &self.target) {
                tracing::warn!(file = %self.location.path.display(), error = %err, "cannot move an earlier hookd's backup into the store");
            }
            if let Some(previous) = self.read()? {
                backup = Some(store.save(&self.location, &self.target, &previous)?);
            }
        }
        let outcome = fs_atomic::write_atomic(&self.target, bytes)?;
        Ok(WriteOutcome { backup, ..outcome })
    }

    /// The file this lock writes: the location's path, its links followed.
    pub(crate) fn target(&self) -> &Path {
        &self.target
    }

    /// Writes `bytes` as the file's content, unchecked and without
    /// approving it, keeping what it replaces: a kept version put back
    /// ([`BackupStore::restore`]).
    pub(crate) fn restore(&self, bytes: &[u8]) -> Result<WriteOutcome> {
        self.prepare_gitignore(self.read()?.is_some())?;
        self.written.set(true);
        self.replace(bytes)
    }

    /// For a file whose hooks run only once approved ([`super::trust`]):
    /// whether what is on disk now (read under the lock) is approved,
    /// absent, or runs nothing, so that the content written may inherit the
    /// approval. Another party's unapproved hooks never become approved by
    /// an unrelated edit.
    fn keeps_approval(&self) -> Result<bool> {
        let Some(store) = &self.location.trust_store else {
            return Ok(false);
        };
        let Some(current) = self.read()? else {
            return Ok(true);
        };
        let runs_nothing = format::parse(&current).ok().is_some_and(|(value, _)| {
            value
                .get("hooks")
                .is_none_or(|h| h.as_object().is_none_or(Map::is_empty))
        });
        if runs_nothing {
            return Ok(true);
        }
        let approved = TrustStore::new(store).load()?;
        Ok(trust::trust_in(&approved, &self.location.path, Some(&current)).allows_running())
    }

    /// For hookd's project directory, keeps its `.gitignore` right: a new
    /// `.hookd/` gets [`SHARED_GITIGNORE`](crate::state_dir::SHARED_GITIGNORE),
    /// creating the shared `settings.json` opens up hookd's ledger-only `*`,
    /// and an older hookd-written version is upgraded. A `.gitignore` the
    /// user wrote is left alone; one that is a symbolic link is refused.
    fn prepare_gitignore(&self, existed: bool) -> Result<()> {
        let location = &self.location;
        let Some(dir) = location.path.parent() else {
            return Ok(());
        };
        let hookd_dir = location.kind == Kind::Managed
            && location.scope.is_project()
            && dir.file_name().is_some_and(|n| n == MANAGED_PROJECT_DIR);
        if !hookd_dir {
            return Ok(());
        }
        if let Some(root) = location.project_root() {
            // A planted `.hookd/.gitignore` link must not be written through.
            confine::no_symlink_below(root, &dir.join(GITIGNORE)).map_err(FsAtomicError::from)?;
        }
        if self.created_dir.is_some() {
            // Like the ledger does for a new `.hookd/`, so a ledger created
            // later in this directory is never committed either.
            keep_gitignore(dir, GitignoreNeed::Shared)?;
            return Ok(());
        }
        // Opening up a ledger-only `.gitignore` only when the shared file is
        // created; upgrading an older hookd-written one always.
        let need = if location.scope == Scope::Project && !existed {
            GitignoreNeed::Shared
        } else {
            GitignoreNeed::Current
        };
        if dir.join(GITIGNORE).exists() {
            keep_gitignore(dir, need)?;
        }
        Ok(())
    }
}

impl Drop for SettingsLock {
    fn drop(&mut self) {
        // Still locked here (fields drop after this): a refused edit leaves
        // no empty directory behind. A writer waiting on it notices it went.
        if !self.written.get()
            && let Some(dir) = &self.created_dir
        {
            let _ = fs::remove_dir(dir);
        }
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
            kept_store: None,
            backup_store: None,
            comments: false,
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
    fn a_save_keeps_a_bad_matcher_the_file_had_and_never_adds_one() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s.json");
        let bad = r#"{"hooks": {"Stop": [{"matcher": "Edit(", "hooks": []}]}}"#;
        fs::write(&path, bad).unwrap();
        let location = loc(&path, Kind::Agent, Scope::Global);

        let mut doc = SettingsDocument::load(&location).unwrap();
        assert!(doc.errors().is_empty());
        assert_eq!(doc.warnings().len(), 1);
        doc.value_mut()["model"] = "opus".into();
        doc.save(false).unwrap();

        let mut doc = SettingsDocument::load(&location).unwrap();
        doc.value_mut()["hooks"]["Stop"][0]["matcher"] = "Bash(*".into();
        let Err(SettingsError::Invalid { errors, .. }) = doc.save(false) else {
            panic!("a new bad matcher is refused");
        };
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].path, "hooks.Stop[0].matcher");
        assert!(
            fs::read_to_string(&path).unwrap().contains("\"Edit(\""),
            "nothing written"
        );
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

    #[test]
    fn update_applies_the_edit_to_what_the_file_holds_under_the_lock() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s.json");
        let location = loc(&path, Kind::Agent, Scope::Global);
        // Ten threads, ten keys: each update sees the others' writes.
        let threads: Vec<_> = (0..10)
            .map(|i| {
                let location = location.clone();
                std::thread::spawn(move || {
                    SettingsDocument::update(&location, false, |doc| {
                        doc.value_mut()
                            .as_object_mut()
                            .unwrap()
                            .insert(format!("k{i}"), i.into());
                        Ok::<_, SettingsError>(())
                    })
                    .unwrap();
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let value: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(value.as_object().unwrap().len(), 10, "{value}");
    }

    #[test]
    fn a_stale_document_is_refused_under_the_lock_and_a_waiting_save_sees_the_change() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s.json");
        fs::write(&path, "{}").unwrap();
        let location = loc(&path, Kind::Agent, Scope::Global);
        let stale = SettingsDocument::load(&location).unwrap();
        let lock = SettingsLock::acquire(&location).unwrap();
        let saver = std::thread::spawn(move || stale.save(false));
        std::thread::sleep(std::time::Duration::from_millis(50));
        let mut doc = lock.load().unwrap();
        doc.value_mut()["a"] = 1.into();
        lock.save(&doc, false).unwrap();
        drop(lock);
        let err = saver.join().unwrap().unwrap_err();
        assert!(matches!(err, SettingsError::ChangedOnDisk { .. }), "{err}");
        let value: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"a": 1}),
            "the lock holder's write stays"
        );
    }

    #[test]
    fn a_refused_edit_leaves_no_directory_behind() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(".claude/settings.local.json");
        let location = loc(&path, Kind::Agent, Scope::Local);
        let err = SettingsDocument::update(&location, false, |doc| {
            doc.value_mut()["hooks"] = 3.into();
            Err::<(), _>(SettingsError::NoHome)
        })
        .unwrap_err();
        assert!(matches!(err, SettingsError::NoHome));
        assert!(!tmp.path().join(".claude").exists());
        // An invalid result is refused the same way.
        let err = SettingsDocument::update(&location, false, |doc| {
            doc.value_mut()["hooks"] = 3.into();
            Ok::<_, SettingsError>(())
        })
        .unwrap_err();
        assert!(matches!(err, SettingsError::Invalid { .. }), "{err}");
        assert!(!tmp.path().join(".claude").exists());
    }

    #[test]
    fn project_files_linked_out_of_the_project_are_never_written() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("p");
        let home = tmp.path().join("home");
        fs::create_dir_all(project.join(".claude")).unwrap();
        fs::create_dir_all(&home).unwrap();
        fs::write(home.join("settings.json"), "{}").unwrap();
        let path = project.join(".claude/settings.json");
        symlink(home.join("settings.json"), &path).unwrap();
        let location = loc(&path, Kind::Agent, Scope::Project);
        let doc = SettingsDocument::load(&location).unwrap();
        let err = doc.save(false).unwrap_err();
        assert!(err.to_string().contains("outside the project"), "{err}");
        assert_eq!(
            fs::read_to_string(home.join("settings.json")).unwrap(),
            "{}"
        );

        // The same link as a user-scope file is followed (dotfiles).
        let global = loc(&path, Kind::Agent, Scope::Global);
        let out = SettingsDocument::load(&global)
            .unwrap()
            .save(false)
            .unwrap();
        assert_eq!(out.path, home.join("settings.json"));
    }

    #[test]
    fn a_writer_waiting_on_a_directory_that_goes_away_makes_it_again() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(".claude/settings.json");
        let location = loc(&path, Kind::Agent, Scope::Global);
        let first = SettingsLock::acquire(&location).unwrap();
        assert!(path.parent().unwrap().is_dir(), "made to be locked");
        let waiter = std::thread::spawn(move || {
            SettingsDocument::update(&location, false, |doc| {
                doc.value_mut()["a"] = 1.into();
                Ok::<_, SettingsError>(())
            })
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        // Nothing written: the directory it made goes with it.
        drop(first);
        waiter.join().unwrap().unwrap();
        let value: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(value["a"], 1);
    }
}
