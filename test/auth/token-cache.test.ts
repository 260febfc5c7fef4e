// Bearer tokens remembered by the server (CARREL_TOKEN_CACHE_MS): on PostgreSQL a token checked
// once is answered from memory for a while, yet a key revoked by another process stops working at
// once (its notification); the embedded engine, which cannot hear other processes, never remembers.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { REVOCATIONS } from '../../src/auth/repository.ts';
import { AuthService, type NewKey } from '../../src/auth/service.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';

const basic = (key: NewKey) => `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}`;
const cached = ENGINE === 'postgres';

describe(`remembered tokens on ${ENGINE}`, () => {
  let long: TestApp;
  let short: TestApp;
  before(async () => {
    [long, short] = await Promise.all([
      createTestApp({ CARREL_TOKEN_CACHE_MS: '60000' }),
      createTestApp({ CARREL_TOKEN_CACHE_MS: '1500' }),
    ]);
  });
  after(() => Promise.all([long?.close(), short?.close()]));

  async function tokenOf(t: TestApp, key: NewKey): Promise<string> {
    const res = await t.app.inject({ method: 'POST', url: '/v6/token', headers: { authorization: basic(key) } });
    return res.json().access_token as string;
  }
  const info = (t: TestApp, token: string) =>
    t.app.inject({ method: 'GET', url: '/v6/info/token', headers: { authorization: `Bearer ${token}` } });
  /** Uses the token, gives the server time to start hearing revocations, and uses it again (now remembered). */
  async function remembered(t: TestApp, token: string): Promise<void> {
    assert.equal((await info(t, token)).statusCode, 200);
    await sleep(500);
    assert.equal((await info(t, token)).statusCode, 200);
  }

  it('a key revoked by another process stops working at once', async () => {
    const key = await long.services.auth.createKey('revoked elsewhere', ['all']);
    const token = await tokenOf(long, key);
    await remembered(long, token);
    // Hear the revocation here too. The server subscribed at its first check of the token, on the
    // same listening connection, whose listeners hear a notification in the order they subscribed:
    // by the time this one runs, the server's has forgotten the token.
    let heard = Promise.resolve();
    if (long.testDb.db.listen) {
      let hear = () => {};
      heard = new Promise((resolve) => (hear = resolve));
      await long.testDb.db.listen(
        REVOCATIONS,
        () => hear(),
        () => {},
      );
    }
    // Another process: its own connections, its own AuthService (as `carrel keys revoke` has).
    const other = long.testDb.url ? openPostgres(long.testDb.url, { max: 1, connectTimeoutSec: 5 }) : long.testDb.db;
    try {
      assert.equal(await new AuthService(other, 3600).revokeKey(key.key), true);
    } finally {
      if (other !== long.testDb.db) await other.close();
    }
    await heard;
    assert.equal((await info(long, token)).statusCode, 401, 'the revocation reached the server, not the 60 s the token may be remembered');
    assert.equal((await info(long, token)).json().code, 120);
  });

  it('a key revoked in this process stops working at once', async () => {
    const key = await long.services.auth.createKey('revoked here', ['all']);
    const token = await tokenOf(long, key);
    await remembered(long, token);
    await long.services.auth.revokeKey(key.key);
    assert.equal((await info(long, token)).statusCode, 401);
  });

  it('a token is remembered at most CARREL_TOKEN_CACHE_MS', async () => {
    const key = await short.services.auth.createKey('forgotten', ['all']);
    const token = await tokenOf(short, key);
    await remembered(short, token);
    // Removed behind the server's back (no notification): the server answers from memory until the entry ages out.
    await short.testDb.db.query('delete from access_tokens');
    assert.equal((await info(short, token)).statusCode, cached ? 200 : 401);
    await sleep(1600);
    assert.equal((await info(short, token)).statusCode, 401);
  });
});
