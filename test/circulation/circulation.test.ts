// Check-out and check-in: the patron's checkouts, due dates, item statuses, checkouts that fill a
// patron's own waiting hold, and input errors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FixedClock } from '../../src/shared/calendar.ts';
import { assertRefused, caller, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

describe(`circulation on ${ENGINE}`, () => {
  let t: TestApp;
  let desk: Caller;
  before(async () => {
    t = await createTestApp({}, { clock: new FixedClock('2026-11-02') });
    await setUpLibrary(t.testDb.db);
    desk = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());

  it('checks out by barcode or id, lists the checkouts, and checks in', async () => {
    const db = t.testDb.db;
    const bib = await addBib(db, 'Middlemarch');
    const [a, b] = [await addItem(db, bib, 'mn', '-', 'C-1'), await addItem(db, bib, 'br', '-', 'C-2')];
    const patron = await addPatron(db);
    const first = await desk.send('POST', `/v6/patrons/${patron}/checkouts`, { itemBarcode: 'C-1' });
    assert.equal(first.statusCode, 200, first.body);
    assert.match(first.json().link, /\/v6\/patrons\/checkouts\/\d+$/);
    assert.equal((await desk.send('POST', `/v5/patrons/${patron}/checkouts`, { itemId: b })).statusCode, 200);
    const list = (await desk.get(`/v6/patrons/${patron}/checkouts`)).json();
    assert.equal(list.total, 2);
    assert.deepEqual(
      list.entries.map((c: any) => [c.item.split('/').pop(), c.barcode, c.dueDate]),
      [
        [a, 'C-1', '2026-11-23'],
        [b, 'C-2', '2026-11-23'],
      ],
    );
    assert.match(list.entries[0].outDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(list.entries[0].patron.split('/').pop(), patron);
    const item = (await desk.get(`/v6/items/${a}`)).json();
    assert.equal(item.status.code, '-');
    assert.match(item.status.duedate, /^2026-11-23T/);

    const back = await desk.send('POST', `/v6/items/${a}/checkin`);
    assert.equal(back.statusCode, 200, back.body);
    assert.equal(back.json().status, '-');
    assert.ok(!('hold' in back.json()));
    assert.ok(!('duedate' in (await desk.get(`/v6/items/${a}`)).json().status));
    assert.deepEqual(
      (await desk.get(`/v6/patrons/${patron}/checkouts`)).json().entries.map((c: any) => c.barcode),
      ['C-2'],
    );
    assert.equal((await desk.get(`/v6/patrons/${patron}/checkouts?limit=1&offset=1`)).json().total, 0);
  });

  it("a checkout from the shelf fills the patron's own waiting hold on the bib", async () => {
    const db = t.testDb.db;
    const bib = await addBib(db, 'Persuasion');
    await addItem(db, bib, 'mn', '-', 'S-1');
    const patron = await addPatron(db);
    await t.services.holds.place(patron, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });
    assert.equal((await desk.send('POST', `/v6/patrons/${patron}/checkouts`, { itemBarcode: 'S-1' })).statusCode, 200);
    const holds = (await desk.get(`/v6/patrons/${patron}/holds?inactive=true`)).json().entries;
    assert.deepEqual(
      holds.map((h: any) => h.status.code),
      ['f'],
    );
  });

  it('answers input errors and unknown records', async () => {
    const patron = await addPatron(t.testDb.db);
    assertRefused(await desk.send('POST', `/v6/patrons/${patron}/checkouts`, {}), 400, 126);
    assertRefused(await desk.send('POST', `/v6/patrons/${patron}/checkouts`, { itemBarcode: 'X', itemId: '1' }), 400, 126);
    assertRefused(await desk.send('POST', `/v6/patrons/${patron}/checkouts`, { itemId: '9999999' }), 400, 132, 6);
    assertRefused(await desk.get('/v6/patrons/9999999/checkouts'), 404, 107);
    assertRefused(await desk.send('POST', '/v6/items/9999999/checkin'), 404, 107);
    const bib = await addBib(t.testDb.db, 'Nowhere');
    const item = await addItem(t.testDb.db, bib);
    assertRefused(await desk.send('POST', `/v6/items/${item}/checkin`, { location: 'zz' }), 400, 126);
    assertRefused(await desk.send('POST', '/v6/patrons/9999999/checkouts', { itemId: item }), 404, 107);
    assertRefused(await desk.get('/v6/patrons/abc/checkouts'), 400, 101);
  });
});
