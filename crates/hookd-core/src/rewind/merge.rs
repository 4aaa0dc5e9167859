//! What reverting one recorded change does to one file, keeping everything
//! written after it.
//!
//! A change took a file from *before* to *after*. Since then the agent (or
//! another agent, or the user) may have changed it further: the file is
//! *now*. Writing *before* back would throw those later changes away, so a
//! revert is a three-way merge, as `git revert` does: the common ancestor is
//! *after*, one side is *now* (everything since), the other is *before*
//! (the change undone). Lines both sides changed are a conflict, reported,
//! never guessed. Each side may be absent: a change that created the file
//! (no *before*), one that deleted it (no *after*), a file gone since (no
//! *now*). Contents that are not text (a NUL byte) are not merged: restored
//! only when nothing touched the file since.
//!
//! The merge is `diffy`'s diff3 (Myers diffs, git's conflict markers).

/// What reverting a change does to its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Revert {
    /// The file is already as the revert would leave it.
    Unchanged,
    /// Write this content (the file is created if absent).
    Write(Vec<u8>),
    /// Delete the file: the change created it and nothing changed it since.
    Delete,
    /// The revert and the later changes touch the same lines, or the file
    /// cannot be merged: nothing is written unless asked for.
    Conflict(Conflict),
}

/// Why a revert cannot be applied as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conflict {
    /// Later changes overlap the change undone; `marked` is the file with
    /// git's conflict markers (`<<<<<<< now`, `||||||| after the change`,
    /// `=======`, `>>>>>>> before the change`).
    Overlap {
        /// The merged file, conflicts marked.
        marked: Vec<u8>,
    },
    /// The change created the file and it was changed since: deleting it
    /// would lose those changes.
    ChangedSinceCreated,
    /// The file was deleted since the change.
    DeletedSince,
    /// The change deleted the file and a different one is there now.
    RecreatedSince,
    /// Not text, and changed since: binary contents are not merged.
    Binary,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Overlap { .. } => "later changes touch the same lines",
            Self::ChangedSinceCreated => {
                "the change created the file and it was changed since; deleting it would lose that"
            }
            Self::DeletedSince => "the file was deleted since the change",
            Self::RecreatedSince => "the change deleted the file and another one is there now",
            Self::Binary => "not text, and changed since the change: binary files are not merged",
        })
    }
}

/// Labels of the conflict markers' sides.
const NOW: &str = "now";
const AFTER: &str = "after the change";
const BEFORE: &str = "before the change";

/// What reverting the change `before` → `after` does to the file that is
/// `now` (`None`: no such file at that point).
pub fn revert(before: Option<&[u8]>, after: Option<&[u8]>, now: Option<&[u8]>) -> Revert {
    if now == before {
        return Revert::Unchanged;
    }
    if now == after {
        // Untouched since the change: undo it whole.
        return match before {
            Some(content) => Revert::Write(content.to_vec()),
            None => Revert::Delete,
        };
    }
    match (before, after, now) {
        (None, Some(_), Some(_)) => Revert::Conflict(Conflict::ChangedSinceCreated),
        (Some(_), Some(_), None) => Revert::Conflict(Conflict::DeletedSince),
        (Some(_), None, Some(_)) => Revert::Conflict(Conflict::RecreatedSince),
        (Some(before), Some(after), Some(now)) => merge(before, after, now),
        // `now == before` or `now == after` caught every other case: with
        // no before and no after there was no change; with no now and no
        // after, or no now and no before, `now` equals one of them.
        _ => Revert::Unchanged,
    }
}

/// The three-way merge of a change undone into the file as it is now.
fn merge(before: &[u8], after: &[u8], now: &[u8]) -> Revert {
    if [before, after, now]
        .iter()
        .any(|content| content.contains(&0))
    {
        return Revert::Conflict(Conflict::Binary);
    }
    // Markers longer than any marker-like line of the files, as git does
    // (`conflict-marker-size`): a line of the user's that reads
    // `<<<<<<< ours` stays theirs, never taken for a marker.
    let length = marker_length([before, after, now]);
    let mut options = diffy::MergeOptions::new();
    options.set_conflict_style(diffy::ConflictStyle::Diff3);
    options.set_conflict_marker_length(length);
    match options.merge_bytes(after, now, before) {
        Ok(merged) if merged == now => Revert::Unchanged,
        Ok(merged) => Revert::Write(merged),
        Err(marked) => Revert::Conflict(Conflict::Overlap {
            marked: label(&marked, length),
        }),
    }
}

/// The shortest conflict marker (7 at least, as git's) longer than every
/// run of `<`, `|`, `=` or `>` that starts a line of `contents`.
fn marker_length(contents: [&[u8]; 3]) -> usize {
    contents
        .iter()
        .flat_map(|content| content.split(|&b| b == b'\n'))
        .filter_map(|line| {
            let first = *line.first()?;
            b"<|=>"
                .contains(&first)
                .then(|| line.iter().take_while(|&&b| b == first).count() + 1)
        })
        .fold(7, usize::max)
}

/// Names the sides of diffy's markers (`<<<<<<< ours` …, `length` signs)
/// as a user reads them: what is there now, the change, what was there
/// before it.
fn label(marked: &[u8], length: usize) -> Vec<u8> {
    let marker = |sign: u8, name: &str| {
        let mut line = vec![sign; length];
        line.push(b' ');
        line.extend_from_slice(name.as_bytes());
        line
    };
    let markers = [
        (marker(b'<', "ours"), NOW),
        (marker(b'|', "original"), AFTER),
        (marker(b'>', "theirs"), BEFORE),
    ];
    let mut out = Vec::with_capacity(marked.len());
    for line in marked.split_inclusive(|&b| b == b'\n') {
        let relabelled = markers.iter().find_map(|(marker, label)| {
            let rest = line.strip_prefix(marker.as_slice())?;
            let ending = if rest.ends_with(b"\n") { "\n" } else { "" };
            (rest.trim_ascii().is_empty()).then(|| {
                format!(
                    "{} {label}{ending}",
                    String::from_utf8_lossy(&marker[..length])
                )
            })
        });
        match relabelled {
            Some(line) => out.extend_from_slice(line.as_bytes()),
            None => out.extend_from_slice(line),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[&str]) -> Vec<u8> {
        lines
            .iter()
            .map(|line| format!("{line}\n"))
            .collect::<String>()
            .into_bytes()
    }

    fn written(revert: Revert) -> String {
        match revert {
            Revert::Write(content) => String::from_utf8(content).unwrap(),
            other => panic!("expected a write, got {other:?}"),
        }
    }

    #[test]
    fn undoing_a_middle_change_keeps_the_earlier_and_the_later_ones() {
        // Prompt 1 wrote the file, prompt 2 changed `two`, prompt 3
        // changed `five`, then the user added a line at the end.
        let p1 = text(&["one", "two", "three", "four", "five"]);
        let p2 = text(&["one", "TWO (prompt 2)", "three", "four", "five"]);
        let now = text(&[
            "one",
            "TWO (prompt 2)",
            "three",
            "four",
            "FIVE (prompt 3)",
            "user",
        ]);
        let reverted = written(revert(Some(&p1), Some(&p2), Some(&now)));
        assert_eq!(reverted, "one\ntwo\nthree\nfour\nFIVE (prompt 3)\nuser\n");
    }

    #[test]
    fn a_change_untouched_since_is_undone_whole() {
        let before = text(&["a"]);
        let after = text(&["b"]);
        assert_eq!(
            written(revert(Some(&before), Some(&after), Some(&after))),
            "a\n"
        );
        // Created by the change: deleted.
        assert_eq!(revert(None, Some(&after), Some(&after)), Revert::Delete);
        // Deleted by the change: restored.
        assert_eq!(written(revert(Some(&before), None, None)), "a\n");
        // Already as it was before.
        assert_eq!(
            revert(Some(&before), Some(&after), Some(&before)),
            Revert::Unchanged
        );
        assert_eq!(revert(None, Some(&after), None), Revert::Unchanged);
    }

    #[test]
    fn overlapping_later_changes_are_a_conflict_with_readable_markers() {
        let before = text(&["x = 1", "y = 2"]);
        let after = text(&["x = 10", "y = 2"]);
        let now = text(&["x = 100", "y = 2"]);
        let Revert::Conflict(Conflict::Overlap { marked }) =
            revert(Some(&before), Some(&after), Some(&now))
        else {
            panic!("expected a conflict");
        };
        let marked = String::from_utf8(marked).unwrap();
        assert_eq!(
            marked,
            "<<<<<<< now\nx = 100\n||||||| after the change\nx = 10\n=======\nx = 1\n>>>>>>> before the change\ny = 2\n"
        );
    }

    #[test]
    fn a_users_line_that_looks_like_a_marker_stays_theirs() {
        // The user's file holds a line like a conflict marker (a merge they
        // left unresolved, a doc about merges), and the revert conflicts.
        let before = text(&["x = 1", "<<<<<<< ours", "y = 2"]);
        let after = text(&["x = 10", "<<<<<<< ours", "y = 2"]);
        let now = text(&["x = 100", "<<<<<<< ours", "y = 2"]);
        let Revert::Conflict(Conflict::Overlap { marked }) =
            revert(Some(&before), Some(&after), Some(&now))
        else {
            panic!("expected a conflict");
        };
        assert_eq!(
            String::from_utf8(marked).unwrap(),
            "<<<<<<<< now\nx = 100\n|||||||| after the change\nx = 10\n========\nx = 1\n>>>>>>>> before the change\n<<<<<<< ours\ny = 2\n"
        );
    }

    #[test]
    fn a_file_changed_deleted_or_recreated_since_is_never_guessed() {
        let before = text(&["a"]);
        let after = text(&["b"]);
        let later = text(&["b", "later"]);
        assert_eq!(
            revert(None, Some(&after), Some(&later)),
            Revert::Conflict(Conflict::ChangedSinceCreated)
        );
        assert_eq!(
            revert(Some(&before), Some(&after), None),
            Revert::Conflict(Conflict::DeletedSince)
        );
        assert_eq!(
            revert(Some(&before), None, Some(&later)),
            Revert::Conflict(Conflict::RecreatedSince)
        );
    }

    #[test]
    fn binary_contents_are_restored_only_when_untouched_since() {
        let before = b"\0\x01old".to_vec();
        let after = b"\0\x01new".to_vec();
        let now = b"\0\x01newer".to_vec();
        assert_eq!(
            written_bytes(revert(Some(&before), Some(&after), Some(&after))),
            before
        );
        assert_eq!(
            revert(Some(&before), Some(&after), Some(&now)),
            Revert::Conflict(Conflict::Binary)
        );
    }

    fn written_bytes(revert: Revert) -> Vec<u8> {
        match revert {
            Revert::Write(content) => content,
            other => panic!("expected a write, got {other:?}"),
        }
    }

    #[test]
    fn a_file_without_a_final_newline_merges_too() {
        let before = b"one\ntwo".to_vec();
        let after = b"one\nTWO".to_vec();
        let now = b"zero\none\nTWO".to_vec();
        assert_eq!(
            written(revert(Some(&before), Some(&after), Some(&now))),
            "zero\none\ntwo"
        );
    }
}
