import { describe, expect, it } from 'vitest';
import { computeWindow, isAtBottom, maxRenderedRows, scrollToReveal } from '../src/lib/virtual';

const base = { rowHeight: 28, viewportHeight: 600, overscan: 8, total: 100_000 };

describe('computeWindow', () => {
  it('renders the first rows plus overscan below at the top', () => {
    // 600 / 28 = 21.4 → rows 0..21 visible (22 rows), + 8 overscan below.
    expect(computeWindow({ ...base, scrollTop: 0 })).toEqual({ start: 0, end: 30, totalHeight: 2_800_000 });
  });

  it('renders overscan on both sides in the middle', () => {
    // scrollTop 28,000 → first visible row 1000; last visible exclusive ceil(28600/28)=1022.
    expect(computeWindow({ ...base, scrollTop: 28_000 })).toEqual({ start: 992, end: 1030, totalHeight: 2_800_000 });
  });

  it('handles a partly scrolled row', () => {
    // 28,020 + 600 = 28,620 px → row 1022 is partly visible, so the window ends at 1023 + 8.
    const w = computeWindow({ ...base, scrollTop: 28_020 });
    expect(w.start).toBe(992);
    expect(w.end).toBe(1031);
  });

  it('ends at the last row when scrolled to the bottom', () => {
    const max = 100_000 * 28 - 600;
    const w = computeWindow({ ...base, scrollTop: max });
    expect(w.end).toBe(100_000);
    expect(w.start).toBe(Math.floor(max / 28) - 8);
  });

  it('clamps offsets past the end and below zero', () => {
    expect(computeWindow({ ...base, scrollTop: 1e12 }).end).toBe(100_000);
    expect(computeWindow({ ...base, scrollTop: 1e12 }).start).toBe(100_000 - 22 - 8);
    expect(computeWindow({ ...base, scrollTop: -50 })).toMatchObject({ start: 0, end: 30 });
  });

  it('never renders more than the viewport needs, wherever it scrolls', () => {
    const cap = maxRenderedRows(600, 28, 8);
    expect(cap).toBe(39);
    for (let top = 0; top < 2_800_000; top += 99_991) {
      const w = computeWindow({ ...base, scrollTop: top });
      expect(w.end - w.start).toBeLessThanOrEqual(cap);
      expect(w.end - w.start).toBeGreaterThanOrEqual(22);
    }
  });

  it('copes with short and empty lists', () => {
    expect(computeWindow({ ...base, total: 5, scrollTop: 0 })).toEqual({ start: 0, end: 5, totalHeight: 140 });
    expect(computeWindow({ ...base, total: 0, scrollTop: 300 })).toEqual({ start: 0, end: 0, totalHeight: 0 });
    expect(computeWindow({ ...base, viewportHeight: 0, overscan: 0, scrollTop: 0 })).toMatchObject({ start: 0, end: 0 });
  });
});

describe('follow and reveal', () => {
  it('knows when the list is at its end', () => {
    expect(isAtBottom(2_799_400, 600, 2_800_000)).toBe(true);
    expect(isAtBottom(2_799_397, 600, 2_800_000)).toBe(true); // within slack
    expect(isAtBottom(2_799_000, 600, 2_800_000)).toBe(false);
  });

  it('scrolls just enough to reveal a row', () => {
    expect(scrollToReveal(10, 0, 600, 28)).toBe(0); // already visible
    expect(scrollToReveal(30, 0, 600, 28)).toBe(31 * 28 - 600);
    expect(scrollToReveal(5, 1000, 600, 28)).toBe(140);
  });
});
