// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createErrorBanner, type ErrorBanner } from '../src/components/error-banner';
import { setBackend } from '../src/lib/api';
import { storeHandoff } from '../src/lib/bench-payload';
import { parseHash } from '../src/lib/route';
import { createStub, type StubBackend } from '../src/stub';
import { createBenchView } from '../src/views/bench';
import type { View } from '../src/views/view';

const ROOT = '/home/dev/src/hookd';
let view: View | null = null;
let errors: ErrorBanner;
let navigated: string[];
let stub: StubBackend;

function mount(hash = `#/bench?project=${ROOT}`): void {
  stub = createStub({ rows: 20, seed: 3 });
  setBackend(stub);
  errors = createErrorBanner();
  navigated = [];
  window.location.hash = hash;
  const route = parseHash(hash);
  if (route.view !== 'bench') throw new Error('not a bench route');
  view = createBenchView({ errors, navigate: (h) => navigated.push(h), appInfo: Promise.resolve(null) }, route);
  document.body.replaceChildren(errors.el, view.el);
}

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const textarea = (): HTMLTextAreaElement => $('bench-payload');
const hooks = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('[data-testid=bench-hook]')];

function type(text: string): void {
  textarea().value = text;
  textarea().dispatchEvent(new Event('input'));
}

function setCommand(command: string): void {
  const payload = JSON.parse(textarea().value);
  payload.tool_input.command = command;
  type(JSON.stringify(payload, null, 2));
}

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  view?.destroy();
  view = null;
  setBackend(null);
  document.body.replaceChildren();
});

describe('test bench view', () => {
  it('opens on the Bash sample of PreToolUse with the project filled in, and shows which hooks match and why', async () => {
    mount();
    await vi.waitFor(() => expect(hooks().length).toBe(4));
    expect($<HTMLSelectElement>('bench-project').value).toBe(ROOT);
    expect($<HTMLSelectElement>('bench-event').value).toBe('PreToolUse');
    expect($<HTMLSelectElement>('bench-sample').value).toBe('bash');
    const payload = JSON.parse(textarea().value);
    expect(payload.tool_name).toBe('Bash');
    expect(payload.cwd).toBe(ROOT);
    const guard = hooks().find((h) => h.dataset.scope === 'local')!;
    expect(guard.dataset.outcome).toBe('runs');
    expect(guard.querySelector('[data-testid=bench-hook-reason]')!.textContent).toBe('exact name Bash');
    expect(guard.querySelector('[data-testid=bench-hook-matcher]')!.textContent).toBe('Bash');
    const mcp = hooks().find((h) => h.dataset.scope === 'global')!;
    expect(mcp.dataset.outcome).toBe('no_match');
    expect(mcp.querySelector('[data-testid=bench-hook-reason]')!.textContent).toBe('tool_name regex found nothing in "Bash"');
    expect($('bench-match-summary').textContent).toBe('2 of 4 hooks would run (2 by the agent, 0 by hookd); Run leaves out hookd\u2019s own recorder');
    // hookd's own recorder (the project is connected) matches but is never run by the bench.
    const recorder = hooks().find((h) => h.dataset.scope === 'project' && h.dataset.kind === 'agent')!;
    expect(recorder.dataset.outcome).toBe('runs');
    expect(recorder.dataset.executes).toBe('false');
    expect(recorder.querySelector('[data-testid=bench-hook-recorder]')).not.toBeNull();
    expect($('bench-run-warning').textContent).toContain('really executes');
  });

  it('runs the hooks and shows the deny with its reason, per hook and merged', async () => {
    mount();
    await vi.waitFor(() => expect(hooks().length).toBe(4));
    setCommand('rm -rf /');
    $('bench-run').click();
    await vi.waitFor(() => expect($('bench-verdict')).not.toBeNull());
    expect($('bench-verdict').dataset.decision).toBe('deny');
    expect($('bench-verdict-text').textContent).toBe('Denied: refusing rm -rf');
    expect($('bench-reply-exit').textContent).toBe('2');
    expect(document.querySelector('[data-testid=bench-reply-stderr]')!.textContent).toContain('refusing rm -rf');
    const runs = [...document.querySelectorAll<HTMLElement>('[data-testid=bench-run]')];
    expect(runs).toHaveLength(1);
    expect(runs[0]!.dataset.exit).toBe('2');
    expect(runs[0]!.querySelector('[data-testid=bench-run-exit]')!.textContent).toBe('exit 2');
    expect(runs[0]!.querySelector('[data-testid=bench-run-decision]')!.textContent).toBe('deny');
    expect(runs[0]!.querySelector('[data-testid=bench-run-stderr]')!.textContent).toBe('refusing rm -rf\n');
    expect($<HTMLButtonElement>('bench-run').disabled).toBe(false);
    // The same deny as each coding agent gets it.
    const agents = [...document.querySelectorAll<HTMLElement>('[data-testid=bench-agent]')];
    expect(agents.map((a) => [a.dataset.agent, a.dataset.exit])).toEqual([['claude', '2'], ['codex', '2'], ['gemini', '0'], ['cursor', '0'], ['copilot', '0']]);
    expect([...agents[2]!.querySelectorAll('th, td')].slice(0, 3).map((c) => c.textContent)).toEqual(['Gemini CLI', 'BeforeTool', '0']);
    expect(agents[2]!.querySelector('[data-testid=bench-agent-output]')!.textContent).toContain('"decision":"deny"');
    expect(agents[0]!.querySelector('[data-testid=bench-agent-output]')!.textContent).toBe('stderr: refusing rm -rf\n');

    // Editing the payload clears the old result; a harmless command goes ahead.
    setCommand('ls');
    expect($('bench-verdict')).toBeNull();
    $('bench-run').click();
    await vi.waitFor(() => expect($('bench-verdict')).not.toBeNull());
    expect($('bench-verdict').dataset.decision).toBe('none');
    expect($('bench-verdict-text').textContent).toBe('No decision: the action goes ahead');
  });

  it('flags invalid JSON with its line and column and does not run', async () => {
    mount();
    await vi.waitFor(() => expect(hooks().length).toBe(4));
    type('{\n  "tool_name": "Bash",\n  "tool_input": {"command": "ls"}\n  "cwd": "/r"\n}');
    const error = $('bench-payload-error');
    expect(error.hidden).toBe(false);
    expect(error.textContent).toMatch(/^line 4, column 3: expected , or \}/);
    expect(textarea().getAttribute('aria-invalid')).toBe('true');
    expect($<HTMLButtonElement>('bench-run').disabled).toBe(true);
    expect($('bench-match-invalid')).not.toBeNull();
    $('bench-payload-goto').click();
    expect(document.activeElement).toBe(textarea());
    expect(textarea().selectionStart).toBe(textarea().value.indexOf('"cwd"'));

    type('[1, 2]');
    expect(error.textContent).toContain('must be a JSON object');
    type('{"tool_name": "Write"}');
    expect(error.hidden).toBe(true);
    expect(textarea().getAttribute('aria-invalid')).toBe('false');
    await vi.waitFor(() => expect(hooks().find((h) => h.dataset.kind === 'managed')?.dataset.outcome).toBe('runs'));
  });

  it('loads a sample of another event and follows event changes from the route', async () => {
    mount();
    await vi.waitFor(() => expect(hooks().length).toBe(4));
    const sample = $<HTMLSelectElement>('bench-sample');
    sample.value = 'stop';
    sample.dispatchEvent(new Event('change'));
    expect($<HTMLSelectElement>('bench-event').value).toBe('Stop');
    expect(JSON.parse(textarea().value).hook_event_name).toBe('Stop');
    expect(window.location.hash).toBe(`#/bench?project=${ROOT}&event=Stop`);
    await vi.waitFor(() => expect(hooks().map((h) => h.dataset.outcome)).toEqual(['runs']));
    expect(hooks()[0]!.querySelector('[data-testid=bench-hook-reason]')!.textContent).toBe('matcher not supported by this event (runs always)');

    // An edited payload keeps its content when the event changes; hook_event_name follows.
    type(JSON.stringify({ hook_event_name: 'Stop', tool_name: 'Write' }));
    $<HTMLSelectElement>('bench-event').value = 'PostToolUse';
    $<HTMLSelectElement>('bench-event').dispatchEvent(new Event('change'));
    expect(navigated.at(-1)).toBe(`#/bench?project=${ROOT}&event=PostToolUse`);
    view!.update(parseHash(navigated.at(-1)!));
    expect(JSON.parse(textarea().value)).toEqual({ hook_event_name: 'PostToolUse', tool_name: 'Write' });
    await vi.waitFor(() => expect(hooks().map((h) => h.dataset.kind)).toEqual(['managed']));
    expect(hooks()[0]!.dataset.executes).toBe('false');
  });

  it('takes a payload handed over from the timeline, with its project and event', async () => {
    const raw = JSON.stringify({ session_id: 's', cwd: `${ROOT}/crates`, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: `${ROOT}/README.md` } });
    storeHandoff(sessionStorage, { payload: raw, event: 'PostToolUse', source: 'the timeline (Edit of README.md)' });
    mount('#/bench');
    await vi.waitFor(() => expect($<HTMLSelectElement>('bench-project').value).toBe(ROOT));
    expect($('bench-source-note').textContent).toContain('the timeline (Edit of README.md)');
    expect(JSON.parse(textarea().value)).toEqual(JSON.parse(raw));
    await vi.waitFor(() => expect($<HTMLSelectElement>('bench-event').value).toBe('PostToolUse'));
    await vi.waitFor(() => expect(hooks().map((h) => h.dataset.outcome)).toEqual(['runs']));
    expect(window.location.hash).toBe(`#/bench?project=${ROOT}&event=PostToolUse`);
    expect(sessionStorage.length).toBe(0);
  });

  it('reports a failed run in the error banner and match problems inline', async () => {
    mount();
    await vi.waitFor(() => expect(hooks().length).toBe(4));
    stub.failNext('bench_run', { kind: 'io', message: 'cannot spawn sh' });
    $('bench-run').click();
    await vi.waitFor(() => expect(errors.current()).not.toBeNull());
    expect(errors.current()).toEqual({ kind: 'io', message: 'cannot spawn sh' });
    expect(document.getElementById('error-banner-message')!.textContent).toBe('Could not run the hooks: cannot spawn sh');

    stub.failNext('bench_match', { kind: 'invalid_input', message: '/r/.claude/settings.json: hooks.PreToolUse[0].matcher: invalid regex' });
    type(textarea().value.replace('cargo test', 'cargo build'));
    await vi.waitFor(() => expect($('bench-match-error')).not.toBeNull());
    expect($('bench-match-error').dataset.kind).toBe('invalid_input');
    expect($('bench-match-error').textContent).toContain('invalid regex');
  });

  it('cancels a run in flight: the Cancel button stops it and the result says so, not the error banner', async () => {
    mount();
    await vi.waitFor(() => expect(hooks().length).toBe(4));
    // A backend whose run lasts until it is cancelled, as a hung hook does.
    let cancelRun: (() => void) | null = null;
    let cancels = 0;
    const inner = stub;
    setBackend({
      kind: 'stub',
      listen: (event, handler) => inner.listen(event, handler),
      invoke: (cmd, args) => {
        if (cmd === 'bench_run') {
          return new Promise((_resolve, reject) => {
            cancelRun = () => reject({ kind: 'cancelled', message: 'the run was cancelled' });
          });
        }
        if (cmd === 'bench_cancel') {
          cancels++;
          cancelRun?.();
          return Promise.resolve(1);
        }
        return inner.invoke(cmd, args);
      },
    });
    expect($('bench-cancel').hidden).toBe(true);
    $('bench-run').click();
    await vi.waitFor(() => expect($('bench-cancel').hidden).toBe(false));
    expect($('bench-run').textContent).toBe('Running…');
    expect($<HTMLButtonElement>('bench-run').disabled).toBe(true);

    $('bench-cancel').click();
    await vi.waitFor(() => expect($('bench-cancelled')).not.toBeNull());
    expect(cancels).toBe(1);
    expect($('bench-cancelled').textContent).toContain('Run cancelled');
    expect(errors.current()).toBeNull();
    expect($('bench-cancel').hidden).toBe(true);
    expect($('bench-run').textContent).toBe('Run hooks');
    expect($<HTMLButtonElement>('bench-run').disabled).toBe(false);
    expect($('bench-result').getAttribute('aria-busy')).toBe('false');
  });

  it('says so when there is no project yet', async () => {
    stub = createStub({ rows: 0 });
    stub.projects.splice(0);
    setBackend(stub);
    errors = createErrorBanner();
    view = createBenchView({ errors, navigate: () => {}, appInfo: Promise.resolve(null) }, { view: 'bench', project: null, event: null });
    document.body.replaceChildren(view.el);
    await vi.waitFor(() => expect($('bench-empty').hidden).toBe(false));
    expect($('bench-body').hidden).toBe(true);
  });
});
