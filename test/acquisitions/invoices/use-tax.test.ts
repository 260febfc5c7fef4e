// GET /invoices/metadata: the use tax rates, exactly as the library set them; the codes' upkeep.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { assertRefused, caller, create, type Caller } from '../../helpers/api.ts';
import { snapshot } from '../../helpers/acquisitions.ts';
import { ENGINE } from '../../helpers/db.ts';
import { bearer } from '../../helpers/tokens.ts';

describe(`use tax metadata on ${ENGINE}`, () => {
  let t: TestApp;
  let writer: Caller;
  let reader: Caller;
  before(async () => {
    t = await createTestApp();
    writer = caller(t, await bearer(t, ['Invoices_Write']));
    reader = caller(t, await bearer(t, ['Invoices_Read']));
  });
  after(() => t.close());

  it('answers an empty list of values before any code is set', async () => {
    const res = await reader.get('/v6/invoices/metadata');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), [{ field: 'useTax', values: [] }]);
  });

  it('prints every rate exactly as set: 7.75, 0, three decimals, trailing zeros, a JSON number', async () => {
    for (const [code, rate] of [
      ['a', '7.75'],
      ['b', '0'],
      ['c', '8.125'],
      ['d', '7.750'],
      ['e', '100'],
      ['f', '0.000001'],
    ] as const) {
      assert.equal((await writer.send('PUT', `/v6/invoices/useTax/${code}`, { rate })).statusCode, 204);
    }
    assert.equal((await writer.send('PUT', '/v6/invoices/useTax/g', { rate: 6.35, description: 'County' })).statusCode, 204);
    const expected = [
      {
        field: 'useTax',
        values: [
          { code: 'a', desc: '7.75' },
          { code: 'b', desc: '0' },
          { code: 'c', desc: '8.125' },
          { code: 'd', desc: '7.750' },
          { code: 'e', desc: '100' },
          { code: 'f', desc: '0.000001' },
          { code: 'g', desc: '6.35' },
        ],
      },
    ];
    for (const url of [
      '/v6/invoices/metadata',
      '/v5/invoices/metadata',
      '/iii/sierra-api/v6/invoices/metadata',
      '/v6/invoices/metadata/?fields=useTax&language=fr',
    ]) {
      const res = await reader.get(url);
      assert.equal(res.statusCode, 200, url);
      assert.deepEqual(res.json(), expected, url);
    }
    const raw = (await reader.get('/v6/invoices/metadata')).body;
    assert.ok(
      raw.includes('{"code":"c","desc":"8.125"}') && raw.includes('{"code":"b","desc":"0"}'),
      'rates are strings in the raw body, no float noise',
    );
    const list = (await reader.get('/v6/invoices/useTax')).json();
    assert.deepEqual(
      list.find((c: any) => c.code === 'g'),
      { code: 'g', rate: '6.35', description: 'County' },
    );
  });

  it('replaces a rate in place, keeping the description unless one is given', async () => {
    assert.equal((await writer.send('PUT', '/v6/invoices/useTax/g', { rate: '8.00' })).statusCode, 204);
    const values = (await reader.get('/v6/invoices/metadata')).json()[0].values;
    assert.deepEqual(
      values.find((v: any) => v.code === 'g'),
      { code: 'g', desc: '8.00' },
    );
    const code = async () => (await reader.get('/v6/invoices/useTax')).json().find((c: any) => c.code === 'g');
    assert.deepEqual(await code(), { code: 'g', rate: '8.00', description: 'County' });
    await writer.send('PUT', '/v6/invoices/useTax/g', { rate: '6.35', description: '' });
    assert.deepEqual(await code(), { code: 'g', rate: '6.35' });
  });

  it('refuses unknown metadata fields and bad codes or rates, writing nothing', async () => {
    assertRefused(await reader.get('/v6/invoices/metadata?fields=useTax,colour'), 400, 108);
    assertRefused(await reader.get('/v6/invoices/metadata?sort=code'), 400, 106);
    const before = await snapshot(t.testDb.db);
    assertRefused(await writer.send('PUT', '/v6/invoices/useTax/TOOLONG', { rate: '1' }), 400, 108);
    assertRefused(await writer.send('PUT', '/v6/invoices/useTax/h', { rate: '-1' }), 400, 126);
    assertRefused(await writer.send('PUT', '/v6/invoices/useTax/h', { rate: '100.5' }), 400, 126);
    assertRefused(await writer.send('PUT', '/v6/invoices/useTax/h', { rate: '7.1234567' }), 400, 126);
    assertRefused(await writer.send('PUT', '/v6/invoices/useTax/h', { rate: 'seven' }), 400, 126);
    assertRefused(await writer.send('PUT', '/v6/invoices/useTax/h', {}), 400, 126);
    assertRefused(await writer.send('PUT', '/v6/invoices/useTax/h', { rate: '1', colour: 'red' }), 400, 126);
    assert.deepEqual(await snapshot(t.testDb.db), before);
  });

  it('removes a code no invoice uses, and refuses one an invoice uses', async () => {
    assert.equal((await writer.send('DELETE', '/v6/invoices/useTax/f')).statusCode, 204);
    assertRefused(await writer.send('DELETE', '/v6/invoices/useTax/f'), 404, 107);
    await create(writer, '/v6/funds', { code: 'books', fundName: 'Books', appropriation: '100.00' });
    await create(writer, '/v6/vendors', { code: 'v1', vendorName: 'Vendor' });
    const id = await create(writer, '/v6/invoices', {
      invNum: '1',
      invDate: '2026-11-02',
      vendorCode: 'v1',
      useTaxCode: 'c',
      lineItems: [{ fund: 'books', amount: '10.00' }],
    });
    const before = await snapshot(t.testDb.db);
    assertRefused(await writer.send('DELETE', '/v6/invoices/useTax/c'), 409, 132, 11);
    assert.deepEqual(await snapshot(t.testDb.db), before);
    assert.equal((await writer.send('DELETE', `/v6/invoices/${id}`)).statusCode, 204);
    assert.equal((await writer.send('DELETE', '/v6/invoices/useTax/c')).statusCode, 204, 'a deleted invoice no longer holds the code');
  });

  it('needs Invoices_Read to read and Invoices_Write to change', async () => {
    const bibs = caller(t, await bearer(t, ['Bibs_Read']));
    assertRefused(await bibs.get('/v6/invoices/metadata'), 403, 116);
    assertRefused(await caller(t, '').get('/v6/invoices/metadata'), 401, 113);
    assertRefused(await reader.send('PUT', '/v6/invoices/useTax/h', { rate: '1' }), 403, 116);
    assertRefused(await reader.send('DELETE', '/v6/invoices/useTax/a'), 403, 116);
  });
});
