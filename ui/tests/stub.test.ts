import { describe, expect, it } from 'vitest';
import { createStub } from '../src/lib/stub';
import type { LedgerCommit, MutationRow, TimelineQuery } from '../src/lib/types';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const q = (over: Partial<TimelineQuery> = {}): TimelineQuery => ({
  repo: null, all: true, since: null, until: null, file: null, agent: null, session: null, event_type: null, branch: null, tool: null, limit: null, omit_payload: false, ...over,
});
const make = (rows = 500) => createStub({ rows, now: () => NOW, seed: 7 });
const timeline = async (stub: ReturnType<typeof make>, query: TimelineQuery) =>
  (await stub.invoke('timeline', { query })) as MutationRow[];

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

  it('filters like hookd query: exact file/agent/branch, case-insensitive tool, newest-N limit', async () => {
    const stub = make(2000);
    const repo = '/home/dev/src/hookd';
    const rows = await timeline(stub, q({ repo, all: false, tool: 'EDIT' }));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.tool_name === 'Edit')).toBe(true);
    const file = rows[0]!.file_path!;
    const byFile = await timeline(stub, q({ repo, all: false, file }));
    expect(byFile.every((r) => r.file_path === file)).toBe(true);
    const combined = await timeline(stub, q({ repo, all: false, file, agent: 'codex-cli', branch: 'main' }));
    expect(combined.every((r) => r.file_path === file && r.agent_id === 'codex-cli' && r.branch === 'main')).toBe(true);
    const all = await timeline(stub, q());
    const last5 = await timeline(stub, q({ limit: 5 }));
    expect(last5.map((r) => r.event_id)).toEqual(all.slice(-5).map((r) => r.event_id));
  });

  it('filters by since/until (durations and RFC 3339)', async () => {
    const stub = make(3000);
    const lastDay = await timeline(stub, q({ since: '1d' }));
    expect(lastDay.length).toBeGreaterThan(0);
    expect(lastDay.every((r) => Date.parse(r.event_timestamp) >= NOW - 86_400_000)).toBe(true);
    const older = await timeline(stub, q({ until: new Date(NOW - 86_400_000).toISOString() }));
    expect(older.length + lastDay.length).toBe(3000);
  });

  it('rejects with typed errors', async () => {
    const stub = make();
    await expect(stub.invoke('timeline', { query: q({ since: 'soon' }) })).rejects.toMatchObject({ kind: 'invalid_time' });
    await expect(stub.invoke('timeline', { query: q({ repo: '/nowhere', all: false }) })).rejects.toMatchObject({ kind: 'not_a_repository' });
    await expect(stub.invoke('timeline', { query: q({ repo: '/home/dev/scratch/notes', all: false }) })).rejects.toMatchObject({ kind: 'no_ledger' });
    await expect(stub.invoke('nope')).rejects.toBe('command nope not found');
    stub.failNext('list_projects', { kind: 'io', message: 'disk on fire' });
    await expect(stub.invoke('list_projects')).rejects.toEqual({ kind: 'io', message: 'disk on fire' });
    await expect(stub.invoke('list_projects')).resolves.toBeInstanceOf(Array);
  });

  it('adds folders and explains every refusal', async () => {
    const stub = make();
    const result = await stub.invoke('add_projects', {
      paths: ['/home/dev/src/new-one/', 'relative/path', '/home/dev/missing/x', '/home/dev/a.txt', '/home/dev/src/hookd', ''],
    });
    expect(result).toMatchObject({
      added: [{ root: '/home/dev/src/new-one', name: 'new-one', origin: 'manual', has_ledger: false }],
      rejected: [
        { path: 'relative/path', reason: 'not an absolute path' },
        { path: '/home/dev/missing/x', reason: 'no such directory' },
        { path: '/home/dev/a.txt', reason: 'not a folder (a file was given)' },
        { path: '/home/dev/src/hookd', reason: 'already a project' },
        { path: '', reason: 'empty path' },
      ],
    });
    const roots = ((await stub.invoke('list_projects')) as { root: string }[]).map((p) => p.root);
    expect(roots).toContain('/home/dev/src/new-one');
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
    expect(changes).toEqual([{ added: [expect.objectContaining({ root: '/home/dev/dropped' })], rejected: [] }]);
  });
});
