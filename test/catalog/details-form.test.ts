// The account page's details form: a blank field removes that detail, but a form that arrives
// without its fields (cut short, sent as another shape, or not this form at all) is refused and
// changes nothing, rather than being read as blanks that delete the patron's email and phone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { formToken, sessionCookie, signInWithForm } from './patron-forms.ts';

describe(`the catalogue's details form on ${ENGINE}`, () => {
  let t: TestApp;
  let patronId: string;
  let session: string;
  let csrf: string;
  before(async () => {
    t = await createTestApp();
    patronId = await t.services.patrons.create({
      names: ['Kept, Kim'],
      barcodes: ['K-1'],
      pin: 'Kim-pin-5151',
      emails: ['kim@example.org'],
      phones: [{ number: '555-0101', type: 't' }],
    });
    session = sessionCookie(await signInWithForm(t.app, 'K-1', 'Kim-pin-5151'));
    csrf = formToken((await t.app.inject({ method: 'GET', url: '/catalog/account', headers: { cookie: session } })).body);
  });
  after(() => t.close());

  const details = async () => {
    const p = await t.services.patrons.get(patronId);
    return { emails: p.emails, phones: p.phones.map((ph) => ph.number) };
  };
  const post = (payload: string, type = 'application/x-www-form-urlencoded') =>
    t.app.inject({ method: 'POST', url: '/catalog/account/details', headers: { cookie: session, 'content-type': type }, payload });

  it('refuses a form without its email or phone field, changing nothing', async () => {
    const forms = [
      new URLSearchParams({ csrf }).toString(),
      new URLSearchParams({ csrf, email: 'new@example.org' }).toString(),
      new URLSearchParams({ csrf, phone: '555-0199' }).toString(),
      `csrf=${csrf}&${Array.from({ length: 200 }, (_, i) => `f${i}=x`).join('&')}`,
    ];
    for (const form of forms) {
      const res = await post(form);
      assert.equal(res.statusCode, 400, form.slice(0, 80));
      assert.match(res.body, /The form arrived without its email or phone field\. Nothing was changed/);
      assert.deepEqual(await details(), { emails: ['kim@example.org'], phones: ['555-0101'] });
    }
    const shaped = await post(JSON.stringify({ csrf, email: { a: 1 }, phone: ['1', '2'] }), 'application/json');
    assert.equal(shaped.statusCode, 400);
    assert.deepEqual(await details(), { emails: ['kim@example.org'], phones: ['555-0101'] });
  });

  it('removes a detail sent blank, and saves one sent filled', async () => {
    const res = await post(new URLSearchParams({ csrf, email: 'kim.new@example.org', phone: '' }).toString());
    assert.equal(res.statusCode, 303);
    assert.deepEqual(await details(), { emails: ['kim.new@example.org'], phones: [] });
  });
});
