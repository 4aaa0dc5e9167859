import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { debounce } from '../src/lib/debounce';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('debounce', () => {
  it('calls once, the delay after the last call of a burst', () => {
    const fn = vi.fn();
    const d = debounce(fn, 50);
    d();
    vi.advanceTimersByTime(30);
    d();
    vi.advanceTimersByTime(49);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('with leading, calls at once, then once after the rest of the burst', () => {
    const fn = vi.fn();
    const d = debounce(fn, 50, { leading: true });
    d();
    expect(fn).toHaveBeenCalledTimes(1);
    // A lone call owes nothing more.
    vi.advanceTimersByTime(100);
    expect(fn).toHaveBeenCalledTimes(1);

    // A quiet spell later: at once again; the calls that follow are one call, after them.
    d();
    expect(fn).toHaveBeenCalledTimes(2);
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(20);
      d();
    }
    expect(fn).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(50);
    expect(fn).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(100);
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('with leading, cancel drops the owed call and flush runs it', () => {
    const fn = vi.fn();
    const d = debounce(fn, 50, { leading: true });
    d();
    d();
    d.cancel();
    vi.advanceTimersByTime(100);
    expect(fn).toHaveBeenCalledTimes(1);
    d(); // quiet again: at once
    expect(fn).toHaveBeenCalledTimes(2);
    d();
    d.flush();
    expect(fn).toHaveBeenCalledTimes(3);
    d.flush(); // nothing owed
    vi.advanceTimersByTime(100);
    expect(fn).toHaveBeenCalledTimes(3);
  });
});
