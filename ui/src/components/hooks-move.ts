// "Move to…" in the Hook editor: a dialog to choose the file a hook goes
// to, then the review of both files as the move would write them (the
// backend renders them with the code the move writes with), and the move
// only on an explicit confirmation. Choosing a file, with the mouse or an
// arrow key, writes nothing.

import '../styles/connect.css';
import { lineDiff } from '../lib/diff';
import type { FileRef, HookRef, MovePreview, MoveResult, SavePreview } from '../lib/types';
import { renderDiff } from './hooks-diff';
import { modal, type Modal } from './modal';
import { h } from './dom';

/** A file the hook can go to. */
export interface MoveTarget {
  file: FileRef;
  label: string;
}

/** What the dialog needs from the screen. */
export interface MoveDialogOptions {
  /** The hook to move. */
  hook: HookRef;
  /** The label of the file it is in. */
  fromLabel: string;
  /** Where it can go. */
  targets: MoveTarget[];
  /** Both files before and after the move to `to`; writes nothing. */
  preview(to: FileRef): Promise<MovePreview>;
  /** Makes the move as `preview` showed it. */
  confirm(to: FileRef, preview: MovePreview): Promise<MoveResult>;
  /** After a move: the screen reloads and says what happened. */
  onMoved(result: MoveResult, to: MoveTarget): void;
  /** Gets the focus back when the dialog closes. */
  returnFocus: HTMLElement | null;
}

/** The text of an error for the dialog. */
function message(err: unknown): string {
  return err instanceof Error ? err.message : typeof err === 'object' && err !== null && 'message' in err ? String((err as { message: unknown }).message) : String(err);
}

/** One file of the review: its diff, or why it shows none. */
function fileDiff(side: 'from' | 'to', p: SavePreview): HTMLElement {
  const title = side === 'from' ? `Leaves ${p.path}` : p.creates ? `Goes into ${p.path} (a new file)` : `Goes into ${p.path}`;
  return h(
    'section',
    { class: 'hooks-move-file', data: { testid: `move-${side}`, path: p.path } },
    h('h3', { class: 'hooks-section-title', text: title }),
    p.changed ? renderDiff(lineDiff(p.before, p.after), p.path) : h('p', { class: 'muted', text: 'This file would not change.' }),
  );
}

/** Opens the dialog on `document.body`; nothing is written before "Move". */
export function openMoveDialog(opts: MoveDialogOptions): Modal {
  const { hook } = opts;
  let chosen: MoveTarget | null = null;
  let preview: MovePreview | null = null;
  let busy = false;

  const what = h('p', { class: 'hooks-move-what' }, h('code', { text: `${hook.event}${hook.matcher !== null ? ` [${hook.matcher}]` : ''}` }), ' ', h('code', { class: 'hooks-raw', text: hook.command }), ` — now in ${opts.fromLabel}`);
  const error = h('p', { id: 'hooks-move-error', class: 'field-error', attrs: { role: 'alert' } });
  const choices = h(
    'fieldset',
    { id: 'hooks-move-targets', class: 'hooks-move-targets' },
    h('legend', { class: 'field-label', text: 'Move it to' }),
    ...opts.targets.map((t, i) => {
      const radio = h('input', { id: `hooks-move-target-${i}`, data: { testid: 'move-target', kind: t.file.kind, scope: t.file.scope }, attrs: { type: 'radio', name: 'hooks-move-target', value: String(i) } });
      radio.addEventListener('change', () => {
        if (!radio.checked) return;
        chosen = t;
        review.disabled = busy;
      });
      return h('label', { class: 'hooks-move-target', attrs: { for: radio.id } }, radio, ` ${t.label}`);
    }),
  );
  const body = h('div', { class: 'hooks-move-body' });
  const cancel = h('button', { id: 'hooks-move-cancel', class: 'button', attrs: { type: 'button' }, text: 'Cancel', on: { click: () => shown.close() } });
  const back = h('button', { id: 'hooks-move-back', class: 'button', attrs: { type: 'button', hidden: true }, text: 'Back', on: { click: () => choose() } });
  const review = h('button', { id: 'hooks-move-review', class: 'button primary', attrs: { type: 'button', disabled: true }, text: 'Review move…', on: { click: () => void showReview() } });
  const confirm = h('button', { id: 'hooks-move-confirm', class: 'button primary', attrs: { type: 'button', hidden: true }, text: 'Move', on: { click: () => void doMove() } });
  const title = h('h2', { id: 'hooks-move-title', class: 'modal-title', text: 'Move this hook to another file' });
  const dialog = h(
    'div',
    { id: 'hooks-move-dialog', class: 'modal hooks-move-dialog', data: { step: 'choose' }, attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'hooks-move-title' } },
    title,
    what,
    body,
    error,
    h('div', { class: 'modal-actions' }, cancel, back, review, confirm),
  );
  const shown = modal(dialog, opts.returnFocus);

  function setBusy(on: boolean): void {
    busy = on;
    dialog.setAttribute('aria-busy', String(on));
    review.disabled = on || chosen === null;
    confirm.disabled = on || preview === null;
    back.disabled = on;
  }

  function choose(): void {
    preview = null;
    dialog.dataset.step = 'choose';
    title.textContent = 'Move this hook to another file';
    body.replaceChildren(choices, h('p', { class: 'muted', text: 'Next you see what both files would become; nothing is written until you press Move.' }));
    error.textContent = '';
    back.hidden = true;
    confirm.hidden = true;
    review.hidden = false;
    review.disabled = busy || chosen === null;
    (choices.querySelector<HTMLInputElement>('input:checked') ?? choices.querySelector<HTMLInputElement>('input'))?.focus();
  }

  async function showReview(): Promise<void> {
    const to = chosen;
    if (!to || busy) return;
    error.textContent = '';
    setBusy(true);
    try {
      const p = await opts.preview(to.file);
      if (shown.closed) return;
      preview = p;
      dialog.dataset.step = 'review';
      title.textContent = `Move to ${to.label}`;
      body.replaceChildren(
        h('p', { class: 'muted', text: `Review both files as the move would write them. Nothing is written until you press Move.` }),
        fileDiff('from', p.from),
        fileDiff('to', p.to),
      );
      review.hidden = true;
      back.hidden = false;
      confirm.hidden = false;
    } catch (err) {
      if (!shown.closed) error.textContent = `Cannot move it there: ${message(err)}`;
    } finally {
      if (!shown.closed) setBusy(false);
    }
    if (!confirm.hidden) confirm.focus();
  }

  async function doMove(): Promise<void> {
    const to = chosen;
    const p = preview;
    if (!to || !p || busy) return;
    error.textContent = '';
    setBusy(true);
    try {
      const result = await opts.confirm(to.file, p);
      shown.close();
      opts.onMoved(result, to);
    } catch (err) {
      if (shown.closed) return;
      error.textContent = `Nothing was moved: ${message(err)}`;
      setBusy(false);
    }
  }

  choose();
  document.body.append(shown.backdrop);
  choices.querySelector<HTMLInputElement>('input')?.focus();
  return shown;
}
