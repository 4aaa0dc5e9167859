// The timeline's activity chart, as drawn: rows per time bin, split into
// series by agent or by tool. The counting is SQL's (`timeline_histogram`,
// `activity_histogram`: per minute, hour or day over the filter's range);
// this turns its answer into what the chart draws and reads out.

import type { Histogram } from './types';

/** What the series are. */
export type ChartGroup = 'agent' | 'tool';

/** At most this many series; the rest are summed as `other`. */
export const MAX_SERIES = 6;

/** At most this many bins (the backend picks minute, hour or day to fit). */
export const MAX_BINS = 240;

/** Name of the series that sums the smaller ones. */
export const OTHER = 'other';

/** Rows per bin and series. */
export interface ChartBins {
  /** Start of the first bin, ms since the epoch. */
  start: number;
  /** Width of a bin, ms (a minute, an hour or a day). */
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
const BIN_MS = { minute: MINUTE, hour: 60 * MINUTE, day: 1440 * MINUTE } as const;

/** The chart of a histogram the backend counted. */
export function fromHistogram(histogram: Histogram): ChartBins {
  const bins = Math.max(1, histogram.bins);
  const start = Date.parse(histogram.start);
  const series = histogram.series.map((s) => s.name);
  const counts = histogram.series.map((s) => Uint32Array.from({ length: bins }, (_, b) => s.counts[b] ?? 0));
  const totals = new Uint32Array(bins);
  for (const c of counts) for (let b = 0; b < bins; b++) totals[b]! += c[b]!;
  let max = 0;
  for (let b = 0; b < bins; b++) if (totals[b]! > max) max = totals[b]!;
  return {
    start: Number.isNaN(start) ? 0 : start,
    binMs: BIN_MS[histogram.bin],
    bins,
    series,
    counts,
    totals,
    seriesTotals: histogram.series.map((s) => s.total),
    max,
    total: histogram.total,
  };
}

/** "minute", "5 minutes", "hour", "3 hours", "day" … */
export function binLabel(binMs: number): string {
  const minutes = Math.round(binMs / MINUTE);
  if (minutes % 1440 === 0) return minutes === 1440 ? 'day' : `${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'hour' : `${minutes / 60} hours`;
  return minutes === 1 ? 'minute' : `${minutes} minutes`;
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
