// A patron in the public catalogue, in real headless Chromium: signs in (a wrong PIN, the lockout
// after the limit), places a hold from a record's page and sees it on the account page, sees it
// it on its way, then "Ready for pickup until" the date GET /patrons/{id}/holds answers, as the item
// is checked in through the REST API, cancels it and signs out; a frozen hold, loans (overdue once
// the library's day moves past the due date) and money owed read as the API has them. Sessions end when idle or too old; a form without
// the session's CSRF token is refused; another patron cannot cancel the hold by changing its id in
// the form. axe-core finds no serious or critical problem on the sign-in, record and account pages.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FixedClock } from '../../src/shared/calendar.ts';
import { caller, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser, needsChromium } from '../helpers/browser.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';
import { loadCatalogue } from './fixture.ts';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PIN_LIMIT = 3;

describe(`a patron's account in the catalogue, in Chromium on ${ENGINE}`, { skip: needsChromium }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let api: Caller;
  let bibs: Record<string, string>;
  // The library's "today": fixed, so a loan can be made overdue by moving it (the last test does).
  const clock = new FixedClock('2026-11-30');
  const patron = { ada: '', bea: '', cal: '' };
  before(async () => {
    t = await createTestApp({ CARREL_PIN_BARCODE_FAILURES: String(PIN_LIMIT) }, { clock });
    bibs = await loadCatalogue(t.testDb.db, 0);
    const make = (name: string, barcode: string, pin: string) =>
      t.services.patrons.create({ names: [name], barcodes: [barcode], pin, homeLibraryCode: 'mn' });
    patron.ada = await make('Lovelace, Ada', 'P-ADA', 'Ada-pin-5511');
    patron.bea = await make('Potter, Beatrix', 'P-BEA', 'Bea-pin-7722');
    patron.cal = await make('Calvino, Italo', 'P-CAL', 'Cal-pin-9933');
    api = caller(t, await bearer(t, ['all']));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  // Each test counts the sessions it makes: none are left from the one before.
  beforeEach(() => t.testDb.db.query('delete from catalog_sessions'));
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  // axe is injected into the page, past the catalogue's Content-Security-Policy (no script runs there).
  const newContext = () => browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
  async function axe(page: Page): Promise<void> {
    await page.addScriptTag({ content: AXE });
    const found = await page.evaluate<{ id: string; impact: string; nodes: number }[]>(
      "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })))",
    );
    const grave = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(grave, [], `${page.url()}: ${JSON.stringify(grave)}`);
  }
  async function signIn(context: BrowserContext, barcode: string, pin: string, path = '/catalog/signin'): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${base}${path}`);
    await page.getByLabel('Library card number').fill(barcode);
    await page.getByLabel('PIN').fill(pin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
    return page;
  }
  const holdsOf = async (id: string) => {
    const res = await api.get(`/v6/patrons/${id}/holds`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().entries as { id: string; status: { code: string }; pickupByDate?: string }[];
  };
  const sessionRows = async (patronId: string) =>
    (await t.testDb.db.query<{ n: number }>('select count(*)::int as n from catalog_sessions where patron_id = $1', [patronId]))[0]!.n;

  it('signs in with the card and PIN into a new session; a wrong PIN is said in plain words and never logged', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${base}/catalog/account`);
    assert.match(page.url(), /\/catalog\/signin\?next=%2Fcatalog%2Faccount$/, 'a signed-out visitor is sent to sign in');
    await axe(page);
    const cookies = await context.cookies();
    assert.equal(
      cookies.find((c) => c.name === 'carrel_session'),
      undefined,
      'a visitor has no session',
    );
    const before = cookies.find((c) => c.name === 'carrel_signin')!;
    assert.deepEqual([before.httpOnly, before.sameSite, before.path, before.secure], [true, 'Strict', '/catalog/signin', false]);

    await page.getByLabel('Library card number').fill('P-ADA');
    await page.getByLabel('PIN').fill('Wrong-pin-0001');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
    assert.equal(await page.getByRole('alert').textContent(), 'The card number or PIN is not right. Please check them and try again.');
    assert.equal(await page.getByLabel('Library card number').inputValue(), 'P-ADA', 'the card number is kept');
    assert.equal(await page.getByLabel('PIN').inputValue(), '', 'the PIN is not sent back');
    assert.ok(!(await page.content()).includes('Wrong-pin-0001'));
    assert.equal(page.url(), `${base}/catalog/signin`, 'the form posts: no card number or PIN in the address');
    await axe(page);

    await page.getByLabel('PIN').fill('Ada-pin-5511');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/catalog/account`);
    assert.equal(await page.locator('h1').textContent(), 'My account');
    const after = (await context.cookies()).find((c) => c.name === 'carrel_session')!;
    assert.deepEqual([after.httpOnly, after.sameSite, after.path, after.secure], [true, 'Lax', '/catalog', false]);
    assert.notEqual(after.value, before.value, 'the session id is not the visitor’s token');
    assert.equal(await sessionRows(patron.ada), 1);
    const log = t.logText();
    assert.ok(!log.includes('Ada-pin-5511') && !log.includes('Wrong-pin-0001'), 'no PIN in any log line');
    assert.match(log, /"url":"\/catalog\/signin"/, 'the sign-in requests are logged (without their bodies)');
    await context.close();
  });

  it('pauses signing in with a card after the limit of wrong PINs, even with the right one', async () => {
    const context = await newContext();
    let page: Page | undefined;
    for (let i = 0; i < PIN_LIMIT; i++) {
      page = await signIn(context, 'P-CAL', `Wrong-${i}-pin`);
      assert.match((await page.getByRole('alert').textContent())!, /not right/);
    }
    page = await signIn(context, 'P-CAL', 'Cal-pin-9933');
    assert.match(
      (await page.getByRole('alert').textContent())!,
      /^Signing in from here or with this card is paused after too many wrong tries\. Please try again in \d+ minutes?/,
    );
    assert.match(page.url(), /\/catalog\/signin$/);
    assert.equal(await sessionRows(patron.cal), 0);
    await context.close();
  });

  it('places a hold from a record page, sees it ready for pickup until the API’s pickupByDate, and cancels it', async () => {
    const context = await newContext();
    const visitor = await context.newPage();
    await visitor.goto(`${base}/catalog/record/${bibs.pride}`);
    await visitor.getByRole('link', { name: 'Sign in to place a hold' }).click();
    await visitor.waitForURL(/\/catalog\/signin\?next=/);
    await visitor.getByLabel('Library card number').fill('P-ADA');
    await visitor.getByLabel('PIN').fill('Ada-pin-5511');
    await visitor.getByRole('button', { name: 'Sign in' }).click();
    await visitor.waitForURL(`${base}/catalog/record/${bibs.pride}`);
    const page = visitor;
    await axe(page);
    const options = await page
      .getByLabel('Pickup library')
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    assert.deepEqual(options, ['mn', 'ea'], "the patron's home library (Main) first, then by code");
    await page.getByLabel('Pickup library').selectOption('mn');
    await page.getByRole('button', { name: 'Place hold' }).click();
    await page.waitForURL(`${base}/catalog/account?done=placed`);
    assert.equal(await page.getByRole('status').textContent(), 'Your hold has been placed.');
    const hold = page.locator('li.hold');
    assert.equal(await hold.count(), 1);
    assert.equal(await hold.locator(':scope > a').textContent(), 'Pride and prejudice');
    assert.equal(await hold.locator('.hold-status').textContent(), 'Position 1 in the queue of 1');
    await axe(page);

    // The same hold again: refused in the hold rules' words.
    await page.goto(`${base}/catalog/record/${bibs.pride}`);
    await page.getByRole('button', { name: 'Place hold' }).click();
    await page.waitForLoadState();
    assert.equal(await page.getByRole('alert').textContent(), 'You already have a hold on this title.');

    // The desk checks the copy in at the pickup library: the hold is on the shelf.
    const [entry] = await holdsOf(patron.ada);
    const copies = (await t.services.bibs.itemsOf([bibs.pride!])).get(bibs.pride!)!;
    const copy = copies.find((i) => i.location_code === 'mn')!;
    const away = await api.send('POST', `/v6/items/${copy.id}/checkin`, { location: 'ea' });
    assert.equal(away.statusCode, 200, away.body);
    await page.goto(`${base}/catalog/account`);
    assert.equal(await page.locator('li.hold .hold-status').textContent(), 'On its way to your pickup library');
    const checkin = await api.send('POST', `/v6/items/${copy.id}/checkin`, { location: 'mn' });
    assert.equal(checkin.statusCode, 200, checkin.body);
    const [ready] = await holdsOf(patron.ada);
    assert.equal(ready!.id, entry!.id);
    assert.ok(ready!.pickupByDate, JSON.stringify(ready));
    const day = ready!.pickupByDate.slice(0, 10);
    await page.goto(`${base}/catalog/account`);
    const time = page.locator('li.hold .hold-status time');
    assert.equal(await time.getAttribute('datetime'), day);
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    const month = new Date(Date.UTC(y, m - 1, d)).toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' });
    assert.equal(await page.locator('li.hold .hold-status').textContent(), `Ready for pickup until ${d} ${month} ${y}`);
    await axe(page);

    await page.getByRole('button', { name: 'Cancel hold on Pride and prejudice' }).click();
    await page.waitForURL(`${base}/catalog/account?done=cancelled`);
    assert.equal(await page.getByRole('status').textContent(), 'Your hold has been cancelled.');
    assert.equal(await page.locator('li.hold').count(), 0);
    assert.deepEqual(await holdsOf(patron.ada), []);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/catalog/signin?done=signedout`);
    assert.equal(await page.getByRole('status').textContent(), 'You have signed out.');
    assert.equal(await sessionRows(patron.ada), 0);
    // Back, as the next person at a shared computer would press it: the account page is asked for
    // again (the browser kept no copy) and sends to sign-in, showing nothing of the patron's.
    await page.goBack();
    await page.waitForLoadState();
    assert.match(page.url(), /\/catalog\/signin\?next=/);
    assert.equal(await page.locator('h1').textContent(), 'Sign in');
    assert.equal(await page.getByText('Lovelace').count(), 0);
    await page.goto(`${base}/catalog/account`);
    assert.match(page.url(), /\/catalog\/signin\?next=/);
    await context.close();
  });

  it('refuses a form without the session’s CSRF token, or with another one', async () => {
    const context = await newContext();
    const page = await signIn(context, 'P-ADA', 'Ada-pin-5511');
    await page.goto(`${base}/catalog/record/${bibs.zola}`);
    await page.getByRole('button', { name: 'Place hold' }).click();
    await page.waitForURL(/done=placed/);
    const [held] = await holdsOf(patron.ada);
    const holdId = held!.id.split('/').pop()!;
    for (const token of [undefined, 'x'.repeat(43)]) {
      // SameSite=Lax keeps the cookie off a POST from another site, not off one from a page of this site (another application under the same host).
      await page.evaluate(
        ([id, csrf]) => {
          const form = document.createElement('form');
          form.method = 'post';
          form.action = '/catalog/account/holds';
          for (const [name, value] of Object.entries({ cancel: id, ...(csrf ? { csrf } : {}) })) {
            const input = document.createElement('input');
            input.type = 'hidden';
            input.name = name;
            input.value = value!;
            form.append(input);
          }
          document.body.append(form);
          form.submit();
        },
        [holdId, token] as const,
      );
      await page.waitForURL(`${base}/catalog/account/holds`);
      assert.equal(await page.locator('h1').textContent(), 'This form has expired');
      assert.equal((await holdsOf(patron.ada)).length, 1, 'the hold stays');
      await page.goto(`${base}/catalog/account`);
    }
    // Signing out is a form too.
    const signOut = await page.request.post(`${base}/catalog/signout`, { form: { csrf: '' }, maxRedirects: 0 });
    assert.equal(signOut.status(), 403);
    assert.equal(await sessionRows(patron.ada), 1);
    await context.close();
  });

  it("keeps a second patron from cancelling the first's hold by changing the id in the form", async () => {
    const [held] = await holdsOf(patron.ada);
    const adaHold = held!.id.split('/').pop()!;
    const context = await newContext();
    const page = await signIn(context, 'P-BEA', 'Bea-pin-7722');
    await page.goto(`${base}/catalog/record/${bibs.pride}`);
    await page.getByRole('button', { name: 'Place hold' }).click();
    await page.waitForURL(/done=placed/);
    assert.ok(!(await page.content()).includes('Germinal'), "Ada's hold is not on Bea's page");
    const cancel = page.getByRole('button', { name: /^Cancel hold on/ });
    await cancel.evaluate((button, id) => ((button as HTMLButtonElement).value = id), adaHold);
    await cancel.click();
    await page.waitForLoadState();
    assert.equal(await page.getByRole('alert').textContent(), 'That hold could not be found in your account.');
    assert.equal((await holdsOf(patron.ada)).length, 1, "Ada's hold stays");
    assert.equal((await holdsOf(patron.bea)).length, 1, "Bea's own hold stays");
    const [beas] = await holdsOf(patron.bea);
    const frozen = await api.send('PUT', `/v6/patrons/holds/${beas!.id.split('/').pop()!}`, { freeze: true });
    assert.equal(frozen.statusCode, 204, frozen.body);
    await page.goto(`${base}/catalog/account`);
    assert.equal(await page.locator('li.hold .hold-status').textContent(), 'Frozen: your place in the queue is kept');
    await context.close();
  });

  it('ends a session idle too long or too old: the account page sends to sign-in, and the row is gone', async () => {
    for (const aged of [
      `last_seen = last_seen - interval '${t.config.catalogSessions.idleSec + 1} seconds'`,
      `created = created - interval '${t.config.catalogSessions.absoluteSec + 1} seconds'`,
    ]) {
      const context = await newContext();
      const page = await signIn(context, 'P-BEA', 'Bea-pin-7722');
      assert.equal(page.url(), `${base}/catalog/account`);
      await page.reload();
      assert.equal(page.url(), `${base}/catalog/account`, 'a live session is kept');
      await t.testDb.db.query(`update catalog_sessions set ${aged} where patron_id = $1`, [patron.bea]);
      await page.goto(`${base}/catalog/account`);
      assert.match(page.url(), /\/catalog\/signin\?next=/, aged);
      assert.equal(await sessionRows(patron.bea), 0, 'an ended session is deleted when read');
      await context.close();
    }
  });

  it('sweeps ended sessions and keeps live ones', async () => {
    const signIn = () => t.services.patronSessions.signIn(undefined, 'P-BEA', 'Bea-pin-7722', 'test');
    const live = await signIn();
    const idle = await signIn();
    const old = await signIn();
    const { idleSec, absoluteSec } = t.config.catalogSessions;
    const db = t.testDb.db;
    await db.query(`update catalog_sessions set last_seen = last_seen - interval '${idleSec + 1} seconds' where csrf_token = $1`, [
      idle.csrfToken,
    ]);
    await db.query(`update catalog_sessions set created = created - interval '${absoluteSec + 1} seconds' where csrf_token = $1`, [
      old.csrfToken,
    ]);
    assert.ok((await t.services.patronSessions.sweep()) >= 2);
    const left = await db.query<{ csrf_token: string }>('select csrf_token from catalog_sessions where csrf_token = any($1)', [
      [live.csrfToken, idle.csrfToken, old.csrfToken],
    ]);
    assert.deepEqual(
      left.map((r) => r.csrf_token),
      [live.csrfToken],
    );
    assert.ok(await t.services.patronSessions.read(live.id));
  });

  it('goes only to a catalogue page after signing in', async () => {
    const context = await newContext();
    for (const next of ['https://evil.example/', '//evil.example/catalog/', '/catalog/../v6/patrons', '/catalog/signin']) {
      const page = await signIn(context, 'P-BEA', 'Bea-pin-7722', `/catalog/signin?next=${encodeURIComponent(next)}`);
      assert.equal(page.url(), `${base}/catalog/account`, next);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/done=signedout/);
    }
    await context.close();
  });

  it('lists loans with their due dates, marks the overdue ones, and says the money owed', async () => {
    const copy = (await t.services.bibs.itemsOf([bibs.zola!])).get(bibs.zola!)!.find((i) => i.location_code === 'mn')!;
    const loan = await api.send('POST', `/v6/patrons/${patron.ada}/checkouts`, { itemId: copy.id });
    assert.equal(loan.statusCode, 200, loan.body);
    const due = ((await api.get(`/v6/patrons/${patron.ada}/checkouts`)).json().entries[0].dueDate as string).slice(0, 10);
    const charged = await api.send('POST', `/v6/patrons/${patron.ada}/fines/charge`, { amount: 250, reason: 'Damaged cover' });
    assert.equal(charged.statusCode, 200, charged.body);
    const context = await newContext();
    const page = await signIn(context, 'P-ADA', 'Ada-pin-5511');
    assert.equal(page.url(), `${base}/catalog/account`);
    const row = page.locator('li.loan');
    assert.equal(await row.locator('a').textContent(), 'Germinal');
    assert.equal(await row.locator('time').getAttribute('datetime'), due);
    assert.equal(await page.locator('li.loan.overdue').count(), 0);
    assert.equal(await page.locator('.money-owed').textContent(), 'You owe 2.50.');
    const fines = page.locator('section[aria-labelledby="fines-heading"] li');
    assert.deepEqual(await fines.allTextContents(), ['Damaged cover 2.50'], 'the charge still owed, as GET /patrons/{id}/fines has it');
    clock.set('2027-06-01');
    await page.reload();
    assert.match((await row.locator('p').textContent())!, /^Overdue: Due \d{1,2} [A-Z][a-z]+ \d{4}$/);
    assert.equal(await page.locator('li.loan.overdue').count(), 1);
    await axe(page);
    await context.close();
  });
});
