//! A payload's large strings kept in the content store by reference, so
//! the ledger holds each file content once.
//!
//! A Write's payload carries the file's whole new content (and Claude
//! Code's `tool_response` carries it again, with the old one); an Edit's
//! carries the strings it replaced. Those are the very contents the
//! rewind keeps in the repository's content store
//! ([`crate::ledger::content_store`]) as the change's before and after.
//! Stored in the `events` row as well, they were most of the ledger's
//! bytes. So when an event is appended, every string under `tool_input`
//! or `tool_response` of at least [`MIN_REFERENCED_BYTES`] is put in the
//! store (where it usually is already) and the row holds a reference in
//! its place: the string `"\u0000hookd-content:<sha256>"`. The row's
//! `payload_refs` column counts the references (NULL: none, the payload is
//! as received).
//!
//! - **Exact.** A payload is only stored this way when putting the strings
//!   back gives the received bytes exactly (checked before the row is
//!   written); otherwise it is stored as received. Readers get the
//!   received text back ([`inflate`], through the SQL function
//!   [`SQL_FUNCTION`] every ledger connection has).
//! - **Still JSON.** The stored text stays a valid JSON document with the
//!   same shape, so the ledger's own SQL (`json_extract` of a prompt, a
//!   command, a path: [`READ_IN_SQL`]) reads it as before; those fields are
//!   never replaced.
//! - **Never ambiguous.** A payload that already holds the marker text is
//!   stored as received, and only rows counted in `payload_refs` are read
//!   back through the store.
//! - **Durable in order.** The store's write-ahead log is flushed to disk
//!   before the batch that refers to it commits (`ContentStore::sync`):
//!   after a power cut the ledger never refers to a content the store lost.
//! - **Checked on read.** The store checks each content against its hash;
//!   a content missing or damaged is an error naming it, never a payload
//!   shown with something else in its place.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use rusqlite::Connection;
use rusqlite::functions::FunctionFlags;
use serde_json::Value;

use crate::ledger::content_store::{ContentError, ContentHash, ContentStore, Stored};

/// Strings at least this long (in bytes) are kept by reference; shorter
/// ones cost less inline than their reference (about 85 bytes).
pub const MIN_REFERENCED_BYTES: usize = 512;

/// The text that starts a reference string; the hash follows. A NUL is
/// never the first character of a file content an agent writes as text.
pub const MARK: &str = "\u{0}hookd-content:";

/// The marker as it appears in a payload's JSON text.
const MARK_IN_JSON: &str = "\\u0000hookd-content:";

/// Fields of a tool's input the ledger reads with `json_extract` (the
/// activity list, the search index): never replaced.
pub const READ_IN_SQL: [&str; 6] = [
    "command",
    "file_path",
    "notebook_path",
    "path",
    "pattern",
    "url",
];

/// The SQL function that gives a stored payload back as received:
/// `hookd_payload(raw_payload, payload_refs)`.
pub const SQL_FUNCTION: &str = "hookd_payload";

/// Why a stored payload cannot be given back.
#[derive(Debug, thiserror::Error)]
pub enum PayloadError {
    /// The stored text is not the JSON it was written as.
    #[error("the stored payload is not valid JSON: {0}")]
    NotJson(#[from] serde_json::Error),
    /// A reference names no valid content hash.
    #[error("the stored payload refers to {0:?}, which is not a content hash")]
    BadReference(String),
    /// The ledger has no content store (a ledger in memory).
    #[error("the payload keeps {0} of its strings in a content store, and this ledger has none")]
    NoStore(i64),
    /// The content store could not give a content back.
    #[error("a string of the payload cannot be read back: {0}")]
    Store(#[from] ContentError),
    /// A content referred to is not UTF-8 text.
    #[error("the content {0} the payload refers to is not UTF-8 text")]
    NotText(ContentHash),
}

/// A payload as the `events` row stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compacted {
    /// The JSON text with references in place of the large strings.
    pub text: String,
    /// How many strings were replaced.
    pub refs: i64,
}

/// `raw` with its large tool strings replaced by references, each string
/// handed to `put` (which keeps it and names it, or says it cannot).
/// `None` when nothing was replaced, or when the result would not give
/// `raw` back byte for byte: the payload is then stored as received.
pub fn compact(raw: &str, mut put: impl FnMut(&str) -> Option<ContentHash>) -> Option<Compacted> {
    if raw.len() < MIN_REFERENCED_BYTES || raw.contains(MARK_IN_JSON) {
        return None;
    }
    let mut value: Value = serde_json::from_str(raw).ok()?;
    // The check that makes it exact, before anything is kept: `raw` must be
    // what serde_json writes for its value (not the sender's own spacing,
    // escapes or numbers). Then the value with its strings put back, which
    // is what [`inflate`] reads, writes `raw` again byte for byte.
    if serde_json::to_string(&value).ok()? != raw {
        return None;
    }
    let mut refs = 0;
    if let Value::Object(map) = &mut value {
        for key in ["tool_input", "tool_response"] {
            if let Some(part) = map.get_mut(key) {
                refs += replace_large(part, &mut put);
            }
        }
    }
    if refs == 0 {
        return None;
    }
    Some(Compacted {
        text: serde_json::to_string(&value).ok()?,
        refs,
    })
}

/// Replaces the large strings of `value` (outside [`READ_IN_SQL`]) that
/// `put` keeps by their references; how many.
fn replace_large(value: &mut Value, put: &mut impl FnMut(&str) -> Option<ContentHash>) -> i64 {
    match value {
        Value::Object(map) => map
            .iter_mut()
            .filter(|(key, _)| !READ_IN_SQL.contains(&key.as_str()))
            .map(|(_, field)| replace_large(field, put))
            .sum(),
        Value::Array(items) => items.iter_mut().map(|item| replace_large(item, put)).sum(),
        Value::String(text) if text.len() >= MIN_REFERENCED_BYTES => match put(text) {
            Some(hash) => {
                *text = format!("{MARK}{hash}");
                1
            }
            None => 0,
        },
        _ => 0,
    }
}

/// The payload `text` (stored with references) as it was received, each
/// referred string read through `get`.
pub fn inflate(
    text: &str,
    mut get: impl FnMut(&ContentHash) -> Result<Vec<u8>, ContentError>,
) -> Result<String, PayloadError> {
    let mut value: Value = serde_json::from_str(text)?;
    put_back(&mut value, &mut |hash: &ContentHash| {
        let bytes = get(hash)?;
        String::from_utf8(bytes).map_err(|_| PayloadError::NotText(hash.clone()))
    })?;
    Ok(serde_json::to_string(&value)?)
}

fn put_back(
    value: &mut Value,
    get: &mut impl FnMut(&ContentHash) -> Result<String, PayloadError>,
) -> Result<(), PayloadError> {
    match value {
        Value::Object(map) => map.values_mut().try_for_each(|v| put_back(v, get)),
        Value::Array(items) => items.iter_mut().try_for_each(|v| put_back(v, get)),
        Value::String(text) => {
            if let Some(name) = text.strip_prefix(MARK) {
                let hash = ContentHash::parse(name)
                    .map_err(|_| PayloadError::BadReference(name.to_owned()))?;
                *text = get(&hash)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A ledger's way to its content store (`<state dir>/content/`), opened on
/// first use and shared by the ledger's writes and its connection's SQL
/// function. A ledger in memory has none: it stores payloads as received.
#[derive(Debug, Clone)]
pub(crate) struct PayloadStore {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    state_dir: Option<PathBuf>,
    store: Mutex<Option<ContentStore>>,
}

impl PayloadStore {
    /// The store of the ledger in `state_dir`, or none.
    pub(crate) fn new(state_dir: Option<PathBuf>) -> Self {
        Self {
            inner: Arc::new(Inner {
                state_dir,
                store: Mutex::new(None),
            }),
        }
    }

    /// Runs `f` with the store, opening it first if needed; `None` for a
    /// ledger without one. Not from inside a query that reads payloads
    /// (the SQL function holds the store meanwhile).
    pub(crate) fn with<R>(
        &self,
        f: impl FnOnce(&ContentStore) -> Result<R, ContentError>,
    ) -> Option<Result<R, ContentError>> {
        let dir = self.inner.state_dir.as_deref()?;
        let mut store = self
            .inner
            .store
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if store.is_none() {
            match ContentStore::open(dir) {
                Ok(opened) => *store = Some(opened),
                Err(err) => return Some(Err(err)),
            }
        }
        store.as_ref().map(f)
    }

    /// Each payload of `raw` compacted (`None`: store it as received), the
    /// store's log on disk before this returns. A store that cannot be
    /// used costs only the saving: the payloads are stored as received.
    pub(crate) fn compact_all<'a>(
        &self,
        raw: impl Iterator<Item = &'a str>,
    ) -> Vec<Option<Compacted>> {
        let raw: Vec<&str> = raw.collect();
        if self.inner.state_dir.is_none() || raw.iter().all(|r| r.len() < MIN_REFERENCED_BYTES) {
            return vec![None; raw.len()];
        }
        let outcome = self.with(|store| {
            let compacted: Vec<Option<Compacted>> = raw
                .iter()
                .map(|payload| {
                    compact(payload, |text| match store.put(text.as_bytes()) {
                        Ok(Stored::Kept { hash, .. }) => Some(hash),
                        Ok(Stored::TooLarge { .. }) => None,
                        Err(err) => {
                            tracing::warn!(error = %err, "cannot keep a payload string in the content store; stored inline");
                            None
                        }
                    })
                })
                .collect();
            if compacted.iter().any(Option::is_some) {
                store.sync()?;
            }
            Ok(compacted)
        });
        match outcome {
            Some(Ok(compacted)) => compacted,
            Some(Err(err)) => {
                tracing::warn!(error = %err, "the content store cannot be used; payloads stored as received");
                vec![None; raw.len()]
            }
            None => vec![None; raw.len()],
        }
    }

    /// `text` as received: unchanged when `refs` is none.
    pub(crate) fn inflate(&self, text: String, refs: Option<i64>) -> Result<String, PayloadError> {
        match refs {
            None | Some(0) => Ok(text),
            Some(n) => self
                .with(|store| Ok(inflate(&text, |hash| store.get(hash))))
                .ok_or(PayloadError::NoStore(n))??,
        }
    }

    /// Gives `conn` the SQL function [`SQL_FUNCTION`].
    pub(crate) fn register(&self, conn: &Connection) -> rusqlite::Result<()> {
        let store = self.clone();
        conn.create_scalar_function(
            SQL_FUNCTION,
            2,
            FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DIRECTONLY,
            move |ctx| {
                let text: Option<String> = ctx.get(0)?;
                let refs: Option<i64> = ctx.get(1)?;
                text.map(|text| store.inflate(text, refs))
                    .transpose()
                    .map_err(|err| rusqlite::Error::UserFunctionError(Box::new(err)))
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(c: char) -> String {
        std::iter::repeat_n(c, MIN_REFERENCED_BYTES + 10).collect()
    }

    #[test]
    fn large_tool_strings_are_replaced_and_come_back_byte_for_byte() {
        let content = format!("line \"one\"\n\ttab é 😀 {}", big('x'));
        let raw = serde_json::json!({
            "session_id": "s",
            "tool_name": "Write",
            "tool_input": {"file_path": "/r/a.rs", "content": content},
            "tool_response": {"content": content, "structuredPatch": [{"lines": [big('y')]}]},
            "prompt": big('p'),
        })
        .to_string();
        // The pure functions' store: the strings they were handed.
        let store = std::cell::RefCell::new(Vec::<(ContentHash, String)>::new());
        let compacted = compact(&raw, |text| {
            let hash = ContentHash::of(text.as_bytes());
            store.borrow_mut().push((hash.clone(), text.to_owned()));
            Some(hash)
        })
        .expect("compacted");
        assert_eq!(compacted.refs, 3, "content twice and the patch line");
        assert!(
            compacted.text.len() < raw.len() / 2,
            "{} of {} bytes: {}",
            compacted.text.len(),
            raw.len(),
            compacted.text
        );
        assert!(compacted.text.contains(MARK_IN_JSON));
        // Top-level strings (a prompt) and the fields SQL reads stay.
        let value: Value = serde_json::from_str(&compacted.text).unwrap();
        assert_eq!(value["prompt"], big('p'));
        assert_eq!(value["tool_input"]["file_path"], "/r/a.rs");
        let back = inflate(&compacted.text, |hash| {
            Ok(store
                .borrow()
                .iter()
                .find(|(h, _)| h == hash)
                .unwrap()
                .1
                .clone()
                .into_bytes())
        })
        .unwrap();
        assert_eq!(back, raw);
    }

    #[test]
    fn a_payload_that_would_not_come_back_exactly_is_kept_as_received() {
        let put = |text: &str| Some(ContentHash::of(text.as_bytes()));
        // Spacing, an escape serde_json writes differently, a number it
        // writes differently: each one alone makes the payload stay whole,
        // and nothing of it is kept in the store.
        let content = big('x');
        for raw in [
            format!("{{\"tool_input\": {{\"content\": \"{content}\"}}}}"),
            format!("{{\"tool_input\":{{\"content\":\"\\/{content}\"}}}}"),
            format!("{{\"n\":1.0e3,\"tool_input\":{{\"content\":\"{content}\"}}}}"),
        ] {
            assert_eq!(
                compact(&raw, |_| panic!("kept a string of {raw}")),
                None,
                "{raw}"
            );
        }
        let plain = format!("{{\"n\":1,\"tool_input\":{{\"content\":\"{content}\"}}}}");
        assert!(compact(&plain, put).is_some());
    }

    #[test]
    fn small_strings_fields_read_in_sql_and_marked_payloads_stay_whole() {
        let put = |text: &str| Some(ContentHash::of(text.as_bytes()));
        let command = serde_json::json!({"tool_input": {"command": big('c'), "pattern": big('p')}});
        assert_eq!(compact(&command.to_string(), put), None);
        let small = serde_json::json!({"tool_input": {"content": "short"}, "pad": big('z')});
        assert_eq!(compact(&small.to_string(), put), None);
        // A payload that already holds the marker is never compacted, so
        // no received text is ever read as a reference.
        let planted = serde_json::json!({
            "tool_input": {"content": big('x'), "other": format!("{MARK}{}", ContentHash::of(b"x"))},
        });
        assert_eq!(compact(&planted.to_string(), put), None);
        // A string the store will not keep stays inline.
        let content = serde_json::json!({"tool_input": {"content": big('x')}});
        assert_eq!(compact(&content.to_string(), |_| None), None);
    }

    #[test]
    fn a_reference_the_store_cannot_give_back_is_an_error_not_a_guess() {
        let hash = ContentHash::of(b"gone");
        let text =
            serde_json::json!({"tool_input": {"content": format!("{MARK}{hash}")}}).to_string();
        let err = inflate(&text, |hash| {
            Err(ContentError::Missing {
                hash: hash.clone(),
                dir: "/r/.hookd/content".into(),
            })
        })
        .unwrap_err();
        assert!(
            matches!(err, PayloadError::Store(ContentError::Missing { .. })),
            "{err}"
        );
        let bad =
            serde_json::json!({"tool_input": {"content": format!("{MARK}nothex")}}).to_string();
        assert!(matches!(
            inflate(&bad, |_| Ok(Vec::new())),
            Err(PayloadError::BadReference(_))
        ));
        let plain = r#"{"tool_input":{"content":"no references"}}"#;
        assert_eq!(inflate(plain, |_| unreachable!()).unwrap(), plain);
    }
}
