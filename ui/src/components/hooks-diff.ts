// The diff of a whole settings file before a save: changed lines with three
// lines of context around them, unchanged stretches folded into one line,
// in the timeline's diff style (+/- lines with both line numbers).

import { diffStat, type DiffLine } from '../lib/diff';
import { h } from './dom';

/** Lines of context shown around each change. */
export const CONTEXT = 3;

/** Which lines to show: changes and their context; `null` marks a fold. */
export function hunks(lines: DiffLine[], context = CONTEXT): (DiffLine | { fold: number })[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((l, i) => {
    if (l.op === 'eq') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = true;
  });
  const out: (DiffLine | { fold: number })[] = [];
  let folded = 0;
  lines.forEach((l, i) => {
    if (keep[i]) {
      if (folded > 0) out.push({ fold: folded });
      folded = 0;
      out.push(l);
    } else folded++;
  });
  if (folded > 0) out.push({ fold: folded });
  return out;
}

const SIGN: Record<DiffLine['op'], string> = { eq: ' ', del: '-', add: '+' };

/** A figure with the folded diff of `lines`. */
export function renderDiff(lines: DiffLine[], label: string): HTMLElement {
  const stat = diffStat(lines);
  // A scroll box the keyboard reaches: Tab to it, then the arrow keys and Page Up/Down scroll it.
  const body = h('div', { class: 'diff-body', attrs: { tabindex: 0, role: 'region', 'aria-label': `Lines of ${label}` } });
  for (const item of hunks(lines)) {
    if ('fold' in item) {
      body.append(h('div', { class: 'diff-line diff-fold', data: { op: 'fold' }, text: `⋯ ${item.fold} unchanged line${item.fold === 1 ? '' : 's'}` }));
      continue;
    }
    body.append(
      h(
        'div',
        { class: `diff-line diff-${item.op}`, data: { op: item.op } },
        h('span', { class: 'diff-no', attrs: { 'aria-hidden': 'true' }, text: item.oldNo?.toString() ?? '' }),
        h('span', { class: 'diff-no', attrs: { 'aria-hidden': 'true' }, text: item.newNo?.toString() ?? '' }),
        h('span', { class: 'diff-sign', text: SIGN[item.op] }),
        h('span', { class: 'diff-text', text: item.text === '' ? '\u200b' : item.text }),
      ),
    );
  }
  return h(
    'figure',
    { class: 'diff hooks-diff', data: { testid: 'hooks-diff' }, attrs: { 'aria-label': `Diff of ${label}` } },
    h('figcaption', { class: 'diff-caption' }, h('span', { class: 'mono', text: label }), h('span', { class: 'diff-stat' }, h('span', { class: 'stat-add', text: `+${stat.added}` }), ' ', h('span', { class: 'stat-del', text: `−${stat.removed}` }))),
    body,
  );
}
