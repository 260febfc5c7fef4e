// VuFind's SierraRest ILS driver (vufind-org/vufind, module/VuFind/src/VuFind/ILS/Driver/SierraRest.php),
// replayed call by call as it puts them on the wire: its headers (Laminas: Accept-Language,
// User-Agent VuFind, Connection: close), its encoding (%2C in lists), its mixed versions (v5
// validate, v6 auth), DELETE with a JSON Content-Type and no body, an empty urlencoded POST to
// renew. Each answer is read the way the driver reads it.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { FixedClock } from '../../src/shared/calendar.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { wire, type WireAnswer } from '../helpers/wire.ts';

const HOST = '/iii/sierra-api';

describe(`VuFind's SierraRest driver against Carrel on ${ENGINE}`, () => {
  let t: TestApp;
  let port: number;
  let token = '';
  let patronId = '';
  const clock = new FixedClock('2026-11-02');

  /** The driver's makeRequest: its headers; a string body is sent as JSON, [] as an empty form. */
  function request(method: string, path: string, params?: Record<string, string | number> | string | []): Promise<WireAnswer> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'accept-language': 'en',
      'user-agent': 'VuFind',
      connection: 'close',
      'accept-encoding': 'gzip, deflate',
    };
    if (method === 'GET' && params && typeof params === 'object' && !Array.isArray(params)) {
      // http_build_query: commas as %2C.
      const query = Object.entries(params)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
        .join('&');
      return wire(port, method, `${HOST}/${path}?${query}`, headers);
    }
    if (typeof params === 'string')
      return wire(port, method, `${HOST}/${path}`, { ...headers, 'content-type': 'application/json' }, params || undefined);
    if (Array.isArray(params))
      return wire(port, method, `${HOST}/${path}`, { ...headers, 'content-type': 'application/x-www-form-urlencoded' });
    return wire(port, method, `${HOST}/${path}`, headers);
  }
  /** The driver's check of an answer: a JSON body with a non-empty code is an error. */
  const ok = (res: WireAnswer) => {
    assert.ok(res.status < 300, `${res.status} ${res.body}`);
    return res.body ? res.json() : null;
  };

  before(async () => {
    t = await createTestApp({}, { clock });
    await setUpLibrary(t.testDb.db);
    await t.testDb.db.query('update circulation_rules set fine_per_day = 0.50, grace_days = 0, max_fine = 10');
    const key = await t.services.auth.createKey('vufind', ['all'], 0);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    const basic = `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}`;
    const res = await wire(
      port,
      'POST',
      `${HOST}/token`,
      { authorization: basic, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      'grant_type=client_credentials',
    );
    token = ok(res).access_token;
    const created = await t.app.inject({
      method: 'POST',
      url: '/v6/patrons',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        names: ['Testeri, Testaaja'],
        barcodes: ['VF-0001'],
        pin: '1234',
        emails: ['pref@example.fi'],
        phones: [{ number: '555-0100', type: 'p' }],
        addresses: [{ lines: ['Katu 1', '00100 Helsinki'], type: 'a' }],
        birthDate: '1990-01-01',
        expirationDate: '2027-12-31',
      },
    });
    patronId = String(created.json().link).split('/').pop()!;
  });
  after(() => t.close());

  it('logs a patron in: v6 auth, then the patron; v5 validate answers 204; find by barcode', async () => {
    const auth = await request(
      'POST',
      'v6/patrons/auth',
      JSON.stringify({ authMethod: 'native', patronId: 'VF-0001', patronSecret: '1234' }),
    );
    // The driver decodes the body and uses it as the next path segment.
    const id = ok(auth);
    assert.equal(String(id), patronId);
    const patron = ok(await request('GET', `v6/patrons/${id}`, { fields: 'names,emails' }));
    const [lastname, firstname] = patron.names[0].split(', ');
    assert.deepEqual([lastname, firstname, patron.emails[0]], ['Testeri', 'Testaaja', 'pref@example.fi']);
    const validate = await request(
      'POST',
      'v5/patrons/validate',
      JSON.stringify({ barcode: 'vf-0001', pin: '1234', caseSensitivity: false }),
    );
    assert.equal(validate.status, 204);
    const wrong = await request('POST', 'v5/patrons/validate', JSON.stringify({ barcode: 'VF-0001', pin: '9999', caseSensitivity: false }));
    assert.notEqual(wrong.status, 204);
    const found = ok(await request('GET', 'v6/patrons/find', { varFieldTag: 'b', varFieldContent: 'VF-0001', fields: 'names,emails' }));
    assert.equal(found.id, patronId);
    assert.equal(ok(await request('GET', `v6/patrons/${patronId}`)).blockInfo.code, '-');
  });

  it('reads the profile as getMyProfile does', async () => {
    const p = ok(await request('GET', `v6/patrons/${patronId}`, { fields: 'default,names,emails,phones,addresses' }));
    assert.equal(p.addresses[0].lines[0], 'Katu 1');
    const [zip, city] = p.addresses[0].lines[1].split(' ');
    assert.deepEqual([zip, city], ['00100', 'Helsinki']);
    assert.equal(p.phones[0].number, '555-0100');
    assert.equal(p.expirationDate, '2027-12-31');
  });

  it('places, lists, changes and cancels holds as the driver does', async () => {
    const pickup = ok(await request('GET', 'v6/branches/pickupLocations', { limit: 10000, offset: 0, language: 'en' }));
    assert.ok(Array.isArray(pickup));
    const location = pickup.map((l: { code: string }) => l.code)[0];
    const bib = await addBib(t.testDb.db, 'Held by VuFind');
    await addItem(t.testDb.db, bib, 'st', '-');
    const placed = await request(
      'POST',
      `v6/patrons/${patronId}/holds/requests`,
      JSON.stringify({ recordType: 'b', recordNumber: Number(bib), pickupLocation: location, neededBy: '2027-01-31', statgroup: 5 }),
    );
    assert.ok(!placed.body || !JSON.parse(placed.body).code, placed.body);
    const holds = ok(
      await request('GET', `v6/patrons/${patronId}/holds`, {
        limit: 10000,
        fields: 'default,location,priorityQueueLength,pickupByDate,notNeededAfterDate,canFreeze',
      }),
    );
    const hold = holds.entries[0];
    assert.equal(hold.recordType, 'b');
    assert.equal(hold.pickupLocation.code, location);
    assert.equal(hold.notNeededAfterDate, '2027-01-31');
    const holdId = String(hold.id).split('/').pop()!;
    // getItemStatusesForBib shows the bib's hold count.
    assert.equal(ok(await request('GET', 'v6/bibs', { id: bib, fields: 'bibLevel,holdCount', limit: 1 })).entries[0].holdCount, 1);
    const one = ok(await request('GET', `v6/patrons/holds/${holdId}`, { fields: 'default,canFreeze' }));
    assert.equal(one.frozen, false);
    assert.equal(typeof one.canFreeze, 'boolean');
    assert.equal((await request('PUT', `v6/patrons/holds/${holdId}`, JSON.stringify({ freeze: true }))).status, 204);
    assert.equal(ok(await request('GET', `v6/patrons/holds/${holdId}`, { fields: 'default' })).frozen, true);
    const cancel = await request('DELETE', `v6/patrons/holds/${holdId}`, '');
    assert.equal(cancel.status, 204);
    assert.equal(ok(await request('GET', `v6/patrons/${patronId}/holds`, { limit: 10000 })).entries.length, 0);
    assert.equal(ok(await request('GET', `v6/bibs/${bib}`, { fields: 'holdCount' })).holdCount, 0);
  });

  it('lists items of a bib fifty at a time while total is 50, with the fixed fields it reads', async () => {
    const bib = await addBib(t.testDb.db, 'Many copies');
    for (let i = 0; i < 60; i++) await addItem(t.testDb.db, bib, 'mn', '-', `VF-I-${i}`);
    const seen: any[] = [];
    for (let offset = 0; ; offset += 50) {
      const page = ok(
        await request('GET', 'v6/items', {
          bibIds: bib,
          deleted: 'false',
          suppressed: 'false',
          fields: 'default,fixedFields,varFields',
          limit: 50,
          offset,
        }),
      );
      seen.push(...page.entries);
      if (page.total !== 50) break;
    }
    assert.equal(seen.length, 60);
    const item = seen[0];
    for (const n of ['60', '61', '108']) assert.equal(typeof (item.fixedFields[n]?.value ?? ''), 'string', n);
    assert.equal(item.location.code, 'mn');
    assert.equal(item.status.code, '-');
    const byId = ok(
      await request('GET', 'v6/items', { id: `${seen[0].id},${seen[1].id}`, fields: 'default,fixedFields,varFields', limit: 2 }),
    );
    assert.deepEqual(
      byId.entries.map((e: any) => e.bibIds[0]),
      [bib, bib],
    );
    const bibs = ok(await request('GET', 'v6/bibs', { id: bib, fields: 'default,bibLevel,varFields,orders', limit: 1 }));
    assert.equal(bibs.entries[0].title, 'Many copies');
    assert.deepEqual(bibs.entries[0].orders, []);
    const branches = ok(await request('GET', 'v6/branches', { limit: 10000 }));
    assert.ok(branches.entries.some((b: any) => b.locations.some((l: any) => l.code === 'mn')));
    // A bib without items: an empty page, which the driver reads as no items.
    const empty = await addBib(t.testDb.db, 'No copies');
    const none = ok(
      await request('GET', 'v6/items', {
        bibIds: empty,
        deleted: 'false',
        suppressed: 'false',
        fields: 'default,fixedFields,varFields',
        limit: 50,
        offset: 0,
      }),
    );
    assert.deepEqual(none.entries, []);
  });

  it('lists loans, renews with an empty form, reads fines, keeps and purges reading history', async () => {
    const bib = await addBib(t.testDb.db, 'Loaned by VuFind');
    await addItem(t.testDb.db, bib, 'mn', '-', 'VF-L-1');
    const out = await t.app.inject({
      method: 'POST',
      url: `/v6/patrons/${patronId}/checkouts`,
      headers: { authorization: `Bearer ${token}` },
      payload: { itemBarcode: 'VF-L-1' },
    });
    assert.equal(out.statusCode, 200, out.body);
    const loans = ok(
      await request('GET', `v6/patrons/${patronId}/checkouts`, {
        limit: 50,
        offset: 0,
        fields: 'default,numberOfRenewals,callNumber,barcode',
      }),
    );
    assert.equal(loans.total, 1);
    const loan = loans.entries[0];
    assert.equal(loan.barcode, 'VF-L-1');
    assert.equal(loan.numberOfRenewals, 0);
    clock.set('2026-11-25');
    const renewed = ok(await request('POST', `v6/patrons/checkouts/${String(loan.id).split('/').pop()}/renewal?statgroup=5`, []));
    assert.match(renewed.dueDate, /^\d{4}-\d\d-\d\d$/);
    assert.ok(renewed.dueDate > loan.dueDate);
    // The loan was two days overdue when renewed: a fine, as getMyFines reads it.
    const fines = ok(await request('GET', `v6/patrons/${patronId}/fines`, { limit: 10000 }));
    const fine = fines.entries[0];
    const amount = fine.itemCharge + fine.processingFee + fine.billingFee;
    assert.equal(Math.round((amount - fine.paidAmount) * 100), 100);
    assert.equal(fine.chargeType.display, 'Overdue Renewal');
    const historyOff = await request('GET', `v6/patrons/${patronId}/checkouts/history`, {
      limit: 50,
      offset: 0,
      sortField: 'outDate',
      sortOrder: 'desc',
    });
    assert.equal(historyOff.json().code, 146);
    await t.app.inject({
      method: 'POST',
      url: `/v6/patrons/${patronId}/checkouts/history/activationStatus`,
      headers: { authorization: `Bearer ${token}` },
      payload: { readingHistoryActivation: true },
    });
    const history = ok(
      await request('GET', `v6/patrons/${patronId}/checkouts/history`, { limit: 50, offset: 0, sortField: 'outDate', sortOrder: 'desc' }),
    );
    assert.equal(history.total ?? 0, 0);
    const purge = await request('DELETE', `v6/patrons/${patronId}/checkouts/history`, '');
    assert.ok(!purge.body || !JSON.parse(purge.body).code, purge.body);
  });

  it('finds the patron for password recovery and changes the PIN', async () => {
    const recovery = ok(
      await request(
        'POST',
        'v6/patrons/query?offset=0&limit=1',
        JSON.stringify({
          queries: [
            { target: { record: { type: 'patron' }, field: { tag: 'b' } }, expr: { op: 'equals', operands: ['VF-0001'] } },
            'and',
            { target: { record: { type: 'patron' }, field: { tag: 'z' } }, expr: { op: 'equals', operands: ['pref@example.fi'] } },
          ],
        }),
      ),
    );
    assert.equal(recovery.total, 1);
    assert.equal(String(recovery.entries[0].link).split('/').pop(), patronId);
    const changed = await request('PUT', `v6/patrons/${patronId}`, JSON.stringify({ pin: '4321' }));
    assert.ok([200, 204].includes(changed.status), changed.body);
    assert.equal(
      (await request('POST', 'v5/patrons/validate', JSON.stringify({ barcode: 'VF-0001', pin: '4321', caseSensitivity: false }))).status,
      204,
    );
  });
});
