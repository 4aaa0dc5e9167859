//! The hooks that actually apply to a project: every scope's file read and
//! concatenated in the agent's order, duplicates marked, disabled hooks
//! listed beside them, and the question "which of these run for this
//! event and payload, and why (not)" answered in one place.
//!
//! The daemon asks [`EffectiveHooks::matching`] for every event it runs
//! managed hooks for; `hookd hooks list` and `hookd hooks test` show the same
//! data, so what the user sees is what runs. Matchers are compiled once when
//! the view is built, not per event.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::executor::HookInvocation;
use crate::settings::events::{self, EventSpec, MatchField};
use crate::settings::matcher::{MatchReason, Matcher};

use super::disabled::DisabledStore;
use super::document::SettingsDocument;
use super::edit::{group_matcher, same_handler};
use super::error::{Result, SettingsError};
use super::if_rule;
use super::location::{Kind, Scope, SettingsLocation, SettingsRoots};
use super::trust::{self, Trust, TrustStore};

/// The event of a hook: a catalogue entry, or the raw key when it is not
/// one (only possible for a disabled hook recorded by another version).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventRef {
    /// A known event.
    Known(&'static EventSpec),
    /// A name the catalogue does not know.
    Unknown(String),
}

impl EventRef {
    fn from_name(name: &str) -> Self {
        events::EVENTS
            .iter()
            .find(|e| e.name == name)
            .map_or_else(|| Self::Unknown(name.to_owned()), Self::Known)
    }

    /// The event's agent name.
    pub fn name(&self) -> &str {
        match self {
            Self::Known(spec) => spec.name,
            Self::Unknown(name) => name,
        }
    }

    /// The catalogue entry, when known.
    pub fn spec(&self) -> Option<&'static EventSpec> {
        match self {
            Self::Known(spec) => Some(spec),
            Self::Unknown(_) => None,
        }
    }
}

impl Serialize for EventRef {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// One handler as it applies to the project.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EffectiveHook {
    /// Who runs it.
    pub kind: Kind,
    /// Which file of that kind.
    pub scope: Scope,
    /// That file.
    pub path: PathBuf,
    /// Its event.
    pub event: EventRef,
    /// Index of its group in the event's array.
    pub group_index: usize,
    /// Its group's matcher text (`None`: absent).
    pub matcher: Option<String>,
    /// Index within the group's `hooks`.
    pub handler_index: usize,
    /// The handler, verbatim.
    pub handler: Value,
    /// `command`, `http`, `prompt`, `mcp_tool` or `agent`.
    pub handler_type: String,
    /// The command of a command handler.
    pub command: Option<String>,
    /// Its `timeout` in seconds, when set.
    pub timeout: Option<f64>,
    /// False for a hook disabled through hookd (kept in its store, not in the file).
    pub enabled: bool,
    /// Index of the first identical hook (same event, equivalent matcher,
    /// same command or JSON) earlier in the list: this one runs only once.
    pub duplicate_of: Option<usize>,
    /// Why hookd will not run it although it matches: its file is a
    /// project's managed file whose content the user has not approved
    /// ([`super::trust`]). `None` when it may run.
    pub untrusted: Option<String>,
}

impl EffectiveHook {
    fn new(
        location: &SettingsLocation,
        event: &str,
        group_index: usize,
        matcher: Option<&str>,
        handler_index: usize,
        handler: &Value,
        enabled: bool,
    ) -> Self {
        let handler_type = handler
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let command = (handler_type == "command")
            .then(|| handler.get("command").and_then(Value::as_str))
            .flatten()
            .map(str::to_owned);
        Self {
            kind: location.kind,
            scope: location.scope,
            path: location.path.clone(),
            event: EventRef::from_name(event),
            group_index,
            matcher: matcher.map(str::to_owned),
            handler_index,
            handler: handler.clone(),
            handler_type,
            command,
            timeout: handler.get("timeout").and_then(Value::as_f64),
            enabled,
            duplicate_of: None,
            untrusted: None,
        }
    }

    /// What the executor needs to run it; `None` unless it is a command
    /// hook (the only type hookd runs).
    pub fn invocation(&self) -> Option<HookInvocation> {
        let command = self.command.clone()?;
        Some(HookInvocation {
            command,
            timeout: self
                .timeout
                .and_then(|secs| Duration::try_from_secs_f64(secs).ok()),
            scope: self.scope.as_str().to_owned(),
            source: self.path.clone(),
            matcher: self.matcher.clone(),
            fail_closed: self.handler.get("onFailure").and_then(Value::as_str) == Some("block"),
        })
    }

    /// What it runs, for display: the command, URL or prompt, else the
    /// handler's JSON.
    pub fn summary(&self) -> String {
        ["command", "url", "prompt"]
            .iter()
            .find_map(|key| self.handler.get(*key).and_then(Value::as_str))
            .map_or_else(|| self.handler.to_string(), str::to_owned)
    }

    /// The matcher as it is applied: `None` when it matches everything
    /// (absent, empty, `*`) or the event ignores matchers.
    fn matcher_key(&self) -> Option<&str> {
        matcher_key(self.event.name(), self.matcher.as_deref())
    }
}

/// A matcher as it decides what runs, for comparing hooks: none for an
/// event that takes no matcher, and for an empty or `*` one (both match
/// everything).
pub(crate) fn matcher_key<'a>(event: &str, matcher: Option<&'a str>) -> Option<&'a str> {
    let supported =
        super::events::lookup(event).is_some_and(|spec| spec.matcher != MatchField::None);
    let text = matcher?.trim();
    (supported && !text.is_empty() && text != "*").then_some(text)
}

/// A settings file that took part in the view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LoadedFile {
    /// Which file.
    pub location: SettingsLocation,
    /// It existed.
    pub exists: bool,
    /// It was skipped as invalid (lenient view only).
    pub skipped: bool,
    /// Whether hookd may run its hooks ([`super::trust`]).
    pub trust: Trust,
}

/// The effective hooks of one or more kinds for a project.
#[derive(Debug, Clone, Default)]
pub struct EffectiveHooks {
    /// Every handler in order: per kind, global, project, local, policy;
    /// within a file, document order; a file's disabled hooks after its
    /// enabled ones.
    pub hooks: Vec<EffectiveHook>,
    /// The files read, in the same order.
    pub files: Vec<LoadedFile>,
    /// Files whose `disableAllHooks: true` is in force for their kind (the
    /// highest-precedence file that sets the key decides): no hook of that
    /// kind runs, but one set outside the policy file spares the policy
    /// file's hooks (Claude Code's rule; see [`super::runs`]).
    pub all_disabled_by: Vec<SettingsLocation>,
    /// The policy file, when its `allowManagedHooksOnly: true` is in force:
    /// the agent runs only the policy file's own hooks.
    pub managed_only: Option<SettingsLocation>,
    /// Compiled matchers, parallel to `hooks` (`None`: did not compile).
    matchers: Vec<Option<Matcher>>,
}

/// A hook that runs for an event, and why.
#[derive(Debug, Clone)]
pub struct MatchedHook<'a> {
    /// Its index in [`EffectiveHooks::hooks`].
    pub index: usize,
    /// The hook.
    pub hook: &'a EffectiveHook,
    /// Why it matched ([`MatchReason::NotSupported`]: the event ignores matchers).
    pub reason: MatchReason,
}

impl MatchedHook<'_> {
    /// What the executor needs to run it; `None` unless it is a command
    /// hook (the only type hookd runs).
    pub fn invocation(&self) -> Option<HookInvocation> {
        self.hook.invocation()
    }
}

/// Whether a hook of the event runs, for `hookd hooks test`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchOutcome {
    /// It runs.
    Runs(MatchReason),
    /// Its matcher does not match the payload.
    NoMatch {
        /// The payload field tested.
        field: &'static str,
        /// That field's value (`None`: the payload lacks it).
        target: Option<String>,
    },
    /// Disabled through hookd.
    Disabled,
    /// An identical hook earlier in the list runs instead (index into the list).
    Duplicate(usize),
    /// `disableAllHooks: true` in this file turns all hooks of its kind off.
    AllHooksDisabled(PathBuf),
    /// The policy file (this one) sets `allowManagedHooksOnly: true`: the
    /// agent runs only the policy file's hooks, not this one.
    ManagedHooksOnly(PathBuf),
    /// Its matcher does not compile (a file only the lenient view reads).
    BadMatcher,
    /// Its matcher matches, but its handler's `if` rule does not
    /// ([`super::if_rule`]); the rule.
    IfNotMet(String),
    /// It matches, but its file's content was not approved: hookd skips it
    /// (the reason says which file and how to approve it).
    Untrusted(String),
}

/// One hook of the event with its outcome.
#[derive(Debug, Clone)]
pub struct MatchCheck<'a> {
    /// Its index in [`EffectiveHooks::hooks`].
    pub index: usize,
    /// The hook.
    pub hook: &'a EffectiveHook,
    /// Whether it runs, and why (not).
    pub outcome: MatchOutcome,
}

impl EffectiveHooks {
    /// The hooks that run for `event_name` (agent or snake_case name) with
    /// `payload`: enabled, not duplicates, and matched per the event's match
    /// field (events without matcher support ignore the matcher). A hook
    /// identical to one already matched runs once, as the agent does.
    pub fn matching(&self, event_name: &str, payload: &Value) -> Vec<MatchedHook<'_>> {
        self.matching_all(event_name, payload)
            .into_iter()
            .filter_map(|check| match check.outcome {
                MatchOutcome::Runs(reason) => Some(MatchedHook {
                    index: check.index,
                    hook: check.hook,
                    reason,
                }),
                _ => None,
            })
            .collect()
    }

    /// Every hook of `event_name`, in list order, with whether it runs for
    /// `payload` and why (not). Empty for an unknown event.
    pub fn matching_all(&self, event_name: &str, payload: &Value) -> Vec<MatchCheck<'_>> {
        let Some(spec) = events::lookup(event_name) else {
            return Vec::new();
        };
        let target = events::match_target(spec, payload);
        let home = crate::dirs::home_dir().ok();
        let mut checks: Vec<MatchCheck<'_>> = Vec::new();
        for (index, hook) in self.hooks.iter().enumerate() {
            if hook.event.name() != spec.name {
                continue;
            }
            let outcome = if !hook.enabled {
                MatchOutcome::Disabled
            } else if let Some(off) = self.all_disabled_by.iter().find(|l| {
                // Only the policy file's own switch stops the policy file's hooks.
                l.kind == hook.kind && (hook.scope != Scope::Policy || l.scope == Scope::Policy)
            }) {
                MatchOutcome::AllHooksDisabled(off.path.clone())
            } else if let Some(policy) = self
                .managed_only
                .as_ref()
                .filter(|_| hook.kind == Kind::Agent && hook.scope != Scope::Policy)
            {
                MatchOutcome::ManagedHooksOnly(policy.path.clone())
            } else if let Some(first) = hook.duplicate_of {
                MatchOutcome::Duplicate(first)
            } else {
                match (spec.matcher, self.matchers.get(index)) {
                    (MatchField::None, _) => MatchOutcome::Runs(MatchReason::NotSupported),
                    (MatchField::Payload(field), Some(Some(matcher))) => {
                        match matcher.explain(target) {
                            Some(reason) => MatchOutcome::Runs(reason),
                            None => MatchOutcome::NoMatch {
                                field,
                                target: target.map(str::to_owned),
                            },
                        }
                    }
                    (MatchField::Payload(_), _) => MatchOutcome::BadMatcher,
                }
            };
            let outcome = match (outcome, hook.handler.get("if").and_then(Value::as_str)) {
                (MatchOutcome::Runs(_), Some(rule))
                    if !if_rule::allows(rule, spec, payload, home.as_deref()) =>
                {
                    MatchOutcome::IfNotMet(rule.to_owned())
                }
                (outcome, _) => outcome,
            };
            // Same handler in two groups whose matchers both match: the
            // agent runs it once, so only the first counts.
            let outcome = match outcome {
                MatchOutcome::Runs(reason) => checks
                    .iter()
                    .find(|c| {
                        matches!(c.outcome, MatchOutcome::Runs(_))
                            && c.hook.kind == hook.kind
                            && same_handler(&c.hook.handler, &hook.handler)
                    })
                    .map_or(MatchOutcome::Runs(reason), |c| {
                        MatchOutcome::Duplicate(c.index)
                    }),
                other => other,
            };
            let outcome = match (outcome, &hook.untrusted) {
                (MatchOutcome::Runs(_), Some(why)) => MatchOutcome::Untrusted(why.clone()),
                (outcome, _) => outcome,
            };
            checks.push(MatchCheck {
                index,
                hook,
                outcome,
            });
        }
        checks
    }

    /// Appends another view (another kind), keeping its duplicate indexes right.
    pub fn append(&mut self, mut other: Self) {
        let offset = self.hooks.len();
        for hook in &mut other.hooks {
            if let Some(first) = hook.duplicate_of.as_mut() {
                *first += offset;
            }
        }
        self.hooks.append(&mut other.hooks);
        self.matchers.append(&mut other.matchers);
        self.files.append(&mut other.files);
        self.all_disabled_by.append(&mut other.all_disabled_by);
        if self.managed_only.is_none() {
            self.managed_only = other.managed_only;
        }
    }

    /// This view with the hooks of the file at `location` replaced by those
    /// of `value`, a draft of that file as it would be saved (its disabled
    /// hooks stay listed). The draft's hooks count as approved: the user is
    /// the one giving them. Duplicates are marked again.
    pub fn with_draft(&self, location: &SettingsLocation, value: &Value) -> Self {
        let mut draft = Self::default();
        add_file(&mut draft, location, value);
        let mut out = Self {
            files: self.files.clone(),
            all_disabled_by: self.all_disabled_by.clone(),
            managed_only: self.managed_only.clone(),
            ..Self::default()
        };
        let mut placed = false;
        for (hook, matcher) in self.hooks.iter().zip(&self.matchers) {
            let of_draft = hook.kind == location.kind && hook.path == location.path;
            if of_draft && !placed {
                placed = true;
                for (h, m) in draft.hooks.drain(..).zip(draft.matchers.drain(..)) {
                    out.hooks.push(h);
                    out.matchers.push(m);
                }
            }
            if of_draft && hook.enabled {
                continue;
            }
            let mut hook = hook.clone();
            hook.duplicate_of = None;
            out.hooks.push(hook);
            out.matchers.push(matcher.clone());
        }
        // A file that had no hooks: the draft's go last.
        for (h, m) in draft.hooks.into_iter().zip(draft.matchers) {
            out.hooks.push(h);
            out.matchers.push(m);
        }
        out.mark_duplicates();
        out
    }

    /// Marks each enabled hook identical to an earlier enabled one of the
    /// same kind and event with an equivalent matcher.
    fn mark_duplicates(&mut self) {
        for i in 0..self.hooks.len() {
            let (earlier, rest) = self.hooks.split_at_mut(i);
            let Some(hook) = rest.first_mut() else {
                continue;
            };
            if !hook.enabled {
                continue;
            }
            hook.duplicate_of = earlier.iter().position(|e| {
                e.enabled
                    && e.duplicate_of.is_none()
                    && e.kind == hook.kind
                    && e.event == hook.event
                    && e.matcher_key() == hook.matcher_key()
                    && same_handler(&e.handler, &hook.handler)
            });
        }
    }

    fn push(&mut self, hook: EffectiveHook) {
        let matcher = Matcher::parse(hook.matcher.as_deref()).ok();
        self.matchers.push(matcher);
        self.hooks.push(hook);
    }
}

/// The effective hooks of `kind` for `project` (roots from the
/// environment). Any unreadable, unparsable or invalid file is an error
/// naming the file and every problem in it.
pub fn effective(kind: Kind, project: Option<&Path>) -> Result<EffectiveHooks> {
    effective_in(&SettingsRoots::from_env()?, kind, project)
}

/// Like [`effective`], but a file that cannot be used is skipped and its
/// error returned alongside, so one broken file does not stop every other
/// hook (what the daemon wants).
pub fn effective_lenient(
    kind: Kind,
    project: Option<&Path>,
) -> Result<(EffectiveHooks, Vec<SettingsError>)> {
    effective_lenient_in(&SettingsRoots::from_env()?, kind, project)
}

/// [`effective`] with explicit roots.
pub fn effective_in(
    roots: &SettingsRoots,
    kind: Kind,
    project: Option<&Path>,
) -> Result<EffectiveHooks> {
    let (view, mut errors) = build(roots, kind, project)?;
    if errors.is_empty() {
        Ok(view)
    } else {
        Err(errors.remove(0))
    }
}

/// [`effective_lenient`] with explicit roots.
pub fn effective_lenient_in(
    roots: &SettingsRoots,
    kind: Kind,
    project: Option<&Path>,
) -> Result<(EffectiveHooks, Vec<SettingsError>)> {
    build(roots, kind, project)
}

/// Builds the view, collecting per-file errors. Only a failure to find the
/// files at all (no home) is returned as `Err`.
fn build(
    roots: &SettingsRoots,
    kind: Kind,
    project: Option<&Path>,
) -> Result<(EffectiveHooks, Vec<SettingsError>)> {
    let locations = roots.locations(kind, project)?;
    let mut errors = Vec::new();
    let disabled = DisabledStore::for_roots(roots)
        .load()
        .unwrap_or_else(|err| {
            errors.push(err);
            Vec::new()
        });
    let trusted = if locations.iter().any(trust::needs_trust) {
        TrustStore::for_roots(roots).load().unwrap_or_else(|err| {
            // Unreadable approvals approve nothing.
            errors.push(err);
            Vec::new()
        })
    } else {
        Vec::new()
    };
    let file_trust = |location: &SettingsLocation, bytes: Option<&[u8]>| {
        if trust::needs_trust(location) {
            trust::trust_in(&trusted, &location.path, bytes)
        } else {
            Trust::NotRequired
        }
    };
    let mut view = EffectiveHooks::default();
    let mut disable_all: Option<(bool, &SettingsLocation)> = None;
    for location in &locations {
        let doc = SettingsDocument::load(location).and_then(|doc| {
            let problems = doc.errors();
            if problems.is_empty() {
                Ok(doc)
            } else {
                Err(SettingsError::Invalid {
                    path: location.path.clone(),
                    errors: problems,
                })
            }
        });
        let doc = match doc {
            Ok(doc) => doc,
            Err(err) => {
                errors.push(err);
                view.files.push(LoadedFile {
                    location: location.clone(),
                    exists: location.path.exists(),
                    skipped: true,
                    trust: file_trust(location, None),
                });
                continue;
            }
        };
        let trust = file_trust(location, doc.original_bytes());
        let untrusted = trust.skip_reason(&location.path);
        view.files.push(LoadedFile {
            location: location.clone(),
            exists: doc.existed(),
            skipped: false,
            trust,
        });
        let first_of_file = view.hooks.len();
        // Later files take precedence for this key (global < project <
        // local < policy), as for every key but hooks. The value in force
        // stops every hook of the kind, but one set outside the policy file
        // spares the policy file's hooks (see `matching_all`).
        if let Some(flag) = doc.value().get("disableAllHooks") {
            disable_all = Some((flag == &Value::Bool(true), location));
        }
        // A key of the policy file only (Claude Code ignores it elsewhere).
        if location.scope == Scope::Policy
            && doc.value().get("allowManagedHooksOnly") == Some(&Value::Bool(true))
        {
            view.managed_only = Some(location.clone());
        }
        add_file(&mut view, location, doc.value());
        for hook in disabled.iter().filter(|d| d.belongs_to(location)) {
            view.push(EffectiveHook::new(
                location,
                &hook.event,
                hook.group_index,
                hook.matcher.as_deref(),
                hook.handler_index,
                &hook.handler,
                false,
            ));
        }
        if let Some(why) = untrusted {
            for hook in &mut view.hooks[first_of_file..] {
                hook.untrusted = Some(why.clone());
            }
        }
    }
    if let Some((true, location)) = disable_all {
        view.all_disabled_by.push(location.clone());
    }
    view.mark_duplicates();
    Ok((view, errors))
}

/// The handlers of one validated document at `location`, in document
/// order, as [`build`] adds them (for a review of one file).
pub(crate) fn file_hooks(location: &SettingsLocation, value: &Value) -> Vec<EffectiveHook> {
    let mut view = EffectiveHooks::default();
    add_file(&mut view, location, value);
    view.hooks
}

/// Adds the handlers of one validated document, in document order.
fn add_file(view: &mut EffectiveHooks, location: &SettingsLocation, value: &Value) {
    let Some(hooks) = value.get("hooks").and_then(Value::as_object) else {
        return;
    };
    for (event, groups) in hooks {
        for (gi, group) in groups.as_array().into_iter().flatten().enumerate() {
            let matcher = group_matcher(group);
            let handlers = group.get("hooks").and_then(Value::as_array);
            for (hi, handler) in handlers.into_iter().flatten().enumerate() {
                view.push(EffectiveHook::new(
                    location, event, gi, matcher, hi, handler, true,
                ));
            }
        }
    }
}
