//! Codex CLI's trust in one hook, checked the way Codex checks it.
//!
//! Codex runs an unmanaged hook (the user's, a trusted project's) only when
//! the user trusted that exact hook in its `/hooks` browser: the user's
//! `config.toml` then keeps `[hooks.state."<key>"] trusted_hash =
//! "sha256:…"`, and Codex compares it with the hash of the hook as it is now
//! (`docs/agent-hooks.md` §1.1). Any change to the hook changes the hash and
//! stops it until it is trusted again, so hookd computes the same hash to
//! say whether the hook really runs ([`super::agent_runs`]) instead of
//! leaving it as a condition.
//!
//! What Codex hashes (`openai/codex`, `codex-rs/hooks/src/engine/discovery.rs`
//! `hook_hash` / `command_hook_hash` at `0082977cebb9fbd524046914dbc4305e5b8e0b95`,
//! and its later form with `SessionEnd`, `Interrupt` and
//! `additionalContextLimit`; `codex-rs/config/src/fingerprint.rs`
//! `version_for_toml`, re-exported by `codex-rs/config/src/lib.rs` at
//! `0027f119d65eb282df75ec45d16622a05662e87a`; `canonicalize` in
//! `codex-rs/config/src/schema.rs` at `15830659af0807765c623b78856ad46b5412f0cb`):
//! - the identity `{event_name, matcher, hooks: [handler]}`: the event's
//!   snake_case label, the group's matcher (dropped for the events that
//!   ignore matchers), and the one handler normalized: `command` (on
//!   Windows `commandWindows` when set, and never `commandWindows` itself),
//!   the timeout with its default filled in and clamped, `async`,
//!   `statusMessage` when set, `additionalContextLimit` when it matters;
//! - serialized to a TOML value (which leaves out every unset field), that
//!   value as JSON with every object's keys sorted, written compactly by
//!   `serde_json`; the SHA-256 of those bytes in lowercase hex after
//!   `sha256:`.
//!
//! So the same hook in `hooks.json` and in `[hooks]` of `config.toml` has
//! one hash, and the script a command runs is not part of it. The rules
//! below are those of Codex 0.156: the events, matchers, timeouts and
//! `additionalContextLimit` of older releases differ for a few events (an
//! older `PreCompact` ignored its matcher). The test vector is a hash Codex
//! itself wrote into a user's `config.toml`.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// Codex's default hook timeout, in seconds.
const DEFAULT_TIMEOUT_SECS: u64 = 600;

/// The default timeout of `SessionEnd` and `Interrupt` hooks, in seconds.
const SHORT_DEFAULT_TIMEOUT_SECS: u64 = 1;

/// The most seconds Codex gives a `SessionEnd` or `Interrupt` hook.
const SHORT_MAX_TIMEOUT_SECS: u64 = 3;

/// Codex's default `additionalContextLimit` (`DEFAULT_HOOK_OUTPUT_TOKEN_LIMIT`
/// in `codex-rs/hooks/src/output_spill.rs`): a limit equal to it is left
/// out of the identity, as if unset.
const DEFAULT_CONTEXT_LIMIT: u64 = 2_500;

/// How Codex treats one event's hooks when it hashes them.
struct EventRule {
    /// The event as hooks files spell it (`PreToolUse`).
    name: &'static str,
    /// Its label in the identity and in the state key (`pre_tool_use`).
    label: &'static str,
    /// Codex reads the group's matcher (`matcher_pattern_for_event`).
    matcher: bool,
    /// The short default timeout and its cap apply (`normalize_command_hook`).
    short_timeout: bool,
    /// The event can add context, so `additionalContextLimit` counts.
    context: bool,
}

const fn rule(
    name: &'static str,
    label: &'static str,
    matcher: bool,
    short_timeout: bool,
    context: bool,
) -> EventRule {
    EventRule {
        name,
        label,
        matcher,
        short_timeout,
        context,
    }
}

/// Codex's events (`HookEventsToml` in `codex-rs/config/src/hook_config.rs`).
const EVENTS: [EventRule; 12] = [
    rule("PreToolUse", "pre_tool_use", true, false, true),
    rule(
        "PermissionRequest",
        "permission_request",
        true,
        false,
        false,
    ),
    rule("PostToolUse", "post_tool_use", true, false, true),
    rule("PreCompact", "pre_compact", true, false, false),
    rule("PostCompact", "post_compact", true, false, false),
    rule("SessionStart", "session_start", true, false, true),
    rule("SessionEnd", "session_end", true, true, false),
    rule("UserPromptSubmit", "user_prompt_submit", false, false, true),
    rule("SubagentStart", "subagent_start", true, false, true),
    rule("SubagentStop", "subagent_stop", true, false, false),
    rule("Stop", "stop", false, false, false),
    rule("Interrupt", "interrupt", false, true, false),
];

/// Codex's trust status of an unmanaged hook (its `HookTrustStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookTrust {
    /// The stored hash is the hook's hash now: Codex runs it (when enabled).
    Trusted,
    /// A hash is stored, another one: the hook changed since it was trusted,
    /// and Codex does not run it until it is trusted again.
    Modified,
    /// No hash is stored: never trusted, Codex does not run it.
    Untrusted,
}

/// Codex's verdict on a hook whose hash is `current`, given the hash its
/// state holds (`hook_trust_status`): equal bytes or nothing.
pub fn trust(stored: Option<&str>, current: &str) -> HookTrust {
    match stored {
        Some(stored) if stored == current => HookTrust::Trusted,
        Some(_) => HookTrust::Modified,
        None => HookTrust::Untrusted,
    }
}

/// One hook's `[hooks.state."<key>"]` in the user's `config.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookState {
    /// `enabled`: `Some(false)` when turned off in `/hooks`.
    pub enabled: Option<bool>,
    /// `trusted_hash`: the hash of the hook as it was trusted.
    pub trusted_hash: Option<String>,
}

/// The state `config` (the user's `config.toml`) keeps for `key`, read as
/// Codex reads it (`hook_states_from_stack`): keys trimmed, an entry with a
/// field of the wrong type ignored whole, later entries of the same key
/// winning field by field.
pub fn hook_state(config: &toml::Table, key: &str) -> HookState {
    let mut state = HookState::default();
    let Some(toml::Value::Table(states)) = config.get("hooks").and_then(|h| h.get("state")) else {
        return state;
    };
    for (entry_key, entry) in states {
        if entry_key.trim() != key {
            continue;
        }
        let toml::Value::Table(entry) = entry else {
            continue;
        };
        let enabled = match entry.get("enabled") {
            None => None,
            Some(toml::Value::Boolean(on)) => Some(*on),
            Some(_) => continue,
        };
        let trusted_hash = match entry.get("trusted_hash") {
            None => None,
            Some(toml::Value::String(hash)) => Some(hash.clone()),
            Some(_) => continue,
        };
        state.enabled = enabled.or(state.enabled);
        state.trusted_hash = trusted_hash.or(state.trusted_hash);
    }
    state
}

/// The `sha256:<hex>` Codex computes for `handler`, a hook of `event` (as
/// hooks files spell it) in a group whose matcher is `matcher`; the
/// handler as JSON, `[hooks]` of `config.toml` included (its TOML turned
/// into JSON).
///
/// `None` when Codex would not hash it this way: an event it does not
/// know, a handler that is not a `command` one (an `mcp_tool` hook is
/// hashed otherwise), an empty command (Codex skips it), or a field of a
/// type Codex refuses (it drops the file then).
pub fn hook_hash(event: &str, matcher: Option<&str>, handler: &Value) -> Option<String> {
    let rule = EVENTS.iter().find(|rule| rule.name == event)?;
    let h = handler.as_object()?;
    if h.get("type")?.as_str()? != "command" {
        return None;
    }
    let command = h.get("command")?.as_str()?;
    let windows = match (h.get("commandWindows"), h.get("command_windows")) {
        (Some(_), Some(_)) => return None,
        (Some(w), None) | (None, Some(w)) => optional(Some(w), Value::as_str)?,
        (None, None) => None,
    };
    // Codex hashes the command it runs on this platform.
    let command = if cfg!(windows) {
        windows.unwrap_or(command)
    } else {
        command
    };
    if command.trim().is_empty() {
        return None;
    }
    let timeout = optional(h.get("timeout"), Value::as_u64)?;
    let timeout = if rule.short_timeout {
        timeout
            .unwrap_or(SHORT_DEFAULT_TIMEOUT_SECS)
            .clamp(1, SHORT_MAX_TIMEOUT_SECS)
    } else {
        timeout.unwrap_or(DEFAULT_TIMEOUT_SECS).max(1)
    };
    let run_async = match h.get("async") {
        None => false,
        Some(on) => on.as_bool()?,
    };
    let status = optional(h.get("statusMessage"), Value::as_str)?;
    let limit = optional(h.get("additionalContextLimit"), Value::as_u64)?
        .filter(|limit| rule.context && *limit != DEFAULT_CONTEXT_LIMIT);

    let mut normalized = Map::new();
    normalized.insert("type".into(), "command".into());
    normalized.insert("command".into(), command.into());
    normalized.insert("timeout".into(), toml_integer(timeout)?);
    normalized.insert("async".into(), run_async.into());
    if let Some(status) = status {
        normalized.insert("statusMessage".into(), status.into());
    }
    if let Some(limit) = limit {
        normalized.insert("additionalContextLimit".into(), toml_integer(limit)?);
    }
    let mut identity = Map::new();
    identity.insert("event_name".into(), rule.label.into());
    if let Some(matcher) = matcher.filter(|_| rule.matcher) {
        identity.insert("matcher".into(), matcher.into());
    }
    identity.insert(
        "hooks".into(),
        Value::Array(vec![Value::Object(normalized)]),
    );
    Some(fingerprint(&Value::Object(identity)))
}

/// `value` absent or `null` (serde's `None`), or read by `read`; `None`
/// when it is of another type.
fn optional<'a, T>(
    value: Option<&'a Value>,
    read: impl Fn(&'a Value) -> Option<T>,
) -> Option<Option<T>> {
    match value {
        None | Some(Value::Null) => Some(None),
        Some(value) => read(value).map(Some),
    }
}

/// A TOML integer (an `i64`); Codex cannot hash a larger one.
fn toml_integer(n: u64) -> Option<Value> {
    i64::try_from(n).ok().map(Value::from)
}

/// Codex's `version_for_toml` of a value that is already what its TOML
/// value turns into as JSON: the SHA-256 of its canonical compact JSON.
fn fingerprint(value: &Value) -> String {
    let bytes = serde_json::to_vec(&canonical(value)).unwrap_or_default();
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(7 + 2 * digest.len());
    hex.push_str("sha256:");
    for byte in digest {
        hex.push_str(&format!("{byte:02x}"));
    }
    hex
}

/// `value` with every object's keys sorted (Codex's `canonicalize`): this
/// crate's `serde_json` keeps insertion order.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by_key(|(key, _)| *key);
            Value::Object(
                entries
                    .into_iter()
                    .map(|(key, child)| (key.clone(), canonical(child)))
                    .collect(),
            )
        }
        _ => value.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A hash Codex 0.147 wrote into a user's `config.toml` when the user
    /// trusted this `SessionStart` hook of `~/.codex/hooks.json` in
    /// `/hooks` (`trusted_hash` of
    /// `[hooks.state."/Users/esh2n/.codex/hooks.json:session_start:0:0"]`,
    /// published with the hook in a third-party port of this hash).
    #[test]
    fn a_hash_codex_itself_wrote_is_reproduced() {
        let handler = json!({
            "type": "command",
            "command": "bash '/Users/esh2n/.codex/herdr-agent-state.sh' session",
            "timeout": 10,
        });
        assert_eq!(
            hook_hash("SessionStart", None, &handler).as_deref(),
            Some("sha256:34637d171b45f4595a9a8f510e6091670f0e98e4f14c6581b6a4fd947cc49cd5")
        );
    }

    /// The bytes hashed, for a hook with every field that counts.
    #[test]
    fn the_identity_is_sorted_compact_json_of_what_counts() {
        let handler = json!({"type": "command", "command": "./guard.sh", "statusMessage": "Checking",
            "additionalContextLimit": 100, "commandWindows": "guard.cmd", "async": true, "other": 1});
        let identity = json!({"event_name": "pre_tool_use", "matcher": "^Bash$", "hooks": [
            {"type": "command", "command": "./guard.sh", "timeout": 600, "async": true,
             "statusMessage": "Checking", "additionalContextLimit": 100}]});
        assert_eq!(
            serde_json::to_string(&canonical(&identity)).unwrap(),
            r#"{"event_name":"pre_tool_use","hooks":[{"additionalContextLimit":100,"async":true,"command":"./guard.sh","statusMessage":"Checking","timeout":600,"type":"command"}],"matcher":"^Bash$"}"#
        );
        if !cfg!(windows) {
            assert_eq!(
                hook_hash("PreToolUse", Some("^Bash$"), &handler),
                Some(fingerprint(&identity))
            );
        }
    }

    #[test]
    fn the_same_hook_in_hooks_json_and_config_toml_has_one_hash() {
        let json_file: Value = serde_json::from_str(
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "./guard.sh", "timeout": 30, "statusMessage": "Checking"}]}]}}"#,
        )
        .unwrap();
        let toml_file: toml::Table = toml::from_str(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./guard.sh\"\ntimeout = 30\nstatusMessage = \"Checking\"\n",
        )
        .unwrap();
        let toml_file = serde_json::to_value(toml_file).unwrap();
        let hash = |file: &Value| {
            let group = &file["hooks"]["PreToolUse"][0];
            hook_hash("PreToolUse", group["matcher"].as_str(), &group["hooks"][0]).unwrap()
        };
        assert_eq!(hash(&json_file), hash(&toml_file));
    }

    #[test]
    fn a_changed_command_matcher_or_timeout_changes_the_hash() {
        let base = json!({"type": "command", "command": "./a.sh", "timeout": 30});
        let hash = hook_hash("PreToolUse", Some("Bash"), &base).unwrap();
        let changed = [
            hook_hash(
                "PreToolUse",
                Some("Bash"),
                &json!({"type": "command", "command": "./b.sh", "timeout": 30}),
            ),
            hook_hash("PreToolUse", Some("Edit"), &base),
            hook_hash("PreToolUse", None, &base),
            hook_hash(
                "PreToolUse",
                Some("Bash"),
                &json!({"type": "command", "command": "./a.sh", "timeout": 31}),
            ),
            hook_hash(
                "PreToolUse",
                Some("Bash"),
                &json!({"type": "command", "command": "./a.sh", "timeout": 30, "async": true}),
            ),
            hook_hash("PostToolUse", Some("Bash"), &base),
        ];
        for other in changed {
            assert_ne!(other.unwrap(), hash);
        }
    }

    #[test]
    fn defaults_hash_as_if_written_out() {
        let same = |event: &str, a: Value, b: Value| {
            assert_eq!(
                hook_hash(event, None, &a).unwrap(),
                hook_hash(event, None, &b).unwrap(),
                "{a} {b}"
            );
        };
        let cmd = |extra: Value| {
            let mut handler = json!({"type": "command", "command": "./a.sh"});
            handler
                .as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            handler
        };
        // The default timeout is the explicit one; 0 is raised to 1.
        same("Stop", cmd(json!({})), cmd(json!({"timeout": 600})));
        same(
            "Stop",
            cmd(json!({"timeout": null})),
            cmd(json!({"timeout": 600})),
        );
        same(
            "Stop",
            cmd(json!({"timeout": 0})),
            cmd(json!({"timeout": 1})),
        );
        // SessionEnd and Interrupt: 1 second by default, 3 at most.
        same("SessionEnd", cmd(json!({})), cmd(json!({"timeout": 1})));
        same(
            "Interrupt",
            cmd(json!({"timeout": 30})),
            cmd(json!({"timeout": 3})),
        );
        // async false, the default additionalContextLimit, one of an event
        // that cannot add context, and unknown keys are as if unset.
        same(
            "Stop",
            cmd(json!({})),
            cmd(json!({"async": false, "whatever": 1})),
        );
        same(
            "PreToolUse",
            cmd(json!({})),
            cmd(json!({"additionalContextLimit": 2500})),
        );
        same(
            "Stop",
            cmd(json!({})),
            cmd(json!({"additionalContextLimit": 10})),
        );
        assert_ne!(
            hook_hash(
                "PreToolUse",
                None,
                &cmd(json!({"additionalContextLimit": 10}))
            ),
            hook_hash("PreToolUse", None, &cmd(json!({})))
        );
        // A matcher of an event that ignores it does not count; an empty
        // one does for an event that reads it.
        assert_eq!(
            hook_hash("Stop", Some("x"), &cmd(json!({}))),
            hook_hash("Stop", None, &cmd(json!({})))
        );
        assert_ne!(
            hook_hash("PreToolUse", Some(""), &cmd(json!({}))),
            hook_hash("PreToolUse", None, &cmd(json!({})))
        );
    }

    #[test]
    fn what_codex_does_not_hash_this_way_has_no_hash() {
        for (event, handler) in [
            (
                "NoSuchEvent",
                json!({"type": "command", "command": "./a.sh"}),
            ),
            (
                "Stop",
                json!({"type": "mcp_tool", "server": "s", "tool": "t"}),
            ),
            ("Stop", json!({"command": "./a.sh"})),
            ("Stop", json!({"type": "command", "command": "  "})),
            (
                "Stop",
                json!({"type": "command", "command": "./a.sh", "timeout": 1.5}),
            ),
            (
                "Stop",
                json!({"type": "command", "command": "./a.sh", "async": "yes"}),
            ),
            (
                "Stop",
                json!({"type": "command", "command": "./a.sh", "commandWindows": "a", "command_windows": "b"}),
            ),
        ] {
            assert_eq!(hook_hash(event, None, &handler), None, "{handler}");
        }
    }

    #[test]
    fn trust_compares_the_stored_hash_with_the_current_one() {
        assert_eq!(trust(Some("sha256:a"), "sha256:a"), HookTrust::Trusted);
        assert_eq!(trust(Some("sha256:b"), "sha256:a"), HookTrust::Modified);
        assert_eq!(trust(None, "sha256:a"), HookTrust::Untrusted);
    }

    #[test]
    fn hook_state_is_read_as_codex_reads_it() {
        let config: toml::Table = toml::from_str(
            "[hooks.state.\"k\"]\nenabled = false\n\n[hooks.state.\" k \"]\ntrusted_hash = \"sha256:a\"\n\n[hooks.state.\"bad\"]\nenabled = \"no\"\ntrusted_hash = \"sha256:b\"\n",
        )
        .unwrap();
        assert_eq!(
            hook_state(&config, "k"),
            HookState {
                enabled: Some(false),
                trusted_hash: Some("sha256:a".into())
            }
        );
        assert_eq!(hook_state(&config, "bad"), HookState::default());
        assert_eq!(hook_state(&toml::Table::new(), "k"), HookState::default());
    }
}
