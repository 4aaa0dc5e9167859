// A row recorded late, for the timeline's tests: older than every row of
// the repository, committed now (a live delta that lands before the rows
// already shown and moves every position by one).

import type { StubBackend } from '../../src/stub';
import type { MutationRow } from '../../src/lib/types';

/**
 * Adds to `stub` a copy of `repo`'s oldest row, a minute older and with the
 * next id, and announces its commit; returns how many rows `repo` had
 * before it.
 */
export function commitLateRow(stub: StubBackend, repo: string): number {
  const own = stub.rows.filter((r) => r.repo === repo);
  const oldest = own[0]!;
  const late: MutationRow = {
    ...oldest,
    id: Math.max(...own.map((r) => r.id)) + 1,
    event_id: 'late-row',
    event_timestamp: new Date(Date.parse(oldest.event_timestamp) - 60_000).toISOString(),
  };
  stub.rows.push(late);
  stub.emit('ledger-commit', { notices: [{ ledger: `${repo}/.hookd/mutations.db`, events: [], mutations: 1, hook_runs: 0 }] });
  return own.length;
}
