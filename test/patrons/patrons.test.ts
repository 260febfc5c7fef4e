// /v6/patrons: create, read, fields, change, delete (tombstones), find, metadata, permissions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { insertBranch, insertLocation } from '../../src/branches/repository.ts';
import { assertRefused, caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

const PIN = 'Pq7-wombat-2931';

describe(`patrons on ${ENGINE}`, () => {
  let t: TestApp;
  let writer: Caller;
  let reader: Caller;
  let ada: string;
  before(async () => {
    t = await createTestApp();
    await t.testDb.db.transaction(async (tx) => {
      const branch = await insertBranch(tx, 'Main', null);
      await insertLocation(tx, { code: 'mn', name: 'Main Library', pickup: true, hold_shelf_days: 7 }, branch);
    });
    writer = caller(t, await bearer(t, ['Patrons_Write']));
    reader = caller(t, await bearer(t, ['Patrons_Read']));
  });
  after(() => t.close());

  const snapshot = async () => ({
    patrons: await t.testDb.db.query('select * from patrons order by id'),
    barcodes: await t.testDb.db.query('select * from patron_barcodes order by barcode'),
  });

  it('creates a patron and reads it back with the default fields, never the PIN', async () => {
    const res = await writer.send('POST', '/v6/patrons', {
      names: ['Lovelace, Ada'],
      barcodes: ['21000001'],
      pin: PIN,
      emails: ['ada@example.org'],
      phones: [{ number: '555-0100' }],
      addresses: [{ lines: ['12 St James Sq', 'London'] }],
      patronType: 3,
      homeLibraryCode: 'mn',
      expirationDate: '2027-06-30',
      birthDate: '1815-12-10',
      moneyOwed: '1.5',
      message: 'Card renewed',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.json().link, /^http:\/\/localhost(:\d+)?\/v6\/patrons\/\d{7}$/);
    ada = res.json().link.split('/').pop();
    const got = await reader.get(`/v6/patrons/${ada}`);
    const body = got.json();
    assert.deepEqual(body, {
      id: ada,
      updatedDate: body.updatedDate,
      createdDate: body.createdDate,
      deleted: false,
      suppressed: false,
      names: ['Lovelace, Ada'],
      barcodes: ['21000001'],
      expirationDate: '2027-06-30',
      emails: ['ada@example.org'],
      patronType: 3,
      homeLibraryCode: 'mn',
      message: { code: '-', accountMessages: ['Card renewed'] },
      blockInfo: { code: '-' },
      moneyOwed: '1.50',
    });
    assert.match(body.updatedDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(!got.body.includes(PIN) && !got.body.includes('scrypt'));
    const all = (await reader.get(`/v6/patrons/${ada}?fields=default,phones,addresses,birthDate,homeLibrary,varFields`)).body;
    assert.ok(!all.includes(PIN) && !all.includes('scrypt'));
    const some = (await reader.get(`/v6/patrons/${ada}?fields=phones,addresses,birthDate,homeLibrary,varFields`)).json();
    assert.deepEqual(some, {
      id: ada,
      birthDate: '1815-12-10',
      phones: [{ number: '555-0100', type: 't' }],
      addresses: [{ lines: ['12 St James Sq', 'London'], type: 'a' }],
      homeLibrary: { code: 'mn', name: 'Main Library' },
      varFields: [
        // The PIN field says the patron has a PIN, and nothing of the PIN.
        { fieldTag: '=', content: '********' },
        { fieldTag: 'b', content: '21000001' },
        { fieldTag: 'n', content: 'Lovelace, Ada' },
        { fieldTag: 'z', content: 'ada@example.org' },
        { fieldTag: 't', content: '555-0100' },
        { fieldTag: 'a', content: '12 St James Sq$London' },
        { fieldTag: 'm', content: 'Card renewed' },
      ],
    });
    assertRefused(await reader.get(`/v6/patrons/${ada}?fields=pin`), 400, 108);
  });

  it('stores the PIN only as a scrypt hash', async () => {
    const [row] = await t.testDb.db.query<{ pin_hash: string }>('select pin_hash from patrons where id = $1', [ada]);
    assert.match(row!.pin_hash, /^scrypt\$4096\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    assert.ok(!row!.pin_hash.includes(PIN));
    const dump = JSON.stringify(await snapshot());
    assert.ok(!dump.includes(PIN));
  });

  it('lists patrons in id order under /v6, /v5 and /iii/sierra-api, with fields and id ranges', async () => {
    const grace = await create(writer, '/v5/patrons', {
      names: ['Hopper, Grace'],
      barcodes: ['21000002', '21000003'],
      emails: ['grace@example.org'],
    });
    const list = (await reader.get('/v6/patrons')).json();
    assert.deepEqual(
      list.entries.map((p: any) => p.id),
      [ada, grace],
    );
    assert.equal(list.total, 2);
    assert.deepEqual((await reader.get(`/iii/sierra-api/v5/patrons?id=[${grace},]&fields=barcodes`)).json(), {
      total: 1,
      start: 0,
      entries: [{ id: grace, barcodes: ['21000002', '21000003'] }],
    });
    assert.deepEqual((await reader.get('/v6/patrons?limit=1&offset=1&fields=names')).json().entries, [
      { id: grace, names: ['Hopper, Grace'] },
    ]);
    assertRefused(await reader.get('/v6/patrons?fields=nonsense'), 400, 108);
    assertRefused(await reader.get('/v6/patrons?colour=red'), 400, 106);
  });

  it('changes the fields a PUT gives, barcodes replaced as a whole', async () => {
    const before = (await reader.get(`/v6/patrons/${ada}`)).json();
    const res = await writer.send('PUT', `/v6/patrons/${ada}`, {
      barcodes: ['21000009', '21000001'],
      blockInfo: { code: 'm' },
      expirationDate: '',
      moneyOwed: 0,
    });
    assert.equal(res.statusCode, 204, res.body);
    const after = (await reader.get(`/v6/patrons/${ada}`)).json();
    assert.deepEqual(after.barcodes, ['21000009', '21000001']);
    assert.deepEqual(after.blockInfo, { code: 'm' });
    assert.equal(after.expirationDate, undefined);
    assert.equal(after.moneyOwed, '0.00');
    assert.deepEqual(after.names, before.names);
    assert.ok(after.updatedDate >= before.updatedDate);
  });

  it('refuses bad input naming the field, and taken barcodes, writing nothing', async () => {
    const before = await snapshot();
    assertRefused(await writer.send('POST', '/v6/patrons', { barcodes: ['x1'] }), 400, 126);
    assertRefused(await writer.send('POST', '/v6/patrons', { names: [] }), 400, 126);
    const cases: [unknown, RegExp][] = [
      [{ names: ['A'], expirationDate: '2027-02-30' }, /expirationDate/],
      [{ names: ['A'], birthDate: '0000-06-15' }, /birthDate/],
      [{ names: ['A'], expirationDate: '0000-01-01' }, /expirationDate/],
      [{ names: ['A'], emails: ['not-an-email'] }, /emails\[0\]/],
      [{ names: ['A'], pin: '12' }, /pin/],
      [{ names: ['A'], moneyOwed: '-1' }, /moneyOwed/],
      [{ names: ['A'], moneyOwed: '1.234' }, /moneyOwed/],
      [{ names: ['A'], blockInfo: { code: 'q' } }, /blockInfo/],
      [{ names: ['A'], barcodes: ['b1', 'b1'] }, /barcodes/],
      [{ names: ['A'], phones: [{ number: '1', type: 'zz' }] }, /phones\[0\]\.type/],
      [{ names: ['A'], patronType: 300 }, /patronType/],
      [{ names: ['A'], colour: 'red' }, /colour/],
    ];
    for (const [payload, field] of cases) {
      const res = await writer.send('POST', '/v6/patrons', payload);
      assertRefused(res, 400, 126);
      assert.match(res.json().description, field);
    }
    assertRefused(await writer.send('POST', '/v6/patrons', { names: ['A'], barcodes: ['new1', '21000002'] }), 409, 132, 1);
    assertRefused(await writer.send('POST', '/v6/patrons', { names: ['A'], homeLibraryCode: 'zz' }), 400, 132, 2);
    assertRefused(await writer.send('POST', '/v6/patrons', { names: ['A'], patronType: 200 }), 400, 132, 3);
    assertRefused(await writer.send('PUT', `/v6/patrons/${ada}`, { names: ['Changed'], barcodes: ['21000003'] }), 409, 132, 1);
    assertRefused(await writer.send('PUT', '/v6/patrons/9999999', { names: ['X'] }), 404, 107);
    assertRefused(await reader.get('/v6/patrons?updatedDate=[0000-01-01,2026-01-01]'), 400, 108);
    assertRefused(await reader.get('/v6/patrons/abc'), 400, 101);
    assertRefused(await reader.get('/v6/patrons/9999999'), 404, 107);
    const res = await writer.send('POST', '/v6/patrons', { names: ['A'], pin: '12' });
    assert.ok(!res.body.includes('"12"'));
    assert.deepEqual(await snapshot(), before);
  });

  it('takes a blank homeLibraryCode as none, on create and update', async () => {
    const id = await create(writer, '/v6/patrons', { names: ['Blank, Home'], homeLibraryCode: '  ' });
    assert.equal((await reader.get(`/v6/patrons/${id}?fields=homeLibrary`)).json().homeLibrary, undefined);
    assert.equal((await writer.send('PUT', `/v6/patrons/${id}`, { homeLibraryCode: 'mn' })).statusCode, 204);
    assert.equal((await reader.get(`/v6/patrons/${id}?fields=homeLibrary`)).json().homeLibrary.code, 'mn');
    assert.equal((await writer.send('PUT', `/v6/patrons/${id}`, { homeLibraryCode: ' \t ' })).statusCode, 204);
    assert.equal((await reader.get(`/v6/patrons/${id}?fields=homeLibrary`)).json().homeLibrary, undefined);
  });

  it('finds the one patron by barcode or by a varField, and answers 409 (code 133) for two', async () => {
    const ben = await create(writer, '/v6/patrons', { names: ['Franklin, Ben'], barcodes: ['21000100'], emails: ['shared@example.org'] });
    const bob = await create(writer, '/v6/patrons', {
      names: ['Franklin, Ben'],
      barcodes: ['21000101'],
      emails: ['bob@example.org'],
      phones: [{ number: '555-0199' }],
    });
    assert.equal((await reader.get('/v6/patrons/find?barcode=21000001')).json().id, ada);
    assert.deepEqual((await reader.get('/v5/patrons/find?barcode=21000100&fields=names')).json(), { id: ben, names: ['Franklin, Ben'] });
    assert.equal((await reader.get('/v6/patrons/find?varFieldTag=b&varFieldContent=21000101')).json().id, bob);
    assert.equal((await reader.get('/v6/patrons/find?varFieldTag=z&varFieldContent=shared@example.org')).json().id, ben);
    assert.equal((await reader.get('/v6/patrons/find?varFieldTag=t&varFieldContent=555-0199')).json().id, bob);
    assertRefused(await reader.get('/v6/patrons/find?varFieldTag=n&varFieldContent=Franklin,%20Ben'), 409, 133);
    assertRefused(await reader.get('/v6/patrons/find?barcode=nobody'), 404, 107);
    assertRefused(await reader.get('/v6/patrons/find'), 400, 105);
    assertRefused(await reader.get('/v6/patrons/find?varFieldTag=n'), 400, 105);
    assertRefused(await reader.get('/v6/patrons/find?varFieldTag=q&varFieldContent=x'), 400, 108);
    assertRefused(await reader.get('/v6/patrons/find?barcode=1&varFieldTag=b&varFieldContent=1'), 400, 108);
  });

  it('deletes a patron, leaving a tombstone and freeing its barcodes', async () => {
    const gone = await create(writer, '/v6/patrons', {
      names: ['Gone, Soon'],
      barcodes: ['21000500'],
      pin: '4321',
      emails: ['gone@example.org'],
    });
    assert.equal((await writer.send('DELETE', `/v6/patrons/${gone}`)).statusCode, 204);
    const tomb = (await reader.get(`/v6/patrons/${gone}`)).json();
    assert.deepEqual(Object.keys(tomb).sort(), ['deleted', 'deletedDate', 'id']);
    assert.equal(tomb.deleted, true);
    const [row] = await t.testDb.db.query<any>('select names, emails, pin_hash from patrons where id = $1', [gone]);
    assert.deepEqual([row.names, row.emails, row.pin_hash], [[], [], null]);
    assertRefused(await reader.get('/v6/patrons/find?barcode=21000500'), 404, 107);
    assertRefused(await writer.send('DELETE', `/v6/patrons/${gone}`), 404, 107);
    assertRefused(await writer.send('PUT', `/v6/patrons/${gone}`, { names: ['Back'] }), 404, 107);
    assert.deepEqual((await reader.get(`/v6/patrons?deleted=true`)).json().entries, [tomb]);
    assert.ok(!(await reader.get('/v6/patrons?deleted=false')).json().entries.some((p: any) => p.id === gone));
    await create(writer, '/v6/patrons', { names: ['New, Holder'], barcodes: ['21000500'] });
  });

  it('harvests changes and deletions by closed updatedDate windows', async () => {
    const start = new Date(Date.now() - 1000).toISOString().slice(0, 19) + 'Z';
    const kept = await create(writer, '/v6/patrons', { names: ['Harvest, Kept'] });
    const dropped = await create(writer, '/v6/patrons', { names: ['Harvest, Dropped'] });
    assert.equal((await writer.send('DELETE', `/v6/patrons/${dropped}`)).statusCode, 204);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the current second shows once it is over
    const window = (await reader.get(`/v6/patrons?updatedDate=[${start},]&id=[${kept},]&fields=names`)).json();
    assert.deepEqual(
      window.entries.map((p: any) => [p.id, p.deleted ?? false]),
      [
        [kept, false],
        [dropped, true],
      ],
    );
    assertRefused(await reader.get('/v6/patrons?updatedDate=yesterday'), 400, 108);
  });

  it('answers the metadata of coded fields', async () => {
    const all = (await reader.get('/v6/patrons/metadata')).json();
    assert.deepEqual(
      all.map((m: any) => m.field),
      ['patronType', 'homeLibraryCode', 'blockInfo'],
    );
    assert.deepEqual(all[0].values[0], { code: '0', desc: 'Adult' });
    assert.deepEqual(all[1].values, [{ code: 'mn', desc: 'Main Library' }]);
    assert.deepEqual((await reader.get('/v5/patrons/metadata?fields=blockInfo')).json()[0].values[0], { code: '-', desc: 'No block' });
    assertRefused(await reader.get('/v6/patrons/metadata?fields=shoeSize'), 400, 108);
  });

  it('hides patron data from a key without Patrons_Read; a Patrons_Validate key can validate but not read', async () => {
    for (const roles of [['Bibs_Read'], ['Patrons_Validate'], ['Invoices_Write']]) {
      const other = caller(t, await bearer(t, roles));
      for (const url of [
        '/v6/patrons',
        `/v6/patrons/${ada}`,
        '/v6/patrons/find?barcode=21000001',
        '/v6/patrons/metadata',
        `/v5/patrons/${ada}`,
      ]) {
        const res = await other.get(url);
        assertRefused(res, 403, 116);
        assert.ok(!res.body.includes('Lovelace'));
      }
      assertRefused(await other.send('POST', '/v6/patrons', { names: ['X'] }), 403, 116);
      assertRefused(await other.send('DELETE', `/v6/patrons/${ada}`), 403, 116);
    }
    assertRefused(await reader.send('PUT', `/v6/patrons/${ada}`, { names: ['X'] }), 403, 116);
    assertRefused(await caller(t, '').get('/v6/patrons'), 401, 113);
    const validator = caller(t, await bearer(t, ['Patrons_Validate']));
    const res = await validator.send('POST', '/v6/patrons/validate', { barcode: '21000009', pin: PIN });
    assert.equal(res.statusCode, 204, res.body);
    assertRefused(await reader.send('POST', '/v6/patrons/validate', { barcode: '21000009', pin: PIN }), 403, 116);
  });

  it('keeps PINs out of the log', () => {
    assert.ok(!t.logText().includes(PIN), 'PIN logged');
    assert.ok(!t.logText().includes('scrypt$'), 'PIN hash logged');
  });
});
