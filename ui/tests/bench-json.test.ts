import { describe, expect, it } from 'vitest';
import { checkJson, formatJsonError, lineColumn } from '../src/lib/bench-json';

describe('checkJson', () => {
  it('accepts what JSON.parse accepts and gives its value', () => {
    for (const text of ['{}', ' {"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]}\n', '[]', '"s"', '0', '{"a":{"b":{}}}']) {
      const c = checkJson(text);
      expect(c.ok, text).toBe(true);
      if (c.ok) expect(c.value).toEqual(JSON.parse(text));
    }
  });

  it('names the line and column of the first error', () => {
    const text = '{\n  "tool_name": "Bash",\n  "tool_input": {"command": "ls"}\n  "cwd": "/r"\n}';
    const c = checkJson(text);
    expect(c.ok).toBe(false);
    if (c.ok) return;
    expect([c.line, c.column]).toEqual([4, 3]);
    expect(c.message).toBe('expected , or } after a property, found a double quote "');
    expect(formatJsonError(c)).toBe('line 4, column 3: expected , or } after a property, found a double quote "');
    expect(text[c.offset]).toBe('"');
  });

  it('explains the usual mistakes', () => {
    const cases: [string, string, number, number][] = [
      ['{"a": 1,}', 'expected a property name (no trailing comma), found “}”', 1, 9],
      ["{'a': 1}", "expected a property name in double quotes, found ' (JSON strings use double quotes)", 1, 2],
      ['{"a": tru}', 'expected a value, found “t”', 1, 7],
      ['{"a": "x', 'unterminated string', 1, 9],
      ['{"a": [1, 2,]}', 'expected a value (no trailing comma), found “]”', 1, 13],
      ['{"a": 1} x', 'expected the end of the document, found “x”', 1, 10],
      ['', 'the payload is empty: expected a JSON object, found the end of the text', 1, 1],
      ['{"a": "\\q"}', 'invalid escape in a string, found “q”', 1, 9],
      ['{"a": 01}', 'expected , or } after a property, found “1”', 1, 8],
      ['{"a":\n\t"b\tc"}', 'a control character must be escaped in a string, found a tab', 2, 4],
      ['{"a": 1\u0001}', 'expected , or } after a property, found the control character "\\u0001"', 1, 8],
    ];
    for (const [text, message, line, column] of cases) {
      const c = checkJson(text);
      expect(c.ok, text).toBe(false);
      if (c.ok) continue;
      expect([c.message, c.line, c.column], text).toEqual([message, line, column]);
      expect(() => JSON.parse(text), text).toThrow();
    }
  });

  it('counts columns from 1 after each line break', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 3)).toEqual({ line: 2, column: 1 });
    expect(lineColumn('ab\ncd', 5)).toEqual({ line: 2, column: 3 });
  });
});
