// Item writes (issue 19): POST, PUT and DELETE /items in Sierra's item-patch shape, as a
// resource-sharing hub (DCB) sends them; a barcode in use refused; nothing half-written.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefused, caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

describe(`item writes on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    await t.testDb.db.query("insert into item_types (code, name) values ('7', 'Interlibrary loan') on conflict do nothing");
    api = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());

  const snapshot = () =>
    t.testDb.db.query(
      'select i.*, array(select bib_id from item_bibs where item_id = i.id order by bib_id) as bibs from items i order by id',
    );

  it('creates an item from the patch DCB sends, and refuses a barcode in use, writing nothing', async () => {
    const bib = await addBib(t.testDb.db, 'Borrowed from afar');
    const id = await create(api, '/v6/items', {
      bibIds: [Number(bib)],
      location: 'mn',
      barcodes: ['DCB-1'],
      owningLocations: ['mn'],
      fixedFields: { '61': { label: 'DCB-7', value: 7 }, '88': { label: 'REQUEST', value: '-' } },
    });
    const item = (await api.get(`/v6/items/${id}?fields=default,itemType,barcode,varFields`)).json();
    assert.deepEqual(item.bibIds, [bib]);
    assert.equal(item.barcode, 'DCB-1');
    assert.equal(item.itemType, '7');
    assert.equal(item.location.code, 'mn');
    assert.equal(item.status.code, '-');
    const before = await snapshot();
    for (const [body, status, pattern] of [
      [{ bibIds: [bib], barcode: 'DCB-1' }, 409, /barcode DCB-1/],
      [{ bibIds: [bib], status: '&' }, 400, /status/],
      [{ bibIds: ['99999999'] }, 400, /bibIds/],
      [{ bibIds: [bib], location: 'nowhere' }, 400, /location/],
      [{ bibIds: [bib], fixedFields: { '58': { value: 2 } } }, 400, /fixedFields\.58/],
      [{ bibIds: [bib], barcode: 'A', barcodes: ['B'] }, 400, /barcode/],
      [{ location: 'mn' }, 400, /bibIds/],
    ] as const) {
      const res = await api.send('POST', '/v6/items', body);
      assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`);
      assert.match(res.json().description, pattern);
    }
    assert.deepEqual(await snapshot(), before);
  });

  it("changes the members given, as DCB's status updates do", async () => {
    const [one, two] = [await addBib(t.testDb.db, 'One'), await addBib(t.testDb.db, 'Two')];
    const id = await create(api, '/v6/items', {
      bibIds: [one],
      location: 'mn',
      varFields: [
        { fieldTag: 'b', content: 'DCB-2' },
        { fieldTag: 'm', content: 'Return to East' },
      ],
    });
    assert.deepEqual((await api.get(`/v6/items/${id}?fields=varFields`)).json().varFields, [
      { fieldTag: 'b', content: 'DCB-2' },
      { fieldTag: 'm', content: 'Return to East' },
    ]);
    const put = await api.send('PUT', `/v6/items/${id}`, { status: 't', messages: [], varFields: [{ fieldTag: 'm', content: '' }] });
    assert.equal(put.statusCode, 204, put.body);
    const after = (await api.get(`/v6/items/${id}?fields=status,varFields,location,bibIds`)).json();
    assert.equal(after.status.code, 't');
    assert.deepEqual(after.varFields, [{ fieldTag: 'b', content: 'DCB-2' }]);
    assert.equal(after.location.code, 'mn');
    assert.equal((await api.send('PUT', `/v6/items/${id}`, { owningLocations: ['mn'], status: '-' })).statusCode, 204);
    assert.equal((await api.send('PUT', `/v6/items/${id}`, { bibIds: [two, one], callNumbers: ['ILL 2026'] })).statusCode, 204);
    const moved = (await api.get(`/v6/items/${id}?fields=bibIds,callNumber`)).json();
    assert.deepEqual(moved.bibIds, [one, two].sort());
    assert.equal(moved.callNumber, 'ILL 2026');
    assertRefused(await api.send('PUT', '/v6/items/99999999', { status: '-' }), 404, 107);
  });

  it('deletes an item that is not on loan or held, leaving a tombstone and its barcode free', async () => {
    const bib = await addBib(t.testDb.db, 'Gone');
    const id = await create(api, '/v6/items', { bibIds: [bib], location: 'mn', barcode: 'DEL-1' });
    const patron = await addPatron(t.testDb.db);
    assert.equal((await api.send('POST', `/v6/patrons/${patron}/checkouts`, { itemBarcode: 'DEL-1' })).statusCode, 200);
    assertRefused(await api.send('DELETE', `/v6/items/${id}`), 409, 132);
    assert.equal((await api.send('POST', `/v6/items/${id}/checkin`, {})).statusCode, 200);
    assert.equal((await api.send('DELETE', `/v6/items/${id}`)).statusCode, 204);
    const tombstone = (await api.get(`/v6/items/${id}`)).json();
    assert.equal(tombstone.deleted, true);
    assertRefused(await api.send('DELETE', `/v6/items/${id}`), 404, 107);
    await create(api, '/v6/items', { bibIds: [bib], location: 'mn', barcode: 'DEL-1' });
  });
});
