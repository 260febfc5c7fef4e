// The item fields Sierra documents beyond the defaults (issue 19): fixedFields read from the item,
// its loans and holds, varFields, copyNo, holdCount, transitInfo, volumes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FixedClock } from '../../src/shared/calendar.ts';
import { caller, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

const ALL = 'default,volumes,transitInfo,copyNo,holdCount,fixedFields,varFields';

describe(`item fields Sierra documents, on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  before(async () => {
    t = await createTestApp({}, { clock: new FixedClock('2026-11-02') });
    await setUpLibrary(t.testDb.db);
    await t.testDb.db.query("insert into item_types (code, name) values ('7', 'Audiobook') on conflict do nothing");
    api = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());

  const item = async (id: string) => {
    const res = await api.get(`/v6/items/${id}?fields=${ALL}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };

  it('fixedFields from the item and its loans, as Sierra numbers and labels them', async () => {
    const db = t.testDb.db;
    const bib = await addBib(db, 'Loaned');
    const id = await addItem(db, bib, 'mn', '-', 'L-1');
    await db.query("update items set item_type = '7', call_number = 'FIC ELI' where id = $1", [id]);
    const fresh = await item(id);
    assert.deepEqual(fresh.fixedFields['61'], { label: 'Item Type', value: '7', display: 'Audiobook' });
    assert.deepEqual(fresh.fixedFields['79'], { label: 'Location', value: 'mn', display: 'Main' });
    assert.deepEqual(fresh.fixedFields['88'], { label: 'Status', value: '-', display: fresh.status.display });
    assert.deepEqual(fresh.fixedFields['80'], { label: 'Record Type', value: 'i' });
    assert.equal(fresh.fixedFields['81'].value, id);
    assert.equal(fresh.fixedFields['76'].value, 0);
    for (const absent of ['63', '65', '68', '78']) assert.equal(fresh.fixedFields[absent], undefined, absent);
    assert.deepEqual(fresh.varFields, [
      { fieldTag: 'b', content: 'L-1' },
      { fieldTag: 'c', content: 'FIC ELI' },
    ]);
    assert.deepEqual(fresh.volumes, []);

    const patron = await addPatron(db);
    assert.equal((await api.send('POST', `/v6/patrons/${patron}/checkouts`, { itemBarcode: 'L-1' })).statusCode, 200);
    const out = await item(id);
    assert.equal(out.fixedFields['76'].value, 1);
    assert.match(out.fixedFields['63'].value, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(out.fixedFields['65'].value, out.status.duedate);
    assert.equal(out.fixedFields['78'].value, out.fixedFields['63'].value);
    assert.equal(out.fixedFields['68'], undefined);
    assert.equal((await api.send('POST', `/v6/items/${id}/checkin`, {})).statusCode, 200);
    assert.equal((await api.send('POST', `/v6/patrons/${patron}/checkouts`, { itemBarcode: 'L-1' })).statusCode, 200);
    assert.equal((await api.send('POST', `/v6/items/${id}/checkin`, {})).statusCode, 200);
    const back = await item(id);
    assert.equal(back.fixedFields['76'].value, 2);
    assert.match(back.fixedFields['68'].value, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(back.fixedFields['78'].value >= out.fixedFields['78'].value);
    assert.equal(back.fixedFields['63'], undefined);
    assert.equal(back.fixedFields['65'], undefined);
    // Labels in ascending number order, as Sierra answers.
    const numbers = Object.keys(back.fixedFields).map(Number);
    assert.deepEqual(
      numbers,
      [...numbers].sort((a, b) => a - b),
    );
  });

  it('copyNo in the order items were added to their bib; holdCount; transitInfo while in transit for a hold', async () => {
    const db = t.testDb.db;
    const bib = await addBib(db, 'Copies');
    const ids = [await addItem(db, bib, 'st'), await addItem(db, bib, 'st'), await addItem(db, bib, 'st')];
    const list = await api.get(`/v6/items?bibIds=${bib}&fields=copyNo,holdCount,transitInfo`);
    assert.deepEqual(
      list.json().entries.map((e: any) => [e.id, e.copyNo, e.holdCount]),
      ids.map((id, i) => [id, i + 1, 0]),
    );
    const [p1, p2] = [await addPatron(db), await addPatron(db)];
    for (const p of [p1, p2]) {
      const placed = await api.send('POST', `/v6/patrons/${p}/holds/requests`, {
        recordType: 'i',
        recordNumber: Number(ids[0]),
        pickupLocation: 'br',
      });
      assert.equal(placed.statusCode, 204, placed.body);
    }
    const held = await item(ids[0]!);
    assert.equal(held.holdCount, 2);
    assert.equal(held.fixedFields['58'].value, 1);
    assert.equal(held.transitInfo, undefined);
    const checkin = await api.send('POST', `/v6/items/${ids[0]}/checkin`, { location: 'mn' });
    assert.equal(checkin.json().status, 't', checkin.body);
    const moving = await item(ids[0]!);
    assert.deepEqual(moving.transitInfo, { to: { code: 'br', name: 'Riverside' }, forHold: true });
    assert.equal(moving.holdCount, 2);
  });

  it('the default fields are as before, and a name Sierra does not know is still refused', async () => {
    const bib = await addBib(t.testDb.db, 'Plain');
    const id = await addItem(t.testDb.db, bib);
    const plain = (await api.get(`/v6/items/${id}`)).json();
    assert.deepEqual(Object.keys(plain), ['id', 'updatedDate', 'createdDate', 'deleted', 'suppressed', 'bibIds', 'location', 'status']);
    const wrong = await api.get(`/v6/items/${id}?fields=default,shelfLife`);
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().code, 108);
  });
});
