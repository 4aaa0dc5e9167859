import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../src/lib/bindings/commands';
import type { LedgerCommit, MutationRow, Page, TimelineQuery } from '../src/lib/types';
import { REFUSED_PATHS, createStub, type StubCommands } from '../src/stub';
import type { StubPart } from '../src/stub/types';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const q = (over: Partial<TimelineQuery> = {}): TimelineQuery => ({
  repo: null, all: true, since: null, until: null, file: null, agent: null, agent_kind: null, session: null, event_type: null, branch: null, tool: null, search: null, limit: null, ...over,
});
const make = (rows = 500) => createStub({ rows, now: () => NOW, seed: 7 });
/** Every matching row, as one page from the oldest. */
const timeline = async (stub: ReturnType<typeof make>, query: TimelineQuery) =>
  ((await stub.invoke('timeline_page', { query, anchor: { at: 'oldest' }, limit: 10_000 })) as Page<MutationRow>).rows;

describe('stub backend', () => {
  it('is deterministic for a seed', async () => {
    const a = await timeline(make(), q());
    const b = await timeline(make(), q());
    expect(a.map((r) => r.event_id)).toEqual(b.map((r) => r.event_id));
    expect(a).toHaveLength(500);
  });

  it('answers app_info and list_projects in the contract shape', async () => {
    const stub = make();
    await expect(stub.invoke('app_info')).resolves.toMatchObject({ daemon: { mode: 'own', error: null } });
    const projects = (await stub.invoke('list_projects')) as { root: string; mutations: number; has_ledger: boolean }[];
    expect(projects.length).toBeGreaterThanOrEqual(4);
    const total = projects.reduce((n, p) => n + p.mutations, 0);
    expect(total).toBe(500);
  });

  it('returns rows oldest first, with repo only for --all', async () => {
    const stub = make();
    const all = await timeline(stub, q());
    const times = all.map((r) => r.event_timestamp);
    expect([...times].sort()).toEqual(times);
    expect(all.every((r) => typeof r.repo === 'string')).toBe(true);
    const one = await timeline(stub, q({ repo: '/home/dev/src/hookd', all: false }));
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((r) => r.repo === undefined)).toBe(true);
  });

  it('narrows by exact fields and keeps the newest limit; times and event names are left to the core', async () => {
    const stub = make(2000);
    const repo = '/home/dev/src/hookd';
    const rows = await timeline(stub, q({ repo, all: false, tool: 'Edit' }));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.tool_name === 'Edit')).toBe(true);
    const file = rows[0]!.file_path!;
    const byFile = await timeline(stub, q({ repo, all: false, file }));
    expect(byFile.every((r) => r.file_path === file)).toBe(true);
    const combined = await timeline(stub, q({ repo, all: false, file, agent: 'codex-cli', branch: 'main' }));
    expect(combined.every((r) => r.file_path === file && r.agent_id === 'codex-cli' && r.branch === 'main')).toBe(true);
    const all = await timeline(stub, q());
    // Not interpreted (a limit is the window's, as with the core's pages): the answer is the same as without them.
    expect(await timeline(stub, q({ limit: 5 }))).toHaveLength(all.length);
    const ignored = await timeline(stub, q({ since: '1d', until: 'soon', event_type: 'PreToolUse' }));
    expect(ignored).toHaveLength(all.length);
  });

  it('rejects with the backend\'s error kinds, and as Tauri does for an unknown command', async () => {
    const stub = make();
    await expect(stub.invoke('timeline_page', { anchor: { at: 'newest' }, limit: 10, query: q({ repo: '/nowhere', all: false }) })).rejects.toMatchObject({ kind: 'not_found' });
    // A project without a ledger has an empty timeline, as in the app.
    await expect(timeline(stub, q({ repo: '/home/dev/scratch/notes', all: false }))).resolves.toEqual([]);
    await expect(stub.invoke('nope')).rejects.toBe('command nope not found');
    stub.failNext('list_projects', { kind: 'io', message: 'disk on fire' });
    await expect(stub.invoke('list_projects')).rejects.toEqual({ kind: 'io', message: 'disk on fire' });
    await expect(stub.invoke('list_projects')).resolves.toBeInstanceOf(Array);
  });

  it('adds folders, refusing only its canned paths, and says which were listed already', async () => {
    const stub = make();
    const result = await stub.invoke('add_projects', { paths: ['/home/dev/src/new-one', 'relative/path', '/home/dev/missing', '/home/dev/file.txt', '/home/dev/src/hookd', ''] });
    expect(result).toMatchObject({
      added: [{ root: '/home/dev/src/new-one', name: 'new-one', origin: 'manual', has_ledger: false }],
      known: [{ root: '/home/dev/src/hookd' }],
      rejected: [
        { path: 'relative/path', reason: REFUSED_PATHS['relative/path'] },
        { path: '/home/dev/missing', reason: 'does not exist' },
        { path: '/home/dev/file.txt', reason: 'not a folder (a file was given)' },
        { path: '', reason: 'empty path' },
      ],
    });
    const roots = ((await stub.invoke('list_projects')) as { root: string }[]).map((p) => p.root);
    expect(roots).toContain('/home/dev/src/new-one');
  });

  it('answers every command of the generated map, typed by it', () => {
    const stub = make(10);
    expect(Object.keys(stub.commands).sort()).toEqual([...COMMAND_NAMES].sort());
    // A mistyped answer does not compile:
    // @ts-expect-error: bench_cancel resolves with a number
    const wrong: StubPart<'bench_cancel'> = { bench_cancel: () => 'none' };
    // nor does a missing one:
    const { app_info: _left_out, ...rest } = stub.commands;
    // @ts-expect-error: every command needs an answer
    const missing: StubCommands = rest;
    expect([wrong, missing]).toHaveLength(2);
  });

  it('emits ledger-commit for new mutations and projects-changed for drops; unlisten stops them', async () => {
    const stub = make(10);
    const commits: LedgerCommit[] = [];
    const stop = await stub.listen('ledger-commit', (p) => commits.push(p as LedgerCommit));
    const added = stub.addMutations(2, '/home/dev/src/infra');
    expect(commits).toHaveLength(1);
    expect(commits[0]!.notices[0]).toMatchObject({ ledger: '/home/dev/src/infra/.hookd/mutations.db', mutations: 2 });
    expect(commits[0]!.notices[0]!.events.map((e) => e.event_id)).toEqual(added.map((r) => r.event_id));
    const rows = await timeline(stub, q({ repo: '/home/dev/src/infra', all: false }));
    expect(rows.slice(-2).map((r) => r.event_id)).toEqual(added.map((r) => r.event_id));
    stop();
    stub.addMutations(1);
    expect(commits).toHaveLength(1);
    expect(stub.listenerCount('ledger-commit')).toBe(0);

    const changes: unknown[] = [];
    await stub.listen('projects-changed', (p) => changes.push(p));
    stub.drop(['/home/dev/dropped']);
    expect(changes).toEqual([{ added: [expect.objectContaining({ root: '/home/dev/dropped' })], known: [], rejected: [] }]);
  });
});
