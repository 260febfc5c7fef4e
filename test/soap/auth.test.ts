// A key and its secret sent with every SOAP call (AuthService.authenticateKey): checked with scrypt
// within the login limits once, then by the key's row, so that revoking the key or changing its
// secret takes effect on the next call; and the key's rate limit, as REST applies it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashSecret } from '../../src/auth/secrets.ts';
import { DomainError } from '../../src/shared/errors.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';

const kindOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof DomainError ? error.kind : String(error)),
  );

describe(`API keys on every SOAP call on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ CARREL_LOGIN_ADDRESS_FAILURES: '2' });
  });
  after(() => t.close());

  it('checks a pair with scrypt within the login limits once; a proven pair passes while the address is over them', async () => {
    const auth = t.services.auth;
    const proven = await auth.createKey('proven', ['Patrons_Read'], 0);
    const fresh = await auth.createKey('fresh', ['Patrons_Read'], 0);
    const principal = await auth.authenticateKey(proven.key, proven.secret, '10.9.0.1');
    assert.equal(principal.keyId, proven.key);
    assert.ok(principal.permissions.has('Patrons_Read'));
    assert.equal(await kindOf(auth.authenticateKey(proven.key, 'wrong', '10.9.0.1')), 'unauthenticated');
    assert.equal(await kindOf(auth.authenticateKey(fresh.key, 'wrong', '10.9.0.1')), 'unauthenticated');
    // The address is over its limit: a pair not proven yet is refused without being checked ...
    assert.equal(await kindOf(auth.authenticateKey(fresh.key, fresh.secret, '10.9.0.1')), 'tooManyAttempts');
    assert.equal(await kindOf(auth.authenticateKey(proven.key, 'wrong again', '10.9.0.1')), 'tooManyAttempts');
    // ... and the proven one is not checked again: it goes through.
    assert.equal((await auth.authenticateKey(proven.key, proven.secret, '10.9.0.1')).keyId, proven.key);
  });

  it('takes a revocation into account on the next call, from memory too', async () => {
    const auth = t.services.auth;
    const key = await auth.createKey('to revoke', ['Patrons_Read'], 0);
    // Twice: the second from what the first proved (and, on PostgreSQL, from the token cache).
    await auth.authenticateKey(key.key, key.secret, '10.9.0.2');
    await auth.authenticateKey(key.key, key.secret, '10.9.0.2');
    assert.equal(await auth.revokeKey(key.key), true);
    assert.equal(await kindOf(auth.authenticateKey(key.key, key.secret, '10.9.0.2')), 'unauthenticated');
  });

  it('applies the key’s rate limit to SOAP calls, as REST does: a fault with 134 and Retry-After', async () => {
    const key = await t.services.auth.createKey('limited', ['Patrons_Read'], 2);
    const call = () =>
      t.app.inject({
        method: 'POST',
        url: '/soap/patrons',
        headers: { 'content-type': 'text/xml', authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
        payload: `<Envelope xmlns="http://schemas.xmlsoap.org/soap/envelope/"><Body><PatronLookup xmlns="urn:carrel:soap:patrons"><id>1</id></PatronLookup></Body></Envelope>`,
      });
    const answers = [await call(), await call(), await call()];
    // The first two are let through (the patron does not exist: REST's 404 numbers).
    for (const res of answers.slice(0, 2)) assert.match(res.body, /<code>107<\/code>/);
    assert.equal(answers[2]!.statusCode, 400);
    assert.match(answers[2]!.body, /<code>134<\/code>.*<httpStatus>429<\/httpStatus>/);
    assert.ok(Number(answers[2]!.headers['retry-after']) >= 1);
  });
});

describe(`API keys on every SOAP call, no token cache, on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    // Without the cache every call reads the key's row: what a process not hearing revocations does.
    t = await createTestApp({ CARREL_TOKEN_CACHE_MS: '0' });
  });
  after(() => t.close());

  it('takes a new secret and a revocation into account on the next call', async () => {
    const auth = t.services.auth;
    const key = await auth.createKey('to change', ['Patrons_Read'], 0);
    await auth.authenticateKey(key.key, key.secret, '10.9.0.3');
    await t.testDb.db.query('update api_keys set secret_hash = $1 where key = $2', [await hashSecret('a new secret'), key.key]);
    assert.equal(await kindOf(auth.authenticateKey(key.key, key.secret, '10.9.0.3')), 'unauthenticated');
    assert.equal((await auth.authenticateKey(key.key, 'a new secret', '10.9.0.3')).keyId, key.key);
    assert.equal((await auth.authenticateKey(key.key, 'a new secret', '10.9.0.3')).keyId, key.key);
    assert.equal(await auth.revokeKey(key.key), true);
    assert.equal(await kindOf(auth.authenticateKey(key.key, 'a new secret', '10.9.0.3')), 'unauthenticated');
  });
});
