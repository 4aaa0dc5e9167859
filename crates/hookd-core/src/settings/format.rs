//! How a settings file was written (indent, trailing newline, CRLF, BOM), so
//! a rewrite only differs from the original where the content changed.
//!
//! Users diff, review and commit these files; a tool that reflows the whole
//! file on every save makes each small hook edit look like a rewrite and hides
//! what actually changed. Parsing keeps key order (serde_json's
//! `preserve_order`), and rendering reproduces the detected style. Shared by
//! [`crate::settings::connect`] and [`crate::settings::SettingsDocument`].

use serde::Serialize;
use serde_json::{Map, Value};

/// The UTF-8 byte order mark some Windows editors put in front of JSON.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The formatting of a settings file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    /// One level of indentation: a tab or 1–8 spaces.
    pub indent: String,
    /// The file ends with a newline.
    pub trailing_newline: bool,
    /// Lines end with `\r\n`.
    pub crlf: bool,
    /// The file starts with a UTF-8 byte order mark.
    pub bom: bool,
}

impl Default for Format {
    /// What a new file gets: two spaces, a final newline, LF, no BOM (the
    /// way Claude Code itself writes its settings).
    fn default() -> Self {
        Self {
            indent: "  ".into(),
            trailing_newline: true,
            crlf: false,
            bom: false,
        }
    }
}

/// Parses the bytes of a settings file and detects their format. An empty or
/// whitespace-only file counts as `{}` with the default format: there is
/// nothing in it to lose.
pub fn parse(bytes: &[u8]) -> Result<(Value, Format), serde_json::Error> {
    parse_with(bytes, false)
}

/// [`parse`], and with `comments` a file may hold `//` and `/* */`
/// comments (JSON with comments, as Gemini CLI reads its settings: nothing
/// else beyond JSON, no trailing commas). The error is the strict parse's.
pub fn parse_with(bytes: &[u8], comments: bool) -> Result<(Value, Format), serde_json::Error> {
    let bom = bytes.starts_with(BOM);
    let body = if bom { &bytes[BOM.len()..] } else { bytes };
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok((Value::Object(Map::new()), Format::default()));
    }
    let value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(strict) => match std::str::from_utf8(body) {
            Ok(text) if comments => with_comments(text).ok_or(strict)?,
            _ => return Err(strict),
        },
    };
    // from_slice already checked UTF-8; lossy only to avoid a second error path.
    let text = String::from_utf8_lossy(body);
    let format = Format {
        indent: detect_indent(&text),
        trailing_newline: text.ends_with('\n'),
        crlf: text.contains("\r\n"),
        bom,
    };
    Ok((value, format))
}

/// `text` as JSON with comments and nothing else beyond JSON; `None` when
/// it is not.
pub(crate) fn with_comments(text: &str) -> Option<Value> {
    let options = jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    jsonc_parser::parse_to_serde_value(text, &options).ok()
}

/// The indent unit of a pretty-printed document: the leading whitespace of its
/// first indented line (which is at depth one), a tab or 1–8 spaces.
pub fn detect_indent(text: &str) -> String {
    for line in text.lines().skip(1) {
        let content = line.trim_start_matches([' ', '\t']);
        if content.trim().is_empty() {
            continue;
        }
        let lead = &line[..line.len() - content.len()];
        if lead.starts_with('\t') {
            return "\t".into();
        }
        if (1..=8).contains(&lead.len()) && lead.bytes().all(|b| b == b' ') {
            return lead.to_owned();
        }
        if !lead.is_empty() {
            break;
        }
    }
    Format::default().indent
}

/// The bytes that save `value` over a file that held `original` (its bytes
/// as read; `None`: there was no file): the original with only the values
/// that changed replaced ([`super::patch`]), or, where that cannot be done
/// exactly, `value` pretty-printed in `format`.
pub fn render_over(
    original: Option<&[u8]>,
    value: &Value,
    format: &Format,
) -> Result<Vec<u8>, serde_json::Error> {
    let old = original
        .and_then(|bytes| parse(bytes).ok())
        .map(|(old, _)| old);
    match old {
        Some(old) => render_patched(original, &old, value, format),
        None => render(value, format),
    }
}

/// [`render_over`] for a caller that has `original` parsed already (`old`).
pub fn render_patched(
    original: Option<&[u8]>,
    old: &Value,
    value: &Value,
    format: &Format,
) -> Result<Vec<u8>, serde_json::Error> {
    if let Some(original) = original
        && let Some(bytes) = super::patch::rewrite(original, old, value)
    {
        return Ok(bytes);
    }
    // Rendered afresh, a file would lose its comments: refused instead.
    if let Some(original) = original.map(|o| o.strip_prefix(BOM).unwrap_or(o))
        && !original.iter().all(u8::is_ascii_whitespace)
        && serde_json::from_slice::<Value>(original).is_err()
    {
        return Err(<serde_json::Error as serde::de::Error>::custom(
            "this edit cannot keep the file's comments in place",
        ));
    }
    render(value, format)
}

/// Serialises `value` pretty-printed in `format`.
pub fn render(value: &Value, format: &Format) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = Vec::new();
    if format.bom {
        out.extend_from_slice(BOM);
    }
    let formatter = serde_json::ser::PrettyFormatter::with_indent(format.indent.as_bytes());
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    value.serialize(&mut serializer)?;
    if format.trailing_newline {
        out.push(b'\n');
    }
    if format.crlf {
        // Safe on the serialised bytes: JSON strings never hold a raw newline.
        let text = String::from_utf8_lossy(&out).replace('\n', "\r\n");
        out = text.into_bytes();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_each_style() {
        for text in [
            "{\n  \"a\": 1\n}\n",
            "{\n    \"a\": [\n        1\n    ]\n}",
            "\u{feff}{\r\n\t\"a\": {\r\n\t\t\"b\": true\r\n\t}\r\n}\r\n",
        ] {
            let (value, format) = parse(text.as_bytes()).unwrap();
            assert_eq!(
                render(&value, &format).unwrap(),
                text.as_bytes(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn empty_is_an_empty_object_and_garbage_an_error() {
        let (value, format) = parse(b" \n").unwrap();
        assert_eq!(value, serde_json::json!({}));
        assert_eq!(format, Format::default());
        assert!(parse(b"{").is_err());
    }

    #[test]
    fn comments_are_read_only_where_the_file_may_hold_them_and_never_dropped() {
        let text = b"{\n  // theme\n  \"theme\": \"dark\" /* inline */\n}\n";
        assert!(parse(text).is_err(), "Claude Code's files are plain JSON");
        let (value, format) = parse_with(text, true).unwrap();
        assert_eq!(value, serde_json::json!({"theme": "dark"}));
        assert_eq!(format.indent, "  ");
        // Beyond comments, nothing but JSON: Gemini CLI parses with JSON.parse.
        assert!(parse_with(b"{\"a\": 1,}", true).is_err());
        // An edit keeps them in place...
        let new = serde_json::json!({"theme": "dark", "hooks": {}});
        let out = render_patched(Some(text), &value, &new, &format).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.contains("// theme") && out.contains("/* inline */"),
            "{out}"
        );
        assert_eq!(with_comments(&out), Some(new.clone()));
        // ...or is refused: what the patcher cannot place (here a file cut
        // short) is never rendered afresh, which would drop the comments.
        let cut = b"{\n  // theme\n  \"theme\": \"dark\"";
        let err = render_patched(Some(cut), &value, &new, &format).unwrap_err();
        assert!(
            err.to_string().contains("cannot keep the file's comments"),
            "{err}"
        );
    }
}
