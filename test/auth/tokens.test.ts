// Keys, tokens and the permission hook, in process on the engine under test.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { access } from '../../src/http/access.ts';
import type { NewKey } from '../../src/auth/service.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';

const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

describe(`keys and tokens on ${ENGINE}`, () => {
  let t: TestApp;
  let all: NewKey;
  let patronsOnly: NewKey;
  before(async () => {
    t = await createTestApp();
    t.app.get('/v6/test/bibs', { config: { access: access.need('Bibs_Read') } }, async (request) => ({ key: request.principal?.keyId }));
    all = await t.services.auth.createKey('integration', ['all']);
    patronsOnly = await t.services.auth.createKey('pc reservation', ['Patrons_Read']);
  });
  after(() => t.close());

  const token = async (key: NewKey, extra: { payload?: string | object; headers?: Record<string, string> } = {}) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v6/token',
      headers: { authorization: basic(key.key, key.secret), ...extra.headers },
      payload: extra.payload,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().access_token as string;
  };

  it('issues a bearer token for a form body, a JSON {} body or no body, on every token path', async () => {
    const forms: { payload?: string | object; headers?: Record<string, string> }[] = [
      { payload: 'grant_type=client_credentials', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { payload: {} },
      {},
    ];
    for (const form of forms) assert.ok(await token(all, form));
    for (const url of ['/token', '/v5/token', '/iii/sierra-api/token', '/iii/sierra-api/v6/token', '/v6/token/']) {
      const res = await t.app.inject({ method: 'POST', url, headers: { authorization: basic(all.key, all.secret) } });
      assert.equal(res.statusCode, 200, url);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'token_type']);
      assert.equal(body.token_type, 'bearer');
      assert.equal(body.expires_in, 3600);
    }
  });

  it('refuses wrong credentials, a wrong scheme and another grant type', async () => {
    const wrongSecret = await t.app.inject({ method: 'POST', url: '/v6/token', headers: { authorization: basic(all.key, 'nope') } });
    assert.equal(wrongSecret.statusCode, 401);
    assert.equal(wrongSecret.json().code, 113);
    const unknownKey = await t.app.inject({ method: 'POST', url: '/v6/token', headers: { authorization: basic('nokey', all.secret) } });
    assert.equal(unknownKey.json().code, 113);
    const missing = await t.app.inject({ method: 'POST', url: '/v6/token' });
    assert.equal(missing.statusCode, 401);
    assert.equal(missing.json().code, 113);
    const scheme = await t.app.inject({ method: 'POST', url: '/v6/token', headers: { authorization: 'Bearer abc' } });
    assert.equal(scheme.statusCode, 400);
    assert.equal(scheme.json().code, 121);
    const grant = await t.app.inject({
      method: 'POST',
      url: '/v6/token',
      headers: { authorization: basic(all.key, all.secret) },
      payload: { grant_type: 'password' },
    });
    assert.equal(grant.statusCode, 400);
    assert.equal(grant.json().code, 108);
  });

  it('describes the token at GET /v6/info/token', async () => {
    const bearer = await token(patronsOnly);
    const res = await t.app.inject({ method: 'GET', url: '/v6/info/token', headers: { authorization: `Bearer ${bearer}` } });
    assert.equal(res.statusCode, 200);
    const info = res.json();
    assert.deepEqual(Object.keys(info).sort(), ['authorizationScheme', 'expiresIn', 'grantType', 'keyId', 'roles']);
    assert.equal(info.keyId, patronsOnly.key);
    assert.equal(info.grantType, 'client_credentials');
    assert.ok(info.expiresIn > 3500 && info.expiresIn <= 3600);
    assert.deepEqual(info.roles, [
      { name: 'Patrons_Read', tokenLifetime: 3600, permissions: ['Patrons_Read', 'Patrons_Holds_Read', 'Patrons_Checkouts_Read'] },
    ]);
  });

  it('protects routes: 113 without a token, 121 for another scheme, 120 for a bad token, 116 without the permission', async () => {
    const call = (authorization?: string) =>
      t.app.inject({ method: 'GET', url: '/v6/test/bibs', headers: authorization ? { authorization } : {} });
    const none = await call();
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().code, 113);
    const scheme = await call(basic(all.key, all.secret));
    assert.equal(scheme.statusCode, 400);
    assert.equal(scheme.json().code, 121);
    const bad = await call('Bearer not-a-token');
    assert.equal(bad.statusCode, 401);
    assert.equal(bad.json().code, 120);
    const forbidden = await call(`Bearer ${await token(patronsOnly)}`);
    assert.equal(forbidden.statusCode, 403);
    assert.equal(forbidden.json().code, 116);
    assert.match(forbidden.json().description, /Bibs_Read/);
    const allowed = await call(`Bearer ${await token(all)}`);
    assert.equal(allowed.statusCode, 200);
    assert.deepEqual(allowed.json(), { key: all.key });
  });

  it('refuses an expired token and the tokens of a revoked key', async () => {
    const expiring = await token(all);
    await t.testDb.db.query("update access_tokens set expires_date = now() - interval '1 second'");
    const expired = await t.app.inject({ method: 'GET', url: '/v6/info/token', headers: { authorization: `Bearer ${expiring}` } });
    assert.equal(expired.statusCode, 401);
    assert.equal(expired.json().code, 120);

    const key = await t.services.auth.createKey('to revoke', ['Bibs_Read']);
    const live = await token(key);
    const before = await t.app.inject({ method: 'GET', url: '/v6/test/bibs', headers: { authorization: `Bearer ${live}` } });
    assert.equal(before.statusCode, 200);
    assert.equal(await t.services.auth.revokeKey(key.key), true);
    const afterRevoke = await t.app.inject({ method: 'GET', url: '/v6/test/bibs', headers: { authorization: `Bearer ${live}` } });
    assert.equal(afterRevoke.statusCode, 401);
    assert.equal(afterRevoke.json().code, 120);
    const again = await t.app.inject({ method: 'POST', url: '/v6/token', headers: { authorization: basic(key.key, key.secret) } });
    assert.equal(again.json().code, 113, 'a revoked key gets no new token');
  });

  it('keeps no secret or token in clear: not in the database, not in the log', async () => {
    const bearer = await token(all);
    await t.app.inject({ method: 'GET', url: '/v6/info/token', headers: { authorization: `Bearer ${bearer}` } });
    const stored =
      JSON.stringify(await t.testDb.db.query('select * from api_keys')) +
      JSON.stringify(await t.testDb.db.query("select encode(token_hash, 'hex') from access_tokens"));
    for (const secret of [all.secret, patronsOnly.secret, bearer]) {
      assert.ok(!stored.includes(secret), 'stored in clear');
      assert.ok(!t.logText().includes(secret), 'logged in clear');
    }
    assert.match(stored, /scrypt\$/);
  });

  it('refuses unknown roles and empty names when creating keys', async () => {
    await assert.rejects(t.services.auth.createKey('x', ['Superuser']), /unknown role Superuser/);
    await assert.rejects(t.services.auth.createKey('  ', ['all']), /name/);
    await assert.rejects(t.services.auth.createKey('x', []), /at least one role/);
    const names = (await t.testDb.db.query<{ name: string }>('select name from api_keys')).map((r) => r.name);
    assert.ok(!names.includes('x'), 'nothing half-written');
  });
});

describe(`operator switch and shutdown on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  for (const [what, set] of [
    ['maintenance', (t: TestApp, on: boolean) => (t.state.maintenance = on)],
    ['shutdown drain', (t: TestApp, on: boolean) => (t.state.draining = on)],
  ] as const) {
    it(`${what}: GET /api answers 404, other endpoints 503 code 117`, async () => {
      set(t, true);
      try {
        const status = await t.app.inject({ method: 'GET', url: '/api' });
        assert.equal(status.statusCode, 404);
        const other = await t.app.inject({ method: 'POST', url: '/v6/token' });
        assert.equal(other.statusCode, 503);
        assert.equal(other.json().code, 117);
      } finally {
        set(t, false);
      }
      assert.equal((await t.app.inject({ method: 'GET', url: '/api' })).statusCode, 200);
    });
  }
});
