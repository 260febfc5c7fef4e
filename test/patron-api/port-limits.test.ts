// The Patron API on a port of its own (CARREL_PATRONAPI_PORT) waits for slow clients no longer
// than the main listener does: a request that does not arrive within the configured time-outs is
// answered 408 and closed, as on the main port (test/http/slow-clients.test.ts).
import assert from 'node:assert/strict';
import type http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { servePatronApi } from '../../src/patron-api/index.ts';
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

describe(`the Patron API’s own port and slow clients on ${ENGINE}`, () => {
  let t: TestApp;
  let server: http.Server;
  let port: number;
  before(async () => {
    t = await createTestApp({ CARREL_HTTP_REQUEST_TIMEOUT_MS: '600', CARREL_HTTP_HEADERS_TIMEOUT_MS: '400' });
    await t.app.ready();
    server = servePatronApi(t.app, t.config);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  it('answers headers that never complete 408 and closes the connection', async () => {
    const answer = await exchange(port, 'GET /PATRONAPI/1234/dump HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    assert.match(answer, /^HTTP\/1\.1 408 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    assert.match(String(body.description), /did not arrive within 600 ms/);
  });
});
