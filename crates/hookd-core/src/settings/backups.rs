//! The previous versions of every settings file hookd wrote, kept in
//! hookd's own data directory rather than beside the file.
//!
//! A backup beside a project's committed `.claude/settings.json` shows up in
//! `git status`, and adding it to the user's `.gitignore` would be an edit
//! they did not ask for. So, like an editor's undo history or git's reflog,
//! hookd keeps them where only it writes: `<data dir>/settings-backups/`,
//! one directory per file (named after a hash of the file's real path, plus
//! its name for a person), holding the last [`KEEP`] versions the file had
//! before each of hookd's writes and a small record of which file they are.
//!
//! They hold the same (possibly secret) settings as the file, so the
//! directories are `0700` and the versions `0600`; hookd writes only into a
//! directory that is not a symbolic link and is the user's own (as for
//! `.hookd/`, [`crate::state_dir::check_state_dir`]), and a version is
//! created with `O_EXCL`, so nothing planted there is followed.
//!
//! [`BackupStore::restore`] puts a version back through the file's lock and
//! the same atomic write as any edit, keeping the version it replaces, so a
//! restore is itself undoable. It never approves what it writes: a managed
//! project file brought back runs its hooks only if that content was
//! approved ([`super::trust`]).

use std::fs::{self, DirBuilder, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use chrono::{DateTime, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::fs_atomic::{self, WriteOutcome};
use crate::state_dir::{UnsafePath, check_state_dir};

use super::document::{SettingsLock, read_if_exists};
use super::error::{Result, SettingsError};
use super::location::{Kind, Scope, SettingsLocation};

/// The directory of backups inside hookd's data directory.
pub const BACKUPS_DIR: &str = "settings-backups";

/// How many previous versions of one file are kept (the oldest goes first).
pub const KEEP: usize = 5;

/// The record of which file a backup directory holds.
const META_FILE: &str = "file.json";

/// The record's format version.
const META_VERSION: u32 = 1;

/// Which file a backup directory belongs to, as it was written.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Meta {
    version: u32,
    /// The settings file as hookd names it (its location's path).
    file: PathBuf,
    /// The file actually replaced, its symbolic links followed: what a
    /// restore must still lead to.
    target: PathBuf,
    kind: Kind,
    scope: Scope,
    #[serde(default)]
    comments: bool,
}

/// One kept version of a settings file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Backup {
    /// Where the version is kept.
    pub path: PathBuf,
    /// When hookd replaced it (from its name, UTC).
    pub saved_at: DateTime<Utc>,
    /// Its size in bytes.
    pub bytes: u64,
}

/// A settings file with kept versions, newest first.
#[derive(Debug, Clone, Serialize)]
pub struct BackedUpFile {
    /// The settings file.
    pub file: PathBuf,
    /// Whose file it is.
    pub kind: Kind,
    /// Which level.
    pub scope: Scope,
    /// Its kept versions, newest first (1 is the newest).
    pub versions: Vec<Backup>,
}

/// What [`BackupStore::restore`] did.
#[derive(Debug, Clone)]
pub struct Restored {
    /// The file written.
    pub file: PathBuf,
    /// The version put back.
    pub from: Backup,
    /// The write, with where the replaced content went.
    pub write: WriteOutcome,
}

/// The kept versions of settings files, in one directory of hookd's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupStore {
    dir: PathBuf,
}

impl BackupStore {
    /// The store in `dir` (usually `<data dir>/settings-backups`).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Keeps `previous`, the bytes of `location`'s file (really `target`,
    /// its links followed) before hookd replaces them. Identical to the
    /// newest kept version: nothing new is written and that one is
    /// returned. The oldest versions beyond [`KEEP`] are removed.
    pub fn save(
        &self,
        location: &SettingsLocation,
        target: &Path,
        previous: &[u8],
    ) -> Result<PathBuf> {
        let dir = self.prepare(location, target)?;
        let versions = versions_in(&dir)?;
        if let Some(newest) = versions.first()
            && read_if_exists(&newest.path)?.as_deref() == Some(previous)
        {
            return Ok(newest.path.clone());
        }
        let path = create_version(&dir, previous, Utc::now())?;
        self.trim(&dir);
        Ok(path)
    }

    /// The directory of `target`'s versions, made private and recorded as
    /// `location`'s.
    fn prepare(&self, location: &SettingsLocation, target: &Path) -> Result<PathBuf> {
        let dir = self.file_dir(target);
        make_private_dir(&self.dir)?;
        make_private_dir(&dir)?;
        let meta = Meta {
            version: META_VERSION,
            file: location.path.clone(),
            target: target.to_path_buf(),
            kind: location.kind,
            scope: location.scope,
            comments: location.comments,
        };
        let meta_path = dir.join(META_FILE);
        if read_meta(&meta_path)?.is_none_or(|kept| kept.file != meta.file) {
            let bytes = serde_json::to_vec_pretty(&meta).map_err(|e| SettingsError::Store {
                path: meta_path.clone(),
                message: format!("cannot serialise: {e}"),
            })?;
            fs_atomic::write_atomic(&meta_path, &bytes)?;
        }
        Ok(dir)
    }

    /// Removes the versions beyond [`KEEP`], oldest first (a failure is
    /// logged: the write it follows is done).
    fn trim(&self, dir: &Path) {
        let versions = match versions_in(dir) {
            Ok(versions) => versions,
            Err(err) => {
                tracing::warn!(error = %err, "cannot list settings backups to trim them");
                return;
            }
        };
        for old in versions.iter().skip(KEEP) {
            if let Err(err) = fs::remove_file(&old.path) {
                tracing::warn!(path = %old.path.display(), error = %err, "cannot remove an old settings backup");
            }
        }
    }

    /// Moves the backup an earlier hookd kept beside `target`
    /// (`<file>.hookd-backup`, [`fs_atomic::LEGACY_BACKUP_SUFFIX`]) into
    /// the store as a version as old as that file, so it no longer shows
    /// in the project's `git status`. Only a regular file is taken, never
    /// a link. Returns where it went, `None` when there was none.
    pub fn adopt_legacy(
        &self,
        location: &SettingsLocation,
        target: &Path,
    ) -> Result<Option<PathBuf>> {
        let mut name = target.file_name().unwrap_or_default().to_os_string();
        name.push(fs_atomic::LEGACY_BACKUP_SUFFIX);
        let legacy = target.with_file_name(name);
        let meta = match fs::symlink_metadata(&legacy) {
            Ok(meta) if meta.is_file() => meta,
            Ok(_) => return Ok(None),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(SettingsError::io("cannot read", &legacy, e)),
        };
        let bytes = fs::read(&legacy).map_err(|e| SettingsError::io("cannot read", &legacy, e))?;
        let dir = self.prepare(location, target)?;
        let when: DateTime<Utc> = meta.modified().map_or_else(|_| Utc::now(), DateTime::from);
        let kept = create_version(&dir, &bytes, when)?;
        fs::remove_file(&legacy).map_err(|e| SettingsError::io("cannot remove", &legacy, e))?;
        self.trim(&dir);
        Ok(Some(kept))
    }

    /// The kept versions of `file` (its links followed), newest first;
    /// empty when there are none.
    pub fn versions(&self, file: &Path) -> Result<Vec<Backup>> {
        let target = fs_atomic::resolve_symlinks(&absolute(file)?)
            .map_err(|e| SettingsError::io("cannot read", file, e))?;
        let dir = self.file_dir(&target);
        if !dir.is_dir() {
            return Ok(Vec::new());
        }
        versions_in(&dir)
    }

    /// Every file with kept versions, by path.
    pub fn list(&self) -> Result<Vec<BackedUpFile>> {
        let entries = match fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(SettingsError::io("cannot read", &self.dir, e)),
        };
        let mut files = Vec::new();
        for entry in entries {
            let dir = entry
                .map_err(|e| SettingsError::io("cannot read", &self.dir, e))?
                .path();
            let Some(meta) = read_meta(&dir.join(META_FILE))? else {
                continue;
            };
            let versions = versions_in(&dir)?;
            if !versions.is_empty() {
                files.push(BackedUpFile {
                    file: meta.file,
                    kind: meta.kind,
                    scope: meta.scope,
                    versions,
                });
            }
        }
        files.sort_by(|a, b| a.file.cmp(&b.file));
        Ok(files)
    }

    /// Puts version `nth` (1: the newest) of `file` back, through the
    /// file's lock and an atomic write that keeps what it replaces. The
    /// file must still lead where it did when the version was kept (a
    /// project's file never through a link out of the project). What is
    /// written is not approved: see the module's note.
    pub fn restore(&self, file: &Path, nth: usize) -> Result<Restored> {
        let target = fs_atomic::resolve_symlinks(&absolute(file)?)
            .map_err(|e| SettingsError::io("cannot read", file, e))?;
        let dir = self.file_dir(&target);
        let none = || SettingsError::NoBackup {
            path: file.to_path_buf(),
        };
        let meta = read_meta(&dir.join(META_FILE))?.ok_or_else(none)?;
        let versions = versions_in(&dir)?;
        if versions.is_empty() {
            return Err(none());
        }
        let from =
            versions
                .get(nth.wrapping_sub(1))
                .cloned()
                .ok_or(SettingsError::NoSuchBackup {
                    path: file.to_path_buf(),
                    nth,
                    kept: versions.len(),
                })?;
        let bytes =
            fs::read(&from.path).map_err(|e| SettingsError::io("cannot read", &from.path, e))?;
        let location = SettingsLocation {
            kind: meta.kind,
            scope: meta.scope,
            path: meta.file.clone(),
            read_only: meta.scope == Scope::Policy,
            trust_store: None,
            kept_store: None,
            backup_store: Some(self.dir.clone()),
            comments: meta.comments,
        };
        let lock = SettingsLock::acquire(&location)?;
        if lock.target() != meta.target {
            return Err(SettingsError::BackupElsewhere {
                path: meta.file,
                kept: meta.target,
                now: lock.target().to_path_buf(),
            });
        }
        let write = lock.restore(&bytes)?;
        Ok(Restored {
            file: meta.file,
            from,
            write,
        })
    }

    /// The directory of the file whose real path is `target`.
    fn file_dir(&self, target: &Path) -> PathBuf {
        let digest = Sha256::digest(target.as_os_str().as_encoded_bytes());
        let hash: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        let name: String = target
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        self.dir.join(format!("{hash}-{name}"))
    }
}

fn absolute(file: &Path) -> Result<PathBuf> {
    std::path::absolute(file).map_err(|e| SettingsError::io("cannot resolve", file, e))
}

/// Creates `dir` (mode `0700`) if missing, then checks it is a real
/// directory of this user's.
fn make_private_dir(dir: &Path) -> Result<()> {
    match DirBuilder::new().recursive(true).mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(SettingsError::io("cannot create directory", dir, e)),
    }
    check_state_dir(dir).map_err(|e: UnsafePath| SettingsError::Store {
        path: dir.to_path_buf(),
        message: format!("not used for backups: {e}"),
    })
}

fn read_meta(path: &Path) -> Result<Option<Meta>> {
    let Some(bytes) = read_if_exists(path)? else {
        return Ok(None);
    };
    let meta: Meta = serde_json::from_slice(&bytes).map_err(|e| SettingsError::Store {
        path: path.to_path_buf(),
        message: format!("not hookd's record of a backed-up file: {e}"),
    })?;
    if meta.version > META_VERSION {
        return Err(SettingsError::Store {
            path: path.to_path_buf(),
            message: format!(
                "written by a newer hookd (format {}; this one reads {META_VERSION})",
                meta.version
            ),
        });
    }
    Ok(Some(meta))
}

/// The name format of a version (then `-NN.bak`, NN telling apart two in
/// the same nanosecond): sortable, UTC.
const STAMP: &str = "%Y%m%dT%H%M%S%.9fZ";

/// Writes `bytes` as a new version in `dir`, stamped `when`: a fresh name (`O_EXCL`, so a
/// planted file or link is never written through), `0600`, synced with
/// its directory.
fn create_version(dir: &Path, bytes: &[u8], when: DateTime<Utc>) -> Result<PathBuf> {
    let stamp = when.format(STAMP).to_string();
    for n in 0..100u32 {
        let path = dir.join(format!("{stamp}-{n:02}.bak"));
        let mut file = match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
        {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(SettingsError::io("cannot write", &path, e)),
        };
        file.write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(|e| SettingsError::io("cannot write", &path, e))?;
        fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| SettingsError::io("cannot sync", dir, e))?;
        return Ok(path);
    }
    Err(SettingsError::io(
        "cannot write",
        dir,
        io::Error::from(io::ErrorKind::AlreadyExists),
    ))
}

/// The versions kept in `dir`, newest first.
fn versions_in(dir: &Path) -> Result<Vec<Backup>> {
    let mut versions = Vec::new();
    let entries = fs::read_dir(dir).map_err(|e| SettingsError::io("cannot read", dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| SettingsError::io("cannot read", dir, e))?;
        let name = entry.file_name();
        let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".bak")) else {
            continue;
        };
        let Some(stamp) = stem
            .split_once('-')
            .and_then(|(stamp, _)| stamp.strip_suffix('Z'))
        else {
            continue;
        };
        let Ok(saved_at) = NaiveDateTime::parse_from_str(stamp, "%Y%m%dT%H%M%S%.9f") else {
            continue;
        };
        let meta = fs::symlink_metadata(entry.path())
            .map_err(|e| SettingsError::io("cannot read", entry.path(), e))?;
        if !meta.is_file() {
            continue; // not one of hookd's (a link is never read through)
        }
        versions.push(Backup {
            path: entry.path(),
            saved_at: saved_at.and_utc(),
            bytes: meta.size(),
        });
    }
    versions.sort_by(|a, b| b.path.file_name().cmp(&a.path.file_name()));
    Ok(versions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::location::SettingsRoots;
    use crate::settings::{SettingsDocument, TrustStore};
    use hookd_testkit::names_in;
    use serde_json::json;
    use std::os::unix::fs::{PermissionsExt, symlink};

    /// A home and a project in a temp dir, with the project's Claude Code file.
    struct Setup {
        _tmp: tempfile::TempDir,
        roots: SettingsRoots,
        project: PathBuf,
    }

    fn setup() -> Setup {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let project = base.join("project");
        fs::create_dir_all(project.join(".claude")).unwrap();
        Setup {
            roots: SettingsRoots::under(&base.join("home")),
            project,
            _tmp: tmp,
        }
    }

    impl Setup {
        fn location(&self, kind: Kind) -> SettingsLocation {
            self.roots
                .location(kind, Scope::Project, Some(&self.project))
                .unwrap()
        }

        fn store(&self) -> BackupStore {
            BackupStore::new(&self.roots.backups)
        }

        /// Saves `value` as the file through hookd's one write path.
        fn save(&self, kind: Kind, value: serde_json::Value) -> WriteOutcome {
            let (_, outcome) = SettingsDocument::update(&self.location(kind), false, |doc| {
                *doc.value_mut() = value;
                Ok::<_, SettingsError>(())
            })
            .unwrap();
            outcome
        }
    }

    /// Each version's text without whitespace.
    fn compact(versions: &[Backup]) -> Vec<String> {
        versions
            .iter()
            .map(|v| {
                fs::read_to_string(&v.path)
                    .unwrap()
                    .replace(char::is_whitespace, "")
            })
            .collect()
    }

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().mode() & 0o777
    }

    #[test]
    fn a_write_keeps_the_previous_version_in_the_store_and_nothing_beside_the_file() {
        let s = setup();
        let file = s.project.join(".claude/settings.json");
        fs::write(&file, "{\n  \"model\": \"opus\"\n}\n").unwrap();
        let outcome = s.save(Kind::Agent, json!({"model": "sonnet"}));

        assert_eq!(names_in(&s.project.join(".claude")), vec!["settings.json"]);
        let kept = outcome.backup.expect("a version kept");
        assert!(kept.starts_with(&s.roots.backups), "{}", kept.display());
        assert_eq!(
            fs::read_to_string(&kept).unwrap(),
            "{\n  \"model\": \"opus\"\n}\n"
        );
        assert_eq!(mode(&kept), 0o600);
        assert_eq!(mode(kept.parent().unwrap()), 0o700);
        assert_eq!(mode(&s.roots.backups), 0o700);

        let listed = s.store().list().unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].file, file);
        assert_eq!(
            (listed[0].kind, listed[0].scope),
            (Kind::Agent, Scope::Project)
        );
        assert_eq!(listed[0].versions[0].path, kept);
    }

    #[test]
    fn the_last_five_versions_are_kept_newest_first_and_a_repeat_is_not_kept_twice() {
        let s = setup();
        let file = s.project.join(".claude/settings.json");
        for n in 0..8 {
            s.save(Kind::Agent, json!({ "n": n }));
        }
        // The first save created the file: 7 earlier versions, n = 0..=6.
        let versions = s.store().versions(&file).unwrap();
        let held = compact(&versions);
        assert_eq!(
            held,
            [
                "{\"n\":6}",
                "{\"n\":5}",
                "{\"n\":4}",
                "{\"n\":3}",
                "{\"n\":2}"
            ]
        );
        assert!(versions.windows(2).all(|w| w[0].saved_at >= w[1].saved_at));

        // Writing back what the newest kept version holds, then something
        // else, keeps that content once.
        s.save(Kind::Agent, json!({ "n": 6 }));
        s.save(Kind::Agent, json!({ "n": 9 }));
        let versions = s.store().versions(&file).unwrap();
        assert_eq!(compact(&versions[..2]), ["{\"n\":6}", "{\"n\":7}"]);
    }

    #[test]
    fn a_restore_puts_the_bytes_back_and_keeps_what_it_replaced_so_it_can_be_undone() {
        let s = setup();
        let file = s.project.join(".claude/settings.json");
        let original = "{\"model\":\"opus\",   \"hooks\": {}}\n";
        fs::write(&file, original).unwrap();
        s.save(Kind::Agent, json!({"model": "sonnet"}));
        let edited = fs::read(&file).unwrap();

        let restored = s.store().restore(&file, 1).unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), original);
        assert_eq!(restored.file, file);
        assert_eq!(names_in(&s.project.join(".claude")), vec!["settings.json"]);

        // Version 1 is now the edit: restoring it again undoes the restore.
        s.store().restore(&file, 1).unwrap();
        assert_eq!(fs::read(&file).unwrap(), edited);

        let err = s.store().restore(&file, 9).unwrap_err();
        assert!(
            matches!(err, SettingsError::NoSuchBackup { nth: 9, .. }),
            "{err}"
        );
        let never = s.project.join(".claude/settings.local.json");
        assert!(matches!(
            s.store().restore(&never, 1).unwrap_err(),
            SettingsError::NoBackup { .. }
        ));
    }

    #[test]
    fn a_restore_never_writes_through_a_link_planted_since() {
        let s = setup();
        let file = s.project.join(".claude/settings.json");
        fs::write(&file, "{\"a\": 1}\n").unwrap();
        s.save(Kind::Agent, json!({"a": 2}));

        // The project's .claude/ is now a link to a directory elsewhere
        // holding a file of the same name.
        let elsewhere = s.project.parent().unwrap().join("elsewhere");
        fs::create_dir_all(&elsewhere).unwrap();
        fs::write(elsewhere.join("settings.json"), "victim\n").unwrap();
        fs::rename(s.project.join(".claude"), s.project.join("moved")).unwrap();
        symlink(&elsewhere, s.project.join(".claude")).unwrap();

        assert!(s.store().restore(&file, 1).is_err());
        assert_eq!(
            fs::read_to_string(elsewhere.join("settings.json")).unwrap(),
            "victim\n"
        );
    }

    #[test]
    fn a_store_that_is_a_link_is_refused_and_the_file_is_not_written() {
        let s = setup();
        let file = s.project.join(".claude/settings.json");
        fs::write(&file, "{\"a\": 1}\n").unwrap();
        let other = s.project.parent().unwrap().join("other");
        fs::create_dir_all(&other).unwrap();
        fs::create_dir_all(s.roots.backups.parent().unwrap()).unwrap();
        symlink(&other, &s.roots.backups).unwrap();

        let err = SettingsDocument::update(&s.location(Kind::Agent), false, |doc| {
            *doc.value_mut() = json!({"a": 2});
            Ok::<_, SettingsError>(())
        })
        .unwrap_err();
        assert!(err.to_string().contains("not used for backups"), "{err}");
        assert_eq!(fs::read_to_string(&file).unwrap(), "{\"a\": 1}\n");
        assert!(
            names_in(&other).is_empty(),
            "nothing written through the link"
        );
    }

    #[test]
    fn an_earlier_hookds_backup_beside_the_file_moves_into_the_store() {
        let s = setup();
        let file = s.project.join(".claude/settings.json");
        fs::write(&file, "{\"a\": 1}\n").unwrap();
        let legacy = s.project.join(".claude/settings.json.hookd-backup");
        fs::write(&legacy, "{\"a\": 0}\n").unwrap();
        fs::set_permissions(&legacy, fs::Permissions::from_mode(0o644)).unwrap();

        s.save(Kind::Agent, json!({"a": 2}));
        assert_eq!(names_in(&s.project.join(".claude")), vec!["settings.json"]);
        let held: Vec<String> = s
            .store()
            .versions(&file)
            .unwrap()
            .iter()
            .map(|v| fs::read_to_string(&v.path).unwrap())
            .collect();
        assert_eq!(held, ["{\"a\": 1}\n", "{\"a\": 0}\n"]);

        // A link of that name is not an earlier hookd's backup: left alone.
        symlink("/etc/passwd", &legacy).unwrap();
        s.save(Kind::Agent, json!({"a": 3}));
        assert!(
            fs::symlink_metadata(&legacy)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[test]
    fn a_restored_managed_file_is_not_approved() {
        let s = setup();
        let location = s.location(Kind::Managed);
        let hooks = |cmd: &str| json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": cmd}]}]}});
        // Someone else's content, never approved, then an edit through hookd.
        fs::create_dir_all(location.path.parent().unwrap()).unwrap();
        fs::write(
            &location.path,
            serde_json::to_vec(&hooks("./theirs.sh")).unwrap(),
        )
        .unwrap();
        s.save(Kind::Managed, hooks("./mine.sh"));
        let store = TrustStore::new(location.trust_store.as_ref().unwrap());
        store
            .approve(&location.path, &fs::read(&location.path).unwrap())
            .unwrap();

        s.store().restore(&location.path, 1).unwrap();
        let now = fs::read(&location.path).unwrap();
        assert!(String::from_utf8_lossy(&now).contains("theirs.sh"));
        let approved = store.load().unwrap();
        assert!(
            !crate::settings::trust::trust_in(&approved, &location.path, Some(&now))
                .allows_running(),
            "the restored content runs only once approved"
        );
    }
}
