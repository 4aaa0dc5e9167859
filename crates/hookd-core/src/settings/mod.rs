//! The hook settings model: which files hold a project's hooks, how to read,
//! check and edit them without damaging anything else in them, how to turn
//! a hook off and on again, and which hooks apply to an event.
//!
//! Two kinds of files share Claude Code's format: [`Kind::Agent`] files
//! (`~/.claude/settings.json`, `<project>/.claude/settings.json`,
//! `<project>/.claude/settings.local.json`, plus the read-only policy file),
//! whose hooks the agent runs, and [`Kind::Managed`] files
//! (`$HOOKD_HOME/settings.json`, `<project>/.hookd/settings.json`,
//! `<project>/.hookd/settings.local.json`), whose hooks hookd's daemon runs.
//!
//! - [`location`](mod@location): where the files are ([`SettingsRoots`], [`locations`]).
//! - [`document`](mod@document): one file loaded with its bytes and formatting, saved with
//!   validation, an optimistic concurrency check and an atomic write.
//! - [`format`](mod@format): the formatting detection and rendering shared with
//!   [`crate::settings::connect`].
//! - [`validate`](mod@validate): path-precise checks against the hook contract.
//! - [`edit`](mod@edit): surgical add/remove/restore of handlers, and replacing the
//!   whole `hooks` tree for editors.
//! - [`disabled`](mod@disabled): disable/enable through hookd's store of disabled hooks.
//! - [`effective`](mod@effective): the concatenated, deduplicated view and event matching.
//! - [`containers`](mod@containers): the user's empty `hooks` and event lists
//!   survive a hook added into them and removed again.
//! - [`plugins`](mod@plugins): the hooks installed Claude Code plugins ship,
//!   listed read-only with their plugin.
//! - [`components`](mod@components): the hooks skills and subagents carry in
//!   their frontmatter, listed read-only with the skill or agent.
//! - [`connector`](mod@connector): one face for connecting every other
//!   agent: [`codex`](mod@codex) (`hooks.json`), [`gemini`](mod@gemini)
//!   (`settings.json`), [`cursor`](mod@cursor) (`hooks.json`) and
//!   [`copilot`](mod@copilot) (hookd's own file among Copilot's), where
//!   `hookd connect --agent X` adds `hookd-emit` entries.
//! - [`agent_files`](mod@agent_files): those agents' hooks files as they are;
//!   [`agent_layers`](mod@agent_layers) for the ones an administrator owns
//!   (Codex CLI's system layer and `requirements.toml`, Gemini CLI's system
//!   settings, Cursor's enterprise file) and Gemini CLI's extensions ship,
//!   read only.
//! - [`agent_edit`](mod@agent_edit): a hook added to, changed in or removed from one of them, previewed first;
//!   [`codex_toml`](mod@codex_toml) for the `[hooks]` of Codex CLI's `config.toml`;
//!   [`agent_disabled`](mod@agent_disabled): one of their hooks disabled
//!   and enabled again through hookd's store of disabled hooks.
//! - [`runs`](mod@runs): whether each hook will really run for a project, and
//!   every reason it will not (record-only, untrusted, policy, ...).
//! - [`trust`](mod@trust): which project managed hook files the user approved
//!   (by the SHA-256 of their bytes), so only those run.

pub mod agent_disabled;
pub mod agent_edit;
pub mod agent_files;
pub mod agent_layers;
pub mod agent_runs;
pub mod agent_schema;
pub mod backups;
pub mod codex;
pub mod codex_toml;
pub mod codex_trust;
pub mod components;
pub mod connect;
pub mod connector;
pub mod containers;
pub mod convert;
pub mod converted;
pub mod copilot;
pub mod cursor;
pub mod disabled;
pub mod document;
pub mod edit;
pub mod effective;
pub mod error;
pub mod events;
mod flat;
pub mod format;
pub mod gemini;
pub mod if_rule;
pub mod location;
pub mod matcher;
pub mod patch;
pub mod plugins;
pub mod runs;
mod store;
pub mod templates;
pub mod trust;
pub mod validate;
pub mod version;
pub mod watch;

pub use disabled::{DisabledHook, DisabledStore, disable, enable};
pub use document::SettingsDocument;
pub use edit::{
    HookPosition, HookSelector, RemovedHook, add_hook, command_handler, remove_hook, replace_hooks,
    resolve_event, restore_hook, same_handler,
};
pub use effective::{
    EffectiveHook, EffectiveHooks, EventRef, LoadedFile, MatchCheck, MatchOutcome, MatchedHook,
    effective, effective_in, effective_lenient, effective_lenient_in,
};
pub use error::{Result, SettingsError};
pub use format::Format;
pub use location::{Kind, Scope, SettingsLocation, SettingsRoots, hookd_home, location, locations};
pub use runs::{NotRun, NotRunCode, RunVerdict, Verdicts};
pub use trust::{Trust, TrustStore};
pub use validate::{BadMatcher, ValidationError, bad_matchers, validate};
pub use version::version_token;

/// What a save did (re-exported from [`crate::fs_atomic`]).
pub use crate::fs_atomic::WriteOutcome;
