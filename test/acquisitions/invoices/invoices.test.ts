// /v6/invoices through the API: exact figures, line items, changes, payment and the funds it moves,
// the list's filters, every refusal (nothing written), permissions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../../src/bibs/service.ts';
import { ItemService } from '../../../src/items/service.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { assertRefused, caller, create, type Caller } from '../../helpers/api.ts';
import { setUpAcquisitions, snapshot } from '../../helpers/acquisitions.ts';
import { ENGINE } from '../../helpers/db.ts';
import { cents, money, taxCents } from '../../helpers/money.ts';
import { bearer } from '../../helpers/tokens.ts';

const fund = async (api: Caller, code: string) => (await api.get(`/v6/funds/${code}`)).json();
const sumOf = (values: string[]) => money(values.reduce((a, v) => a + cents(v), 0n));

describe(`invoices on ${ENGINE}`, () => {
  let t: TestApp;
  let writer: Caller;
  let reader: Caller;
  let bibId: string;
  let vendorId: string;
  let n = 0;
  const invNum = () => `INV-${++n}`;
  before(async () => {
    t = await createTestApp();
    writer = caller(t, await bearer(t, ['Invoices_Write']));
    reader = caller(t, await bearer(t, ['Invoices_Read']));
    ({ vendorId } = await setUpAcquisitions(writer));
    bibId = await new BibService(t.testDb.db, new ItemService(t.testDb.db)).create({
      marc: {
        leader: '00000nam a2200000 a 4500',
        fields: [{ tag: '245', ind1: '0', ind2: '0', subfields: [{ code: 'a', value: 'Bought book' }] }],
      },
    });
  });
  after(() => t.close());

  it('creates an invoice and reads it back with exact figures, every total the sum of its lines', async () => {
    const res = await writer.send('POST', '/iii/sierra-api/v6/invoices', {
      invNum: 'A-1001',
      invDate: '2026-11-02',
      vendorCode: 'ebsco',
      useTaxCode: 'a',
      shipping: '5.00',
      discount: '1.00',
      note: 'November',
      lineItems: [
        { fund: 'books', amount: '19.99', quantity: 2, bibId, note: 'Bought book', order: 'o1000001' },
        { fund: 'books', amount: 0.1 },
        { fund: 'serials', amount: '0.2', useTax: false },
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.json().link, /^http:\/\/localhost(:\d+)?\/iii\/sierra-api\/v6\/invoices\/\d+$/);
    const id = res.json().link.split('/').pop();
    const invoice = (await reader.get(`/v6/invoices/${id}`)).json();
    // 19.99 × 2 = 39.98, tax 3.09845 → 3.10; 0.10, tax 0.00775 → 0.01; 0.20 untaxed.
    // Shipping 5.00 by subtotal 39.98 : 0.10 : 0.20 → 4.96, 0.01, 0.03 (largest remainders); discount 1.00 → 0.99, 0.00, 0.01.
    assert.deepEqual(invoice, {
      id,
      updatedDate: invoice.updatedDate,
      createdDate: invoice.createdDate,
      deleted: false,
      invNum: 'A-1001',
      invDate: '2026-11-02',
      status: { code: 'o', name: 'Open' },
      vendor: { id: vendorId, code: 'ebsco', name: 'EBSCO Information Services' },
      accountingUnit: 0,
      currency: 'USD',
      useTaxCode: 'a',
      useTaxRate: '7.75',
      subtotal: '40.28',
      useTaxAmount: '3.11',
      shipping: '5.00',
      tax: '0.00',
      discount: '1.00',
      total: '47.39',
      lineItemCount: 3,
      note: 'November',
    });
    const lines = (await reader.get(`/v6/invoices/${id}/lineItems`)).json();
    assert.equal(lines.total, 3);
    assert.deepEqual(lines.entries[0], {
      id: lines.entries[0].id,
      invoiceId: id,
      lineNumber: 1,
      fund: { code: 'books', name: 'Books' },
      amount: '19.99',
      quantity: 2,
      subtotal: '39.98',
      useTax: true,
      useTaxRate: '7.75',
      useTaxAmount: '3.10',
      shipping: '4.96',
      tax: '0.00',
      discount: '0.99',
      total: '47.05',
      note: 'Bought book',
      bibId,
      order: 'o1000001',
    });
    assert.deepEqual(
      lines.entries.map((l: any) => [l.amount, l.useTaxAmount, l.shipping, l.discount, l.total]),
      [
        ['19.99', '3.10', '4.96', '0.99', '47.05'],
        ['0.10', '0.01', '0.01', '0.00', '0.12'],
        ['0.20', '0.00', '0.03', '0.01', '0.22'],
      ],
    );
    assert.equal(lines.entries[2].useTaxRate, undefined);
    for (const field of ['subtotal', 'useTaxAmount', 'shipping', 'discount', 'total']) {
      assert.equal(
        (invoice as Record<string, unknown>)[field],
        sumOf(lines.entries.map((l: any) => l[field])),
        `${field} is the sum of the lines`,
      );
    }
    const one = (await reader.get(`/v6/invoices/lineItems/${lines.entries[1].id}`)).json();
    assert.deepEqual(one, lines.entries[1]);
    const books = await fund(reader, 'books');
    assert.equal(books.encumbrance, '47.17', 'the unpaid lines encumber their funds');
    assert.equal(books.freeBalance, money(cents('10000.00') - cents('47.17')));
    assert.equal((await fund(reader, 'serials')).encumbrance, '0.22');
    const embedded = (await reader.get(`/v6/invoices/${id}?fields=invNum,lineItems`)).json();
    assert.deepEqual(Object.keys(embedded).sort(), ['id', 'invNum', 'lineItems']);
    assert.deepEqual(embedded.lineItems, lines.entries);
    assert.equal((await writer.send('DELETE', `/v6/invoices/${id}`)).statusCode, 204);
    assert.equal((await fund(reader, 'books')).encumbrance, '0.00', 'deleting releases the encumbrance');
  });

  it('takes the use tax on each line: 0.1 + 0.2 at 8.125% is 0.01 + 0.02, and the invoice tax is 0.03', async () => {
    const id = await create(writer, '/v6/invoices', {
      invNum: invNum(),
      invDate: '2026-11-02',
      vendorCode: 'ebsco',
      useTaxCode: 'c',
      lineItems: [
        { fund: 'books', amount: '0.1' },
        { fund: 'books', amount: '0.2' },
      ],
    });
    const invoice = (await reader.get(`/v6/invoices/${id}`)).json();
    assert.deepEqual([invoice.subtotal, invoice.useTaxAmount, invoice.total], ['0.30', '0.03', '0.33']);
    const zero = await create(writer, '/v6/invoices', {
      invNum: invNum(),
      invDate: '2026-11-02',
      vendorCode: 'ebsco',
      useTaxCode: 'z',
      lineItems: [{ fund: 'books', amount: '99.99' }],
    });
    const z = (await reader.get(`/v6/invoices/${zero}`)).json();
    assert.deepEqual([z.useTaxRate, z.useTaxAmount, z.total], ['0', '0.00', '99.99']);
    await writer.send('DELETE', `/v6/invoices/${id}`);
    await writer.send('DELETE', `/v6/invoices/${zero}`);
  });

  it('prices thousands of lines to the cent, and paying moves exactly their totals into expenditure', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => ({
      fund: i % 5 === 0 ? 'serials' : 'books',
      amount: money(BigInt((i * 7919) % 20011)),
      quantity: (i % 4) + 1,
      useTax: i % 6 !== 0,
    }));
    const before = { books: await fund(reader, 'books'), serials: await fund(reader, 'serials') };
    const id = await create(writer, '/v6/invoices', {
      invNum: invNum(),
      invDate: '2026-11-03',
      vendorCode: 'ebsco',
      useTaxCode: 'c',
      shipping: '123.45',
      discount: '67.89',
      lineItems: lines,
    });
    const invoice = (await reader.get(`/v6/invoices/${id}`)).json();
    const got: any[] = [];
    for (let offset = 0; ; offset += 2000) {
      const page = (await reader.get(`/v6/invoices/${id}/lineItems?limit=2000&offset=${offset}`)).json();
      got.push(...page.entries);
      if (page.total < 2000) break;
    }
    assert.equal(got.length, 3000);
    let subtotal = 0n;
    let tax = 0n;
    got.forEach((line, i) => {
      const sub = cents(lines[i]!.amount) * BigInt(lines[i]!.quantity);
      const lineTax = lines[i]!.useTax ? taxCents(sub, '8.125') : 0n;
      assert.equal(line.lineNumber, i + 1);
      assert.equal(line.subtotal, money(sub));
      assert.equal(line.useTaxAmount, money(lineTax), `line ${i + 1}`);
      assert.equal(line.total, money(sub + lineTax + cents(line.shipping) - cents(line.discount)));
      subtotal += sub;
      tax += lineTax;
    });
    assert.equal(invoice.subtotal, money(subtotal));
    assert.equal(invoice.useTaxAmount, money(tax));
    assert.equal(sumOf(got.map((l) => l.shipping)), '123.45');
    assert.equal(sumOf(got.map((l) => l.discount)), '67.89');
    assert.equal(invoice.total, money(subtotal + tax + cents('123.45') - cents('67.89')));
    assert.equal(invoice.total, sumOf(got.map((l) => l.total)));
    const byFund = (code: string) => sumOf(got.filter((l) => l.fund.code === code).map((l) => l.total));
    assert.equal((await fund(reader, 'books')).encumbrance, money(cents(before.books.encumbrance) + cents(byFund('books'))));

    assert.equal((await writer.send('POST', `/v6/invoices/${id}/pay`)).statusCode, 204);
    for (const code of ['books', 'serials'] as const) {
      const after = await fund(reader, code);
      assert.equal(after.expenditure, money(cents(before[code].expenditure) + cents(byFund(code))), `${code} expenditure`);
      assert.equal(after.encumbrance, before[code].encumbrance, `${code} encumbrance back where it was`);
      assert.equal(after.freeBalance, money(cents(after.appropriation) - cents(after.expenditure) - cents(after.encumbrance)));
    }
  });

  it('changes the fields a PUT gives, keeping the line items unless it sends new ones', async () => {
    const id = await create(writer, '/v6/invoices', {
      invNum: invNum(),
      invDate: '2026-11-04',
      vendorCode: 'ebsco',
      useTaxCode: 'a',
      lineItems: [
        { fund: 'books', amount: '10.00' },
        { fund: 'serials', amount: '20.00' },
      ],
    });
    const lineIds = (await reader.get(`/v6/invoices/${id}/lineItems`)).json().entries.map((l: any) => l.id);
    const encumbered = (await fund(reader, 'books')).encumbrance;

    assert.equal((await writer.send('PUT', `/v6/invoices/${id}`, { note: 'checked', useTaxCode: 'c', shipping: '3.00' })).statusCode, 204);
    const changed = (await reader.get(`/v6/invoices/${id}?fields=default,lineItems`)).json();
    assert.equal(changed.note, 'checked');
    assert.deepEqual(
      changed.lineItems.map((l: any) => l.id),
      lineIds,
      'same line items',
    );
    assert.deepEqual(
      changed.lineItems.map((l: any) => [l.useTaxRate, l.useTaxAmount, l.shipping]),
      [
        ['8.125', '0.81', '1.00'],
        ['8.125', '1.63', '2.00'],
      ],
    );
    assert.equal(changed.total, '35.44');

    assert.equal(
      (
        await writer.send('PUT', `/v6/invoices/${id}`, {
          useTaxCode: '',
          lineItems: [{ fund: 'books', amount: '1.00', quantity: 3 }],
          shipping: '0',
        })
      ).statusCode,
      204,
    );
    const replaced = (await reader.get(`/v6/invoices/${id}?fields=default,lineItems`)).json();
    assert.equal(replaced.useTaxCode, undefined);
    assert.equal(replaced.lineItems.length, 1);
    assert.ok(!lineIds.includes(replaced.lineItems[0].id), 'new line items have new ids');
    assert.equal(replaced.total, '3.00');
    assert.equal(
      (await fund(reader, 'books')).encumbrance,
      money(cents(encumbered) - cents('10.78') + cents('3.00')),
      'the encumbrance follows the lines',
    );
    assertRefused(await reader.get(`/v6/invoices/lineItems/${lineIds[0]}`), 404, 107);
    await writer.send('DELETE', `/v6/invoices/${id}`);
  });

  it('refuses to change, delete or pay again a paid invoice, writing nothing', async () => {
    const id = await create(writer, '/v6/invoices', {
      invNum: invNum(),
      invDate: '2026-11-05',
      vendorCode: 'ebsco',
      lineItems: [{ fund: 'books', amount: '12.50' }],
    });
    assert.equal((await writer.send('POST', `/v6/invoices/${id}/pay`)).statusCode, 204);
    const paid = (await reader.get(`/v6/invoices/${id}`)).json();
    assert.deepEqual(paid.status, { code: 'p', name: 'Paid' });
    assert.match(paid.paidDate, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.equal(paid.paidDate, paid.updatedDate);
    const before = await snapshot(t.testDb.db);
    assertRefused(await writer.send('POST', `/v6/invoices/${id}/pay`), 409, 132, 2);
    assertRefused(await writer.send('PUT', `/v6/invoices/${id}`, { note: 'late change' }), 409, 132, 1);
    assertRefused(await writer.send('PUT', `/v6/invoices/${id}`, { lineItems: [] }), 409, 132, 1);
    assertRefused(await writer.send('DELETE', `/v6/invoices/${id}`), 409, 132, 1);
    assert.deepEqual(await snapshot(t.testDb.db), before);
    // The database refuses too, should anything get past the service.
    await assert.rejects(t.testDb.db.query('update invoices set note = $2 where id = $1', [id, 'x']), /paid/);
  });

  it('keeps a paid invoice’s figures when the rate changes; an unpaid one takes the new rate when next written', async () => {
    const paid = await create(writer, '/v6/invoices', {
      invNum: invNum(),
      invDate: '2026-11-06',
      vendorCode: 'ebsco',
      useTaxCode: 'a',
      lineItems: [{ fund: 'books', amount: '100.00' }],
    });
    await writer.send('POST', `/v6/invoices/${paid}/pay`);
    const open = await create(writer, '/v6/invoices', {
      invNum: invNum(),
      invDate: '2026-11-06',
      vendorCode: 'ebsco',
      useTaxCode: 'a',
      lineItems: [{ fund: 'books', amount: '100.00' }],
    });
    await writer.send('PUT', '/v6/invoices/useTax/a', { rate: '9.5' });
    try {
      assert.deepEqual(
        [(await reader.get(`/v6/invoices/${paid}`)).json().useTaxAmount, (await reader.get(`/v6/invoices/${open}`)).json().useTaxAmount],
        ['7.75', '7.75'],
      );
      await writer.send('PUT', `/v6/invoices/${open}`, { note: 'rate changed' });
      const reread = (await reader.get(`/v6/invoices/${open}`)).json();
      assert.deepEqual(
        [reread.useTaxRate, reread.useTaxAmount, (await reader.get(`/v6/invoices/${paid}`)).json().useTaxAmount],
        ['9.5', '9.50', '7.75'],
      );
    } finally {
      await writer.send('PUT', '/v6/invoices/useTax/a', { rate: '7.75' });
      await writer.send('DELETE', `/v6/invoices/${open}`);
    }
  });

  it('refuses bad references and bad amounts with the error shape, writing nothing', async () => {
    const base = { invNum: 'REFUSED-1', invDate: '2026-11-07', vendorCode: 'ebsco', useTaxCode: 'a' };
    const line = { fund: 'books', amount: '10.00' };
    const open = await create(writer, '/v6/invoices', { invNum: invNum(), invDate: '2026-11-07', vendorCode: 'ebsco', lineItems: [line] });
    const suspended = await create(writer, '/v6/invoices', {
      invNum: invNum(),
      invDate: '2026-11-07',
      vendorCode: 'ebsco',
      status: 's',
      lineItems: [line],
    });
    const empty = await create(writer, '/v6/invoices', { invNum: invNum(), invDate: '2026-11-07', vendorCode: 'ebsco', currency: 'USD' });
    const existingNumber = (await reader.get(`/v6/invoices/${open}`)).json().invNum;
    const before = await snapshot(t.testDb.db);
    const cases: [string, Promise<any>, number, number, number?][] = [
      [
        'unknown fund',
        writer.send('POST', '/v6/invoices', { ...base, lineItems: [line, { fund: 'nosuch', amount: '1.00' }] }),
        400,
        132,
        5,
      ],
      ['unknown use tax code', writer.send('POST', '/v6/invoices', { ...base, useTaxCode: 'q', lineItems: [line] }), 400, 132, 6],
      ['unknown vendor', writer.send('POST', '/v6/invoices', { ...base, vendorCode: 'nobody', lineItems: [line] }), 400, 132, 7],
      ['unknown bib', writer.send('POST', '/v6/invoices', { ...base, lineItems: [{ ...line, bibId: '9999999' }] }), 400, 132, 8],
      ['duplicate number', writer.send('POST', '/v6/invoices', { ...base, invNum: existingNumber, lineItems: [line] }), 409, 132, 9],
      [
        'fund in another currency',
        writer.send('POST', '/v6/invoices', { ...base, lineItems: [line, { fund: 'euro', amount: '1.00' }] }),
        400,
        132,
        10,
      ],
      ['currency not the funds’', writer.send('POST', '/v6/invoices', { ...base, currency: 'EUR', lineItems: [line] }), 400, 132, 10],
      ['negative quantity', writer.send('POST', '/v6/invoices', { ...base, lineItems: [{ ...line, quantity: -1 }] }), 400, 126],
      ['year 0000', writer.send('POST', '/v6/invoices', { ...base, invDate: '0000-12-31', lineItems: [line] }), 400, 126],
      ['zero quantity', writer.send('POST', '/v6/invoices', { ...base, lineItems: [{ ...line, quantity: 0 }] }), 400, 126],
      ['fractional quantity', writer.send('POST', '/v6/invoices', { ...base, lineItems: [{ ...line, quantity: 1.5 }] }), 400, 126],
      ['negative amount', writer.send('POST', '/v6/invoices', { ...base, lineItems: [{ ...line, amount: '-10.00' }] }), 400, 126],
      ['three decimals', writer.send('POST', '/v6/invoices', { ...base, lineItems: [{ ...line, amount: '10.005' }] }), 400, 126],
      ['float noise', writer.send('POST', '/v6/invoices', { ...base, lineItems: [{ ...line, amount: 0.1 + 0.2 }] }), 400, 126],
      ['discount above subtotal', writer.send('POST', '/v6/invoices', { ...base, discount: '10.01', lineItems: [line] }), 400, 126],
      ['shipping without lines', writer.send('POST', '/v6/invoices', { ...base, currency: 'USD', shipping: '1.00' }), 400, 126],
      ['bad date', writer.send('POST', '/v6/invoices', { ...base, invDate: '2026-02-30', lineItems: [line] }), 400, 126],
      ['status p', writer.send('POST', '/v6/invoices', { ...base, status: 'p', lineItems: [line] }), 400, 126],
      ['missing invNum', writer.send('POST', '/v6/invoices', { invDate: '2026-11-07', vendorCode: 'ebsco', lineItems: [line] }), 400, 126],
      ['unknown field', writer.send('POST', '/v6/invoices', { ...base, lineItems: [{ ...line, colour: 'red' }] }), 400, 126],
      [
        'bad JSON',
        t.app.inject({
          method: 'POST',
          url: '/v6/invoices',
          headers: { authorization: await bearer(t, ['Invoices_Write']), 'content-type': 'application/json' },
          payload: '{"invNum": ',
        }),
        400,
        130,
      ],
      ['unknown fund on PUT', writer.send('PUT', `/v6/invoices/${open}`, { lineItems: [{ fund: 'nosuch', amount: '1.00' }] }), 400, 132, 5],
      ['duplicate number on PUT', writer.send('PUT', `/v6/invoices/${suspended}`, { invNum: existingNumber }), 409, 132, 9],
      ['pay suspended', writer.send('POST', `/v6/invoices/${suspended}/pay`), 409, 132, 3],
      ['pay without lines', writer.send('POST', `/v6/invoices/${empty}/pay`), 409, 132, 4],
      ['pay unknown', writer.send('POST', '/v6/invoices/9999999/pay'), 404, 107],
      ['PUT unknown', writer.send('PUT', '/v6/invoices/9999999', { note: 'x' }), 404, 107],
      ['bad id', writer.send('PUT', '/v6/invoices/abc', { note: 'x' }), 400, 101],
    ];
    for (const [what, request, httpStatus, code, specificCode] of cases) {
      const res = await request;
      assert.equal(res.statusCode, httpStatus, `${what}: ${res.body}`);
      assertRefused(res, httpStatus, code, specificCode);
      assert.ok(res.json().description, what);
    }
    assert.deepEqual(await snapshot(t.testDb.db), before, 'nothing was written');
    assert.match(
      (await writer.send('POST', '/v6/invoices', { ...base, lineItems: [{ ...line, quantity: -1 }] })).json().description,
      /quantity/,
    );
    assert.match(
      (await writer.send('POST', '/v6/invoices', { ...base, lineItems: [line, { fund: 'nosuch', amount: '1' }] })).json().description,
      /^lineItems\.1\.fund: no fund nosuch$/,
    );
    assert.match(
      (await writer.send('POST', '/v6/invoices', { ...base, lineItems: [line, { ...line, bibId: '9999999' }] })).json().description,
      /^lineItems\.1\.bibId: no bib 9999999$/,
    );
    for (const id of [open, suspended, empty]) await writer.send('DELETE', `/v6/invoices/${id}`);
  });

  it('deletes an unpaid invoice leaving a tombstone, and frees its number', async () => {
    const number = invNum();
    const id = await create(writer, '/v6/invoices', {
      invNum: number,
      invDate: '2026-11-08',
      vendorCode: 'ebsco',
      lineItems: [{ fund: 'books', amount: '5.00' }],
    });
    assert.equal((await writer.send('DELETE', `/v6/invoices/${id}`)).statusCode, 204);
    const tomb = (await reader.get(`/v6/invoices/${id}`)).json();
    assert.deepEqual(Object.keys(tomb).sort(), ['deleted', 'deletedDate', 'id']);
    assert.match(tomb.deletedDate, /^\d{4}-\d{2}-\d{2}$/);
    assertRefused(await reader.get(`/v6/invoices/${id}/lineItems`), 404, 107);
    assertRefused(await writer.send('DELETE', `/v6/invoices/${id}`), 404, 107);
    assertRefused(await writer.send('POST', `/v6/invoices/${id}/pay`), 404, 107);
    assert.ok((await reader.get('/v6/invoices?deleted=true&limit=2000')).json().entries.some((e: any) => e.id === id));
    const again = await create(writer, '/v6/invoices', { invNum: number, invDate: '2026-11-08', vendorCode: 'ebsco', currency: 'USD' });
    await writer.send('DELETE', `/v6/invoices/${again}`);
  });

  it('lists by status, invoice number, invoice date, paid date and id, with fields', async () => {
    const a = await create(writer, '/v6/invoices', {
      invNum: 'LIST-A1',
      invDate: '2025-01-15',
      vendorCode: 'ebsco',
      lineItems: [{ fund: 'books', amount: '1.00' }],
    });
    const b = await create(writer, '/v6/invoices', {
      invNum: 'LIST-A2',
      invDate: '2025-02-15',
      vendorCode: 'ebsco',
      status: 's',
      lineItems: [{ fund: 'books', amount: '2.00' }],
    });
    const c = await create(writer, '/v6/invoices', {
      invNum: 'LIST-B1',
      invDate: '2025-03-15',
      vendorCode: 'ebsco',
      lineItems: [{ fund: 'books', amount: '3.00' }],
    });
    await writer.send('POST', `/v6/invoices/${c}/pay`);
    const ids = async (query: string) => (await reader.get(`/v6/invoices?limit=2000&${query}`)).json().entries.map((e: any) => e.id);
    assert.deepEqual(await ids('invNum=LIST-A*'), [a, b]);
    assert.deepEqual(await ids('invNum=LIST-A1,LIST-B1'), [a, c]);
    assert.deepEqual(await ids('invNum=LIST-*&status=s'), [b]);
    assert.deepEqual(await ids('invNum=LIST-*&statusCode=o,p'), [a, c]);
    assert.deepEqual(await ids('invDate=[2025-02-01,2025-03-31]'), [b, c]);
    assert.deepEqual(await ids('invDate=2025-01-15'), [a]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.deepEqual(await ids('invNum=LIST-*&paidDate=[2000-01-01T00:00:00Z,]'), [c]);
    assert.deepEqual(await ids(`id=[${a},${b}]`), [a, b]);
    const page = (await reader.get(`/v6/invoices?id=${c},${a}&fields=invNum,total`)).json();
    assert.deepEqual(page, {
      total: 2,
      start: 0,
      entries: [
        { id: a, invNum: 'LIST-A1', total: '1.00' },
        { id: c, invNum: 'LIST-B1', total: '3.00' },
      ],
    });
    const withLines = (await reader.get(`/v5/invoices?id=${a}&fields=lineItems`)).json().entries[0];
    assert.equal(withLines.lineItems[0].amount, '1.00');
    assertRefused(await reader.get('/v6/invoices?fields=colour'), 400, 108);
    assertRefused(await reader.get('/v6/invoices?status=x'), 400, 108);
    assertRefused(await reader.get('/v6/invoices?invDate=yesterday'), 400, 108);
    assertRefused(await reader.get('/v6/invoices?suppressed=true'), 400, 106);
    assertRefused(await reader.get('/v6/invoices/lineItems/9999999'), 404, 107);
  });

  it('needs Invoices_Read to read and Invoices_Write to write or pay', async () => {
    const id = await create(writer, '/v6/invoices', {
      invNum: invNum(),
      invDate: '2026-11-09',
      vendorCode: 'ebsco',
      lineItems: [{ fund: 'books', amount: '1.00' }],
    });
    const bibs = caller(t, await bearer(t, ['Bibs_Read']));
    for (const url of ['/v6/invoices', `/v6/invoices/${id}`, `/v6/invoices/${id}/lineItems`]) {
      assertRefused(await bibs.get(url), 403, 116);
      assertRefused(await caller(t, '').get(url), 401, 113);
    }
    const before = await snapshot(t.testDb.db);
    assertRefused(
      await reader.send('POST', '/v6/invoices', { invNum: invNum(), invDate: '2026-11-09', vendorCode: 'ebsco', currency: 'USD' }),
      403,
      116,
    );
    assertRefused(await reader.send('PUT', `/v6/invoices/${id}`, { note: 'x' }), 403, 116);
    assertRefused(await reader.send('DELETE', `/v6/invoices/${id}`), 403, 116);
    assertRefused(await reader.send('POST', `/v6/invoices/${id}/pay`), 403, 116);
    assert.deepEqual(await snapshot(t.testDb.db), before);
  });
});
