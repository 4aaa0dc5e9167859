// One modal dialog's wiring, shared by every dialog of the app (connect,
// rename an agent, revert): a backdrop that closes it on a click outside,
// Escape to close, Tab kept inside, and the focus given back on close.
// Each dialog used to carry its own copy of this.

import { trapTab } from '../lib/focus';
import { h } from './dom';

/** A dialog shown as a modal. */
export interface Modal {
  /** The backdrop holding the dialog: append it to show the modal. */
  readonly backdrop: HTMLElement;
  /** Whether it was closed. */
  readonly closed: boolean;
  /** Removes it and gives the focus back to `returnFocus`; only the first call does anything. */
  close(): void;
}

/**
 * Wraps `dialog` in a modal backdrop and listens for Escape and Tab until
 * it is closed. `returnFocus` gets the focus back on close, when it is
 * still in the document.
 */
export function modal(dialog: HTMLElement, returnFocus?: HTMLElement | null): Modal {
  let closed = false;
  const onKey = (ev: KeyboardEvent): void => {
    if (ev.key === 'Escape') {
      ev.preventDefault();
      ev.stopPropagation();
      close();
      return;
    }
    trapTab(dialog, ev);
  };
  const backdrop = h('div', { class: 'modal-backdrop', on: { mousedown: (ev) => ev.target === backdrop && close() } }, dialog);
  function close(): void {
    if (closed) return;
    closed = true;
    backdrop.remove();
    document.removeEventListener('keydown', onKey, true);
    if (returnFocus?.isConnected) returnFocus.focus({ preventScroll: true });
  }
  document.addEventListener('keydown', onKey, true);
  return {
    backdrop,
    get closed() {
      return closed;
    },
    close,
  };
}
