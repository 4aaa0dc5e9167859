// Renders what a mutation changed: a line diff for Edit and each MultiEdit
// edit, a Write against its previous content (see `renderWriteDiff`), the
// new cell source for NotebookEdit, the command for Bash and, for a file a
// Bash command changed, its whole content before and after the command
// (`renderShellChange`, from the contents the daemon kept). The diffs are
// the backend's (`mutation_diff`, `payload_diff`: hookd_core::diff, the rule
// the ledger's lines_added/lines_removed are counted with), never computed
// here, so a diff and the LINES column beside it agree.

import type { Change } from '../lib/change';
import { formatLocal } from '../lib/time';
import type { ChangeDiff, DiffBlock, DiffLine, LineCounts, PreviousContent } from '../lib/types';
import { append, h } from './dom';

/** Lines shown before a "show all" button, so a huge Write cannot freeze the panel. */
const MAX_LINES = 2000;

const SIGN: Record<DiffLine['op'], string> = { eq: ' ', del: '-', add: '+' };

/** `+3 −1`, green and red, as the LINES column shows counts. */
export function statSpans(counts: LineCounts): HTMLElement {
  return h('span', { class: 'diff-stat' }, h('span', { class: 'stat-add', text: `+${counts.added}` }), ' ', h('span', { class: 'stat-del', text: `\u2212${counts.removed}` }));
}

/** What the LINES cell shows of a row: its counts, or `—` when they were not counted. */
export interface LinesOf {
  lines_added: number | null;
  lines_removed: number | null;
  lines_changed: number | null;
}

/**
 * Fills a LINES cell: `+3 −1` (green, red) from the row's stored counts,
 * the ones its diff shows; `—` when not counted (Bash, an oversized
 * payload, a row recorded before hookd counted them), the title saying why.
 */
export function fillLines(cell: HTMLElement, row: LinesOf): void {
  if (row.lines_added !== null && row.lines_removed !== null) {
    const counts = { added: row.lines_added, removed: row.lines_removed };
    cell.replaceChildren(h('span', { class: 'stat-add', text: `+${counts.added}` }), ' ', h('span', { class: 'stat-del', text: `\u2212${counts.removed}` }));
    cell.title = `${counts.added} line${counts.added === 1 ? '' : 's'} added, ${counts.removed} removed`;
    return;
  }
  cell.textContent = '\u2014';
  cell.title =
    row.lines_changed === null
      ? "No lines counted (a shell command whose file contents before and after were not both kept as text)"
      : `Lines added and removed not counted (recorded before hookd counted them, or a payload too large to keep); newlines written: ${row.lines_changed}`;
}

/** One line of a diff as every diff in the app draws it: both line numbers, the sign, the text. */
export function diffLine(line: DiffLine): HTMLElement {
  return h(
    'div',
    { class: `diff-line diff-${line.op}`, data: { op: line.op } },
    h('span', { class: 'diff-no', attrs: { 'aria-hidden': 'true' }, text: line.old_no?.toString() ?? '' }),
    h('span', { class: 'diff-no', attrs: { 'aria-hidden': 'true' }, text: line.new_no?.toString() ?? '' }),
    h('span', { class: 'diff-sign', text: SIGN[line.op] }),
    h('span', { class: 'diff-text', text: line.text === '' ? '\u200b' : line.text }),
  );
}

function diffBlock(block: DiffBlock, label: string): HTMLElement {
  const { lines } = block;
  const body = h('div', { class: 'diff-body', attrs: { tabindex: 0, role: 'region', 'aria-label': `Lines of ${label}` } });
  const renderLines = (upTo: number): void => {
    const frag = document.createDocumentFragment();
    for (const line of lines.slice(0, upTo)) {
      frag.appendChild(diffLine(line));
    }
    body.replaceChildren(frag);
    if (lines.length > upTo) {
      body.appendChild(
        h('button', {
          class: 'link-button diff-more',
          attrs: { type: 'button' },
          text: `Show all ${lines.length} lines`,
          on: { click: () => renderLines(lines.length) },
        }),
      );
    }
  };
  renderLines(MAX_LINES);
  return h(
    'figure',
    { class: 'diff', data: { testid: 'change-diff', added: String(block.counts.added), removed: String(block.counts.removed) }, attrs: { 'aria-label': label } },
    h('figcaption', { class: 'diff-caption' }, h('span', { text: label }), statSpans(block.counts)),
    body,
  );
}

/** What a Write is compared with, in a few words. */
export function previousLabel(prev: PreviousContent): string {
  const src = prev.source;
  switch (src.kind) {
    case 'write':
      return `vs. Write at ${formatLocal(src.event_timestamp)} by ${src.agent_id}`;
    case 'git':
      return `vs. git ${src.sha.slice(0, 7)} (HEAD when written)`;
    case 'reported':
      return 'vs. the file before this Write, as the agent reported it';
    case 'kept':
      return src.existed ? 'vs. the file before this Write, as hookd read it' : 'a new file: there was none before this Write';
    case 'none':
      return 'no earlier content known: every line is new';
  }
}

/**
 * A Write's diff against what its file held before (the backend's, see
 * `mutation_diff`): the caption names what it was compared with; notes
 * say when other changes recorded in between are part of the diff, why a
 * known source could not be compared, and when the row's LINES (counted
 * when the Write was recorded, against no earlier content) differ.
 */
export function renderWriteDiff(block: DiffBlock, prev: PreviousContent, recorded: LineCounts | null): HTMLElement {
  const wrap = h('div', { class: 'write-diff', data: { testid: 'write-diff', source: prev.source.kind } });
  const label = previousLabel(prev);
  const compared = prev.source.kind !== 'none' && prev.note === null;
  wrap.append(diffBlock(block, compared || prev.source.kind === 'none' ? label : `content (${label})`));
  const notes: [string, string][] = [];
  if (prev.note) notes.push(['write-diff-note', `Not compared: ${prev.note}.`]);
  if (prev.changes_between > 0) {
    const n = prev.changes_between;
    notes.push(['write-diff-note', `${n} other change${n === 1 ? ' was' : 's were'} recorded to this file in between; ${n === 1 ? 'it is' : 'they are'} part of this diff.`]);
  }
  if (compared && block.counts.added === 0 && block.counts.removed === 0) notes.push(['write-diff-note', 'The Write left the content as it was.']);
  if (recorded && (recorded.added !== block.counts.added || recorded.removed !== block.counts.removed)) {
    notes.push([
      'write-diff-recorded',
      `The LINES column shows +${recorded.added} \u2212${recorded.removed}: a Write is counted when it is recorded, against no earlier content; the previous content is looked up only here.`,
    ]);
  }
  for (const [testid, note] of notes) wrap.append(h('p', { class: 'muted change-note', data: { testid }, text: note }));
  return wrap;
}

/** Where a change's diff goes until the backend has computed it. */
function pending(): HTMLElement {
  return h('p', { class: 'muted change-status', data: { testid: 'change-diff-pending' }, text: 'Computing the diff…' });
}

/** The change section of a detail panel; its diff is filled in by `showDiff`. */
export function renderChange(change: Change): HTMLElement {
  const section = h('section', { class: 'detail-section', data: { testid: 'change', kind: change.kind } });
  const title = (text: string): HTMLElement => h('h3', { class: 'detail-heading', text });
  switch (change.kind) {
    case 'edit':
      section.append(title('Change'), pending());
      break;
    case 'multiedit':
      section.append(title(`Change (${change.edits.length} edits)`), pending());
      break;
    case 'write':
      section.append(title('Written content'), pending());
      break;
    case 'notebook':
      section.append(
        title('Notebook cell'),
        h('p', { class: 'muted mono', text: `cell ${change.cellId ?? '(new)'} · ${change.cellType ?? 'cell'} · ${change.editMode}` }),
        pending(),
      );
      break;
    case 'bash':
      append(
        section,
        title('Command'),
        change.description ? h('p', { class: 'muted', text: change.description }) : null,
        h('pre', { class: 'code-block', data: { testid: 'change-command' }, text: change.command }),
      );
      break;
    case 'none':
      section.append(title('Change'), h('p', { class: 'muted', text: `No change to show: ${change.reason}.` }));
      break;
    case 'invalid':
      section.append(title('Change'), h('p', { class: 'muted', text: `The payload is not valid JSON (${change.error}).` }));
      break;
  }
  return section;
}

/**
 * The section of a file a shell command changed: its whole content before
 * the command against after it, filled in by `showDiff` from the row's
 * `mutation_diff` (kind `shell`).
 */
export function renderShellChange(file: string): HTMLElement {
  return h(
    'section',
    { class: 'detail-section', data: { testid: 'shell-change', kind: 'shell' } },
    h('h3', { class: 'detail-heading', text: 'File before and after the command' }),
    h('p', { class: 'muted mono', text: file }),
    pending(),
  );
}

/** Whether a change shows a diff (computed by the backend). */
export function hasDiff(change: Change): boolean {
  return change.kind === 'edit' || change.kind === 'multiedit' || change.kind === 'write' || change.kind === 'notebook';
}

/**
 * Puts the backend's diff into a section from `renderChange`: one block per
 * edit, a Write's against `previous` when it was compared with one.
 * `recorded` is the row's stored counts (its LINES).
 */
export function showDiff(section: HTMLElement, diff: ChangeDiff | null, previous: PreviousContent | null = null, recorded: LineCounts | null = null): void {
  const at = section.querySelector('[data-testid=change-diff-pending]');
  const parts: HTMLElement[] = [];
  if (diff === null) {
    const why =
      section.dataset.kind === 'shell'
        ? "the file's contents before and after the command were not both kept as text (too large, binary, or recorded before hookd kept them)"
        : 'the payload holds no file text';
    parts.push(h('p', { class: 'muted', data: { testid: 'change-no-diff' }, text: `No diff to show: ${why}.` }));
  } else {
    section.dataset.added = String(diff.counts.added);
    section.dataset.removed = String(diff.counts.removed);
    const n = diff.blocks.length;
    diff.blocks.forEach((block, i) => {
      switch (diff.kind) {
        case 'edit':
          parts.push(diffBlock(block, 'old_string \u2192 new_string' + (block.replace_all ? ' (replace all)' : '')));
          break;
        case 'multi_edit':
          parts.push(diffBlock(block, `Edit ${i + 1} of ${n}` + (block.replace_all ? ' (replace all)' : '')));
          break;
        case 'write':
          parts.push(previous ? renderWriteDiff(block, previous, recorded) : diffBlock(block, 'content (new file contents)'));
          break;
        case 'notebook':
          parts.push(diffBlock(block, 'new_source'));
          break;
        case 'shell':
          parts.push(diffBlock(block, 'before \u2192 after the command'));
          break;
      }
    });
    if (diff.kind === 'multi_edit' && n === 0) parts.push(h('p', { class: 'muted', text: 'The payload lists no edits.' }));
  }
  if (at) at.replaceWith(...parts);
  else section.append(...parts);
}

/** Says in a section from `renderChange` that its diff could not be computed. */
export function diffFailed(section: HTMLElement, message: string): void {
  const at = section.querySelector<HTMLElement>('[data-testid=change-diff-pending]');
  if (!at) return;
  at.className = 'field-error change-status';
  at.dataset.testid = 'change-diff-error';
  at.textContent = `Could not compute the diff: ${message}.`;
}
