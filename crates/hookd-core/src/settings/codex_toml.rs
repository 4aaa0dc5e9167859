//! The `[hooks]` of Codex CLI's `config.toml`, edited in place.
//!
//! Codex CLI reads hooks from inline `[hooks]` tables of each layer's
//! `config.toml` as well as from its `hooks.json` (`docs/agent-hooks.md`
//! §1.1). That file is the user's whole Codex configuration: the model,
//! the `[projects]` Codex trusts, and `[hooks.state]`, where Codex keeps
//! which hooks the user trusted and enabled. An edit that reformatted it, or
//! lost one comment of it, would be a bad trade for one hook, so a hook is
//! added, changed, moved or removed here as [`super::agent_edit`] does in a
//! JSON file, and nothing else moves:
//!
//! - the rules are the JSON edit's own: the `[hooks]` events (without
//!   `state`, which is no event) are read as `{"hooks": …}` and
//!   [`agent_edit::edit_value`] validates the edit and works out the new
//!   event lists, so an event name, a matcher, a command, a hook named by
//!   its JSON path and command are refused here exactly as there;
//! - the file is parsed with `toml_edit`, which keeps every comment, blank
//!   line and key in its place, and only the touched event's array is
//!   changed in that document: one table or inline table appended, one
//!   removed, the changed keys of one hook replaced (each keeping the
//!   spacing and trailing comment of the value it replaces), or two
//!   neighbouring groups or handlers swapped (tables take each other's
//!   places with what they hold and the comment lines above their header,
//!   the blank lines staying put; in an inline array only the values
//!   swap, its spacing and comments staying put). The rest of
//!   the document renders as it was read. `[hooks.state]` is never written:
//!   it is Codex's record of the user's trust.
//!
//! A new hook takes the shape Codex documents ("Inline TOML", §1.6):
//! a `[[hooks.<Event>]]` table with its `matcher`, then a
//! `[[hooks.<Event>.hooks]]` table with `type = "command"`, `command` and
//! `timeout`, placed after that event's groups (a new event after the last
//! event's groups, before `[hooks.state]`). A file that writes hooks as
//! inline arrays is followed rather than refused: where the event is an
//! inline array (`Stop = [{ hooks = [ … ] }]`), or its last group keeps its
//! handlers as one (`hooks = [{ type = "command", … }]`), the new hook is an
//! inline table in that array, on a line of its own when the array puts
//! its elements on lines of their own.
//!
//! `toml_edit` writes LF line endings and a final newline; a CRLF file
//! gets CRLF back, and a file without a final newline keeps none. What it
//! would still change (line endings mixed in one file, for one) is refused
//! before anything is edited: the file as read must render back to its
//! exact bytes, so bytes outside the hook can never change. And the edited
//! text is read back: its hooks must be exactly those the JSON edit worked
//! out, or the edit is refused, so a layout this module does not know
//! (dotted keys, say) can make an edit fail but never write a wrong one.

use std::collections::HashMap;

use serde_json::{Map, Value};
use toml_edit::{Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table, TableLike};

use super::agent_edit::{self, AgentEdit};
use super::agent_files;
use super::connect::ShapeError;
use crate::AgentKind;

/// The key under `[hooks]` that holds Codex CLI's per-hook trust and enable
/// flags, not an event.
pub const STATE_KEY: &str = "state";

/// Why a `config.toml` cannot be read as Codex CLI's hooks, or an edit of
/// it is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodexTomlError {
    /// The file is not TOML (or not UTF-8): the parser's message, which
    /// names the line and column.
    #[error("{0}")]
    Parse(String),
    /// The edit is refused where the JSON path says: an edit Codex CLI
    /// would reject, a `[hooks]` of the wrong shape, or a layout hookd
    /// cannot edit without changing other bytes.
    #[error(transparent)]
    Shape(#[from] ShapeError),
}

/// The events of a `config.toml`'s `[hooks]` as `{"hooks": {…}}`, in file
/// order, the `state` table left out (an absent `[hooks]` is `{}` of
/// events): the shape of a `hooks.json`, so [`agent_files`] lists them and
/// [`agent_edit`] edits them with the same JSON paths.
pub fn hooks_value(text: &str) -> Result<Value, CodexTomlError> {
    let mut table: toml::Table =
        toml::from_str(text).map_err(|e| CodexTomlError::Parse(e.to_string()))?;
    let mut hooks = match table.remove("hooks") {
        None => toml::Table::new(),
        Some(toml::Value::Table(hooks)) => hooks,
        Some(other) => {
            return Err(CodexTomlError::Parse(format!(
                "hooks is a {}, not a table",
                other.type_str()
            )));
        }
    };
    hooks.remove(STATE_KEY);
    let events = serde_json::to_value(hooks).map_err(|e| CodexTomlError::Parse(e.to_string()))?;
    Ok(serde_json::json!({ "hooks": events }))
}

/// `edit` made to the `config.toml` `text`: the events it touched and the
/// file's new text, in which every byte outside the edited hook is as it
/// was. Refused, with nothing to write, as [`agent_edit::edit_value`]
/// refuses the edit, or when this file's layout cannot take it byte for
/// byte.
pub fn edit(text: &str, edit: &AgentEdit) -> Result<(Vec<String>, String), CodexTomlError> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| CodexTomlError::Parse(e.to_string()))?;
    if render(&doc, text) != text {
        return Err(refusal(
            "top level",
            "hookd cannot edit this config.toml without changing bytes outside the hook (mixed line endings?): edit it in a text editor",
        )
        .into());
    }
    let before = hooks_value(text)?;
    let mut after = before.clone();
    let events = agent_edit::edit_value(AgentKind::Codex, &mut after, edit)?;
    // A move checks that no other table stands among the two it swaps.
    let doc_tables = match edit {
        AgentEdit::Move { .. } => positions(doc.as_table_mut()),
        _ => Vec::new(),
    };
    let hooks_item = doc
        .get_mut("hooks")
        .ok_or_else(|| refusal("hooks", "expected a table"))?;
    // `hooks = { … }` or `hooks.Stop = […]`: a new event is an inline array.
    let inline_hooks = match &*hooks_item {
        Item::Table(table) => table.is_dotted(),
        _ => true,
    };
    let hooks = hooks_item
        .as_table_like_mut()
        .ok_or_else(|| refusal("hooks", "expected a table"))?;
    // A file whose events are all inline arrays gets one more.
    let events_written: Vec<&Item> = hooks
        .iter()
        .filter(|(key, _)| *key != STATE_KEY)
        .map(|(_, item)| item)
        .collect();
    let inline_hooks =
        inline_hooks || (!events_written.is_empty() && events_written.iter().all(|i| i.is_value()));
    match edit {
        AgentEdit::Add { hook } => {
            let group = after["hooks"][&hook.event]
                .as_array()
                .and_then(|groups| groups.last())
                .and_then(Value::as_object)
                .ok_or_else(|| refusal(connect_path(&hook.event), "not found after the edit"))?;
            add(hooks, &hook.event, group, inline_hooks)?;
        }
        AgentEdit::Change {
            json_path, hook, ..
        } => {
            let (i, j) = place(&before, &hook.event, json_path)?;
            let old = &before["hooks"][&hook.event][i];
            let new = &after["hooks"][&hook.event][i];
            change(hooks, &hook.event, (i, j), old, new, json_path)?;
        }
        AgentEdit::Move { json_path, up, .. } => {
            let event = event_of(&before, json_path)?;
            let (i, j) = place(&before, &event, json_path)?;
            move_hook(
                hooks,
                &before,
                (&event, i, j),
                *up,
                (json_path, &doc_tables),
            )?;
        }
        AgentEdit::Remove { json_path, .. } => {
            let event = event_of(&before, json_path)?;
            let (i, j) = place(&before, &event, json_path)?;
            remove(hooks, &event, i, j, json_path)?;
        }
    }
    let out = render(&doc, text);
    // What was written must mean what the JSON edit worked out (which
    // drops a `hooks` it emptied; `[hooks.state]` may keep the table).
    if after.get("hooks").is_none() {
        after = serde_json::json!({ "hooks": {} });
    }
    if hooks_value(&out).ok().as_ref() != Some(&after) {
        return Err(refusal(
            "hooks",
            "hookd cannot write this change in this config.toml's layout: edit it in a text editor",
        )
        .into());
    }
    Ok((events, out))
}

/// The document as text in `original`'s line endings (`toml_edit` writes
/// LF) and, like it, without a final newline when it had none.
fn render(doc: &DocumentMut, original: &str) -> String {
    let mut out = doc.to_string();
    if original.contains("\r\n") {
        out = out.replace("\r\n", "\n").replace('\n', "\r\n");
    }
    if !original.is_empty()
        && !original.ends_with('\n')
        && let Some(stripped) = out.strip_suffix("\r\n").or_else(|| out.strip_suffix('\n'))
    {
        out.truncate(stripped.len());
    }
    out
}

/// The group index and handler index of the hook at `json_path` under
/// `event` (the edit was validated: it is there).
fn place(file: &Value, event: &str, json_path: &str) -> Result<(usize, usize), ShapeError> {
    match agent_edit::position(AgentKind::Codex, file, event, json_path) {
        Some((i, Some(j))) => Ok((i, j)),
        _ => Err(refusal(json_path, "not found in the file")),
    }
}

/// The event of the hook listed at `json_path` in `file`.
fn event_of(file: &Value, json_path: &str) -> Result<String, ShapeError> {
    agent_files::hooks(AgentKind::Codex, file)
        .into_iter()
        .find(|h| h.json_path == json_path)
        .map(|h| h.event)
        .ok_or_else(|| refusal(json_path, "not found in the file"))
}

/// Swaps handler `j` of group `i` of `event` with the handler beside it
/// (`up`: the one before), or, when it has none there, group `i` with the
/// group beside it, as [`agent_edit::edit_value`] did in `before` (which
/// refused a move out of the event or out of a shared group).
/// `doc_tables`: the positions of the document's tables ([`swap`]).
fn move_hook(
    hooks: &mut dyn TableLike,
    before: &Value,
    (event, i, j): (&str, usize, usize),
    up: bool,
    (json_path, doc_tables): (&str, &[isize]),
) -> Result<(), ShapeError> {
    let missing = || refusal(json_path, "not found in the file");
    let beside = |n: usize, len: usize| {
        if up {
            n.checked_sub(1)
        } else {
            Some(n + 1).filter(|m| *m < len)
        }
    };
    let groups_len = before["hooks"][event].as_array().map_or(0, Vec::len);
    let handlers_len = before["hooks"][event][i]["hooks"]
        .as_array()
        .map_or(0, Vec::len);
    let groups = hooks.get_mut(event).ok_or_else(missing)?;
    match beside(j, handlers_len) {
        Some(k) => {
            let (group, _) = element(groups, i).ok_or_else(missing)?;
            let handlers = group.get_mut("hooks").ok_or_else(missing)?;
            swap(handlers, (j, k), doc_tables, json_path)
        }
        None => {
            let k = beside(i, groups_len).ok_or_else(missing)?;
            swap(groups, (i, k), doc_tables, json_path)
        }
    }
}

/// Swaps elements `a` and `b` of an array of tables or of an inline
/// array, on the page too.
///
/// Tables swap with everything they hold (a group's
/// `[[hooks.<Event>.hooks]]` tables, each key's spacing and comment) by
/// taking each other's places in the document; the blank lines before
/// each header stay where they are, the comment lines above a header go
/// with its table ([`swapped_prefixes`]). In an inline array only the
/// values swap: the spacing, line breaks and any comment around each
/// element stay where they are (`toml_edit` cannot tell a comment after
/// one element from one above the next).
///
/// Refused when another table of the document (`doc_tables`: the
/// positions of all its tables) stands among the two tables' own: one of
/// them would have to move past it.
fn swap(
    item: &mut Item,
    (a, b): (usize, usize),
    doc_tables: &[isize],
    json_path: &str,
) -> Result<(), ShapeError> {
    let missing = || refusal(json_path, "not found in the file");
    let (a, b) = (a.min(b), a.max(b));
    match item {
        Item::ArrayOfTables(tables) => {
            let mut first = tables.get(a).cloned().ok_or_else(missing)?;
            let mut second = tables.get(b).cloned().ok_or_else(missing)?;
            // The second's tables take the first places the two held, in
            // their own order, then the first's.
            let (old_first, old_second) = (positions(&mut first), positions(&mut second));
            let mut places: Vec<isize> = old_first.iter().chain(&old_second).copied().collect();
            places.sort_unstable();
            if let (Some(first_place), Some(last_place)) = (places.first(), places.last()) {
                let among = doc_tables
                    .iter()
                    .filter(|p| (first_place..=last_place).contains(p))
                    .count();
                if among != places.len() {
                    return Err(refusal(
                        json_path,
                        "another table stands among the tables of the two hooks that would swap: move them in a text editor",
                    ));
                }
            }
            let renumbered: HashMap<isize, isize> = old_second
                .iter()
                .chain(&old_first)
                .copied()
                .zip(places)
                .collect();
            for table in [&mut first, &mut second] {
                renumber(table, &renumbered);
            }
            let prefix = |t: &Table| {
                t.decor()
                    .prefix()
                    .and_then(|p| p.as_str())
                    .map(str::to_owned)
            };
            if let (Some(pa), Some(pb)) = (prefix(&first), prefix(&second)) {
                let (at_a, at_b) = swapped_prefixes(&pa, &pb);
                second.decor_mut().set_prefix(at_a);
                first.decor_mut().set_prefix(at_b);
            }
            tables.replace(a, second);
            tables.replace(b, first);
        }
        Item::Value(toml_edit::Value::Array(array)) => {
            let mut first = array.get(a).cloned().ok_or_else(missing)?;
            let mut second = array.get(b).cloned().ok_or_else(missing)?;
            let (at_a, at_b) = (first.decor().clone(), second.decor().clone());
            *second.decor_mut() = at_a;
            *first.decor_mut() = at_b;
            array.replace_formatted(a, second);
            array.replace_formatted(b, first);
        }
        _ => return Err(refusal(json_path, "expected an array")),
    }
    Ok(())
}

/// The document positions of `table` and of the tables under it with a
/// header of their own, in document order (nothing is changed: the
/// walk is [`renumber`]'s).
fn positions(table: &mut Table) -> Vec<isize> {
    let mut out = Vec::new();
    visit_tables(table, &mut |t| out.extend(t.position()));
    out.sort_unstable();
    out
}

/// Gives `table` and the tables under it with a header of their own the
/// positions `renumbered` maps theirs to.
fn renumber(table: &mut Table, renumbered: &HashMap<isize, isize>) {
    visit_tables(table, &mut |t| {
        if let Some(new) = t.position().and_then(|p| renumbered.get(&p)) {
            t.set_position(Some(*new));
        }
    });
}

/// Calls `f` on `table` and each table under it that `toml_edit` renders
/// with a header (not a dotted one), as it orders them.
fn visit_tables(table: &mut Table, f: &mut dyn FnMut(&mut Table)) {
    if !table.is_dotted() {
        f(table);
    }
    for (_, item) in table.iter_mut() {
        match item {
            Item::Table(t) => visit_tables(t, f),
            Item::ArrayOfTables(tables) => tables.iter_mut().for_each(|t| visit_tables(t, f)),
            _ => {}
        }
    }
}

/// The text before two swapped tables' headers, in their new places: each
/// place keeps its leading blank lines, and the rest (the comment lines
/// above the header) goes with its table. Swapped back, they give back
/// the two prefixes as they were. Without a comment in either, each place
/// keeps its own.
fn swapped_prefixes(a: &str, b: &str) -> (String, String) {
    if !a.contains('#') && !b.contains('#') {
        return (a.to_owned(), b.to_owned());
    }
    let (lead_a, rest_a) = a.split_at(blank_lines(a));
    let (lead_b, rest_b) = b.split_at(blank_lines(b));
    (format!("{lead_a}{rest_b}"), format!("{lead_b}{rest_a}"))
}

/// The length of the whole blank lines `text` starts with.
fn blank_lines(text: &str) -> usize {
    let mut len = 0;
    for line in text.split_inclusive('\n') {
        if !line.ends_with('\n') || !line.trim().is_empty() {
            break;
        }
        len += line.len();
    }
    len
}

/// Appends `group` (a matcher group as JSON) to `event`'s groups, in the
/// layout the file uses there (see the module's header).
fn add(
    hooks: &mut dyn TableLike,
    event: &str,
    group: &Map<String, Value>,
    inline_hooks: bool,
) -> Result<(), ShapeError> {
    let event_path = connect_path(event);
    let new_event_position = last_event_position(hooks);
    match hooks.get_mut(event) {
        Some(Item::ArrayOfTables(groups)) => {
            let inline_handlers = groups
                .iter()
                .last()
                .and_then(|g| g.get("hooks"))
                .is_some_and(Item::is_value);
            groups.push(group_table(group, inline_handlers, &event_path)?);
        }
        Some(Item::Value(toml_edit::Value::Array(groups))) => {
            let new = inline_table(group, &event_path)?;
            push_inline(groups, toml_edit::Value::InlineTable(new));
        }
        Some(_) => return Err(refusal(event_path, "expected an array")),
        None if inline_hooks => {
            let mut groups = Array::new();
            groups.push(toml_edit::Value::InlineTable(inline_table(
                group,
                &event_path,
            )?));
            hooks.insert(event, Item::Value(toml_edit::Value::Array(groups)));
        }
        None => {
            let mut table = group_table(group, false, &event_path)?;
            // After the last event's groups, not after [hooks.state].
            table.set_position(new_event_position);
            let mut groups = ArrayOfTables::new();
            groups.push(table);
            hooks.insert(event, Item::ArrayOfTables(groups));
        }
    }
    Ok(())
}

/// The document position of the last table of the last event (not of
/// `state`): where a new event's first table goes.
fn last_event_position(hooks: &dyn TableLike) -> Option<isize> {
    hooks
        .iter()
        .filter(|(key, _)| *key != STATE_KEY)
        .filter_map(|(_, item)| max_position(item))
        .max()
}

/// The greatest document position of a table in `item`.
fn max_position(item: &Item) -> Option<isize> {
    let of_table = |t: &Table| {
        t.iter()
            .filter_map(|(_, item)| max_position(item))
            .chain(t.position())
            .max()
    };
    match item {
        Item::Table(t) => of_table(t),
        Item::ArrayOfTables(tables) => tables.iter().filter_map(of_table).max(),
        _ => None,
    }
}

/// A matcher group as a `[[hooks.<Event>]]` table: its keys in order, its
/// handlers as `[[hooks.<Event>.hooks]]` tables (or, `inline_handlers`, as
/// an inline array of inline tables).
fn group_table(
    group: &Map<String, Value>,
    inline_handlers: bool,
    path: &str,
) -> Result<Table, ShapeError> {
    let mut table = Table::new();
    for (key, value) in group {
        match (key.as_str(), value) {
            ("hooks", Value::Array(handlers)) if !inline_handlers => {
                let mut tables = ArrayOfTables::new();
                for handler in handlers {
                    let mut t = Table::new();
                    let Value::Object(handler) = handler else {
                        return Err(refusal(path, "expected a hook to be an object"));
                    };
                    for (k, v) in handler {
                        t.insert(k, Item::Value(toml_value(v, path)?));
                    }
                    tables.push(t);
                }
                table.insert(key, Item::ArrayOfTables(tables));
            }
            _ => {
                table.insert(key, Item::Value(toml_value(value, path)?));
            }
        }
    }
    Ok(table)
}

/// A matcher group as an inline table.
fn inline_table(group: &Map<String, Value>, path: &str) -> Result<InlineTable, ShapeError> {
    match toml_value(&Value::Object(group.clone()), path)? {
        toml_edit::Value::InlineTable(table) => Ok(table),
        _ => Err(refusal(path, "expected an object")),
    }
}

/// Appends `value` to an inline array, on a line of its own when the
/// array's last element is on one, before the array's closing whitespace.
fn push_inline(array: &mut Array, mut value: toml_edit::Value) {
    if let Some(last) = array.iter_mut().last() {
        let prefix = last
            .decor()
            .prefix()
            .and_then(|p| p.as_str())
            .filter(|p| p.contains('\n'))
            .map(str::to_owned);
        if let Some(prefix) = prefix {
            value.decor_mut().set_prefix(prefix);
        } else {
            value.decor_mut().set_prefix(" ");
        }
        if !array.trailing_comma() {
            // `[\n  {a}\n]`: the newline before `]` follows the new element.
            let last = array.iter_mut().last().expect("not empty");
            let suffix = last
                .decor()
                .suffix()
                .and_then(|s| s.as_str())
                .map(str::to_owned);
            if let Some(suffix) = suffix.filter(|s| !s.is_empty()) {
                last.decor_mut().set_suffix("");
                value.decor_mut().set_suffix(suffix);
            }
        }
    }
    array.push_formatted(value);
}

/// Removes element `index` of an inline array, giving its neighbour the
/// whitespace only it had (the first element's, the last one's closing).
fn remove_inline(array: &mut Array, index: usize) {
    let removed = array.remove(index);
    let prefix = removed
        .decor()
        .prefix()
        .and_then(|p| p.as_str())
        .map(str::to_owned);
    let suffix = removed
        .decor()
        .suffix()
        .and_then(|s| s.as_str())
        .map(str::to_owned);
    if index == 0 {
        if let (Some(next), Some(prefix)) = (array.get_mut(0), prefix) {
            next.decor_mut().set_prefix(prefix);
        }
    } else if index == array.len()
        && !array.trailing_comma()
        && let (Some(last), Some(suffix)) = (array.get_mut(index - 1), suffix)
    {
        last.decor_mut().set_suffix(suffix);
    }
}

/// Sets the hook at (`i`, `j`) of `event` and its group's keys to the JSON
/// edit's `new` group (`old`: the group as it was): each key whose value
/// changed is replaced where it stands, keeping its spacing and comment;
/// a key gone is removed; a new key goes last.
fn change(
    hooks: &mut dyn TableLike,
    event: &str,
    (i, j): (usize, usize),
    old: &Value,
    new: &Value,
    json_path: &str,
) -> Result<(), ShapeError> {
    let missing = || refusal(json_path, "not found in the file");
    let group = element(hooks.get_mut(event).ok_or_else(missing)?, i).ok_or_else(missing)?;
    let (old_group, new_group) = (
        old.as_object().ok_or_else(missing)?,
        new.as_object().ok_or_else(missing)?,
    );
    let (group, inline) = group;
    sync(
        (&mut *group, inline),
        old_group,
        new_group,
        &["hooks"],
        json_path,
    )?;
    let handler = element(group.get_mut("hooks").ok_or_else(missing)?, j).ok_or_else(missing)?;
    let handler_of = |g: &Value| {
        g.get("hooks")
            .and_then(|h| h.get(j))
            .and_then(Value::as_object)
            .cloned()
            .ok_or_else(missing)
    };
    sync(
        handler,
        &handler_of(old)?,
        &handler_of(new)?,
        &[],
        json_path,
    )
}

/// Element `index` of an array of tables or an inline array of inline
/// tables, as a table, and whether it is an inline one.
fn element(item: &mut Item, index: usize) -> Option<(&mut dyn TableLike, bool)> {
    match item {
        Item::ArrayOfTables(tables) => tables
            .get_mut(index)
            .map(|t| (t as &mut dyn TableLike, false)),
        Item::Value(toml_edit::Value::Array(array)) => array
            .get_mut(index)
            .and_then(toml_edit::Value::as_inline_table_mut)
            .map(|t| (t as &mut dyn TableLike, true)),
        _ => None,
    }
}

/// Makes `target` (which holds `old`) hold `new`, `skip` keys aside. In
/// an `inline` table the space before its `}` stays the last value's.
fn sync(
    (target, inline): (&mut dyn TableLike, bool),
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    skip: &[&str],
    json_path: &str,
) -> Result<(), ShapeError> {
    for key in old.keys() {
        if skip.contains(&key.as_str()) || new.contains_key(key) {
            continue;
        }
        let was_last = target.iter().last().is_some_and(|(k, _)| k == key);
        let gone = target.remove(key);
        if let (true, true, Some(Item::Value(gone))) = (inline, was_last, gone) {
            set_last_suffix(target, closing(&gone));
        }
    }
    for (key, value) in new {
        if skip.contains(&key.as_str()) || old.get(key) == Some(value) {
            continue;
        }
        let mut value = toml_value(value, json_path)?;
        match target.get_mut(key).and_then(Item::as_value_mut) {
            Some(current) => {
                *value.decor_mut() = current.decor().clone();
                *current = value;
            }
            None => {
                if inline {
                    let last = target
                        .iter()
                        .last()
                        .and_then(|(_, item)| item.as_value())
                        .map(closing);
                    if let Some(suffix) = last {
                        set_last_suffix(target, None);
                        value.decor_mut().set_suffix(suffix.unwrap_or_default());
                    }
                }
                target.insert(key, Item::Value(value));
            }
        }
    }
    Ok(())
}

/// The whitespace after a value of an inline table (before its `,` or `}`).
fn closing(value: &toml_edit::Value) -> Option<String> {
    value
        .decor()
        .suffix()
        .and_then(|s| s.as_str())
        .map(str::to_owned)
}

/// Sets the whitespace after the last value of an inline table (`None`:
/// none).
fn set_last_suffix(target: &mut dyn TableLike, suffix: Option<String>) {
    if let Some((_, Item::Value(last))) = target.iter_mut().last() {
        last.decor_mut().set_suffix(suffix.unwrap_or_default());
    }
}

/// Removes handler `j` of group `i` of `event`, and the group and the
/// event when it was their last.
fn remove(
    hooks: &mut dyn TableLike,
    event: &str,
    i: usize,
    j: usize,
    json_path: &str,
) -> Result<(), ShapeError> {
    let missing = || refusal(json_path, "not found in the file");
    let groups = hooks.get_mut(event).ok_or_else(missing)?;
    let (group, _) = element(groups, i).ok_or_else(missing)?;
    let handlers_left = match group.get_mut("hooks").ok_or_else(missing)? {
        Item::ArrayOfTables(tables) if j < tables.len() => {
            tables.remove(j);
            tables.len()
        }
        Item::Value(toml_edit::Value::Array(array)) if j < array.len() => {
            remove_inline(array, j);
            array.len()
        }
        _ => return Err(missing()),
    };
    if handlers_left > 0 {
        return Ok(());
    }
    let groups_left = match groups {
        Item::ArrayOfTables(tables) => {
            tables.remove(i);
            tables.len()
        }
        Item::Value(toml_edit::Value::Array(array)) => {
            remove_inline(array, i);
            array.len()
        }
        _ => return Err(missing()),
    };
    if groups_left == 0 {
        hooks.remove(event);
    }
    Ok(())
}

/// A JSON value of a hook as a TOML value (`null` has none: refused).
fn toml_value(value: &Value, path: &str) -> Result<toml_edit::Value, ShapeError> {
    Ok(match value {
        Value::String(s) => s.as_str().into(),
        Value::Bool(b) => (*b).into(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.into(),
            (None, Some(f)) => f.into(),
            (None, None) => return Err(refusal(path, "a number TOML cannot hold")),
        },
        Value::Array(items) => {
            let mut array = Array::new();
            for item in items {
                array.push(toml_value(item, path)?);
            }
            toml_edit::Value::Array(array)
        }
        Value::Object(map) => {
            let mut table = InlineTable::new();
            for (k, v) in map {
                table.insert(k, toml_value(v, path)?);
            }
            toml_edit::Value::InlineTable(table)
        }
        Value::Null => return Err(refusal(path, "TOML has no null")),
    })
}

/// The JSON path of an event's list.
fn connect_path(event: &str) -> String {
    super::connect::event_path(event)
}

/// A refusal at `json_path`.
fn refusal(json_path: impl Into<String>, problem: &'static str) -> ShapeError {
    ShapeError {
        json_path: json_path.into(),
        problem: problem.into(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::fs;
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::settings::agent_edit::tests::hook;
    use crate::settings::agent_edit::{apply, file_location, notes, preview};
    use crate::settings::agent_files::tests::setup;
    use crate::settings::connect::{AgentConnectError, ChangeStatus};
    use crate::settings::location::{Scope, SettingsLocation};
    use hookd_testkit::write_file as write;

    /// A user's config.toml: comments, other tables before and after the
    /// hooks, a hook in Codex's documented shape, one with inline
    /// handlers, and Codex's trust state.
    pub(crate) const CONFIG: &str = r#"# Codex CLI configuration
model = "o3"  # the default model
approval_policy = "on-request"

[projects."/home/me/proj"]
trust_level = "trusted"

# Guards every shell command.
[[hooks.PreToolUse]]
matcher = "^Bash$"

[[hooks.PreToolUse.hooks]]
type = "command"
command = '/usr/bin/python3 "$(git rev-parse --show-toplevel)/.codex/hooks/pre_tool_use_policy.py"'
timeout = 30 # seconds
statusMessage = "Checking Bash command"

[[hooks.Stop]]
hooks = [{ type = "command", command = "./done.sh" }]

[hooks.state."/home/me/.codex/config.toml:pre_tool_use:0:0"]
enabled = true
trusted_hash = "sha256:abc123"

[mcp_servers.docs]
command = "docs-server"
"#;

    /// Codex's documented inline TOML example (`docs/agent-hooks.md` §1.6).
    const DOCS: &str = r#"[[hooks.PreToolUse]]
matcher = "^Bash$"

[[hooks.PreToolUse.hooks]]
type = "command"
command = '/usr/bin/python3 "$(git rev-parse --show-toplevel)/.codex/hooks/pre_tool_use_policy.py"'
timeout = 30
statusMessage = "Checking Bash command"
"#;

    /// A file that writes its hooks as inline arrays of inline tables.
    pub(crate) const INLINE: &str = r#"[hooks]
# one per line
Stop = [
  { hooks = [{ type = "command", command = "./done.sh" }] },
]
PreToolUse = [{ matcher = "Bash", hooks = [{ type = "command", command = "./guard.sh", timeout = 5 }] }]
"#;

    fn add(event: &str, matcher: Option<&str>, command: &str, timeout: Option<u64>) -> AgentEdit {
        AgentEdit::Add {
            hook: hook(event, matcher, command, timeout),
        }
    }

    /// The user's config.toml with `text`, and its location.
    fn user_config(text: &str) -> (tempfile::TempDir, PathBuf, SettingsLocation) {
        let (dir, roots, project) = setup();
        let path = roots.codex_home.join("config.toml");
        write(&path, text);
        let (agent, location) = file_location(&roots, Some(&project), &path).unwrap();
        assert_eq!(agent, AgentKind::Codex);
        assert_eq!(location.path, path);
        (dir, path, location)
    }

    /// Previews `edit`, checks nothing was written, applies it and returns
    /// the file's new text (which is what the preview showed).
    fn edited(location: &SettingsLocation, edit: &AgentEdit) -> String {
        let before = fs::read(&location.path).unwrap();
        let shown = preview(location, AgentKind::Codex, edit).unwrap();
        assert_eq!(shown.before.as_deref(), Some(before.as_slice()));
        assert_eq!(
            fs::read(&location.path).unwrap(),
            before,
            "a preview writes nothing"
        );
        let report = apply(location, AgentKind::Codex, edit, &shown.version()).unwrap();
        assert!(
            matches!(report.status, ChangeStatus::Written(_)),
            "{report:?}"
        );
        let after = fs::read(&location.path).unwrap();
        assert_eq!(
            Some(&after),
            shown.after.as_ref(),
            "the diff shown is what was written"
        );
        String::from_utf8(after).unwrap()
    }

    /// The hook listed with `command` in the file at `path`: its removal.
    fn removal(path: &Path, command: &str) -> AgentEdit {
        let read =
            agent_files::read_file(AgentKind::Codex, Scope::Global, path, false, None).unwrap();
        assert!(
            read.error.is_none() && read.check.errors.is_empty(),
            "{:?}",
            read.check
        );
        let listed = read
            .hooks
            .iter()
            .find(|h| h.command.as_deref() == Some(command))
            .unwrap_or_else(|| panic!("{command} listed in {:?}", read.hooks));
        AgentEdit::Remove {
            json_path: listed.json_path.clone(),
            command: listed.command.clone(),
        }
    }

    const NEW_PRE: &str = "\n[[hooks.PreToolUse]]\nmatcher = \"apply_patch\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./check-edit.sh\"\ntimeout = 30\n";
    const STATUS_LINE: &str = "statusMessage = \"Checking Bash command\"\n";

    #[test]
    fn a_hook_is_added_in_codexs_documented_shape_after_its_events_groups_and_removed_byte_for_byte()
     {
        let (_dir, path, location) = user_config(CONFIG);
        let edit = add(
            "PreToolUse",
            Some("apply_patch"),
            "./check-edit.sh",
            Some(30),
        );
        let after = edited(&location, &edit);
        // Only the new hook's lines are new: everything else is as it was.
        assert_eq!(
            after,
            CONFIG.replace(STATUS_LINE, &format!("{STATUS_LINE}{NEW_PRE}"))
        );
        let removal = removal(&path, "./check-edit.sh");
        let AgentEdit::Remove { json_path, .. } = &removal else {
            unreachable!()
        };
        assert_eq!(json_path, "hooks.PreToolUse[1].hooks[0]");
        assert_eq!(edited(&location, &removal), CONFIG, "back byte for byte");
    }

    #[test]
    fn a_new_event_goes_after_the_last_events_groups_and_before_codexs_trust_state() {
        let (_dir, path, location) = user_config(CONFIG);
        let after = edited(&location, &add("SessionStart", None, "./hello.sh", None));
        let stop = "hooks = [{ type = \"command\", command = \"./done.sh\" }]\n";
        assert_eq!(
            after,
            CONFIG.replace(
                stop,
                &format!("{stop}\n[[hooks.SessionStart]]\n\n[[hooks.SessionStart.hooks]]\ntype = \"command\"\ncommand = \"./hello.sh\"\n")
            )
        );
        assert_eq!(edited(&location, &removal(&path, "./hello.sh")), CONFIG);
    }

    #[test]
    fn a_group_writing_its_handlers_inline_gets_a_new_group_written_so_too() {
        let (_dir, path, location) = user_config(CONFIG);
        let after = edited(&location, &add("Stop", None, "./more.sh", Some(5)));
        let stop = "hooks = [{ type = \"command\", command = \"./done.sh\" }]\n";
        assert_eq!(
            after,
            CONFIG.replace(
                stop,
                &format!("{stop}\n[[hooks.Stop]]\nhooks = [{{ type = \"command\", command = \"./more.sh\", timeout = 5 }}]\n")
            )
        );
        assert_eq!(edited(&location, &removal(&path, "./more.sh")), CONFIG);
    }

    #[test]
    fn a_change_replaces_only_the_changed_values_keeping_their_comments_and_the_other_keys() {
        let (_dir, path, location) = user_config(CONFIG);
        let command = r#"/usr/bin/python3 "$(git rev-parse --show-toplevel)/.codex/hooks/pre_tool_use_policy.py""#;
        let edit = AgentEdit::Change {
            json_path: "hooks.PreToolUse[0].hooks[0]".into(),
            command: Some(command.into()),
            hook: hook("PreToolUse", Some("^Bash$"), "./policy.sh", Some(60)),
        };
        let after = edited(&location, &edit);
        assert_eq!(
            after,
            CONFIG
                .replace(&format!("'{command}'"), "\"./policy.sh\"")
                .replace("timeout = 30 # seconds", "timeout = 60 # seconds")
        );
        // The matcher of a group of one hook; a timeout added to an inline
        // handler, and one taken away.
        let edit = AgentEdit::Change {
            json_path: "hooks.PreToolUse[0].hooks[0]".into(),
            command: Some("./policy.sh".into()),
            hook: hook("PreToolUse", Some("Bash|apply_patch"), "./policy.sh", None),
        };
        let again = edited(&location, &edit);
        assert_eq!(
            again,
            after
                .replace("matcher = \"^Bash$\"", "matcher = \"Bash|apply_patch\"")
                .replace("timeout = 60 # seconds\n", "")
        );
        let edit = AgentEdit::Change {
            json_path: "hooks.Stop[0].hooks[0]".into(),
            command: Some("./done.sh".into()),
            hook: hook("Stop", None, "./done.sh", Some(9)),
        };
        assert_eq!(
            edited(&location, &edit),
            again.replace(
                "command = \"./done.sh\" }",
                "command = \"./done.sh\", timeout = 9 }"
            )
        );
        let listed =
            agent_files::read_file(AgentKind::Codex, Scope::Global, &path, false, None).unwrap();
        assert_eq!(listed.hooks[1].timeout_secs, Some(9.0));
    }

    #[test]
    fn a_removal_takes_the_hooks_lines_and_nothing_else() {
        let (_dir, path, location) = user_config(CONFIG);
        let after = edited(&location, &removal(&path, "./done.sh"));
        assert_eq!(
            after,
            CONFIG.replace(
                "\n[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"./done.sh\" }]\n",
                ""
            )
        );
        // The group's comment above its header goes with it.
        let start = CONFIG.find("\n# Guards").unwrap();
        let end = CONFIG.find(STATUS_LINE).unwrap() + STATUS_LINE.len();
        let policy = r#"/usr/bin/python3 "$(git rev-parse --show-toplevel)/.codex/hooks/pre_tool_use_policy.py""#;
        let after = edited(&location, &removal(&path, policy));
        assert_eq!(
            after,
            format!("{}{}", &CONFIG[..start], &CONFIG[end..]).replace(
                "\n[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"./done.sh\" }]\n",
                ""
            )
        );
        // No hook left: the trust state and everything else stay, and the
        // file is no hooks file any more.
        assert!(after.contains("[hooks.state.") && after.contains("[mcp_servers.docs]"));
        assert!(
            agent_files::read_file(AgentKind::Codex, Scope::Global, &path, false, None).is_none()
        );
    }

    #[test]
    fn codexs_documented_example_takes_a_hook_and_gives_it_back_byte_for_byte() {
        let (_dir, path, location) = user_config(DOCS);
        for (edit, command) in [
            (
                add(
                    "PreToolUse",
                    Some("apply_patch"),
                    "./check-edit.sh",
                    Some(30),
                ),
                "./check-edit.sh",
            ),
            (add("Stop", None, "./done.sh", None), "./done.sh"),
            (
                add("PermissionRequest", Some("Bash"), "./ask.sh", Some(5)),
                "./ask.sh",
            ),
        ] {
            let after = edited(&location, &edit);
            assert!(after.starts_with(DOCS), "{after}");
            assert_eq!(edited(&location, &removal(&path, command)), DOCS);
        }
        assert_eq!(
            {
                let after = edited(
                    &location,
                    &add(
                        "PreToolUse",
                        Some("apply_patch"),
                        "./check-edit.sh",
                        Some(30),
                    ),
                );
                edited(&location, &removal(&path, "./check-edit.sh"));
                after
            },
            format!("{DOCS}{NEW_PRE}")
        );
    }

    #[test]
    fn an_inline_file_is_followed_line_for_line() {
        let (_dir, path, location) = user_config(INLINE);
        let after = edited(&location, &add("Stop", None, "./more.sh", None));
        assert_eq!(
            after,
            INLINE.replace(
                "./done.sh\" }] },\n",
                "./done.sh\" }] },\n  { hooks = [{ type = \"command\", command = \"./more.sh\" }] },\n"
            )
        );
        assert_eq!(edited(&location, &removal(&path, "./more.sh")), INLINE);
        let after = edited(
            &location,
            &add("PreToolUse", Some("Edit"), "./edit.sh", None),
        );
        assert_eq!(
            after,
            INLINE.replace(
                "timeout = 5 }] }]",
                "timeout = 5 }] }, { matcher = \"Edit\", hooks = [{ type = \"command\", command = \"./edit.sh\" }] }]"
            )
        );
        assert_eq!(edited(&location, &removal(&path, "./edit.sh")), INLINE);
        let after = edited(&location, &add("SessionStart", None, "./hi.sh", None));
        assert_eq!(
            after,
            format!(
                "{INLINE}SessionStart = [{{ hooks = [{{ type = \"command\", command = \"./hi.sh\" }}] }}]\n"
            )
        );
        assert_eq!(edited(&location, &removal(&path, "./hi.sh")), INLINE);
        // Changed in an inline table: the matcher in place, the timeout gone.
        let edit = AgentEdit::Change {
            json_path: "hooks.PreToolUse[0].hooks[0]".into(),
            command: Some("./guard.sh".into()),
            hook: hook("PreToolUse", Some("Edit"), "./guard.sh", None),
        };
        let changed = INLINE.replace(
            "{ matcher = \"Bash\", hooks = [{ type = \"command\", command = \"./guard.sh\", timeout = 5 }] }",
            "{ matcher = \"Edit\", hooks = [{ type = \"command\", command = \"./guard.sh\" }] }",
        );
        assert_eq!(edited(&location, &edit), changed);
        write(&path, INLINE);
        // The first of an inline array removed: the next takes its place.
        let after = edited(&location, &removal(&path, "./guard.sh"));
        assert_eq!(
            after,
            INLINE.replace(
                "PreToolUse = [{ matcher = \"Bash\", hooks = [{ type = \"command\", command = \"./guard.sh\", timeout = 5 }] }]\n",
                ""
            )
        );
    }

    #[test]
    fn crlf_line_endings_and_a_missing_final_newline_are_kept() {
        let crlf = CONFIG.replace('\n', "\r\n");
        let (_dir, path, location) = user_config(&crlf);
        let after = edited(
            &location,
            &add(
                "PreToolUse",
                Some("apply_patch"),
                "./check-edit.sh",
                Some(30),
            ),
        );
        assert_eq!(
            after,
            CONFIG
                .replace(STATUS_LINE, &format!("{STATUS_LINE}{NEW_PRE}"))
                .replace('\n', "\r\n")
        );
        assert_eq!(edited(&location, &removal(&path, "./check-edit.sh")), crlf);

        let bare = DOCS.trim_end();
        write(&path, bare);
        let after = edited(&location, &add("Stop", None, "./done.sh", None));
        assert_eq!(
            after,
            format!(
                "{bare}\n\n[[hooks.Stop]]\n\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"./done.sh\""
            )
        );
        assert_eq!(edited(&location, &removal(&path, "./done.sh")), bare);
    }

    #[test]
    fn refusals_leave_the_file_byte_for_byte() {
        let (_dir, path, location) = user_config(CONFIG);
        let refused = |location: &SettingsLocation, edit: &AgentEdit| {
            let before = fs::read(&location.path).unwrap();
            let err = preview(location, AgentKind::Codex, edit).unwrap_err();
            let err2 = apply(location, AgentKind::Codex, edit, "any").unwrap_err();
            assert_eq!(err.to_string(), err2.to_string());
            assert_eq!(fs::read(&location.path).unwrap(), before);
            err
        };
        // The JSON edit's own rules.
        for (edit, problem) in [
            (
                add("Stop", None, " ", None),
                "hooks.Stop[1].hooks[0].command",
            ),
            (
                add("NoSuchEvent", None, "./x.sh", None),
                "not a Codex CLI event",
            ),
            (
                add("Stop", Some("Bash"), "./x.sh", None),
                "takes no matcher on Stop",
            ),
            (
                AgentEdit::Remove {
                    json_path: "hooks.Stop[0].hooks[0]".into(),
                    command: Some("./other.sh".into()),
                },
                "now runs \"./done.sh\"",
            ),
        ] {
            let err = refused(&location, &edit);
            assert!(matches!(err, AgentConnectError::Shape { .. }), "{err}");
            assert!(err.to_string().contains(problem), "{err}");
        }
        // Not TOML (written after the file was listed): line and column.
        write(&path, "model = \"o3\"\n[hooks\n");
        let err = refused(&location, &add("Stop", None, "./x.sh", None));
        assert!(matches!(err, AgentConnectError::ParseToml { .. }), "{err}");
        assert!(err.to_string().contains("line 2, column 7"), "{err}");
        // A [hooks] of the wrong shape, with the path.
        write(&path, "[hooks]\nStop = \"./x.sh\"\n");
        let err = refused(&location, &add("Stop", None, "./x.sh", None));
        assert!(
            err.to_string().contains("hooks.Stop: expected an array"),
            "{err}"
        );
        write(&path, "hooks = 5\n");
        let err = refused(&location, &add("Stop", None, "./x.sh", None));
        assert!(
            err.to_string().contains("hooks is a integer, not a table"),
            "{err}"
        );
        // Line endings toml_edit would change.
        write(&path, &CONFIG.replacen('\n', "\r\n", 3));
        let err = refused(&location, &add("Stop", None, "./x.sh", None));
        assert!(err.to_string().contains("mixed line endings"), "{err}");
    }

    /// Groups and handlers to move: tables with comments and inline
    /// tables, other tables around them.
    const MOVES: &str = r#"# Codex CLI configuration
model = "o3"  # the default model

# Guards every shell command.
[[hooks.PreToolUse]]
matcher = "^Bash$"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "./policy.sh"
timeout = 30 # seconds

[[hooks.PreToolUse.hooks]]
type = "command"
command = "./audit.sh"

[[hooks.PreToolUse]]
matcher = "apply_patch"
hooks = [{ type = "command", command = "./edit.sh" }]

# Reads are logged.
[[hooks.PreToolUse]]
matcher = "Read"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "./read.sh"

[[hooks.Stop]]
hooks = [
  { type = "command", command = "./done.sh" },  # first
  { type = "command", command = "./notify.sh", timeout = 5 },
]

[hooks.state."/home/me/.codex/config.toml:pre_tool_use:0:0"]
enabled = true

[mcp_servers.docs]
command = "docs-server"
"#;
    const POLICY: &str = "[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./policy.sh\"\ntimeout = 30 # seconds\n";
    const AUDIT: &str =
        "[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./audit.sh\"\n";
    const EDIT_GROUP: &str = "[[hooks.PreToolUse]]\nmatcher = \"apply_patch\"\nhooks = [{ type = \"command\", command = \"./edit.sh\" }]\n";
    const READ_GROUP: &str = "# Reads are logged.\n[[hooks.PreToolUse]]\nmatcher = \"Read\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./read.sh\"\n";
    const DONE: &str = "{ type = \"command\", command = \"./done.sh\" }";
    const NOTIFY: &str = "{ type = \"command\", command = \"./notify.sh\", timeout = 5 }";

    /// A move of the hook listed with `command` in the file at `path`.
    fn moved(path: &Path, command: &str, up: bool) -> AgentEdit {
        let AgentEdit::Remove { json_path, command } = removal(path, command) else {
            unreachable!()
        };
        AgentEdit::Move {
            json_path,
            command,
            up,
        }
    }

    #[test]
    fn a_hook_moved_down_and_up_swaps_only_its_tables_and_gives_back_the_file_byte_for_byte() {
        let (_dir, path, location) = user_config(MOVES);
        assert!(MOVES.contains(&format!("{POLICY}\n{AUDIT}")));
        assert!(MOVES.contains(&format!("{EDIT_GROUP}\n{READ_GROUP}")));
        assert!(MOVES.contains(&format!("{DONE},  # first\n  {NOTIFY},")));
        // A group alone in its handler moves down past the next group: the
        // two groups' tables trade places, the comment above the second
        // goes with it, the blank line between them stays.
        let groups_swapped = MOVES.replace(
            &format!("{EDIT_GROUP}\n{READ_GROUP}"),
            &format!("{READ_GROUP}\n{EDIT_GROUP}"),
        );
        assert_eq!(
            edited(&location, &moved(&path, "./edit.sh", false)),
            groups_swapped
        );
        let listed =
            agent_files::read_file(AgentKind::Codex, Scope::Global, &path, false, None).unwrap();
        let commands: Vec<_> = listed
            .hooks
            .iter()
            .map(|h| (h.json_path.as_str(), h.command.as_deref().unwrap()))
            .collect();
        assert_eq!(
            commands[..4],
            [
                ("hooks.PreToolUse[0].hooks[0]", "./policy.sh"),
                ("hooks.PreToolUse[0].hooks[1]", "./audit.sh"),
                ("hooks.PreToolUse[1].hooks[0]", "./read.sh"),
                ("hooks.PreToolUse[2].hooks[0]", "./edit.sh"),
            ]
        );
        assert_eq!(
            edited(&location, &moved(&path, "./edit.sh", true)),
            MOVES,
            "back byte for byte"
        );
        // The group with the comment moves up the same way.
        assert_eq!(
            edited(&location, &moved(&path, "./read.sh", true)),
            groups_swapped
        );
        assert_eq!(edited(&location, &moved(&path, "./read.sh", false)), MOVES);
        // Handlers of one group, as [[hooks.PreToolUse.hooks]] tables: the
        // second up, then down again.
        let handlers_swapped =
            MOVES.replace(&format!("{POLICY}\n{AUDIT}"), &format!("{AUDIT}\n{POLICY}"));
        assert_eq!(
            edited(&location, &moved(&path, "./audit.sh", true)),
            handlers_swapped
        );
        assert_eq!(edited(&location, &moved(&path, "./audit.sh", false)), MOVES);
        // Handlers in an inline array: only the inline tables swap, the
        // line breaks and the comment stay on their lines.
        let inline_swapped = MOVES.replace(
            &format!("{DONE},  # first\n  {NOTIFY},"),
            &format!("{NOTIFY},  # first\n  {DONE},"),
        );
        assert_eq!(
            edited(&location, &moved(&path, "./done.sh", false)),
            inline_swapped
        );
        assert_eq!(edited(&location, &moved(&path, "./done.sh", true)), MOVES);
    }

    #[test]
    fn moves_in_inline_event_arrays_and_crlf_files_give_back_the_file_byte_for_byte() {
        let inline = r#"[hooks]
# one per line
Stop = [
  { hooks = [{ type = "command", command = "./done.sh" }] },
  { hooks = [{ type = "command", command = "./more.sh" }] },
]
PreToolUse = [{ matcher = "Bash", hooks = [{ type = "command", command = "./guard.sh", timeout = 5 }, { type = "command", command = "./log.sh" }] }]
"#;
        let (_dir, path, location) = user_config(inline);
        let done = "{ hooks = [{ type = \"command\", command = \"./done.sh\" }] }";
        let more = "{ hooks = [{ type = \"command\", command = \"./more.sh\" }] }";
        let guard = "{ type = \"command\", command = \"./guard.sh\", timeout = 5 }";
        let log = "{ type = \"command\", command = \"./log.sh\" }";
        let swapped = inline.replace(
            &format!("{done},\n  {more},"),
            &format!("{more},\n  {done},"),
        );
        assert_eq!(edited(&location, &moved(&path, "./more.sh", true)), swapped);
        assert_eq!(edited(&location, &moved(&path, "./more.sh", false)), inline);
        let swapped = inline.replace(&format!("{guard}, {log}"), &format!("{log}, {guard}"));
        assert_eq!(
            edited(&location, &moved(&path, "./guard.sh", false)),
            swapped
        );
        assert_eq!(edited(&location, &moved(&path, "./guard.sh", true)), inline);

        let crlf = MOVES.replace('\n', "\r\n");
        write(&path, &crlf);
        let swapped = MOVES
            .replace(
                &format!("{EDIT_GROUP}\n{READ_GROUP}"),
                &format!("{READ_GROUP}\n{EDIT_GROUP}"),
            )
            .replace('\n', "\r\n");
        assert_eq!(
            edited(&location, &moved(&path, "./edit.sh", false)),
            swapped
        );
        assert_eq!(edited(&location, &moved(&path, "./edit.sh", true)), crlf);
    }

    #[test]
    fn a_move_out_of_its_event_or_its_shared_group_is_refused_byte_for_byte() {
        let (_dir, path, location) = user_config(MOVES);
        for (command, up, problem) in [
            ("./policy.sh", true, "already the first hook of PreToolUse"),
            ("./read.sh", false, "already the last hook of PreToolUse"),
            ("./done.sh", true, "already the first hook of Stop"),
            ("./notify.sh", false, "already the last hook of Stop"),
            (
                "./audit.sh",
                false,
                "the last hook of a group it shares with 1 other hook(s)",
            ),
        ] {
            let edit = moved(&path, command, up);
            let err = preview(&location, AgentKind::Codex, &edit).unwrap_err();
            let err2 = apply(&location, AgentKind::Codex, &edit, "any").unwrap_err();
            assert_eq!(err.to_string(), err2.to_string());
            assert!(matches!(err, AgentConnectError::Shape { .. }), "{err}");
            assert!(err.to_string().contains(problem), "{command}: {err}");
            assert_eq!(fs::read_to_string(&path).unwrap(), MOVES, "{command}");
        }
        // Another table among the two groups' tables: not moved past it.
        let interleaved = "[[hooks.Stop]]\n\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"./a.sh\"\n\n[mcp_servers.docs]\ncommand = \"docs-server\"\n\n[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"./b.sh\" }]\n";
        write(&path, interleaved);
        let err = preview(&location, AgentKind::Codex, &moved(&path, "./a.sh", false)).unwrap_err();
        assert!(
            err.to_string().contains("another table stands among"),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), interleaved);
        write(&path, MOVES);
        // A hook that is not there any more (the file changed).
        let edit = AgentEdit::Move {
            json_path: "hooks.Stop[0].hooks[1]".into(),
            command: Some("./done.sh".into()),
            up: true,
        };
        let err = preview(&location, AgentKind::Codex, &edit).unwrap_err();
        assert!(
            err.to_string().contains("now runs \"./notify.sh\""),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), MOVES);
    }

    #[test]
    fn a_stale_version_is_refused_untouched() {
        let (_dir, path, location) = user_config(CONFIG);
        let edit = add("Stop", None, "./more.sh", None);
        let shown = preview(&location, AgentKind::Codex, &edit).unwrap();
        // Codex itself trusts a hook meanwhile.
        let theirs = CONFIG.replace("sha256:abc123", "sha256:def456");
        fs::write(&path, &theirs).unwrap();
        let stale = apply(&location, AgentKind::Codex, &edit, &shown.version());
        assert!(
            matches!(stale, Err(AgentConnectError::Changed { .. })),
            "{stale:?}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), theirs);
    }

    #[test]
    fn a_write_keeps_a_backup_and_notes_say_codexs_trust_and_the_projects() {
        let (_dir, roots, project) = setup();
        let path = project.join(".codex/config.toml");
        write(&path, DOCS);
        let (_, location) = file_location(&roots, Some(&project), &path).unwrap();
        let edit = add("Stop", None, "./done.sh", None);
        let shown = preview(&location, AgentKind::Codex, &edit).unwrap();
        let report = apply(&location, AgentKind::Codex, &edit, &shown.version()).unwrap();
        let ChangeStatus::Written(outcome) = report.status else {
            panic!("{report:?}")
        };
        let backup = outcome.backup.expect("a backup");
        assert_eq!(fs::read_to_string(backup).unwrap(), DOCS);
        let notes = notes(AgentKind::Codex, &location, &edit);
        assert_eq!(notes[0], agent_edit::CODEX_TRUST_NOTE);
        assert!(
            notes[1].contains(".codex/config.toml only when the project is trusted"),
            "{notes:?}"
        );
    }

    #[test]
    fn hooks_value_leaves_the_trust_state_out() {
        let value = hooks_value(CONFIG).unwrap();
        let events: Vec<&String> = value["hooks"].as_object().unwrap().keys().collect();
        assert_eq!(events, ["PreToolUse", "Stop"]);
        assert_eq!(
            hooks_value("model = \"o3\"\n").unwrap(),
            serde_json::json!({"hooks": {}})
        );
        assert!(matches!(hooks_value("[x"), Err(CodexTomlError::Parse(_))));
    }
}
