import { describe, expect, it } from 'vitest';
import { BIN_WIDTHS_MS, MAX_SERIES, MIN_SPAN_MS, OTHER, binLabel, binRange, binRows, binWidth, describeChart, minuteParser } from '../src/lib/chart';

interface R {
  t: string;
  a: string;
}
const row = (t: string, a = 'alice'): R => ({ t, a });
const bin = (rows: R[], opts = {}) => binRows(rows, (r) => r.t, (r) => r.a, opts);
const MIN = 60_000;

describe('minuteParser', () => {
  it('floors stored timestamps to their minute, and parses anything else in full', () => {
    const p = minuteParser();
    expect(p('2026-11-21T10:00:59.999Z')).toBe(Date.parse('2026-11-21T10:00:00Z'));
    expect(p('2026-11-21T10:00:00.000Z')).toBe(Date.parse('2026-11-21T10:00:00Z'));
    expect(p('2026-11-21T12:30:10+02:00')).toBe(Date.parse('2026-11-21T10:30:00Z'));
    expect(Number.isNaN(p('not a time'))).toBe(true);
  });
});

describe('binRows', () => {
  it('counts rows per minute and series over the rows\' own range, at least half an hour of it', () => {
    const c = bin([
      row('2026-11-21T10:00:05.000Z'),
      row('2026-11-21T10:00:45.000Z', 'bob'),
      row('2026-11-21T10:02:00.000Z'),
    ]);
    expect(MIN_SPAN_MS).toBe(30 * MIN);
    expect(c.binMs).toBe(MIN);
    // Three minutes of rows: the chart ends after the last one and shows the half hour before it.
    expect(c.start).toBe(Date.parse('2026-11-21T09:33:00Z'));
    expect(c.bins).toBe(30);
    expect(c.series).toEqual(['alice', 'bob']);
    expect([...c.totals.slice(27)]).toEqual([2, 0, 1]);
    expect(c.totals.slice(0, 27).every((n) => n === 0)).toBe(true);
    expect([...c.counts[0]!.slice(27)]).toEqual([1, 0, 1]);
    expect([...c.counts[1]!.slice(27)]).toEqual([1, 0, 0]);
    expect(c.seriesTotals).toEqual([2, 1]);
    expect(c.max).toBe(2);
    expect(c.total).toBe(3);
    expect(binRange(c, 29)).toEqual({ from: Date.parse('2026-11-21T10:02:00Z'), to: Date.parse('2026-11-21T10:03:00Z') });

    // A longer history is shown whole, from its first minute.
    const long = bin([row('2026-11-21T09:00:10.000Z'), row('2026-11-21T10:00:00.000Z')]);
    expect(long.start).toBe(Date.parse('2026-11-21T09:00:00Z'));
    expect(long.bins).toBe(61);
    expect([long.totals[0], long.totals[60]]).toEqual([1, 1]);
  });

  it('uses the filter\'s range and leaves rows outside it out', () => {
    const since = Date.parse('2026-11-21T10:00:00Z');
    const until = Date.parse('2026-11-21T11:00:00Z');
    const c = bin([row('2026-11-21T09:59:00.000Z'), row('2026-11-21T10:30:00.000Z'), row('2026-11-21T11:00:00.000Z')], { since, until });
    expect(c.bins).toBe(60);
    expect(c.total).toBe(1);
    expect(c.totals[30]).toBe(1);
  });

  it('widens the bins to stay under maxBins, aligned to the width', () => {
    const rows = [row('2026-11-21T10:03:00.000Z'), row('2026-11-21T22:58:00.000Z')];
    const c = bin(rows, { maxBins: 120 });
    expect(c.binMs).toBe(10 * MIN); // 13 hours / 120 bins → 10 minutes
    expect(c.start % c.binMs).toBe(0);
    expect(c.bins).toBeLessThanOrEqual(120);
    expect(c.total).toBe(2);
    expect(binWidth(3 * 24 * 3600_000, 120)).toBe(60 * MIN);
    expect(binWidth(400 * 24 * 3600_000, 120)).toBe(4 * 24 * 60 * MIN);
    expect(BIN_WIDTHS_MS[0]).toBe(MIN);
  });

  it('keeps the largest series and sums the rest as other', () => {
    const rows: R[] = [];
    for (let i = 0; i < 9; i++) for (let n = 0; n <= i; n++) rows.push(row('2026-11-21T10:00:00.000Z', `agent-${i}`));
    const c = bin(rows);
    expect(c.series).toHaveLength(MAX_SERIES);
    expect(c.series[0]).toBe('agent-8');
    expect(c.series[MAX_SERIES - 1]).toBe(OTHER);
    expect(c.seriesTotals.reduce((a, b) => a + b, 0)).toBe(rows.length);
    expect(c.seriesTotals[MAX_SERIES - 1]).toBe(1 + 2 + 3 + 4); // agents 0..3
  });

  it('handles no rows', () => {
    const c = bin([]);
    expect(c.total).toBe(0);
    expect(c.bins).toBe(1);
    expect(describeChart(c, 'agent')).toBe('No events in this range.');
  });

  it('bins 100,000 rows quickly', () => {
    const start = Date.parse('2026-11-18T00:00:00Z');
    const rows: R[] = [];
    for (let i = 0; i < 100_000; i++) rows.push(row(new Date(start + i * 2591).toISOString(), `a${i % 4}`));
    const t0 = performance.now();
    const c = bin(rows);
    const ms = performance.now() - t0;
    expect(c.total).toBe(100_000);
    expect(c.bins).toBeLessThanOrEqual(120);
    console.info(`chart: 100,000 rows binned in ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(1000);
  });
});

describe('labels', () => {
  it('names bin widths and describes the chart', () => {
    expect(binLabel(MIN)).toBe('minute');
    expect(binLabel(5 * MIN)).toBe('5 minutes');
    expect(binLabel(60 * MIN)).toBe('hour');
    expect(binLabel(180 * MIN)).toBe('3 hours');
    expect(binLabel(1440 * MIN)).toBe('day');
    const c = bin([row('2026-11-21T10:00:00.000Z'), row('2026-11-21T10:00:10.000Z', 'bob')]);
    expect(describeChart(c, 'agent', 'mutations')).toMatch(/^2 mutations, counted per minute, by agent: alice 1, bob 1\. Busiest: 2 at \d\d:\d\d\.$/);
  });
});
