// JSON validation with a line and column for the test bench's payload editor.
//
// `JSON.parse` says where a document breaks only in some engines (V8 gives a
// position, WebKit — the desktop app's webview — only "Unexpected token"),
// so a small strict scanner finds the first error itself and `JSON.parse`
// then builds the value. The scanner accepts exactly RFC 8259 JSON.

import type { JsonValue } from './types';

/** A valid document and its value. */
export interface JsonOk {
  ok: true;
  value: JsonValue;
}

/** Where and why a document is not JSON. */
export interface JsonError {
  ok: false;
  /** What is wrong, e.g. `expected , or } after a property`. */
  message: string;
  /** 0-based offset of the offending character (text length at the end). */
  offset: number;
  /** 1-based line. */
  line: number;
  /** 1-based column, in characters. */
  column: number;
}

export type JsonCheck = JsonOk | JsonError;

class Fail extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

function describe(ch: string | undefined): string {
  if (ch === undefined) return 'the end of the text';
  if (ch === '\n') return 'a line break';
  if (ch === '\t') return 'a tab';
  if (ch === "'") return "' (JSON strings use double quotes)";
  if (ch === '"') return 'a double quote "';
  // A control character is shown escaped; anything else as typed, in
  // typographic quotes (JSON.stringify would show a backslash the user
  // never typed: "\"").
  if (ch < ' ') return `the control character ${JSON.stringify(ch)}`;
  return `“${ch}”`;
}

/** Parses `text` as JSON, or says where and why it is not. */
export function checkJson(text: string): JsonCheck {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new Fail(`${what}, found ${describe(text[i])}`, i);
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else fail('expected a value');
  };
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      const ch = text[i];
      if (ch === undefined) throw new Fail('unterminated string', i);
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        const next = text[i + 1];
        if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else {
          i++;
          fail('invalid escape in a string');
        }
        continue;
      }
      if (ch < ' ') fail('a control character must be escaped in a string');
      i++;
    }
  };
  const number = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || m[0] === '' || m[0] === '-') fail('expected a value');
    i += m![0].length;
  };
  const value = (depth: number): void => {
    if (depth > 512) fail('nested too deep');
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(text[i] === '}' ? 'expected a property name (no trailing comma)' : 'expected a property name in double quotes');
        string();
        ws();
        if (text[i] !== ':') fail('expected : after a property name');
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail('expected , or } after a property');
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === ']') fail('expected a value (no trailing comma)');
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail('expected , or ] after an element');
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail(ch === undefined && text.trim() === '' ? 'the payload is empty: expected a JSON object' : 'expected a value');
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail('expected the end of the document');
  } catch (err) {
    if (!(err instanceof Fail)) throw err;
    return { ok: false, message: err.message, offset: err.offset, ...lineColumn(text, err.offset) };
  }
  return { ok: true, value: JSON.parse(text) as JsonValue };
}

/** `line 3, column 14: expected , or } after a property, found "x"`. */
export function formatJsonError(err: JsonError): string {
  return `line ${err.line}, column ${err.column}: ${err.message}`;
}
