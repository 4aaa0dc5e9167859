// The Hook editor's model of one settings file's `hooks` tree, and every
// edit the editor makes to it, as pure functions (unit-tested without a DOM).
//
// The draft *is* the `hooks` JSON (event → matcher groups → handlers), so a
// save sends back exactly what was loaded except where the user edited:
// keys of a group or handler the editor does not know (`statusMessage`,
// `async`, a group's notes) and handler types it does not edit (`http`,
// `prompt`, …) travel through untouched. Edits copy, never mutate, so the
// loaded tree stays available as the base of a merge.
//
// `mergeHooks` re-applies the user's edits (base → mine) onto a file that
// changed on disk meanwhile (theirs): handlers are matched by event,
// matcher and identity (a command handler by its command, others by their
// JSON), the way the agent itself tells hooks apart.

/** A JSON value as the backend sends it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** A handler: `{type, command, timeout, …}`, verbatim. */
export type Handler = JsonObject;
/** A matcher group: `{matcher?, hooks: Handler[], …}`, verbatim. */
export type Group = JsonObject & { hooks: Handler[] };
/** The `hooks` tree: event → groups, in file order. */
export type HooksTree = Record<string, Group[]>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A deep copy (the tree is plain JSON). */
export function clone<T extends Json | HooksTree>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The tree from a backend JSON value (anything that is not an object is empty). */
export function treeFrom(value: unknown): HooksTree {
  const out: HooksTree = {};
  if (!isObject(value)) return out;
  for (const [event, groups] of Object.entries(value)) {
    if (!Array.isArray(groups)) continue;
    out[event] = groups.filter(isObject).map((g) => {
      const copy = clone(g) as Group;
      if (!Array.isArray(copy.hooks)) copy.hooks = [];
      return copy;
    });
  }
  return out;
}

/** The structure the backend sends for a file (a subset of `HookFile`). */
export interface StructuredHooks {
  events: { event: string; groups: { raw: unknown; handlers: { raw: unknown }[] }[] }[];
}

/** A loaded file's tree: each group's raw JSON with its handlers' raw JSON. */
export function treeOfFile(file: StructuredHooks): HooksTree {
  const out: HooksTree = {};
  for (const e of file.events) {
    out[e.event] = e.groups.map((g) => {
      const group = (isObject(g.raw) ? clone(g.raw) : {}) as Group;
      group.hooks = g.handlers.map((h) => (isObject(h.raw) ? clone(h.raw) : {}));
      return group;
    });
  }
  return out;
}

/** A group's matcher, `null` when absent. */
export function matcherOf(group: JsonObject): string | null {
  return typeof group.matcher === 'string' ? group.matcher : null;
}

/** A command handler's command, else `null`. */
export function commandOf(handler: JsonObject): string | null {
  return handler.type === 'command' && typeof handler.command === 'string' ? handler.command : null;
}

/** How the agent tells two handlers apart: the command, else the JSON. */
export function identity(handler: JsonObject): string {
  const command = commandOf(handler);
  return command !== null ? `command:${command}` : `json:${JSON.stringify(handler)}`;
}

/** A new command handler; a whole-second timeout stays an integer. */
export function commandHandler(command: string, timeout: number | null): Handler {
  const h: Handler = { type: 'command', command };
  if (timeout !== null) h.timeout = timeout;
  return h;
}

/**
 * The group with `matcher` (null: none). An existing `matcher` key keeps its
 * place; a new one goes first, as people write them.
 */
function withMatcher(group: Group, matcher: string | null): Group {
  const out: JsonObject = {};
  if (matcher !== null && !('matcher' in group)) out.matcher = matcher;
  for (const [k, v] of Object.entries(group)) {
    if (k !== 'matcher') out[k] = v;
    else if (matcher !== null) out[k] = matcher;
  }
  return out as Group;
}

/** Why an edit was refused. */
export class EditError extends Error {}

/**
 * Adds `handler` to the first group of `event` whose matcher is `matcher`
 * (absent only equals absent), or to a new group at the end, as the core's
 * `add_hook` does. Refuses a handler already in that group.
 */
export function addHandler(tree: HooksTree, event: string, matcher: string | null, handler: Handler): HooksTree {
  const out = clone(tree);
  const groups = (out[event] ??= []);
  const group = groups.find((g) => matcherOf(g) === matcher);
  if (group) {
    if (group.hooks.some((h) => identity(h) === identity(handler))) {
      throw new EditError(`${event}${matcher !== null ? ` (matcher "${matcher}")` : ''} already has this hook`);
    }
    group.hooks.push(clone(handler));
  } else {
    groups.push(withMatcher({ hooks: [clone(handler)] }, matcher));
  }
  return out;
}

/** Removes a handler; an emptied group goes, and an emptied event. */
export function removeHandler(tree: HooksTree, event: string, gi: number, hi: number): HooksTree {
  const out = clone(tree);
  const groups = out[event];
  const group = groups?.[gi];
  if (!groups || !group || hi < 0 || hi >= group.hooks.length) return out;
  group.hooks.splice(hi, 1);
  if (group.hooks.length === 0) groups.splice(gi, 1);
  if (groups.length === 0) delete out[event];
  return out;
}

/** Removes a whole group (and the event when it was its last). */
export function removeGroup(tree: HooksTree, event: string, gi: number): HooksTree {
  const out = clone(tree);
  const groups = out[event];
  if (!groups || gi < 0 || gi >= groups.length) return out;
  groups.splice(gi, 1);
  if (groups.length === 0) delete out[event];
  return out;
}

function move<T>(list: T[], from: number, delta: number): boolean {
  const to = from + delta;
  if (from < 0 || from >= list.length || to < 0 || to >= list.length) return false;
  const [item] = list.splice(from, 1);
  list.splice(to, 0, item!);
  return true;
}

/** Moves a group up (-1) or down (+1) in its event. */
export function moveGroup(tree: HooksTree, event: string, gi: number, delta: number): HooksTree {
  const out = clone(tree);
  const groups = out[event];
  if (groups) move(groups, gi, delta);
  return out;
}

/** Moves a handler up (-1) or down (+1) in its group. */
export function moveHandler(tree: HooksTree, event: string, gi: number, hi: number, delta: number): HooksTree {
  const out = clone(tree);
  const group = out[event]?.[gi];
  if (group) move(group.hooks, hi, delta);
  return out;
}

/** Sets a group's matcher; blank text removes it (matches everything). */
export function setMatcher(tree: HooksTree, event: string, gi: number, text: string): HooksTree {
  const out = clone(tree);
  const groups = out[event];
  const group = groups?.[gi];
  if (!groups || !group) return out;
  groups[gi] = withMatcher(group, text.trim() === '' ? null : text);
  return out;
}

/** Sets a command handler's command. */
export function setCommand(tree: HooksTree, event: string, gi: number, hi: number, command: string): HooksTree {
  const out = clone(tree);
  const handler = out[event]?.[gi]?.hooks[hi];
  if (handler) handler.command = command;
  return out;
}

/** Sets a handler's timeout in seconds; `null` removes it (the event's default applies). */
export function setTimeoutSecs(tree: HooksTree, event: string, gi: number, hi: number, secs: number | null): HooksTree {
  const out = clone(tree);
  const handler = out[event]?.[gi]?.hooks[hi];
  if (!handler) return out;
  if (secs === null) delete handler.timeout;
  else handler.timeout = secs;
  return out;
}

/**
 * A timeout field's text as seconds: blank is `null` (no timeout key), a
 * positive finite number is itself, anything else an error message.
 */
export function parseTimeout(text: string): { ok: true; secs: number | null } | { ok: false; error: string } {
  const t = text.trim();
  if (t === '') return { ok: true, secs: null };
  const n = Number(t);
  if (!Number.isFinite(n) || n <= 0) return { ok: false, error: 'a timeout is a positive number of seconds' };
  return { ok: true, secs: n };
}

/** Whether two trees are the same JSON, key order included. */
export function sameTree(a: HooksTree, b: HooksTree): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Number of handlers in a tree. */
export function countHandlers(tree: HooksTree): number {
  let n = 0;
  for (const groups of Object.values(tree)) for (const g of groups) n += g.hooks.length;
  return n;
}

interface Entry {
  event: string;
  matcher: string | null;
  id: string;
  handler: Handler;
}

function key(e: { event: string; matcher: string | null; id: string }): string {
  return JSON.stringify([e.event, e.matcher, e.id]);
}

function entries(tree: HooksTree): Map<string, Entry> {
  const out = new Map<string, Entry>();
  for (const [event, groups] of Object.entries(tree)) {
    for (const g of groups) {
      const matcher = matcherOf(g);
      for (const handler of g.hooks) {
        const e = { event, matcher, id: identity(handler), handler };
        if (!out.has(key(e))) out.set(key(e), e);
      }
    }
  }
  return out;
}

/** What `mergeHooks` did, for people. */
export interface MergeResult {
  /** Theirs with my edits applied. */
  tree: HooksTree;
  /** One line per edit re-applied or given up. */
  notes: string[];
}

function describe(e: Entry): string {
  const what = commandOf(e.handler) ?? String(e.handler.type ?? 'handler');
  return `${e.event}${e.matcher !== null ? ` [${e.matcher}]` : ''} ${what}`;
}

/**
 * Re-applies the edits that turned `base` into `mine` onto `theirs` (the
 * file as it is on disk now). Added hooks are added (unless theirs already
 * has them), removed ones removed (if still there), changed ones (timeout,
 * other fields) updated; where theirs changed the same hook too, mine wins
 * and a note says so. Reordering is not re-applied.
 */
export function mergeHooks(base: HooksTree, mine: HooksTree, theirs: HooksTree): MergeResult {
  const b = entries(base);
  const m = entries(mine);
  let tree = clone(theirs);
  const notes: string[] = [];
  const locate = (e: Entry): [number, number] | null => {
    const groups = tree[e.event] ?? [];
    for (let gi = 0; gi < groups.length; gi++) {
      if (matcherOf(groups[gi]!) !== e.matcher) continue;
      const hi = groups[gi]!.hooks.findIndex((h) => identity(h) === e.id);
      if (hi >= 0) return [gi, hi];
    }
    return null;
  };
  for (const [k, e] of b) {
    if (m.has(k)) continue;
    const at = locate(e);
    if (at) {
      tree = removeHandler(tree, e.event, at[0], at[1]);
      notes.push(`removed ${describe(e)}`);
    } else {
      notes.push(`${describe(e)} is already gone`);
    }
  }
  for (const [k, e] of m) {
    const old = b.get(k);
    const at = locate(e);
    if (!old) {
      if (at) {
        notes.push(`${describe(e)} was added on disk too`);
      } else {
        tree = addHandler(tree, e.event, e.matcher, e.handler);
        notes.push(`added ${describe(e)}`);
      }
      continue;
    }
    if (JSON.stringify(old.handler) === JSON.stringify(e.handler)) continue;
    if (!at) {
      tree = addHandler(tree, e.event, e.matcher, e.handler);
      notes.push(`${describe(e)} was removed on disk; added back with your changes`);
      continue;
    }
    const current = tree[e.event]![at[0]]!.hooks[at[1]]!;
    const theirsChanged = JSON.stringify(current) !== JSON.stringify(old.handler);
    tree[e.event]![at[0]]!.hooks[at[1]] = clone(e.handler);
    notes.push(theirsChanged ? `${describe(e)} changed on disk too; kept your version` : `updated ${describe(e)}`);
  }
  return { tree, notes };
}
