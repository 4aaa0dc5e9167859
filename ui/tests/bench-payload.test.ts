// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { HANDOFF_KEY, openInBench, payloadCwd, payloadEvent, projectFor, retarget, sampleFor, storeHandoff, takeHandoff } from '../src/lib/bench-payload';
import type { BenchSample } from '../src/lib/types';

const sample = (id: string, event: string): BenchSample => ({ id, label: id, event, payload: { hook_event_name: event } });

afterEach(() => {
  sessionStorage.clear();
  window.location.hash = '';
});

describe('bench payloads', () => {
  it('picks the preferred sample of the event, else Bash, else the first', () => {
    const list = [sample('write', 'PreToolUse'), sample('bash', 'PreToolUse'), sample('stop', 'Stop'), sample('mcp', 'PreToolUse')];
    expect(sampleFor(list, 'PreToolUse')?.id).toBe('bash');
    expect(sampleFor(list, 'PreToolUse', 'mcp')?.id).toBe('mcp');
    expect(sampleFor(list, 'PreToolUse', 'stop')?.id).toBe('bash');
    expect(sampleFor(list, 'Stop', 'bash')?.id).toBe('stop');
    expect(sampleFor(list, 'Notification')).toBeNull();
  });

  it('keeps hook_event_name in step with the event, in place', () => {
    const text = '{\n  "session_id": "s",\n  "hook_event_name": "PreToolUse",\n  "tool_name": "Bash"\n}\n';
    const moved = retarget(text, 'PostToolUse');
    expect(Object.keys(JSON.parse(moved))).toEqual(['session_id', 'hook_event_name', 'tool_name']);
    expect(JSON.parse(moved).hook_event_name).toBe('PostToolUse');
    expect(retarget(text, 'PreToolUse')).toBe(text);
    expect(JSON.parse(retarget('{"a": 1}', 'Stop'))).toEqual({ hook_event_name: 'Stop', a: 1 });
    expect(retarget('{"a": ', 'Stop')).toBe('{"a": ');
    expect(retarget('[1]', 'Stop')).toBe('[1]');
  });

  it('reads the event and the directory of a recorded payload', () => {
    const known = ['PreToolUse', 'PostToolUse'];
    expect(payloadEvent({ hook_event_name: 'PostToolUse' }, known)).toBe('PostToolUse');
    expect(payloadEvent({ hook_event_name: 'post_tool_use' }, known)).toBe('PostToolUse');
    expect(payloadEvent({ hook_event_name: 'Nope' }, known)).toBeNull();
    expect(payloadEvent('x', known)).toBeNull();
    expect(payloadCwd({ cwd: '/src/app/sub' })).toBe('/src/app/sub');
    expect(payloadCwd({ cwd: 'rel' })).toBeNull();
    expect(projectFor(['/src/app', '/src/app-2', '/src'], '/src/app/sub')).toBe('/src/app');
    expect(projectFor(['/src/app', '/src/app-2'], '/src/app-2')).toBe('/src/app-2');
    expect(projectFor(['/src/app'], '/elsewhere')).toBeNull();
    expect(projectFor(['/src/app'], null)).toBeNull();
  });

  it('hands a payload over once through session storage', () => {
    storeHandoff(sessionStorage, { payload: '{"a":1}', event: 'PostToolUse', source: 'the timeline' });
    expect(takeHandoff(sessionStorage)).toEqual({ payload: '{"a":1}', event: 'PostToolUse', source: 'the timeline' });
    expect(takeHandoff(sessionStorage)).toBeNull();
    sessionStorage.setItem(HANDOFF_KEY, '{broken');
    expect(takeHandoff(sessionStorage)).toBeNull();
    expect(sessionStorage.getItem(HANDOFF_KEY)).toBeNull();
  });

  it('opens the bench on a timeline row: short hash, payload in session storage', () => {
    const raw = JSON.stringify({ cwd: '/home/dev/src/hookd/crates', hook_event_name: 'PostToolUse', tool_name: 'Edit', big: 'x'.repeat(10_000) });
    openInBench({ raw_payload: raw, tool_name: 'Edit', file_path: 'README.md' });
    expect(window.location.hash).toBe('#/bench?project=/home/dev/src/hookd/crates');
    const taken = takeHandoff(sessionStorage)!;
    expect(taken.payload).toBe(raw);
    expect(taken.event).toBe('PostToolUse');
    expect(taken.source).toContain('README.md');
    openInBench({ raw_payload: raw, tool_name: 'Edit', file_path: null, repo: '/home/dev/src/hookd' });
    expect(window.location.hash).toBe('#/bench?project=/home/dev/src/hookd');
  });
});
