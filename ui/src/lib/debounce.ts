// Coalesces bursts (e.g. several ledger-commit events in a few ms) into one call.

export interface Debounced {
  (): void;
  /** Drops a pending call. */
  cancel(): void;
  /** Runs a pending call now. */
  flush(): void;
}

/** Calls `fn` once, `ms` after the last of a burst of calls. */
export function debounce(fn: () => void, ms: number): Debounced {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = (): void => {
    timer = null;
    fn();
  };
  const d = (() => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(run, ms);
  }) as Debounced;
  d.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  d.flush = () => {
    if (timer !== null) {
      clearTimeout(timer);
      run();
    }
  };
  return d;
}
