// Generated holds: the same for the same seed, day and counts; placed only where the hold rules
// allow; shaped like a library's (long queues on a few bibs); loaded in bulk once however often
// generate runs; and read back through GET /v6/patrons/{id}/holds with their queue places.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMonths, systemClock } from '../../src/shared/calendar.ts';
import { controlNumber, generateRecord, itemBarcode } from '../../src/generate/catalogue.ts';
import { generateHolds, type GeneratedHold, type HoldsPlan } from '../../src/generate/holds.ts';
import { loadGenerated } from '../../src/generate/load.ts';
import { generatePatron, patronBarcode } from '../../src/generate/patrons.ts';
import { HOLDABLE_STATUSES } from '../../src/holds/repository.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

const PLAN: HoldsPlan = {
  seed: 5,
  bibs: 3000,
  patrons: 300,
  holds: 900,
  today: '2026-11-22',
  pickupLocations: ['ea', 'mn'],
  holdLimit: 50,
  holdMonths: 3,
};

function groupBy<T, K>(list: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of list) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

function holdableCopies(seed: number, bib: number): number[] {
  return generateRecord(seed, bib)
    .fields.filter((f) => f.tag === '949')
    .flatMap((f, i) => ('subfields' in f && HOLDABLE_STATUSES.includes(f.subfields.find((s) => s.code === 's')!.value) ? [i + 1] : []));
}

describe('generated holds', () => {
  const holds = [...generateHolds(PLAN)];

  it('are the same for the same seed, day and counts, and others for another seed', () => {
    assert.equal(holds.length, PLAN.holds);
    assert.deepEqual([...generateHolds(PLAN)], holds);
    assert.notDeepEqual([...generateHolds({ ...PLAN, seed: 6 })], holds);
  });

  it('are placed only where the hold rules allow', () => {
    const held = new Map<number, Set<string>>();
    let previous = '';
    for (const h of holds) {
      const patron = generatePatron(PLAN.seed, h.patron);
      assert.ok(patron.expirationDate >= h.placed, `patron ${h.patron} had expired when hold ${h.k} was placed`);
      const records = held.get(h.patron) ?? new Set();
      const record = h.copy === null ? `b${h.bib}` : `i${h.bib}.${h.copy}`;
      assert.ok(!records.has(record), `patron ${h.patron} holds ${record} twice`);
      held.set(h.patron, records.add(record));
      const copies = holdableCopies(PLAN.seed, h.bib);
      assert.ok(h.copy === null ? copies.length > 0 : copies.includes(h.copy), `hold ${h.k}: nothing on ${record} can fill it`);
      assert.ok(PLAN.pickupLocations.includes(h.pickupLocation));
      assert.ok(h.placed >= previous && h.placed <= PLAN.today, 'placement order is date order, up to today');
      previous = h.placed;
      assert.equal(h.notNeededAfter, addMonths(h.placed, PLAN.holdMonths));
    }
    assert.ok(holds[0]!.placed < PLAN.today, 'placed over the past weeks');
    const limited = [...generateHolds({ ...PLAN, patrons: 40, holdLimit: 2 })];
    const perPatron = groupBy(limited, (h) => h.patron);
    assert.ok(
      [...perPatron.values()].every((list) => list.length <= 2),
      'never past the hold limit',
    );
    assert.ok(limited.length < PLAN.holds && limited.length >= 40, 'as many as the limit lets the patrons place');
  });

  it("look like a library's: mostly bib holds, long queues on a few popular bibs, some frozen", () => {
    const items = holds.filter((h) => h.copy !== null).length;
    assert.ok(items > holds.length * 0.03 && items < holds.length * 0.15, `${items} item holds`);
    const frozen = holds.filter((h) => h.frozen).length;
    assert.ok(frozen > holds.length * 0.02 && frozen < holds.length * 0.1, `${frozen} frozen`);
    const queues = [...groupBy(holds, (h) => h.bib).values()].map((q) => q.length).sort((a, b) => b - a);
    assert.ok(queues[0]! >= 8, `the longest queue has ${queues[0]} holds`);
    assert.ok(queues[Math.floor(queues.length / 2)]! <= 2, 'most held bibs have a hold or two');
    assert.ok(new Set(holds.map((h) => h.bib)).size > 300, 'the holds spread over the catalogue');
    assert.ok(holds.filter((h) => h.pickupLocation === 'ea').length > holds.length * 0.2, 'both pickup locations in use');
  });
});

describe(`generated holds loaded on ${ENGINE}`, () => {
  let t: TestApp;
  let token: string;
  const today = systemClock.today('UTC');
  const load = { seed: 5, bibs: 300, patrons: 30, holds: 90, today, rules: { holdLimit: 50, holdMonths: 3 } };
  const expected: GeneratedHold[] = [];
  before(async () => {
    t = await createTestApp();
    token = await bearer(t, ['Patrons_Holds_Read']);
    const pickupLocations = ['ea', 'mn']; // the demo locations generate makes
    expected.push(...generateHolds({ ...load, ...load.rules, pickupLocations }));
  });
  after(() => t.close());

  it('loads every generated hold in placement order, and none again on a second run', async () => {
    const first = await loadGenerated(t.testDb.db, load);
    assert.equal(first.holds.created, expected.length);
    const again = await loadGenerated(t.testDb.db, load);
    assert.deepEqual([again.patrons.created, again.holds.created], [0, 0]);
    const stored = await t.testDb.db.query<{
      barcode: string;
      control: string;
      item: string | null;
      pickup: string;
      frozen: boolean;
      placed: string;
    }>(
      `select pb.barcode, b.control_number as control, i.barcode as item, h.pickup_location as pickup, h.frozen, to_char(h.placed, 'YYYY-MM-DD') as placed
       from holds h join patron_barcodes pb on pb.patron_id = h.patron_id join bibs b on b.id = h.bib_id left join items i on i.id = h.item_id
       order by h.id`,
    );
    assert.deepEqual(
      [...stored],
      expected.map((h) => ({
        barcode: patronBarcode(load.seed, h.patron),
        control: controlNumber(load.seed, h.bib),
        item: h.copy === null ? null : itemBarcode(load.seed, h.bib, h.copy),
        pickup: h.pickupLocation,
        frozen: h.frozen,
        placed: h.placed,
      })),
    );
  });

  it('reads back through GET /v6/patrons/{id}/holds, each queue numbered 1..n in placement order', async () => {
    const patronIds = await t.testDb.db.query<{ id: string; barcode: string }>(
      'select patron_id::text as id, barcode from patron_barcodes',
    );
    const idOf = new Map(patronIds.map((p) => [p.barcode, p.id]));
    const queues = new Map<string, { priority: number; length: number; placed: string }[]>();
    let read = 0;
    for (const n of new Set(expected.map((h) => h.patron))) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v6/patrons/${idOf.get(patronBarcode(load.seed, n))}/holds?limit=100`,
        headers: { authorization: token },
      });
      assert.equal(res.statusCode, 200, res.body);
      const mine = expected.filter((h) => h.patron === n);
      const entries = res.json().entries as Record<string, any>[];
      assert.equal(entries.length, mine.length);
      for (const [i, e] of entries.entries()) {
        const h = mine[i]!;
        assert.equal(e.recordType, h.copy === null ? 'b' : 'i');
        assert.deepEqual(
          [e.pickupLocation.code, e.frozen, e.placed, e.notNeededAfterDate, e.status.code, e.canFreeze],
          [h.pickupLocation, h.frozen, h.placed, h.notNeededAfter, '0', true],
        );
        const queue = queues.get(e.record) ?? [];
        queues.set(e.record, [...queue, { priority: e.priority, length: e.priorityQueueLength, placed: e.placed }]);
        read++;
      }
    }
    assert.equal(read, expected.length);
    for (const [record, queue] of queues) {
      assert.deepEqual(
        queue.map((q) => q.priority).sort((a, b) => a - b),
        queue.map((_, i) => i + 1),
        `${record}: places 1..n`,
      );
      assert.ok(
        queue.every((q) => q.length === queue.length),
        `${record}: its length`,
      );
      const byPlace = [...queue].sort((a, b) => a.priority - b.priority);
      assert.ok(
        byPlace.every((q, i) => i === 0 || q.placed >= byPlace[i - 1]!.placed),
        `${record}: earlier placed, earlier served`,
      );
    }
    assert.ok(Math.max(...[...queues.values()].map((q) => q.length)) >= 3, 'some bib has a queue');
  });
});
