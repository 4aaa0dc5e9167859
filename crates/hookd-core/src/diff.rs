//! The one line-diff rule of hookd: the lines a file tool added and
//! removed, as stored with each mutation (`lines_added`, `lines_removed`)
//! and as the desktop app shows them, so the count in the timeline's LINES
//! column and the diff beside it cannot disagree.
//!
//! Text is split into lines at `\n` (a `\r` before it is dropped) and a
//! final newline does not make an extra empty line. The lines are aligned
//! by the `similar` crate's Myers diff, whose search is bounded by
//! deterministic heuristics (never by a clock), so the same two texts
//! always give the same diff, at record time and when it is shown. Past
//! [`MAX_DIFF_LINES`] lines (both sides together) the common leading and
//! trailing lines are still matched but the middle is shown as removed
//! then added: the diff is still correct and its counts are exact counts of
//! the lines it shows, only less minimal than it could be.
//!
//! What each tool's input is compared with ([`tool_input_diff`]):
//! - Edit: `old_string` → `new_string`. With `replace_all` the replacement
//!   happened at every occurrence, which the payload does not count: the
//!   lines are those of one occurrence, and the block says `replace_all`.
//! - MultiEdit: each of `edits` the same way; the counts are summed.
//! - Write: the previous content when it is known, else nothing (every
//!   line of `content` is added). The payload itself says it when the
//!   agent reports the file as it was ([`reported_previous`]: Claude Code's
//!   `tool_response.originalFile`); the daemon counts against that, and the
//!   desktop app shows the same diff.
//! - NotebookEdit: the payload carries the new cell source only, so its
//!   lines count as added (a `delete` adds none).
//! - A file a shell command changed: its whole content before the command
//!   against after it, as the daemon kept both ([`whole_file_diff`]).

use serde::Serialize;
use serde_json::Value;
use similar::{Algorithm, DiffOp as Op, capture_diff_slices};

/// Most lines (old and new together) aligned by the diff algorithm; above
/// it the middle, after the common leading and trailing lines, is shown as
/// removed then added.
pub const MAX_DIFF_LINES: usize = 100_000;

/// What a diff line does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DiffOp {
    /// In both texts.
    Eq,
    /// Only in the old text: removed.
    Del,
    /// Only in the new text: added.
    Add,
}

impl DiffOp {
    /// The sign a unified diff puts before such a line: ` `, `-` or `+`.
    pub fn sign(self) -> char {
        match self {
            Self::Eq => ' ',
            Self::Del => '-',
            Self::Add => '+',
        }
    }
}

/// One line of a diff, with its 1-based line numbers on each side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DiffLine {
    /// Kept, removed or added.
    pub op: DiffOp,
    /// The line, without its line ending.
    pub text: String,
    /// Line number in the old text (`eq` and `del`).
    pub old_no: Option<u32>,
    /// Line number in the new text (`eq` and `add`).
    pub new_no: Option<u32>,
}

/// Lines added and removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LineCounts {
    /// Lines only in the new text.
    pub added: u32,
    /// Lines only in the old text.
    pub removed: u32,
}

impl LineCounts {
    /// The counts of the `add` and `del` lines of a diff.
    pub fn of(lines: &[DiffLine]) -> LineCounts {
        lines.iter().fold(LineCounts::default(), |c, l| match l.op {
            DiffOp::Eq => c,
            DiffOp::Del => LineCounts {
                removed: c.removed.saturating_add(1),
                ..c
            },
            DiffOp::Add => LineCounts {
                added: c.added.saturating_add(1),
                ..c
            },
        })
    }

    /// Both counts summed with `other`'s.
    pub fn plus(self, other: LineCounts) -> LineCounts {
        LineCounts {
            added: self.added.saturating_add(other.added),
            removed: self.removed.saturating_add(other.removed),
        }
    }
}

/// Which tool input a [`ChangeDiff`] was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// `old_string` → `new_string`.
    Edit,
    /// A list of `edits`.
    MultiEdit,
    /// `content`, against the previous content when known.
    Write,
    /// A cell's `new_source`.
    Notebook,
    /// A file's whole content before and after a shell command, as kept.
    Shell,
}

/// The diff of one replacement (an Edit, one MultiEdit edit) or of a whole
/// Write or notebook cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DiffBlock {
    /// The lines, in order.
    pub lines: Vec<DiffLine>,
    /// Its `add` and `del` lines counted.
    pub counts: LineCounts,
    /// An Edit with `replace_all`: the counts are for one occurrence.
    pub replace_all: bool,
}

impl DiffBlock {
    fn new(old: &str, new: &str, replace_all: bool) -> DiffBlock {
        let lines = line_diff(old, new);
        DiffBlock {
            counts: LineCounts::of(&lines),
            lines,
            replace_all,
        }
    }
}

/// What a file tool's input changed, as diffs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ChangeDiff {
    /// The input's shape.
    pub kind: ChangeKind,
    /// One block per edit (MultiEdit), else one.
    pub blocks: Vec<DiffBlock>,
    /// The blocks' counts summed.
    pub counts: LineCounts,
}

#[cfg(test)]
impl ChangeDiff {
    /// The added and removed lines its blocks show, counted from the lines
    /// themselves: what `counts` must agree with.
    pub(crate) fn lines_shown(&self) -> LineCounts {
        self.blocks
            .iter()
            .map(|b| LineCounts::of(&b.lines))
            .fold(LineCounts::default(), LineCounts::plus)
    }
}

/// Splits text into lines; a final newline does not make an extra empty line.
pub fn split_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    if text.is_empty() || text.ends_with('\n') {
        lines.pop();
    }
    lines
}

/// The diff operations from `a` to `b`.
fn ops(a: &[&str], b: &[&str]) -> Vec<Op> {
    if a.len().saturating_add(b.len()) <= MAX_DIFF_LINES {
        return capture_diff_slices(Algorithm::Myers, a, b);
    }
    let start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let end = a[start..]
        .iter()
        .rev()
        .zip(b[start..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (end_a, end_b) = (a.len() - end, b.len() - end);
    let mut out = vec![Op::Equal {
        old_index: 0,
        new_index: 0,
        len: start,
    }];
    out.push(Op::Delete {
        old_index: start,
        old_len: end_a - start,
        new_index: start,
    });
    out.push(Op::Insert {
        old_index: end_a,
        new_index: start,
        new_len: end_b - start,
    });
    out.push(Op::Equal {
        old_index: end_a,
        new_index: end_b,
        len: end,
    });
    out
}

/// A 1-based line number; a text of more than `u32::MAX` lines is not diffed.
fn line_no(index: usize) -> Option<u32> {
    u32::try_from(index + 1).ok()
}

/// The line diff from `old` to `new`.
pub fn line_diff(old: &str, new: &str) -> Vec<DiffLine> {
    let (a, b) = (split_lines(old), split_lines(new));
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let line = |op, text: &str, old_no, new_no| DiffLine {
        op,
        text: text.to_owned(),
        old_no,
        new_no,
    };
    for op in ops(&a, &b) {
        let (old_range, new_range) = (op.old_range(), op.new_range());
        match op {
            Op::Equal { .. } => {
                for (i, j) in old_range.zip(new_range) {
                    out.push(line(DiffOp::Eq, a[i], line_no(i), line_no(j)));
                }
            }
            Op::Delete { .. } | Op::Insert { .. } | Op::Replace { .. } => {
                // Removed lines before added ones, as git shows a change.
                for i in old_range {
                    out.push(line(DiffOp::Del, a[i], line_no(i), None));
                }
                for j in new_range {
                    out.push(line(DiffOp::Add, b[j], None, line_no(j)));
                }
            }
        }
    }
    out
}

/// The unified diff (`diff -u`, three lines of context) from `old` to
/// `new`, headed `--- old_label` / `+++ new_label`; empty when they are
/// equal. What `hookd rewind --dry-run` prints per file.
pub fn unified(old: &str, new: &str, old_label: &str, new_label: &str) -> String {
    if old == new {
        return String::new();
    }
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(old_label, new_label)
        .to_string()
}

/// Lines added and removed from `old` to `new`: the counts of
/// [`line_diff`]'s lines, without building them.
pub fn line_counts(old: &str, new: &str) -> LineCounts {
    let (a, b) = (split_lines(old), split_lines(new));
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    ops(&a, &b)
        .iter()
        .fold(LineCounts::default(), |c, op| match op {
            Op::Equal { .. } => c,
            _ => c.plus(LineCounts {
                added: count(op.new_range().len()),
                removed: count(op.old_range().len()),
            }),
        })
}

/// Two texts to diff and whether they are an Edit's with `replace_all`.
type Pair<'a> = (&'a str, &'a str, bool);

/// One Edit or MultiEdit edit: `(old_string, new_string, replace_all)`,
/// when it has either string.
fn replacement(edit: &Value) -> Option<Pair<'_>> {
    let old = edit.get("old_string").and_then(Value::as_str);
    let new = edit.get("new_string").and_then(Value::as_str);
    if old.is_none() && new.is_none() {
        return None;
    }
    let all = edit.get("replace_all").and_then(Value::as_bool) == Some(true);
    Some((old.unwrap_or_default(), new.unwrap_or_default(), all))
}

/// The shape of a tool input and the text pairs it compares.
fn pairs<'a>(
    tool_input: &'a Value,
    previous: Option<&'a str>,
) -> Option<(ChangeKind, Vec<Pair<'a>>)> {
    let str_field = |key| tool_input.get(key).and_then(Value::as_str);
    if let Some(edits) = tool_input.get("edits").and_then(Value::as_array) {
        return Some((
            ChangeKind::MultiEdit,
            edits.iter().filter_map(replacement).collect(),
        ));
    }
    if let Some(pair) = replacement(tool_input) {
        return Some((ChangeKind::Edit, vec![pair]));
    }
    if let Some(content) = str_field("content") {
        return Some((
            ChangeKind::Write,
            vec![(previous.unwrap_or_default(), content, false)],
        ));
    }
    if str_field("new_source").is_some() || str_field("notebook_path").is_some() {
        let source = str_field("new_source").unwrap_or_default();
        return Some((ChangeKind::Notebook, vec![("", source, false)]));
    }
    None
}

/// The diff of a file's whole content from `old` (`None`: no file) to
/// `new`, as a shell command changed it.
pub fn whole_file_diff(old: Option<&str>, new: Option<&str>) -> ChangeDiff {
    let block = DiffBlock::new(old.unwrap_or_default(), new.unwrap_or_default(), false);
    ChangeDiff {
        kind: ChangeKind::Shell,
        counts: block.counts,
        blocks: vec![block],
    }
}

/// Which file tool's input this is, by its keys (as [`tool_input_diff`]
/// reads it), or `None` for one that changes no file text.
pub fn change_kind(tool_input: &Value) -> Option<ChangeKind> {
    pairs(tool_input, None).map(|(kind, _)| kind)
}

/// The file's content before a Write as the agent reported it in the hook
/// payload (Claude Code's `tool_response.originalFile`), when it did.
pub fn reported_previous(payload: &Value) -> Option<&str> {
    payload.get("tool_response")?.get("originalFile")?.as_str()
}

/// The lines a file tool's input added and removed (see the module doc for
/// each tool), a Write's against `previous` (else against nothing), or
/// `None` for an input that changes no file text (Bash, a stand-in for an
/// oversized payload).
pub fn tool_input_counts(tool_input: &Value, previous: Option<&str>) -> Option<LineCounts> {
    let (_, pairs) = pairs(tool_input, previous)?;
    Some(
        pairs
            .into_iter()
            .map(|(old, new, _)| line_counts(old, new))
            .fold(LineCounts::default(), LineCounts::plus),
    )
}

/// The diff a file tool's input makes, a Write's against `previous` (its
/// file's content before it, when known); `None` as [`tool_input_counts`].
/// Its counts are [`tool_input_counts`]'s with the same `previous`.
pub fn tool_input_diff(tool_input: &Value, previous: Option<&str>) -> Option<ChangeDiff> {
    let (kind, pairs) = pairs(tool_input, previous)?;
    let blocks: Vec<DiffBlock> = pairs
        .into_iter()
        .map(|(old, new, all)| DiffBlock::new(old, new, all))
        .collect();
    let counts = blocks
        .iter()
        .map(|b| b.counts)
        .fold(LineCounts::default(), LineCounts::plus);
    Some(ChangeDiff {
        kind,
        blocks,
        counts,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn ops_text(lines: &[DiffLine]) -> String {
        lines
            .iter()
            .map(|l| format!("{}{}", l.op.sign(), l.text))
            .collect::<Vec<_>>()
            .join("|")
    }

    #[test]
    fn split_lines_ignores_one_final_newline_and_crs() {
        assert!(split_lines("").is_empty());
        assert_eq!(split_lines("a"), ["a"]);
        assert_eq!(split_lines("a\n"), ["a"]);
        assert_eq!(split_lines("a\r\nb\r\n"), ["a", "b"]);
        assert_eq!(split_lines("a\n\n"), ["a", ""]);
        assert_eq!(split_lines("\n"), [""]);
    }

    #[test]
    fn a_one_line_edit_is_one_added_and_one_removed() {
        let lines = line_diff("let x = 1;", "let x = 2;");
        assert_eq!(ops_text(&lines), "-let x = 1;|+let x = 2;");
        assert_eq!(
            LineCounts::of(&lines),
            LineCounts {
                added: 1,
                removed: 1
            }
        );
        assert_eq!(
            line_counts("let x = 1;", "let x = 2;"),
            LineCounts::of(&lines)
        );
    }

    #[test]
    fn common_lines_are_kept_with_both_line_numbers() {
        let lines = line_diff("a\nb\nc\nd\n", "a\nB\nc\nd\ne\n");
        assert_eq!(ops_text(&lines), " a|-b|+B| c| d|+e");
        let c = &lines[3];
        assert_eq!((c.old_no, c.new_no), (Some(3), Some(3)));
        let e = &lines[5];
        assert_eq!((e.old_no, e.new_no), (None, Some(5)));
        assert_eq!(
            line_counts("a\nb\nc\nd\n", "a\nB\nc\nd\ne\n"),
            LineCounts {
                added: 2,
                removed: 1
            }
        );
    }

    #[test]
    fn the_middle_is_aligned_not_replaced_whole() {
        // Carried over from the UI's former diff tests: an inserted line
        // between kept ones is one add, not a rewrite of the middle.
        let lines = line_diff("a\nx\nb\ny\nc", "a\nb\nnew\nc");
        assert_eq!(
            LineCounts::of(&lines),
            LineCounts {
                added: 1,
                removed: 2
            }
        );
        let kept: Vec<&str> = lines
            .iter()
            .filter(|l| l.op == DiffOp::Eq)
            .map(|l| l.text.as_str())
            .collect();
        assert_eq!(kept, ["a", "b", "c"]);
    }

    #[test]
    fn the_cases_the_uis_former_diff_was_tested_on() {
        assert_eq!(
            ops_text(&line_diff("a\nb\nc\n", "a\nB\nc\n")),
            " a|-b|+B| c"
        );
        assert_eq!(ops_text(&line_diff("a\nc", "a\nb\nc")), " a|+b| c");
        assert_eq!(ops_text(&line_diff("a\nb\nc", "a\nc")), " a|-b| c");
        // A minimal alignment in the middle: the common "a b" is kept.
        assert_eq!(
            ops_text(&line_diff("x\na\nb\ny", "a\nb\nz")),
            "-x| a| b|-y|+z"
        );
        let numbered: Vec<_> = line_diff("a\nb\nc", "a\nx\ny\nc")
            .into_iter()
            .map(|l| (l.op, l.old_no, l.new_no))
            .collect();
        assert_eq!(
            numbered,
            [
                (DiffOp::Eq, Some(1), Some(1)),
                (DiffOp::Del, Some(2), None),
                (DiffOp::Add, None, Some(2)),
                (DiffOp::Add, None, Some(3)),
                (DiffOp::Eq, Some(3), Some(4)),
            ]
        );
    }

    #[test]
    fn identical_and_empty_texts() {
        assert!(line_diff("", "").is_empty());
        assert_eq!(line_counts("same\n", "same\n"), LineCounts::default());
        assert_eq!(ops_text(&line_diff("", "x\ny")), "+x|+y");
        assert_eq!(ops_text(&line_diff("x\ny", "")), "-x|-y");
        // A final newline added to the last line is not a changed line.
        assert_eq!(line_counts("x", "x\n"), LineCounts::default());
    }

    #[test]
    fn huge_inputs_are_capped_but_counted_exactly_for_what_is_shown() {
        let old: String = (0..MAX_DIFF_LINES).map(|i| format!("old {i}\n")).collect();
        let new: String = format!(
            "head\n{}",
            (0..10).map(|i| format!("new {i}\n")).collect::<String>()
        );
        let old = format!("head\n{old}");
        let start = std::time::Instant::now();
        let lines = line_diff(&old, &new);
        let counts = line_counts(&old, &new);
        assert!(start.elapsed().as_secs() < 10, "capped, not quadratic");
        assert_eq!(
            counts,
            LineCounts {
                added: 10,
                removed: u32::try_from(MAX_DIFF_LINES).unwrap()
            }
        );
        assert_eq!(LineCounts::of(&lines), counts);
        assert_eq!(lines[0].op, DiffOp::Eq, "the common head is still matched");
    }

    #[test]
    fn edit_counts_per_tool() {
        let one = |input: Value| tool_input_counts(&input, None).unwrap();
        assert_eq!(
            one(json!({"old_string": "a = 1", "new_string": "a = 2"})),
            LineCounts {
                added: 1,
                removed: 1
            },
            "a one-line Edit"
        );
        assert_eq!(
            one(json!({"file_path": "/r/n.txt", "content": "a\nb\nc\n"})),
            LineCounts {
                added: 3,
                removed: 0
            },
            "a Write of a new 3-line file"
        );
        assert_eq!(
            one(json!({"edits": [
                {"old_string": "a", "new_string": "b"},
                {"old_string": "x\ny", "new_string": "x\ny\nz", "replace_all": true},
                {"new_string": "only new"},
            ]})),
            LineCounts {
                added: 3,
                removed: 1
            },
            "MultiEdit sums its edits"
        );
        assert_eq!(
            one(json!({"notebook_path": "/r/n.ipynb", "new_source": "x = 1\ny = 2"})),
            LineCounts {
                added: 2,
                removed: 0
            }
        );
        assert_eq!(
            one(json!({"notebook_path": "/r/n.ipynb", "edit_mode": "delete"})),
            LineCounts::default()
        );
        assert_eq!(tool_input_counts(&json!({"command": "ls"}), None), None);
        assert_eq!(
            tool_input_counts(&json!({"file_path": "/r/big"}), None),
            None
        );
    }

    #[test]
    fn the_diff_and_the_counts_agree() {
        for input in [
            json!({"old_string": "a\nb\nc", "new_string": "a\nc\nd"}),
            json!({"content": "1\n2\n"}),
            json!({"edits": [{"old_string": "p", "new_string": "q\nr"}, {"old_string": "s", "new_string": "s"}]}),
            json!({"new_source": "x"}),
        ] {
            let diff = tool_input_diff(&input, None).unwrap();
            assert_eq!(
                Some(diff.counts),
                tool_input_counts(&input, None),
                "{input}"
            );
            let shown = diff.lines_shown();
            assert_eq!(shown, diff.counts, "{input}");
        }
        let multi = tool_input_diff(
            &json!({"edits": [{"old_string": "a", "new_string": "b", "replace_all": true}]}),
            None,
        )
        .unwrap();
        assert_eq!(multi.kind, ChangeKind::MultiEdit);
        assert!(multi.blocks[0].replace_all);
    }

    #[test]
    fn a_write_is_compared_with_the_previous_content_when_given() {
        let input = json!({"content": "a\nB\nc\n"});
        let diff = tool_input_diff(&input, Some("a\nb\nc\n")).unwrap();
        assert_eq!(diff.kind, ChangeKind::Write);
        assert_eq!(
            diff.counts,
            LineCounts {
                added: 1,
                removed: 1
            }
        );
        assert_eq!(
            tool_input_diff(&input, None).unwrap().counts,
            LineCounts {
                added: 3,
                removed: 0
            }
        );
    }

    #[test]
    fn a_write_is_counted_against_the_content_the_agent_reported() {
        let payload = json!({
            "tool_input": {"file_path": "/x/f.txt", "content": "a\nB\nc\n"},
            "tool_response": {"type": "update", "originalFile": "a\nb\nc\n"},
        });
        let previous = reported_previous(&payload);
        assert_eq!(previous, Some("a\nb\nc\n"));
        assert_eq!(
            tool_input_counts(&payload["tool_input"], previous),
            Some(LineCounts {
                added: 1,
                removed: 1
            })
        );
        let created = json!({"tool_response": {"type": "create", "originalFile": null}});
        assert_eq!(reported_previous(&created), None);
        assert_eq!(reported_previous(&json!({"tool_input": {}})), None);
    }
}
