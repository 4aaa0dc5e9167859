// Pure logic of the Connect dialog: scope and mode labels, what a preview
// means in words, and a diff folded to the changed lines with some context.

import type { DiffLine } from './diff';
import type { ConnectPreview, Scope, ProjectInfo } from './types';

/** What the dialog can do: connect in a mode, or remove hookd's entries. */
export type ConnectAction = 'record' | 'managed' | 'disconnect';

/** The scopes in the order offered, with the file each one edits. */
export const CONNECT_SCOPES: { value: Scope; label: string; file: string; note: string }[] = [
  { value: 'project', label: 'Project', file: '.claude/settings.json', note: 'committed: everyone working on the project records to hookd' },
  { value: 'local', label: 'Local', file: '.claude/settings.local.json', note: 'this checkout only, not committed' },
  { value: 'global', label: 'Global', file: '~/.claude/settings.json', note: 'every project of this user' },
];

/** The actions in the order offered. */
export const CONNECT_ACTIONS: { value: ConnectAction; label: string }[] = [
  { value: 'record', label: 'Record events (hookd-emit)' },
  { value: 'managed', label: 'Record and ask hookd for decisions (managed hooks: hookd-emit --wait)' },
  { value: 'disconnect', label: 'Disconnect (remove hookd\u2019s entries)' },
];

/** Whether any of the project's settings files calls hookd. */
export function isConnected(p: ProjectInfo): boolean {
  return p.connected.global || p.connected.project || p.connected.local;
}

/**
 * The scope to preselect: the first connected one, else Global, the file
 * `hookd connect` edits by default too (your own file; a committed project
 * file is shared with everyone who clones the project).
 */
export function defaultScope(p: ProjectInfo): Scope {
  if (p.connected.project) return 'project';
  if (p.connected.local) return 'local';
  if (p.connected.global) return 'global';
  return 'global';
}

/** One sentence saying what Apply would do. */
export function previewSummary(p: ConnectPreview, action: ConnectAction): string {
  const n = p.events.length;
  const events = `${n} event${n === 1 ? '' : 's'} (${p.events.join(', ')})`;
  if (!p.changes) {
    if (action === 'disconnect') return p.exists ? 'Not connected: this file has no hookd entries.' : 'Not connected: this file does not exist.';
    return 'Already connected: nothing to change in this file.';
  }
  if (action === 'disconnect') return `Removes hookd\u2019s entries from ${events}.`;
  return `${p.exists ? 'Adds' : 'Creates the file with'} a hookd entry for ${events}.`;
}

/** A run of unchanged lines left out of a folded diff. */
export interface DiffGap {
  op: 'gap';
  /** How many lines were left out. */
  count: number;
}

/**
 * The diff with unchanged runs longer than `2 × context` folded into gaps,
 * keeping `context` lines around every change. A diff without changes
 * stays whole (there is nothing else to show).
 */
export function foldDiff<L extends { op: DiffLine['op'] } = DiffLine>(lines: L[], context = 3): (L | DiffGap)[] {
  if (!lines.some((l) => l.op !== 'eq')) return lines;
  const keep = lines.map(() => false);
  lines.forEach((l, i) => {
    if (l.op === 'eq') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = true;
  });
  const out: (L | DiffGap)[] = [];
  let gap = 0;
  lines.forEach((l, i) => {
    if (keep[i]) {
      if (gap > 0) out.push({ op: 'gap', count: gap });
      gap = 0;
      out.push(l);
    } else gap++;
  });
  if (gap > 0) out.push({ op: 'gap', count: gap });
  return out;
}
