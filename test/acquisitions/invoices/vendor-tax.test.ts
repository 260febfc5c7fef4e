// Tax the vendor charges (VAT, GST, sales tax) on /v6/invoices: shared out to the lines in
// proportion to their subtotals as shipping is, or given per line; each line's fund is charged its
// share (encumbered while unpaid, expended when paid); a per-line tax that does not add up to the
// invoice's is refused, writing nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { assertRefused, caller, create, type Caller } from '../../helpers/api.ts';
import { setUpAcquisitions, snapshot } from '../../helpers/acquisitions.ts';
import { ENGINE } from '../../helpers/db.ts';
import { bearer } from '../../helpers/tokens.ts';

describe(`vendor-charged tax on invoices on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  const balances = async (code: string) => {
    const f = (await api.get(`/v6/funds/${code}`)).json();
    return [f.encumbrance, f.expenditure];
  };
  const lineFigures = async (id: string) =>
    ((await api.get(`/v6/invoices/${id}?fields=lineItems`)).json().lineItems as Record<string, string>[]).map((l) => [l.tax, l.total]);
  before(async () => {
    t = await createTestApp();
    api = caller(t, await bearer(t, ['Invoices_Write']));
    await setUpAcquisitions(api);
  });
  after(() => t.close());

  it('shares the invoice’s tax out to the lines, charging each line’s fund its share, and pays it', async () => {
    const id = await create(api, '/v6/invoices', {
      invNum: 'VAT-1',
      invDate: '2026-11-20',
      vendorCode: 'ebsco',
      tax: '3.00',
      lineItems: [
        { fund: 'books', amount: '10.00', quantity: 3 },
        { fund: 'serials', amount: '30.00' },
      ],
    });
    const invoice = (await api.get(`/v6/invoices/${id}?fields=subtotal,tax,total`)).json();
    assert.deepEqual([invoice.subtotal, invoice.tax, invoice.total], ['60.00', '3.00', '63.00']);
    assert.deepEqual(await lineFigures(id), [
      ['1.50', '31.50'],
      ['1.50', '31.50'],
    ]);
    assert.deepEqual(await balances('books'), ['31.50', '0.00']);
    assert.deepEqual(await balances('serials'), ['31.50', '0.00']);

    // A change of tax alone is shared out again; the funds follow.
    assert.equal((await api.send('PUT', `/v6/invoices/${id}`, { tax: '6.01' })).statusCode, 204);
    assert.deepEqual(await lineFigures(id), [
      ['3.01', '33.01'],
      ['3.00', '33.00'],
    ]);
    assert.deepEqual(await balances('books'), ['33.01', '0.00']);
    // A change of anything else keeps the lines' tax as it is.
    assert.equal((await api.send('PUT', `/v6/invoices/${id}`, { shipping: '2.00' })).statusCode, 204);
    assert.deepEqual(await lineFigures(id), [
      ['3.01', '34.01'],
      ['3.00', '34.00'],
    ]);

    assert.equal((await api.send('POST', `/v6/invoices/${id}/pay`)).statusCode, 204);
    assert.deepEqual(await balances('books'), ['0.00', '34.01']);
    assert.deepEqual(await balances('serials'), ['0.00', '34.00']);
  });

  it('keeps each line’s own tax, as a vendor with rates by line states it', async () => {
    const id = await create(api, '/v6/invoices', {
      invNum: 'VAT-2',
      invDate: '2026-11-21',
      vendorCode: 'ebsco',
      lineItems: [
        { fund: 'books', amount: '20.00', tax: '4.00' },
        { fund: 'books', amount: '20.00', tax: '0.00' },
        { fund: 'books', amount: '5.00' },
      ],
    });
    const invoice = (await api.get(`/v6/invoices/${id}?fields=tax,total`)).json();
    assert.deepEqual([invoice.tax, invoice.total], ['4.00', '49.00']);
    assert.deepEqual(await lineFigures(id), [
      ['4.00', '24.00'],
      ['0.00', '20.00'],
      ['0.00', '5.00'],
    ]);
  });

  it('refuses lines’ tax that does not add up to the invoice’s, and tax with no line to carry it', async () => {
    const before = await snapshot(t.testDb.db);
    const base = { invDate: '2026-11-22', vendorCode: 'ebsco' };
    const res = await api.send('POST', '/v6/invoices', {
      ...base,
      invNum: 'VAT-3',
      tax: '5.00',
      lineItems: [{ fund: 'books', amount: '20.00', tax: '4.00' }],
    });
    assertRefused(res, 400, 126);
    assert.match(res.json().description, /tax: 5\.00 is not the sum of the line items' tax 4\.00/);
    assertRefused(await api.send('POST', '/v6/invoices', { ...base, invNum: 'VAT-4', currency: 'USD', tax: '1.00' }), 400, 126);
    assertRefused(
      await api.send('POST', '/v6/invoices', { ...base, invNum: 'VAT-5', tax: '-1.00', lineItems: [{ fund: 'books', amount: '1.00' }] }),
      400,
      126,
    );
    assert.deepEqual(await snapshot(t.testDb.db), before);
  });
});
