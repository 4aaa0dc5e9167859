// The dismissible banner that shows a failed command's `{kind, message}`.
// One banner for the whole window: a newer error replaces the shown one, and a
// counter says when several arrived, so a burst of failures cannot stack up.

import { normalizeError } from '../lib/api';
import type { ApiError } from '../lib/types';
import { h } from './dom';

export interface ErrorBanner {
  el: HTMLElement;
  /** Shows an error (anything a rejected promise carried). */
  show(err: unknown, context?: string): void;
  /** Hides the banner. */
  clear(): void;
  /** The error shown, if any. */
  current(): ApiError | null;
}

export function createErrorBanner(): ErrorBanner {
  let shown: ApiError | null = null;
  let count = 0;
  const kind = h('span', { class: 'error-kind', data: { testid: 'error-kind' } });
  const message = h('span', { id: 'error-banner-message', class: 'error-message' });
  const repeat = h('span', { class: 'error-count', attrs: { hidden: true } });
  const dismiss = h('button', {
    id: 'error-banner-dismiss',
    class: 'icon-button',
    attrs: { type: 'button', 'aria-label': 'Dismiss error', title: 'Dismiss (Esc)' },
    text: '×',
    on: { click: () => clear() },
  });
  const el = h(
    'div',
    { id: 'error-banner', class: 'error-banner', attrs: { role: 'alert', hidden: true } },
    h('span', { class: 'error-icon', attrs: { 'aria-hidden': 'true' }, text: '!' }),
    h('div', { class: 'error-text' }, kind, message, repeat),
    dismiss,
  );
  el.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') clear();
  });

  function show(err: unknown, context?: string): void {
    const e = normalizeError(err);
    shown = e;
    count++;
    el.dataset.kind = e.kind;
    kind.textContent = e.kind;
    message.textContent = context ? `${context}: ${e.message}` : e.message;
    repeat.textContent = `(${count} errors)`;
    repeat.hidden = count < 2;
    el.hidden = false;
  }

  function clear(): void {
    shown = null;
    count = 0;
    el.hidden = true;
    delete el.dataset.kind;
  }

  return { el, show, clear, current: () => shown };
}
