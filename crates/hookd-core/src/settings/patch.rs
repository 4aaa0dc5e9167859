//! Saving an edit into the bytes the file was read from: only the values
//! that changed are replaced, and every other byte stays as the user wrote
//! it (inline arrays, blank lines, `\u003e`-style escapes, a minified file,
//! key order, spacing).
//!
//! Users keep these files in dotfiles repositories and review their diffs;
//! re-serialising the whole document on every save (what
//! [`super::format::render`] does) turns a one-hook edit into a rewrite of
//! the file. So the file is read as a concrete syntax tree
//! ([`jsonc_parser::cst`], which keeps every token, space and comment), the
//! old and the new content are compared, and only the differing parts are
//! edited in the tree: a changed value replaced, a removed property or
//! element removed, a new one inserted where the new content has it,
//! indented like its neighbours.
//!
//! Never wrong, at worst reformatted: the result is parsed again and must
//! be exactly the new content, key order included; otherwise (or when the
//! file is not one the tree can be edited in) [`rewrite`] gives up and the
//! caller pretty-prints the document as before.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstObjectProp, CstRootNode};
use serde_json::{Map, Value};

use super::format::BOM;

/// `original` (a settings file's bytes, byte order mark included) with its
/// content changed from `old` (what `original` holds) to `new`, every byte
/// outside the changed values kept. `None` when that cannot be done
/// exactly; the caller then renders the whole document.
pub fn rewrite(original: &[u8], old: &Value, new: &Value) -> Option<Vec<u8>> {
    let (bom, body) = match original.strip_prefix(BOM) {
        Some(body) => (true, body),
        None => (false, original),
    };
    let text = std::str::from_utf8(body).ok()?;
    if text.trim().is_empty() {
        return None;
    }
    let root = CstRootNode::parse(text, &ParseOptions::default()).ok()?;
    let node = root.value()?;
    patch(&Slot::Root(root.clone()), node, old, new)?;
    let mut out = root.to_string();
    // A file of CRLF lines only keeps them in what was inserted too.
    if text.contains("\r\n") && !has_lone_lf(text) && has_lone_lf(&out) {
        out = out.replace("\r\n", "\n").replace('\n', "\r\n");
    }
    let reread: Value = serde_json::from_str(&out)
        .ok()
        .or_else(|| super::format::with_comments(&out))?;
    if serde_json::to_string(&reread).ok()? != serde_json::to_string(new).ok()? {
        return None;
    }
    let mut bytes = Vec::with_capacity(out.len() + BOM.len());
    if bom {
        bytes.extend_from_slice(BOM);
    }
    bytes.extend_from_slice(out.as_bytes());
    Some(bytes)
}

/// Whether `text` has a `\n` not preceded by `\r`.
fn has_lone_lf(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'\n' && (i == 0 || bytes[i - 1] != b'\r'))
}

/// Where a value sits, so it can be replaced whole.
enum Slot {
    /// The document's top value.
    Root(CstRootNode),
    /// A property's value.
    Prop(CstObjectProp),
    /// An array's element at an index.
    Element(CstArray, usize),
}

/// Edits `node` (the value at `slot`) from `old` to `new`.
fn patch(slot: &Slot, node: CstNode, old: &Value, new: &Value) -> Option<()> {
    if same(old, new) {
        return Some(());
    }
    // A container written on one line that gains a member of its own is
    // written again on one line, in its own spacing: the tree's insert
    // would spread it over several. A gain further down is left to the
    // container that gains, so only that one is written again.
    if let Some(style) = inline_style(&node)
        && gains_here(old, new)
    {
        return replace_raw(slot, node, &inline(new, &style));
    }
    match (old, new) {
        (Value::Object(old), Value::Object(new)) => {
            if let Some(object) = node.as_object() {
                return patch_object(&object, old, new);
            }
        }
        (Value::Array(old), Value::Array(new)) => {
            if let Some(array) = node.as_array() {
                return patch_array(&array, old, new);
            }
        }
        _ => {}
    }
    replace(slot, node, new);
    Some(())
}

/// Whether `new` has a key, or more elements, than `old` itself (an insert
/// into this container, not below it).
fn gains_here(old: &Value, new: &Value) -> bool {
    match (old, new) {
        (Value::Object(old), Value::Object(new)) => new.keys().any(|key| !old.contains_key(key)),
        (Value::Array(old), Value::Array(new)) => new.len() > old.len(),
        _ => false,
    }
}

/// How a container written on one line spaces its members: after the
/// colon and after the comma, and inside the brackets of an object and of
/// an array (`[ { "a": 1 } ]`).
struct InlineStyle {
    colon: &'static str,
    comma: &'static str,
    object_pad: &'static str,
    array_pad: &'static str,
}

/// The style of `node` when it is an object or array written on one line.
fn inline_style(node: &CstNode) -> Option<InlineStyle> {
    if node.as_object().is_none() && node.as_array().is_none() {
        return None;
    }
    let text = node.to_string();
    if text.contains('\n') {
        return None;
    }
    let pad = |open: &str| if text.contains(open) { " " } else { "" };
    let colon = if text.contains("\": ") { ": " } else { ":" };
    Some(InlineStyle {
        colon,
        // One member shows no comma: spaced as the colon is.
        comma: if text.contains(", ") || (!text.contains(',') && colon == ": ") {
            ", "
        } else {
            ","
        },
        object_pad: pad("{ "),
        array_pad: pad("[ "),
    })
}

/// `value` as JSON on one line, spaced as `style`.
fn inline(value: &Value, style: &InlineStyle) -> String {
    match value {
        Value::Array(items) if items.is_empty() => "[]".to_owned(),
        Value::Object(map) if map.is_empty() => "{}".to_owned(),
        Value::Array(items) => format!(
            "[{pad}{}{pad}]",
            items
                .iter()
                .map(|item| inline(item, style))
                .collect::<Vec<_>>()
                .join(style.comma),
            pad = style.array_pad
        ),
        Value::Object(map) => format!(
            "{{{pad}{}{pad}}}",
            map.iter()
                .map(|(key, item)| format!(
                    "{}{}{}",
                    Value::String(key.clone()),
                    style.colon,
                    inline(item, style)
                ))
                .collect::<Vec<_>>()
                .join(style.comma),
            pad = style.object_pad
        ),
        scalar => scalar.to_string(),
    }
}

/// Puts `text` (JSON) in place of the value at `slot`, verbatim: a number
/// literal stands in, and its raw text is set (the tree prints it as is;
/// the whole result is parsed again before it is used).
fn replace_raw(slot: &Slot, node: CstNode, text: &str) -> Option<()> {
    let placeholder = CstInputValue::Number("0".into());
    let stand_in = match slot {
        Slot::Root(root) => {
            root.set_value(placeholder);
            root.value()?
        }
        Slot::Prop(prop) => {
            prop.set_value(placeholder);
            prop.value()?
        }
        Slot::Element(array, index) => {
            node.remove();
            array.insert(*index, placeholder)
        }
    };
    stand_in.as_number_lit()?.set_raw_value(text.to_owned());
    Some(())
}

/// Equal, key order included (`Value`'s own equality ignores it).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b.iter())
                    .all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        _ => a == b,
    }
}

fn replace(slot: &Slot, node: CstNode, new: &Value) {
    match slot {
        Slot::Root(root) => root.set_value(input(new)),
        Slot::Prop(prop) => prop.set_value(input(new)),
        Slot::Element(array, index) => {
            node.remove();
            array.insert(*index, input(new));
        }
    }
}

fn patch_object(
    object: &CstObject,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
) -> Option<()> {
    // The keys both have must keep their order; a reordering is left to the
    // whole-document rendering.
    let kept_old: Vec<&String> = old.keys().filter(|k| new.contains_key(*k)).collect();
    let kept_new: Vec<&String> = new.keys().filter(|k| old.contains_key(*k)).collect();
    if kept_old != kept_new {
        return None;
    }
    for prop in object.properties() {
        let name = prop.decoded_name()?;
        if !new.contains_key(&name) {
            prop.remove();
        }
    }
    for (index, (key, value)) in new.iter().enumerate() {
        match old.get(key) {
            Some(before) => {
                let prop = object.get(key)?;
                let node = prop.value()?;
                patch(&Slot::Prop(prop), node, before, value)?;
            }
            None => {
                object.insert(index, key, input(value));
            }
        }
    }
    Some(())
}

fn patch_array(array: &CstArray, old: &[Value], new: &[Value]) -> Option<()> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| same(a, b)).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| same(a, b))
        .count();
    let old_middle = &old[prefix..old.len() - suffix];
    let new_middle = &new[prefix..new.len() - suffix];
    let paired = old_middle.len().min(new_middle.len());
    for offset in 0..paired {
        let index = prefix + offset;
        let node = array.elements().into_iter().nth(index)?;
        patch(
            &Slot::Element(array.clone(), index),
            node,
            &old_middle[offset],
            &new_middle[offset],
        )?;
    }
    // Elements the old content had more of, removed from the end of the
    // middle; those the new one has more of, inserted there.
    for _ in paired..old_middle.len() {
        let node = array.elements().into_iter().nth(prefix + paired)?;
        node.remove();
    }
    for (offset, value) in new_middle.iter().enumerate().skip(paired) {
        array.insert(prefix + offset, input(value));
    }
    Some(())
}

/// A JSON value as the tree takes it (numbers as serde_json writes them).
fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn edit(text: &str, change: impl FnOnce(&mut Value)) -> String {
        let old: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).unwrap();
        let mut new = old.clone();
        change(&mut new);
        let bytes = rewrite(text.as_bytes(), &old, &new).expect("rewritten in place");
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn only_the_changed_value_changes() {
        let text = "{\n  \"model\": \"opus\",\n\n  \"permissions\": {\"allow\": [\"Bash(ls)\", \"Read\"]},\n  \"x\": \"a\\u003eb\"\n}\n";
        let out = edit(text, |v| v["model"] = json!("sonnet"));
        assert_eq!(out, text.replace("opus", "sonnet"));
    }

    #[test]
    fn a_new_hook_is_inserted_and_the_rest_stays_byte_for_byte() {
        let text = "{\n    \"env\": {\"A\": \"1\"},\n    \"hooks\": {\n        \"PostToolUse\": [\n            {\n                \"matcher\": \"Write\",\n                \"hooks\": [{\"type\": \"command\", \"command\": \"a\"}]\n            }\n        ]\n    }\n}\n";
        let out = edit(text, |v| {
            v["hooks"]["PostToolUse"]
                .as_array_mut()
                .unwrap()
                .push(json!({"matcher": "Edit", "hooks": [{"type": "command", "command": "b"}]}));
        });
        assert!(
            out.starts_with("{\n    \"env\": {\"A\": \"1\"},\n    \"hooks\": {\n        \"PostToolUse\": [\n            {\n                \"matcher\": \"Write\",\n                \"hooks\": [{\"type\": \"command\", \"command\": \"a\"}]\n            },\n"),
            "{out}"
        );
        assert!(out.contains("\"command\": \"b\""), "{out}");
        let reread: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(reread["hooks"]["PostToolUse"][1]["matcher"], "Edit");
    }

    #[test]
    fn a_removed_entry_goes_and_nothing_else_moves() {
        let text = "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"a\"}]},{\"hooks\":[{\"type\":\"command\",\"command\":\"b\"}]}]},\"model\":\"opus\"}";
        let out = edit(text, |v| {
            v["hooks"]["Stop"].as_array_mut().unwrap().remove(0);
        });
        let reread: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(reread["hooks"]["Stop"].as_array().unwrap().len(), 1);
        assert!(out.ends_with(",\"model\":\"opus\"}"), "{out}");
        assert!(
            !out.contains('\n'),
            "a minified file stays on one line: {out}"
        );
    }

    #[test]
    fn crlf_and_a_byte_order_mark_and_tabs_are_kept() {
        let text = "\u{feff}{\r\n\t\"a\": [1,2],\r\n\t\"b\": {\r\n\t\t\"c\": true\r\n\t}\r\n}\r\n";
        let out = edit(text, |v| v["b"]["d"] = json!(false));
        assert!(
            out.starts_with("\u{feff}{\r\n\t\"a\": [1,2],\r\n"),
            "{out:?}"
        );
        assert!(!has_lone_lf(&out), "{out:?}");
        assert!(out.contains("\t\t\"d\": false"), "{out:?}");
    }

    #[test]
    fn an_inline_array_with_spaces_inside_its_brackets_keeps_them_through_an_add_and_a_remove() {
        let text = "{\n  \"version\": 1,\n  \"hooks\": {\"stop\": [ { \"command\": \"x\" } ]}\n}\n";
        let added = edit(text, |v| {
            v["hooks"]["stop"]
                .as_array_mut()
                .unwrap()
                .push(json!({"command": "y"}));
        });
        assert!(
            added.contains("[ { \"command\": \"x\" }, { \"command\": \"y\" } ]"),
            "{added}"
        );
        let old: Value = serde_json::from_str(&added).unwrap();
        let mut new = old.clone();
        new["hooks"]["stop"].as_array_mut().unwrap().pop();
        let back = String::from_utf8(rewrite(added.as_bytes(), &old, &new).unwrap()).unwrap();
        assert_eq!(back, text);
    }

    #[test]
    fn a_reordering_is_left_to_the_whole_rendering() {
        let old = json!({"a": 1, "b": 2});
        let mut new = Map::new();
        new.insert("b".into(), json!(2));
        new.insert("a".into(), json!(1));
        assert_eq!(
            rewrite(b"{\"a\": 1, \"b\": 2}", &old, &Value::Object(new)),
            None
        );
    }
}
