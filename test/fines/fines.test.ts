// Fines (issue 19): overdue fines assessed by the circulation rules when a loan comes back or is
// renewed late, manual charges, payments, the patron's money owed following, exact to the cent.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { FixedClock } from '../../src/shared/calendar.ts';
import { assertRefused, caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

describe(`fines on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  const clock = new FixedClock('2026-11-02');
  let n = 0;
  before(async () => {
    t = await createTestApp({}, { clock });
    await setUpLibrary(t.testDb.db);
    api = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());
  beforeEach(async () => {
    clock.set('2026-11-02');
    await t.testDb.db.query(
      'update circulation_rules set loan_days = 21, renewals = 3, fine_per_day = 0.25, max_fine = 2.00, grace_days = 2',
    );
  });

  /** A patron with a loan due 2026-11-23. */
  async function loan(): Promise<{ patron: string; item: string; checkout: string }> {
    const db = t.testDb.db;
    clock.set('2026-11-02');
    const barcode = `F-${++n}`;
    const item = await addItem(db, await addBib(db, `Fined ${n}`), 'mn', '-', barcode);
    const patron = await addPatron(db);
    const res = await api.send('POST', `/v6/patrons/${patron}/checkouts`, { itemBarcode: barcode });
    assert.equal(res.statusCode, 200, res.body);
    return { patron, item, checkout: String(res.json().link).split('/').pop()! };
  }
  const owed = async (patron: string) => (await api.get(`/v6/patrons/${patron}?fields=moneyOwed`)).json().moneyOwed;
  const finesOf = async (patron: string) => (await api.get(`/v6/patrons/${patron}/fines?limit=10000`)).json();
  const returnOn = async (day: string, item: string) => {
    clock.set(day);
    assert.equal((await api.send('POST', `/v6/items/${item}/checkin`, {})).statusCode, 200);
  };

  it('charges the fine per late day past the grace days, at most the maximum', async () => {
    const inGrace = await loan();
    await returnOn('2026-11-25', inGrace.item);
    assert.equal((await finesOf(inGrace.patron)).total, 0);
    assert.equal(await owed(inGrace.patron), '0.00');

    const late = await loan();
    await returnOn('2026-11-30', late.item);
    const list = await finesOf(late.patron);
    assert.equal(list.total, 1);
    const fine = list.entries[0];
    assert.equal(fine.itemCharge, 1.75);
    assert.deepEqual(fine.chargeType, { code: '2', display: 'Overdue' });
    assert.equal(fine.paidAmount, 0);
    assert.match(fine.assessedDate, /^\d{4}-\d\d-\d\d$/);
    assert.match(fine.item, new RegExp(`/v6/items/${late.item}$`));
    assert.match(fine.id, new RegExp(`/v6/patrons/fines/${fine.invoiceNumber}$`));
    assert.deepEqual(fine.location, { code: 'mn', name: 'Main' });
    assert.equal(await owed(late.patron), '1.75');

    const veryLate = await loan();
    await returnOn('2026-12-31', veryLate.item);
    assert.equal((await finesOf(veryLate.patron)).entries[0].itemCharge, 2);
  });

  it('is exact to the cent: three days at 0.10 are 0.30', async () => {
    await t.testDb.db.query('update circulation_rules set fine_per_day = 0.10, grace_days = 0, max_fine = null');
    const { patron, item } = await loan();
    await returnOn('2026-11-26', item);
    assert.equal((await finesOf(patron)).entries[0].itemCharge, 0.3);
    assert.equal(await owed(patron), '0.30');
  });

  it('charges an overdue renewal (type 6), then renews', async () => {
    const { patron, checkout } = await loan();
    clock.set('2026-11-28');
    const renewed = await api.send('POST', `/v6/patrons/checkouts/${checkout}/renewal`);
    assert.equal(renewed.statusCode, 200, renewed.body);
    const fines = await finesOf(patron);
    assert.deepEqual(
      fines.entries.map((f: any) => [f.chargeType.code, f.itemCharge]),
      [['6', 1.25]],
    );
  });

  it('takes payments all or none, at most what is left, and money owed follows', async () => {
    const { patron, item } = await loan();
    await returnOn('2026-11-30', item);
    const manual = await create(api, `/v6/patrons/${patron}/fines/charge`, { amount: 300, reason: 'Damaged cover', location: 'mn' });
    const [overdue, charged] = (await finesOf(patron)).entries;
    assert.equal(charged.invoiceNumber, Number(manual));
    assert.deepEqual((await api.get(`/v6/patrons/fines/${manual}`)).json(), charged);
    // Money owed follows the fines: it is not set by hand while some are owed.
    assertRefused(await api.send('PUT', `/v6/patrons/${patron}`, { moneyOwed: '0' }), 409, 132);
    assert.deepEqual(charged.chargeType, { code: '1', display: 'Manual Charge' });
    assert.equal(await owed(patron), '4.75');
    const snapshot = () =>
      t.testDb.db.query(
        'select f.*, (select money_owed from patrons where id = $1) as owed from fines f where patron_id = $1 order by id',
        [patron],
      );
    const before = await snapshot();
    for (const payments of [
      [{ amount: 176, paymentType: 1, invoiceNumber: String(overdue.invoiceNumber) }],
      [
        { amount: 100, paymentType: 1, invoiceNumber: String(overdue.invoiceNumber) },
        { amount: 100, paymentType: 1, invoiceNumber: '999999' },
      ],
      [{ amount: 100, paymentType: 7, invoiceNumber: String(overdue.invoiceNumber) }],
      [{ amount: 0, paymentType: 1, invoiceNumber: String(overdue.invoiceNumber) }],
    ]) {
      const res = await api.send('POST', `/v6/patrons/${patron}/fines/payment`, { payments });
      assert.equal(res.statusCode, 400, `${JSON.stringify(payments)}: ${res.body}`);
    }
    assert.deepEqual(await snapshot(), before);
    // The way a discovery layer pays online: PUT, amounts in cents.
    const paid = await api.send('PUT', `/v6/patrons/${patron}/fines/payment`, {
      payments: [{ amount: 100, paymentType: 3, invoiceNumber: String(overdue.invoiceNumber) }],
    });
    assert.equal(paid.statusCode, 204, paid.body);
    assert.equal((await finesOf(patron)).entries[0].paidAmount, 1);
    assert.equal(await owed(patron), '3.75');
    const rest = await api.send('POST', `/v6/patrons/${patron}/fines/payment`, {
      payments: [
        { amount: 75, paymentType: 1, invoiceNumber: String(overdue.invoiceNumber) },
        { amount: 300, paymentType: 2, invoiceNumber: manual },
      ],
    });
    assert.equal(rest.statusCode, 204, rest.body);
    assert.equal((await finesOf(patron)).total, 0);
    assert.equal(await owed(patron), '0.00');
    assertRefused(await api.get('/v6/patrons/99999999/fines'), 404, 107);
  });

  it('a payment racing a new charge loses no money', async () => {
    const patron = await addPatron(t.testDb.db);
    const invoices: string[] = [];
    for (let i = 0; i < 6; i++) invoices.push(await create(api, `/v6/patrons/${patron}/fines/charge`, { amount: 1000 }));
    assert.equal(await owed(patron), '60.00');
    const answers = await Promise.all(
      invoices.flatMap((invoice) => [
        api.send('POST', `/v6/patrons/${patron}/fines/payment`, { payments: [{ amount: 333, paymentType: 1, invoiceNumber: invoice }] }),
        api.send('POST', `/v6/patrons/${patron}/fines/charge`, { amount: 7 }),
      ]),
    );
    assert.deepEqual([...new Set(answers.map((a) => a.statusCode))].sort(), [200, 204]);
    // 60.00 - 6 × 3.33 + 6 × 0.07
    assert.equal(await owed(patron), '40.44');
    const [sum] = await t.testDb.db.query<{ left: string }>(
      'select sum(item_charge - paid_amount)::text as left from fines where patron_id = $1',
      [patron],
    );
    assert.equal(sum!.left, '40.44');
  });
});
