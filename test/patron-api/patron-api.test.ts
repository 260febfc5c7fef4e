// The Patron API (src/patron-api): dump and pintest as Sierra answers them, read the way published
// consumers read them: Library Simplified's parser (lines ending in <BR>, a leading <HTML><BODY>
// stripped, fields keyed by the code in brackets, the first '=' splitting) and Brown University's
// (lines[1:-2] of the body split on newlines), both written again here from their published code.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setUpLibrary, addBib, addItem } from '../helpers/circulation.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';
import { checkDigit } from '../../src/patron-api/service.ts';
import { servePatronApi } from '../../src/patron-api/index.ts';

/** Library Simplified's reading: every field by its code (`pb`, `p47`), values in order. */
function byCode(body: string): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (let line of body.split('\n')) {
    if (line.startsWith('<HTML><BODY>')) line = line.slice('<HTML><BODY>'.length);
    if (!line.endsWith('<BR>')) continue;
    line = line.slice(0, -'<BR>'.length);
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq);
    const code = /\[(.*)\]/.exec(key)?.[1] ?? key;
    fields.set(code, [...(fields.get(code) ?? []), line.slice(eq + 1)]);
  }
  return fields;
}

/** Brown's reading: the lines between the first and the last two, each `LABEL[pCODE]=value<BR>`. */
function brownLines(body: string): { label: string; code: string; value: string }[] {
  return body
    .split('\n')
    .slice(1, -2)
    .map((line) => {
      const match = /^([A-Z0-9 #./-]*)(\[p[a-z0-9!^=]*\])=(.*)<BR>$/.exec(line.trim());
      assert.ok(match, `a line Brown's parser reads: ${line}`);
      return { label: match[1]!.trim(), code: match[2]!, value: match[3]! };
    });
}

const one = (fields: Map<string, string[]>, code: string) => fields.get(code)?.[0];

describe(`the Patron API on ${ENGINE}`, () => {
  let t: TestApp;
  let writer: string;
  let pinny: { id: string; barcode: string };
  const call = (url: string, remoteAddress = '127.0.0.1') => t.app.inject({ method: 'GET', url, remoteAddress });

  before(async () => {
    t = await createTestApp({ CARREL_PIN_BARCODE_FAILURES: '3' });
    await setUpLibrary(t.testDb.db);
    writer = await bearer(t, ['all']);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v6/patrons',
      headers: { authorization: writer },
      payload: {
        names: ['Sheldon, Alice'],
        barcodes: ['21913000482538', '44444444444447'],
        uniqueIds: ['alice'],
        pin: 'a/b c%1',
        emails: ['alice@example.org'],
        patronType: 3,
        expirationDate: '2027-04-01',
        birthDate: '1971-01-01',
        homeLibraryCode: 'mn',
        addresses: [{ lines: ['111 Main Street', 'New York, NY 10001'], type: 'a' }],
        phones: [{ number: '510-555-1212', type: 't' }],
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    pinny = { id: String(res.json().link).split('/').pop()!, barcode: '21913000482538' };
  });
  after(() => t.close());

  it('dumps a patron by barcode, either barcode, unique id and record number, the same each way', async () => {
    const byBarcode = await call(`/PATRONAPI/${pinny.barcode}/dump`);
    assert.equal(byBarcode.statusCode, 200);
    assert.equal(byBarcode.headers['content-type'], 'text/html; charset=UTF-8');
    assert.match(byBarcode.body, /^<HTML><BODY>\n(?:[A-Z0-9 #./-]+\[p[a-z0-9!^=]+\]=[^\n]*<BR>\n)+<\/BODY><\/HTML>\n$/);
    for (const id of ['44444444444447', 'alice', `.p${pinny.id}`, `.p${pinny.id}${checkDigit(pinny.id)}`]) {
      assert.equal((await call(`/PATRONAPI/${encodeURIComponent(id)}/dump`)).body, byBarcode.body, id);
    }
    const fields = byCode(byBarcode.body);
    assert.equal(one(fields, 'p!'), 'p');
    assert.equal(one(fields, 'p47'), '3');
    assert.equal(one(fields, 'p43'), '04-01-27');
    assert.equal(one(fields, 'p51'), '01-01-1971');
    assert.equal(one(fields, 'p53'), 'mn   ');
    assert.equal(one(fields, 'p56'), '-');
    assert.equal(one(fields, 'p81'), pinny.id);
    assert.equal(one(fields, 'p96'), '$0.00');
    assert.equal(one(fields, 'p50'), '0');
    assert.deepEqual(fields.get('pb'), ['21913000482538', '44444444444447']);
    assert.deepEqual(fields.get('pn'), ['Sheldon, Alice']);
    assert.deepEqual(fields.get('pz'), ['alice@example.org']);
    assert.deepEqual(fields.get('pu'), ['alice']);
    assert.deepEqual(fields.get('pa'), ['111 Main Street$New York, NY 10001']);
    assert.deepEqual(fields.get('pt'), ['510-555-1212']);
    // Never the PIN: no PIN field, and not its text.
    assert.equal(fields.get('p='), undefined);
    assert.ok(!byBarcode.body.includes('a/b c%1'));
    // Brown's parser reads every line, with Sierra's labels; fixed fields in number order before the variable ones.
    const lines = brownLines(byBarcode.body);
    assert.deepEqual(
      lines.filter((l) => ['[p47]', '[p43]', '[p96]', '[pn]', '[pb]'].includes(l.code)).map((l) => `${l.label}${l.code}`),
      ['EXP DATE[p43]', 'P TYPE[p47]', 'MONEY OWED[p96]', 'PATRN NAME[pn]', 'P BARCODE[pb]', 'P BARCODE[pb]'],
    );
    const numbers = lines
      .map((l) => /^\[p(\d+)\]$/.exec(l.code)?.[1])
      .filter(Boolean)
      .map(Number);
    assert.deepEqual(
      numbers,
      [...numbers].sort((a, b) => a - b),
    );
  });

  it('shows money owed, loans, holds, a manual block and an expiry as the REST API has them', async () => {
    const bib = await addBib(t.testDb.db, 'Held book');
    const item = await addItem(t.testDb.db, bib, 'mn', '-', 'LOANED1');
    const api = (method: 'POST' | 'PUT', url: string, payload: object) =>
      t.app.inject({ method, url, headers: { authorization: writer }, payload });
    assert.equal((await api('POST', `/v6/patrons/${pinny.id}/fines/charge`, { amount: 1234, reason: 'lost card' })).statusCode, 200);
    assert.equal((await api('POST', `/v6/patrons/${pinny.id}/checkouts`, { itemBarcode: 'LOANED1' })).statusCode, 200);
    const other = await addBib(t.testDb.db, 'Wanted book');
    await addItem(t.testDb.db, other, 'mn', '-', 'WANTED1');
    const held = await api('POST', `/v6/patrons/${pinny.id}/holds/requests`, {
      recordType: 'b',
      recordNumber: Number(other),
      pickupLocation: 'mn',
    });
    assert.equal(held.statusCode, 204, held.body);
    const rest = (
      await t.app.inject({ method: 'GET', url: `/v6/patrons/${pinny.id}?fields=moneyOwed,fixedFields`, headers: { authorization: writer } })
    ).json();
    let fields = byCode((await call(`/PATRONAPI/${pinny.barcode}/dump`)).body);
    assert.equal(one(fields, 'p96'), `$${Number(rest.moneyOwed).toFixed(2)}`);
    assert.equal(one(fields, 'p96'), '$12.34');
    assert.equal(one(fields, 'p50'), String(rest.fixedFields['50'].value));
    assert.equal(one(fields, 'p50'), '1');
    assert.equal(fields.get('p8')?.length, 1);
    assert.match(
      one(fields, 'p8')!,
      new RegExp(`^P#=${pinny.id}, I#=${other}, P=\\d\\d-\\d\\d-\\d\\d, NNB=.* \\(\\d+ days\\), RLA=0, NNA=.*, ST=0, TP=b, PU=mn   $`),
    );
    assert.ok(item);

    assert.equal((await api('PUT', `/v6/patrons/${pinny.id}`, { blockInfo: { code: 'm' }, expirationDate: '2020-01-31' })).statusCode, 204);
    fields = byCode((await call(`/PATRONAPI/${pinny.barcode}/dump`)).body);
    assert.equal(one(fields, 'p56'), 'm');
    assert.equal(one(fields, 'p43'), '01-31-20');
  });

  it('answers an unknown patron as Sierra does: ERRNUM=1, with a 200', async () => {
    for (const id of ['nobody-here', '.p9999999', `.p${pinny.id}9`, '%20']) {
      const res = await call(`/PATRONAPI/${id}/dump`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.body, '<HTML><BODY>\nERRNUM=1<BR>\nERRMSG=Requested record not found<BR>\n</BODY></HTML>\n', id);
    }
  });

  it('tests a PIN: RETCOD=0, a wrong one RETCOD=1 ERRNUM=4, none RETCOD=2, an unknown patron ERRNUM=1 only', async () => {
    const pin = encodeURIComponent('a/b c%1');
    const ok = await call(`/PATRONAPI/${pinny.barcode}/${pin}/pintest`);
    // Wellcome's check: the text without tags, trimmed, is exactly RETCOD=0.
    assert.equal(ok.body.replace(/<[^>]*>/g, '').trim(), 'RETCOD=0');
    const wrong = byCode((await call(`/PATRONAPI/${pinny.barcode}/wrong/pintest`)).body);
    assert.deepEqual([one(wrong, 'RETCOD'), one(wrong, 'ERRNUM'), one(wrong, 'ERRMSG')], ['1', '4', 'Invalid patron PIN']);
    const unknown = byCode((await call(`/PATRONAPI/nobody-here/${pin}/pintest`)).body);
    assert.deepEqual(
      [one(unknown, 'RETCOD'), one(unknown, 'ERRNUM'), one(unknown, 'ERRMSG')],
      [undefined, '1', 'Requested record not found'],
    );
    const noPin = await t.app.inject({
      method: 'POST',
      url: '/v6/patrons',
      headers: { authorization: writer },
      payload: { names: ['No, Pin'], barcodes: ['NOPIN1'] },
    });
    const missing = byCode((await call('/PATRONAPI/NOPIN1/1234/pintest')).body);
    assert.equal(noPin.statusCode, 200);
    assert.deepEqual([one(missing, 'RETCOD'), one(missing, 'ERRNUM')], ['2', '4']);
    // By record number too.
    assert.equal(byCode((await call(`/PATRONAPI/.p${pinny.id}/${pin}/pintest`)).body).get('RETCOD')?.[0], '0');
  });

  it('counts failed PINs against the same limits as POST /patrons/validate', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v6/patrons',
      headers: { authorization: writer },
      payload: { names: ['Limited, Lee'], barcodes: ['LIMIT1'], pin: '2468' },
    });
    assert.equal(created.statusCode, 200);
    // Three failures allowed per barcode (CARREL_PIN_BARCODE_FAILURES=3): two here, one through REST.
    for (let i = 0; i < 2; i++) assert.equal(one(byCode((await call('/PATRONAPI/LIMIT1/1111/pintest')).body), 'ERRNUM'), '4');
    const validate = (pin: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v6/patrons/validate',
        headers: { authorization: writer },
        payload: { barcode: 'LIMIT1', pin },
      });
    assert.equal((await validate('1111')).statusCode, 400);
    // The fourth attempt is refused without the PIN being checked, the right PIN included, on both doors.
    const limited = await call('/PATRONAPI/LIMIT1/2468/pintest');
    assert.equal(one(byCode(limited.body), 'RETCOD'), '1');
    assert.match(one(byCode(limited.body), 'ERRMSG')!, /Too many failed PIN attempts/);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal((await validate('2468')).statusCode, 429);
  });

  it('counts the wrong PINs of every address of an IPv6 /64 together, as the other doors do', async () => {
    const six = await createTestApp({ CARREL_PATRONAPI_ALLOW: '2001:db8::/32', CARREL_PIN_KEY_FAILURES: '2' });
    try {
      await six.services.patrons.create({ names: ['Sixty, Six'], barcodes: ['SIX1'], pin: '6464' });
      const pintest = (pin: string, remoteAddress: string) =>
        six.app.inject({ method: 'GET', url: `/PATRONAPI/SIX1/${pin}/pintest`, remoteAddress });
      // Two wrong PINs, each from another address of one /64: its budget (CARREL_PIN_KEY_FAILURES=2) is spent.
      for (const address of ['2001:db8:0:1::10', '2001:db8:0:1::11'])
        assert.equal(one(byCode((await pintest('1111', address)).body), 'ERRNUM'), '4', address);
      const paused = byCode((await pintest('6464', '2001:db8:0:1::12')).body);
      assert.match(one(paused, 'ERRMSG')!, /Too many failed PIN attempts/);
      assert.equal(one(byCode((await pintest('6464', '2001:db8:0:2::10')).body), 'RETCOD'), '0', 'another /64 is another client');
    } finally {
      await six.close();
    }
  });

  it('answers only the allowed addresses, and never logs a PIN', async () => {
    const fenced = await createTestApp({ CARREL_PATRONAPI_ALLOW: '10.0.0.0/8, 2001:db8::/32' });
    try {
      const from = (remoteAddress: string) => fenced.app.inject({ method: 'GET', url: '/PATRONAPI/x/dump', remoteAddress });
      for (const address of ['127.0.0.1', '11.0.0.1', '2001:db9::1']) {
        const res = await from(address);
        assert.equal(res.statusCode, 403, address);
        assert.match(res.body, /ERRMSG=Access denied/);
      }
      for (const address of ['10.1.2.3', '::ffff:10.9.9.9', '2001:db8::7']) assert.equal((await from(address)).statusCode, 200, address);
      // A flood of calls from addresses not allowed writes a few lines a minute, not one a call.
      for (let i = 0; i < 60; i++) assert.equal((await from(`11.0.${i}.1`)).statusCode, 403);
      const refused = fenced.logs.filter((line) => line.msg === 'Patron API call from an address not allowed');
      assert.ok(refused.length >= 1 && refused.length <= 10, `${refused.length} lines for 63 calls`);
    } finally {
      await fenced.close();
    }
    await call(`/PATRONAPI/${pinny.barcode}/${encodeURIComponent('a/b c%1')}/pintest`);
    await call(`/PATRONAPI/${pinny.barcode}/secret-guess-42/pintest`);
    assert.ok(!t.logText().includes('secret-guess-42'));
    assert.ok(!t.logText().includes('a%2Fb'));
    assert.match(t.logText(), /\/PATRONAPI\/21913000482538\/\[redacted\]\/pintest/);
  });

  it('never logs a PIN however the pintest path is spelled, as the router reads it', async () => {
    const spellings = [
      '/%50ATRONAPI/NOSUCH1/%37s3cretA/pintest',
      '/PATRONAPI/NOSUCH1/s3cretB/%70intest',
      '/PATRONAPI/NOSUCH1/%73%33cretC/pintest',
      '//PATRONAPI//NOSUCH1//s3cretD//pintest/',
    ];
    for (const url of spellings) {
      const res = await call(url);
      assert.equal(res.statusCode, 200, url);
      assert.equal(one(byCode(res.body), 'ERRNUM'), '1', `${url} is a pintest: ${res.body}`);
    }
    // Not a route (the router is case-sensitive), but logged as carefully.
    assert.equal((await call('/PATRONAPI/NOSUCH1/s3cretE/%50%49%4E%54%45%53%54')).statusCode, 404);
    const lines = t.logs.filter((l) => l.msg === 'request' && String(l.url).includes('NOSUCH1'));
    assert.equal(lines.length, spellings.length + 1);
    for (const line of lines) assert.match(String(line.url), /NOSUCH1\/+\[redacted\]\/+/);
    assert.doesNotMatch(t.logText(), /s3cret|%33cret/);
  });

  it('serves the Patron API alone on a port of its own', async () => {
    const server = servePatronApi(t.app, t.config);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const port = (server.address() as AddressInfo).port;
      const get = (path: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port, path }, (res) => {
              let body = '';
              res.on('data', (chunk: Buffer) => (body += chunk.toString()));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
            })
            .on('error', reject);
        });
      const dump = await get(`/PATRONAPI/${pinny.barcode}/dump`);
      assert.equal(dump.status, 200);
      assert.equal(one(byCode(dump.body), 'p81'), pinny.id);
      assert.equal((await get('/v6/patrons')).status, 404);
      assert.equal((await get('/api')).status, 404);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
