// Whether the Timeline shows its filter bar and its chart, or keeps that
// room for the list: a one-line summary stands for the filters and the chart
// is hidden. The choice is the user's and is kept across launches
// (localStorage); until one is made, a short window (under
// COMPACT_HEIGHT px) starts with both collapsed, a taller one with both shown.

/** The localStorage key the choice is kept under. */
export const LAYOUT_KEY = 'hookd.timeline.layout';
/** Window heights below this start with the filter bar and the chart collapsed. */
export const COMPACT_HEIGHT = 700;

/** What the Timeline shows above its list. */
export interface TimelineLayout {
  /** The whole filter bar (else its one-line summary). */
  filters: boolean;
  /** The activity chart. */
  chart: boolean;
}

/** The default for a window `height` px tall. */
export function defaultLayout(height: number): TimelineLayout {
  const roomy = height >= COMPACT_HEIGHT;
  return { filters: roomy, chart: roomy };
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage refused (a private window): the defaults then hold
  }
}

/** The kept choice, else the default for the window's height; a malformed entry counts as none. */
export function loadLayout(height: number = typeof window === 'undefined' ? COMPACT_HEIGHT : window.innerHeight): TimelineLayout {
  const fallback = defaultLayout(height);
  const raw = storage()?.getItem(LAYOUT_KEY);
  if (!raw) return fallback;
  try {
    const kept = JSON.parse(raw) as Partial<TimelineLayout> | null;
    return {
      filters: typeof kept?.filters === 'boolean' ? kept.filters : fallback.filters,
      chart: typeof kept?.chart === 'boolean' ? kept.chart : fallback.chart,
    };
  } catch {
    return fallback;
  }
}

/** Keeps the choice for the next Timeline and the next launch. */
export function saveLayout(layout: TimelineLayout): void {
  try {
    storage()?.setItem(LAYOUT_KEY, JSON.stringify(layout));
  } catch {
    // A full or refused storage only loses the choice.
  }
}
