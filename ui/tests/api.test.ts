import { afterEach, describe, expect, it, vi } from 'vitest';
import { HookdError, api, invoke, listen, normalizeError, pickFolders, setBackend, tauriBackend, type Backend } from '../src/lib/api';
import { COMMAND_NAMES } from '../src/lib/bindings/commands';

afterEach(() => setBackend(null));

function fakeBackend(impl: Partial<Backend>): Backend {
  return {
    kind: 'tauri',
    invoke: impl.invoke ?? (() => Promise.resolve(null)),
    listen: impl.listen ?? (() => Promise.resolve(() => {})),
  };
}

describe('normalizeError', () => {
  it('keeps the backend typed error', () => {
    expect(normalizeError({ kind: 'not_a_repository', message: '/tmp is not in git' })).toEqual({
      kind: 'not_a_repository',
      message: '/tmp is not in git',
    });
  });

  it('turns a bare string (Tauri IPC) into kind ipc', () => {
    expect(normalizeError('command foo not found')).toEqual({ kind: 'ipc', message: 'command foo not found' });
  });

  it('turns JS errors into kind client', () => {
    expect(normalizeError(new TypeError('x is undefined'))).toEqual({ kind: 'client', message: 'x is undefined' });
  });

  it('fills a missing kind or message and serialises the rest', () => {
    expect(normalizeError({ message: 'only a message' })).toEqual({ kind: 'unknown', message: 'only a message' });
    expect(normalizeError({ kind: 'io' })).toEqual({ kind: 'io', message: 'io' });
    expect(normalizeError({ code: 5 })).toEqual({ kind: 'unknown', message: '{"code":5}' });
    expect(normalizeError(undefined)).toEqual({ kind: 'unknown', message: 'undefined' });
    expect(normalizeError(null)).toEqual({ kind: 'unknown', message: 'null' });
  });

  it('keeps a HookdError as it is', () => {
    expect(normalizeError(new HookdError({ kind: 'k', message: 'm' }))).toEqual({ kind: 'k', message: 'm' });
  });
});

describe('invoke', () => {
  it('passes the command and arguments through and returns the result', async () => {
    const calls: unknown[] = [];
    setBackend(fakeBackend({ invoke: (cmd, args) => (calls.push([cmd, args]), Promise.resolve({ added: [], rejected: [] })) }));
    await expect(api.add_projects({ paths: ['/a'] })).resolves.toEqual({ added: [], rejected: [] });
    expect(calls).toEqual([['add_projects', { paths: ['/a'] }]]);
  });

  it('rejects with a HookdError carrying kind and message, for {kind,message}', async () => {
    setBackend(fakeBackend({ invoke: () => Promise.reject({ kind: 'no_ledger', message: 'no ledger in /r' }) }));
    const err = await invoke('list_projects', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HookdError);
    expect(err).toMatchObject({ kind: 'no_ledger', message: 'no ledger in /r' });
  });

  it('rejects with a HookdError for a string rejection too', async () => {
    setBackend(fakeBackend({ invoke: () => Promise.reject('command timeline not found') }));
    await expect(api.timeline_page({ query: { repo: null, all: true, since: null, until: null, file: null, agent: null, agent_kind: null, session: null, event_type: null, branch: null, tool: null, search: null, limit: null }, anchor: { at: 'newest' }, limit: 200 })).rejects.toMatchObject({
      kind: 'ipc',
      message: 'command timeline not found',
    });
  });

  it('normalises a backend that throws synchronously', async () => {
    setBackend(fakeBackend({ invoke: () => { throw new Error('boom'); } }));
    await expect(api.app_info()).rejects.toMatchObject({ kind: 'client', message: 'boom' });
  });
});

describe('api', () => {
  it('has every generated command, and nothing else', () => {
    expect(Object.keys(api).sort()).toEqual([...COMMAND_NAMES].sort());
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('types every command from the generated map (checked by tsc)', async () => {
    setBackend(fakeBackend({}));
    // @ts-expect-error: hook_files takes { project }
    await api.hook_files();
    // @ts-expect-error: project is a string
    await api.hook_files({ project: 1 });
    // @ts-expect-error: the arguments are keyed as the Rust parameters are named
    await invoke('check_matcher', { event: 'Stop', matcher: null });
    // @ts-expect-error: no such command
    expect(api.no_such_command).toBeUndefined();
    const files: Awaited<ReturnType<typeof api.hook_files>> = [];
    expect(files).toEqual([]);
  });

  it('sends no argument object for a command that takes none', async () => {
    const calls: unknown[] = [];
    setBackend(fakeBackend({ invoke: (cmd, args) => (calls.push([cmd, args]), Promise.resolve(3)) }));
    await expect(api.bench_cancel()).resolves.toBe(3);
    await expect(invoke('bench_cancel')).resolves.toBe(3);
    expect(calls).toEqual([['bench_cancel', undefined], ['bench_cancel', undefined]]);
  });

  it('opens the plugin folder picker and gives [] when it is cancelled', async () => {
    const answers: unknown[] = [['/a', '/b'], '/c', null];
    const calls: unknown[] = [];
    setBackend(fakeBackend({ invoke: (cmd, args) => (calls.push([cmd, args]), Promise.resolve(answers.shift())) }));
    await expect(pickFolders()).resolves.toEqual(['/a', '/b']);
    await expect(pickFolders()).resolves.toEqual(['/c']);
    await expect(pickFolders()).resolves.toEqual([]);
    expect(calls[0]).toEqual(['plugin:dialog|open', { options: { directory: true, multiple: true, title: 'Add project folders' } }]);
  });
});

describe('tauriBackend', () => {
  it('maps core.invoke and hands listeners only the payload', async () => {
    const invokeSpy = vi.fn(() => Promise.resolve(42));
    let handler: ((e: { event: string; id: number; payload: unknown }) => void) | null = null;
    const unlisten = vi.fn();
    const tauri = {
      core: { invoke: invokeSpy },
      event: {
        listen: vi.fn((_name: string, h: (e: { event: string; id: number; payload: unknown }) => void) => {
          handler = h;
          return Promise.resolve(unlisten);
        }),
      },
    };
    setBackend(tauriBackend(tauri));
    await expect(invoke('app_info', {})).resolves.toBe(42);
    expect(invokeSpy).toHaveBeenCalledWith('app_info', {});
    const seen: unknown[] = [];
    const stop = await listen('ledger-commit', (p) => seen.push(p));
    handler!({ event: 'ledger-commit', id: 1, payload: { notices: [] } });
    expect(seen).toEqual([{ notices: [] }]);
    expect(tauri.event.listen).toHaveBeenCalledWith('ledger-commit', expect.any(Function));
    stop();
    expect(unlisten).toHaveBeenCalledOnce();
  });
});
