// The timeline's activity chart: rows per time bin over the filtered range,
// stacked by agent or by tool, drawn as SVG above the list.
//
// The counts are the backend's (a `Histogram`, counted by SQL); the chart
// asks its owner for them again when the grouping changes. The
// chart is one tab stop: ←/→ move a cursor over the bins (its counts are
// read out in the caption), Enter or a click narrows the timeline to that
// bin's time range. The full description is the SVG's aria-label.

import { binLabel, binRange, describeChart, fromHistogram, OTHER, type ChartBins, type ChartGroup } from '../lib/chart';
import type { Histogram } from '../lib/types';
import { formatCount, h } from './dom';

const SVG = 'http://www.w3.org/2000/svg';
const BAR = 10;
const HEIGHT = 56;

/** Tools with their own colour (the same as in the list). */
const TOOL_COLORS = new Set(['Edit', 'Write', 'MultiEdit', 'Bash', 'NotebookEdit']);

/** What the chart draws. */
export interface ChartInput {
  /** The counts, grouped as `group()` asked. */
  histogram: Histogram;
  /** What a row is, plural ("mutations", "events"). */
  noun: string;
}

export interface ActivityChart {
  el: HTMLElement;
  /** New counts: redraws. */
  update(input: ChartInput): void;
  /** The current bins (tests). */
  bins(): ChartBins | null;
  /** Grouping shown. */
  group(): ChartGroup;
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

function clock(ms: number, withDate: boolean): string {
  const d = new Date(ms);
  const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  return withDate ? `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ${hm}` : hm;
}

/**
 * The chart; `onSelectRange` narrows the timeline to a bin, `onGroup` asks
 * for the counts grouped anew (then `update` brings them).
 */
export function createActivityChart(onSelectRange: (from: number, to: number) => void, onGroup: (group: ChartGroup) => void): ActivityChart {
  let group: ChartGroup = 'agent';
  let input: ChartInput | null = null;
  let chart: ChartBins | null = null;
  let cursor = -1;

  const buttons = (['agent', 'tool'] as const).map((g) =>
    h('button', {
      id: `chart-group-${g}`,
      class: 'button small chart-toggle',
      attrs: { type: 'button', 'aria-pressed': String(g === group) },
      text: g === 'agent' ? 'By agent' : 'By tool',
      on: {
        click: () => {
          if (group === g) return;
          group = g;
          for (const b of buttons) b.setAttribute('aria-pressed', String(b.id === `chart-group-${g}`));
          el.dataset.group = group;
          onGroup(group);
        },
      },
    }),
  );
  const title = h('span', { class: 'chart-title' });
  const legend = h('ul', { class: 'chart-legend', attrs: { 'aria-label': 'Series' } });
  const plot = svg('svg', { id: 'timeline-chart-svg', class: 'chart-svg', preserveAspectRatio: 'none', tabindex: 0, role: 'img' });
  const axis = h('div', { class: 'chart-axis mono', attrs: { 'aria-hidden': 'true' } });
  const readout = h('p', { id: 'timeline-chart-readout', class: 'chart-readout', attrs: { 'aria-live': 'polite' } });
  const el = h(
    'figure',
    { id: 'timeline-chart', class: 'activity-chart', data: { group } },
    h('figcaption', { class: 'chart-head' }, title, h('div', { class: 'chart-toggles', attrs: { role: 'group', 'aria-label': 'Group the chart' } }, ...buttons), legend),
    plot,
    axis,
    readout,
  );

  // Until the first counts arrive, say so rather than show an empty box.
  title.textContent = 'Activity per minute';
  readout.textContent = 'Counting…';

  plot.addEventListener('click', (ev) => {
    const bin = (ev.target as Element).closest('[data-bin]');
    if (bin) select(Number(bin.getAttribute('data-bin')));
  });
  plot.addEventListener('mousemove', (ev) => {
    const bin = (ev.target as Element).closest('[data-bin]');
    if (bin) read(Number(bin.getAttribute('data-bin')));
  });
  plot.addEventListener('mouseleave', () => read(cursor));
  plot.addEventListener('keydown', (ev) => {
    if (!chart) return;
    const last = chart.bins - 1;
    let next = cursor;
    if (ev.key === 'ArrowRight') next = cursor < 0 ? last : Math.min(last, cursor + 1);
    else if (ev.key === 'ArrowLeft') next = cursor < 0 ? last : Math.max(0, cursor - 1);
    else if (ev.key === 'Home') next = 0;
    else if (ev.key === 'End') next = last;
    else if ((ev.key === 'Enter' || ev.key === ' ') && cursor >= 0) {
      ev.preventDefault();
      select(cursor);
      return;
    } else return;
    ev.preventDefault();
    cursor = next;
    drawCursor();
    read(cursor);
  });
  plot.addEventListener('blur', () => {
    cursor = -1;
    drawCursor();
    read(-1);
  });

  /** The colour class of a series (colours are CSS variables; the CSP forbids inline styles). */
  function color(name: string, i: number): string {
    if (name === OTHER) return 'chart-c-other';
    if (group === 'tool' && TOOL_COLORS.has(name)) return `chart-c-tool-${name.toLowerCase()}`;
    return `chart-c-${(i % 6) + 1}`;
  }

  function select(b: number): void {
    if (!chart || b < 0 || b >= chart.bins) return;
    const { from, to } = binRange(chart, b);
    onSelectRange(from, to);
  }

  function read(b: number): void {
    if (!chart || b < 0 || b >= chart.bins) {
      readout.textContent = chart && chart.total > 0 ? 'Click a bar (or focus the chart, ←/→ and Enter) to show only that time.' : '';
      return;
    }
    const { from, to } = binRange(chart, b);
    const parts = chart.series
      .map((s, i) => [s, chart!.counts[i]![b]!] as const)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => `${s} ${n}`);
    const n = chart.totals[b]!;
    readout.textContent = `${clock(from, true)}–${clock(to, false)}: ${formatCount(n)} ${input?.noun ?? 'events'}${parts.length ? ` (${parts.join(', ')})` : ''}`;
  }

  let cursorRect: SVGRectElement | null = null;
  function drawCursor(): void {
    cursorRect?.remove();
    cursorRect = null;
    if (!chart || cursor < 0) return;
    cursorRect = svg('rect', { class: 'chart-cursor', x: cursor * BAR, y: 0, width: BAR, height: HEIGHT });
    plot.appendChild(cursorRect);
  }

  function draw(): void {
    plot.replaceChildren();
    legend.replaceChildren();
    cursor = -1;
    cursorRect = null;
    if (!chart || !input) return;
    const c = chart;
    el.dataset.group = group;
    el.dataset.bins = String(c.bins);
    el.dataset.total = String(c.total);
    plot.setAttribute('viewBox', `0 0 ${c.bins * BAR} ${HEIGHT}`);
    const summary = describeChart(c, group, input.noun);
    plot.setAttribute('aria-label', `Activity chart. ${summary}`);
    title.textContent = `${input.noun[0]!.toUpperCase()}${input.noun.slice(1)} per ${binLabel(c.binMs)}`;
    title.title = summary;
    const frag = document.createDocumentFragment();
    const scale = c.max > 0 ? HEIGHT / c.max : 0;
    for (let b = 0; b < c.bins; b++) {
      const total = c.totals[b]!;
      const { from, to } = binRange(c, b);
      const g = svg('g', { 'data-bin': b, 'data-count': total, 'data-testid': 'chart-bin', class: 'chart-bin' });
      // The whole column is the click target, bars or not.
      g.appendChild(svg('rect', { class: 'chart-hit', x: b * BAR, y: 0, width: BAR, height: HEIGHT }));
      const tip = svg('title', {});
      tip.textContent = `${clock(from, true)}–${clock(to, false)}: ${total} ${input.noun}`;
      g.appendChild(tip);
      let y = HEIGHT;
      for (let s = 0; s < c.series.length; s++) {
        const n = c.counts[s]![b]!;
        if (n === 0) continue;
        const hgt = n * scale;
        y -= hgt;
        g.appendChild(svg('rect', { x: b * BAR + 1, y, width: BAR - 2, height: hgt, class: `chart-bar ${color(c.series[s]!, s)}`, 'data-series': c.series[s]! }));
      }
      frag.appendChild(g);
    }
    plot.appendChild(frag);
    c.series.forEach((s, i) => {
      legend.appendChild(
        h(
          'li',
          { class: 'chart-legend-item', data: { series: s } },
          h('span', { class: `chart-swatch ${color(s, i)}`, attrs: { 'aria-hidden': 'true' } }),
          h('span', { class: 'chart-series-name', text: s, attrs: { title: s } }),
          h('span', { class: 'chart-series-count muted', text: formatCount(c.seriesTotals[i]!) }),
        ),
      );
    });
    const wide = c.bins * c.binMs > 20 * 3600_000;
    axis.replaceChildren(
      h('span', { text: clock(c.start, wide) }),
      h('span', { text: `max ${formatCount(c.max)}` }),
      h('span', { text: clock(c.start + c.bins * c.binMs, wide) }),
    );
    read(-1);
  }

  return {
    el,
    update(next: ChartInput) {
      // The keyboard cursor stays on its time when live counts redraw the chart.
      const at = chart && cursor >= 0 ? binRange(chart, cursor).from : null;
      input = next;
      chart = fromHistogram(next.histogram);
      draw();
      if (at !== null && document.activeElement === plot) {
        const c = chart;
        const b = c === null ? -1 : Array.from({ length: c.bins }, (_, i) => binRange(c, i).from).indexOf(at);
        if (b >= 0) {
          cursor = b;
          drawCursor();
          read(b);
        }
      }
    },
    bins: () => chart,
    group: () => group,
  };
}
