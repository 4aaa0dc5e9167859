//! Keeping hookd's writes inside a project when the project itself is not
//! trusted.
//!
//! A cloned repository can contain symbolic links: `.claude/settings.json ->
//! ~/.claude/settings.json`, or a `.claude` or `.hookd/hooks` directory that
//! points anywhere. Following them, a "project scope" edit would change the
//! user's global settings, and an installed script could land (and be made
//! executable) anywhere the user can write. git refuses the same trick for
//! `.gitattributes` and for paths "beyond a symbolic link". Two rules, both
//! checked before anything is created or written:
//!
//! - [`resolve_within`]: a settings file may be a link, as long as where it
//!   leads stays inside the project; the write then goes to that target.
//! - [`no_symlink_below`]: for files hookd creates itself (template
//!   scripts), no part of the path below the project root may be a link.
//!
//! A user's own files outside any project (`~/.claude/settings.json`
//! linked into a dotfiles folder) are not subject to either.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

/// How many symlink hops [`resolve_within`] follows before giving up.
const MAX_SYMLINK_HOPS: usize = 40;

/// Why a write into a project was refused.
#[derive(Debug, thiserror::Error)]
pub enum ConfineError {
    /// The path leads out of the project through a symbolic link.
    #[error(
        "refusing to write {path}: it resolves to {resolved}, outside the project {root} (a symbolic link in the project points out of it); nothing was written"
    )]
    Outside {
        /// The path as asked for.
        path: PathBuf,
        /// Where its symbolic links lead.
        resolved: PathBuf,
        /// The project root.
        root: PathBuf,
    },
    /// A component of the path below the project root is a symbolic link.
    #[error(
        "refusing to write {path}: {link} is a symbolic link, and hookd never writes beyond a symbolic link in a project (it could point anywhere); nothing was written"
    )]
    Symlink {
        /// The path as asked for.
        path: PathBuf,
        /// The component that is a link.
        link: PathBuf,
    },
    /// The path could not be examined.
    #[error("cannot resolve {path}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
}

/// Where `path` leads once every symbolic link on the way (its directories
/// and the file itself, dangling links included) is followed, provided that
/// is inside `root` (both compared canonically); otherwise
/// [`ConfineError::Outside`]. Parts that do not exist yet are taken as
/// they are (they are not links).
pub fn resolve_within(root: &Path, path: &Path) -> Result<PathBuf, ConfineError> {
    let io_err = |source| ConfineError::Io {
        path: path.to_path_buf(),
        source,
    };
    let canonical_root = fs::canonicalize(root).map_err(io_err)?;
    let resolved = resolve_fully(path).map_err(io_err)?;
    if resolved.starts_with(&canonical_root) {
        Ok(resolved)
    } else {
        Err(ConfineError::Outside {
            path: path.to_path_buf(),
            resolved,
            root: canonical_root,
        })
    }
}

/// Refuses `path` when it is not below `root`, or when any existing
/// component of it below `root` (directory or the file itself) is a
/// symbolic link.
pub fn no_symlink_below(root: &Path, path: &Path) -> Result<(), ConfineError> {
    let Ok(rest) = path.strip_prefix(root) else {
        return Err(ConfineError::Outside {
            path: path.to_path_buf(),
            resolved: path.to_path_buf(),
            root: root.to_path_buf(),
        });
    };
    let mut current = root.to_path_buf();
    for component in rest.components() {
        let Component::Normal(name) = component else {
            return Err(ConfineError::Outside {
                path: path.to_path_buf(),
                resolved: path.to_path_buf(),
                root: root.to_path_buf(),
            });
        };
        current.push(name);
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(ConfineError::Symlink {
                    path: path.to_path_buf(),
                    link: current,
                });
            }
            Ok(_) => {}
            // Nothing below a missing part can be a link.
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(source) => {
                return Err(ConfineError::Io {
                    path: path.to_path_buf(),
                    source,
                });
            }
        }
    }
    Ok(())
}

/// `path` with every symbolic link followed: its directory made canonical
/// (as far as it exists), then the file's own links, hop by hop.
fn resolve_fully(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_SYMLINK_HOPS {
        let name = current
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file path"))?
            .to_owned();
        let parent = match current.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let parent = canonical_prefix(&parent)?;
        let candidate = parent.join(&name);
        match fs::symlink_metadata(&candidate) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&candidate)?;
                current = if link.is_relative() {
                    parent.join(link)
                } else {
                    link
                };
            }
            Ok(_) => return Ok(candidate),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(candidate),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// `dir` made canonical; when it does not exist, its nearest existing
/// ancestor made canonical with the missing rest appended.
fn canonical_prefix(dir: &Path) -> io::Result<PathBuf> {
    match fs::canonicalize(dir) {
        Ok(canonical) => Ok(canonical),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
                return Err(e);
            };
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            Ok(canonical_prefix(parent)?.join(name))
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn links_inside_the_root_are_followed_and_links_out_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let root = base.join("project");
        let outside = base.join("home/.claude");
        fs::create_dir_all(root.join(".claude")).unwrap();
        fs::create_dir_all(root.join("config")).unwrap();
        fs::create_dir_all(&outside).unwrap();

        // Plain and missing files resolve to themselves.
        let plain = root.join(".claude/settings.json");
        assert_eq!(resolve_within(&root, &plain).unwrap(), plain);
        let missing = root.join(".hookd/new/settings.json");
        assert_eq!(resolve_within(&root, &missing).unwrap(), missing);

        // A link inside the project is followed (also when dangling).
        symlink("../config/c.json", &plain).unwrap();
        assert_eq!(
            resolve_within(&root, &plain).unwrap(),
            root.join("config/c.json")
        );

        // A file link out, also a dangling one and one through `..`.
        let local = root.join(".claude/settings.local.json");
        symlink(outside.join("settings.json"), &local).unwrap();
        let err = resolve_within(&root, &local).unwrap_err();
        assert!(
            matches!(&err, ConfineError::Outside { resolved, .. } if *resolved == outside.join("settings.json"))
        );
        assert!(err.to_string().contains("outside the project"), "{err}");
        let sneaky = root.join("config/s.json");
        symlink("../../home/.claude/x.json", &sneaky).unwrap();
        assert!(matches!(
            resolve_within(&root, &sneaky),
            Err(ConfineError::Outside { .. })
        ));

        // A directory link out.
        symlink(&outside, root.join(".hookd")).unwrap();
        assert!(matches!(
            resolve_within(&root, &root.join(".hookd/settings.json")),
            Err(ConfineError::Outside { .. })
        ));
        assert!(matches!(
            resolve_within(&root, &root.join(".hookd/sub/settings.json")),
            Err(ConfineError::Outside { .. })
        ));
    }

    #[test]
    fn a_root_reached_through_a_link_is_still_the_root() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("real");
        fs::create_dir_all(real.join(".claude")).unwrap();
        let alias = tmp.path().join("alias");
        symlink(&real, &alias).unwrap();
        let resolved = resolve_within(&alias, &alias.join(".claude/settings.json")).unwrap();
        assert_eq!(
            resolved,
            real.canonicalize().unwrap().join(".claude/settings.json")
        );
    }

    #[test]
    fn no_symlink_below_refuses_any_link_component() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("p");
        let elsewhere = tmp.path().join("elsewhere");
        fs::create_dir_all(root.join(".hookd/hooks")).unwrap();
        fs::create_dir_all(&elsewhere).unwrap();
        let script = root.join(".hookd/hooks/a.py");
        no_symlink_below(&root, &script).unwrap();
        no_symlink_below(&root, &root.join(".hookd/hooks-local/a.py")).unwrap();

        symlink(elsewhere.join("a.py"), &script).unwrap();
        let err = no_symlink_below(&root, &script).unwrap_err();
        assert!(matches!(&err, ConfineError::Symlink { link, .. } if *link == script));
        assert!(err.to_string().contains("beyond a symbolic link"), "{err}");

        symlink(&elsewhere, root.join(".hookd/hooks-local")).unwrap();
        let err = no_symlink_below(&root, &root.join(".hookd/hooks-local/a.py")).unwrap_err();
        assert!(
            matches!(&err, ConfineError::Symlink { link, .. } if *link == root.join(".hookd/hooks-local"))
        );
        assert!(matches!(
            no_symlink_below(&root, &elsewhere.join("a.py")),
            Err(ConfineError::Outside { .. })
        ));
        assert!(matches!(
            no_symlink_below(&root, &root.join("../elsewhere/a.py")),
            Err(ConfineError::Outside { .. })
        ));
    }
}
