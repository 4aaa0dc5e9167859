// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setBackend } from '../src/lib/api';
import { listenForPerfRequests, markPainted, markRowsPainted, timed } from '../src/lib/perf';
import { createStub } from '../src/stub';

afterEach(() => setBackend(null));

describe('paint marks', () => {
  it('reports a mark only after two animation frames, with the elapsed time and rows', async () => {
    const stub = createStub({ rows: 10 });
    setBackend(stub);
    const frames: FrameRequestCallback[] = [];
    const raf = vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => {
      frames.push(cb);
      return frames.length;
    });
    const start = performance.now() - 50;
    markPainted('timeline', start, 100000);
    expect(frames).toHaveLength(1);
    frames.shift()!(0);
    await new Promise((r) => setTimeout(r, 5));
    expect(stub.marks).toHaveLength(0); // first frame: not painted yet
    frames.shift()!(0);
    await vi.waitFor(() => expect(stub.marks).toHaveLength(1));
    expect(stub.marks[0]!.name).toBe('timeline');
    expect(stub.marks[0]!.rows).toBe(100000);
    expect(stub.marks[0]!.ms).toBeGreaterThanOrEqual(50);
    raf.mockRestore();
  });

  it('never throws when the backend rejects the mark', async () => {
    setBackend({ kind: 'stub', invoke: () => Promise.reject(new Error('gone')), listen: () => Promise.resolve(() => {}) });
    const raf = vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => {
      cb(0);
      return 1;
    });
    expect(() => markPainted('shell', 0)).not.toThrow();
    await new Promise((r) => setTimeout(r, 5));
    raf.mockRestore();
  });
});

/** A list of 28 px rows at `indexes`, `placeholders` among them; the viewport shows rows 10..20. */
function fakeList(indexes: number[], placeholders: number[] = []): HTMLElement {
  const list = document.createElement('div');
  for (const i of indexes) {
    const row = document.createElement('div');
    row.className = placeholders.includes(i) ? 'vrow placeholder' : 'vrow';
    row.dataset.index = String(i);
    list.append(row);
  }
  const rect = (top: number, height: number) => ({ top, bottom: top + height, height, left: 0, right: 100, width: 100, x: 0, y: top, toJSON: () => ({}) }) as DOMRect;
  vi.spyOn(list, 'getBoundingClientRect').mockReturnValue(rect(280, 280));
  for (const row of list.querySelectorAll<HTMLElement>('.vrow')) {
    vi.spyOn(row, 'getBoundingClientRect').mockImplementation(() => rect(Number(row.dataset.index) * 28, 28));
  }
  document.body.append(list);
  return list;
}

/** Runs animation frames by hand, at the times given. */
function manualFrames(): { run(now?: number): void; pending(): number; restore(): void } {
  let frames: FrameRequestCallback[] = [];
  const raf = vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => {
    frames.push(cb);
    return frames.length;
  });
  const caf = vi.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => {
    frames = [];
  });
  return {
    run(now = 0) {
      const due = frames;
      frames = [];
      for (const cb of due) cb(now);
    },
    pending: () => frames.length,
    restore() {
      raf.mockRestore();
      caf.mockRestore();
    },
  };
}

describe('rows painted', () => {
  it('waits for the rows in view to be real rows, then reports the window on screen', async () => {
    const stub = createStub({ rows: 10 });
    setBackend(stub);
    const frames = manualFrames();
    const list = fakeList([8, 9, 10, 11, 12, 19, 20, 21], [11]);
    markRowsPainted('timeline-jump', performance.now(), list, 1000);
    frames.run();
    frames.run();
    frames.run();
    await new Promise((r) => setTimeout(r, 5));
    expect(stub.marks).toHaveLength(0); // row 11 is a placeholder
    list.querySelector('[data-index="11"]')!.classList.remove('placeholder');
    frames.run(); // the check passes
    frames.run(); // that frame painted
    await vi.waitFor(() => expect(stub.marks).toHaveLength(3));
    expect(stub.marks.map((m) => [m.name, m.rows])).toEqual([
      ['timeline-jump', 1000],
      ['timeline-jump-first', 10],
      ['timeline-jump-end', 20],
    ]);
    frames.restore();
    list.remove();
  });
});

describe('perf requests', () => {
  it('answers only the perf requests of the hash: the total, and the frame monitor', async () => {
    const stub = createStub({ rows: 10 });
    setBackend(stub);
    const frames = manualFrames();
    const list = fakeList([]);
    list.dataset.total = '42';
    const stop = listenForPerfRequests(list);
    // jsdom fires hashchange itself, a task later.
    const go = async (hash: string) => {
      window.location.hash = hash;
      await new Promise((r) => setTimeout(r, 5));
    };
    await go('#/timeline?repo=/a&tool=Edit');
    await go('#/timeline?repo=/a&perf=total&perf_n=1');
    await vi.waitFor(() => expect(stub.marks).toHaveLength(1));
    expect(stub.marks[0]).toMatchObject({ name: 'timeline-total', rows: 42 });

    await go('#/timeline?repo=/a&perf=frames-start&perf_n=2');
    frames.run(1000);
    frames.run(1016);
    list.dataset.total = '50';
    frames.run(1150); // a 134 ms gap, and a new total
    frames.run(1166);
    await go('#/timeline?repo=/a&perf=frames-stop&perf_n=3');
    expect(frames.pending()).toBe(0);
    await vi.waitFor(() => expect(stub.marks).toHaveLength(6));
    expect(stub.marks.slice(1).map((m) => [m.name, m.rows])).toEqual([
      ['timeline-total', 42],
      ['timeline-total', 50],
      ['frames', 4],
      ['frames-at', null],
      ['frames-long', 1],
    ]);
    expect(stub.marks[3]!.ms).toBe(134);
    expect(stub.marks[4]!.ms).toBe(150); // the long gap ended 150 ms after the first frame

    stop();
    await go('#/timeline?repo=/a&perf=total&perf_n=4');
    await new Promise((r) => setTimeout(r, 5));
    expect(stub.marks).toHaveLength(6);
    frames.restore();
    list.remove();
  });

  it('names the work timed in the longest gap, and the longest run of each kind', async () => {
    const stub = createStub({ rows: 10 });
    setBackend(stub);
    const frames = manualFrames();
    const list = fakeList([]);
    const stop = listenForPerfRequests(list);
    const go = async (hash: string) => {
      window.location.hash = hash;
      await new Promise((r) => setTimeout(r, 5));
    };
    // Work that takes `ms` by the page's clock.
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock);
    const work = (name: string, ms: number): void => timed(name, () => void (clock += ms));
    expect(timed('outside', () => 'done')).toBe('done'); // not monitored: runs, is not noted
    work('outside', 5);
    await go('#/timeline?repo=/a&perf=frames-start&perf_n=5');
    frames.run(1000);
    work('sync', 3);
    frames.run(1016);
    work('sync', 2);
    work('chart', 90);
    work('sync', 4);
    frames.run(1130); // the longest gap: the chart and two syncs in it
    work('sync', 12);
    frames.run(1146);
    await go('#/timeline?repo=/a&perf=frames-stop&perf_n=6');
    await vi.waitFor(() => expect(stub.marks.map((m) => m.name)).toContain('frames-long'));
    const marks = stub.marks.map((m) => [m.name, m.ms, m.rows]);
    expect(marks).toEqual([
      ['frames-work:sync', 6, 2],
      ['frames-work:chart', 90, 1],
      ['frames-max:sync', 12, 4],
      ['frames-max:chart', 90, 1],
      ['frames', 114, 4],
      ['frames-at', 130, null],
      ['frames-long', 0, 1],
    ]);
    // Stopped: timed work is no longer noted, nor reported at the next stop.
    work('sync', 1);
    await go('#/timeline?repo=/a&perf=frames-start&perf_n=7');
    frames.run(2000);
    await go('#/timeline?repo=/a&perf=frames-stop&perf_n=8');
    await vi.waitFor(() => expect(stub.marks).toHaveLength(marks.length + 3));
    expect(stub.marks.slice(marks.length).map((m) => m.name)).toEqual(['frames', 'frames-at', 'frames-long']);
    now.mockRestore();
    stop();
    frames.restore();
    list.remove();
  });
});
