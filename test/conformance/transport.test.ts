// Requests as published Sierra clients put them on the wire (issue 19, "transport"), sent through
// a real socket with exactly their headers: VuFind's SierraRest driver (Laminas), DCB (Micronaut),
// @nypl/sierra-wrapper (axios 1.1.1, fetch 1.2.0). Each answer is read as that client reads it.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { wire as sendOnWire, type WireAnswer } from '../helpers/wire.ts';

describe(`Sierra clients' transport on ${ENGINE}`, () => {
  let t: TestApp;
  let port: number;
  let basic: string;

  const wire = (method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<WireAnswer> =>
    sendOnWire(port, method, path, headers, body);

  async function vufindToken(path = '/iii/sierra-api/token'): Promise<string> {
    const res = await wire(
      'POST',
      path,
      { authorization: basic, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      'grant_type=client_credentials',
    );
    assert.equal(res.status, 200, res.body);
    return res.json().access_token;
  }

  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    const key = await t.services.auth.createKey('clients', ['all'], 0);
    basic = `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}`;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  it('token: urlencoded (VuFind, unversioned), multipart (DCB), JSON as text/plain (sierra-wrapper 1.2.0)', async () => {
    assert.ok(await vufindToken());
    // DCB: multipart/form-data with one part, and it reads token_type and expires_in.
    const form = new FormData();
    form.append('grant_type', 'client_credentials');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const multipart = Buffer.from(await request.arrayBuffer());
    const dcb = await wire(
      'POST',
      '/iii/sierra-api/v6/token',
      { authorization: basic, accept: 'application/json', 'content-type': request.headers.get('content-type')! },
      multipart,
    );
    assert.equal(dcb.status, 200, dcb.body);
    assert.match(dcb.json().token_type, /^bearer$/i);
    assert.ok(dcb.json().expires_in > 0 && dcb.json().access_token);
    const fetchStyle = await wire(
      'POST',
      '/iii/sierra-api/v6/token',
      { authorization: basic, 'content-type': 'text/plain;charset=UTF-8' },
      JSON.stringify({ grant_type: 'client_credentials' }),
    );
    assert.equal(fetchStyle.status, 200, fetchStyle.body);
    // Still refused: another grant, in any of the forms, and a file where a field belongs.
    const wrongGrant = new FormData();
    wrongGrant.append('grant_type', 'password');
    const wrong = new Request('http://x/', { method: 'POST', body: wrongGrant });
    const refused = await wire(
      'POST',
      '/iii/sierra-api/v6/token',
      { authorization: basic, 'content-type': wrong.headers.get('content-type')! },
      Buffer.from(await wrong.arrayBuffer()),
    );
    assert.equal(refused.status, 400, refused.body);
    assert.equal(refused.json().code, 108);
    const withFile = new FormData();
    withFile.append('grant_type', new Blob(['client_credentials']), 'grant.txt');
    const file = new Request('http://x/', { method: 'POST', body: withFile });
    const fileRefused = await wire(
      'POST',
      '/v6/token',
      { authorization: basic, 'content-type': file.headers.get('content-type')! },
      Buffer.from(await file.arrayBuffer()),
    );
    assert.equal(fileRefused.status, 400, fileRefused.body);
    assert.match(fileRefused.json().description, /file/);
  });

  it('a doubled slash after a base URL ending in one (VuFind), and a slash before the query (sierra-wrapper)', async () => {
    const token = await vufindToken('/iii/sierra-api//token');
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const doubled = await wire('GET', '/iii/sierra-api//v6/branches/pickupLocations?limit=10000&offset=0&language=en', headers);
    assert.equal(doubled.status, 200, doubled.body);
    assert.deepEqual(
      doubled.json().map((l: { code: string }) => l.code),
      ['br', 'mn'],
    );
    const bib = await addBib(t.testDb.db, 'Slashes');
    const trailing = await wire('GET', `/iii/sierra-api/v6/bibs/?id=${bib}&fields=default`, headers);
    assert.equal(trailing.status, 200, trailing.body);
    assert.equal(trailing.json().entries[0].id, bib);
  });

  it('limit above the largest page, booleans in any case, a list parameter repeated (DCB)', async () => {
    const headers = { authorization: `Bearer ${await vufindToken()}`, accept: 'application/json' };
    const [a, b] = [await addBib(t.testDb.db, 'One'), await addBib(t.testDb.db, 'Two')];
    const [ia, ib] = [await addItem(t.testDb.db, a), await addItem(t.testDb.db, b)];
    const all = await wire('GET', '/iii/sierra-api/v6/branches?limit=10000', headers);
    assert.equal(all.status, 200, all.body);
    assert.ok(all.json().entries.length >= 2);
    for (const flags of ['deleted=False&suppressed=False', 'deleted=FALSE&suppressed=false', 'deleted=false&suppressed=FaLsE']) {
      const res = await wire('GET', `/iii/sierra-api/v6/items?bibIds=${a}%2C${b}&${flags}&limit=10000`, headers);
      assert.equal(res.status, 200, `${flags}: ${res.body}`);
      assert.deepEqual(
        res
          .json()
          .entries.map((e: { id: string }) => e.id)
          .sort(),
        [ia, ib].sort(),
      );
    }
    const repeated = await wire('GET', `/iii/sierra-api/v6/items?deleted=false&bibIds=${a}&bibIds=${b}`, headers);
    assert.equal(repeated.status, 200, repeated.body);
    assert.deepEqual(
      repeated
        .json()
        .entries.map((e: { id: string }) => e.id)
        .sort(),
      [ia, ib].sort(),
    );
    // A boolean that is no boolean is still refused.
    const wrong = await wire('GET', `/iii/sierra-api/v6/items?bibIds=${a}&deleted=nope`, headers);
    assert.equal(wrong.status, 400, wrong.body);
  });

  it('DELETE with Content-Type: application/json and no body cancels the hold (VuFind)', async () => {
    const token = await vufindToken();
    const patron = await addPatron(t.testDb.db);
    const item = await addItem(t.testDb.db, await addBib(t.testDb.db, 'Held'), 'mn', '-');
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': 'VuFind', connection: 'close' };
    const placed = await wire(
      'POST',
      `/iii/sierra-api/v6/patrons/${patron}/holds/requests`,
      { ...headers, 'content-type': 'application/json' },
      JSON.stringify({ recordType: 'i', recordNumber: Number(item), pickupLocation: 'mn' }),
    );
    assert.ok(placed.status < 300, placed.body);
    const holds = await wire('GET', `/iii/sierra-api/v6/patrons/${patron}/holds?limit=10000&fields=default`, headers);
    const holdId = String(holds.json().entries[0].id).split('/').pop();
    const cancel = await wire('DELETE', `/iii/sierra-api/v6/patrons/holds/${holdId}`, { ...headers, 'content-type': 'application/json' });
    assert.equal(cancel.status, 204, cancel.body);
    assert.equal(cancel.body, '');
    const left = await wire('GET', `/iii/sierra-api/v6/patrons/${patron}/holds?limit=10000`, headers);
    assert.equal(left.json().total, 0);
    // A body that is there and is not JSON is still refused.
    const bad = await wire('DELETE', `/v6/patrons/holds/${holdId}`, { ...headers, 'content-type': 'application/json' }, '{oops');
    assert.equal(bad.status, 400, bad.body);
  });
});
