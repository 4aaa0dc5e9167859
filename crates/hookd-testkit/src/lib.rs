//! Test helpers for every hookd test suite, in one place.
//!
//! The end-to-end suite, the desktop app's tests and each crate's
//! integration tests need the same things: an isolated environment (HOME,
//! data dir, socket, no policy file), real git repositories, the real
//! binaries as processes, ledgers read back, payloads and envelopes, and a
//! way to wait for what another process does. They used to carry their own
//! copies of these, which drifted apart (waits that returned a `Result`, a
//! `bool` or panicked, with their arguments in different orders; a
//! hand-rolled temp dir beside `tempfile`; git repositories made three
//! ways); this crate holds the one copy.
//!
//! A dev-dependency only: nothing here ships. It depends on hookd-core (the
//! ledger and extraction code the daemon itself uses) but never on tauri or
//! lapin; helpers that need those stay in the one crate that uses them.

pub mod amqp;
pub mod bins;
pub mod claude;
pub mod env;
pub mod fs;
pub mod git;
pub mod history;
pub mod jsonc;
pub mod ledger;
pub mod listener;
pub mod names;
pub mod payload;
pub mod process;
pub mod run;
pub mod settings;
pub mod wait;

pub use bins::{bash_emitter, bin, workspace_root};
pub use env::TestEnv;
pub use fs::{
    is_symlink, names_in, pretty_json, private_tempdir, read_json, write_file, write_json_pretty,
    write_script,
};
pub use git::{GitRepo, commit_all, commit_index, init_repo};
pub use jsonc::{parse_jsonc, strip_json_comments};
pub use ledger::{
    ledger_count, ledger_entry, open_ledger, record, record_as_schema_11, wait_for_count,
    wait_for_ledger_count,
};
pub use listener::{NOBODY, PlantedListener, is_root};
pub use names::{unique, unique_name};
pub use payload::{Event, envelope_line, tool_payload};
pub use process::{
    ChildProcess, Signal, pgrp, process_gone, raise_open_files_limit, read_pids, rss_kib, signal,
};
pub use run::{Run, run, run_with_stdin, sh};
pub use settings::{SettingsFixture, user_settings};
pub use wait::{poll_until, poll_until_async, wait_until, wait_until_async};
