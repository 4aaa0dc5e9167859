//! Where the workspace's binaries and fixtures are.
//!
//! A crate's own binaries are best reached with `env!("CARGO_BIN_EXE_<name>")`,
//! which also makes cargo build them; [`bin`] finds the others (the
//! end-to-end suite drives `hookd` and `hookd-emit`, which belong to other
//! crates) next to the test executable.

use std::path::{Path, PathBuf};

/// Path of a workspace binary in the same profile as the running test; a
/// missing one is a loud failure naming the command that builds it.
pub fn bin(name: &str) -> PathBuf {
    // Tests run from target/<profile>/deps/<test>-<hash>.
    let exe = std::env::current_exe().expect("test executable path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>");
    let path = profile_dir.join(name);
    assert!(
        path.is_file(),
        "{} is missing: build the workspace binaries first (`cargo build --workspace --bins`, or run scripts/test)",
        path.display()
    );
    path
}

/// The workspace's root directory.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The bash + jq + socat emitter users had before hookd
/// (`tests/fixtures/bash-emitter.sh`), which hookd-emit stays compatible with.
pub fn bash_emitter() -> PathBuf {
    workspace_root().join("tests/fixtures/bash-emitter.sh")
}
