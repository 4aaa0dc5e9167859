// Paint marks: tells the backend when something worth timing has reached
// the screen, so the app's log (and `hookd-bench --only desktop`) can say how
// long the window and the timeline took to show.
//
// "Painted" is taken as the second animation frame after the DOM change:
// the first callback runs before the browser paints that frame, the second
// after it has been painted.

import { api } from './api';

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
  afterPaint(() => {
    const ms = Math.round((performance.now() - startedAt) * 10) / 10;
    api.ui_mark({ mark: { name, ms, rows } }).catch(() => {});
  });
}
