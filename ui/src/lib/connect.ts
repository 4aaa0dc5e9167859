// Pure logic of the Connect dialog: scope and mode labels, what a preview
// means in words, and a diff folded to the changed lines with some context.

import { CODING_AGENTS } from './catalogue';
import type { DiffLine } from './diff';
import type { ConnectPreview, Scope, ProjectInfo } from './types';

/** What the dialog can do: connect in a mode, or remove hookd's entries. */
export type ConnectAction = 'record' | 'managed' | 'disconnect';

/** One hooks file the dialog can connect: its scope and where it is. */
export interface ConnectScope {
  value: Scope;
  label: string;
  /** The file, `~/…` for the user's, relative to the project otherwise. */
  file: string;
  note: string;
}

/** Claude Code's scopes in the order offered, with the file each one edits. */
export const CONNECT_SCOPES: ConnectScope[] = [
  { value: 'project', label: 'Project', file: '.claude/settings.json', note: 'committed: everyone working on the project records to hookd' },
  { value: 'local', label: 'Local', file: '.claude/settings.local.json', note: 'this checkout only, not committed' },
  { value: 'global', label: 'Global', file: '~/.claude/settings.json', note: 'every project of this user' },
];

/**
 * The other agents' files, as `hookd connect --agent` writes them (the
 * backend decides the path; the preview shows it): a project's and the
 * user's, no local scope.
 */
const AGENT_FILES: Record<string, { project: string; global: string; note?: string }> = {
  codex: { project: '.codex/hooks.json', global: '~/.codex/hooks.json', note: 'Codex CLI runs a new hook only once you trust it in /hooks' },
  gemini: { project: '.gemini/settings.json', global: '~/.gemini/settings.json' },
  cursor: { project: '.cursor/hooks.json', global: '~/.cursor/hooks.json' },
  copilot: { project: '.github/hooks/hookd.json', global: '~/.copilot/hooks/hookd.json', note: 'a file of hookd\u2019s own beside yours' },
};

/** The agents the dialog offers, Claude Code first. */
export const CONNECT_AGENTS = CODING_AGENTS;

/** The scopes `agent` has, in the order offered, with the file of each. */
export function connectScopes(agent: string): ConnectScope[] {
  const files = AGENT_FILES[agent];
  if (!files) return CONNECT_SCOPES;
  const extra = files.note ? `; ${files.note}` : '';
  return [
    { value: 'project', label: 'Project', file: files.project, note: `this project${extra}` },
    { value: 'global', label: 'Global', file: files.global, note: `every project of this user${extra}` },
  ];
}

/** The actions in the order offered. */
export const CONNECT_ACTIONS: { value: ConnectAction; label: string }[] = [
  { value: 'record', label: 'Record events (hookd-emit)' },
  { value: 'managed', label: 'Record and ask hookd for decisions (managed hooks: hookd-emit --wait)' },
  { value: 'disconnect', label: 'Disconnect (remove hookd\u2019s entries)' },
];

/** Whether any of the project's settings files calls hookd (any agent's). */
export function isConnected(p: ProjectInfo): boolean {
  return p.connected.global || p.connected.project || p.connected.local || p.agents_connected.length > 0;
}

/**
 * The scope to preselect: the first connected one, else Global, the file
 * `hookd connect` edits by default too (your own file; a committed project
 * file is shared with everyone who clones the project).
 */
export function defaultScope(p: ProjectInfo, agent = 'claude'): Scope {
  if (agent !== 'claude') return 'global';
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
