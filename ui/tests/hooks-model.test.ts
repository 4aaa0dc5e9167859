import { describe, expect, it } from 'vitest';
import {
  EditError,
  addHandler,
  commandHandler,
  countHandlers,
  mergeHooks,
  moveGroup,
  moveHandler,
  parseTimeout,
  removeGroup,
  removeHandler,
  sameTree,
  setCommand,
  setMatcher,
  setTimeoutSecs,
  treeFrom,
  type HooksTree,
} from '../src/lib/hooks-model';

const base = (): HooksTree =>
  treeFrom({
    PostToolUse: [
      {
        matcher: 'Write|Edit',
        note: 'format on save',
        hooks: [
          { type: 'command', command: 'cargo fmt', async: true },
          { type: 'http', url: 'https://example.invalid/hook' },
        ],
      },
    ],
    Stop: [{ hooks: [{ type: 'command', command: 'say done', timeout: 5 }] }],
  });

describe('hooks model', () => {
  it('adds to the group with the same literal matcher, else a new group with the matcher first', () => {
    const t0 = base();
    const t1 = addHandler(t0, 'PostToolUse', 'Write|Edit', commandHandler('prettier', null));
    expect(t1.PostToolUse![0]!.hooks.map((h) => h.command ?? h.type)).toEqual(['cargo fmt', 'http', 'prettier']);
    expect(t0.PostToolUse![0]!.hooks).toHaveLength(2); // never mutated
    const t2 = addHandler(t1, 'PreToolUse', 'Bash', commandHandler('./guard.sh', 30));
    expect(JSON.stringify(t2.PreToolUse)).toBe('[{"matcher":"Bash","hooks":[{"type":"command","command":"./guard.sh","timeout":30}]}]');
    expect(Object.keys(t2)).toEqual(['PostToolUse', 'Stop', 'PreToolUse']);
    const t3 = addHandler(t2, 'Stop', null, commandHandler('beep', null));
    expect(t3.Stop).toHaveLength(1);
    expect(() => addHandler(t3, 'Stop', null, commandHandler('beep', 9))).toThrow(EditError);
    expect(countHandlers(t3)).toBe(6);
  });

  it('removes handlers, empty groups and empty events', () => {
    let t = removeHandler(base(), 'Stop', 0, 0);
    expect('Stop' in t).toBe(false);
    t = removeHandler(t, 'PostToolUse', 0, 0);
    expect(t.PostToolUse![0]!.hooks).toEqual([{ type: 'http', url: 'https://example.invalid/hook' }]);
    expect(t.PostToolUse![0]!.note).toBe('format on save');
    t = removeGroup(t, 'PostToolUse', 0);
    expect(t).toEqual({});
    expect(removeHandler(base(), 'Nope', 0, 0)).toEqual(base());
  });

  it('reorders groups and handlers within bounds', () => {
    let t = addHandler(base(), 'PostToolUse', null, commandHandler('log', null));
    t = moveGroup(t, 'PostToolUse', 1, -1);
    expect(t.PostToolUse!.map((g) => g.matcher ?? null)).toEqual([null, 'Write|Edit']);
    expect(sameTree(moveGroup(t, 'PostToolUse', 0, -1), t)).toBe(true);
    t = moveHandler(t, 'PostToolUse', 1, 0, 1);
    expect(t.PostToolUse![1]!.hooks.map((h) => h.type)).toEqual(['http', 'command']);
  });

  it('edits matcher, command and timeout in place, keeping unknown keys', () => {
    let t = setMatcher(base(), 'PostToolUse', 0, 'Write');
    expect(Object.keys(t.PostToolUse![0]!)).toEqual(['matcher', 'note', 'hooks']);
    t = setMatcher(t, 'PostToolUse', 0, '  ');
    expect(Object.keys(t.PostToolUse![0]!)).toEqual(['note', 'hooks']);
    t = setMatcher(t, 'Stop', 0, '*');
    expect(Object.keys(t.Stop![0]!)).toEqual(['matcher', 'hooks']);
    t = setCommand(t, 'PostToolUse', 0, 0, 'cargo fmt --all');
    expect(t.PostToolUse![0]!.hooks[0]).toEqual({ type: 'command', command: 'cargo fmt --all', async: true });
    t = setTimeoutSecs(t, 'Stop', 0, 0, null);
    expect(t.Stop![0]!.hooks[0]).toEqual({ type: 'command', command: 'say done' });
    t = setTimeoutSecs(t, 'Stop', 0, 0, 1.5);
    expect(t.Stop![0]!.hooks[0]!.timeout).toBe(1.5);
  });

  it('parses timeouts', () => {
    expect(parseTimeout('')).toEqual({ ok: true, secs: null });
    expect(parseTimeout(' 30 ')).toEqual({ ok: true, secs: 30 });
    expect(parseTimeout('0').ok).toBe(false);
    expect(parseTimeout('-1').ok).toBe(false);
    expect(parseTimeout('ten').ok).toBe(false);
  });

  it('merges my edits onto a file changed on disk', () => {
    const b = base();
    let mine = addHandler(b, 'PreToolUse', 'Bash', commandHandler('./guard.sh', null));
    mine = removeHandler(mine, 'Stop', 0, 0);
    mine = setTimeoutSecs(mine, 'PostToolUse', 0, 0, 20);
    // On disk meanwhile: someone added a Notification hook and changed nothing else.
    const theirs = addHandler(b, 'Notification', null, commandHandler('notify-send hi', null));
    const merged = mergeHooks(b, mine, theirs);
    expect(Object.keys(merged.tree)).toEqual(['PostToolUse', 'Notification', 'PreToolUse']);
    expect(merged.tree.PostToolUse![0]!.hooks[0]).toEqual({ type: 'command', command: 'cargo fmt', async: true, timeout: 20 });
    expect(merged.tree.Notification![0]!.hooks[0]!.command).toBe('notify-send hi');
    expect(merged.tree.PreToolUse![0]!.hooks[0]!.command).toBe('./guard.sh');
    expect(merged.notes).toEqual(['removed Stop say done', 'updated PostToolUse [Write|Edit] cargo fmt', 'added PreToolUse [Bash] ./guard.sh']);
  });

  it('merge: both sides changed the same hook (mine wins) or removed it', () => {
    const b = base();
    const mine = setTimeoutSecs(b, 'Stop', 0, 0, 10);
    const theirs = setTimeoutSecs(b, 'Stop', 0, 0, 60);
    const merged = mergeHooks(b, mine, theirs);
    expect(merged.tree.Stop![0]!.hooks[0]!.timeout).toBe(10);
    expect(merged.notes).toEqual(['Stop say done changed on disk too; kept your version']);

    const gone = removeHandler(b, 'Stop', 0, 0);
    const again = mergeHooks(b, removeHandler(b, 'Stop', 0, 0), gone);
    expect(again.notes).toEqual(['Stop say done is already gone']);
    expect(sameTree(again.tree, gone)).toBe(true);
  });
});
