// The names the code gives status codes say what the database says the codes are: each
// ITEM_STATUS is the item_statuses row with that display name, and HOLD_STATE holds exactly the
// codes holds.state may take.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HOLD_STATE } from '../../src/holds/states.ts';
import { ITEM_STATUS } from '../../src/items/statuses.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';

const DISPLAY: Record<keyof typeof ITEM_STATUS, string> = {
  available: 'AVAILABLE',
  inTransit: 'IN TRANSIT',
  onHoldShelf: 'ON HOLDSHELF',
  libraryUseOnly: 'LIB USE ONLY',
  inProcessing: 'IN PROCESSING',
  missing: 'MISSING',
  lost: 'LOST',
  withdrawn: 'WITHDRAWN',
  damaged: 'DAMAGED',
  claimsReturned: 'CLMS RETD',
  billedNotPaid: 'BILLED NOTPAID',
  billedPaid: 'BILLED PAID',
};

describe(`status codes by name, on ${ENGINE}`, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t.drop());

  it('names each item status by its row of item_statuses', async () => {
    const rows = await t.db.query<{ code: string; display: string }>('select code, display from item_statuses');
    const display = new Map(rows.map((r) => [r.code, r.display]));
    for (const [name, code] of Object.entries(ITEM_STATUS)) {
      assert.equal(display.get(code), DISPLAY[name as keyof typeof ITEM_STATUS], `ITEM_STATUS.${name} = '${code}'`);
    }
  });

  it('names every state the holds table allows, and no other', async () => {
    const defs = await t.db.query<{ def: string }>(
      "select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'holds'::regclass and contype = 'c'",
    );
    // Migration 0008's `check (state in (…))`, as the server prints it back.
    const lists = defs.flatMap(({ def }) => /^CHECK \(\(state = ANY \(ARRAY\[([^\]]*)\]\)\)\)$/.exec(def)?.[1] ?? []);
    assert.equal(lists.length, 1, defs.map((d) => d.def).join('\n'));
    const allowed = [...lists[0]!.matchAll(/'([^']*)'::text/g)].map((m) => m[1]).sort();
    assert.deepEqual(allowed, Object.values(HOLD_STATE).sort());
  });
});
