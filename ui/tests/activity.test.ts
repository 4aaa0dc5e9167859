import { describe, expect, it } from 'vitest';
import { eventSubject, eventVerdict, runReason, runVerdict, runsSummary } from '../src/lib/activity';
import { setBackend } from '../src/lib/api';
import { eventLabel, knownTools, loadCatalogue, recordedEventNames, resetCatalogue, storedEventName } from '../src/lib/catalogue';
import { createStub } from '../src/stub';
import type { ActivityEvent, HookRunRecord } from '../src/lib/types';

const run = (over: Partial<HookRunRecord> = {}): HookRunRecord => ({
  run_id: 'r',
  event_id: 'e',
  hook_type: 'pre_tool_use',
  tool_name: 'Bash',
  session_id: null,
  tool_use_id: null,
  scope: 'project',
  source: '/p/.claude/settings.json',
  matcher: 'Bash',
  command: './guard.sh',
  exit_code: 0,
  timed_out: false,
  decision: null,
  duration_ms: 3,
  stdout: '',
  stderr: '',
  output_truncated: false,
  error: null,
  started_at: '2026-11-21T10:00:00.000Z',
  skipped: null,
  ...over,
});

const event = (over: Partial<ActivityEvent> = {}): ActivityEvent => ({
  id: 1,
  event_id: 'e',
  hook_type: 'user_prompt_submit',
  tool_name: null,
  agent_id: 'a',
  agent_kind: 'claude',
  session_id: 's',
  tool_use_id: null,
  cwd: '/repo',
  file_path: null,
  branch: 'main',
  head_sha: '',
  remote_url: null,
  payload_valid: true,
  raw_payload: '{}',
  event_timestamp: '2026-11-21T10:00:00.000Z',
  received_at: '2026-11-21T10:00:00.000Z',
  source_pid: null,
  mutations: 0,
  hook_runs: [],
  ...over,
});

describe('hook type names', () => {
  it('reads event names through the backend catalogue, both ways', async () => {
    setBackend(createStub());
    resetCatalogue();
    // Before the catalogue is loaded nothing is known: callers refetch.
    expect(storedEventName('PostToolUse')).toBeNull();
    await loadCatalogue();
    for (const [input, stored] of [
      ['PostToolUse', 'post_tool_use'],
      ['post_tool_use', 'post_tool_use'],
      ['post-tool-use', 'post_tool_use'],
      ['  UserPromptSubmit ', 'user_prompt_submit'],
      ['Stop', 'stop'],
      ['PreCompact', 'pre_compact'],
    ]) {
      expect(storedEventName(input!)).toBe(stored);
    }
    expect(storedEventName('NoSuchEvent')).toBeNull();
    expect(eventLabel('post_tool_use_failure')).toBe('PostToolUseFailure');
    expect(eventLabel('stop')).toBe('Stop');
    expect(eventLabel('some_future_event')).toBe('some_future_event');
    expect(knownTools()).toContain('Bash');
    expect(recordedEventNames()).toContain('PreToolUse');
    setBackend(null);
  });
});

describe('eventSubject', () => {
  it('says what each kind of event was about', () => {
    expect(eventSubject(event({ raw_payload: JSON.stringify({ prompt: 'Fix the build\nthen test' }) }))).toBe('“Fix the build”');
    expect(eventSubject(event({ file_path: '/repo/src/a.rs', hook_type: 'pre_tool_use', tool_name: 'Edit' }))).toBe('src/a.rs');
    expect(eventSubject(event({ hook_type: 'pre_tool_use', tool_name: 'Bash', raw_payload: JSON.stringify({ tool_input: { command: 'cargo test\n--all' } }) }))).toBe('$ cargo test');
    expect(eventSubject(event({ hook_type: 'stop', raw_payload: JSON.stringify({ last_assistant_message: 'Done.' }) }))).toBe('Done.');
    expect(eventSubject(event({ raw_payload: 'not json' }))).toBe('');
  });
});

describe('verdicts', () => {
  it('reads a run\'s decision, else how it ended', () => {
    expect(runVerdict(run({ decision: 'deny', exit_code: 0 }))).toBe('deny');
    expect(runVerdict(run({ decision: 'block', exit_code: 2 }))).toBe('block');
    expect(runVerdict(run())).toBe('ok');
    expect(runVerdict(run({ exit_code: 1 }))).toBe('error');
    expect(runVerdict(run({ exit_code: null, timed_out: true }))).toBe('timeout');
    expect(runVerdict(run({ error: 'cannot start: no such file' }))).toBe('error');
  });

  it('summarises an event by its strongest verdict', () => {
    expect(eventVerdict([])).toBeNull();
    expect(eventVerdict([run(), run({ decision: 'allow' }), run({ decision: 'deny' })])).toBe('deny');
    expect(runsSummary([run(), run({ decision: 'allow' })])).toBe('allow · 2 hooks');
    expect(runsSummary([run()])).toBe('ok · 1 hook');
    expect(runsSummary([])).toBe('');
  });

  it('finds the reason in the JSON output, else stderr for exit 2', () => {
    const json = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf' } });
    expect(runReason(run({ decision: 'deny', stdout: json }))).toBe('no rm -rf');
    expect(runReason(run({ decision: 'block', stdout: '{"decision":"block","reason":"tests fail"}' }))).toBe('tests fail');
    expect(runReason(run({ decision: 'block', exit_code: 2, stderr: 'secret found\n' }))).toBe('secret found');
    expect(runReason(run({ exit_code: 1, stderr: 'oops' }))).toBeNull();
  });
});

describe('skipped runs', () => {
  it('a hook hookd did not run (untrusted file) is skipped, with why', () => {
    const skipped = run({ exit_code: null, skipped: 'not trusted: /p/.hookd/settings.json was never approved (run `hookd trust` to review and approve it)' });
    expect(runVerdict(skipped)).toBe('skipped');
    expect(runReason(skipped)).toContain('never approved');
    expect(runsSummary([skipped])).toBe('skipped · 1 hook');
    // A real deny still wins over a skip.
    expect(eventVerdict([skipped, run({ decision: 'deny' })])).toBe('deny');
  });
});
