// The stub backend's stand-in for the core's diff (`hookd_core::diff`):
// what `mutation_diff` and `payload_diff` answer, and the line counts the
// sample rows store. The app itself never diffs a mutation: it renders the
// backend's lines. The stub aligns lines with the settings editor's diff
// (lib/diff.ts); the rule that counts (a Write against no earlier content,
// a notebook cell's lines all added, MultiEdit summed) is the core's.

import { lineDiff } from '../lib/diff';
import type { ChangeDiff, DiffBlock, DiffLine, LineCounts } from '../lib/types';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Obj, key: string): string | null => (typeof o[key] === 'string' ? (o[key] as string) : null);

function block(oldText: string, newText: string, replaceAll: boolean): DiffBlock {
  const lines: DiffLine[] = lineDiff(oldText, newText).map((l) => ({ op: l.op, text: l.text, old_no: l.oldNo ?? null, new_no: l.newNo ?? null }));
  const counts: LineCounts = { added: 0, removed: 0 };
  for (const l of lines) {
    if (l.op === 'add') counts.added++;
    else if (l.op === 'del') counts.removed++;
  }
  return { lines, counts, replace_all: replaceAll };
}

function replacement(o: Obj): DiffBlock | null {
  const oldS = str(o, 'old_string');
  const newS = str(o, 'new_string');
  if (oldS === null && newS === null) return null;
  return block(oldS ?? '', newS ?? '', o.replace_all === true);
}

/** The diff of a tool input, a Write's against `previous`; null when it holds no file text. */
export function changeDiff(input: unknown, previous: string | null = null): ChangeDiff | null {
  if (!isObj(input)) return null;
  let kind: ChangeDiff['kind'];
  let blocks: DiffBlock[];
  const edit = replacement(input);
  if (Array.isArray(input.edits)) {
    kind = 'multi_edit';
    blocks = input.edits.filter(isObj).map(replacement).filter((b): b is DiffBlock => b !== null);
  } else if (edit) {
    kind = 'edit';
    blocks = [edit];
  } else if (str(input, 'content') !== null) {
    kind = 'write';
    blocks = [block(previous ?? '', str(input, 'content')!, false)];
  } else if (str(input, 'new_source') !== null || str(input, 'notebook_path') !== null) {
    kind = 'notebook';
    blocks = [block('', str(input, 'new_source') ?? '', false)];
  } else return null;
  const counts = blocks.reduce((c, b) => ({ added: c.added + b.counts.added, removed: c.removed + b.counts.removed }), { added: 0, removed: 0 });
  return { kind, blocks, counts };
}

/** A file's whole content before and after a shell command (`null`: no file), as the core diffs a Bash row. */
export function shellDiff(before: string | null, after: string | null): ChangeDiff {
  const b = block(before ?? '', after ?? '', false);
  return { kind: 'shell', blocks: [b], counts: b.counts };
}

/** The tool input of a payload's JSON text, if any. */
/** The file before a Write as the payload reports it (`tool_response.originalFile`), as the core reads it. */
export function reportedPreviousOf(raw: string): string | null {
  try {
    const payload = JSON.parse(raw) as unknown;
    const response = isObj(payload) ? payload.tool_response : undefined;
    return isObj(response) && typeof response.originalFile === 'string' ? response.originalFile : null;
  } catch {
    return null;
  }
}

export function toolInputOf(raw: string): unknown {
  try {
    const payload = JSON.parse(raw) as unknown;
    return isObj(payload) ? payload.tool_input : undefined;
  } catch {
    return undefined;
  }
}
