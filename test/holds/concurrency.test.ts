// Queues stay whole under concurrency: 500 simultaneous placements on one bib, racing duplicate
// placements and placements over the limit, two check-ins of the last copies for two waiting
// patrons, the same copy checked in twice at once, and two "processes" expiring the same holds.
// On PostgreSQL these run over several connections at once; on PGlite they are serialised.
import { CircLogService } from '../../src/circ-log/service.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FixedClock } from '../../src/shared/calendar.ts';
import { LibraryService } from '../../src/library/service.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { ItemService } from '../../src/items/service.ts';
import { HoldService } from '../../src/holds/service.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatron, addPatrons, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';

describe(`hold queues under concurrency on ${ENGINE}`, () => {
  let t: TestApp;
  let clock: FixedClock;
  before(async () => {
    clock = new FixedClock('2026-11-02');
    t = await createTestApp({}, { clock });
    await t.testDb.db.query('update library_settings set hold_limit = 5');
    await setUpLibrary(t.testDb.db);
  });
  after(() => t.close());

  /** The active holds of a bib's queue as GET /patrons/holds/{id} shows them, in id order. */
  async function queue(bib: string) {
    const rows = await t.testDb.db.query<{ id: string; patron_id: string }>(
      "select id::text, patron_id::text from holds where bib_id = $1 and state in ('0', 't', 'r') order by id",
      [bib],
    );
    const holds = await Promise.all(rows.map((r) => t.services.holds.get(r.id)));
    return holds.map((h) => ({
      id: Number(h.id),
      patron: h.patron_id,
      priority: h.priority!,
      length: h.queue_length!,
      state: h.state,
      item: h.trapped_item_id,
    }));
  }

  function assertWhole(q: Awaited<ReturnType<typeof queue>>, n: number) {
    assert.equal(q.length, n, 'no lost hold');
    assert.equal(new Set(q.map((h) => h.patron)).size, n, 'no duplicate patron');
    assert.deepEqual(
      q.map((h) => h.priority),
      Array.from({ length: n }, (_, i) => i + 1),
      'priorities 1..N, no gap, no duplicate, in placement order',
    );
    assert.ok(q.every((h) => h.length === n));
  }

  it('500 simultaneous placements on one bib leave a queue 1..500', async () => {
    const bib = await addBib(t.testDb.db, 'Popular');
    await addItem(t.testDb.db, bib);
    const patrons = await addPatrons(t.testDb.db, 500);
    const results = await Promise.allSettled(
      patrons.map((p, i) => t.services.holds.place(p, { recordType: 'b', recordNumber: bib, pickupLocation: i % 2 ? 'mn' : 'br' })),
    );
    assert.deepEqual(
      results.filter((r) => r.status === 'rejected'),
      [],
    );
    assertWhole(await queue(bib), 500);
  });

  it('racing placements of the same hold by one patron: one succeeds; over the limit: exactly the limit', async () => {
    const bib = await addBib(t.testDb.db, 'Same');
    await addItem(t.testDb.db, bib);
    const patron = await addPatron(t.testDb.db);
    const same = await Promise.allSettled(
      Array.from({ length: 10 }, () => t.services.holds.place(patron, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' })),
    );
    assert.equal(same.filter((r) => r.status === 'fulfilled').length, 1);
    for (const r of same) if (r.status === 'rejected') assert.equal((r.reason as { specificCode: number }).specificCode, 3);

    const other = await addPatron(t.testDb.db);
    const bibs = [];
    for (let i = 0; i < 12; i++) {
      const b = await addBib(t.testDb.db, `Limit ${i}`);
      await addItem(t.testDb.db, b);
      bibs.push(b);
    }
    const many = await Promise.allSettled(
      bibs.map((b) => t.services.holds.place(other, { recordType: 'b', recordNumber: b, pickupLocation: 'mn' })),
    );
    assert.equal(many.filter((r) => r.status === 'fulfilled').length, 5);
    for (const r of many) if (r.status === 'rejected') assert.equal((r.reason as { specificCode: number }).specificCode, 7);
  });

  it('two check-ins of the last two copies fill the two waiting holds, one copy each', async () => {
    const db = t.testDb.db;
    for (let round = 0; round < 5; round++) {
      const bib = await addBib(db, `Last copies ${round}`);
      const items = [await addItem(db, bib), await addItem(db, bib)];
      const [a, b] = [await addPatron(db), await addPatron(db)];
      await t.services.holds.place(a, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });
      await t.services.holds.place(b, { recordType: 'b', recordNumber: bib, pickupLocation: 'br' });
      const results = await Promise.all(items.map((item) => t.services.circulation.checkin(item, 'mn')));
      assert.deepEqual(results.map((r) => r.status).sort(), ['!', 't']);
      const q = await queue(bib);
      assertWhole(q, 2);
      assert.deepEqual(
        q.map((h) => h.state),
        ['r', 't'],
      );
      assert.deepEqual(new Set(q.map((h) => h.item)), new Set(items), 'each copy fills one hold');
    }
  });

  it('the same copy checked in twice at once fills one hold', async () => {
    const db = t.testDb.db;
    const bib = await addBib(db, 'One copy');
    const item = await addItem(db, bib);
    const [a, b] = [await addPatron(db), await addPatron(db)];
    await t.services.holds.place(a, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });
    await t.services.holds.place(b, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });
    const results = await Promise.all([
      t.services.circulation.checkin(item, 'mn'),
      t.services.circulation.checkin(item, 'mn'),
      t.services.circulation.checkin(item, 'mn'),
    ]);
    assert.equal(new Set(results.map((r) => r.holdId)).size, 1);
    const q = await queue(bib);
    assertWhole(q, 2);
    assert.deepEqual(
      q.map((h) => [h.state, h.item]),
      [
        ['r', item],
        ['0', null],
      ],
    );
  });

  it('two processes expiring at once expire each hold once and pass each copy on once', async () => {
    const db = t.testDb.db;
    const bibs: string[] = [];
    for (let i = 0; i < 10; i++) {
      const bib = await addBib(db, `Expiring ${i}`);
      const item = await addItem(db, bib);
      const [a, b] = [await addPatron(db), await addPatron(db)];
      await t.services.holds.place(a, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });
      await t.services.holds.place(b, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });
      await t.services.circulation.checkin(item, 'mn');
      bibs.push(bib);
    }
    clock.set('2026-12-01');
    const count = async (sql: string) => (await db.query<{ n: number }>(`select count(*)::int as n from holds where ${sql}`))[0]!.n;
    const due = await count("state = 'r' and pickup_by < '2026-12-01'");
    const expiredBefore = await count("state = 'x'");
    assert.ok(due >= 10);
    const second = t.testDb.url ? openPostgres(t.testDb.url, { max: 5, connectTimeoutSec: 10 }) : undefined;
    try {
      const otherDb = second ?? db;
      const otherLibrary = new LibraryService(otherDb, clock);
      const other = new HoldService(otherDb, otherLibrary, new CircLogService(otherDb, 365), new ItemService(otherDb), t.services.patrons);
      const runs = await Promise.all([t.services.holds.expire(), other.expire(), t.services.holds.expire(), other.expire()]);
      assert.equal(
        runs.reduce((n, r) => n + r.uncollected, 0),
        due,
        'each ready hold expired once',
      );
      assert.equal(
        runs.reduce((n, r) => n + r.unfilled, 0),
        0,
      );
      assert.equal(await count("state = 'x'"), expiredBefore + due);
      for (const bib of bibs) {
        const q = await queue(bib);
        assert.equal(q.length, 1);
        assert.deepEqual([q[0]!.state, q[0]!.priority], ['r', 1], 'the copy passed to the next hold');
      }
    } finally {
      await second?.close();
      clock.set('2026-11-02');
    }
  });
});
