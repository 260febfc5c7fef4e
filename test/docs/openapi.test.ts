// The OpenAPI document is generated from the route schemas; /docs serves the interactive page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';

describe('API documentation', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('serves an OpenAPI 3.1 document at /v6/openapi.json without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v6/openapi.json' });
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    assert.equal(doc.openapi, '3.1.0');
    assert.match(doc.info.version, /^\d+\.\d+\.\d+\.\d+$/);
    const paths = Object.keys(doc.paths);
    for (const p of ['/api', '/v6/token', '/v6/info/token']) assert.ok(paths.includes(p), `${p} documented`);
    assert.ok(!paths.some((p) => p.startsWith('/v5/') || p.startsWith('/iii/')), 'one copy of each route');
    assert.ok(doc.components.schemas.ErrorBody, 'the error shape is a named schema');
    for (const p of [
      '/v6/invoices',
      '/v6/invoices/{id}',
      '/v6/invoices/{id}/lineItems',
      '/v6/invoices/lineItems/{id}',
      '/v6/invoices/{id}/pay',
      '/v6/invoices/metadata',
      '/v6/invoices/useTax/{code}',
      '/v6/funds',
      '/v6/funds/{code}',
      '/v6/vendors',
      '/v6/vendors/{id}',
    ]) {
      assert.ok(paths.includes(p), `${p} documented`);
    }
    for (const p of [
      '/v6/patrons',
      '/v6/patrons/{id}',
      '/v6/patrons/find',
      '/v6/patrons/metadata',
      '/v6/patrons/validate',
      '/v6/patrons/auth',
    ]) {
      assert.ok(paths.includes(p), `${p} documented`);
    }
    for (const name of ['Invoice', 'InvoiceLineItem', 'Fund', 'Vendor', 'Patron'])
      assert.ok(doc.components.schemas[name], `${name} is a named schema`);
    // The health report's documented schema is the one the route serialises with.
    const report = doc.paths['/api'].get.responses['200'].content['application/json'].schema;
    assert.deepEqual(Object.keys(report.properties).sort(), ['entries', 'status', 'totalDuration']);
    assert.equal(report.additionalProperties, false);
  });

  it('declares the error answers every route can give, from its access, method and path (src/http/common-answers.ts)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v6/openapi.json' })).json();
    assert.ok(!doc.paths['/v6/openapi.json'], 'the document does not list itself');
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses).sort();
    assert.deepEqual(statuses('/api', 'get'), ['200', '400', '404']);
    // Failed logins past their limit, or too much password hashing at once: 429.
    assert.deepEqual(statuses('/v6/token', 'post'), ['200', '400', '401', '413', '415', '429', '503']);
    // A key past its rate limit: 429.
    assert.deepEqual(statuses('/v6/branches', 'get'), ['200', '400', '401', '403', '429', '503']);
    // A path parameter can be too long (414); a route's own answers (404) stay; a write's
    // Idempotency-Key can be refused (409, 422).
    assert.deepEqual(statuses('/v6/patrons/{id}', 'delete'), [
      '204',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '414',
      '415',
      '422',
      '429',
      '503',
    ]);
    // A route that declares no answers still documents its 200.
    assert.ok(doc.paths['/v6/bibs/{id}/marc'].get.responses['200']);
    const error = doc.paths['/v6/invoices'].post.responses['415'].content['application/json'].schema;
    assert.deepEqual(error, { $ref: '#/components/schemas/ErrorBody' });
  });

  it('says how each operation is called, from its access: a bearer token, optionally, or nothing', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v6/openapi.json' })).json();
    const security = (path: string, method: string) => doc.paths[path][method].security;
    assert.equal(security('/api', 'get'), undefined);
    assert.equal(security('/v6/token', 'post'), undefined);
    assert.deepEqual(security('/v6/info/token', 'get'), [{ bearer: [] }]);
    assert.deepEqual(security('/v6/patrons/{id}', 'delete'), [{ bearer: [] }]);
    // A public saved query's results: with a token or without.
    assert.deepEqual(security('/v6/queries/{id}/results', 'get'), [{ bearer: [] }, {}]);
    const unsaid = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown }>>).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) => (op.security || path === '/api' || path === '/v6/token' ? [] : [`${method} ${path}`])),
    );
    assert.deepEqual(unsaid, [], 'every other operation needs a token');
  });

  it('serves the interactive page at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /text\/html/);
    assert.match(res.body, /swagger/i);
  });
});
