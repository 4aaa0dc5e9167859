//! The files a Codex CLI patch names.
//!
//! Codex edits files with one tool, `apply_patch`, whose input
//! (`tool_input.command`) is a patch that may add, change, move and delete
//! several files at once:
//!
//! ```text
//! *** Begin Patch
//! *** Add File: hello.txt
//! +Hello world
//! *** Update File: src/app.py
//! *** Move to: src/main.py
//! @@ def greet():
//! -print("Hi")
//! +print("Hello, world!")
//! *** Delete File: obsolete.txt
//! *** End Patch
//! ```
//!
//! The daemon finds what a patch changed as it finds what a shell command
//! changed: by comparing the repository before and after (see
//! `daemon::bash_tracker`), which gives each file's exact contents. The
//! patch only narrows that comparison to the files it names, so a change
//! another process made meanwhile is not put down to the agent. Paths are
//! relative to the session's directory (an absolute one is taken as is);
//! the markers may be padded with spaces, as Codex's own parser accepts.

use std::path::{Path, PathBuf};

use crate::project::clean_path;

/// The markers that name a file, each followed by its path.
const FILE_MARKERS: [&str; 4] = [
    "*** Add File:",
    "*** Update File:",
    "*** Delete File:",
    "*** Move to:",
];

/// Every file `patch` names (added, updated, deleted, or moved to), as
/// absolute paths resolved against `cwd`, in the order named, each once.
/// Empty when the text names no file (not a patch hookd can read).
pub fn patch_files(patch: &str, cwd: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    for line in patch.lines() {
        let line = line.trim();
        let Some(path) = FILE_MARKERS
            .iter()
            .find_map(|marker| line.strip_prefix(marker))
            .map(str::trim)
            .filter(|p| !p.is_empty())
        else {
            continue;
        };
        let path = clean_path(&cwd.join(path));
        if !files.contains(&path) {
            files.push(path);
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_a_patch_names_once_resolved_against_the_session() {
        let patch = "*** Begin Patch\n*** Add File: hello.txt\n+Hello world\n\
                     *** Update File: src/app.py\n*** Move to: src/main.py\n@@ def greet():\n\
                     -print(\"Hi\")\n+print(\"Hello, world!\")\n  *** Delete File:  obsolete.txt  \n\
                     *** Update File: ./hello.txt\n@@\n-a\n+b\n\
                     *** Update File: /abs/elsewhere.rs\n@@\n-x\n+y\n*** End Patch\n";
        let files = patch_files(patch, Path::new("/repo/sub"));
        assert_eq!(
            files,
            [
                "/repo/sub/hello.txt",
                "/repo/sub/src/app.py",
                "/repo/sub/src/main.py",
                "/repo/sub/obsolete.txt",
                "/abs/elsewhere.rs",
            ]
            .map(PathBuf::from)
        );
        // A hunk line that only looks like a marker is content, not a file.
        let tricky =
            "*** Begin Patch\n*** Update File: a.md\n@@\n+*** Add File: not-a-file\n*** End Patch";
        assert_eq!(
            patch_files(tricky, Path::new("/r")),
            [PathBuf::from("/r/a.md")]
        );
        assert!(patch_files("echo hi", Path::new("/r")).is_empty());
    }
}
