// The API's four prefixes are one set of routes: other prefixes are rewritten to /v6 before routing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { canonicalUrl } from '../../src/app.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';

describe('canonicalUrl', () => {
  it('maps /v5 and /iii/sierra-api/v5|v6 to /v6, and /iii/sierra-api/token to /token, leaving the rest', () => {
    const cases: [string, string][] = [
      ['/v6/bibs?limit=1', '/v6/bibs?limit=1'],
      ['/v5/bibs/1000001', '/v6/bibs/1000001'],
      ['/v5', '/v6'],
      ['/iii/sierra-api/v6/patrons/find?barcode=1', '/v6/patrons/find?barcode=1'],
      ['/iii/sierra-api/v5/token', '/v6/token'],
      ['/iii/sierra-api/token', '/token'],
      ['/iii/sierra-api/token?x=1', '/token?x=1'],
      ['/v55/bibs', '/v55/bibs'],
      ['/v6x', '/v6x'],
      ['/iii/sierra-api/v7/bibs', '/iii/sierra-api/v7/bibs'],
      ['/api', '/api'],
      ['/docs/', '/docs/'],
    ];
    for (const [from, to] of cases) assert.equal(canonicalUrl(from), to, from);
  });
});

describe(`prefixes on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('answers a missing path with the path the client used', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/iii/sierra-api/v5/no-such-thing' });
    assert.equal(res.statusCode, 404);
    assert.match(res.json().description, /GET \/iii\/sierra-api\/v5\/no-such-thing/);
  });
});
