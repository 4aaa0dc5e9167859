// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setBackend } from '../src/lib/api';
import { markPainted } from '../src/lib/perf';
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
