// Reading history (issue 19): kept only for a patron who turned it on, newest first, deleted a row
// or all at once as VuFind does it (DELETE with a JSON Content-Type and no body), and gone when
// turned off.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefused, caller, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

describe(`reading history on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  let token: string;
  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    token = await bearer(t, ['all']);
    api = caller(t, token);
  });
  after(() => t.close());

  const borrow = async (patron: string, barcode: string) => {
    const bib = await addBib(t.testDb.db, `Read ${barcode}`);
    const item = await addItem(t.testDb.db, bib, 'mn', '-', barcode);
    assert.equal((await api.send('POST', `/v6/patrons/${patron}/checkouts`, { itemBarcode: barcode })).statusCode, 200);
    assert.equal((await api.send('POST', `/v6/items/${item}/checkin`, {})).statusCode, 200);
    return { bib, item };
  };
  const history = async (patron: string, query = '') => api.get(`/v6/patrons/${patron}/checkouts/history?limit=50&offset=0${query}`);
  const vufindDelete = (url: string) =>
    t.app.inject({ method: 'DELETE', url, headers: { authorization: token, 'content-type': 'application/json' } });

  it('keeps nothing until the patron turns it on, then each checkout, newest first', async () => {
    const patron = await addPatron(t.testDb.db);
    await borrow(patron, 'H-0');
    assert.deepEqual((await api.get(`/v6/patrons/${patron}/checkouts/history/activationStatus`)).json(), {
      readingHistoryActivation: false,
    });
    const off = await history(patron);
    assertRefused(off, 400, 146);
    const on = await api.send('POST', `/v6/patrons/${patron}/checkouts/history/activationStatus`, { readingHistoryActivation: true });
    assert.equal(on.statusCode, 204, on.body);
    const first = await borrow(patron, 'H-1');
    const second = await borrow(patron, 'H-2');
    const list = (await history(patron, '&sortField=outDate&sortOrder=desc')).json();
    assert.equal(list.total, 2);
    assert.deepEqual(
      list.entries.map((e: any) => [e.item.split('/').pop(), e.bib.split('/').pop()]),
      [
        [second.item, second.bib],
        [first.item, first.bib],
      ],
    );
    assert.match(list.entries[0].outDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const ascending = (await history(patron, '&sortOrder=asc')).json();
    assert.deepEqual(
      ascending.entries.map((e: any) => e.id),
      [...list.entries].reverse().map((e: any) => e.id),
    );
    // Another patron's history is not this one's.
    const other = await addPatron(t.testDb.db);
    await api.send('POST', `/v6/patrons/${other}/checkouts/history/activationStatus`, { readingHistoryActivation: true });
    assert.equal((await history(other)).json().total, 0);
    const entry = list.entries[1].id.split('/').pop();
    assertRefused(await vufindDelete(`/v6/patrons/${other}/checkouts/history/${entry}`), 404, 107);

    assert.equal((await vufindDelete(`/v6/patrons/${patron}/checkouts/history/${entry}`)).statusCode, 204);
    assert.deepEqual(
      (await history(patron)).json().entries.map((e: any) => e.id),
      [list.entries[0].id],
    );
    await borrow(patron, 'H-3');
    assert.equal((await vufindDelete(`/iii/sierra-api/v6/patrons/${patron}/checkouts/history`)).statusCode, 204);
    assert.equal((await history(patron)).json().total, 0);
  });

  it('turning it off deletes what it kept', async () => {
    const patron = await addPatron(t.testDb.db);
    await api.send('POST', `/v6/patrons/${patron}/checkouts/history/activationStatus`, { readingHistoryActivation: true });
    await borrow(patron, 'H-4');
    assert.equal((await history(patron)).json().total, 1);
    await api.send('POST', `/v6/patrons/${patron}/checkouts/history/activationStatus`, { readingHistoryActivation: false });
    const [row] = await t.testDb.db.query<{ n: number }>('select count(*)::int as n from reading_history where patron_id = $1', [patron]);
    assert.equal(row!.n, 0);
    assertRefused(await history(patron), 400, 146);
    assertRefused(await api.get('/v6/patrons/99999999/checkouts/history/activationStatus'), 404, 107);
  });

  it("a deleted patron's history goes with the patron", async () => {
    const patron = await addPatron(t.testDb.db);
    await api.send('POST', `/v6/patrons/${patron}/checkouts/history/activationStatus`, { readingHistoryActivation: true });
    await borrow(patron, 'H-5');
    assert.equal((await api.send('DELETE', `/v6/patrons/${patron}`)).statusCode, 204);
    const [row] = await t.testDb.db.query<{ n: number }>('select count(*)::int as n from reading_history where patron_id = $1', [patron]);
    assert.equal(row!.n, 0);
  });
});
