// The patron fields Sierra documents beyond Carrel's first ones (issue 19): uniqueIds, fixedFields,
// autoBlockInfo, varFields read and written as Sierra does, the Sierra patron-patch shape on POST.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FixedClock } from '../../src/shared/calendar.ts';
import { assertRefused, caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

// The fields DCB (a resource-sharing hub) asks for when it looks a patron up.
const DCB_FIELDS =
  'id,names,barcodes,deleted,suppressed,expirationDate,patronType,blockInfo,autoBlockInfo,homeLibraryCode,message,uniqueIds,emails,fixedFields';

describe(`patron fields Sierra documents, on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  before(async () => {
    t = await createTestApp({}, { clock: new FixedClock('2026-11-02') });
    await setUpLibrary(t.testDb.db);
    api = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());

  const snapshot = () =>
    t.testDb.db.query(
      `select p.*, array(select unique_id from patron_unique_ids u where u.patron_id = p.id order by position) as u,
         array(select barcode from patron_barcodes b where b.patron_id = p.id order by position) as b from patrons p order by id`,
    );

  it('creates a patron from the patch a resource-sharing hub sends, and finds it by its unique id', async () => {
    const id = await create(api, '/v6/patrons', {
      patronType: 3,
      uniqueIds: ['alice@east'],
      names: ['Sheldon, Alice'],
      barcodes: ['29000001'],
      expirationDate: '2027-01-31',
      pin: '4321',
    });
    const found = await api.get(`/v6/patrons/find?varFieldTag=u&varFieldContent=alice@east&fields=${DCB_FIELDS}`);
    assert.equal(found.statusCode, 200, found.body);
    const p = found.json();
    assert.equal(p.id, id);
    assert.deepEqual(p.uniqueIds, ['alice@east']);
    assert.deepEqual(p.autoBlockInfo, { code: '-' });
    assert.deepEqual(p.fixedFields['47'], { label: 'Patron Type', value: 3, display: 'Staff' });
    assert.deepEqual(p.fixedFields['43'], { label: 'Expiration Date', value: '2027-01-31T00:00:00Z' });
    assert.deepEqual(p.fixedFields['56'], { label: 'Manual Block', value: '-' });
    assert.deepEqual(p.fixedFields['96'], { label: 'Money Owed', value: 0 });
    assert.equal(p.fixedFields['50'].value, 0);
    assert.ok(!JSON.stringify(p).includes('4321'));
    // A unique id belongs to one live patron.
    const before = await snapshot();
    const taken = await api.send('POST', '/v6/patrons', { names: ['Other, Ann'], uniqueIds: ['alice@east'] });
    assertRefused(taken, 409, 132, 4);
    assert.deepEqual(await snapshot(), before);
  });

  it('takes varFields on create and replaces only the tags given on PUT', async () => {
    const id = await create(api, '/v6/patrons', {
      varFields: [
        { fieldTag: 'n', content: 'Reader, Rita' },
        { fieldTag: 'b', content: '29000002' },
        { fieldTag: 'z', content: 'rita@example.org' },
        { fieldTag: 't', content: '555-0101' },
        { fieldTag: 'p', content: '555-0199' },
        { fieldTag: 'a', content: '1 High St$Springfield' },
        { fieldTag: 'x', content: 'Prefers large print' },
        { fieldTag: 'u', content: 'rita-7' },
      ],
    });
    const read = async () => (await api.get(`/v6/patrons/${id}?fields=names,barcodes,emails,phones,addresses,uniqueIds,varFields`)).json();
    const first = await read();
    assert.deepEqual(first.names, ['Reader, Rita']);
    assert.deepEqual(first.phones, [
      { number: '555-0101', type: 't' },
      { number: '555-0199', type: 'p' },
    ]);
    assert.deepEqual(first.addresses, [{ lines: ['1 High St', 'Springfield'], type: 'a' }]);
    assert.deepEqual(
      first.varFields.filter((v: any) => ['t', 'p', 'x', 'u'].includes(v.fieldTag)),
      [
        { fieldTag: 't', content: '555-0101' },
        { fieldTag: 'p', content: '555-0199' },
        { fieldTag: 'u', content: 'rita-7' },
        { fieldTag: 'x', content: 'Prefers large print' },
      ],
    );
    const put = await api.send('PUT', `/v6/patrons/${id}`, {
      varFields: [
        { fieldTag: 't', content: '555-0222' },
        { fieldTag: 'x', content: 'Moved' },
      ],
    });
    assert.equal(put.statusCode, 204, put.body);
    const second = await read();
    assert.deepEqual(second.phones, [
      { number: '555-0222', type: 't' },
      { number: '555-0199', type: 'p' },
    ]);
    assert.deepEqual(second.names, ['Reader, Rita']);
    assert.deepEqual(
      second.varFields.filter((v: any) => v.fieldTag === 'x'),
      [{ fieldTag: 'x', content: 'Moved' }],
    );
    // Refused, with nothing written: a tag Carrel does not keep, a member given twice, a fixed field it cannot write.
    const before = await snapshot();
    for (const [body, member] of [
      [{ varFields: [{ fieldTag: 'q', content: 'x' }] }, /varFields\[0\]\.fieldTag/],
      [{ names: ['A, B'], varFields: [{ fieldTag: 'n', content: 'C, D' }] }, /names/],
      [{ fixedFields: { '158': { label: 'PAT AGENCY', value: '1' } } }, /fixedFields\.158/],
      [{ fixedFields: { '47': { value: 'staff' } } }, /fixedFields\.47/],
    ] as const) {
      const res = await api.send('PUT', `/v6/patrons/${id}`, body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.match(res.json().description, member);
    }
    assert.deepEqual(await snapshot(), before);
  });

  it('writes the fixed fields it keeps, and counts loans and blocks in fixedFields and autoBlockInfo', async () => {
    const id = await create(api, '/v6/patrons', { names: ['Loaner, Lee'], barcodes: ['29000003'] });
    const put = await api.send('PUT', `/v6/patrons/${id}`, {
      fixedFields: { '47': { label: 'Patron Type', value: '2' }, '53': { value: 'mn   ' }, '43': { value: '2027-03-01T08:00:00Z' } },
    });
    assert.equal(put.statusCode, 204, put.body);
    const item = await addItem(t.testDb.db, await addBib(t.testDb.db, 'Borrowed'), 'mn', '-', 'LL-1');
    assert.equal((await api.send('POST', `/v6/patrons/${id}/checkouts`, { itemBarcode: 'LL-1' })).statusCode, 200);
    const read = async () =>
      (await api.get(`/v6/patrons/${id}?fields=patronType,homeLibraryCode,expirationDate,autoBlockInfo,fixedFields`)).json();
    const out = await read();
    assert.equal(out.patronType, 2);
    assert.equal(out.homeLibraryCode, 'mn');
    assert.equal(out.expirationDate, '2027-03-01');
    assert.equal(out.fixedFields['50'].value, 1);
    assert.equal(out.fixedFields['48'].value, 1);
    assert.match(out.fixedFields['163'].value, /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(out.autoBlockInfo, { code: '-' });
    // One overdue loan against a limit of one: the library's automatic block.
    await t.testDb.db.query("update checkouts set due_date = '2026-10-01' where item_id = $1", [item]);
    await t.testDb.db.query('update library_settings set max_overdue_items = 1');
    assert.deepEqual((await read()).autoBlockInfo, { code: 'o' });
    await t.testDb.db.query('update library_settings set max_overdue_items = 2');
    assert.deepEqual((await read()).autoBlockInfo, { code: '-' });
    assert.equal((await api.send('POST', `/v6/items/${item}/checkin`, {})).statusCode, 200);
    const back = await read();
    assert.equal(back.fixedFields['50'].value, 0);
    assert.equal(back.fixedFields['48'].value, 1);
  });

  it('validates a barcode whatever its letter case when caseSensitivity is false, as VuFind and DCB send it', async () => {
    await create(api, '/v6/patrons', { names: ['Case, Cy'], barcodes: ['LibCard77'], pin: '8642' });
    const validate = (barcode: string, extra: object = {}) => api.send('POST', '/v5/patrons/validate', { barcode, pin: '8642', ...extra });
    assert.equal((await validate('LibCard77')).statusCode, 204);
    assertRefused(await validate('libcard77'), 400, 108);
    assertRefused(await validate('libcard77', { caseSensitivity: true }), 400, 108);
    assert.equal((await validate('libcard77', { caseSensitivity: false })).statusCode, 204);
    assert.equal((await validate('LIBCARD77', { caseSensitivity: false })).statusCode, 204);
    assertRefused(await api.send('POST', '/v6/patrons/validate', { barcode: 'libcard77', pin: '0000', caseSensitivity: false }), 400, 108);
  });

  it("a deleted patron's unique ids are free again", async () => {
    const id = await create(api, '/v6/patrons', { names: ['Gone, Gil'], uniqueIds: ['gil-1'] });
    assert.equal((await api.send('DELETE', `/v6/patrons/${id}`)).statusCode, 204);
    assertRefused(await api.get('/v6/patrons/find?varFieldTag=u&varFieldContent=gil-1'), 404, 107);
    await create(api, '/v6/patrons', { names: ['New, Nel'], uniqueIds: ['gil-1'] });
  });
});
