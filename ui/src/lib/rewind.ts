// Pure logic of the Revert actions: which reverts a timeline row offers,
// how a preview reads in words, and when it can be applied.
//
// What a revert does is decided by hookd-core (`rewind_preview` returns its
// plan, file by file); nothing here plans or merges. This only turns the
// plan's kinds into words and says which of the core's refusals the Apply
// button can see coming (a file not restorable, conflicts without a choice,
// markers where the core has none), so the user is told before pressing it.

import { firstLine } from './activity';
import type { ActivityEvent, MutationRow, RewindApplied, RewindConflicts, RewindFileKind, RewindPreview, RewindTarget } from './types';

/** The reverts a row offers. */
export type RevertAction = 'call' | 'prompt' | 'session' | 'agent' | 'version';

/** One revert a row offers: its button and the core's target. */
export interface RevertOffer {
  action: RevertAction;
  /** The button's text. */
  label: string;
  /** The button's tooltip. */
  title: string;
  /** What the dialog's preview asks the core to revert. */
  target: RewindTarget;
}

/** How many of something, with the noun in the right number. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/**
 * The reverts a row offers, in the order shown: its tool call, its
 * prompt, its session, its agent's every change and, when the timeline shows the
 * history of the row's file (`historyOf`), that file back to this row.
 */
export function revertOffers(row: MutationRow, historyOf: string | null = null): RevertOffer[] {
  const offers: RevertOffer[] = [];
  if (row.tool_use_id !== null) {
    offers.push({
      action: 'call',
      label: 'Revert this change',
      title: `Undo what this tool call changed${row.tool_name === 'Bash' ? ' (every file of the command)' : ''}, keeping every later change`,
      target: { kind: 'call', id: row.tool_use_id },
    });
  }
  if (row.session_id !== null) {
    offers.push({
      action: 'prompt',
      label: 'Revert this prompt',
      title: 'Undo every change made while answering the prompt this change belongs to, keeping every later change',
      target: { kind: 'prompt_of', event_id: row.event_id },
    });
    offers.push({
      action: 'session',
      label: 'Revert this session',
      title: `Undo every change of session ${row.session_id}, keeping every later change`,
      target: { kind: 'session', id: row.session_id },
    });
  }
  offers.push({
    action: 'agent',
    label: 'Revert all of this agent\u2019s changes',
    title: `Undo every change ${row.agent_id} made in this repository, keeping everyone else\u2019s`,
    target: { kind: 'agent', id: row.agent_id },
  });
  if (row.file_path !== null && historyOf !== null && historyOf === row.file_path) {
    offers.push({
      action: 'version',
      label: 'Restore this version',
      title: `Put ${row.file_path} back as this change left it (every later change to it is reverted)`,
      target: { kind: 'file', path: row.file_path, after_id: row.id },
    });
  }
  return offers;
}

/**
 * The revert a prompt row of the activity list offers (a UserPromptSubmit
 * event): the core resolves the event's id as the prompt's id.
 */
export function promptRevertOffer(ev: ActivityEvent): RevertOffer {
  return {
    action: 'prompt',
    label: 'Revert this prompt',
    title: 'Undo every change made while answering this prompt, keeping every later change',
    target: { kind: 'prompt', id: ev.event_id },
  };
}

/** The dialog's title for reverting the prompt `text` (its first line). */
export function promptRevertTitle(text: string | null): string {
  return text === null || text.trim() === '' ? 'Revert this prompt' : `Revert prompt \u201c${firstLine(text, 60)}\u201d`;
}

/** The dialog's title for a revert. */
export function revertTitle(action: RevertAction | 'undo', row?: MutationRow): string {
  switch (action) {
    case 'call':
      return `Revert ${row ? `${row.tool_name} of ${row.file_path ?? row.command ?? 'this change'}` : 'this change'}`;
    case 'prompt':
      return 'Revert the prompt of this change';
    case 'session':
      return `Revert session ${row?.session_id ?? ''}`.trimEnd();
    case 'agent':
      return `Revert all changes of ${row?.agent_id ?? 'this agent'}`;
    case 'version':
      return `Restore ${row?.file_path ?? 'this file'} to this version`;
    case 'undo':
      return 'Undo revert';
  }
}

/** A file's kind as the list says it, with the mark `hookd rewind` prints. */
export const KIND_TEXT: Record<RewindFileKind, { mark: string; text: string }> = {
  modify: { mark: 'M', text: 'modified' },
  create: { mark: 'A', text: 'created again (the reverted changes deleted it)' },
  delete: { mark: 'D', text: 'deleted (the reverted changes created it)' },
  unchanged: { mark: '=', text: 'already as the revert would leave it' },
  conflict: { mark: '!', text: 'conflict' },
  not_restorable: { mark: '?', text: 'cannot be restored' },
};

/** Files of each kind in a preview. */
export function countKinds(preview: RewindPreview): Record<RewindFileKind, number> {
  const counts: Record<RewindFileKind, number> = { modify: 0, create: 0, delete: 0, unchanged: 0, conflict: 0, not_restorable: 0 };
  for (const f of preview.files) counts[f.kind]++;
  return counts;
}

/** One sentence: how many changes in how many files, and what happens to them. */
export function previewSummary(preview: RewindPreview): string {
  const c = countKinds(preview);
  const parts: string[] = [];
  if (c.modify) parts.push(`${plural(c.modify, 'file')} modified`);
  if (c.create) parts.push(`${plural(c.create, 'file')} created again`);
  if (c.delete) parts.push(`${plural(c.delete, 'file')} deleted`);
  if (c.unchanged) parts.push(`${plural(c.unchanged, 'file')} already as it would be`);
  if (c.conflict) parts.push(`${plural(c.conflict, 'conflict')}`);
  if (c.not_restorable) parts.push(`${plural(c.not_restorable, 'file')} not restorable`);
  const what = preview.undo_of !== null ? 'Undoes the revert\u2019s' : 'Reverts';
  return `${what} ${plural(preview.changes, 'recorded change')} in ${plural(preview.files.length, 'file')}: ${parts.join(', ')}.`;
}

/** Whether Apply can be pressed, why not, and the choice it sends. */
export interface ApplyState {
  enabled: boolean;
  /** Why Apply is disabled; null when it is enabled. */
  reason: string | null;
  /** What `rewind_apply` is sent. */
  conflicts: RewindConflicts;
}

/**
 * Apply's state for `preview` with the user's conflicts `choice` (null:
 * none made). The core would refuse a file that is not restorable, and a
 * conflict without `skip` or (where it has them) `markers`; nothing to
 * write is nothing to apply.
 */
export function applyState(preview: RewindPreview, choice: RewindConflicts | null): ApplyState {
  const c = countKinds(preview);
  const off = (reason: string): ApplyState => ({ enabled: false, reason, conflicts: choice ?? 'refuse' });
  if (c.not_restorable > 0) {
    return off(`${plural(c.not_restorable, 'file')} cannot be restored (see why in the list), so nothing can be reverted: a revert is all or nothing.`);
  }
  if (c.modify + c.create + c.delete + c.conflict === 0) return off('Nothing to revert: every file already is as the revert would leave it.');
  if (c.conflict > 0) {
    if (choice === null || choice === 'refuse') return off(`Choose what to do with the ${plural(c.conflict, 'conflicting file')}.`);
    if (choice === 'markers') {
      const without = preview.files.filter((f) => f.kind === 'conflict' && !f.markers).length;
      if (without > 0) return off(`${plural(without, 'conflicting file')} cannot be written with conflict markers; leave them as they are instead.`);
    }
    return { enabled: true, reason: null, conflicts: choice };
  }
  return { enabled: true, reason: null, conflicts: 'refuse' };
}

/** What an applied revert did, in one sentence. */
export function appliedSummary(applied: RewindApplied, undo = false): string {
  const parts: string[] = [];
  if (applied.written.length) parts.push(`${plural(applied.written.length, 'file')} written`);
  if (applied.deleted.length) parts.push(`${plural(applied.deleted.length, 'file')} deleted`);
  if (applied.marked.length) parts.push(`${plural(applied.marked.length, 'file')} with conflict markers to resolve`);
  if (applied.skipped.length) parts.push(`${plural(applied.skipped.length, 'conflicting file')} left as ${applied.skipped.length === 1 ? 'it was' : 'they were'}`);
  return `${undo ? 'Revert undone' : 'Reverted'}: ${parts.length ? parts.join(', ') : 'nothing to write'}.`;
}
