// A line diff for showing a settings file before a save (the hook editor,
// the Connect dialog), and the stub backend's stand-in for the core's diff.
// A mutation's diff and its LINES count are the core's (hookd_core::diff,
// sent by the `mutation_diff` and `payload_diff` commands): the timeline
// never diffs with this.
//
// Common leading and trailing lines are matched first (an edit usually
// touches a few lines of a larger snippet), then the middle is aligned by a
// longest-common-subsequence table. The table is quadratic, so past
// `MAX_CELLS` the middle is shown as removed-then-added instead: still
// correct, just less minimal, and never freezes the UI on a huge edit.

export type DiffOp = 'eq' | 'del' | 'add';

/** One line of a diff, with its 1-based line numbers on each side. */
export interface DiffLine {
  op: DiffOp;
  text: string;
  /** Line number in the old text (eq and del). */
  oldNo?: number;
  /** Line number in the new text (eq and add). */
  newNo?: number;
}

/** Largest LCS table (old middle lines × new middle lines) computed. */
export const MAX_CELLS = 4_000_000;

/** Splits text into lines; a final newline does not make an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The line diff from `oldText` to `newText`. */
export function lineDiff(oldText: string, newText: string): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }

  const out: DiffLine[] = [];
  for (let i = 0; i < start; i++) out.push({ op: 'eq', text: a[i]!, oldNo: i + 1, newNo: i + 1 });
  out.push(...middle(a, b, start, endA, endB));
  for (let i = endA, j = endB; i < a.length; i++, j++) {
    out.push({ op: 'eq', text: a[i]!, oldNo: i + 1, newNo: j + 1 });
  }
  return out;
}

function middle(a: string[], b: string[], start: number, endA: number, endB: number): DiffLine[] {
  const n = endA - start;
  const m = endB - start;
  const out: DiffLine[] = [];
  if (n * m > MAX_CELLS || n === 0 || m === 0) {
    for (let i = start; i < endA; i++) out.push({ op: 'del', text: a[i]!, oldNo: i + 1 });
    for (let j = start; j < endB; j++) out.push({ op: 'add', text: b[j]!, newNo: j + 1 });
    return out;
  }
  // lcs[i*(m+1)+j] = LCS length of a[start+i..endA] and b[start+j..endB].
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] =
        a[start + i] === b[start + j]
          ? lcs[(i + 1) * w + j + 1]! + 1
          : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const ai = start + i;
    const bj = start + j;
    if (i < n && j < m && a[ai] === b[bj]) {
      out.push({ op: 'eq', text: a[ai]!, oldNo: ai + 1, newNo: bj + 1 });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) {
      // At a tie the removal goes first, as git shows it.
      out.push({ op: 'del', text: a[ai]!, oldNo: ai + 1 });
      i++;
    } else {
      out.push({ op: 'add', text: b[bj]!, newNo: bj + 1 });
      j++;
    }
  }
  return out;
}

/** Counts of added and removed lines. */
export function diffStat(lines: DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.op === 'add') added++;
    else if (l.op === 'del') removed++;
  }
  return { added, removed };
}
