import { describe, expect, it } from 'vitest';
import { PagedRows } from '../src/lib/paged';
import { pageOf } from '../src/stub/timeline';
import type { Anchor, Page } from '../src/lib/types';

/** A row of a fake ledger: its time orders it, its id is its commit order. */
interface Row {
  id: number;
  event_timestamp: string;
  agent_id: string;
  tool_name: string | null;
  hook_type: string;
}

const at = (minute: number): string => new Date(Date.UTC(2026, 10, 21, 10, 0) + minute * 60_000).toISOString();

/** A ledger the cache reads through the stub's page semantics, with its requests recorded. */
function ledger(n: number) {
  const rows: Row[] = Array.from({ length: n }, (_, i) => ({ id: i + 1, event_timestamp: at(i), agent_id: 'a', tool_name: 'Write', hook_type: 'post_tool_use' }));
  const asked: Anchor[] = [];
  /** Requests held until released, in order. */
  const waiting: (() => void)[] = [];
  let hold = false;
  const read = (anchor: Anchor, limit: number): Page<Row> => {
    const sorted = [...rows].sort((a, b) => (a.event_timestamp < b.event_timestamp ? -1 : a.event_timestamp > b.event_timestamp ? 1 : a.id - b.id));
    return pageOf(sorted, rows, anchor, limit, () => '');
  };
  return {
    rows,
    asked,
    add(minute: number): Row {
      const row = { id: rows.length + 1, event_timestamp: at(minute), agent_id: 'a', tool_name: 'Write', hook_type: 'post_tool_use' };
      rows.push(row);
      return row;
    },
    hold(on: boolean) {
      hold = on;
    },
    release() {
      for (const go of waiting.splice(0)) go();
    },
    fetch: async (anchor: Anchor, limit: number): Promise<Page<Row>> => {
      asked.push(anchor);
      // Answered as the ledger is now, delivered when released.
      const page = read(anchor, limit);
      if (hold) await new Promise<void>((resolve) => waiting.push(resolve));
      return page;
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

function cache(l: ReturnType<typeof ledger>, pageSize = 10, maxPages = 3) {
  let changes = 0;
  const paged = new PagedRows<Row>({ fetch: l.fetch, key: (r) => String(r.id), onChange: () => changes++, pageSize, maxPages });
  return { paged, changes: () => changes };
}

describe('PagedRows', () => {
  it('opens on the newest page, sized by the total, with placeholders elsewhere', async () => {
    const l = ledger(95);
    const { paged } = cache(l);
    await paged.open();
    expect(paged.total).toBe(95);
    expect(l.asked).toEqual([{ at: 'newest' }]);
    expect(paged.get(94)?.id).toBe(95);
    expect(paged.get(85)?.id).toBe(86);
    expect(paged.get(84)).toBeUndefined();
    expect(paged.get(0)).toBeUndefined();
    expect(paged.held).toBe(10);
  });

  it('fetches the pages a range needs once, and evicts the farthest beyond the cap', async () => {
    const l = ledger(200);
    const { paged } = cache(l, 10, 3);
    await paged.open();
    paged.ensure(42, 58);
    paged.ensure(42, 58); // already on its way: not asked twice
    await settle();
    expect(l.asked.slice(1)).toEqual([
      { at: 'position', position: 40 },
      { at: 'position', position: 50 },
    ]);
    expect(paged.get(42)?.id).toBe(43);
    expect(paged.get(57)?.id).toBe(58);
    expect(paged.pages).toBe(3); // the newest page and the two

    paged.ensure(100, 105);
    await settle();
    // Four chunks with a cap of three: the one farthest from 100 (the newest, 190) goes.
    expect(paged.pages).toBe(3);
    expect(paged.get(195)).toBeUndefined();
    expect(paged.get(101)?.id).toBe(102);
    expect(paged.get(45)?.id).toBe(46);
  });

  it('tells the rows a live read found before the repaint that shows them', async () => {
    const l = ledger(30);
    const told: string[] = [];
    const paged = new PagedRows<Row>({
      fetch: l.fetch,
      key: (r) => String(r.id),
      onChange: () => told.push(`change: ${paged.total}`),
      onLive: (rows) => told.push(`live: ${rows.map((r) => r.id).join(',')}`),
      pageSize: 10,
      maxPages: 3,
    });
    await paged.open();
    const a = l.add(40);
    const b = l.add(41);
    await paged.live();
    expect(told).toEqual(['change: 30', `live: ${a.id},${b.id}`, 'change: 32']);
    // A late row (positions shift): told, then the repaint.
    told.length = 0;
    const late = l.add(5.5);
    expect((await paged.live()).how).toBe('shift');
    expect(told.slice(0, 2)).toEqual([`live: ${late.id}`, 'change: 33']);
  });

  it('appends what was committed after the end without reading anything else', async () => {
    const l = ledger(30);
    const { paged } = cache(l);
    await paged.open();
    const a = l.add(40);
    const b = l.add(41);
    const result = await paged.live();
    expect(result.how).toBe('append');
    expect(result.rows.map((r) => r.id)).toEqual([a.id, b.id]);
    expect(paged.total).toBe(32);
    expect(paged.get(30)?.id).toBe(a.id);
    expect(paged.get(31)?.id).toBe(b.id);
    expect(l.asked).toEqual([{ at: 'newest' }, { at: 'newer_than', seen: { '': 30 } }]);
    // Nothing new: nothing changes.
    expect((await paged.live()).how).toBe('none');
    expect(paged.received).toBe(12);
  });

  it('keeps only the chunks near the range on screen while live rows stream in', async () => {
    const l = ledger(30);
    const { paged } = cache(l, 10, 25);
    await paged.open();
    // A burst, read a page at a time, the list following the end.
    for (let n = 0; n < 30; n++) {
      for (let i = 0; i < 10; i++) l.add(100 + n * 10 + i);
      expect((await paged.live()).how).toBe('append');
      paged.ensure(paged.total - 8, paged.total);
    }
    expect(paged.total).toBe(330);
    // The chunk on screen and at most two on either side, not the 25 the cap allows.
    expect(paged.pages).toBeLessThanOrEqual(5);
    expect(paged.get(329)?.id).toBe(330);
    expect(paged.get(100)).toBeUndefined();
    // Scrolled back, what went is read again.
    paged.ensure(100, 105);
    await settle();
    expect(paged.get(100)?.id).toBe(101);
  });

  it('refetches the range on screen when a late row sorts before rows held', async () => {
    const l = ledger(30);
    const { paged } = cache(l);
    await paged.open();
    paged.ensure(20, 30);
    const late = l.add(5.5); // between positions 5 and 6
    const result = await paged.live();
    expect(result.how).toBe('shift');
    expect(paged.total).toBe(31);
    await settle();
    expect(l.asked.at(-1)).toEqual({ at: 'position', position: 20 });
    // Every row after the late one moved down by one.
    expect(paged.get(20)?.id).toBe(20);
    expect(paged.get(29)?.id).toBe(29);
    expect(paged.indexOf(String(late.id))).toBe(-1);
  });

  it('drops a page that arrives after the positions moved', async () => {
    const l = ledger(60);
    const { paged } = cache(l);
    await paged.open();
    l.hold(true);
    paged.ensure(0, 5); // held
    l.hold(false);
    l.add(-1); // sorts first: every position moves
    await paged.live();
    // The old request comes back with rows at positions that are no longer theirs.
    l.release();
    await settle();
    await settle();
    expect(paged.get(0)?.id).toBe(61);
    expect(paged.get(1)?.id).toBe(1);
  });

  it('ignores a whole open that a newer open replaced', async () => {
    const l = ledger(20);
    const { paged } = cache(l);
    l.hold(true);
    const first = paged.open();
    l.hold(false);
    l.add(30);
    await paged.open();
    l.release();
    await first;
    expect(paged.total).toBe(21);
  });

  it('reads more when a live read hit its limit', async () => {
    const l = ledger(5);
    const { paged } = cache(l, 10);
    await paged.open();
    for (let i = 0; i < 15; i++) l.add(10 + i);
    const one = await paged.live();
    expect(one.how).toBe('append');
    expect(one.more).toBe(true);
    // The list grows as the rows arrive.
    expect(paged.total).toBe(15);
    const two = await paged.live();
    expect(two.rows).toHaveLength(5);
    expect(two.more).toBe(false);
    expect(paged.get(19)?.id).toBe(20);
  });
});
