// A tiny element builder, so views read as structure instead of a wall of
// createElement calls. Text is always set as text (never innerHTML): paths,
// commands and payloads come from agents and must not become markup.

type Child = Node | string | number | null | undefined | false;

export interface Props {
  id?: string;
  class?: string;
  /** `data-*` attributes, camelCase keys as in `dataset`. */
  data?: Record<string, string>;
  /** Plain attributes (aria-*, role, title, type, href, ...); null/false leaves one out. */
  attrs?: Record<string, string | number | boolean | null | undefined>;
  /** Event listeners. */
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (ev: HTMLElementEventMap[K]) => void }>;
  text?: string;
}

/** Creates an element with properties and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.id) el.id = props.id;
  if (props.class) el.className = props.class;
  if (props.data) for (const [k, v] of Object.entries(props.data)) el.dataset[k] = v;
  if (props.attrs) {
    for (const [k, v] of Object.entries(props.attrs)) {
      if (v === null || v === undefined || v === false) continue;
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  if (props.on) {
    for (const [type, fn] of Object.entries(props.on)) {
      if (fn) el.addEventListener(type, fn as EventListener);
    }
  }
  if (props.text !== undefined) el.textContent = props.text;
  append(el, ...children);
  return el;
}

/** Appends children, skipping null/false. */
export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces all children. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** `1234567` → `1,234,567` (fixed locale so tests and screenshots are stable). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** The last path component, for compact labels. */
export function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || trimmed;
}

/**
 * `text` as nodes with a line-break opportunity (`<wbr>`) after each `/`,
 * `|`, `_`, `,` and `=`, and before a `-` or `.` that follows a letter: a long path,
 * command or matcher then wraps between its parts rather than in the middle
 * of a word, and copying it still gives `text` unchanged.
 */
export function breakable(text: string): Node[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const after = '/|_,='.includes(c);
    const before = (c === '-' || c === '.') && i > 0 && /\w/.test(text[i - 1]!) && /\w/.test(text[i + 1] ?? '');
    if (before && i > start) {
      parts.push(text.slice(start, i));
      start = i;
    }
    if (after && i + 1 < text.length) {
      parts.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  const nodes: Node[] = [];
  for (const part of parts) {
    if (nodes.length > 0) nodes.push(document.createElement('wbr'));
    nodes.push(document.createTextNode(part));
  }
  return nodes;
}
