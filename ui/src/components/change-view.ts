// Renders what a mutation changed: a line diff for Edit and each MultiEdit
// edit, the written content for Write (as a diff once the previous content
// is known, see `renderWriteDiff`), the new cell source for NotebookEdit,
// the command for Bash.

import type { Change, EditChange } from '../lib/change';
import { diffStat, lineDiff, splitLines, type DiffLine } from '../lib/diff';
import { formatLocal } from '../lib/time';
import type { PreviousContent } from '../lib/types';
import { append, h } from './dom';

/** Lines shown before a "show all" button, so a huge Write cannot freeze the panel. */
const MAX_LINES = 2000;

const SIGN: Record<DiffLine['op'], string> = { eq: ' ', del: '-', add: '+' };

function diffBlock(lines: DiffLine[], label: string): HTMLElement {
  const body = h('div', { class: 'diff-body' });
  const renderLines = (upTo: number): void => {
    const frag = document.createDocumentFragment();
    for (const line of lines.slice(0, upTo)) {
      frag.appendChild(
        h(
          'div',
          { class: `diff-line diff-${line.op}`, data: { op: line.op } },
          h('span', { class: 'diff-no', attrs: { 'aria-hidden': 'true' }, text: line.oldNo?.toString() ?? '' }),
          h('span', { class: 'diff-no', attrs: { 'aria-hidden': 'true' }, text: line.newNo?.toString() ?? '' }),
          h('span', { class: 'diff-sign', text: SIGN[line.op] }),
          h('span', { class: 'diff-text', text: line.text === '' ? '\u200b' : line.text }),
        ),
      );
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
  const stat = diffStat(lines);
  return h(
    'figure',
    { class: 'diff', data: { testid: 'change-diff' }, attrs: { 'aria-label': label } },
    h(
      'figcaption',
      { class: 'diff-caption' },
      h('span', { text: label }),
      h('span', { class: 'diff-stat' }, h('span', { class: 'stat-add', text: `+${stat.added}` }), ' ', h('span', { class: 'stat-del', text: `−${stat.removed}` })),
    ),
    body,
  );
}

function addedOnly(text: string): DiffLine[] {
  return splitLines(text).map((t, i) => ({ op: 'add', text: t, newNo: i + 1 }));
}

function editBlock(edit: EditChange, label: string): HTMLElement {
  return diffBlock(lineDiff(edit.oldString, edit.newString), label + (edit.replaceAll ? ' (replace all)' : ''));
}

/** What a Write is compared with, in a few words. */
export function previousLabel(prev: PreviousContent): string {
  const src = prev.source;
  switch (src.kind) {
    case 'write':
      return `vs. Write at ${formatLocal(src.event_timestamp)} by ${src.agent_id}`;
    case 'git':
      return `vs. git ${src.sha.slice(0, 7)} (HEAD when written)`;
    case 'none':
      return 'no earlier content known: every line is new';
  }
}

/**
 * A Write's content against what its file held before: a diff when the
 * previous content is known, else the content as added lines. The caption
 * names the source; a note says when other changes recorded in between
 * are part of the diff, or why a known source could not be compared.
 */
export function renderWriteDiff(content: string, prev: PreviousContent): HTMLElement {
  const wrap = h('div', { class: 'write-diff', data: { testid: 'write-diff', source: prev.source.kind } });
  const label = previousLabel(prev);
  const lines = prev.content !== null ? lineDiff(prev.content, content) : addedOnly(content);
  wrap.append(diffBlock(lines, prev.content !== null ? label : prev.source.kind === 'none' ? label : `content (${label})`));
  const notes: string[] = [];
  if (prev.note) notes.push(`Not compared: ${prev.note}.`);
  if (prev.changes_between > 0) {
    const n = prev.changes_between;
    notes.push(`${n} other change${n === 1 ? ' was' : 's were'} recorded to this file in between; ${n === 1 ? 'it is' : 'they are'} part of this diff.`);
  }
  if (prev.content !== null && prev.content === content) notes.push('The Write left the content as it was.');
  for (const note of notes) wrap.append(h('p', { class: 'muted change-note', data: { testid: 'write-diff-note' }, text: note }));
  return wrap;
}

/** The change section of the row detail panel. */
export function renderChange(change: Change): HTMLElement {
  const section = h('section', { class: 'detail-section', data: { testid: 'change', kind: change.kind } });
  const title = (text: string): HTMLElement => h('h3', { class: 'detail-heading', text });
  switch (change.kind) {
    case 'edit':
      section.append(title('Change'), editBlock(change.edit, 'old_string → new_string'));
      break;
    case 'multiedit':
      section.append(title(`Change (${change.edits.length} edits)`));
      change.edits.forEach((e, i) => section.append(editBlock(e, `Edit ${i + 1} of ${change.edits.length}`)));
      if (change.edits.length === 0) section.append(h('p', { class: 'muted', text: 'The payload lists no edits.' }));
      break;
    case 'write':
      section.append(title('Written content'), diffBlock(addedOnly(change.content), 'content (new file contents)'));
      break;
    case 'notebook':
      section.append(
        title('Notebook cell'),
        h('p', { class: 'muted mono', text: `cell ${change.cellId ?? '(new)'} · ${change.cellType ?? 'cell'} · ${change.editMode}` }),
        diffBlock(addedOnly(change.newSource), 'new_source'),
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
