// Holds through the announced endpoints in every state (on hold, frozen, in transit, ready with its
// pickup-by date moved past closed days, filled, expired both ways, cancelled); every refusal;
// permissions; paging, fields and expand=record; the /v5 and /iii/sierra-api prefixes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FixedClock } from '../../src/shared/calendar.ts';
import { holdExpiry } from '../../src/holds/expiry.ts';
import { assertRefused, caller, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

const HOLD_URL = /^http:\/\/localhost(:\d+)?\/v6\/patrons\/holds\/(\d+)$/;

describe(`holds on ${ENGINE}`, () => {
  let t: TestApp;
  let clock: FixedClock;
  let writer: Caller;
  let reader: Caller;
  let desk: Caller;
  let db: TestApp['testDb']['db'];
  let base = 'http://localhost:80/v6';
  before(async () => {
    clock = new FixedClock('2026-11-02'); // a Monday
    t = await createTestApp({}, { clock });
    await t.testDb.db.query('update library_settings set hold_limit = 3');
    db = t.testDb.db;
    await setUpLibrary(db);
    // Main is closed on Mondays and on 2026-11-10.
    await t.services.library.setClosed('mn', [{ weekday: 1 }, { date: '2026-11-10' }], true);
    writer = caller(t, await bearer(t, ['Patrons_Holds_Write']));
    reader = caller(t, await bearer(t, ['Patrons_Holds_Read']));
    desk = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());

  const place = (patron: string, body: Record<string, unknown>) => writer.send('POST', `/v6/patrons/${patron}/holds/requests`, body);
  const placed = async (patron: string, body: Record<string, unknown>) => {
    const res = await place(patron, body);
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(res.body, '');
  };
  /** The patron's holds; the one of them (last placed) read through GET /patrons/holds/{id} agrees with the list. */
  const holdsOf = async (patron: string, query = '') => {
    const res = await reader.get(`/v6/patrons/${patron}/holds${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().entries as any[];
  };
  const hold = async (id: string) => {
    const res = await reader.get(`/v6/patrons/holds/${id}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const idOf = (h: { id: string }) => HOLD_URL.exec(h.id)![2]!;
  const checkin = async (item: string, location?: string) => {
    const res = await desk.send('POST', `/v6/items/${item}/checkin`, location ? { location } : {});
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };

  it('walks a bib hold through on hold, frozen, ready (pickup-by past closed days), filled, in transit, ready, expired', async () => {
    const bib = await addBib(db, 'The Left Hand of Darkness');
    const item1 = await addItem(db, bib, 'mn', '-', 'I-1');
    const [p1, p2, p3, p4] = [await addPatron(db), await addPatron(db), await addPatron(db), await addPatron(db)];

    await placed(p1, { recordType: 'b', recordNumber: Number(bib), pickupLocation: 'mn', note: 'for book club' });
    const [h1] = await holdsOf(p1);
    assert.match(h1.id, HOLD_URL);
    base = h1.id.replace(/\/patrons\/holds\/\d+$/, '');
    assert.deepEqual(h1, {
      id: h1.id,
      record: `${base}/bibs/${bib}`,
      patron: `${base}/patrons/${p1}`,
      frozen: false,
      placed: '2026-11-02',
      notNeededAfterDate: '2027-02-02',
      notWantedBeforeDate: '2026-11-02',
      pickupLocation: { code: 'mn', name: 'Main' },
      status: { code: '0', name: 'On hold.' },
      recordType: 'b',
      priority: 1,
      priorityQueueLength: 1,
      canFreeze: true,
      note: 'for book club',
    });
    assert.deepEqual(await hold(idOf(h1)), h1, 'the two announced GETs agree');

    await placed(p2, { recordType: 'b', recordNumber: bib, pickupLocation: 'br' });
    await placed(p3, { recordType: 'b', recordNumber: `b${bib}`, pickupLocation: 'mn', neededBy: '2027-01-31' });
    const [h2] = await holdsOf(p2);
    const [h3] = await holdsOf(p3);
    assert.deepEqual([h1, h2, h3].map((h) => h.id).sort(), [h1.id, h2.id, h3.id]);
    assert.deepEqual([(await hold(idOf(h1))).priority, h2.priority, h3.priority], [1, 2, 3]);
    assert.ok([h1, h2, h3].every((h) => !('pickupByDate' in h)));
    assert.equal(h3.notNeededAfterDate, '2027-01-31');
    assert.equal((await hold(idOf(h1))).priorityQueueLength, 3);

    // frozen: keeps its place
    assert.equal((await writer.send('PUT', `/v6/patrons/holds/${idOf(h2)}`, { freeze: true })).statusCode, 204);
    const frozen = await hold(idOf(h2));
    assert.equal(frozen.frozen, true);
    assert.deepEqual(frozen.status, { code: '0', name: 'On hold.' });
    assert.equal(frozen.priority, 2);
    assert.ok(!('pickupByDate' in frozen));

    // ready: today + 7 = Monday 11-09 (closed) -> 11-10 (closed date) -> 11-11
    assert.deepEqual(await checkin(item1, 'mn'), { item: `${base}/items/${item1}`, status: '!', hold: h1.id });
    const ready = await hold(idOf(h1));
    assert.deepEqual(ready.status, { code: 'b', name: 'Bib hold ready for pickup.' });
    assert.equal(ready.pickupByDate, '2026-11-11T00:00:00Z');
    assert.equal(ready.canFreeze, false);
    assert.deepEqual(ready.location, { code: 'mn', name: 'Main' });
    assert.deepEqual((await holdsOf(p1))[0], ready);
    assert.equal((await desk.get(`/v6/items/${item1}`)).json().status.code, '!');
    assertRefused(await writer.send('PUT', `/v6/patrons/holds/${idOf(h1)}`, { freeze: true }), 409, 132, 8);
    assertRefused(await writer.send('PUT', `/v6/patrons/holds/${idOf(h1)}`, { pickupLocation: 'br' }), 409, 132, 8);
    assert.equal((await hold(idOf(h1))).frozen, false);

    // Only the patron it is held for can check it out; that fills the hold.
    assertRefused(await desk.send('POST', `/v6/patrons/${p3}/checkouts`, { itemBarcode: 'I-1' }), 409, 132, 9);
    assert.equal((await desk.send('POST', `/v6/patrons/${p1}/checkouts`, { itemBarcode: 'I-1' })).statusCode, 200);
    const filled = await hold(idOf(h1));
    assert.deepEqual(filled.status, { code: 'f', name: 'Hold filled.' });
    assert.ok(!('pickupByDate' in filled) && !('priority' in filled));
    assert.deepEqual(await holdsOf(p1), [], "a patron's list shows active holds");
    assert.deepEqual(await holdsOf(p1, '?inactive=true'), [filled]);
    assert.equal((await hold(idOf(h2))).priority, 1, 'priorities close up, counting active holds only');

    // The frozen hold is skipped: the item goes to p3 (ready at Main).
    assert.equal((await checkin(item1)).hold, h3.id);
    assert.equal((await hold(idOf(h3))).pickupByDate, '2026-11-11T00:00:00Z');
    assert.equal((await hold(idOf(h2))).status.code, '0');

    // in transit: p2 (Riverside), unfrozen, gets a second copy checked in at Main
    assert.equal((await writer.send('PUT', `/v6/patrons/holds/${idOf(h2)}`, { freeze: false })).statusCode, 204);
    const item2 = await addItem(db, bib, 'mn', '-', 'I-2');
    assert.deepEqual(await checkin(item2, 'mn'), { item: `${base}/items/${item2}`, status: 't', hold: h2.id });
    const transit = await hold(idOf(h2));
    assert.deepEqual(transit.status, { code: 't', name: 'In transit.' });
    assert.ok(!('pickupByDate' in transit));
    assert.equal(transit.canFreeze, false);
    assertRefused(await writer.send('PUT', `/v6/patrons/holds/${idOf(h2)}`, { freeze: true }), 409, 132, 8);
    assert.deepEqual((await holdsOf(p2))[0], transit);
    assert.equal((await desk.get(`/v6/items/${item2}`)).json().status.code, 't');
    // arrives at Riverside: ready, 3 shelf days, Riverside has no closed days
    assert.deepEqual(await checkin(item2, 'br'), { item: `${base}/items/${item2}`, status: '!', hold: h2.id });
    assert.equal((await hold(idOf(h2))).pickupByDate, '2026-11-05T00:00:00Z');

    // p4 waits; p3 does not collect by 11-11: on 11-12 p3's hold expires and the copy passes to p4.
    clock.set('2026-11-11');
    assert.deepEqual(await t.services.holds.expire(), { unfilled: 0, uncollected: 1 }, 'p2 missed 11-05; p3 still has today');
    assert.deepEqual((await hold(idOf(h2))).status, { code: 'x', name: 'Hold expired.' });
    assert.equal((await desk.get(`/v6/items/${item2}`)).json().status.code, '-', 'no hold waits: back on the shelf');
    await placed(p4, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });
    const [h4] = await holdsOf(p4);
    clock.set('2026-11-12');
    assert.deepEqual(await t.services.holds.expire(), { unfilled: 0, uncollected: 1 });
    const expired = await hold(idOf(h3));
    assert.deepEqual(expired.status, { code: 'x', name: 'Hold expired.' });
    assert.ok(!('pickupByDate' in expired) && !('priority' in expired));
    const next = await hold(idOf(h4));
    assert.equal(next.status.code, 'b');
    assert.equal(next.pickupByDate, '2026-11-19T00:00:00Z', '11-12 + 7 is a Thursday, open');
    assert.deepEqual(await t.services.holds.expire(), { unfilled: 0, uncollected: 0 }, 'a second run finds nothing');
  });

  it('expires a waiting hold after its not-needed-after date, and answers cancelled holds', async () => {
    clock.set('2026-11-02');
    const bib = await addBib(db, 'Dune');
    await addItem(db, bib, 'mn', '-');
    const [p1, p2, p3] = [await addPatron(db), await addPatron(db), await addPatron(db)];
    await placed(p1, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn', neededBy: '2026-11-05' });
    await placed(p2, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });
    await placed(p3, { recordType: 'b', recordNumber: bib, pickupLocation: 'br' });
    const [h1] = await holdsOf(p1);
    const [h2] = await holdsOf(p2);
    const [h3] = await holdsOf(p3);
    clock.set('2026-11-05');
    assert.deepEqual(await t.services.holds.expire(), { unfilled: 0, uncollected: 0 }, 'needed until the end of its day');
    clock.set('2026-11-06');
    assert.deepEqual(await t.services.holds.expire(), { unfilled: 1, uncollected: 0 });
    assert.deepEqual((await hold(idOf(h1))).status, { code: 'x', name: 'Hold expired.' });
    assert.deepEqual([(await hold(idOf(h2))).priority, (await hold(idOf(h3))).priority], [1, 2]);

    assert.equal((await writer.send('DELETE', `/v6/patrons/holds/${idOf(h2)}`)).statusCode, 204);
    const cancelled = await hold(idOf(h2));
    assert.deepEqual(cancelled.status, { code: 'c', name: 'Hold cancelled.' });
    assert.ok(!('priority' in cancelled) && !('pickupByDate' in cancelled));
    assert.deepEqual(await holdsOf(p2), []);
    assert.equal((await hold(idOf(h3))).priority, 1);
    assertRefused(await writer.send('DELETE', `/v6/patrons/holds/${idOf(h2)}`), 404, 107);
    assertRefused(await writer.send('DELETE', '/v6/patrons/holds/999999999'), 404, 107);
    assertRefused(await reader.get('/v6/patrons/holds/999999999'), 404, 107);
    assertRefused(await reader.get('/v6/patrons/999999999/holds'), 404, 107);
    const none = await reader.get(`/v6/patrons/${await addPatron(db)}/holds`);
    assert.deepEqual(none.json(), { total: 0, start: 0, entries: [] }, 'a patron without holds has an empty page, not a 404');

    // DELETE /patrons/{id}/holds cancels all of them
    const other = await addBib(db, 'Emma');
    await addItem(db, other, 'br');
    await placed(p3, { recordType: 'b', recordNumber: other, pickupLocation: 'br' });
    assert.equal((await holdsOf(p3)).length, 2);
    assert.equal((await writer.send('DELETE', `/v6/patrons/${p3}/holds`)).statusCode, 204);
    assert.deepEqual(await holdsOf(p3), []);
    assert.deepEqual(
      (await holdsOf(p3, '?inactive=true')).map((h) => h.status.code),
      ['c', 'c'],
    );
  });

  it('cancelling a ready hold passes its item to the next hold', async () => {
    clock.set('2026-11-02');
    const bib = await addBib(db, 'Kindred');
    const item = await addItem(db, bib, 'br');
    const [p1, p2] = [await addPatron(db), await addPatron(db)];
    await placed(p1, { recordType: 'b', recordNumber: bib, pickupLocation: 'br' });
    await placed(p2, { recordType: 'b', recordNumber: bib, pickupLocation: 'br' });
    const [h1] = await holdsOf(p1);
    const [h2] = await holdsOf(p2);
    assert.equal((await checkin(item)).hold, h1.id);
    assert.equal((await writer.send('DELETE', `/v6/patrons/holds/${idOf(h1)}`)).statusCode, 204);
    const now = await hold(idOf(h2));
    assert.deepEqual([now.status.code, now.pickupByDate, now.priority], ['b', '2026-11-05T00:00:00Z', 1]);
  });

  it('holds an item: its own queue, status i when ready, and moves a waiting hold to another pickup location', async () => {
    clock.set('2026-11-02');
    const bib = await addBib(db, 'Beloved');
    const item = await addItem(db, bib, 'br');
    const p1 = await addPatron(db);
    await placed(p1, { recordType: 'i', recordNumber: item, pickupLocation: 'mn' });
    const [h] = await holdsOf(p1);
    assert.equal(h.record, `${base}/items/${item}`);
    assert.deepEqual(h.location, { code: 'br', name: 'Riverside' });
    assert.equal(h.recordType, 'i');
    assert.equal((await writer.send('PUT', `/v6/patrons/holds/${idOf(h)}`, { pickupLocation: 'br' })).statusCode, 204);
    assert.deepEqual((await hold(idOf(h))).pickupLocation, { code: 'br', name: 'Riverside' });
    assertRefused(await writer.send('PUT', `/v6/patrons/holds/${idOf(h)}`, { pickupLocation: 'st' }), 400, 132, 5);
    await checkin(item, 'br');
    const ready = await hold(idOf(h));
    assert.deepEqual(ready.status, { code: 'i', name: 'Item hold ready for pickup.' });
    assert.equal(ready.pickupByDate, '2026-11-05T00:00:00Z');
    const expanded = (await reader.get(`/v6/patrons/holds/${idOf(h)}?expand=record&fields=record,status`)).json();
    assert.deepEqual(Object.keys(expanded).sort(), ['id', 'record', 'status']);
    assert.equal(expanded.record.id, item);
    assert.deepEqual(expanded.record.status.code, '!');
    const bibExpanded = await reader.get(`/v6/patrons/${p1}/holds?expand=record`);
    assert.equal(bibExpanded.statusCode, 200);
    assert.equal(bibExpanded.json().entries[0].record.id, item, 'a page of holds nests its records too');
    assertRefused(await reader.get(`/v6/patrons/${p1}/holds?expand=patron`), 400, 108);
    assertRefused(await reader.get(`/v6/patrons/${p1}/holds?fields=nonsense`), 400, 108);
  });

  it('refuses each kind of hold it cannot place, with a specificCode, writing nothing', async () => {
    clock.set('2026-11-02');
    const bib = await addBib(db, 'Refusals');
    const item = await addItem(db, bib, 'mn');
    const missingOnly = await addBib(db, 'Only a missing copy');
    const missing = await addItem(db, missingOnly, 'mn', 'm');
    const suppressed = await addBib(db, 'Suppressed', true);
    await addItem(db, suppressed, 'mn');
    const noItems = await addBib(db, 'No copies');
    const ok = await addPatron(db);
    const expired = await addPatron(db, { expires: '2026-11-01' });
    const blocked = await addPatron(db, { block: 'm' });
    const count = async () => (await db.query<{ n: number }>('select count(*)::int as n from holds'))[0]!.n;
    const before = await count();
    const b = (recordNumber: string, pickupLocation = 'mn') => ({ recordType: 'b', recordNumber, pickupLocation });

    assertRefused(await place(expired, b(bib)), 409, 132, 1);
    assertRefused(await place(blocked, b(bib)), 409, 132, 2);
    assertRefused(await place(ok, b(missingOnly)), 409, 132, 4);
    assertRefused(await place(ok, { recordType: 'i', recordNumber: missing, pickupLocation: 'mn' }), 409, 132, 4);
    assertRefused(await place(ok, b(suppressed)), 409, 132, 4);
    assertRefused(await place(ok, b(noItems)), 409, 132, 4);
    assertRefused(await place(ok, b(bib, 'st')), 400, 132, 5);
    assertRefused(await place(ok, b(bib, 'zz')), 400, 132, 5);
    assertRefused(await place(ok, b('9999999')), 400, 132, 6);
    assertRefused(await place(ok, { recordType: 'i', recordNumber: '9999999', pickupLocation: 'mn' }), 400, 132, 6);
    assertRefused(await place(ok, { recordType: 'x', recordNumber: bib, pickupLocation: 'mn' }), 400, 126);
    assertRefused(await place(ok, { ...b(bib), neededBy: '2026-02-30' }), 400, 126);
    assertRefused(await place(ok, { ...b(bib), neededBy: '2026-11-01' }), 400, 126);
    assertRefused(await place(ok, { ...b(bib), colour: 'red' }), 400, 126);
    assertRefused(await place('9999999', b(bib)), 404, 107);
    assert.equal(await count(), before, 'nothing written');

    await placed(ok, b(bib));
    assertRefused(await place(ok, b(bib)), 409, 132, 3);
    await placed(ok, { recordType: 'i', recordNumber: item, pickupLocation: 'mn' });
    assertRefused(await place(ok, { recordType: 'i', recordNumber: item, pickupLocation: 'br' }), 409, 132, 3);
    const third = await addBib(db, 'Third');
    await addItem(db, third, 'mn');
    const fourth = await addBib(db, 'Fourth');
    await addItem(db, fourth, 'mn');
    await placed(ok, b(third));
    assertRefused(await place(ok, b(fourth)), 409, 132, 7);
    assert.equal(await count(), before + 3);

    // checkout refusals: an item already out (10)
    const out = await addItem(db, fourth, 'mn', '-', 'OUT-1');
    assert.equal((await desk.send('POST', `/v6/patrons/${ok}/checkouts`, { itemId: out })).statusCode, 200);
    assertRefused(await desk.send('POST', `/v6/patrons/${ok}/checkouts`, { itemBarcode: 'OUT-1' }), 409, 132, 10);
    assertRefused(await desk.send('POST', `/v6/patrons/${expired}/checkouts`, { itemBarcode: 'OUT-1' }), 409, 132, 1);
    assertRefused(await desk.send('POST', `/v6/patrons/${ok}/checkouts`, { itemBarcode: 'NO-SUCH' }), 400, 132, 6);
  });

  it('shows holds to a key with Patrons_Holds_Read but no patron data; refuses keys without it', async () => {
    const bib = await addBib(db, 'Permissions');
    await addItem(db, bib, 'mn');
    const p = await addPatron(db);
    await placed(p, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });
    assertRefused(await reader.get(`/v6/patrons/${p}`), 403, 116);
    assertRefused(await reader.get(`/v6/patrons?id=${p}`), 403, 116);
    const mine = await reader.get(`/v6/patrons/${p}/holds?expand=record`);
    assert.equal(mine.statusCode, 200);
    assert.ok(!mine.body.includes('Reader'), 'no names in a hold');
    const catalogue = caller(t, await bearer(t, ['Bibs_Read']));
    assertRefused(await catalogue.get(`/v6/patrons/${p}/holds`), 403, 116);
    assertRefused(await catalogue.get('/v6/patrons/holds'), 403, 116);
    assertRefused(await catalogue.get(`/v6/patrons/holds/${idOf((await holdsOf(p))[0])}`), 403, 116);
    assertRefused(
      await reader.send('POST', `/v6/patrons/${p}/holds/requests`, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' }),
      403,
      116,
    );
    assertRefused(await reader.send('DELETE', `/v6/patrons/${p}/holds`), 403, 116);
    assertRefused(await writer.send('POST', '/v6/items/1000001/checkin', {}), 403, 116);
    assertRefused(await writer.get(`/v6/patrons/${p}/checkouts`), 403, 116);
    const anon = await t.app.inject({ method: 'GET', url: `/v6/patrons/${p}/holds` });
    assert.equal(anon.statusCode, 401);
  });

  it('lists all holds with paging, under /v5 and /iii/sierra-api too', async () => {
    const all = (await reader.get('/v6/patrons/holds?limit=2000')).json();
    assert.ok(all.entries.length >= 5);
    const ids = all.entries.map((h: any) => Number(idOf(h)));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      'ascending ids',
    );
    assert.ok(all.entries.every((h: any) => ['0', 't', 'b', 'i'].includes(h.status.code)));
    const page = (await reader.get('/v6/patrons/holds?limit=2&offset=1')).json();
    assert.deepEqual(
      page.entries.map((h: any) => h.id),
      all.entries.slice(1, 3).map((h: any) => h.id),
    );
    assert.equal(page.total, 2);
    assert.equal(page.start, 1);
    const first = idOf(all.entries[0]);
    const v5 = (await reader.get(`/iii/sierra-api/v5/patrons/holds/${first}`)).json();
    assert.match(v5.id, /^http:\/\/localhost(:\d+)?\/iii\/sierra-api\/v5\/patrons\/holds\/\d+$/);
    assert.match(v5.record, /\/iii\/sierra-api\/v5\/(bibs|items)\/\d+$/);
    assert.equal((await reader.get(`/v5/patrons/holds/${first}/`)).statusCode, 200);
    const withInactive = (await reader.get('/v6/patrons/holds?inactive=true&limit=2000')).json();
    assert.ok(withInactive.entries.length > all.entries.length);
  });

  it("expires holds on the server's schedule", async () => {
    clock.set('2026-11-02');
    const bib = await addBib(db, 'Scheduled');
    const item = await addItem(db, bib, 'br');
    const p = await addPatron(db);
    await placed(p, { recordType: 'b', recordNumber: bib, pickupLocation: 'br' });
    const [h] = await holdsOf(p);
    await checkin(item);
    assert.equal((await hold(idOf(h))).pickupByDate, '2026-11-05T00:00:00Z');
    const expiry = holdExpiry(t.services.holds, t.state, t.app.log, 60_000);
    clock.set('2026-11-05');
    await expiry.tick();
    assert.equal((await hold(idOf(h))).status.code, 'b', 'the last day to collect is still open');
    clock.set('2026-11-06');
    await Promise.all([expiry.tick(), expiry.tick()]);
    assert.deepEqual((await hold(idOf(h))).status, { code: 'x', name: 'Hold expired.' });
    assert.equal((await desk.get(`/v6/items/${item}`)).json().status.code, '-');
    await expiry.stop();
  });

  it("cancels a deleted patron's holds, passing a ready copy to the next patron", async () => {
    clock.set('2026-11-02');
    const bib = await addBib(db, 'Deleted reader');
    const item = await addItem(db, bib, 'br');
    const [gone, next] = [await addPatron(db), await addPatron(db)];
    await placed(gone, { recordType: 'b', recordNumber: bib, pickupLocation: 'br' });
    await placed(next, { recordType: 'b', recordNumber: bib, pickupLocation: 'br' });
    const [h1] = await holdsOf(gone);
    const [h2] = await holdsOf(next);
    await checkin(item);
    const admin = caller(t, await bearer(t, ['Patrons_Write']));
    assert.equal((await admin.send('DELETE', `/v6/patrons/${gone}`)).statusCode, 204);
    assert.deepEqual((await hold(idOf(h1))).status, { code: 'c', name: 'Hold cancelled.' });
    const now = await hold(idOf(h2));
    assert.deepEqual([now.status.code, now.priority, now.pickupByDate], ['b', 1, '2026-11-05T00:00:00Z']);
  });

  it('deletes a patron and cancels its holds in one transaction: a failed cancellation deletes nothing', async () => {
    const bib = await addBib(db, 'Stubborn hold');
    await addItem(db, bib, 'br');
    const stays = await addPatron(db);
    await placed(stays, { recordType: 'b', recordNumber: bib, pickupLocation: 'br' });
    const [h] = await holdsOf(stays);
    await db.query(`alter table holds add constraint refuse_cancel check (state <> 'c' or patron_id <> ${Number(stays)})`);
    try {
      const admin = caller(t, await bearer(t, ['Patrons_Write', 'Patrons_Read']));
      assert.equal((await admin.send('DELETE', `/v6/patrons/${stays}`)).statusCode, 500);
      assert.equal((await admin.get(`/v6/patrons/${stays}`)).json().deleted, false, 'the patron was not deleted');
      assert.equal((await hold(idOf(h))).status.code, '0');
    } finally {
      await db.query('alter table holds drop constraint refuse_cancel');
    }
  });
});
