// Slow and malformed clients over a real socket: a stalled body or unfinished headers are answered
// 408 and closed by the configured time-outs; what Node refuses before routing (headers too large, a
// request it cannot read) is answered in the one error body; neither echoes the client's input.
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';

/** Writes `request` and reads until the server closes the connection. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function errorBody(answer: string, status: number): Record<string, unknown> {
  assert.match(answer, new RegExp(`^HTTP/1\\.1 ${status} `), answer.slice(0, 200));
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
  assert.equal(body.httpStatus, status);
  assert.equal(body.code, 108);
  assert.equal(typeof body.name, 'string');
  return body;
}

describe(`slow and malformed clients on ${ENGINE}`, () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp({
      CARREL_HTTP_REQUEST_TIMEOUT_MS: '600',
      CARREL_HTTP_HEADERS_TIMEOUT_MS: '400',
      CARREL_HTTP_KEEP_ALIVE_TIMEOUT_MS: '2000',
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  it('answers a body that never completes 408 and closes the connection', async () => {
    const body = errorBody(
      await exchange(port, 'POST /v6/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"gr'),
      408,
    );
    assert.match(String(body.description), /did not arrive within 600 ms/);
    await new Promise((resolve) => setTimeout(resolve, 200)); // let the abandoned request's parser give up
    assert.deepEqual(
      t.logs.filter((l) => Number(l.level) >= 50).map((l) => l.msg),
      [],
      'no error logged',
    );
  });

  it('answers headers that never complete 408 and closes the connection', async () => {
    errorBody(await exchange(port, 'GET /api HTTP/1.1\r\nHost: x\r\nX-Slow: '), 408);
  });

  it('answers headers too large 431 and a request it cannot read 400, in the error body, echoing nothing', async () => {
    const secret = 'x'.repeat(20_000);
    const large = await exchange(port, `GET /api HTTP/1.1\r\nHost: x\r\nX-Big: ${secret}\r\n\r\n`);
    errorBody(large, 431);
    assert.ok(!large.includes('xxxxxxxxxx'), 'the header is not echoed');
    errorBody(await exchange(port, 'NOT-HTTP\r\n\r\n'), 400);
  });

  it('answers a malformed address and one too long in the error body, echoing neither', async () => {
    for (const [url, status] of [
      ['/v6/bibs/%E0%A4%A', 400],
      [`/v6/bibs/${'9'.repeat(600)}`, 414],
    ] as const) {
      const answer = await exchange(port, `GET ${url} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
      assert.match(answer, new RegExp(`^HTTP/1\\.1 ${status} `), answer.slice(0, 300));
      assert.deepEqual(Object.keys(body).sort(), ['code', 'description', 'httpStatus', 'name', 'specificCode']);
      assert.doesNotMatch(answer, /%E0%A4%A|9999999999/, 'the address is not echoed');
    }
  });

  it('logs a client that hangs up mid-body as an abort, not as an error (nor as the database being away)', async () => {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST /v6/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"gr');
    await new Promise((resolve) => setTimeout(resolve, 50)); // the request reaches its handler's body read
    socket.destroy();
    let aborted: Record<string, unknown> | undefined;
    for (let round = 0; round < 100 && !aborted; round++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      aborted = t.logs.find((l) => l.msg === 'request aborted by the client' && l.url === '/v6/token');
    }
    assert.ok(aborted, 'the abort is logged');
    assert.equal(aborted.level, 30);
    assert.deepEqual(
      t.logs.filter((l) => Number(l.level) >= 40).map((l) => l.msg),
      [],
      'no warning or error logged',
    );
  });

  it('closes a kept-alive connection left idle past CARREL_HTTP_KEEP_ALIVE_TIMEOUT_MS', async () => {
    // exchange() resolves only when the server closes the connection: after its answer, at the time-out.
    const answer = await exchange(port, 'GET /api HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.match(answer, /\r\nKeep-Alive: timeout=2\r\n/, 'the time-out is announced as Node announces it');
  });
});
