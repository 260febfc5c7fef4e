// GET /api answered before Fastify's pipeline (src/http/quick-answers.ts), through a real socket:
// the same answer the route gives, its access line, and every other request shape passed on.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';

/** A GET that carries a body (fetch sends none with GET): its status. */
function getWithBody(url: string, body: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'GET', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0 });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The durations change from answer to answer; everything else must not. */
const withoutDurations = (body: string) => body.replace(/"(duration|totalDuration)":"[^"]*"/g, '"$1":"-"');

describe(`GET /api answered before routing, on ${ENGINE}`, () => {
  let t: TestApp;
  let base: string;
  /** Requests that reached Fastify's pipeline. */
  let routed: string[] = [];

  before(async () => {
    // A check stays fresh for 10 s (the longest the setting allows): each test starts with one.
    t = await createTestApp({ CARREL_HEALTH_MAX_AGE_MS: '10000' });
    // Every answer Fastify sends, refusals included, passes here before it is written.
    t.app.addHook('onSend', (request, _reply, payload, done) => {
      routed.push(`${request.method} ${request.url}`);
      done(null, payload);
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());
  beforeEach(async () => {
    t.state.maintenance = false;
    await t.services.health.report(); // a fresh check for the quick answers to use
    routed = [];
  });

  it('answers without the route once a check is fresh, as the route answers', async () => {
    const quick = await fetch(`${base}/api`);
    assert.deepEqual(routed, []);
    // The trailing slash is another spelling of the same route, which the quick path leaves to it.
    const viaRoute = await fetch(`${base}/api/`);
    assert.deepEqual(routed, ['GET /api/']);
    assert.equal(quick.status, viaRoute.status);
    const headers = (response: Response) =>
      [...response.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id' && name !== 'content-length');
    assert.deepEqual(headers(quick), headers(viaRoute));
    assert.equal(quick.headers.get('cache-control'), 'no-store');
    const [quickBody, routeBody] = [await quick.text(), await viaRoute.text()];
    assert.equal(withoutDurations(quickBody), withoutDurations(routeBody));
    assert.equal(JSON.parse(quickBody).status, 'Healthy');
    assert.match(quickBody, /"totalDuration":"\d{2}:\d{2}:\d{2}\.\d{7}"/);
  });

  it("keeps the client's request id and writes the request's access line", async () => {
    const response = await fetch(`${base}/api`, { headers: { 'x-request-id': 'balancer-7.check' } });
    assert.equal(response.headers.get('x-request-id'), 'balancer-7.check');
    const made = await fetch(`${base}/api`, { headers: { 'x-request-id': 'not a token!' } });
    const madeId = made.headers.get('x-request-id') ?? '';
    assert.match(madeId, /^[0-9a-f-]{36}$/);
    assert.deepEqual(routed, []);
    for (const requestId of ['balancer-7.check', madeId]) {
      const line = t.logs.find((l) => l.requestId === requestId);
      assert.ok(line, `an access line for ${requestId}`);
      assert.deepEqual(
        { method: line.method, url: line.url, statusCode: line.statusCode, msg: line.msg, level: line.level },
        { method: 'GET', url: '/api', statusCode: 200, msg: 'request', level: 30 },
      );
      assert.equal(typeof line.responseTimeMs, 'number');
    }
  });

  it('passes every other request shape on to the route', async () => {
    const sent = [
      fetch(`${base}/api?verbose=1`),
      fetch(`${base}/api`, { method: 'HEAD' }),
      fetch(`${base}/api`, { method: 'POST' }),
      getWithBody(`${base}/api`, '{}'),
      fetch(`${base}/API`),
    ];
    const statuses = (await Promise.all(sent)).map((r) => r.status);
    assert.deepEqual(statuses, [200, 200, 404, 200, 404]);
    assert.deepEqual(routed.sort(), ['GET /API', 'GET /api', 'GET /api?verbose=1', 'HEAD /api', 'POST /api'].sort());
  });

  it('leaves the answer to the route while the service is switched off', async () => {
    t.state.maintenance = true;
    const response = await fetch(`${base}/api`);
    assert.equal(response.status, 404);
    assert.deepEqual(routed, ['GET /api']);
    const body = (await response.json()) as { code: number; name: string };
    assert.equal(body.code, 117);
    t.state.maintenance = false;
    assert.equal((await fetch(`${base}/api`)).status, 200);
    assert.deepEqual(routed, ['GET /api']);
  });
});
