// One modal dialog's wiring, shared by every dialog of the app (connect,
// rename an agent, revert): a backdrop that closes it on a click outside,
// Escape to close, Tab kept inside, the page around it inert, and the focus
// given back on close.
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
  // Everything outside the dialog is inert while it is open (aria-modal says
  // so; inert makes it true): no focus, no clicks, nothing read out or checked
  // behind it. The caller appends the backdrop right after this returns, so
  // the page around it is known a microtask later.
  const inerted: Element[] = [];
  queueMicrotask(() => {
    if (closed || !backdrop.isConnected) return;
    for (let node: Element = backdrop; node.parentElement && node !== document.body; node = node.parentElement) {
      for (const sibling of node.parentElement.children) {
        if (sibling !== node && !sibling.hasAttribute('inert')) {
          sibling.setAttribute('inert', '');
          inerted.push(sibling);
        }
      }
    }
  });
  function close(): void {
    if (closed) return;
    closed = true;
    for (const el of inerted) el.removeAttribute('inert');
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
