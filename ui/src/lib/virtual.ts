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

/**
 * Tallest scroll area the list makes, px. Browsers cap an element's height
 * (WebKit at 2^25 px: 1.2 million rows of 28 px), so a longer list scrolls a
 * shorter area and maps it onto its rows (`ScrollMap`); below this the two
 * are the same.
 */
export const MAX_SCROLL_HEIGHT = 1 << 24;

/**
 * Maps the scroll area's real offset (`scrollTop`) to the offset into the
 * rows (`offset`, row i at i * rowHeight) and back: the same below
 * `MAX_SCROLL_HEIGHT`; above it, scaled so that the top of the area is the
 * first row and the bottom the last.
 */
export interface ScrollMap {
  /** Height of the rows together, px. */
  content: number;
  /** Height of the scroll area (the spacer), px. */
  area: number;
  /** Row offsets per scroll px (1 when not scaled). */
  scale: number;
}

/** The map for `total` rows of `rowHeight` px in a viewport of `viewport` px. */
export function scrollMap(total: number, rowHeight: number, viewport: number, max = MAX_SCROLL_HEIGHT): ScrollMap {
  const content = Math.max(0, total) * Math.max(1, rowHeight);
  const area = Math.min(content, max);
  const scrollable = area - viewport;
  const scale = content > max && scrollable > 0 ? (content - viewport) / scrollable : 1;
  return { content, area, scale };
}

/** The offset into the rows shown at the real `scrollTop`. */
export function offsetAt(map: ScrollMap, scrollTop: number): number {
  return scrollTop * map.scale;
}

/** The real `scrollTop` that shows the rows from `offset`. */
export function scrollTopFor(map: ScrollMap, offset: number): number {
  return Math.round(offset / map.scale);
}
