// The rows of a long timeline, held a page at a time by position.
//
// The backend answers pages (`timeline_page`, `activity_page`): rows, the
// position of the first one and how many rows match in all. The list is
// sized by that total and asks for the rows its viewport shows; this cache
// holds them in chunks of `pageSize` positions, fetches the chunks a range
// needs (one request per missing chunk, never twice at once), and evicts the
// chunks farthest from the viewport beyond `maxPages`. Positions not held are
// `undefined`: the list paints a placeholder there.
//
// Live updates read what was committed since the watermark the last page
// returned (`newer_than`). When the new rows start exactly at the end of
// what is known, they are appended (the total grows, nothing is re-read);
// otherwise (rows that sort before rows already held, a window of time that
// moved) every position may have shifted: the cache forgets its chunks and
// refetches the range on screen.
//
// A reset (new filter) or such a shift bumps a generation: responses asked
// for under an older one are dropped, so a slow page can never paint rows of
// another filter or at shifted positions.

import type { Anchor, Page, Watermark } from './types';

/** Rows per page asked of the backend (and per chunk held). */
export const PAGE_SIZE = 200;
/** Chunks held at most; the farthest from the viewport go first. */
export const MAX_PAGES = 25;
/**
 * Chunks kept on each side of the range on screen when live rows are
 * appended: a burst streams through the end of the list, and what it
 * scrolled past is read again if scrolled back to, rather than kept (a
 * 20,000-row burst otherwise left the list holding `MAX_PAGES` chunks of
 * it, where it held one or two before).
 */
export const LIVE_MARGIN_PAGES = 2;

/** Reads one page of rows. */
export type PageFetch<T> = (anchor: Anchor, limit: number) => Promise<Page<T>>;

export interface PagedRowsOptions<T> {
  fetch: PageFetch<T>;
  /** A row's identity across reads (see `rowKey` in the timeline view). */
  key(row: T): string;
  /** Rows were stored or the total changed: repaint. */
  onChange(): void;
  /**
   * A live read found these rows, told before the repaint (`onChange`) that
   * shows them, so the owner can mark them (highlighted as new) in that one
   * repaint rather than repaint again after.
   */
  onLive?(rows: readonly T[]): void;
  /** A request failed. */
  onError?(err: unknown): void;
  pageSize?: number;
  maxPages?: number;
  liveMarginPages?: number;
}

/** What a live read found. */
export interface LiveResult<T> {
  /** The rows committed since the last read, matching the filter. */
  rows: T[];
  /** `append`: added at the end; `shift`: positions moved, the window is refetched. */
  how: 'append' | 'shift' | 'none';
  /** More rows are waiting (the read hit its limit): read again. */
  more: boolean;
}

export class PagedRows<T> {
  /** How many rows match in all (the list's length). */
  total = 0;
  /** Rows received from the backend since created (a cost figure, shown to tests). */
  received = 0;
  /** Whether the first page has been read. */
  loaded = false;
  private seen: Watermark = {};
  private readonly chunks = new Map<number, (T | undefined)[]>();
  private readonly inflight = new Set<number>();
  private generation = 0;
  /** The range last asked for (the viewport plus overscan). */
  private range: [number, number] = [0, 0];
  private readonly opts: Required<Omit<PagedRowsOptions<T>, 'onError' | 'onLive'>> & Pick<PagedRowsOptions<T>, 'onError' | 'onLive'>;

  constructor(options: PagedRowsOptions<T>) {
    this.opts = { pageSize: PAGE_SIZE, maxPages: MAX_PAGES, liveMarginPages: LIVE_MARGIN_PAGES, ...options };
  }

  /** The row at `position`, or undefined while it is not held. */
  get(position: number): T | undefined {
    const size = this.opts.pageSize;
    return this.chunks.get(Math.floor(position / size))?.[position % size];
  }

  /** Rows held now. */
  get held(): number {
    let n = 0;
    for (const chunk of this.chunks.values()) for (const row of chunk) if (row !== undefined) n++;
    return n;
  }

  /** Every row held, in no particular order. */
  rows(): T[] {
    const out: T[] = [];
    for (const chunk of this.chunks.values()) for (const row of chunk) if (row !== undefined) out.push(row);
    return out;
  }

  /** Chunks held now. */
  get pages(): number {
    return this.chunks.size;
  }

  /** The position of the held row with `key`, or -1. */
  indexOf(key: string): number {
    const size = this.opts.pageSize;
    for (const [c, chunk] of this.chunks) {
      for (let i = 0; i < chunk.length; i++) {
        const row = chunk[i];
        if (row !== undefined && this.opts.key(row) === key) return c * size + i;
      }
    }
    return -1;
  }

  /** Forgets everything and reads the newest page (the end of the list). */
  async open(): Promise<void> {
    this.generation++;
    this.chunks.clear();
    this.inflight.clear();
    this.total = 0;
    this.seen = {};
    this.loaded = false;
    const generation = this.generation;
    const page = await this.opts.fetch({ at: 'newest' }, this.opts.pageSize);
    if (generation !== this.generation) return;
    this.received += page.rows.length;
    this.total = page.total;
    this.seen = page.seen;
    this.loaded = true;
    this.store(page.first, page.rows);
    const end = this.total;
    this.range = [Math.max(0, end - this.opts.pageSize), end];
    this.opts.onChange();
  }

  /** Drops every response still on its way (the view is going away or changing). */
  cancel(): void {
    this.generation++;
    this.inflight.clear();
  }

  /**
   * The list shows positions `[start, end)`: fetches the chunks missing
   * there, and evicts far chunks beyond the cap.
   */
  ensure(start: number, end: number): void {
    if (!this.loaded) return;
    start = Math.max(0, Math.min(start, this.total));
    end = Math.max(start, Math.min(end, this.total));
    this.range = [start, end];
    const size = this.opts.pageSize;
    for (let c = Math.floor(start / size); c * size < end; c++) {
      if (this.complete(c) || this.inflight.has(c)) continue;
      void this.load(c);
    }
    this.evict();
  }

  /**
   * Reads what was committed since the last read and merges it: appended
   * when it starts where the list ends, else (late rows) the total is
   * updated and the range on screen refetched.
   */
  async live(): Promise<LiveResult<T>> {
    if (!this.loaded) return { rows: [], how: 'none', more: false };
    const generation = this.generation;
    const limit = this.opts.pageSize;
    const page = await this.opts.fetch({ at: 'newer_than', seen: this.seen }, limit);
    if (generation !== this.generation) return { rows: [], how: 'none', more: false };
    this.received += page.rows.length;
    this.seen = page.seen;
    const more = page.rows.length >= limit;
    const total = page.total;
    const first = page.first;
    if (page.rows.length === 0) {
      if (total === this.total) return { rows: [], how: 'none', more };
      // Rows left the filter (a `since` window moved on): positions shifted.
      this.shift(total);
      return { rows: [], how: 'shift', more };
    }
    this.opts.onLive?.(page.rows);
    if (first === this.total && total >= first + page.rows.length) {
      // With more waiting, the list grows as they arrive (the next read
      // appends them where these end).
      this.total = more ? first + page.rows.length : total;
      this.store(first, page.rows);
      this.evict(this.opts.liveMarginPages);
      this.opts.onChange();
      return { rows: page.rows, how: 'append', more };
    }
    this.shift(total);
    return { rows: page.rows, how: 'shift', more };
  }

  /**
   * Re-reads the chunks of the range on screen (their rows changed in
   * place: an event gained hook runs); they stay shown until the new ones
   * arrive, and the chunks elsewhere are forgotten.
   */
  refresh(): void {
    this.generation++;
    this.inflight.clear();
    const size = this.opts.pageSize;
    const [start, end] = this.range;
    for (const c of [...this.chunks.keys()]) if ((c + 1) * size <= start || c * size >= end) this.chunks.delete(c);
    for (let c = Math.floor(start / size); c * size < end; c++) void this.load(c);
  }

  /** Positions may have moved: forget every chunk, keep the total, refetch the range. */
  private shift(total: number): void {
    this.generation++;
    this.chunks.clear();
    this.inflight.clear();
    this.total = total;
    this.opts.onChange();
    this.ensure(this.range[0], this.range[1]);
  }

  private complete(c: number): boolean {
    const chunk = this.chunks.get(c);
    if (!chunk) return false;
    const size = this.opts.pageSize;
    const last = Math.min(size, this.total - c * size);
    for (let i = 0; i < last; i++) if (chunk[i] === undefined) return false;
    return true;
  }

  private async load(c: number): Promise<void> {
    const generation = this.generation;
    const size = this.opts.pageSize;
    this.inflight.add(c);
    try {
      const page = await this.opts.fetch({ at: 'position', position: c * size }, size);
      if (generation !== this.generation) return;
      this.received += page.rows.length;
      // Rows committed meanwhile at the end do not move these positions;
      // anything else is caught by the next live read.
      this.store(page.first, page.rows);
      this.evict();
      this.opts.onChange();
    } catch (err) {
      if (generation === this.generation) this.opts.onError?.(err);
    } finally {
      if (generation === this.generation) this.inflight.delete(c);
    }
  }

  private store(first: number, rows: readonly T[]): void {
    const size = this.opts.pageSize;
    for (let i = 0; i < rows.length; i++) {
      const p = first + i;
      const c = Math.floor(p / size);
      let chunk = this.chunks.get(c);
      if (!chunk) this.chunks.set(c, (chunk = new Array<T | undefined>(size)));
      chunk[p % size] = rows[i];
    }
  }

  /**
   * Drops the chunks farthest from the range on screen beyond the cap and,
   * given a `margin`, every chunk more than that many chunks away from it.
   */
  private evict(margin?: number): void {
    const size = this.opts.pageSize;
    if (margin !== undefined) {
      const low = Math.floor(this.range[0] / size) - margin;
      const high = Math.floor(Math.max(this.range[0], this.range[1] - 1) / size) + margin;
      for (const c of [...this.chunks.keys()]) if (c < low || c > high) this.chunks.delete(c);
    }
    const excess = this.chunks.size - this.opts.maxPages;
    if (excess <= 0) return;
    const middle = (this.range[0] + this.range[1]) / 2 / size;
    const far = [...this.chunks.keys()].sort((a, b) => Math.abs(b - middle) - Math.abs(a - middle));
    for (const c of far.slice(0, excess)) this.chunks.delete(c);
  }
}
