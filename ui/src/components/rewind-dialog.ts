// The Revert dialog: what a revert (or the undo of one) would do, file by
// file, before anything is written, and the Apply that writes exactly that.
//
// The plan is hookd-core's (`rewind_preview`, `rewind_undo`): each file's
// kind, the line diff from the file now to what it becomes, conflicts and
// files that cannot be restored with why. Apply sends the preview's id, so
// the backend carries out the plan shown here; a file changed meanwhile
// comes back as a `conflict`, and the dialog then shows the plan as it is
// now instead of writing. A modal like the Connect dialog: focus stays
// inside, Esc or Cancel closes it and focus goes back to its opener.

import '../styles/connect.css';
import '../styles/rewind.css';
import { api, normalizeError } from '../lib/api';
import { foldDiff } from '../lib/connect';
import { applyState, countKinds, KIND_TEXT, plural, previewSummary } from '../lib/rewind';
import type { ApiError, RewindApplied, RewindConflicts, RewindFilePreview, RewindPreview, RewindTarget } from '../lib/types';
import { diffLine, statSpans } from './change-view';
import { h } from './dom';
import { modal } from './modal';

/** What the dialog previews: a revert of a target, or the undo of a revert. */
export type RewindRequest = { kind: 'revert'; target: RewindTarget } | { kind: 'undo'; rewind: string | null };

export interface RewindDialogOptions {
  /** A directory inside the repository (the row's project). */
  repo: string;
  request: RewindRequest;
  /** The dialog's heading. */
  title: string;
  /** After a successful apply (the dialog has closed). */
  onApplied(applied: RewindApplied, undo: boolean): void;
  /** Where focus goes back to when the dialog closes. */
  returnFocus?: HTMLElement | null;
}

export interface RewindDialog {
  el: HTMLElement;
  close(): void;
}

/** Lines of one file's diff shown before "Show all". */
const MAX_LINES = 400;

/** A file's diff from now to after the revert, unchanged runs folded. */
export function renderRewindDiff(file: RewindFilePreview, caption: string): HTMLElement {
  const body = h('div', { class: 'diff-body', attrs: { tabindex: 0, role: 'region', 'aria-label': `Lines of ${file.path}: ${caption}` } });
  const folded = foldDiff(file.diff);
  const paint = (upTo: number): void => {
    body.replaceChildren();
    for (const line of folded.slice(0, upTo)) {
      if (line.op === 'gap') {
        body.append(h('div', { class: 'diff-line diff-gap', data: { op: 'gap' }, text: `\u22ef ${plural(line.count, 'unchanged line')}` }));
        continue;
      }
      body.append(diffLine(line));
    }
    if (folded.length > upTo) {
      body.append(h('button', { class: 'link-button diff-more', attrs: { type: 'button' }, text: `Show all ${folded.length} lines`, on: { click: () => paint(folded.length) } }));
    }
    if (folded.length === 0) body.append(h('div', { class: 'diff-line diff-gap', text: '(empty file)' }));
  };
  paint(MAX_LINES);
  return h(
    'figure',
    { class: 'diff rewind-diff', data: { testid: 'rewind-diff', added: String(file.counts.added), removed: String(file.counts.removed) }, attrs: { 'aria-label': `${caption}: ${file.path}` } },
    h('figcaption', { class: 'diff-caption' }, h('span', { text: caption }), statSpans(file.counts)),
    body,
  );
}

/** One file of the preview: its kind, why, notes and diff. */
export function renderRewindFile(file: RewindFilePreview): HTMLElement {
  const kind = KIND_TEXT[file.kind];
  const section = h(
    'section',
    { class: `rewind-file rewind-${file.kind}`, data: { testid: 'rewind-file', kind: file.kind, path: file.path } },
    h(
      'header',
      { class: 'rewind-file-header' },
      h('span', { class: 'rewind-mark', attrs: { 'aria-hidden': 'true' }, text: kind.mark }),
      h('span', { class: 'mono rewind-path', text: file.path }),
      h('span', { class: 'rewind-kind', data: { testid: 'rewind-kind' }, text: kind.text }),
      h('span', { class: 'muted rewind-changes', text: plural(file.changes, 'change') }),
    ),
  );
  if (file.why !== null) {
    const lead = file.kind === 'not_restorable' ? 'Cannot be restored: ' : 'Conflict: ';
    section.append(h('p', { class: 'rewind-why', data: { testid: 'rewind-why' }, text: `${lead}${file.why}.` }));
  }
  if (file.kind === 'conflict') {
    section.append(
      h('p', {
        class: 'muted rewind-note',
        text: file.markers
          ? 'Leave the file as it is, or write it with conflict markers (as shown below) to resolve by hand.'
          : 'This file cannot be written with conflict markers; it can only be left as it is.',
      }),
    );
  }
  for (const how of file.derived) {
    section.append(h('p', { class: 'muted rewind-note', data: { testid: 'rewind-derived' }, text: `Derived, not seen: ${how}.` }));
  }
  if (file.binary) {
    section.append(h('p', { class: 'muted rewind-note', text: 'Not text: no line diff is shown.' }));
  } else if (file.kind === 'modify' || file.kind === 'create') {
    section.append(renderRewindDiff(file, file.kind === 'create' ? 'the file as it is restored' : 'now \u2192 after the revert'));
  } else if (file.kind === 'conflict' && file.markers) {
    section.append(renderRewindDiff(file, 'now \u2192 with conflict markers'));
  }
  return section;
}

/** Opens the dialog (appended to `host`) and starts the preview. */
export function openRewindDialog(host: HTMLElement, opts: RewindDialogOptions): RewindDialog {
  const undo = opts.request.kind === 'undo';
  let preview: RewindPreview | null = null;
  let choice: RewindConflicts | null = null;
  let seq = 0;
  let busy = false;

  const summary = h('p', { id: 'rewind-summary', class: 'connect-summary', attrs: { 'aria-live': 'polite' }, text: 'Working out the revert\u2026' });
  const error = h('div', { id: 'rewind-error', class: 'connect-conflict rewind-error', attrs: { hidden: true, role: 'alert' } });
  const choices = h('fieldset', { id: 'rewind-conflicts', class: 'rewind-conflicts', attrs: { hidden: true } });
  const files = h('div', { id: 'rewind-files', class: 'rewind-files', attrs: { 'aria-busy': 'true' } });
  const reason = h('p', { id: 'rewind-apply-reason', class: 'muted rewind-reason', attrs: { hidden: true } });
  const cancel = h('button', { id: 'rewind-cancel', class: 'button', attrs: { type: 'button' }, text: 'Cancel', on: { click: () => close() } });
  const apply = h('button', {
    id: 'rewind-apply',
    class: 'button primary',
    attrs: { type: 'button', disabled: true, 'aria-describedby': 'rewind-apply-reason' },
    text: undo ? 'Undo revert' : 'Apply',
    on: { click: () => void doApply() },
  });

  const dialog = h(
    'div',
    {
      id: 'rewind-dialog',
      class: 'modal rewind-dialog',
      attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'rewind-title', 'aria-describedby': 'rewind-intro' },
      data: { repo: opts.repo, state: 'loading' },
    },
    h('h2', { id: 'rewind-title', class: 'modal-title', text: opts.title }),
    h(
      'p',
      { id: 'rewind-intro', class: 'muted' },
      undo
        ? 'Puts back exactly what the revert replaced, if nothing changed those files since. '
        : 'Each recorded change is undone as a three-way merge against the file as it is now, so later changes (the agent\u2019s, another agent\u2019s, yours) are kept. ',
      'Nothing is written until you press ',
      h('strong', { text: undo ? 'Undo revert' : 'Apply' }),
      '; the revert is recorded and can be undone, as with ',
      h('code', { text: 'hookd rewind' }),
      '.',
    ),
    summary,
    error,
    choices,
    files,
    h('div', { class: 'modal-actions' }, reason, cancel, apply),
  );
  const shown = modal(dialog, opts.returnFocus);
  const backdrop = shown.backdrop;

  function showError(err: ApiError, lead: string): void {
    error.replaceChildren(h('span', { class: 'error-kind', text: err.kind }), ' ', `${lead}: ${err.message}`);
    error.hidden = false;
  }

  function renderChoices(p: RewindPreview): void {
    const conflicts = countKinds(p).conflict;
    choices.hidden = conflicts === 0;
    if (conflicts === 0) {
      choices.replaceChildren();
      return;
    }
    const anyMarkers = p.files.some((f) => f.kind === 'conflict' && f.markers);
    const option = (value: RewindConflicts, label: string, disabled: boolean): HTMLElement => {
      const input = h('input', { id: `rewind-conflicts-${value}`, attrs: { type: 'radio', name: 'rewind-conflicts', value, disabled } });
      input.checked = choice === value;
      input.addEventListener('change', () => {
        choice = value;
        refreshApply();
      });
      return h('label', { class: 'rewind-choice', attrs: { for: input.id } }, input, ' ', label);
    };
    choices.replaceChildren(
      h('legend', { class: 'rewind-legend', text: `${plural(conflicts, 'file')} conflict${conflicts === 1 ? 's' : ''} with later changes. What should Apply do with ${conflicts === 1 ? 'it' : 'them'}?` }),
      option('skip', `Leave ${conflicts === 1 ? 'it' : 'them'} as ${conflicts === 1 ? 'it is' : 'they are'} and revert the other files`, false),
      option('markers', `Write ${conflicts === 1 ? 'it' : 'them'} with conflict markers, to resolve by hand`, !anyMarkers),
    );
  }

  function refreshApply(): void {
    if (!preview) {
      apply.disabled = true;
      reason.hidden = true;
      return;
    }
    const state = applyState(preview, choice);
    apply.disabled = !state.enabled || busy;
    reason.hidden = state.reason === null;
    reason.textContent = state.reason ?? '';
    dialog.dataset.applicable = String(state.enabled);
  }

  async function load(keepError = false): Promise<void> {
    const mine = ++seq;
    if (!keepError) error.hidden = true;
    preview = null;
    refreshApply();
    files.setAttribute('aria-busy', 'true');
    dialog.dataset.state = 'loading';
    summary.textContent = 'Working out the revert\u2026';
    try {
      const request = opts.request;
      const next =
        request.kind === 'undo'
          ? await api.rewind_undo({ repo: opts.repo, rewind: request.rewind })
          : await api.rewind_preview({ repo: opts.repo, target: request.target });
      if (shown.closed || mine !== seq) return;
      preview = next;
      dialog.dataset.state = 'ready';
      dialog.dataset.preview = next.preview;
      summary.textContent = previewSummary(next);
      renderChoices(next);
      files.replaceChildren(...next.files.map(renderRewindFile));
      refreshApply();
    } catch (err) {
      if (shown.closed || mine !== seq) return;
      dialog.dataset.state = 'error';
      summary.textContent = undo ? 'The revert cannot be undone.' : 'Nothing can be reverted.';
      showError(normalizeError(err), 'Could not prepare the preview');
      files.replaceChildren();
      choices.hidden = true;
    } finally {
      if (!shown.closed && mine === seq) files.setAttribute('aria-busy', 'false');
    }
  }

  async function doApply(): Promise<void> {
    if (!preview || busy) return;
    const state = applyState(preview, choice);
    if (!state.enabled) return;
    busy = true;
    apply.disabled = true;
    dialog.dataset.state = 'applying';
    try {
      const applied = await api.rewind_apply({ preview: preview.preview, conflicts: state.conflicts });
      if (shown.closed) return;
      close();
      opts.onApplied(applied, undo);
    } catch (err) {
      if (shown.closed) return;
      const e = normalizeError(err);
      busy = false;
      if (e.kind === 'conflict') {
        // Nothing was written; the plan as it is now replaces the stale one.
        showError(e, 'Nothing was written');
        choice = null;
        await load(true);
        return;
      }
      dialog.dataset.state = 'ready';
      showError(e, 'Nothing was written');
      refreshApply();
    } finally {
      busy = false;
    }
  }

  function close(): void {
    shown.close();
  }

  host.append(backdrop);
  cancel.focus();
  void load();
  return { el: backdrop, close };
}
