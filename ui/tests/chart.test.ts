import { describe, expect, it } from 'vitest';
import { OTHER, binLabel, binRange, describeChart, fromHistogram } from '../src/lib/chart';
import { histogramOf } from '../src/stub/timeline';
import type { Histogram } from '../src/lib/types';

const MIN = 60_000;

const histogram = (over: Partial<Histogram> = {}): Histogram => ({
  bin: 'minute',
  start: '2026-11-21T10:00:00.000Z',
  end: '2026-11-21T10:03:00.000Z',
  bins: 3,
  series: [
    { name: 'alice', counts: [2, 0, 1], total: 3 },
    { name: 'bob', counts: [0, 1, 0], total: 1 },
  ],
  total: 4,
  first: '2026-11-21T10:00:05.000Z',
  last: '2026-11-21T10:02:30.000Z',
  seen: { '': 9 },
  ...over,
});

describe('fromHistogram', () => {
  it('draws the backend\'s counts: bins, totals per bin and series, the largest bin', () => {
    const c = fromHistogram(histogram());
    expect(c.start).toBe(Date.parse('2026-11-21T10:00:00.000Z'));
    expect(c.binMs).toBe(MIN);
    expect(c.bins).toBe(3);
    expect(c.series).toEqual(['alice', 'bob']);
    expect([...c.totals]).toEqual([2, 1, 1]);
    expect(c.seriesTotals).toEqual([3, 1]);
    expect(c.max).toBe(2);
    expect(c.total).toBe(4);
    expect(binRange(c, 1)).toEqual({ from: c.start + MIN, to: c.start + 2 * MIN });
  });

  it('reads hours and days, and an empty chart', () => {
    expect(fromHistogram(histogram({ bin: 'hour' })).binMs).toBe(60 * MIN);
    expect(fromHistogram(histogram({ bin: 'day' })).binMs).toBe(1440 * MIN);
    const empty = fromHistogram(histogram({ series: [], total: 0, bins: 1 }));
    expect(empty.max).toBe(0);
    expect(describeChart(empty, 'agent')).toBe('No events in this range.');
  });
});

describe('the stub\'s histogram (as the core counts)', () => {
  const rows = (n: number, spacingMs: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      event_timestamp: new Date(Date.parse('2026-11-21T10:00:00.000Z') + i * spacingMs).toISOString(),
      agent_id: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'][i % 8]!,
      tool_name: 'Write',
      hook_type: 'post_tool_use',
    }));

  it('picks minute, hour or day from the range, and sums small series as other', () => {
    const minutes = histogramOf(rows(30, MIN), { series: 'agent' }, {}, (r) => r.agent_id);
    expect(minutes.bin).toBe('minute');
    expect(minutes.total).toBe(30);
    expect(minutes.series.map((s) => s.name)).toEqual(['a', 'b', 'c', 'd', 'e', OTHER]);
    expect(minutes.series.at(-1)!.total).toBe(10);
    expect(histogramOf(rows(30, 60 * MIN), { series: 'agent' }, {}, (r) => r.agent_id).bin).toBe('hour');
    expect(histogramOf(rows(30, 1440 * MIN), { series: 'agent' }, {}, (r) => r.agent_id).bin).toBe('day');
  });
});

describe('labels', () => {
  it('names bin widths and describes the chart', () => {
    expect(binLabel(MIN)).toBe('minute');
    expect(binLabel(5 * MIN)).toBe('5 minutes');
    expect(binLabel(60 * MIN)).toBe('hour');
    expect(binLabel(180 * MIN)).toBe('3 hours');
    expect(binLabel(1440 * MIN)).toBe('day');
    const c = fromHistogram(histogram({ series: [{ name: 'alice', counts: [1, 0, 0], total: 1 }, { name: 'bob', counts: [1, 0, 0], total: 1 }], total: 2 }));
    expect(describeChart(c, 'agent', 'mutations')).toMatch(/^2 mutations, counted per minute, by agent: alice 1, bob 1\. Busiest: 2 at \d\d:\d\d\.$/);
  });
});
