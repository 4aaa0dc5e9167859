// Coalesces bursts (e.g. several ledger-commit events in a few ms) into one
// call; with `leading`, the first call of a burst runs at once (a jump of the
// scroll position asks for its rows without waiting) and the rest of the
// burst is coalesced into one call after it.

export interface Debounced {
  (): void;
  /** Drops a pending call. */
  cancel(): void;
  /** Runs a pending call now. */
  flush(): void;
}

/** How `debounce` times its calls. */
export interface DebounceOptions {
  /**
   * Run the first call of a burst at once, then once more `ms` after the
   * last if the burst had more calls (a call `ms` after the last one
   * starts a new burst).
   */
  leading?: boolean;
}

/** Calls `fn` once, `ms` after the last of a burst of calls (see `DebounceOptions`). */
export function debounce(fn: () => void, ms: number, options: DebounceOptions = {}): Debounced {
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** A call is owed when the timer fires (always, unless `leading` ran the burst's only call). */
  let owed = false;
  const run = (): void => {
    timer = null;
    if (!owed) return;
    owed = false;
    fn();
  };
  const d = (() => {
    if (timer !== null) clearTimeout(timer);
    else if (options.leading) {
      // Quiet until now: run at once, and owe nothing unless more calls come.
      timer = setTimeout(run, ms);
      fn();
      return;
    }
    owed = true;
    timer = setTimeout(run, ms);
  }) as Debounced;
  d.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    owed = false;
  };
  d.flush = () => {
    if (timer !== null) {
      clearTimeout(timer);
      run();
    }
  };
  return d;
}
