import { describe, expect, it } from 'vitest';
import { hunks } from '../src/components/hooks-diff';
import { describeCheck, matcherRefusal } from '../src/components/hooks-matcher';
import { lineDiff } from '../src/lib/diff';
import { formatHash, hooksHash, parseHash } from '../src/lib/route';

describe('hooks route', () => {
  it('round-trips project and tab, defaulting to the project tab', () => {
    expect(parseHash('#/hooks?project=/src/a%20b&tab=effective')).toEqual({ view: 'hooks', project: '/src/a b', tab: 'effective' });
    expect(parseHash('#/hooks?project=/src/app')).toEqual({ view: 'hooks', project: '/src/app', tab: 'agent-project' });
    expect(parseHash('#/hooks?tab=bogus')).toEqual({ view: 'hooks', project: null, tab: 'agent-project' });
    expect(hooksHash('/src/a b', 'managed-local')).toBe('#/hooks?project=/src/a%20b&tab=managed-local');
    expect(formatHash(parseHash(hooksHash('/src/app', 'agent-global')))).toBe('#/hooks?project=/src/app&tab=agent-global');
    expect(hooksHash(null)).toBe('#/hooks?tab=agent-project');
  });
});

describe('hooks diff', () => {
  it('keeps three lines of context around changes and folds the rest', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const after = before.replace('line 10', 'line ten');
    const shown = hunks(lineDiff(before, after));
    expect(shown[0]).toEqual({ fold: 6 });
    const lines = shown.filter((x) => !('fold' in x));
    expect(lines).toHaveLength(8);
    expect(shown[shown.length - 1]).toEqual({ fold: 7 });
  });
});

describe('matcher status text', () => {
  const base = { ok: true, kind: 'exact', error: null, position: null, supported: true, field: 'tool_name', matches: ['Bash'], known: 14 };
  it('says what a matcher matches, or why it is ignored or broken', () => {
    expect(describeCheck(base, 'PreToolUse')).toBe('exact names; matches 1 of 14 known tools: Bash');
    expect(describeCheck({ ...base, kind: 'regex', matches: [] }, 'PreToolUse')).toBe('regex (unanchored); matches none of the 14 known tools (MCP tools mcp__… may still match)');
    expect(describeCheck({ ...base, kind: 'all', matches: [] }, 'PreToolUse')).toBe('matches everything (all 14 known tools)');
    expect(describeCheck({ ...base, supported: false }, 'Stop')).toBe('Stop ignores matchers: every group of it runs');
    expect(describeCheck({ ...base, ok: false, kind: null, error: 'invalid regex "a(" at position 2: unclosed group' }, 'PreToolUse')).toContain('position 2');
    expect(describeCheck({ ...base, field: 'source', matches: ['resume', 'clear'], known: 5 }, 'SessionStart')).toBe('exact names; matches 2 of 5 known source: resume, clear');
  });
});

describe('matcher refusal', () => {
  const base = { kind: null, supported: true, field: 'tool_name', matches: [], known: 14 };
  it('refuses what the backend says is no valid pattern, with its position, and nothing else', () => {
    expect(matcherRefusal({ ...base, ok: false, error: 'invalid regex "Edit(" at position 4: unclosed group', position: 4 })).toBe(
      'The matcher is not a valid pattern: invalid regex "Edit(" at position 4: unclosed group. Fix it to add the hook.',
    );
    expect(matcherRefusal({ ...base, ok: true, kind: 'exact', error: null, position: null })).toBeNull();
    // Not checked yet: nothing to refuse (the form asks before it adds).
    expect(matcherRefusal(null)).toBeNull();
  });
});
