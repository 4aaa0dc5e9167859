// Window math for the virtualised list: which rows exist in the DOM for a
// scroll position. Pure functions, so they are unit-tested without a DOM.
//
// Rows have a fixed height, so row i sits at i * rowHeight and the visible
// range is a division away; the DOM holds only that range plus `overscan`
// rows on each side, whatever the total.

export interface WindowInput {
  /** Scroll offset of the container, px. */
  scrollTop: number;
  /** Height of the container's visible area, px. */
  viewportHeight: number;
  /** Fixed height of one row, px (> 0). */
  rowHeight: number;
  /** Number of rows in the list. */
  total: number;
  /** Extra rows rendered above and below the visible ones. */
  overscan: number;
}

export interface RowWindow {
  /** First rendered row (inclusive). */
  start: number;
  /** End of the rendered rows (exclusive); `start === end` when there is none. */
  end: number;
  /** Height of the whole list, px (the spacer's height). */
  totalHeight: number;
}

/** The rows to render for a scroll position. */
export function computeWindow(input: WindowInput): RowWindow {
  const rowHeight = Math.max(1, input.rowHeight);
  const total = Math.max(0, Math.floor(input.total));
  const overscan = Math.max(0, Math.floor(input.overscan));
  const totalHeight = total * rowHeight;
  const viewport = Math.max(0, input.viewportHeight);
  // Clamp: the browser can report an offset past the end while shrinking.
  const maxScroll = Math.max(0, totalHeight - viewport);
  const scrollTop = Math.min(Math.max(0, input.scrollTop), maxScroll);
  const firstVisible = Math.floor(scrollTop / rowHeight);
  const lastVisible = Math.ceil((scrollTop + viewport) / rowHeight); // exclusive
  const start = Math.max(0, firstVisible - overscan);
  const end = Math.min(total, lastVisible + overscan);
  return { start, end: Math.max(start, end), totalHeight };
}

/** Upper bound of rendered rows for a viewport, whatever the scroll position. */
export function maxRenderedRows(viewportHeight: number, rowHeight: number, overscan: number): number {
  return Math.ceil(viewportHeight / Math.max(1, rowHeight)) + 1 + 2 * overscan;
}

/** Whether the list is scrolled to the end (within `slack` px), i.e. following. */
export function isAtBottom(scrollTop: number, viewportHeight: number, scrollHeight: number, slack = 4): boolean {
  return scrollTop + viewportHeight >= scrollHeight - slack;
}

/** The scroll offset that brings row `index` fully into view, or the current one if it is. */
export function scrollToReveal(
  index: number,
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
): number {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return scrollTop;
}
