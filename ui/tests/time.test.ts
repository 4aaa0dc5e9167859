import { describe, expect, it } from 'vitest';
import { formatLocal, parseDuration, parseWhen, relativeTime } from '../src/lib/time';

const now = Date.parse('2026-11-21T12:00:00.000Z');
const ago = (ms: number): string => new Date(now - ms).toISOString();

describe('relativeTime', () => {
  it.each([
    [0, 'just now'],
    [9_000, 'just now'],
    [42_000, '42 s ago'],
    [60_000, '1 min ago'],
    [3 * 60_000 + 59_000, '3 min ago'],
    [59 * 60_000, '59 min ago'],
    [5 * 3600_000, '5 h ago'],
    [24 * 3600_000, '1 day ago'],
    [12 * 24 * 3600_000, '12 days ago'],
    [-5_000, 'just now'],
    [-3 * 60_000, 'in 3 min'],
  ])('%i ms ago → %s', (ms, text) => {
    expect(relativeTime(ago(ms), now)).toBe(text);
  });

  it('shows a date beyond 30 days, "never" for null, and garbage as is', () => {
    expect(relativeTime(ago(40 * 24 * 3600_000), now)).toMatch(/^2026-10-1[23]$/);
    expect(relativeTime(null, now)).toBe('never');
    expect(relativeTime('not a time', now)).toBe('not a time');
  });
});

describe('since/until syntax', () => {
  it('reads durations like hookd query', () => {
    expect(parseDuration('30m')).toBe(30 * 60_000);
    expect(parseDuration('1h30m')).toBe(90 * 60_000);
    expect(parseDuration('1h 30min')).toBe(90 * 60_000);
    expect(parseDuration('2d')).toBe(2 * 24 * 3600_000);
    expect(parseDuration('1w')).toBe(7 * 24 * 3600_000);
    expect(parseDuration('soon')).toBeNull();
    expect(parseDuration('5')).toBeNull();
    expect(parseDuration('1h garbage')).toBeNull();
    expect(parseDuration('3 parsecs')).toBeNull();
  });

  it('reads RFC 3339 and durations back from now', () => {
    expect(parseWhen('2026-11-21T10:00:00Z', now)).toBe(Date.parse('2026-11-21T10:00:00Z'));
    expect(parseWhen('2026-11-21T12:00:00.5+02:00', now)).toBe(Date.parse('2026-11-21T10:00:00.500Z'));
    expect(parseWhen('1h', now)).toBe(now - 3600_000);
    expect(parseWhen('2026-11-21', now)).toBeNull(); // the core needs a time and an offset
    expect(parseWhen('yesterday', now)).toBeNull();
  });

  it('formats local times', () => {
    expect(formatLocal('2026-11-21T10:00:00.123Z')).toMatch(/^2026-11-2[01] \d{2}:00:00$/);
    expect(formatLocal('bad')).toBe('bad');
  });
});
