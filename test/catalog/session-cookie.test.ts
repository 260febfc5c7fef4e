// The catalogue's session cookie behind HTTPS: a library whose public address is https:// is served
// through a proxy that may speak plain HTTP to Carrel, and the cookie must still be Secure. A
// sign-in POST without the form's CSRF token is refused before any PIN is checked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';

describe(`the catalogue's session cookie on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ CARREL_PUBLIC_URL: 'https://catalogue.example.org' });
  });
  after(() => t.close());

  it('is HttpOnly, SameSite=Lax, for /catalog only, and Secure when the public address is https', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/catalog/signin' });
    assert.equal(res.statusCode, 200);
    const cookie = String(res.headers['set-cookie']);
    assert.match(cookie, /^carrel_session=[\w-]{43}; Path=\/catalog; HttpOnly; SameSite=Lax; Secure$/);
  });

  it('refuses a sign-in without the CSRF token (403, a plain page) and counts no attempt', async () => {
    const id = await t.services.patrons.create({ names: ['Forged, Fay'], barcodes: ['F-1'], pin: 'Fay-pin-4455' });
    const visit = await t.app.inject({ method: 'GET', url: '/catalog/signin' });
    const cookie = String(visit.headers['set-cookie']).split(';')[0]!;
    for (const csrf of ['', 'wrong']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/catalog/signin',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ csrf, barcode: 'F-1', pin: 'Fay-pin-4455' }).toString(),
      });
      assert.equal(res.statusCode, 403);
      assert.match(res.headers['content-type'] as string, /^text\/html/);
      assert.match(res.body, /<h1>This form has expired<\/h1>/);
      assert.equal(res.headers['set-cookie'], undefined, 'no session given');
    }
    const token = /name="csrf" value="([\w-]+)"/.exec(visit.body)![1]!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/catalog/signin',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf: token, barcode: 'F-1', pin: 'Fay-pin-4455' }).toString(),
    });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/catalog/account');
    const rows = await t.testDb.db.query('select 1 from catalog_sessions where patron_id = $1', [id]);
    assert.equal(rows.length, 1);
  });
});
