// POST /v6/patrons/validate and /v6/patrons/auth: right and wrong PINs, unknown barcodes, the
// attempt limits per barcode and per key (shared by server processes), reset on success.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import { hashPin, verifyPin } from '../../src/patrons/pin.ts';
import { assertRefused, caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

const PIN = 'Zx9-quokka-5172';

type Res = { statusCode: number; headers: Record<string, unknown>; json(): any; body: string };
interface Api {
  send(method: 'POST', url: string, payload?: unknown): Promise<Res>;
}
/** Calls with a token on an app: the test app, or a second server process on the same database. */
const on = (app: BuiltApp['app'], token: string): Api => ({
  send: (method, url, payload) =>
    app.inject({ method, url, headers: { authorization: token }, ...(payload === undefined ? {} : { payload: payload as object }) }),
});

describe(`patron PIN validation on ${ENGINE}`, () => {
  let t: TestApp;
  let writer: Caller;
  let validator: Api;
  let patronId: string;
  before(async () => {
    // Small limits so the tests reach them: 3 failures per barcode per 15 minutes, 8 per key per minute.
    t = await createTestApp({ CARREL_PIN_BARCODE_FAILURES: '3', CARREL_PIN_KEY_FAILURES: '8' });
    writer = caller(t, await bearer(t, ['Patrons_Write']));
    validator = on(t.app, await bearer(t, ['Patrons_Validate']));
    patronId = await create(writer, '/v6/patrons', { names: ['Curie, Marie'], barcodes: ['31000001', 'alt-0001'], pin: PIN });
    await create(writer, '/v6/patrons', { names: ['No Pin, Nora'], barcodes: ['31000002'] });
    for (let i = 3; i <= 8; i++)
      await create(writer, '/v6/patrons', { names: [`Patron ${i}`], barcodes: [`3100000${i}`], pin: `pin-${i}-x` });
  });
  after(() => t.close());

  const validate = (api: Api, barcode: string, pin: string) => api.send('POST', '/v6/patrons/validate', { barcode, pin });
  const invalid = (res: Res) => {
    assertRefused(res, 400, 108);
    assert.equal(res.json().description, 'Invalid barcode or PIN');
  };
  const tooMany = (res: Res) => {
    assertRefused(res, 429, 134);
    assert.ok(Number(res.headers['retry-after']) >= 1, 'Retry-After');
  };

  it('hashes with scrypt and verifies in constant time, unknown hashes never matching', async () => {
    const hash = await hashPin('1234');
    assert.match(hash, /^scrypt\$4096\$8\$1\$/);
    assert.notEqual(hash, await hashPin('1234'), 'salted');
    assert.equal(await verifyPin('1234', hash), true);
    assert.equal(await verifyPin('1235', hash), false);
    assert.equal(await verifyPin('1234', undefined), false);
    assert.equal(await verifyPin('1234', 'garbage'), false);
    // Hashes that cannot be what hashPin made never match, even where they would compare empty or weak.
    const [, , , , salt] = hash.split('$');
    const emptyHash = await verifyPin('', `scrypt$4096$8$1$${salt}$`);
    assert.equal(emptyHash, false);
    const weak = (n: number, r: number, p: number, length: number) =>
      `scrypt$${n}$${r}$${p}$${salt}$${crypto.scryptSync('1234', Buffer.from(salt!, 'base64'), length, { N: n, r, p }).toString('base64')}`;
    assert.equal(await verifyPin('1234', weak(4096, 8, 1, 1)), false, 'a one-byte hash');
    assert.equal(await verifyPin('1234', weak(2, 1, 1, 32)), false, 'cheap parameters');
    assert.equal(await verifyPin('1234', weak(4096, 8, 1, 32)), true, 'the known parameters');
    assert.equal(await verifyPin('1234', hash.replace(/\$[^$]*$/, '$')), false, 'no hash');
    // The same PIN typed as composed or decomposed characters matches.
    assert.equal(await verifyPin('Cafe\u0301', await hashPin('Caf\u00e9')), true);
  });

  it('answers 204 to the right PIN and 400 "Invalid barcode or PIN" to anything else', async () => {
    assert.equal((await validate(validator, '31000001', PIN)).statusCode, 204);
    assert.equal((await validator.send('POST', '/v5/patrons/validate', { barcode: 'alt-0001', pin: PIN })).statusCode, 204);
    assert.equal(
      (await validator.send('POST', '/iii/sierra-api/v6/patrons/validate', { barcode: ' 31000001 ', pin: PIN })).statusCode,
      204,
    );
    invalid(await validate(validator, '31000001', `${PIN}x`));
    invalid(await validate(validator, '31000001', PIN.toLowerCase()));
    invalid(await validate(validator, 'nobody-here', PIN));
    invalid(await validate(validator, '31000002', PIN)); // a patron without a PIN
    invalid(await validate(validator, '', PIN));
    assertRefused(await validator.send('POST', '/v6/patrons/validate', { barcode: '31000001' }), 400, 126);
    assertRefused(await validator.send('POST', '/v6/patrons/validate', { barcode: '31000001', pin: PIN, extra: 1 }), 400, 126);
    assertRefused(await on(t.app, '').send('POST', '/v6/patrons/validate', { barcode: '31000001', pin: PIN }), 401, 113);
  });

  it('authenticates a patron, answering its id', async () => {
    const res = await validator.send('POST', '/v6/patrons/auth', { authMethod: 'native', patronId: '31000001', patronSecret: PIN });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.body, patronId);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    invalid(await validator.send('POST', '/v6/patrons/auth', { patronId: '31000001', patronSecret: 'wrong-pin' }));
    assertRefused(
      await validator.send('POST', '/v6/patrons/auth', { authMethod: 'ldap', patronId: '31000001', patronSecret: PIN }),
      400,
      108,
    );
  });

  it('locks a barcode after 3 failures in its window, even for the right PIN; success resets the count', async () => {
    const api = on(t.app, await bearer(t, ['Patrons_Validate']));
    invalid(await validate(api, '31000003', 'wrong-1'));
    invalid(await validate(api, '31000003', 'wrong-2'));
    assert.equal((await validate(api, '31000003', 'pin-3-x')).statusCode, 204); // resets
    for (let i = 0; i < 3; i++) invalid(await validate(api, '31000003', `wrong-${i}`));
    tooMany(await validate(api, '31000003', 'pin-3-x'));
    tooMany(await validator.send('POST', '/v6/patrons/auth', { patronId: '31000003', patronSecret: 'pin-3-x' })); // any key
    assert.equal((await validate(api, '31000004', 'pin-4-x')).statusCode, 204, 'other barcodes unaffected');
    // Unknown barcodes are counted alike, so the answer does not tell which barcodes exist.
    for (let i = 0; i < 3; i++) invalid(await validate(api, 'no-such-card', `wrong-${i}`));
    tooMany(await validate(api, 'no-such-card', 'whatever'));
    // When the window is over, the barcode may be tried again.
    await t.testDb.db.query("update patron_validation_failures set window_start = window_start - interval '16 minutes'");
    assert.equal((await validate(api, '31000003', 'pin-3-x')).statusCode, 204);
  });

  it('counts attempts made at the same moment: no more than the limit get their PIN checked', async () => {
    const api = on(t.app, await bearer(t, ['Patrons_Validate']));
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => validate(api, '31000005', `guess-${i}`)));
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [400, 400, 400, 429, 429, 429, 429, 429, 429, 429]);
  });

  it('limits failures per API key across barcodes, and across server processes', async () => {
    const token = await bearer(t, ['Patrons_Validate']);
    const api = on(t.app, token);
    // A second server process on the same database: the counts are shared.
    const second: BuiltApp = await buildApp({ config: t.config, db: t.testDb.db, logStream: false });
    second.state.schemaReady = true;
    try {
      const other = on(second.app, token);
      for (let i = 0; i < 8; i++) invalid(await validate(i % 2 ? api : other, `guess-card-${i}`, 'wrong-pin'));
      tooMany(await validate(other, '31000006', 'pin-6-x'));
      tooMany(await validate(api, '31000006', 'pin-6-x'));
    } finally {
      await second.app.close();
    }
    assert.equal((await validate(validator, '31000006', 'pin-6-x')).statusCode, 204, 'other keys unaffected');
  });

  it('never counts a barcode attempt for a key over its limit, so such a key cannot lock patrons out', async () => {
    const api = on(t.app, await bearer(t, ['Patrons_Validate']));
    for (let i = 0; i < 8; i++) invalid(await validate(api, `spent-key-${i}`, 'wrong-pin'));
    for (let i = 0; i < 10; i++) tooMany(await validate(api, '31000007', `wrong-${i}`));
    assert.equal((await validate(validator, '31000007', 'pin-7-x')).statusCode, 204, 'the barcode was not locked');
  });

  it("counts a key's attempts before checking PINs: of many at the same moment, exactly the limit get checked", async () => {
    const api = on(t.app, await bearer(t, ['Patrons_Validate']));
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => validate(api, `rush-card-${i}`, 'wrong-pin')));
    const statuses = answers.map((r) => r.statusCode);
    assert.equal(statuses.filter((s) => s === 400).length, 8, statuses.join(' '));
    assert.equal(statuses.filter((s) => s === 429).length, 32);
    // A right PIN takes its attempt back, so successes never use up the key.
    const fresh = on(t.app, await bearer(t, ['Patrons_Validate']));
    for (let i = 0; i < 12; i++) assert.equal((await validate(fresh, '31000008', 'pin-8-x')).statusCode, 204);
    for (let i = 0; i < 8; i++) invalid(await validate(fresh, `fresh-card-${i}`, 'wrong-pin'));
    tooMany(await validate(fresh, '31000008', 'pin-8-x'));
  });

  it("counts failures per patron: its barcode's other spellings, its other barcodes and the Patron API share one count", async () => {
    const api = on(t.app, await bearer(t, ['Patrons_Validate']));
    const id = await create(writer, '/v6/patrons', { names: ['Spelling, Sam'], barcodes: ['Spell-0009', 'alt-0009'], pin: 'pin-9-x' });
    const caseless = (barcode: string, pin: string) => api.send('POST', '/v6/patrons/validate', { barcode, pin, caseSensitivity: false });
    invalid(await validate(api, ' Spell-0009', 'wrong-1')); // spaces around it
    invalid(await caseless('spell-0009 ', 'wrong-2')); // another letter case
    invalid(await validate(api, 'alt-0009', 'wrong-3')); // its other barcode
    tooMany(await validate(api, 'Spell-0009', 'pin-9-x'));
    tooMany(await caseless('SPELL-0009', 'pin-9-x'));
    // The Patron API's pintest, by record number, counts against the same patron.
    const pintest = await t.app.inject({ method: 'GET', url: `/PATRONAPI/.p${id}/pin-9-x/pintest` });
    assert.match(pintest.body, /Too many failed PIN attempts/);
    // Unknown barcodes are still counted per spelling (letter case and spaces aside).
    invalid(await validate(api, 'Nobody-0009', 'wrong-1'));
    invalid(await caseless(' nobody-0009', 'wrong-2'));
    invalid(await validate(api, 'NOBODY-0009 ', 'wrong-3'));
    tooMany(await validate(api, 'nobody-0009', 'wrong-4'));
  });

  it('counts Patron API failures against the patron, whichever id named it', async () => {
    const api = on(t.app, await bearer(t, ['Patrons_Validate']));
    const id = await create(writer, '/v6/patrons', { names: ['Ids, Ida'], barcodes: ['first-0010', 'second-0010'], pin: 'pin-10-x' });
    for (const named of [`.p${id}`, 'second-0010', 'first-0010']) {
      const res = await t.app.inject({ method: 'GET', url: `/PATRONAPI/${named}/wrong-pin/pintest` });
      assert.match(res.body, /ERRNUM=4/, named);
    }
    tooMany(await validate(api, 'second-0010', 'pin-10-x'));
  });

  it('keeps PINs and barcodes tried out of the database and the log', async () => {
    const rows = await t.testDb.db.query<{ subject: Uint8Array }>('select subject from patron_validation_failures');
    assert.ok(rows.length > 0);
    for (const row of rows) assert.equal(Buffer.from(row.subject).length, 32, 'a SHA-256, not the barcode');
    const log = t.logText();
    assert.ok(log.includes('/v6/patrons/validate'), 'requests are logged');
    for (const secret of [PIN, 'pin-3-x', 'wrong-pin', 'guess-1', 'no-such-card']) assert.ok(!log.includes(secret), `${secret} logged`);
  });
});
