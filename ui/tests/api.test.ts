import { afterEach, describe, expect, it, vi } from 'vitest';
import { HookdError, api, invoke, listen, normalizeError, setBackend, tauriBackend, type Backend } from '../src/lib/api';

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
    await expect(api.addProjects(['/a'])).resolves.toEqual({ added: [], rejected: [] });
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
    await expect(api.timeline({ repo: null, all: true, since: null, until: null, file: null, agent: null, session: null, event_type: null, branch: null, tool: null, limit: null, omit_payload: false })).rejects.toMatchObject({
      kind: 'ipc',
      message: 'command timeline not found',
    });
  });

  it('normalises a backend that throws synchronously', async () => {
    setBackend(fakeBackend({ invoke: () => { throw new Error('boom'); } }));
    await expect(api.appInfo()).rejects.toMatchObject({ kind: 'client', message: 'boom' });
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
