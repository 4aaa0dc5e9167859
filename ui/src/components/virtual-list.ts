// A virtualised list with fixed-height rows.
//
// The scroll container holds a spacer as tall as all rows together; only the
// rows in view (plus an overscan) exist, absolutely positioned inside it.
// Row elements are recycled from a pool, so the DOM size stays constant
// whether the list has 10 rows or 100,000, and scrolling by one row rewrites
// one row instead of the whole window.
//
// The items need not all be there: `setSource` gives a length and a lookup,
// and a position whose item is not loaded yet is painted as a placeholder
// (`renderPlaceholder`); `onRange` tells the owner which positions are on
// screen, so it can load them.
//
// A list taller than a browser lets an element be (WebKit: 2^25 px, 1.2
// million rows) scrolls an area of at most `MAX_SCROLL_HEIGHT` px mapped onto
// its rows (`lib/virtual.ts`, `ScrollMap`): `scrollOffset` is the offset into
// the rows, and the rows on screen are placed relative to the real scroll
// position. The wheel then moves the rows by its own distance (not the
// scaled one), and the scroll thumb spans the whole list.
//
// Layout is read only when it may have changed: the viewport's height when
// the ResizeObserver says it did, the scroll position after a scroll event
// (or right after setting it). Reading either forces the browser to lay the
// page out there and then; a list that read them on every render made a
// burst of live rows lay the page out several times per update (the
// timeline's frames during a burst, issue 16).
//
// Keyboard: the container is the single tab stop (role=listbox). Arrow keys,
// Page Up/Down and Home/End move the active row (aria-activedescendant) and
// keep it in view; Enter or Space activates it, as a click does.

import {
  computeWindow,
  isAtBottom,
  maxRenderedRows,
  offsetAt,
  scrollMap,
  scrollToReveal,
  scrollTopFor,
  type ScrollMap,
} from '../lib/virtual';
import { timed } from '../lib/perf';
import { h } from './dom';

export interface VirtualListOptions<T> {
  /** id of the scroll container. */
  id: string;
  /** Accessible name of the list. */
  label: string;
  /** Fixed row height, px; must match the CSS. */
  rowHeight: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan?: number;
  /** Fills a pooled row element for an item (called only when the row's item or state changed). */
  renderRow(el: HTMLElement, item: T, index: number): void;
  /** Fills a pooled row element for a position whose item is not loaded. */
  renderPlaceholder?(el: HTMLElement, index: number): void;
  /** The positions rendered (viewport plus overscan), after each render. */
  onRange?(start: number, end: number): void;
  /** Enter, Space or click on a row. */
  onActivate?(index: number, item: T): void;
  /** Called when the list starts or stops being scrolled to the end. */
  onFollowChange?(following: boolean): void;
  /** Height assumed when the container has no layout yet (jsdom, hidden). */
  fallbackViewport?: number;
}

const ACTIVE_ID_SUFFIX = '-active-row';

export class VirtualList<T> {
  /** The scroll container (focusable, role=listbox). */
  readonly el: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly opts: Required<Pick<VirtualListOptions<T>, 'overscan' | 'fallbackViewport'>> & VirtualListOptions<T>;
  private count = 0;
  private item: (index: number) => T | undefined = () => undefined;
  /** Rendered rows by item index. */
  private readonly live = new Map<number, HTMLElement>();
  /** Pooled rows not in use (hidden). */
  private readonly free: HTMLElement[] = [];
  private active = -1;
  private selected = -1;
  /** Bumped to force every rendered row to be filled again. */
  private generation = 0;
  private frame = 0;
  private following = true;
  /** The offset into the rows (see `scrollOffset`). */
  private offset = 0;
  /** The real scroll position `offset` was last derived from or set to. */
  private syncedScrollTop = -1;
  /** A scroll event came since `syncedScrollTop` was read: read it again. */
  private scrolled = true;
  /** The viewport's height as last observed (0: not observed; read it). */
  private observedViewport = 0;
  private readonly resizeObserver: ResizeObserver | null = null;

  constructor(options: VirtualListOptions<T>) {
    this.opts = { overscan: 8, fallbackViewport: 600, ...options };
    this.spacer = h('div', { class: 'vlist-spacer' });
    this.el = h(
      'div',
      {
        id: options.id,
        class: 'vlist',
        attrs: { role: 'listbox', tabindex: 0, 'aria-label': options.label },
        on: {
          scroll: () => {
            this.scrolled = true;
            this.schedule();
          },
          wheel: (ev) => this.onWheel(ev),
          keydown: (ev) => this.onKey(ev),
          click: (ev) => this.onClick(ev),
        },
      },
      this.spacer,
    );
    if (typeof ResizeObserver !== 'undefined') {
      this.resizeObserver = new ResizeObserver(() => {
        // Laid out just now: reading it here costs nothing.
        this.observedViewport = this.el.clientHeight;
        this.schedule();
      });
      this.resizeObserver.observe(this.el);
    }
  }

  /**
   * How far the rows are scrolled, px (row i starts at i * rowHeight): the
   * scroll position, mapped when the list is taller than its scroll area.
   */
  get scrollOffset(): number {
    if (!this.scrolled) return this.offset;
    this.scrolled = false;
    const top = this.el.scrollTop;
    if (top !== this.syncedScrollTop) {
      // Scrolled by the user (or the browser clamped it): follow.
      this.offset = offsetAt(this.scrollMap(), top);
      this.syncedScrollTop = top;
    }
    return this.offset;
  }

  set scrollOffset(value: number) {
    const map = this.scrollMap();
    const offset = Math.min(Math.max(0, value), Math.max(0, map.content - this.viewport()));
    this.el.scrollTop = scrollTopFor(map, offset);
    // Setting it laid the page out: reading it back (clamped) costs nothing.
    this.syncedScrollTop = this.el.scrollTop;
    this.scrolled = false;
    // Unscaled, the offset is what the browser kept (it may clamp).
    this.offset = map.scale === 1 ? this.syncedScrollTop : offset;
  }

  /** Number of items. */
  get length(): number {
    return this.count;
  }

  /** Index of the active (keyboard cursor) row, -1 for none. */
  get activeIndex(): number {
    return this.active;
  }

  /** Number of row elements in the DOM (used and pooled). */
  get rowElementCount(): number {
    return this.live.size + this.free.length;
  }

  /**
   * Replaces the items. With `follow`, a list that was scrolled to the end
   * stays at the end (new rows scroll into view); otherwise the scroll
   * position is kept.
   */
  setItems(items: readonly T[], opts: { follow?: boolean; active?: number; selected?: number } = {}): void {
    this.setSource(items.length, (i) => items[i], opts);
  }

  /**
   * Like `setItems` for `count` items of which `item` gives those loaded
   * (undefined: a placeholder until it is).
   */
  setSource(count: number, item: (index: number) => T | undefined, opts: { follow?: boolean; active?: number; selected?: number } = {}): void {
    const wasAtBottom = this.atBottom();
    const offset = this.scrollOffset;
    // Fewer rows may clamp the scroll position: read it again then.
    if (count < this.count) this.scrolled = true;
    this.count = count;
    this.item = item;
    this.active = opts.active ?? Math.min(this.active, count - 1);
    this.selected = opts.selected ?? -1;
    this.generation++;
    this.spacer.style.height = `${this.scrollMap().area}px`;
    if (opts.follow && wasAtBottom) this.scrollToEnd();
    else {
      // The same rows stay on screen (a new length rescales a long list).
      this.scrollOffset = offset;
      this.render();
    }
  }

  /** The item at `index`, if loaded. */
  at(index: number): T | undefined {
    return index >= 0 && index < this.count ? this.item(index) : undefined;
  }

  /** Selected row, -1 for none. */
  get selectedIndex(): number {
    return this.selected;
  }

  /** Scrolls so that row `index` is at the top of the viewport. */
  scrollToIndex(index: number): void {
    this.scrollOffset = index * this.opts.rowHeight;
    this.render();
  }

  /** Re-fills the rendered rows (after their items' display state changed). */
  refresh(): void {
    this.generation++;
    this.render();
  }

  /** Marks a row as selected (aria-selected), -1 for none. */
  setSelected(index: number): void {
    this.selected = index;
    this.refresh();
  }

  /** Moves the keyboard cursor, scrolling it into view. */
  setActive(index: number, reveal = true): void {
    if (this.count === 0) {
      this.active = -1;
      this.refresh();
      return;
    }
    this.active = Math.max(0, Math.min(this.count - 1, index));
    if (reveal) {
      const now = this.scrollOffset;
      const top = scrollToReveal(this.active, now, this.viewport(), this.opts.rowHeight);
      if (top !== now) this.scrollOffset = top;
    }
    this.refresh();
  }

  /** Scrolls to the last row. */
  scrollToEnd(): void {
    this.scrollOffset = this.scrollMap().content - this.viewport();
    this.render();
  }

  /** Whether the list is scrolled to its end (so it follows new rows). */
  atBottom(): boolean {
    const total = this.scrollMap().content;
    return total <= this.viewport() || isAtBottom(this.scrollOffset, this.viewport(), total, 4);
  }

  /** Stops observing; the element can then be dropped. */
  destroy(): void {
    this.resizeObserver?.disconnect();
    if (this.frame) cancelAnimationFrameSafe(this.frame);
  }

  private viewport(): number {
    return this.observedViewport || this.el.clientHeight || this.opts.fallbackViewport;
  }

  private scrollMap(): ScrollMap {
    return scrollMap(this.count, this.opts.rowHeight, this.viewport());
  }

  /** A scaled list moves by the wheel's own distance, row for row. */
  private onWheel(ev: WheelEvent): void {
    if (ev.ctrlKey || ev.deltaY === 0 || this.scrollMap().scale === 1) return;
    ev.preventDefault();
    const unit = ev.deltaMode === 1 ? this.opts.rowHeight : ev.deltaMode === 2 ? this.viewport() : 1;
    this.scrollOffset = this.scrollOffset + ev.deltaY * unit;
    this.schedule();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrameSafe(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Renders the rows of the current window, reusing row elements. */
  render(): void {
    timed('list-render', () => this.renderWindow());
  }

  private renderWindow(): void {
    const { rowHeight, overscan } = this.opts;
    const viewport = this.viewport();
    const offset = this.scrollOffset;
    // Rows sit where the real scroll position shows them (the same as
    // i * rowHeight unless the list is scaled).
    const shift = this.syncedScrollTop - offset;
    const win = computeWindow({
      scrollTop: offset,
      viewportHeight: viewport,
      rowHeight,
      total: this.count,
      overscan,
    });
    for (const [index, el] of this.live) {
      if (index < win.start || index >= win.end) {
        this.live.delete(index);
        el.hidden = true;
        el.removeAttribute('id');
        this.free.push(el);
      }
    }
    // Never hold more rows than any window needs (a shrinking viewport).
    const cap = maxRenderedRows(viewport, rowHeight, overscan);
    while (this.free.length > 0 && this.live.size + this.free.length > cap) this.free.pop()?.remove();

    const gen = String(this.generation);
    const activeId = `${this.el.id}${ACTIVE_ID_SUFFIX}`;
    let activeRendered = false;
    for (let i = win.start; i < win.end; i++) {
      let el = this.live.get(i);
      if (!el) {
        el = this.free.pop() ?? this.createRow();
        el.hidden = false;
        this.live.set(i, el);
      }
      const item = this.item(i);
      const state = item === undefined ? `${gen}p` : gen;
      if (el.dataset.index !== String(i) || el.dataset.gen !== state) {
        el.dataset.index = String(i);
        el.dataset.gen = state;
        const isActive = i === this.active;
        const isSelected = i === this.selected;
        el.classList.toggle('active', isActive);
        el.setAttribute('aria-selected', String(isSelected));
        el.setAttribute('aria-posinset', String(i + 1));
        el.setAttribute('aria-setsize', String(this.count));
        if (isActive) el.id = activeId;
        else el.removeAttribute('id');
        el.classList.toggle('placeholder', item === undefined);
        if (item !== undefined) this.opts.renderRow(el, item, i);
        else if (this.opts.renderPlaceholder) this.opts.renderPlaceholder(el, i);
        else el.replaceChildren();
      }
      const y = `translateY(${i * rowHeight + shift}px)`;
      if (el.style.transform !== y) el.style.transform = y;
      if (i === this.active) activeRendered = true;
    }
    if (activeRendered) this.el.setAttribute('aria-activedescendant', activeId);
    else this.el.removeAttribute('aria-activedescendant');

    this.opts.onRange?.(win.start, win.end);
    const following = this.atBottom();
    if (following !== this.following) {
      this.following = following;
      this.opts.onFollowChange?.(following);
    }
  }

  private createRow(): HTMLElement {
    const el = h('div', { class: 'vrow', attrs: { role: 'option' } });
    el.style.height = `${this.opts.rowHeight}px`;
    this.spacer.appendChild(el);
    return el;
  }

  private onClick(ev: MouseEvent): void {
    const row = (ev.target as Element | null)?.closest<HTMLElement>('.vrow');
    if (!row || !this.el.contains(row) || row.dataset.index === undefined) return;
    const index = Number(row.dataset.index);
    this.setActive(index, false);
    this.el.focus({ preventScroll: true });
    const item = this.at(index);
    if (item !== undefined) this.opts.onActivate?.(index, item);
  }

  private onKey(ev: KeyboardEvent): void {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const n = this.count;
    if (n === 0) return;
    const page = Math.max(1, Math.floor(this.viewport() / this.opts.rowHeight) - 1);
    const from = this.active >= 0 ? this.active : this.firstVisible();
    let next: number | null = null;
    switch (ev.key) {
      case 'ArrowDown':
        next = this.active >= 0 ? from + 1 : from;
        break;
      case 'ArrowUp':
        next = this.active >= 0 ? from - 1 : from;
        break;
      case 'PageDown':
        next = from + page;
        break;
      case 'PageUp':
        next = from - page;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = n - 1;
        break;
      case 'Enter':
      case ' ':
        ev.preventDefault();
        if (this.active < 0) this.setActive(from);
        {
          const item = this.at(this.active);
          if (item !== undefined) this.opts.onActivate?.(this.active, item);
        }
        return;
      default:
        return;
    }
    ev.preventDefault();
    this.setActive(next);
  }

  private firstVisible(): number {
    if (this.atBottom()) return this.count - 1;
    return Math.min(this.count - 1, Math.ceil(this.scrollOffset / this.opts.rowHeight));
  }
}

function requestAnimationFrameSafe(cb: () => void): number {
  if (typeof requestAnimationFrame === 'function') return requestAnimationFrame(cb);
  return setTimeout(cb, 16) as unknown as number;
}

function cancelAnimationFrameSafe(id: number): void {
  if (typeof cancelAnimationFrame === 'function') cancelAnimationFrame(id);
  else clearTimeout(id);
}
