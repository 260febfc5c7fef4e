// How the catalogue's sign-in counts wrong PINs per client: an IPv6 client by its /64 network (one
// host usually holds a whole /64, so counting each address would give it a budget without end),
// an IPv4 client by its address. A paused sign-in says so without blaming the card alone, and
// says when to try again in a Retry-After header.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { signInWithForm } from './patron-forms.ts';

/** Wrong PINs a client may send in a window before it is paused (CARREL_PIN_KEY_FAILURES). */
const CLIENT_LIMIT = 3;

describe(`the catalogue's sign-in limits per client on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ CARREL_PIN_KEY_FAILURES: String(CLIENT_LIMIT) });
  });
  after(() => t.close());

  const signIn = (address: string, barcode: string, pin: string) => signInWithForm(t.app, barcode, pin, address);

  it('counts the wrong PINs of every address of an IPv6 /64 together, and another /64 apart', async () => {
    await t.services.patrons.create({ names: ['Sixty, Four'], barcodes: ['V6-1'], pin: 'Four-pin-6464' });
    // Each wrong try from another address of the same /64, on cards nobody holds.
    for (let i = 0; i < CLIENT_LIMIT; i++) {
      const res = await signIn(`2001:db8:0:1::${i + 10}`, `NOBODY-${i}`, 'Wrong-pin-0000');
      assert.equal(res.statusCode, 400, `try ${i + 1}`);
    }
    const paused = await signIn('2001:db8:0:1::99', 'V6-1', 'Four-pin-6464');
    assert.equal(paused.statusCode, 429, 'a fresh address of the same /64 is paused with the others');
    assert.match(paused.body, /Signing in from here or with this card is paused after too many wrong tries/);
    assert.ok(Number(paused.headers['retry-after']) >= 1, 'Retry-After says when to try again');
    const other = await signIn('2001:db8:0:2::10', 'V6-1', 'Four-pin-6464');
    assert.equal(other.statusCode, 303, 'another /64 is another client');
  });

  it('counts IPv4 clients by their own address', async () => {
    await t.services.patrons.create({ names: ['Four, Vee'], barcodes: ['V4-1'], pin: 'Vee-pin-4444' });
    for (let i = 0; i < CLIENT_LIMIT; i++) assert.equal((await signIn('192.0.2.7', `NOBODY-4-${i}`, 'Wrong-pin-0000')).statusCode, 400);
    assert.equal((await signIn('192.0.2.7', 'V4-1', 'Vee-pin-4444')).statusCode, 429);
    assert.equal((await signIn('192.0.2.8', 'V4-1', 'Vee-pin-4444')).statusCode, 303);
  });
});
