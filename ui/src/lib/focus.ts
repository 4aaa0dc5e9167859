// Keeping the keyboard focus where the user left it while part of a screen
// is drawn again (live rows, a refreshed list, an event that gained hook
// runs): the element holding focus may be replaced by an equivalent new
// one, and focus would otherwise fall back to the page's body.

/** Elements the keyboard can reach. */
const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

/** Says which element holds focus, as a key the redrawn content can be asked for. */
export interface FocusKeys {
  /** The key of `el` (inside the container), or null to fall back to its position. */
  key(el: HTMLElement): string | null;
  /** The element with `key` in the redrawn container, if any. */
  find(container: HTMLElement, key: string): HTMLElement | null;
}

/**
 * Runs `redraw` (which replaces some of `container`'s content) and, when
 * focus was inside `container` and its element was replaced, puts focus on
 * its counterpart: the element with the same id, else the same key
 * (`keys`), else the focusable element at the same position. The scroll
 * offset is left alone (`preventScroll`), and a text field's selection is
 * carried over.
 */
export function keepFocus<T>(container: HTMLElement, redraw: () => T, keys?: FocusKeys): T {
  const active = container.ownerDocument.activeElement;
  if (!(active instanceof HTMLElement) || active === container || !container.contains(active)) return redraw();
  const id = active.id;
  const key = keys?.key(active) ?? null;
  const position = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].indexOf(active);
  const selection = textSelection(active);
  const result = redraw();
  if (active.isConnected && container.contains(active)) {
    // Kept in place: only put focus back if the redraw moved it away.
    if (container.ownerDocument.activeElement !== active) active.focus({ preventScroll: true });
    return result;
  }
  const byId = id !== '' ? container.ownerDocument.getElementById(id) : null;
  const next =
    (byId && container.contains(byId) ? byId : null) ??
    (key !== null && keys ? keys.find(container, key) : null) ??
    (position >= 0 ? (container.querySelectorAll<HTMLElement>(FOCUSABLE)[position] ?? null) : null);
  if (next) {
    next.focus({ preventScroll: true });
    if (selection && (next instanceof HTMLInputElement || next instanceof HTMLTextAreaElement)) {
      try {
        next.setSelectionRange(selection[0], selection[1]);
      } catch {
        // Not a text field kind that has a selection.
      }
    }
  }
  return result;
}

function textSelection(el: HTMLElement): [number, number] | null {
  if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) return null;
  try {
    return el.selectionStart === null || el.selectionEnd === null ? null : [el.selectionStart, el.selectionEnd];
  } catch {
    return null;
  }
}

/** Elements Tab can move to inside a dialog: enabled controls and links. */
const TABBABLE =
  'button:not([disabled]), select:not([disabled]), [href], input:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab and Shift+Tab inside a modal `dialog` (call it from the
 * dialog's keydown handler): past the last control focus goes to the
 * first, before the first to the last, and from outside the dialog back in.
 */
export function trapTab(dialog: HTMLElement, ev: KeyboardEvent): void {
  if (ev.key !== 'Tab') return;
  const items = [...dialog.querySelectorAll<HTMLElement>(TABBABLE)].filter((x) => !x.hidden);
  if (items.length === 0) return;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const active = dialog.ownerDocument.activeElement;
  if (ev.shiftKey && (active === first || !dialog.contains(active))) {
    ev.preventDefault();
    last.focus();
  } else if (!ev.shiftKey && (active === last || !dialog.contains(active))) {
    ev.preventDefault();
    first.focus();
  }
}
