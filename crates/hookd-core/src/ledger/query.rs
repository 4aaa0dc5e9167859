//! Reading mutations (and an agent's whole activity) back: which ledger(s) a
//! query means, how a `--file` argument maps to the stored path, and merging
//! several repositories.
//!
//! Inside a repository paths are stored relative to its root, so a file
//! given on the command line is resolved the way a user means it: relative
//! to the current directory when that is inside the repository, otherwise
//! relative to the repository root; absolute paths are made root-relative.

use std::path::{Component, Path, PathBuf};

use crate::dirs;
use crate::ledger::filter::Resolved;
use crate::ledger::registry::Registry;
use crate::ledger::{ActivityEvent, Ledger, MutationFilter, Table};
use crate::project::discover_root;
use crate::record::MutationRow;
use crate::{Error, Result};

/// The `repo` label of rows from the ledger of events outside any git repository.
pub const OUTSIDE_GIT: &str = "(outside git)";

/// Which ledgers a query reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryScope {
    /// The repository containing this directory.
    Repo(PathBuf),
    /// Every registered repository plus the ledger of events outside git.
    All,
}

/// A complete query.
#[derive(Debug, Clone)]
pub struct Query {
    /// Which ledgers.
    pub scope: QueryScope,
    /// Row filters; `file` is filled in from `file_arg` per repository.
    pub filter: MutationFilter,
    /// The `--file` argument as the user wrote it.
    pub file_arg: Option<PathBuf>,
    /// The directory relative paths are resolved against.
    pub cwd: PathBuf,
    /// hookd's data directory.
    pub data_dir: PathBuf,
}

impl Query {
    /// The same ledgers without any row filter: what is read of the
    /// ledgers as a whole (their agents, their known values) is neither
    /// narrowed nor failed by a filter being typed.
    pub fn ledgers_only(&self) -> Self {
        Self {
            filter: MutationFilter::default(),
            file_arg: None,
            ..self.clone()
        }
    }
}

/// The git root of the repository containing `dir`, with clear errors.
pub fn resolve_repo_root(dir: &Path) -> Result<PathBuf> {
    let canonical = std::fs::canonicalize(dir).map_err(|_| Error::NoSuchPath(dir.to_path_buf()))?;
    discover_root(&canonical).ok_or(Error::NotARepository(canonical))
}

/// Runs a query; rows are oldest first, the newest `limit` when limited.
pub fn run(query: &Query) -> Result<Vec<MutationRow>> {
    read(
        query,
        Ledger::mutations,
        |row| {
            (
                row.record.event_timestamp.as_str(),
                row.repo.as_deref(),
                row.id,
            )
        },
        |row, repo| row.repo = Some(repo),
    )
}

/// Hook events matching a query, each with its hook runs (an agent's whole
/// activity, not only its file changes); oldest first, the newest `limit`
/// when limited, from one repository or all of them like [`run`].
pub fn activity(query: &Query) -> Result<Vec<ActivityEvent>> {
    read(
        query,
        Ledger::activity,
        |event| {
            (
                event.event_timestamp.as_str(),
                event.repo.as_deref(),
                event.id,
            )
        },
        |event, repo| event.repo = Some(repo),
    )
}

/// One ledger a query reads, with the filter for it.
pub(crate) struct Source {
    /// The repository label of its rows in a multi-repository read (the
    /// root's path, or [`OUTSIDE_GIT`]); `None` when the query reads one.
    pub label: Option<String>,
    /// The open ledger.
    pub ledger: Ledger,
    /// The filter as this ledger answers it (its text filters matched
    /// against the values the ledger knows).
    pub resolved: Resolved,
}

impl Source {
    /// The label, or `""` for the one ledger of a single-repository read.
    pub fn key(&self) -> &str {
        self.label.as_deref().unwrap_or("")
    }
}

/// Opens a read transaction on every source, so what is read from each
/// ledger (counts, rows, the newest id) is one snapshot even while the daemon
/// commits; they end (roll back) when the returned guards drop.
pub(crate) fn read_snapshots(sources: &[Source]) -> Result<Vec<rusqlite::Transaction<'_>>> {
    sources
        .iter()
        .map(|s| {
            s.ledger
                .connection()
                .unchecked_transaction()
                .map_err(|e| Error::sqlite(s.ledger.path(), e))
        })
        .collect()
}

/// One ledger a query reads, opened, with the query's filter for it (not
/// yet matched against the values the ledger knows).
struct Opened {
    label: Option<String>,
    ledger: Ledger,
    filter: MutationFilter,
}

/// The ledgers `query` reads, opened; ledgers not created yet are left out
/// of a multi-repository read, and are an error for one repository.
fn open(query: &Query) -> Result<Vec<Opened>> {
    let ledgers = match &query.scope {
        QueryScope::Repo(dir) => {
            let root = resolve_repo_root(dir)?;
            let ledger_path = dirs::repo_ledger_path(&root);
            if !ledger_path.exists() {
                return Err(Error::NoLedger {
                    repo: root,
                    ledger: ledger_path,
                });
            }
            return Ok(vec![Opened {
                label: None,
                ledger: Ledger::open_existing(&ledger_path)?,
                filter: filter_for(query, Some(&root)),
            }]);
        }
        QueryScope::All => all_ledgers(&query.data_dir)?,
    };
    let mut opened = Vec::new();
    for (root, path) in ledgers {
        if !path.exists() {
            continue;
        }
        opened.push(Opened {
            label: Some(root.as_deref().map_or_else(
                || OUTSIDE_GIT.to_owned(),
                |r| r.to_string_lossy().into_owned(),
            )),
            ledger: Ledger::open_existing(&path)?,
            filter: filter_for(query, root.as_deref()),
        });
    }
    Ok(opened)
}

/// The ledgers `query` reads (see [`open`]), each with its filter resolved
/// for rows of `table`.
pub(crate) fn sources(query: &Query, table: Table) -> Result<Vec<Source>> {
    open(query)?
        .into_iter()
        .map(|o| {
            Ok(Source {
                resolved: Resolved::new(&o.ledger, table, &o.filter)?,
                label: o.label,
                ledger: o.ledger,
            })
        })
        .collect()
}

/// Reads `query` from its ledger(s) with `read`; across repositories, rows
/// are labelled with `label`, merged in `key` order and cut to the limit.
fn read<T>(
    query: &Query,
    read: impl Fn(&Ledger, &MutationFilter) -> Result<Vec<T>>,
    key: impl for<'a> Fn(&'a T) -> (&'a str, Option<&'a str>, i64),
    label: impl Fn(&mut T, String),
) -> Result<Vec<T>> {
    let mut rows = Vec::new();
    // Exact filters, as these reads have always matched them: nothing to resolve.
    for source in open(query)? {
        let mut found = read(&source.ledger, &source.filter)?;
        let Some(repo) = source.label else {
            return Ok(found);
        };
        for row in &mut found {
            label(row, repo.clone());
        }
        rows.extend(found);
    }
    rows.sort_by(|a, b| key(a).cmp(&key(b)));
    if let Some(limit) = query.filter.limit.and_then(|l| usize::try_from(l).ok()) {
        let excess = rows.len().saturating_sub(limit);
        rows.drain(..excess);
    }
    Ok(rows)
}

/// Every registered repository's ledger (with its root), then the ledger of
/// events outside git (root `None`); some may not exist yet.
pub fn all_ledgers(data_dir: &Path) -> Result<Vec<(Option<PathBuf>, PathBuf)>> {
    let mut ledgers: Vec<(Option<PathBuf>, PathBuf)> = Registry::open(data_dir)?
        .list()?
        .into_iter()
        .map(|known| {
            let path = dirs::repo_ledger_path(&known.root);
            (Some(known.root), path)
        })
        .collect();
    ledgers.push((None, dirs::unversioned_ledger_path(data_dir)));
    Ok(ledgers)
}

fn filter_for(query: &Query, root: Option<&Path>) -> MutationFilter {
    let mut filter = query.filter.clone();
    if let Some(file) = &query.file_arg {
        filter.file = Some(stored_file_path(file, root, &query.cwd));
    }
    filter
}

/// Maps a user's `--file` argument to the form stored in the ledger of `root`.
pub fn stored_file_path(file: &Path, root: Option<&Path>, cwd: &Path) -> String {
    let Some(root) = root else {
        return normalize(&cwd.join(file)).to_string_lossy().into_owned();
    };
    let absolute = if file.is_absolute() {
        normalize(file)
    } else if cwd.starts_with(root) {
        normalize(&cwd.join(file))
    } else {
        normalize(&root.join(file))
    };
    crate::project::stored_path(&absolute, Some(root))
}

/// Removes `.` and resolves `..` without touching the file system (the file
/// may no longer exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_arguments_map_to_root_relative_paths() {
        let root = Path::new("/repo");
        let cases = [
            ("src/main.rs", "/repo", "src/main.rs"),
            ("main.rs", "/repo/src", "src/main.rs"),
            ("./main.rs", "/repo/src", "src/main.rs"),
            ("../README.md", "/repo/src", "README.md"),
            ("/repo/src/lib.rs", "/elsewhere", "src/lib.rs"),
            ("src/main.rs", "/elsewhere", "src/main.rs"),
            ("/other/x.rs", "/repo", "/other/x.rs"),
        ];
        for (file, cwd, expected) in cases {
            assert_eq!(
                stored_file_path(Path::new(file), Some(root), Path::new(cwd)),
                expected,
                "{file} from {cwd}"
            );
        }
    }

    #[test]
    fn missing_and_non_repo_directories_are_errors() {
        let err = resolve_repo_root(Path::new("/definitely/not/here")).unwrap_err();
        assert!(matches!(err, Error::NoSuchPath(_)), "{err}");
        let dir = tempfile::tempdir().unwrap();
        if discover_root(dir.path()).is_none() {
            let err = resolve_repo_root(dir.path()).unwrap_err();
            assert!(matches!(err, Error::NotARepository(_)), "{err}");
        }
    }
}
