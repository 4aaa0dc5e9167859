// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualList } from '../src/components/virtual-list';
import { MAX_SCROLL_HEIGHT, offsetAt, scrollMap, scrollTopFor } from '../src/lib/virtual';
import { fakeScrollLayout } from './kit/scroll-layout';

const ROW = 28;
const VIEWPORT = 600;
const TEN_MILLION = 10_000_000;

let list: VirtualList<number> | null = null;

/** A list of `count` rows (each its own index) with a browser-like layout. */
function mount(count: number): VirtualList<number> {
  list = new VirtualList<number>({
    id: 'vl',
    label: 'rows',
    rowHeight: ROW,
    renderRow: (el, item) => {
      el.textContent = String(item);
    },
  });
  document.body.appendChild(list.el);
  fakeScrollLayout(list.el, VIEWPORT);
  list.setSource(count, (i) => i);
  return list;
}

/** The rows a user sees: index → px from the top of the viewport. */
function onScreen(l: VirtualList<number>): Map<number, number> {
  const seen = new Map<number, number>();
  for (const el of l.el.querySelectorAll<HTMLElement>('.vrow:not([hidden])')) {
    const y = Number(/translateY\((-?[\d.]+)px\)/.exec(el.style.transform)![1]) - l.el.scrollTop;
    if (y + ROW > 0 && y < VIEWPORT) seen.set(Number(el.dataset.index), y);
  }
  return seen;
}

afterEach(() => {
  list?.destroy();
  list = null;
  document.body.replaceChildren();
});

describe('scrollMap', () => {
  it('is the identity below the cap and spans every row above it', () => {
    const small = scrollMap(100_000, ROW, VIEWPORT);
    expect(small).toEqual({ content: 2_800_000, area: 2_800_000, scale: 1 });
    expect(scrollTopFor(small, 12_345)).toBe(12_345);

    const big = scrollMap(TEN_MILLION, ROW, VIEWPORT);
    expect(big.area).toBe(MAX_SCROLL_HEIGHT);
    expect(offsetAt(big, 0)).toBe(0);
    expect(offsetAt(big, big.area - VIEWPORT)).toBeCloseTo(big.content - VIEWPORT, 3);
    expect(offsetAt(big, scrollTopFor(big, 5_000_000 * ROW))).toBeCloseTo(5_000_000 * ROW, -2);
  });
});

describe('a list of ten million rows', () => {
  it('opens on its last row and keeps the scroll area under the cap', () => {
    const l = mount(TEN_MILLION);
    l.scrollToEnd();
    expect(parseFloat((l.el.firstElementChild as HTMLElement).style.height)).toBeLessThanOrEqual(MAX_SCROLL_HEIGHT);
    const seen = onScreen(l);
    expect(seen.has(TEN_MILLION - 1)).toBe(true);
    expect(seen.get(TEN_MILLION - 1)).toBe(VIEWPORT - ROW);
    expect(l.atBottom()).toBe(true);
  });

  it('shows any row at the top when asked, and the middle when the thumb is dragged there', () => {
    const l = mount(TEN_MILLION);
    l.scrollToIndex(7_654_321);
    expect(onScreen(l).get(7_654_321)).toBe(0);

    l.el.scrollTop = (l.el.scrollHeight - VIEWPORT) / 2;
    l.el.dispatchEvent(new Event('scroll'));
    l.render();
    const rows = [...onScreen(l).keys()];
    const middle = (TEN_MILLION - VIEWPORT / ROW) / 2;
    expect(Math.abs(Math.min(...rows) - middle)).toBeLessThan(100);
    expect(rows.length).toBeGreaterThanOrEqual(Math.floor(VIEWPORT / ROW));
  });

  it('moves row for row with the wheel and the keys, not by the scale', () => {
    const l = mount(TEN_MILLION);
    l.scrollToIndex(3_000_000);
    const wheel = new WheelEvent('wheel', { deltaY: 3, deltaMode: 1, cancelable: true });
    l.el.dispatchEvent(wheel);
    l.render();
    expect(wheel.defaultPrevented).toBe(true);
    expect(onScreen(l).get(3_000_003)).toBe(0);

    l.el.dispatchEvent(new KeyboardEvent('keydown', { key: 'End' }));
    expect(l.activeIndex).toBe(TEN_MILLION - 1);
    expect(onScreen(l).has(TEN_MILLION - 1)).toBe(true);
    l.el.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp' }));
    expect(onScreen(l).has(TEN_MILLION - 2)).toBe(true);
  });

  it('keeps the rows on screen when rows are added to a scaled list', () => {
    const l = mount(TEN_MILLION);
    l.scrollToIndex(4_000_000);
    l.setSource(TEN_MILLION + 20_000, (i) => i);
    expect(onScreen(l).get(4_000_000)).toBe(0);
  });
});

describe('a short list', () => {
  it('scrolls as before: the area is the rows, the wheel is the browser\'s', () => {
    const l = mount(1_000);
    expect((l.el.firstElementChild as HTMLElement).style.height).toBe(`${1_000 * ROW}px`);
    l.scrollToIndex(500);
    expect(l.el.scrollTop).toBe(500 * ROW);
    expect(onScreen(l).get(500)).toBe(0);
    const wheel = new WheelEvent('wheel', { deltaY: 3, deltaMode: 1, cancelable: true });
    l.el.dispatchEvent(wheel);
    expect(wheel.defaultPrevented).toBe(false);
  });
});

describe('layout reads', () => {
  it('reads the viewport and the scroll position only when they may have changed', () => {
    // jsdom has no ResizeObserver: one that reports when told to.
    const observers: (() => void)[] = [];
    const saved = globalThis.ResizeObserver;
    globalThis.ResizeObserver = class {
      constructor(private readonly cb: ResizeObserverCallback) {
        observers.push(() => this.cb([], this as unknown as ResizeObserver));
      }
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    } as unknown as typeof ResizeObserver;
    try {
      const l = mount(1000);
      const el = l.el;
      // Count what forces a layout in a browser: reading the viewport's height or the scroll position.
      const reads = { height: 0, top: 0 };
      const height = Object.getOwnPropertyDescriptor(el, 'clientHeight')!;
      const top = Object.getOwnPropertyDescriptor(el, 'scrollTop')!;
      Object.defineProperty(el, 'clientHeight', { configurable: true, get: () => (reads.height++, height.get!.call(el)) });
      Object.defineProperty(el, 'scrollTop', {
        configurable: true,
        get: () => (reads.top++, top.get!.call(el)),
        set: (v: number) => top.set!.call(el, v),
      });
      observers[0]!(); // laid out: the viewport is measured once
      expect(reads.height).toBe(1);
      l.scrollToEnd();

      // A burst of live rows on a list that follows its end: no height read,
      // and the scroll position read only right after setting it.
      reads.height = 0;
      reads.top = 0;
      for (let n = 1001; n <= 1010; n++) {
        l.setSource(n, (i) => i, { follow: true });
        l.refresh();
      }
      expect(reads.height).toBe(0);
      expect(reads.top).toBe(10);
      expect(el.scrollTop).toBe(1010 * ROW - VIEWPORT);
      expect(Math.max(...onScreen(l).keys())).toBe(1009);

      // The user scrolls: the position is read again, once.
      el.scrollTop = 100 * ROW;
      el.dispatchEvent(new Event('scroll'));
      reads.top = 0;
      l.refresh();
      l.refresh();
      expect(reads.top).toBe(1);
      expect(Math.min(...onScreen(l).keys())).toBe(100);
    } finally {
      globalThis.ResizeObserver = saved;
    }
  });
});
