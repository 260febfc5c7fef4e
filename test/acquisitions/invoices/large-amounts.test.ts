// Large amounts: the database's use tax check agrees with the exact decimal arithmetic, and fund
// totals that would overflow numeric(18, 2) are refused (400 code 132, specificCode 13), writing nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefused, caller, create, type Caller } from '../../helpers/api.ts';
import { setUpAcquisitions, snapshot } from '../../helpers/acquisitions.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { ENGINE } from '../../helpers/db.ts';
import { bearer } from '../../helpers/tokens.ts';

describe(`large invoice amounts on ${ENGINE}`, () => {
  let t: TestApp;
  let writer: Caller;
  before(async () => {
    t = await createTestApp();
    writer = caller(t, await bearer(t, ['Invoices_Write']));
    await setUpAcquisitions(writer);
    assert.equal((await writer.send('PUT', '/v6/invoices/useTax/odd', { rate: '7.123457' })).statusCode, 204);
  });
  after(() => t.close());

  it('stores use tax on a large subtotal as the exact arithmetic rounds it', async () => {
    const id = await create(writer, '/v6/invoices', {
      invNum: 'BIG-1',
      invDate: '2026-11-02',
      vendorCode: 'ebsco',
      useTaxCode: 'odd',
      lineItems: [{ fund: 'books', amount: '250002794.07', quantity: 8 }],
    });
    const line = (await writer.get(`/v6/invoices/${id}/lineItems`)).json().entries[0];
    assert.equal(line.subtotal, '2000022352.56');
    // 2000022352.56 × 7.123457 / 100 = 142470732.2749999992: PostgreSQL's division rounded it to .28.
    assert.equal(line.useTaxAmount, '142470732.27');
  });

  it('refuses an invoice whose totals would overflow a fund, writing nothing', async () => {
    const before = await snapshot(t.testDb.db);
    const lineItems = Array.from({ length: 200 }, () => ({ fund: 'serials', amount: '999999999.99', quantity: 100000 }));
    const res = await writer.send('POST', '/v6/invoices', {
      invNum: 'HUGE-1',
      invDate: '2026-11-02',
      vendorCode: 'ebsco',
      useTaxCode: 'a',
      lineItems,
    });
    assertRefused(res, 400, 132, 13);
    assert.match(res.json().description, /serials/);
    assert.deepEqual(await snapshot(t.testDb.db), before);
  });
});
