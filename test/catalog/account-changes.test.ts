// A patron changes holds and loans from the account page, in real headless Chromium, through forms
// that work without script: freezes and unfreezes a hold and moves its pickup library on the
// hold's own page (the REST API's GET /patrons/{id}/holds agreeing), is told in plain words when
// the hold rules refuse (its copy already on the hold shelf); renews one loan (the API's dueDate
// agreeing with the page), is told why a renewal is refused (another reader's hold, the rule's
// limit), and renews all (blocked, told why once, not once a loan). Another patron cannot freeze,
// move or renew these by changing the id in a form or an address. The patron changes email and
// phone (GET /patrons/{id} agreeing; an invalid email refused in plain words, nothing written),
// the PIN with the old one (POST /patrons/validate then takes the new one only; a mismatch, a PIN
// the rules refuse and a wrong old PIN are refused, the wrong old PIN counted towards the same
// lockout as the sign-in's; the new PIN signs out the patron's other sessions and keeps this one
// under a new id, and a PIN set through PUT /patrons/{id} ends them all; so does deleting the
// patron through DELETE /patrons/{id}), and switches the
// reading history, its list newest first as GET /patrons/{id}/checkouts/history has it. These
// forms without the session's CSRF token are refused, and act on the session's patron whatever the
// form says. axe-core finds no serious or critical problem on the account page with these forms.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FixedClock } from '../../src/shared/calendar.ts';
import { caller, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser, needsChromium } from '../helpers/browser.ts';
import { addBib, addItem } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';
import { loadCatalogue } from './fixture.ts';
import { axe, longDay, newContext, signIn } from './patron-browser.ts';

/** The wrong PINs a patron may give before the card is paused (CARREL_PIN_BARCODE_FAILURES). */
const PIN_LIMIT = 2;

interface ApiHold {
  id: string;
  frozen: boolean;
  pickupLocation: { code: string; name: string };
}

describe(`changing holds and renewing loans from the catalogue, in Chromium on ${ENGINE}`, { skip: needsChromium }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let api: Caller;
  const clock = new FixedClock('2026-11-30');
  const patron = { ada: '', bea: '', cal: '', dee: '', eve: '', fay: '', gil: '' };
  const copy: Record<string, string> = {};
  const bib: Record<string, string> = {};
  before(async () => {
    t = await createTestApp({ CARREL_PIN_BARCODE_FAILURES: String(PIN_LIMIT) }, { clock });
    await loadCatalogue(t.testDb.db, 0);
    const make = (name: string, barcode: string, pin: string) =>
      t.services.patrons.create({ names: [name], barcodes: [barcode], pin, homeLibraryCode: 'mn' });
    patron.ada = await make('Lovelace, Ada', 'P-ADA', 'Ada-pin-5511');
    patron.bea = await make('Potter, Beatrix', 'P-BEA', 'Bea-pin-7722');
    patron.cal = await make('Calvino, Italo', 'P-CAL', 'Cal-pin-9933');
    patron.dee = await t.services.patrons.create({
      names: ['Dee, John'],
      barcodes: ['P-DEE'],
      pin: 'Dee-pin-3141',
      emails: ['dee@old.example', 'dee@work.example'],
      phones: [
        { number: '555 0100', type: 't' },
        { number: '555 0199', type: 'p' },
      ],
    });
    patron.eve = await make('Eve, Mary', 'P-EVE', 'Eve-pin-2718');
    patron.fay = await make('Fay, Morgan', 'P-FAY', 'Fay-pin-1618');
    patron.gil = await make('Gil, Eric', 'P-GIL', 'Gil-pin-4242');
    // One copy each, at Main: every hold below waits for it, every loan is of it.
    for (const [key, title] of Object.entries({
      middlemarch: 'Middlemarch',
      bleak: 'Bleak House',
      dracula: 'Dracula',
      emma: 'Emma',
      persuasion: 'Persuasion',
      north: 'North and South',
      wives: 'Wives and Daughters',
      cranford: 'Cranford',
      sylvia: 'Sylvia’s Lovers',
    })) {
      bib[key] = await addBib(t.testDb.db, title);
      copy[key] = await addItem(t.testDb.db, bib[key], 'mn');
    }
    api = caller(t, await bearer(t, ['all']));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const hold = (patronId: string, key: string) =>
    t.services.holds.place(patronId, { recordType: 'b', recordNumber: bib[key]!, pickupLocation: 'mn' });
  const lend = async (patronId: string, key: string) => (await t.services.circulation.checkout(patronId, { itemId: copy[key]! })).id;
  const apiHold = async (patronId: string, holdId: string): Promise<ApiHold> => {
    const res = await api.get(`/v6/patrons/${patronId}/holds`);
    assert.equal(res.statusCode, 200, res.body);
    const found = (res.json().entries as ApiHold[]).find((h) => h.id.endsWith(`/${holdId}`));
    assert.ok(found, `hold ${holdId} of ${patronId}`);
    return found;
  };
  const apiLoan = async (loanId: string): Promise<{ dueDate: string; numberOfRenewals: number }> => {
    const res = await api.get(`/v6/patrons/checkouts/${loanId}?fields=dueDate,numberOfRenewals`);
    assert.equal(res.statusCode, 200, res.body);
    const { dueDate, numberOfRenewals } = res.json();
    return { dueDate: (dueDate as string).slice(0, 10), numberOfRenewals };
  };
  const status = async (page: Page) => (await page.getByRole('status').textContent())?.trim();
  const alert = async (page: Page) => (await page.getByRole('alert').textContent())?.trim();

  it('freezes and unfreezes a hold and moves its pickup library, as the API then answers; refuses to freeze one on the shelf', async () => {
    const holdId = await hold(patron.ada, 'middlemarch');
    const context = await newContext(browser);
    const page = await signIn(context, base, 'P-ADA', 'Ada-pin-5511');
    await axe(page);

    await page.getByRole('button', { name: 'Freeze hold on Middlemarch' }).click();
    await page.waitForURL(`${base}/catalog/account?done=frozen`);
    assert.equal(await status(page), 'Your hold is frozen: your place in the queue is kept until you unfreeze it.');
    assert.equal(await page.locator('li.hold .hold-status').textContent(), 'Frozen: your place in the queue is kept');
    assert.equal((await apiHold(patron.ada, holdId)).frozen, true);
    await axe(page);

    await page.getByRole('button', { name: 'Unfreeze hold on Middlemarch' }).click();
    await page.waitForURL(`${base}/catalog/account?done=unfrozen`);
    assert.equal(await status(page), 'Your hold is active again.');
    assert.equal(await page.locator('li.hold .hold-status').textContent(), 'Position 1 in the queue of 1');
    assert.equal((await apiHold(patron.ada, holdId)).frozen, false);

    // The account page lists no libraries under each hold: a link goes to the hold's own page.
    assert.equal(await page.locator('li.hold select').count(), 0, 'no pickup list under a hold');
    await page.getByRole('link', { name: 'Change pickup library for Middlemarch' }).click();
    await page.waitForURL(`${base}/catalog/account/holds/${holdId}/pickup`);
    await axe(page);
    const select = page.getByLabel('Pickup library for Middlemarch', { exact: true });
    assert.equal(await select.inputValue(), 'mn', 'the hold’s pickup library is chosen');
    await select.selectOption('ea');
    await page.getByRole('button', { name: 'Change pickup' }).click();
    await page.waitForURL(`${base}/catalog/account?done=moved&hold=${holdId}`);
    const moved = await apiHold(patron.ada, holdId);
    assert.equal(moved.pickupLocation.code, 'ea');
    assert.equal(await status(page), `Your hold will wait for you at ${moved.pickupLocation.name}.`);
    assert.equal(await page.locator('li.hold .detail').textContent(), `Pickup at ${moved.pickupLocation.name}`);
    await page.goto(`${base}/catalog/account/holds/${holdId}/pickup`);
    assert.equal(await page.getByLabel('Pickup library for Middlemarch', { exact: true }).inputValue(), 'ea');
    for (const csrf of [undefined, 'wrong-token']) {
      const form = { hold: holdId, pickup: 'mn', ...(csrf === undefined ? {} : { csrf }) };
      const res = await page.request.post(`${base}/catalog/account/holds/pickup`, { form, maxRedirects: 0 });
      assert.equal(res.status(), 403, `a move with ${csrf ?? 'no token'}`);
    }
    assert.equal((await apiHold(patron.ada, holdId)).pickupLocation.code, 'ea', 'a move without the token changes nothing');

    // The page was read; then the desk checks the copy in at the new pickup library: it waits on
    // the shelf, and the rules no longer let the hold be frozen.
    await page.goto(`${base}/catalog/account`);
    const checkin = await api.send('POST', `/v6/items/${copy.middlemarch}/checkin`, { location: 'ea' });
    assert.equal(checkin.statusCode, 200, checkin.body);
    await page.getByRole('button', { name: 'Freeze hold on Middlemarch' }).click();
    await page.waitForURL(`${base}/catalog/account?refused=8&hold=${holdId}`);
    assert.equal(
      await alert(page),
      'A copy is already set aside for this hold (on its way or on the hold shelf), so it cannot be frozen or moved to another library.',
    );
    assert.equal((await apiHold(patron.ada, holdId)).frozen, false);
    assert.match((await page.locator('li.hold .hold-status').textContent())!, /^Ready for pickup until /);
    assert.equal(await page.getByRole('button', { name: 'Freeze hold on Middlemarch' }).count(), 0, 'a hold on the shelf offers no freeze');
    assert.equal(await page.getByRole('link', { name: 'Change pickup library for Middlemarch' }).count(), 0, 'nor a move');
    await axe(page);
    await context.close();
  });

  it("keeps a second patron from freezing, moving or renewing the first's hold or loan by changing the id in the form", async () => {
    const adaHold = await hold(patron.ada, 'bleak');
    const adaLoan = await lend(patron.ada, 'persuasion');
    const loanBefore = await apiLoan(adaLoan);
    const beaHold = await hold(patron.bea, 'dracula');
    await lend(patron.bea, 'emma');
    const context = await newContext(browser);
    const page = await signIn(context, base, 'P-BEA', 'Bea-pin-7722');
    assert.ok(!(await page.content()).includes('Bleak House'), "Ada's hold is not on Bea's page");

    /** Sends the form with `id` in its field `name`: a hidden field, or the button pressed itself. */
    const forge = async (action: string, name: string, id: string, from = `${base}/catalog/account`) => {
      await page.goto(from);
      const form = page.locator(`form[action="/catalog/account/${action}"]`);
      const control = form.locator(`[name=${name}]`).first();
      await control.evaluate((input, v) => ((input as HTMLInputElement).value = v), id);
      const isButton = (await control.evaluate((input) => input.tagName)) === 'BUTTON';
      await (isButton ? control : form.locator('button').first()).click();
      await page.waitForURL(`${base}/catalog/account/${action}`);
    };
    await forge('holds', 'freeze', adaHold);
    assert.equal(await alert(page), 'That hold could not be found in your account.');
    await forge('holds', 'cancel', adaHold);
    assert.equal(await alert(page), 'That hold could not be found in your account.');
    // The pickup form of Bea's own hold's page, sent with Ada's hold.
    await forge('holds/pickup', 'hold', adaHold, `${base}/catalog/account/holds/${beaHold}/pickup`);
    assert.equal(await alert(page), 'That hold could not be found in your account.');
    // Ada's hold's own page, its id put in the address.
    const peek = await page.goto(`${base}/catalog/account/holds/${adaHold}/pickup`);
    assert.equal(peek!.status(), 404);
    assert.equal(await alert(page), 'That hold could not be found in your account.');
    assert.ok(!(await page.content()).includes('Bleak House'), "nothing of Ada's hold is shown");
    const adas = await apiHold(patron.ada, adaHold);
    assert.deepEqual([adas.frozen, adas.pickupLocation.code], [false, 'mn'], "Ada's hold is as she left it");
    assert.equal(await page.locator('li.hold').count(), 1, "Bea's page still shows only her own hold");

    await forge('loans', 'renew', adaLoan);
    assert.equal(await alert(page), 'That loan could not be found in your account.');
    assert.deepEqual(await apiLoan(adaLoan), loanBefore, "Ada's loan is not renewed");
    await context.close();
  });

  it('renews one loan (the API’s due date agreeing), says why a renewal is refused, and renews all', async () => {
    const north = await lend(patron.cal, 'north');
    const wives = await lend(patron.cal, 'wives');
    const firstDue = (await apiLoan(north)).dueDate;
    // Days later, a renewal moves the due date on.
    clock.set('2026-12-10');
    const context = await newContext(browser);
    const page = await signIn(context, base, 'P-CAL', 'Cal-pin-9933');
    await axe(page);
    const northRow = page.locator(`li.loan[data-loan-id="${north}"]`);
    assert.equal(await northRow.locator('time').getAttribute('datetime'), firstDue);

    // The loans' form without the session's token renews nothing, one loan or all.
    for (const renew of [north, 'all'])
      for (const csrf of [undefined, 'wrong-token']) {
        const form = { renew, ...(csrf === undefined ? {} : { csrf }) };
        const res = await page.request.post(`${base}/catalog/account/loans`, { form, maxRedirects: 0 });
        assert.equal(res.status(), 403, `renewing ${renew} with ${csrf ?? 'no token'}`);
      }
    assert.equal((await apiLoan(north)).numberOfRenewals, 0);

    await page.getByRole('button', { name: 'Renew North and South' }).click();
    await page.waitForURL(`${base}/catalog/account?done=renewed&loan=${north}`);
    const renewed = await apiLoan(north);
    assert.notEqual(renewed.dueDate, firstDue);
    assert.equal(renewed.numberOfRenewals, 1);
    assert.equal(await status(page), `North and South is renewed: now due ${longDay(renewed.dueDate)}.`);
    assert.equal(await northRow.locator('time').getAttribute('datetime'), renewed.dueDate);

    // Another reader waits for the other book.
    await hold(patron.bea, 'wives');
    await page.getByRole('button', { name: 'Renew Wives and Daughters' }).click();
    await page.waitForURL(`${base}/catalog/account?refused=12&loan=${wives}`);
    assert.equal(
      await alert(page),
      'Wives and Daughters was not renewed. Another reader has a hold on it, so it cannot be renewed. Please return it by its due date.',
    );
    assert.equal((await apiLoan(wives)).numberOfRenewals, 0);

    // The library allows one renewal: North and South has had it.
    await t.testDb.db.query('update circulation_rules set renewals = 1');
    try {
      await page.getByRole('button', { name: 'Renew North and South' }).click();
      await page.waitForURL(`${base}/catalog/account?refused=11&loan=${north}`);
      assert.equal(
        await alert(page),
        'North and South was not renewed. It has been renewed as many times as the library allows. Please return it by its due date.',
      );
      assert.deepEqual(await apiLoan(north), renewed);
    } finally {
      await t.testDb.db.query('update circulation_rules set renewals = 3');
    }

    clock.set('2026-12-20');
    await page.getByRole('button', { name: 'Renew all' }).click();
    await page.waitForURL(/\/catalog\/account\?done=renewedall&/);
    const again = await apiLoan(north);
    assert.equal(again.numberOfRenewals, 2);
    assert.notEqual(again.dueDate, renewed.dueDate);
    assert.equal(
      await status(page),
      '1 of 2 loans are renewed. Wives and Daughters was not renewed. Another reader has a hold on it, so it cannot be renewed. Please return it by its due date.',
    );
    assert.equal(await northRow.locator('time').getAttribute('datetime'), again.dueDate);
    assert.equal((await apiLoan(wives)).numberOfRenewals, 0);
    await axe(page);

    // Blocked, the patron is refused every renewal for the one reason: said once.
    const blocked = await api.send('PUT', `/v6/patrons/${patron.cal}`, { blockInfo: { code: 'c' } });
    assert.equal(blocked.statusCode, 204, blocked.body);
    try {
      await page.getByRole('button', { name: 'Renew all' }).click();
      await page.waitForURL(new RegExp(`notrenewed=${north}\\.2,${wives}\\.2|notrenewed=${wives}\\.2,${north}\\.2`));
      assert.equal(
        await status(page),
        'None of your loans could be renewed. Your card is blocked, so loans cannot be renewed. Please ask at the library.',
      );
      assert.deepEqual(await apiLoan(north), again);
    } finally {
      await api.send('PUT', `/v6/patrons/${patron.cal}`, { blockInfo: { code: '-' } });
    }
    await context.close();
  });
  const apiPatron = async (patronId: string): Promise<{ emails: string[]; phones: { number: string; type: string }[] }> => {
    const res = await api.get(`/v6/patrons/${patronId}?fields=emails,phones`);
    assert.equal(res.statusCode, 200, res.body);
    const { emails, phones } = res.json();
    return { emails, phones };
  };
  const validate = async (barcode: string, pin: string) => (await api.send('POST', '/v6/patrons/validate', { barcode, pin })).statusCode;
  /** Submits a form of the page as it is, the browser's own checks of its fields left out (the server's are tested). */
  const submit = async (page: Page, action: string, button: string) => {
    await page.locator(`form[action="/catalog/account/${action}"]`).evaluate((form) => ((form as HTMLFormElement).noValidate = true));
    await page.getByRole('button', { name: button }).click();
  };

  it('changes email and phone as GET /patrons/{id} then has them; refuses an invalid email; ignores a patron named in the form', async () => {
    const context = await newContext(browser);
    const page = await signIn(context, base, 'P-DEE', 'Dee-pin-3141');
    assert.equal(await page.getByLabel('Email address').inputValue(), 'dee@old.example');
    assert.equal(await page.getByLabel('Phone number').inputValue(), '555 0100');

    await page.getByLabel('Email address').fill('dee@new.example');
    await page.getByLabel('Phone number').fill('555 0123');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.waitForURL(`${base}/catalog/account?done=details`);
    assert.equal(await status(page), 'Your details are saved.');
    const saved = {
      emails: ['dee@new.example', 'dee@work.example'],
      phones: [
        { number: '555 0123', type: 't' },
        { number: '555 0199', type: 'p' },
      ],
    };
    assert.deepEqual(await apiPatron(patron.dee), saved);
    assert.equal(await page.getByLabel('Email address').inputValue(), 'dee@new.example');

    await page.getByLabel('Email address').fill('not an address');
    await page.getByLabel('Phone number').fill('555 0777');
    await submit(page, 'details', 'Save details');
    await page.waitForURL(`${base}/catalog/account/details`);
    assert.equal(await alert(page), 'That email address could not be saved: it should look like name@example.org. Nothing was changed.');
    assert.deepEqual(await apiPatron(patron.dee), saved, 'nothing is written, the phone neither');
    assert.equal(await page.getByLabel('Email address').inputValue(), 'not an address', 'what was typed is kept to correct');
    assert.equal(await page.getByLabel('Email address').getAttribute('aria-invalid'), 'true');
    await axe(page);

    // A form naming another patron changes the session's own patron only.
    await page.goto(`${base}/catalog/account`);
    const csrf = await page.locator('form[action="/catalog/account/details"] input[name=csrf]').inputValue();
    const adaBefore = await apiPatron(patron.ada);
    const res = await page.request.post(`${base}/catalog/account/details`, {
      form: { csrf, email: 'dee@third.example', phone: '', patron: patron.ada, id: patron.ada, patronId: patron.ada },
      maxRedirects: 0,
    });
    assert.equal(res.status(), 303);
    assert.deepEqual(await apiPatron(patron.ada), adaBefore);
    assert.deepEqual(await apiPatron(patron.dee), {
      emails: ['dee@third.example', 'dee@work.example'],
      phones: [{ number: '555 0199', type: 'p' }],
    });
    await context.close();
  });

  it('refuses the details, PIN and reading history forms without the session’s CSRF token, changing nothing', async () => {
    const context = await newContext(browser);
    const page = await signIn(context, base, 'P-FAY', 'Fay-pin-1618');
    const before = await apiPatron(patron.fay);
    const forms: Record<string, Record<string, string>> = {
      details: { email: 'fay@forged.example', phone: '555 0666' },
      pin: { oldPin: 'Fay-pin-1618', newPin: 'Forged-pin-1', newPinAgain: 'Forged-pin-1' },
      history: { history: 'on' },
    };
    for (const [action, form] of Object.entries(forms)) {
      for (const csrf of [undefined, 'wrong-token']) {
        const res = await page.request.post(`${base}/catalog/account/${action}`, {
          form: csrf === undefined ? form : { ...form, csrf },
          maxRedirects: 0,
        });
        assert.equal(res.status(), 403, `${action} with ${csrf ?? 'no token'}`);
        assert.match(await res.text(), /This form has expired/);
      }
    }
    assert.deepEqual(await apiPatron(patron.fay), before);
    assert.equal(await validate('P-FAY', 'Fay-pin-1618'), 204, 'the PIN is unchanged');
    assert.equal(await validate('P-FAY', 'Forged-pin-1'), 400);
    const history = await api.get(`/v6/patrons/${patron.fay}/checkouts/history/activationStatus`);
    assert.deepEqual(history.json(), { readingHistoryActivation: false });
    await context.close();
  });

  it('changes the PIN with the old one (validate then takes only the new); refuses a mismatch, a short PIN and a wrong old PIN, counted', async () => {
    const context = await newContext(browser);
    const page = await signIn(context, base, 'P-EVE', 'Eve-pin-2718');
    const changePin = async (old: string, next: string, again: string) => {
      await page.getByLabel('Current PIN').fill(old);
      await page.getByLabel('New PIN', { exact: true }).fill(next);
      await page.getByLabel('New PIN again').fill(again);
      await submit(page, 'pin', 'Change PIN');
    };
    const noPinIn = async (pins: string[]) => {
      const html = await page.content();
      for (const pin of pins) {
        assert.ok(!page.url().includes(pin), 'no PIN in the address');
        assert.ok(!html.includes(pin), 'no PIN sent back');
        assert.ok(!t.logText().includes(pin), 'no PIN in a log line');
      }
    };

    await changePin('Eve-pin-2718', 'Eve-new-4669', 'Eve-new-4669');
    await page.waitForURL(`${base}/catalog/account?done=pin`);
    assert.equal(await status(page), 'Your PIN is changed. Use the new one from now on.');
    await noPinIn(['Eve-pin-2718', 'Eve-new-4669']);
    assert.equal(await validate('P-EVE', 'Eve-pin-2718'), 400, 'the old PIN no longer validates');
    assert.equal(await validate('P-EVE', 'Eve-new-4669'), 204, 'the new one does');

    await changePin('Eve-new-4669', 'Eve-next-1111', 'Eve-next-2222');
    await page.waitForURL(`${base}/catalog/account/pin`);
    assert.equal(await alert(page), 'The two new PINs are not the same. Please type the new PIN twice. Your PIN was not changed.');
    await noPinIn(['Eve-new-4669', 'Eve-next-1111', 'Eve-next-2222']);
    await axe(page);
    await changePin('Eve-new-4669', 'abc', 'abc');
    assert.equal(await alert(page), 'The new PIN must have 4 to 64 characters, and no line breaks or tabs. Your PIN was not changed.');
    assert.equal(await validate('P-EVE', 'Eve-new-4669'), 204, 'the PIN is unchanged');

    // Neither refusal above was an attempt: each wrong old PIN is one, up to the limit.
    for (let i = 1; i <= PIN_LIMIT; i++) {
      await changePin(`Wrong-pin-${i}`, 'Eve-next-3333', 'Eve-next-3333');
      assert.equal(await alert(page), 'The current PIN is not right. Your PIN was not changed.', `wrong old PIN ${i}`);
    }
    assert.equal(await validate('P-EVE', 'Eve-new-4669'), 429, 'the card is paused, as after wrong PINs at sign-in');
    await changePin('Eve-new-4669', 'Eve-next-3333', 'Eve-next-3333');
    assert.match((await alert(page))!, /^PIN changes and signing in, from here or with this card, are paused after too many wrong tries\./);
    await context.close();
  });

  it('signs out the patron’s other sessions on a PIN change, keeping this one under a new id; a PIN set through the API ends them all', async () => {
    const here = await newContext(browser);
    const elsewhere = await newContext(browser);
    const page = await signIn(here, base, 'P-GIL', 'Gil-pin-4242');
    const other = await signIn(elsewhere, base, 'P-GIL', 'Gil-pin-4242');
    const sessionOf = async (context: BrowserContext) => (await context.cookies()).find((c) => c.name === 'carrel_session')?.value;
    const before = await sessionOf(here);
    const sessions = async () =>
      (await t.testDb.db.query<{ n: number }>('select count(*)::int as n from catalog_sessions where patron_id = $1', [patron.gil]))[0]!.n;
    assert.equal(await sessions(), 2);

    await page.getByLabel('Current PIN').fill('Gil-pin-4242');
    await page.getByLabel('New PIN', { exact: true }).fill('Gil-new-5353');
    await page.getByLabel('New PIN again').fill('Gil-new-5353');
    await submit(page, 'pin', 'Change PIN');
    await page.waitForURL(`${base}/catalog/account?done=pin`);
    assert.equal(await status(page), 'Your PIN is changed. Use the new one from now on.');
    const after = await sessionOf(here);
    assert.ok(after && after !== before, 'this session goes on under a new id');
    assert.equal(await sessions(), 1, 'the other session is deleted');
    const stale = await t.app.inject({ url: '/catalog/account', headers: { cookie: `carrel_session=${before}` } });
    assert.equal(stale.statusCode, 303, 'the old id signs in no more');

    await other.goto(`${base}/catalog/account`);
    assert.equal(other.url(), `${base}/catalog/signin?next=%2Fcatalog%2Faccount`, 'the other session is signed out');
    await page.goto(`${base}/catalog/account`);
    assert.equal(page.url(), `${base}/catalog/account`, 'this one stays signed in');

    const put = await api.send('PUT', `/v6/patrons/${patron.gil}`, { pin: 'Gil-api-6464' });
    assert.equal(put.statusCode, 204, put.body);
    assert.equal(await sessions(), 0, 'a PIN set through the API ends every catalogue session');
    await page.goto(`${base}/catalog/account`);
    assert.equal(page.url(), `${base}/catalog/signin?next=%2Fcatalog%2Faccount`);
    await signIn(elsewhere, base, 'P-GIL', 'Gil-api-6464');
    const named = await api.send('PUT', `/v6/patrons/${patron.gil}`, { emails: ['gil@example.org'] });
    assert.equal(named.statusCode, 204, named.body);
    assert.equal(await sessions(), 1, 'a change of anything but the PIN keeps the sessions');
    await here.close();
    await elsewhere.close();
  });

  it('ends a deleted patron’s catalogue sessions: the next account page sends to sign-in, and no row is left', async () => {
    const hanId = await t.services.patrons.create({ names: ['Han, Kim'], barcodes: ['P-HAN'], pin: 'Han-pin-8080', homeLibraryCode: 'mn' });
    const context = await newContext(browser);
    const page = await signIn(context, base, 'P-HAN', 'Han-pin-8080');
    const rows = async () =>
      (await t.testDb.db.query<{ n: number }>('select count(*)::int as n from catalog_sessions where patron_id = $1', [hanId]))[0]!.n;
    assert.equal(await rows(), 1);

    const gone = await api.send('DELETE', `/v6/patrons/${hanId}`);
    assert.equal(gone.statusCode, 204, gone.body);
    assert.equal(await rows(), 0, 'the session is deleted with the patron');
    await page.goto(`${base}/catalog/account`);
    assert.equal(page.url(), `${base}/catalog/signin?next=%2Fcatalog%2Faccount`);
    await context.close();
  });

  it('turns the reading history on, lists it newest first as the API does, and off (deleting it)', async () => {
    const context = await newContext(browser);
    const page = await signIn(context, base, 'P-FAY', 'Fay-pin-1618');
    const section = page.locator('section[aria-labelledby="history-heading"]');
    assert.equal(await section.locator('li').count(), 0);
    await page.getByRole('button', { name: 'Keep my reading history' }).click();
    await page.waitForURL(`${base}/catalog/account?done=historyon`);
    assert.equal(await status(page), 'Your reading history is on: what you borrow from now on is listed here.');
    const active = async () => (await api.get(`/v6/patrons/${patron.fay}/checkouts/history/activationStatus`)).json();
    assert.deepEqual(await active(), { readingHistoryActivation: true });

    await lend(patron.fay, 'cranford');
    await lend(patron.fay, 'sylvia');
    const res = await api.get(`/v6/patrons/${patron.fay}/checkouts/history`);
    assert.equal(res.statusCode, 200, res.body);
    const apiBibs = (res.json().entries as { bib: string }[]).map((e) => e.bib.split('/').pop());
    assert.deepEqual(apiBibs, [bib.sylvia, bib.cranford], 'the API lists the newest first');
    await page.goto(`${base}/catalog/account`);
    assert.deepEqual(await section.locator('li a').allTextContents(), ['Sylvia’s Lovers', 'Cranford']);
    const hrefs = await section.locator('li a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(
      hrefs,
      apiBibs.map((id) => `/catalog/record/${id}`),
    );
    assert.match((await section.locator('li time').first().getAttribute('datetime'))!, /^\d{4}-\d\d-\d\d$/);
    await axe(page);

    await page.getByRole('button', { name: 'Stop keeping it and delete the list' }).click();
    await page.waitForURL(`${base}/catalog/account?done=historyoff`);
    assert.equal(await status(page), 'Your reading history is off, and its list is deleted.');
    assert.deepEqual(await active(), { readingHistoryActivation: false });
    assert.equal(await section.locator('li').count(), 0);
    await context.close();
  });
});
