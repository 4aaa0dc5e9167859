import { describe, expect, it } from 'vitest';
import { benchHash, formatHash, parseHash } from '../src/lib/route';

describe('bench route', () => {
  it('round-trips project and event', () => {
    const hash = benchHash('/home/dev/src/my app', 'PreToolUse');
    expect(hash).toBe('#/bench?project=/home/dev/src/my%20app&event=PreToolUse');
    expect(parseHash(hash)).toEqual({ view: 'bench', project: '/home/dev/src/my app', event: 'PreToolUse' });
    expect(formatHash(parseHash(hash))).toBe(hash);
  });

  it('leaves both out when not chosen', () => {
    expect(parseHash('#/bench')).toEqual({ view: 'bench', project: null, event: null });
    expect(benchHash(null, null)).toBe('#/bench');
    expect(benchHash(null, 'Stop')).toBe('#/bench?event=Stop');
    expect(parseHash('#/bench?project=&event=')).toEqual({ view: 'bench', project: null, event: null });
  });
});
