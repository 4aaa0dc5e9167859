//! JSON with comments, as Gemini CLI reads its `settings.json` (comments
//! stripped, then plain JSON): tests compare such files by value with a
//! reader of their own, not with the parser of hookd they are testing.

use serde_json::Value;

/// `text` with its `// …` and `/* … */` comments blanked out (each
/// comment character becomes a space, a newline stays), leaving strings
/// alone, so line and column numbers are those of the original.
pub fn strip_json_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                out.push(' ');
                while let Some(&next) = chars.peek() {
                    if next == '\n' {
                        break;
                    }
                    out.push(' ');
                    chars.next();
                }
            }
            ('/', Some('*')) => {
                out.push(' ');
                let mut last = ' ';
                for next in chars.by_ref() {
                    out.push(if next == '\n' { '\n' } else { ' ' });
                    if last == '*' && next == '/' {
                        break;
                    }
                    last = next;
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// Parses `bytes` as JSON that may hold comments; panics, naming `what`,
/// when it is not.
pub fn parse_jsonc(bytes: &[u8], what: &str) -> Value {
    let text = std::str::from_utf8(bytes).unwrap_or_else(|err| panic!("{what}: not UTF-8: {err}"));
    serde_json::from_str(&strip_json_comments(text))
        .unwrap_or_else(|err| panic!("{what} is not JSON (comments allowed): {err}\n{text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_go_and_strings_with_slashes_stay() {
        let text =
            "{\n  // a line\n  \"url\": \"https://x/*y*/\", /* a\nblock */ \"n\": 1 // end\n}\n";
        let value = parse_jsonc(text.as_bytes(), "sample");
        assert_eq!(value, serde_json::json!({"url": "https://x/*y*/", "n": 1}));
        assert_eq!(
            strip_json_comments(text).lines().count(),
            text.lines().count()
        );
    }
}
