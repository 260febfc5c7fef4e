// POST /v6/token under repeated failures and floods: failures per client address and per key are
// slowed, then refused (429 code 134, Retry-After) while other addresses and keys still get in;
// the bound on scrypt work refuses a flood's surplus at once; failures' log lines are sampled.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NewKey } from '../../src/auth/service.ts';
import { scryptCounts } from '../../src/shared/scrypt.ts';
import { assertRefused } from '../helpers/api.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { captureLogs, createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDb, ENGINE } from '../helpers/db.ts';
import { recording } from '../helpers/recording-db.ts';

const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

describe(`token request limits on ${ENGINE}`, () => {
  let t: TestApp;
  const key = (name: string) => t.services.auth.createKey(name, ['Bibs_Read']);
  const token = (from: string, key: string, secret: string) =>
    t.app.inject({ method: 'POST', url: '/v6/token', remoteAddress: from, headers: { authorization: basic(key, secret) } });
  const refused = (res: { statusCode: number; headers: Record<string, unknown>; json(): any; body: string }) => {
    assertRefused(res, 429, 134);
    assert.ok(Number(res.headers['retry-after']) >= 1, 'Retry-After');
  };
  /** The failure lines logged since `from` (an index into t.logs) for an address. */
  const failures = (from: number, remote: string) =>
    t.logs.slice(from).filter((l) => l.msg === 'token request failed' && l.remote === remote);

  before(async () => {
    // Small limits so the tests reach them: 4 failures per address, 6 per key, in 5 minutes.
    t = await createTestApp({ CARREL_LOGIN_ADDRESS_FAILURES: '4', CARREL_LOGIN_ACCOUNT_FAILURES: '6' });
  });
  after(() => t.close());

  it('slows the failures of one address past half its limit, then refuses it; another address still gets in', async () => {
    const a: NewKey = await key('kiosk a');
    const b: NewKey = await key('kiosk b');
    const start = t.logs.length;
    for (let i = 0; i < 4; i++) assertRefused(await token('10.0.0.1', a.key, `wrong-${i}`), 401, 113);
    assert.deepEqual(
      failures(start, '10.0.0.1').map((l) => l.slowedMs),
      [0, 0, 250, 500],
      'the third and fourth failures are held back',
    );
    refused(await token('10.0.0.1', a.key, a.secret)); // the right secret, not checked
    refused(await token('10.0.0.1', b.key, b.secret)); // any key, from that address
    assert.match((await token('10.0.0.1', a.key, a.secret)).json().description, /from this address/);
    assert.equal((await token('10.0.0.2', a.key, a.secret)).statusCode, 200, 'another address, the same key');
    assert.equal((await token('10.0.0.3', b.key, b.secret)).statusCode, 200);
  });

  it('refuses a key failed from many addresses, even with its secret; other keys still get in', async () => {
    const [c, d] = [await key('kiosk c'), await key('kiosk d')];
    const start = t.logs.length;
    for (let i = 1; i <= 6; i++) assertRefused(await token(`10.0.1.${i}`, c.key, 'wrong'), 401, 113);
    assert.deepEqual(
      t.logs
        .slice(start)
        .filter((l) => l.msg === 'token request failed')
        .map((l) => l.slowedMs),
      [0, 0, 0, 250, 500, 750],
      "past half the key's limit, failures are held back",
    );
    const locked = await token('10.0.1.7', c.key, c.secret);
    refused(locked);
    assert.match(locked.json().description, /for this account/);
    assert.equal((await token('10.0.1.7', d.key, d.secret)).statusCode, 200, 'another key');
  });

  it('forgets a key’s failures when its secret is given', async () => {
    const e = await key('kiosk e');
    for (let i = 1; i <= 5; i++) assertRefused(await token(`10.0.2.${i}`, e.key, 'wrong'), 401, 113);
    assert.equal((await token('10.0.2.9', e.key, e.secret)).statusCode, 200);
    for (let i = 1; i <= 5; i++) assertRefused(await token(`10.0.3.${i}`, e.key, 'wrong'), 401, 113);
    assert.equal((await token('10.0.3.9', e.key, e.secret)).statusCode, 200);
  });

  it('counts an IPv6 client by its /64 network', async () => {
    const f = await key('kiosk f');
    for (const host of ['a', 'b', 'c', 'd']) assertRefused(await token(`2001:db8:7:7::${host}`, 'no-such-key', 'wrong'), 401, 113);
    refused(await token('2001:db8:7:7:1:2:3:4', f.key, f.secret));
    assert.equal((await token('2001:db8:7:8::1', f.key, f.secret)).statusCode, 200, 'the next /64');
  });

  it('lets a flood from one address hold one check at a time, so a client elsewhere still gets in', async () => {
    const v = await key('kiosk v');
    // More unknown keys at once from one address than the bound on scrypt work holds (2 cores: 32 key checks).
    const flood = Array.from({ length: 80 }, (_, i) => token('10.8.0.1', `no-such-key-${i}`, 'wrong'));
    const valid = await token('10.8.0.2', v.key, v.secret);
    assert.equal(valid.statusCode, 200, valid.body);
    const statuses = (await Promise.all(flood)).map((r) => r.statusCode);
    assert.deepEqual([...new Set(statuses)].sort(), [401, 429]);
    // The address's four failures (this app's limit), then refusals that checked nothing (its own line, or its limit).
    assert.equal(statuses.filter((s) => s === 401).length, 4);
  });

  it('refuses a flood of unknown keys past the bound on scrypt work at once, never queueing without end', async () => {
    const before = scryptCounts();
    // Each from its own address and with its own key, so that only the bound refuses them.
    const flood = await Promise.all(Array.from({ length: 200 }, (_, i) => token(`10.9.${i >> 8}.${i & 255}`, `no-such-key-${i}`, 'wrong')));
    const statuses = flood.map((r) => r.statusCode);
    assert.deepEqual([...new Set(statuses)].sort(), [401, 429], statuses.join(' '));
    const busy = flood.filter((r) => r.statusCode === 429);
    for (const res of busy) {
      refused(res);
      assert.equal(res.headers['retry-after'], '1');
      assert.match(res.json().description, /checking too many passwords and PINs at once/);
    }
    const after = scryptCounts();
    assert.equal(after.refused - before.refused, busy.length, 'every 429 was the bound refusing');
    assert.ok(after.peakWaitingUnits <= after.queueUnits, `waited ${after.peakWaitingUnits} of ${after.queueUnits}`);
    assert.equal(after.running + after.waitingUnits, 0, 'nothing left running or waiting');
    const g = await key('kiosk g');
    assert.equal((await token('10.9.9.9', g.key, g.secret)).statusCode, 200, 'a valid client still gets in');
  });

  it('logs the failures of one address sampled: ten a minute, not one per attempt', async () => {
    const h = await key('kiosk h');
    const start = t.logs.length;
    for (let i = 0; i < 30; i++) await token('10.4.0.1', h.key, `wrong-${i}`);
    const lines = failures(start, '10.4.0.1');
    const requests = t.logs.slice(start).filter((l) => l.msg === 'request' && l.url === '/v6/token');
    // Ten a minute (twenty should the attempts straddle a minute's end), each with its request line.
    assert.ok(lines.length >= 10 && lines.length <= 20, `${lines.length} failure lines`);
    assert.equal(requests.length, lines.length, 'a request line with each failure line, and none without');
    assert.ok(
      lines.some((l) => l.nextLogged === 'the next minute'),
      'the last line of the minute says so',
    );
    assert.equal((await token('10.4.0.2', h.key, h.secret)).statusCode, 200);
    assert.equal(t.logs.at(-1)!.msg, 'request', "others' requests are still logged");
  });
});

describe(`token request refusals on ${ENGINE}`, () => {
  it('refuses an address over its limit without asking the database again', async () => {
    const testDb = await createTestDb();
    const sent: string[] = [];
    const config = loadConfig({ CARREL_LOGIN_ADDRESS_FAILURES: '4', LOG_LEVEL: 'silent' });
    const built = await buildApp({ config, db: recording(testDb.db, sent), logStream: captureLogs().stream });
    built.state.schemaReady = true;
    try {
      const k = await built.services.auth.createKey('kiosk r', ['Bibs_Read']);
      const token = (secret: string) =>
        built.app.inject({ method: 'POST', url: '/v6/token', remoteAddress: '10.7.0.1', headers: { authorization: basic(k.key, secret) } });
      for (let i = 0; i < 4; i++) assert.equal((await token(`wrong-${i}`)).statusCode, 401);
      assert.equal((await token('wrong')).statusCode, 429); // the database says so, once
      sent.length = 0;
      for (let i = 0; i < 20; i++) assert.equal((await token(k.secret)).statusCode, 429);
      assert.deepEqual(sent, [], 'refused from what this process remembers');
    } finally {
      await built.app.close();
      await testDb.drop();
    }
  });
});
