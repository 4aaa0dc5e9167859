// Binning for the timeline's activity chart: rows per time bin, split into
// series by agent or by tool.
//
// It runs once per data change over every loaded row (up to 100,000), so
// it does no per-row allocation: stored timestamps all share one shape
// (`2026-11-21T10:00:00.123Z`), so the minute a row falls in is read from
// its digits, with one date computation per distinct day.

/** What the series are. */
export type ChartGroup = 'agent' | 'tool';

/** Bin widths tried, smallest first: a minute up to a day. */
export const BIN_WIDTHS_MS = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440].map((m) => m * 60_000);

/** At most this many series; the rest are summed as `other`. */
export const MAX_SERIES = 6;

/** The shortest range shown when the filter does not give a start. */
export const MIN_SPAN_MS = 30 * 60_000;

/** Name of the series that sums the smaller ones. */
export const OTHER = 'other';

export interface ChartOptions {
  /** Start of the range, ms; default: the earliest row's minute, at least `MIN_SPAN_MS` before the end. */
  since?: number | null;
  /** End of the range, ms (exclusive); default: after the latest row's minute. */
  until?: number | null;
  /** Upper bound on the number of bins (default 120). */
  maxBins?: number;
}

/** Rows per bin and series. */
export interface ChartBins {
  /** Start of the first bin, ms since the epoch. */
  start: number;
  /** Width of a bin, ms (a whole number of minutes). */
  binMs: number;
  /** Number of bins. */
  bins: number;
  /** Series names, largest first (`other` last when present). */
  series: string[];
  /** counts[s][b]: rows of series s in bin b. */
  counts: Uint32Array[];
  /** Rows per bin, all series. */
  totals: Uint32Array;
  /** Rows per series. */
  seriesTotals: number[];
  /** The largest bin total. */
  max: number;
  /** Rows counted (rows outside the range are not). */
  total: number;
}

const MINUTE = 60_000;

const digit = (s: string, i: number): number => s.charCodeAt(i) - 48;
const two = (s: string, i: number): number => digit(s, i) * 10 + digit(s, i + 1);

/**
 * Epoch ms of the minute a timestamp falls in. Stored times
 * (`YYYY-MM-DDTHH:MM:…Z`) are read digit by digit with one `Date.UTC` per
 * distinct day, so 100,000 rows allocate nothing; anything else is parsed
 * in full.
 */
export function minuteParser(): (iso: string) => number {
  const days = new Map<number, number>();
  return (iso) => {
    if (iso.length >= 17 && iso.charCodeAt(iso.length - 1) === 90 /* Z */ && iso[10] === 'T' && iso[13] === ':' && iso[16] === ':') {
      const y = two(iso, 0) * 100 + two(iso, 2);
      const mo = two(iso, 5);
      const d = two(iso, 8);
      const hh = two(iso, 11);
      const mm = two(iso, 14);
      if (y >= 0 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && hh >= 0 && hh < 24 && mm >= 0 && mm < 60) {
        const key = y * 10000 + mo * 100 + d;
        let day = days.get(key);
        if (day === undefined) {
          day = Date.UTC(y, mo - 1, d);
          days.set(key, day);
        }
        return day + (hh * 60 + mm) * MINUTE;
      }
    }
    const full = Date.parse(iso);
    return Number.isNaN(full) ? NaN : Math.floor(full / MINUTE) * MINUTE;
  };
}

/** The smallest bin width that fits `span` into `maxBins` bins. */
export function binWidth(spanMs: number, maxBins: number): number {
  for (const w of BIN_WIDTHS_MS) if (Math.ceil(spanMs / w) <= maxBins) return w;
  const day = BIN_WIDTHS_MS[BIN_WIDTHS_MS.length - 1]!;
  return Math.ceil(spanMs / maxBins / day) * day;
}

/** "minute", "5 minutes", "hour", "3 hours", "day" … */
export function binLabel(binMs: number): string {
  const minutes = Math.round(binMs / MINUTE);
  if (minutes % 1440 === 0) return minutes === 1440 ? 'day' : `${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'hour' : `${minutes / 60} hours`;
  return minutes === 1 ? 'minute' : `${minutes} minutes`;
}

/**
 * Counts `rows` per time bin and series. `time` gives a row's stored
 * timestamp, `key` its series (agent id or tool name).
 */
export function binRows<T>(
  rows: readonly T[],
  time: (row: T) => string,
  key: (row: T) => string,
  options: ChartOptions = {},
): ChartBins {
  const maxBins = Math.max(1, options.maxBins ?? 120);
  const minuteOf = minuteParser();
  const minutes = new Float64Array(rows.length);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < rows.length; i++) {
    const m = minuteOf(time(rows[i]!));
    minutes[i] = m;
    if (m < lo) lo = m;
    if (m > hi) hi = m;
  }
  const since = options.since ?? null;
  const until = options.until ?? null;
  let end = until !== null ? until : hi + MINUTE;
  // Without a filter's start, show at least MIN_SPAN_MS before the end, so
  // a burst of a minute is a bar at the right, not one bar across the chart.
  let start = since !== null ? Math.floor(since / MINUTE) * MINUTE : Math.min(lo, end - MIN_SPAN_MS);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) {
    start = Number.isFinite(start) ? start : Math.floor(Date.now() / MINUTE) * MINUTE;
    end = start + MINUTE;
  }
  const binMs = binWidth(end - start, maxBins);
  // Align bins to the width (10:00, 10:05, …) so labels read naturally.
  start = Math.floor(start / binMs) * binMs;
  const bins = Math.max(1, Math.ceil((end - start) / binMs));

  // First pass: series sizes, to pick the largest ones.
  const sizes = new Map<string, number>();
  const keys: string[] = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const k = key(rows[i]!);
    keys[i] = k;
    sizes.set(k, (sizes.get(k) ?? 0) + 1);
  }
  const ranked = [...sizes.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const kept = ranked.length > MAX_SERIES ? ranked.slice(0, MAX_SERIES - 1) : ranked;
  const series = kept.map(([k]) => k);
  const hasOther = ranked.length > kept.length;
  if (hasOther) series.push(OTHER);
  const index = new Map<string, number>(kept.map(([k], i) => [k, i]));
  const otherIndex = hasOther ? series.length - 1 : -1;

  const counts = series.map(() => new Uint32Array(bins));
  const totals = new Uint32Array(bins);
  const seriesTotals = series.map(() => 0);
  let total = 0;
  for (let i = 0; i < rows.length; i++) {
    const m = minutes[i]!;
    if (Number.isNaN(m) || m < start || m >= end) continue;
    const b = Math.floor((m - start) / binMs);
    if (b < 0 || b >= bins) continue;
    const s = index.get(keys[i]!) ?? otherIndex;
    counts[s]![b]!++;
    totals[b]!++;
    seriesTotals[s]!++;
    total++;
  }
  let max = 0;
  for (let b = 0; b < bins; b++) if (totals[b]! > max) max = totals[b]!;
  return { start, binMs, bins, series, counts, totals, seriesTotals, max, total };
}

/** The time range of bin `b`, ms. */
export function binRange(chart: ChartBins, b: number): { from: number; to: number } {
  const from = chart.start + b * chart.binMs;
  return { from, to: from + chart.binMs };
}

/** A sentence describing the chart, for screen readers and the caption. */
export function describeChart(chart: ChartBins, group: ChartGroup, noun = 'events'): string {
  if (chart.total === 0) return `No ${noun} in this range.`;
  let busiest = 0;
  for (let b = 1; b < chart.bins; b++) if (chart.totals[b]! > chart.totals[busiest]!) busiest = b;
  const at = new Date(binRange(chart, busiest).from);
  const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  const parts = chart.series.map((s, i) => `${s} ${chart.seriesTotals[i]}`).join(', ');
  return (
    `${chart.total.toLocaleString('en-US')} ${noun}, counted per ${binLabel(chart.binMs)}, by ${group}: ${parts}. ` +
    `Busiest: ${chart.max} at ${hhmm}.`
  );
}
