// Per-key rate limits: 429 code 134 with Retry-After past a key's requests per minute in a route
// family; unlimited keys and the server's default; counts shared by processes through the database;
// the last minute slides.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RateLimiter } from '../../src/auth/rate-limit.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { withRoomInMinute } from '../helpers/minute.ts';

describe(`rate limits on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ CARREL_RATE_LIMIT: '5' });
  });
  after(() => t.close());

  async function tokenFor(rateLimit: number | null): Promise<string> {
    const key = await t.services.auth.createKey('limited', ['all'], rateLimit);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v6/token',
      headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
    });
    return `Bearer ${res.json().access_token as string}`;
  }
  const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: token } });

  it("refuses a key's request past its limit in a route family, 429 code 134 with Retry-After, and counts families apart", async () => {
    const token = await tokenFor(3);
    for (let i = 0; i < 3; i++) assert.equal((await get(token, '/v6/patrons?limit=1')).statusCode, 200);
    const refused = await get(token, '/v6/patrons/metadata');
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().code, 134);
    assert.equal(refused.json().httpStatus, 429);
    assert.match(refused.json().description, /3 requests a minute to \/patrons/);
    const wait = Number(refused.headers['retry-after']);
    assert.ok(Number.isInteger(wait) && wait >= 1 && wait <= 60, String(refused.headers['retry-after']));
    assert.equal((await get(token, '/v6/bibs?limit=1')).statusCode, 200, 'another family has its own count');
    assert.equal((await get(token, '/v6/info/token')).statusCode, 200);
  });

  it("applies the server's default (CARREL_RATE_LIMIT) to a key with none, and nothing to an unlimited key", async () => {
    const plain = await tokenFor(null);
    const unlimited = await tokenFor(0);
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await get(plain, '/v6/items?limit=1')).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
    for (let i = 0; i < 12; i++) assert.equal((await get(unlimited, '/v6/items?limit=1')).statusCode, 200);
  });

  it('refuses a rate limit that is not a whole number of requests', async () => {
    await assert.rejects(t.services.auth.createKey('bad', ['all'], -1), /whole number/);
    await assert.rejects(t.services.auth.createKey('bad', ['all'], 1.5), /whole number/);
  });

  it('shares the counts of several processes through the database', async () => {
    const key = await t.services.auth.createKey('shared', ['all'], 4);
    const keyRowId = key.id;
    const now = Date.now(); // counts of minutes long gone are dropped as the limiter flushes
    const [a, b] = [new RateLimiter(t.testDb.db, 100), new RateLimiter(t.testDb.db, 100)];
    for (let i = 0; i < 3; i++) assert.equal(a.take(keyRowId, 4, 'bibs', now), undefined);
    await a.flush();
    assert.equal(b.take(keyRowId, 4, 'bibs', now), undefined, 'b has not heard of a yet: its fourth');
    await b.flush(); // b adds its one and hears the three of a
    assert.equal(b.take(keyRowId, 4, 'bibs', now)?.perMinute, 4, 'b now knows the key made 4');
    assert.equal(a.take(keyRowId, 4, 'bibs', now), undefined, 'a has not heard of b yet');
    await a.flush();
    assert.ok(a.take(keyRowId, 4, 'bibs', now), 'a knows the key made 5');
    const counted = await t.testDb.db.query<{ count: number }>('select sum(count)::int as count from rate_counts where key_id = $1', [
      keyRowId,
    ]);
    assert.equal(counted[0]?.count, 5);
  });

  it('still counts the requests a flush is adding while the database has not answered', async () => {
    const key = await t.services.auth.createKey('in flight', ['all'], 4);
    const limiter = new RateLimiter(t.testDb.db, 100);
    const now = Date.now();
    for (let i = 0; i < 3; i++) assert.equal(limiter.take(key.id, 4, 'bibs', now), undefined);
    // Taken before the flush's statement can have been answered: the three sent must still count.
    const flushed = limiter.flush();
    assert.equal(limiter.take(key.id, 4, 'bibs', now), undefined, 'the fourth');
    assert.ok(limiter.take(key.id, 4, 'bibs', now), 'the fifth is refused while the flush is on its way');
    await flushed;
    assert.ok(limiter.take(key.id, 4, 'bibs', now), 'and after it, from the count the database answered');
    await limiter.flush();
    const counted = await t.testDb.db.query<{ count: number }>('select sum(count)::int as count from rate_counts where key_id = $1', [
      key.id,
    ]);
    assert.equal(counted[0]?.count, 4);
  });

  it('slides: the previous minute counts for the part of it still inside the last 60 s', async () => {
    const key = await t.services.auth.createKey('sliding', ['all'], 10);
    const limiter = new RateLimiter(t.testDb.db, 100);
    const minute = (Math.floor(Date.now() / 60_000) - 1) * 60_000; // the minute before this one
    for (let i = 0; i < 10; i++) assert.equal(limiter.take(key.id, 10, 'items', minute + 30_000), undefined);
    assert.ok(limiter.take(key.id, 10, 'items', minute + 30_000), 'full');
    // 6 s into the next minute, 90% of the previous minute's ten still count: 9 + 1 = 10, one more is refused.
    assert.equal(limiter.take(key.id, 10, 'items', minute + 66_000), undefined);
    assert.ok(limiter.take(key.id, 10, 'items', minute + 66_000));
    // 54 s in, a tenth of them count: room for more.
    assert.equal(limiter.take(key.id, 10, 'items', minute + 114_000), undefined);
  });

  it('learns on its first flush of a minute what the other processes did in the minute before', async () => {
    const key = await t.services.auth.createKey('turn of the minute', ['all'], 10);
    const [a, b] = [new RateLimiter(t.testDb.db, 100), new RateLimiter(t.testDb.db, 100)];
    // The flushes drop counts older than the minute before the clock's: not the ones made here.
    await withRoomInMinute(10_000);
    const thisMinute = Math.floor(Date.now() / 60_000) * 60_000;
    for (let i = 0; i < 10; i++) assert.equal(a.take(key.id, 10, 'items', thisMinute - 1_000), undefined);
    await a.flush();
    // b never heard of the key: its first request of this minute goes ahead on its own count.
    assert.equal(b.take(key.id, 10, 'items', thisMinute + 1_000), undefined);
    await b.flush();
    // 1 s in, 59/60 of a's ten still count: 9.8 + 1, with one more past the limit.
    assert.ok(b.take(key.id, 10, 'items', thisMinute + 1_000), 'b has heard of the minute before');
  });
});
