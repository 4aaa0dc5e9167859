// A scroll container's layout for jsdom, which has none: a viewport height
// and a `scrollTop` that a browser would keep, clamped to the spacer's
// height (the container's first child) and, like WebKit, to the tallest
// box it lays out (2^25 px): what made rows past 1.2 million unreachable.

/** WebKit's cap on a box's height, px. */
export const WEBKIT_MAX_HEIGHT = 2 ** 25;

/** Gives `list` a viewport of `viewport` px and a browser-like `scrollTop`. */
export function fakeScrollLayout(list: HTMLElement, viewport: number): void {
  let top = 0;
  Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => viewport });
  Object.defineProperty(list, 'scrollHeight', {
    configurable: true,
    get: () => Math.min(parseFloat((list.firstElementChild as HTMLElement).style.height || '0'), WEBKIT_MAX_HEIGHT),
  });
  Object.defineProperty(list, 'scrollTop', {
    configurable: true,
    get: () => top,
    set: (v: number) => {
      top = Math.round(Math.min(Math.max(0, v), Math.max(0, list.scrollHeight - viewport)));
    },
  });
}
