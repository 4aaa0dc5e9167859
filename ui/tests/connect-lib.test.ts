import { describe, expect, it } from 'vitest';
import { connectScopes, defaultScope, foldDiff, isConnected, previewSummary } from '../src/lib/connect';
import { lineDiff } from '../src/lib/diff';
import type { ConnectPreview, ProjectInfo } from '../src/lib/types';

const preview = (over: Partial<ConnectPreview>): ConnectPreview => ({
  path: '/r/.claude/settings.json',
  exists: true,
  changes: true,
  before: '',
  after: '',
  events: ['PreToolUse', 'Stop'],
  emit_command: 'hookd-emit',
  emit_found: true,
  hooks_disabled: false,
  version: 'missing',
  notes: [],
  warnings: [],
  ...over,
});

describe('connect logic', () => {
  it('folds long unchanged runs, keeping context around changes', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const after = before.replace('line 10', 'line ten');
    const folded = foldDiff(lineDiff(before, after), 2);
    expect(folded.map((l) => (l.op === 'gap' ? `gap ${l.count}` : `${l.op} ${l.text}`))).toEqual([
      'gap 7',
      'eq line 8',
      'eq line 9',
      'del line 10',
      'add line ten',
      'eq line 11',
      'eq line 12',
      'gap 8',
    ]);
    const same = lineDiff('a\nb', 'a\nb');
    expect(foldDiff(same)).toEqual(same);
  });

  it('says what apply would do', () => {
    expect(previewSummary(preview({ exists: false }), 'record')).toBe('Creates the file with a hookd entry for 2 events (PreToolUse, Stop).');
    expect(previewSummary(preview({}), 'managed')).toBe('Adds a hookd entry for 2 events (PreToolUse, Stop).');
    expect(previewSummary(preview({ changes: false, events: [] }), 'record')).toBe('Already connected: nothing to change in this file.');
    expect(previewSummary(preview({ events: ['Stop'] }), 'disconnect')).toBe('Removes hookd\u2019s entries from 1 event (Stop).');
    expect(previewSummary(preview({ changes: false, exists: false, events: [] }), 'disconnect')).toBe('Not connected: this file does not exist.');
  });

  it('preselects the connected scope', () => {
    const p = (global: boolean, project: boolean, local: boolean, agents: string[] = []): ProjectInfo =>
      ({ root: '/r', name: 'r', origin: 'manual', first_seen: '', last_activity: null, events: 0, mutations: 0, has_ledger: false, connected: { global, project, local }, agent_kinds: [], agents_connected: agents }) as ProjectInfo;
    expect(defaultScope(p(false, false, false))).toBe('global');
    expect(defaultScope(p(true, false, true))).toBe('local');
    expect(defaultScope(p(true, false, false))).toBe('global');
    expect(isConnected(p(false, false, false))).toBe(false);
    expect(isConnected(p(false, false, true))).toBe(true);
    // Another agent calling hookd connects the project too.
    expect(isConnected(p(false, false, false, ['codex']))).toBe(true);
    // Another agent's file: the user's, as `hookd connect --agent` picks.
    expect(defaultScope(p(false, true, false), 'codex')).toBe('global');
  });

  it('offers each agent its own files, no local one beside Claude Code', () => {
    expect(connectScopes('claude').map((s) => s.value)).toEqual(['project', 'local', 'global']);
    const codex = connectScopes('codex');
    expect(codex.map((s) => `${s.value} ${s.file}`)).toEqual(['project .codex/hooks.json', 'global ~/.codex/hooks.json']);
    expect(codex[0]?.note).toContain('trust it in /hooks');
    expect(connectScopes('copilot')[0]?.file).toBe('.github/hooks/hookd.json');
  });
});
