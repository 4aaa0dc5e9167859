import { describe, expect, it } from 'vitest';
import {
  emptyFilter,
  filterToParams,
  formatHash,
  normalizeFilter,
  paramsToFilter,
  parseHash,
  timelineHashForRepo,
  type TimelineFilter,
} from '../src/lib/route';

const filter = (over: Partial<TimelineFilter>): TimelineFilter => normalizeFilter({ ...emptyFilter(), ...over });

describe('hash routes', () => {
  it('parses the two screens and sends anything else to projects', () => {
    expect(parseHash('#/projects')).toEqual({ view: 'projects' });
    expect(parseHash('')).toEqual({ view: 'projects' });
    expect(parseHash('#/nope')).toEqual({ view: 'projects' });
    expect(parseHash('#/timeline').view).toBe('timeline');
    expect(parseHash('#/timeline/')).toEqual({ view: 'timeline', filter: filter({}) });
  });

  it('a bare timeline means every project', () => {
    const r = parseHash('#/timeline');
    expect(r).toEqual({ view: 'timeline', filter: { ...emptyFilter(), all: true } });
  });

  it('formats a repo timeline with readable paths', () => {
    expect(timelineHashForRepo('/home/dev/src/hookd')).toBe('#/timeline?repo=/home/dev/src/hookd');
    expect(formatHash({ view: 'projects' })).toBe('#/projects');
  });

  it('writes filters in a fixed order and drops empty ones', () => {
    const f = filter({ repo: '/r', tool: 'Edit', file: 'src/a.rs', since: '1h', agent: '  ', limit: 50 });
    expect(filterToParams(f)).toBe('repo=/r&file=src/a.rs&tool=Edit&since=1h&limit=50');
    expect(filterToParams(filter({}))).toBe('all=true');
  });

  it('round-trips every filter, including awkward characters', () => {
    const cases: Partial<TimelineFilter>[] = [
      {},
      { repo: '/home/dev/src/hookd' },
      { repo: '/home/me/My Projects/a+b&c=d#e?f%g', file: 'dir with space/ü.rs' },
      { file: 'src/lib.rs', agent: 'claude-main', branch: 'feat/x', tool: 'multiedit', since: '2d', until: '2026-11-21T10:00:00Z' },
      { repo: '/r', limit: 1000 },
      { since: '1h30m' },
    ];
    for (const c of cases) {
      const f = filter(c);
      const hash = formatHash({ view: 'timeline', filter: f });
      expect(parseHash(hash), hash).toEqual({ view: 'timeline', filter: f });
    }
  });

  it('does not turn + into a space (unlike URLSearchParams)', () => {
    expect(paramsToFilter('repo=/src/c++').repo).toBe('/src/c++');
    expect(paramsToFilter('file=a%2Bb').file).toBe('a+b');
  });

  it('accepts fully encoded values and stray percent signs', () => {
    expect(paramsToFilter('repo=%2Fhome%2Fdev%2Fx').repo).toBe('/home/dev/x');
    expect(paramsToFilter('file=100%').file).toBe('100%');
  });

  it('normalises: repo wins over all, bad limits are dropped, blanks become null', () => {
    expect(paramsToFilter('all=true&repo=/r')).toMatchObject({ repo: '/r', all: false });
    expect(paramsToFilter('limit=-3').limit).toBeNull();
    expect(paramsToFilter('limit=abc').limit).toBeNull();
    expect(paramsToFilter('file=&agent=%20')).toMatchObject({ file: null, agent: null, all: true });
  });
});

describe('session, event type and activity mode in the hash', () => {
  it('writes them after the agent, mode last, and reads them back', () => {
    const f = filter({ repo: '/r', agent: 'claude-main', session: 'abc-123', event_type: 'PostToolUse', mode: 'activity' });
    expect(filterToParams(f)).toBe('repo=/r&agent=claude-main&session=abc-123&event_type=PostToolUse&mode=activity');
    const hash = formatHash({ view: 'timeline', filter: f });
    expect(parseHash(hash)).toEqual({ view: 'timeline', filter: f });
  });

  it('defaults to the mutation list; an unknown mode is the mutation list', () => {
    expect(paramsToFilter('repo=/r').mode).toBe('mutations');
    expect(paramsToFilter('repo=/r&mode=charts').mode).toBe('mutations');
    expect(filterToParams(filter({ repo: '/r', mode: 'mutations' }))).toBe('repo=/r');
    expect(paramsToFilter('session=%20&event_type=')).toMatchObject({ session: null, event_type: null });
  });
});
