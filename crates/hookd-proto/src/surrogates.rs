//! Repairing JSON text that holds lone UTF-16 surrogate escapes.
//!
//! Node (and so Claude Code) writes a string cut inside an emoji as JSON
//! with half a surrogate pair, e.g. `"\uD83D"` not followed by its low half.
//! Such text is not valid JSON for strict parsers (serde_json refuses it),
//! so without repair the whole payload would be stored as an opaque string
//! and its tool, session, tool call and file change lost. A lone surrogate
//! escape is replaced by `\uFFFD` (the replacement character); valid pairs
//! and everything else are kept byte for byte. The emitter repairs before it
//! parses, and the daemon repairs a payload an older emitter sent as raw
//! text; both flag the event so a reader knows it was touched.

use std::borrow::Cow;

/// The escape that replaces a lone surrogate escape (six bytes, like any `\uXXXX`).
const REPLACEMENT: &[u8; 6] = b"\\uFFFD";

/// `text` with every lone surrogate escape (`\uD800`–`\uDFFF` not forming a
/// high-then-low pair) replaced by `\uFFFD`; borrowed when there was none.
///
/// Only real escapes count: in `"\\uD83D"` the backslash is itself escaped,
/// so `uD83D` is plain text and stays. Bytes outside escapes are copied as
/// they are, so invalid text stays invalid for the parser to report.
pub fn repair_lone_surrogates(text: &[u8]) -> Cow<'_, [u8]> {
    let mut repaired: Option<Vec<u8>> = None;
    let mut copied = 0; // text[..copied] is already in `repaired`
    let mut i = 0;
    while i < text.len() {
        if text[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(unit) = unicode_escape(text, i) else {
            // `\\`, `\"`, `\n`, a malformed `\u`...: the escaped byte is not an escape start.
            i += 2;
            continue;
        };
        match unit {
            0xD800..=0xDBFF => {
                if unicode_escape(text, i + 6).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low)) {
                    i += 12;
                    continue;
                }
            }
            0xDC00..=0xDFFF => {}
            _ => {
                i += 6;
                continue;
            }
        }
        let out = repaired.get_or_insert_with(|| Vec::with_capacity(text.len()));
        out.extend_from_slice(&text[copied..i]);
        out.extend_from_slice(REPLACEMENT);
        i += 6;
        copied = i;
    }
    match repaired {
        None => Cow::Borrowed(text),
        Some(mut out) => {
            out.extend_from_slice(&text[copied..]);
            Cow::Owned(out)
        }
    }
}

/// The code unit of the `\uXXXX` escape starting at `at`, if one is there.
fn unicode_escape(text: &[u8], at: usize) -> Option<u16> {
    let escape = text.get(at..at + 6)?;
    if escape[0] != b'\\' || escape[1] != b'u' {
        return None;
    }
    let hex = std::str::from_utf8(&escape[2..]).ok()?;
    u16::from_str_radix(hex, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repair(text: &str) -> String {
        String::from_utf8(repair_lone_surrogates(text.as_bytes()).into_owned()).unwrap()
    }

    #[test]
    fn lone_halves_become_the_replacement_character() {
        assert_eq!(repair(r#""ab\uD83D""#), r#""ab\uFFFD""#);
        assert_eq!(repair(r#""\uD83Dx""#), r#""\uFFFDx""#);
        assert_eq!(repair(r#""\udc00 \uDFFF""#), r#""\uFFFD \uFFFD""#);
        // A high half followed by another high half: both lone.
        assert_eq!(repair(r#""\uD83D\uD83D""#), r#""\uFFFD\uFFFD""#);
        // High half then something that is not an escape.
        assert_eq!(repair(r#""\uD83D\n""#), r#""\uFFFD\n""#);
        // Reversed pair.
        assert_eq!(repair(r#""\uDE00\uD83D""#), r#""\uFFFD\uFFFD""#);
        let value: serde_json::Value = serde_json::from_str(&repair(r#"{"a":"x\uD83D"}"#)).unwrap();
        assert_eq!(value["a"], "x\u{fffd}");
    }

    #[test]
    fn valid_text_is_borrowed_untouched() {
        for text in [
            r#"{"emoji":"\uD83D\uDE00","e":"\u00e9","plain":"😀"}"#,
            r#""escaped backslash: \\uD83D and \\\\uDC00""#,
            r#""a quote \" then \uD83D\uDE00""#,
            r#""short \uD8""#,
            "",
            "\\",
        ] {
            assert!(
                matches!(repair_lone_surrogates(text.as_bytes()), Cow::Borrowed(_)),
                "{text}"
            );
        }
    }

    #[test]
    fn an_escaped_backslash_before_a_real_lone_escape_is_still_seen() {
        assert_eq!(repair(r#""\\\uD83D""#), r#""\\\uFFFD""#);
    }

    #[test]
    fn serde_json_refuses_what_this_repairs() {
        assert!(serde_json::from_str::<serde_json::Value>(r#""\uD83D""#).is_err());
        assert!(serde_json::from_str::<serde_json::Value>(&repair(r#""\uD83D""#)).is_ok());
    }
}
