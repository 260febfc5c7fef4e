// A patron acting for themselves (the public catalogue) cancels only their own holds: another
// patron's hold is answered as no hold at all, and stays. Without an owner (staff, the REST API)
// any hold is cancelled.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { refusal } from '../helpers/domain-error.ts';

describe(`cancelling a hold as its patron on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
  });
  after(() => t.close());

  it("refuses another patron's hold as not found, and cancels the patron's own", async () => {
    const db = t.testDb.db;
    const bib = await addBib(db);
    await addItem(db, bib);
    const [owner, other] = [await addPatron(db), await addPatron(db)];
    const hold = await t.services.holds.place(owner, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });
    const refused = await refusal(t.services.holds.cancel(hold, other));
    assert.equal(refused.kind, 'notFound');
    assert.equal(refused.detail, `no hold ${hold}`, 'said as for an id that does not exist');
    assert.equal((await t.services.holds.get(hold)).state, '0', 'the hold stays');
    await t.services.holds.cancel(hold, owner);
    assert.equal((await t.services.holds.get(hold)).state, 'c');
  });

  it('cancels any hold without an owner (staff)', async () => {
    const db = t.testDb.db;
    const bib = await addBib(db);
    await addItem(db, bib);
    const hold = await t.services.holds.place(await addPatron(db), { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });
    await t.services.holds.cancel(hold);
    assert.equal((await t.services.holds.get(hold)).state, 'c');
  });
});
