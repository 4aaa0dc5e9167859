import { describe, expect, it } from 'vitest';
import { MAX_CELLS, diffStat, lineDiff, splitLines } from '../src/lib/diff';

const ops = (old: string, next: string): string[] => lineDiff(old, next).map((l) => `${{ eq: ' ', del: '-', add: '+' }[l.op]}${l.text}`);

describe('lineDiff', () => {
  it('shows a changed line as removed then added, with context', () => {
    expect(ops('a\nb\nc\n', 'a\nB\nc\n')).toEqual([' a', '-b', '+B', ' c']);
  });

  it('numbers lines on both sides', () => {
    const d = lineDiff('a\nb\nc', 'a\nx\ny\nc');
    expect(d).toEqual([
      { op: 'eq', text: 'a', oldNo: 1, newNo: 1 },
      { op: 'del', text: 'b', oldNo: 2 },
      { op: 'add', text: 'x', newNo: 2 },
      { op: 'add', text: 'y', newNo: 3 },
      { op: 'eq', text: 'c', oldNo: 3, newNo: 4 },
    ]);
  });

  it('handles pure insertions and deletions', () => {
    expect(ops('', 'x\ny\n')).toEqual(['+x', '+y']);
    expect(ops('x\ny\n', '')).toEqual(['-x', '-y']);
    expect(ops('a\nc', 'a\nb\nc')).toEqual([' a', '+b', ' c']);
    expect(ops('a\nb\nc', 'a\nc')).toEqual([' a', '-b', ' c']);
  });

  it('finds a minimal alignment in the middle', () => {
    // LCS of "x a b y" and "a b z" is "a b".
    expect(ops('x\na\nb\ny', 'a\nb\nz')).toEqual(['-x', ' a', ' b', '-y', '+z']);
    expect(diffStat(lineDiff('x\na\nb\ny', 'a\nb\nz'))).toEqual({ added: 1, removed: 2 });
  });

  it('reports identical texts as unchanged', () => {
    expect(ops('same\n', 'same\n')).toEqual([' same']);
    expect(diffStat(lineDiff('a\nb', 'a\nb'))).toEqual({ added: 0, removed: 0 });
  });

  it('treats CRLF like LF and ignores the final newline', () => {
    expect(splitLines('a\r\nb\r\n')).toEqual(['a', 'b']);
    expect(splitLines('')).toEqual([]);
    expect(splitLines('\n')).toEqual(['']);
  });

  it('falls back to remove-then-add for huge middles instead of a quadratic table', () => {
    const n = Math.ceil(Math.sqrt(MAX_CELLS)) + 10;
    const a = Array.from({ length: n }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: n }, (_, i) => (i % 2 ? `a${i}` : `b${i}`)).join('\n');
    const t = performance.now();
    const d = lineDiff(a, b);
    expect(performance.now() - t).toBeLessThan(2000);
    expect(diffStat(d)).toEqual({ added: n - 1, removed: n - 1 }); // first line differs, last line (odd) shared
  });
});
