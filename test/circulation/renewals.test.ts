// Renewals and the checkout resources Sierra clients call (issue 19): renewal by the circulation
// rules, checkout by barcodes, an item's checkout, one checkout, check-in by barcode.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { FixedClock } from '../../src/shared/calendar.ts';
import { assertRefused, caller, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

describe(`renewals and checkout resources on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  const clock = new FixedClock('2026-11-02');
  before(async () => {
    t = await createTestApp({}, { clock });
    await setUpLibrary(t.testDb.db);
    api = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());
  beforeEach(async () => {
    clock.set('2026-11-02');
    await t.testDb.db.query('update circulation_rules set renewals = 2, loan_days = 21');
  });

  async function lend(barcode: string): Promise<{ patron: string; item: string; checkout: string }> {
    const db = t.testDb.db;
    const item = await addItem(db, await addBib(db, `Book ${barcode}`), 'mn', '-', barcode);
    const patron = await addPatron(db);
    const res = await api.send('POST', `/v6/patrons/${patron}/checkouts`, { itemBarcode: barcode });
    assert.equal(res.statusCode, 200, res.body);
    return { patron, item, checkout: String(res.json().link).split('/').pop()! };
  }

  it('renews from today by the rule, counts renewals, and stops at the rule', async () => {
    const { checkout, item } = await lend('R-1');
    clock.set('2026-11-10');
    const first = await api.send('POST', `/v6/patrons/checkouts/${checkout}/renewal`);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().dueDate, '2026-12-01');
    assert.equal(first.json().numberOfRenewals, 1);
    assert.equal(first.json().barcode, 'R-1');
    assert.match(first.json().id, new RegExp(`/v6/patrons/checkouts/${checkout}$`));
    assert.equal((await api.get(`/v6/items/${item}`)).json().status.duedate, '2026-12-01T00:00:00Z');
    // Renewed again the same day: not due earlier than it was.
    assert.equal((await api.send('POST', `/v6/patrons/checkouts/${checkout}/renewal`)).json().numberOfRenewals, 2);
    assertRefused(await api.send('POST', `/v6/patrons/checkouts/${checkout}/renewal`), 409, 132, 11);
    const read = await api.get(`/v6/patrons/checkouts/${checkout}?fields=numberOfRenewals,dueDate`);
    assert.deepEqual(Object.keys(read.json()), ['id', 'dueDate', 'numberOfRenewals']);
    assert.equal(read.json().numberOfRenewals, 2);
    await t.testDb.db.query('update circulation_rules set renewals = 0');
    const { checkout: none } = await lend('R-1b');
    assertRefused(await api.send('POST', `/v6/patrons/checkouts/${none}/renewal`), 409, 132, 11);
  });

  it("moves a renewal's due date past the days its location is closed, as a checkout's", async () => {
    const db = t.testDb.db;
    // 21 days from 2026-11-02 and from 2026-11-10: Monday 11-23 and Tuesday 12-01, both closed at Main.
    await db.query(`insert into location_closed_dates (location_code, closed_date) values ('mn', '2026-11-23'), ('mn', '2026-12-01')`);
    try {
      const { checkout } = await lend('R-closed');
      assert.equal((await api.get(`/v6/patrons/checkouts/${checkout}?fields=dueDate`)).json().dueDate, '2026-11-24');
      clock.set('2026-11-10');
      const renewed = await api.send('POST', `/v6/patrons/checkouts/${checkout}/renewal`);
      assert.equal(renewed.statusCode, 200, renewed.body);
      assert.equal(renewed.json().dueDate, '2026-12-02');
    } finally {
      await db.query(`delete from location_closed_dates where location_code = 'mn'`);
    }
  });

  it('refuses when another patron holds the item, and when the patron is blocked', async () => {
    const { checkout, item, patron } = await lend('R-2');
    const other = await addPatron(t.testDb.db);
    const hold = await api.send('POST', `/v6/patrons/${other}/holds/requests`, {
      recordType: 'i',
      recordNumber: Number(item),
      pickupLocation: 'mn',
    });
    assert.equal(hold.statusCode, 204, hold.body);
    const before = await t.testDb.db.query('select due_date, renewals from checkouts where id = $1', [checkout]);
    assertRefused(await api.send('POST', `/v6/patrons/checkouts/${checkout}/renewal`), 409, 132, 12);
    const { checkout: second, patron: blocked } = await lend('R-3');
    await t.testDb.db.query("update patrons set block_code = 'm' where id = $1", [blocked]);
    assertRefused(await api.send('POST', `/v6/patrons/checkouts/${second}/renewal`), 409, 132, 2);
    assert.deepEqual(await t.testDb.db.query('select due_date, renewals from checkouts where id = $1', [checkout]), before);
    assert.ok(patron);
  });

  it('two renewals of one loan at once: exactly the rule allows', async () => {
    await t.testDb.db.query('update circulation_rules set renewals = 1');
    const { checkout } = await lend('R-4');
    const answers = await Promise.all([1, 2, 3].map(() => api.send('POST', `/v6/patrons/checkouts/${checkout}/renewal`)));
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 409, 409]);
    const [row] = await t.testDb.db.query<{ renewals: number }>('select renewals from checkouts where id = $1', [checkout]);
    assert.equal(row!.renewals, 1);
  });

  it('checks out by barcodes (with the PIN when given), lists the item checkout, expands the item, checks in by barcode', async () => {
    const db = t.testDb.db;
    const item = await addItem(db, await addBib(db, 'By barcode'), 'mn', '-', 'R-5');
    const patron = await api.send('POST', '/v6/patrons', { names: ['Desk, Dee'], barcodes: ['P-55'], pin: '2468' });
    const patronId = String(patron.json().link).split('/').pop();
    assertRefused(
      await api.send('POST', '/v6/patrons/checkout', { patronBarcode: 'P-55', itemBarcode: 'R-5', patronPin: '0000' }),
      400,
      108,
    );
    assertRefused(await api.send('POST', '/v6/patrons/checkout', { patronBarcode: 'P-404', itemBarcode: 'R-5' }), 404, 107);
    const out = await api.send('POST', '/v6/patrons/checkout?statgroup=12', {
      patronBarcode: 'P-55',
      itemBarcode: 'R-5',
      patronPin: '2468',
    });
    assert.equal(out.statusCode, 200, out.body);
    const checkout = String(out.json().link).split('/').pop();
    const ofItem = (await api.get(`/v6/items/${item}/checkouts`)).json();
    assert.equal(ofItem.total, 1);
    assert.match(ofItem.entries[0].id, new RegExp(`/patrons/checkouts/${checkout}$`));
    assert.match(ofItem.entries[0].patron, new RegExp(`/patrons/${patronId}$`));
    const expanded = (await api.get(`/v6/patrons/${patronId}/checkouts?expand=item&fields=default,numberOfRenewals,callNumber`)).json();
    assert.equal(expanded.entries[0].item.id, item);
    assert.equal(expanded.entries[0].item.barcode, 'R-5');
    assert.equal(expanded.entries[0].numberOfRenewals, 0);
    assertRefused(await api.get(`/v6/patrons/${patronId}/checkouts?expand=patron`), 400, 108);
    const back = await api.send('DELETE', '/v6/items/checkouts/R-5');
    assert.equal(back.statusCode, 204, back.body);
    assert.equal((await api.get(`/v6/items/${item}/checkouts`)).json().total, 0);
    assertRefused(await api.get(`/v6/patrons/checkouts/${checkout}`), 404, 107);
    const missing = await api.send('DELETE', '/v6/items/checkouts/NOPE');
    assert.equal(missing.statusCode, 404);
    assertRefused(await api.get('/v6/items/99999999/checkouts'), 404, 107);
  });
});
