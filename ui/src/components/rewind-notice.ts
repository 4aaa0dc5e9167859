// The notice a Timeline shows after a revert is applied: what it wrote, the
// id it is recorded under, and "Undo revert", which opens the Revert dialog
// on the undo's preview (an undo is previewed like any revert, never
// written blind). One notice per screen: a newer revert replaces it.

import '../styles/rewind.css';
import { appliedSummary } from '../lib/rewind';
import type { RewindApplied } from '../lib/types';
import { h } from './dom';

export interface RewindNotice {
  el: HTMLElement;
  /** Shows what `applied` did; `onUndo` opens the undo's preview. */
  show(applied: RewindApplied, undo: boolean, onUndo: (opener: HTMLElement) => void): void;
  hide(): void;
}

export function createRewindNotice(): RewindNotice {
  const text = h('span', { id: 'rewind-notice-text', class: 'rewind-notice-text' });
  const id = h('span', { class: 'muted mono rewind-notice-id' });
  const undoButton = h('button', { id: 'rewind-notice-undo', class: 'button small', attrs: { type: 'button' }, text: 'Undo revert' });
  const dismiss = h('button', {
    id: 'rewind-notice-dismiss',
    class: 'icon-button',
    attrs: { type: 'button', 'aria-label': 'Dismiss', title: 'Dismiss' },
    text: '\u00d7',
    on: { click: () => hide() },
  });
  const el = h('div', { id: 'rewind-notice', class: 'rewind-notice', attrs: { role: 'status', hidden: true } }, text, id, undoButton, dismiss);
  let undoHandler: ((opener: HTMLElement) => void) | null = null;
  undoButton.addEventListener('click', () => undoHandler?.(undoButton));

  function show(applied: RewindApplied, undo: boolean, onUndo: (opener: HTMLElement) => void): void {
    undoHandler = onUndo;
    el.dataset.rewindId = applied.rewind_id;
    text.textContent = appliedSummary(applied, undo);
    id.textContent = `recorded as ${applied.rewind_id}`;
    id.title = `hookd rewind --undo ${applied.rewind_id} does the same as Undo revert`;
    undoButton.textContent = undo ? 'Undo this too' : 'Undo revert';
    el.hidden = false;
  }

  function hide(): void {
    el.hidden = true;
    undoHandler = null;
    delete el.dataset.rewindId;
  }

  return { el, show, hide };
}
