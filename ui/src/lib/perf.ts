// Paint marks: tells the backend when something worth timing has reached
// the screen, so the app's log (and `hookd-bench --only desktop` and
// `desktop-scale`) can say how long the window and the timeline took to show.
//
// "Painted" is taken as the second animation frame after the DOM change:
// the first callback runs before the browser paints that frame, the second
// after it has been painted.
//
// The benchmark can also ask the timeline for a few things through the
// location hash (`hookd-desktop --open 'timeline?…&perf=ACTION&perf_n=N'`,
// `perf_n` making each request a new hash); the filter ignores these keys,
// so the view stays as it is. Nothing here runs unless asked:
// - `jump:F` scrolls the list to the fraction F of its height (what
//   dragging the scroll thumb there does) and reports `timeline-jump` once
//   the rows in view are real rows, not placeholders;
// - `frames-start` / `frames-stop` run a requestAnimationFrame monitor and
//   report the longest gap between two frames (`frames`, with `frames-at`:
//   when it ended, ms since the start) and how many gaps were over 100 ms
//   (`frames-long`); while it runs, every change of the
//   list's total is reported (`timeline-total`, the first at the start);
//   at the stop, the work `timed` saw during the longest gap is reported
//   first, one `frames-work:NAME` per kind (ms summed, rows: how many), then
//   the longest single run of each kind over the whole monitor
//   (`frames-max:NAME`, rows: how many in all): what held the frame, when
//   it was the page's own script;
// - `total` reports the list's total (`timeline-total`).

import { api } from './api';
import { parseParams } from './route';

/** Calls `then` once the current DOM state has been painted. */
export function afterPaint(then: () => void): void {
  requestAnimationFrame(() => requestAnimationFrame(then));
}

/**
 * Reports `name` as painted, `startedAt` (a `performance.now()` value) being
 * when the work began; `rows` for lists. Failures are ignored: a mark is
 * diagnostics, never worth an error banner.
 */
export function markPainted(name: string, startedAt: number, rows: number | null = null): void {
  afterPaint(() => send(name, elapsed(startedAt), rows));
}

function elapsed(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 10) / 10;
}

function send(name: string, ms: number, rows: number | null): void {
  api.ui_mark({ mark: { name, ms, rows } }).catch(() => {});
}

/** How long `markRowsPainted` waits for real rows before it reports what is there. */
const ROWS_TIMEOUT_MS = 30_000;

/**
 * The positions of the virtual list's rows (`.vrow[data-index]`) that are
 * on screen inside `list`, and whether any of them is still a placeholder.
 */
export function rowsInView(list: HTMLElement): { first: number; end: number; placeholders: number } {
  const box = list.getBoundingClientRect();
  let first = -1;
  let end = -1;
  let placeholders = 0;
  for (const row of list.querySelectorAll<HTMLElement>('.vrow:not([hidden])')) {
    const r = row.getBoundingClientRect();
    if (r.bottom <= box.top || r.top >= box.bottom || r.height === 0) continue;
    const index = Number(row.dataset.index);
    if (!Number.isInteger(index)) continue;
    if (row.classList.contains('placeholder')) placeholders++;
    if (first < 0 || index < first) first = index;
    if (index + 1 > end) end = index + 1;
  }
  return { first, end, placeholders };
}

/**
 * Reports `name` (ms since `startedAt`, rows `total`) once the rows on
 * screen in `list` are real rows and painted, then `name-first` and
 * `name-end`: the first position on screen and the one past the last (the
 * benchmark checks that the window shows what it should). An empty list
 * (`total` 0) is reported at its next paint.
 */
export function markRowsPainted(name: string, startedAt: number, list: HTMLElement, total: number): void {
  const check = (): void => {
    const seen = rowsInView(list);
    const ready = total === 0 || (seen.first >= 0 && seen.placeholders === 0);
    if (!ready && performance.now() - startedAt < ROWS_TIMEOUT_MS) {
      requestAnimationFrame(check);
      return;
    }
    // That frame had real rows: report once it is painted.
    requestAnimationFrame(() => {
      const ms = elapsed(startedAt);
      send(name, ms, total);
      // No row in view (an empty list) is 0..0: marks carry unsigned rows.
      send(`${name}-first`, ms, Math.max(0, seen.first));
      send(`${name}-end`, ms, Math.max(0, seen.end));
    });
  };
  requestAnimationFrame(check);
}

/** A run of named work, `performance.now()` times. */
interface Span {
  name: string;
  start: number;
  end: number;
}

/** The work timed since the last frame, while the frame monitor runs (else null). */
let spans: Span[] | null = null;

/**
 * Runs `work`; while the frame monitor runs, notes how long it took under
 * `name` (see the top of this file). Outside the monitor it costs a test.
 */
export function timed<T>(name: string, work: () => T): T {
  const into = spans;
  if (into === null) return work();
  const start = performance.now();
  try {
    return work();
  } finally {
    into.push({ name, start, end: performance.now() });
  }
}

/** Per kind of work: the time summed (or the longest run) and how many runs. */
type WorkTally = Map<string, { ms: number; n: number }>;

/** Over this, a frame gap counts as long (the bound). */
const LONG_FRAME_MS = 100;

/**
 * Follows the `perf=` requests of the location hash for the timeline's
 * `list` (see the top of this file). Returns the function that stops it.
 */
export function listenForPerfRequests(list: HTMLElement): () => void {
  let frames: {
    handle: number;
    start: number;
    last: number;
    longest: number;
    at: number;
    count: number;
    long: number;
    total: string | undefined;
    /** The work timed in the longest gap so far. */
    inLongest: WorkTally;
    /** The longest run of each kind of work, and how many runs. */
    max: WorkTally;
  } | null = null;
  const frame = (now: number): void => {
    if (frames === null) return;
    if (list.dataset.total !== frames.total) {
      frames.total = list.dataset.total;
      send('timeline-total', 0, Number(frames.total ?? 0));
    }
    const done = spans ?? [];
    spans = [];
    for (const s of done) {
      const m = frames.max.get(s.name) ?? { ms: 0, n: 0 };
      m.ms = Math.max(m.ms, s.end - s.start);
      m.n++;
      frames.max.set(s.name, m);
    }
    if (frames.count > 0) {
      const gap = now - frames.last;
      if (gap > frames.longest) {
        frames.longest = gap;
        frames.at = now - frames.start;
        frames.inLongest = new Map();
        for (const s of done) {
          const t = frames.inLongest.get(s.name) ?? { ms: 0, n: 0 };
          t.ms += s.end - s.start;
          t.n++;
          frames.inLongest.set(s.name, t);
        }
      }
      if (gap > LONG_FRAME_MS) frames.long++;
    }
    if (frames.count === 0) frames.start = now;
    frames.last = now;
    frames.count++;
    frames.handle = requestAnimationFrame(frame);
  };
  const stopFrames = (): void => {
    if (frames === null) return;
    cancelAnimationFrame(frames.handle);
    spans = null;
    const tenth = (ms: number): number => Math.round(ms * 10) / 10;
    for (const [name, t] of frames.inLongest) send(`frames-work:${name}`, tenth(t.ms), t.n);
    for (const [name, t] of frames.max) send(`frames-max:${name}`, tenth(t.ms), t.n);
    send('frames', tenth(frames.longest), frames.count);
    send('frames-at', Math.round(frames.at), null);
    send('frames-long', 0, frames.long);
    frames = null;
  };
  const onHash = (): void => {
    const h = window.location.hash;
    const q = h.indexOf('?');
    const action = q < 0 ? undefined : parseParams(h.slice(q + 1)).get('perf');
    if (action === undefined) return;
    if (action === 'frames-start') {
      if (frames === null) {
        frames = { handle: 0, start: 0, last: 0, longest: 0, at: 0, count: 0, long: 0, total: undefined, inLongest: new Map(), max: new Map() };
        spans = [];
        frames.handle = requestAnimationFrame(frame);
      }
    } else if (action === 'frames-stop') {
      stopFrames();
    } else if (action === 'total') {
      send('timeline-total', 0, Number(list.dataset.total ?? 0));
    } else if (action.startsWith('jump:')) {
      const fraction = Number(action.slice('jump:'.length));
      if (!Number.isFinite(fraction)) return;
      const startedAt = performance.now();
      list.scrollTop = Math.round(fraction * Math.max(0, list.scrollHeight - list.clientHeight));
      markRowsPainted('timeline-jump', startedAt, list, Number(list.dataset.total ?? 0));
    }
  };
  window.addEventListener('hashchange', onHash);
  return () => {
    window.removeEventListener('hashchange', onHash);
    if (frames !== null) cancelAnimationFrame(frames.handle);
    frames = null;
    spans = null;
  };
}
