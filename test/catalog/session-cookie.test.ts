// The catalogue's session cookie behind HTTPS: a library whose public address is https:// is served
// through a proxy that may speak plain HTTP to Carrel, and the cookie must still be Secure. A
// visitor's sign-in page writes nothing to the database (its form's token is a cookie the form
// repeats); a sign-in POST without that token, or with another, is refused before any PIN is checked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { sessionCookie, signInWithForm } from './patron-forms.ts';

describe(`the catalogue's session cookie on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ CARREL_PUBLIC_URL: 'https://catalogue.example.org' });
  });
  after(() => t.close());

  const sessionRows = async () => (await t.testDb.db.query<{ n: number }>('select count(*)::int as n from catalog_sessions'))[0]!.n;

  it('gives a visitor a sign-in token cookie (HttpOnly, SameSite=Strict, Secure) and stores nothing', async () => {
    const before = await sessionRows();
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/catalog/signin' });
      assert.equal(res.statusCode, 200);
      const cookie = String(res.headers['set-cookie']);
      assert.match(cookie, /^carrel_signin=([\w-]{43}); Path=\/catalog\/signin; HttpOnly; SameSite=Strict; Secure$/);
      assert.ok(res.body.includes(`name="csrf" value="${/=([\w-]{43});/.exec(cookie)![1]}"`), 'the form repeats the cookie’s token');
    }
    assert.equal(await sessionRows(), before, 'visitors cost no row');
  });

  it('gives a signed-in session cookie HttpOnly, SameSite=Lax, for /catalog only, and Secure', async () => {
    await t.services.patrons.create({ names: ['Secure, Sam'], barcodes: ['S-2'], pin: 'Sam-pin-9911' });
    const res = await signInWithForm(t.app, 'S-2', 'Sam-pin-9911');
    assert.equal(res.statusCode, 303);
    assert.match(String(res.headers['set-cookie']), /^carrel_session=[\w-]{43}; Path=\/catalog; HttpOnly; SameSite=Lax; Secure$/);
  });

  it('lets no browser keep a page of a signed-in patron or the sign-in form; keeps the others checked', async () => {
    await t.services.patrons.create({ names: ['Cached, Cora'], barcodes: ['C-7'], pin: 'Cora-pin-7171' });
    const visit = await t.app.inject({ method: 'GET', url: '/catalog/signin' });
    assert.equal(visit.headers['cache-control'], 'private, no-store');
    const session = sessionCookie(await signInWithForm(t.app, 'C-7', 'Cora-pin-7171'));
    for (const url of ['/catalog/account', '/catalog', '/catalog?text=anything']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: session } });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['cache-control'], 'private, no-store', url);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/catalog?text=anything' })).headers['cache-control'], 'no-cache');
  });

  it('refuses a sign-in without the CSRF token (403, a plain page) and counts no attempt', async () => {
    const id = await t.services.patrons.create({ names: ['Forged, Fay'], barcodes: ['F-1'], pin: 'Fay-pin-4455' });
    const visit = await t.app.inject({ method: 'GET', url: '/catalog/signin' });
    const cookie = String(visit.headers['set-cookie']).split(';')[0]!;
    const other = /name="csrf" value="([\w-]+)"/.exec((await t.app.inject({ method: 'GET', url: '/catalog/signin' })).body)![1]!;
    // Another visitor's token (valid, but not this cookie's) is refused as well.
    for (const csrf of ['', 'wrong', other]) {
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
