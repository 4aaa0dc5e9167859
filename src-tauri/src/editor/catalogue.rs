//! What the editor's event picker and matcher field show: every event of
//! the core's catalogue with its one-line description, and a live check of
//! a matcher (the core's parser: its kind, or the error with its position,
//! and which known tool names or values it matches).

use hookd_core::settings::events::{self, Connected, EVENTS, MatchField};
use hookd_core::settings::matcher::Matcher;
use hookd_core::settings::resolve_event;
use serde::Serialize;
use ts_rs::TS;

use crate::error::Result;

/// One event of the catalogue, for the event picker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct HookEventInfo {
    /// The agent's name (`PreToolUse`).
    pub name: String,
    /// How the ledger stores it (`pre_tool_use`): the core's normalisation,
    /// so the window never re-implements it.
    pub stored: String,
    /// `hookd connect` makes the agent send it to hookd, so the ledger can
    /// hold it (the timeline's event-type suggestions).
    pub recorded: bool,
    /// When it fires, in one line.
    pub description: String,
    /// Whether a group's matcher is used (otherwise every group runs).
    pub takes_matcher: bool,
    /// The payload field the matcher is tested against (`tool_name`, `source`, ...).
    pub match_field: Option<String>,
    /// The timeout a hook gets without its own `timeout`, in seconds.
    pub default_timeout_secs: u64,
    /// Values the matcher is usually tested against (tool names, sources, ...).
    pub known_targets: Vec<String>,
}

/// The result of checking a matcher as it is typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct MatcherCheck {
    /// It parses.
    pub ok: bool,
    /// `all`, `exact` or `regex` when it parses.
    pub kind: Option<String>,
    /// Why it does not parse.
    pub error: Option<String>,
    /// Character offset of the problem, when the regex engine names one.
    pub position: Option<u64>,
    /// Whether the event uses matchers at all (if not, every group runs).
    pub supported: bool,
    /// The payload field it is tested against.
    pub field: Option<String>,
    /// The known targets (see [`HookEventInfo::known_targets`]) it matches.
    pub matches: Vec<String>,
    /// How many known targets there are (to say "all 14" or "none of 14").
    pub known: u64,
}

/// The catalogue, in the core's order.
pub fn hook_events() -> Vec<HookEventInfo> {
    EVENTS
        .iter()
        .map(|spec| HookEventInfo {
            name: spec.name.to_owned(),
            stored: hookd_core::names::normalize_hook_type(spec.name),
            recorded: spec.connected != Connected::No,
            description: events::description(spec.name).to_owned(),
            takes_matcher: spec.matcher != MatchField::None,
            match_field: field_name(spec.matcher),
            default_timeout_secs: spec.default_timeout_secs,
            known_targets: events::known_targets(spec)
                .iter()
                .map(|t| (*t).to_owned())
                .collect(),
        })
        .collect()
}

/// Checks `text` as a matcher of `event` (`None`: no matcher). An unknown
/// event is an error; an invalid matcher is a result with `ok: false`.
pub fn check_matcher(event: &str, text: Option<&str>) -> Result<MatcherCheck> {
    let spec = resolve_event(event).map_err(super::settings_error)?;
    let known = events::known_targets(spec);
    let supported = spec.matcher != MatchField::None;
    let base = MatcherCheck {
        ok: true,
        kind: None,
        error: None,
        position: None,
        supported,
        field: field_name(spec.matcher),
        matches: Vec::new(),
        known: known.len() as u64,
    };
    Ok(match Matcher::parse(text) {
        Ok(matcher) => MatcherCheck {
            kind: Some(matcher.kind().to_owned()),
            matches: known
                .iter()
                .filter(|t| !supported || matcher.matches(Some(t)))
                .map(|t| (*t).to_owned())
                .collect(),
            ..base
        },
        Err(err) => MatcherCheck {
            ok: false,
            error: Some(err.to_string()),
            position: err.position.map(|p| p as u64),
            ..base
        },
    })
}

fn field_name(field: MatchField) -> Option<String> {
    match field {
        MatchField::None => None,
        MatchField::Payload(name) => Some(name.to_owned()),
    }
}
