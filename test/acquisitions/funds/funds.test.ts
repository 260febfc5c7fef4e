// /v6/funds and /v6/vendors: set up from the API, read back, refusals, permissions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { assertRefused, caller, create, type Caller } from '../../helpers/api.ts';
import { snapshot } from '../../helpers/acquisitions.ts';
import { ENGINE } from '../../helpers/db.ts';
import { bearer } from '../../helpers/tokens.ts';

describe(`funds and vendors on ${ENGINE}`, () => {
  let t: TestApp;
  let writer: Caller;
  let reader: Caller;
  before(async () => {
    t = await createTestApp();
    writer = caller(t, await bearer(t, ['Invoices_Write']));
    reader = caller(t, await bearer(t, ['Invoices_Read']));
  });
  after(() => t.close());

  it('creates funds and lists them by code with their balances', async () => {
    const res = await writer.send('POST', '/v6/funds', {
      code: 'serials',
      fundName: 'Serials',
      appropriation: 5000,
      note: 'print and online',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.json().link, /\/v6\/funds\/serials$/);
    await create(writer, '/v6/funds', {
      code: 'books',
      fundName: 'Books',
      appropriation: '12000.50',
      expenditure: '1000',
      encumbrance: '250.25',
      accountingUnit: 2,
    });
    const books = (await reader.get('/v6/funds/books')).json();
    assert.deepEqual(books, {
      code: 'books',
      fundName: 'Books',
      accountingUnit: 2,
      currency: 'USD',
      appropriation: '12000.50',
      expenditure: '1000.00',
      encumbrance: '250.25',
      freeBalance: '10750.25',
      createdDate: books.createdDate,
      updatedDate: books.updatedDate,
    });
    const list = (await reader.get('/v5/funds')).json();
    assert.deepEqual(
      list.entries.map((f: any) => f.code),
      ['books', 'serials'],
    );
    assert.equal(list.entries[1].note, 'print and online');
    assert.deepEqual((await reader.get('/v6/funds?fields=freeBalance&limit=1&offset=1')).json(), {
      total: 1,
      start: 1,
      entries: [{ freeBalance: '5000.00' }],
    });
  });

  it('changes a fund’s name, appropriation and note', async () => {
    assert.equal((await writer.send('PUT', '/v6/funds/serials', { appropriation: '5500.00', note: '' })).statusCode, 204);
    const serials = (await reader.get('/v6/funds/serials')).json();
    assert.deepEqual(
      [serials.appropriation, serials.freeBalance, serials.note, serials.fundName],
      ['5500.00', '5500.00', undefined, 'Serials'],
    );
  });

  it('refuses a taken code, bad codes and bad amounts, writing nothing', async () => {
    const before = await snapshot(t.testDb.db);
    assertRefused(await writer.send('POST', '/v6/funds', { code: 'books', fundName: 'Again' }), 409, 132, 12);
    const badCode = await writer.send('POST', '/v6/funds', { code: 'Books!', fundName: 'Bad' });
    assertRefused(badCode, 400, 126);
    assert.match(badCode.json().description, /^code: /);
    assertRefused(await writer.get('/v6/funds/Books!'), 400, 108); // in the path, still a bad parameter
    assertRefused(await writer.send('POST', '/v6/funds', { code: 'new', fundName: 'New', appropriation: '-5' }), 400, 126);
    assertRefused(await writer.send('POST', '/v6/funds', { code: 'new', fundName: 'New', appropriation: '1.001' }), 400, 126);
    assertRefused(await writer.send('POST', '/v6/funds', { code: 'new', fundName: 'New', currency: 'dollars' }), 400, 126);
    assertRefused(await writer.send('POST', '/v6/funds', { code: 'new', fundName: ' ' }), 400, 126);
    assertRefused(await writer.send('PUT', '/v6/funds/books', { expenditure: '0' }), 400, 126);
    assertRefused(await writer.send('PUT', '/v6/funds/nosuch', { appropriation: '1' }), 404, 107);
    assertRefused(await reader.get('/v6/funds/nosuch'), 404, 107);
    assert.deepEqual(await snapshot(t.testDb.db), before);
  });

  it('creates, lists, reads and changes vendors', async () => {
    const id = await create(writer, '/v6/vendors', { code: 'ebsco', vendorName: 'EBSCO', email: 'orders@example.org', acctNum: 'AB-12' });
    const second = await create(writer, '/iii/sierra-api/v6/vendors', { code: 'yankee', vendorName: 'Yankee Book Peddler' });
    assert.match(id, /^\d{7}$/);
    const vendor = (await reader.get(`/v6/vendors/${id}`)).json();
    assert.deepEqual(vendor, {
      id,
      code: 'ebsco',
      vendorName: 'EBSCO',
      accountingUnit: 0,
      email: 'orders@example.org',
      acctNum: 'AB-12',
      createdDate: vendor.createdDate,
      updatedDate: vendor.updatedDate,
    });
    assert.equal((await writer.send('PUT', `/v6/vendors/${id}`, { phone: '555-0100', email: null })).statusCode, 204);
    const changed = (await reader.get(`/v6/vendors/${id}`)).json();
    assert.deepEqual([changed.phone, changed.email, changed.vendorName], ['555-0100', undefined, 'EBSCO']);
    assert.deepEqual((await reader.get(`/v6/vendors?id=[${id},]&fields=code`)).json().entries, [
      { id, code: 'ebsco' },
      { id: second, code: 'yankee' },
    ]);
    assertRefused(await writer.send('POST', '/v6/vendors', { code: 'ebsco', vendorName: 'Again' }), 409, 132, 12);
    const badCode = await writer.send('POST', '/v6/vendors', { code: 'EBSCO co', vendorName: 'Bad' });
    assertRefused(badCode, 400, 126);
    assert.match(badCode.json().description, /^code: /);
    assertRefused(await writer.send('PUT', `/v6/vendors/${id}`, { code: 'other' }), 400, 126);
    assertRefused(await writer.send('PUT', '/v6/vendors/9999999', { phone: '1' }), 404, 107);
    assertRefused(await reader.get('/v6/vendors/abc'), 400, 101);
  });

  it('needs Acquisitions_Read to read and Acquisitions_Write to write', async () => {
    const bibs = caller(t, await bearer(t, ['Bibs_Read']));
    assertRefused(await bibs.get('/v6/funds'), 403, 116);
    assertRefused(await bibs.get('/v6/vendors'), 403, 116);
    assertRefused(await caller(t, '').get('/v6/funds'), 401, 113);
    assertRefused(await reader.send('POST', '/v6/funds', { code: 'x', fundName: 'X' }), 403, 116);
    assertRefused(await reader.send('PUT', '/v6/funds/books', { appropriation: '1' }), 403, 116);
    assertRefused(await reader.send('POST', '/v6/vendors', { code: 'x', vendorName: 'X' }), 403, 116);
  });
});
