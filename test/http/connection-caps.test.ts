// HTTP connections are capped per client address and in all, on the main port and the Patron API's
// (src/http/connection.ts; issue 33, finding 2): through real sockets, a connection past its
// address's cap is answered 429 and one past the total 503, each in the error body and closed;
// connections reset by their clients free their places, and the server goes on answering.
import assert from 'node:assert/strict';
import type http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { servePatronApi } from '../../src/patron-api/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';

const PER_ADDRESS = 3;
const TOTAL = 5;

/** A connection from `from`, open once the server has taken it. */
async function open(port: number, from: string): Promise<net.Socket> {
  const socket = net.connect({ host: '127.0.0.1', port, localAddress: from });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

/** What the server writes to a connection until it closes it. */
function answerOf(socket: net.Socket): Promise<string> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return new Promise((resolve) => socket.once('close', () => resolve(text)));
}

/** A request on a connection of its own: the answer's status. */
async function statusOf(port: number, from: string, path: string): Promise<number> {
  const socket = await open(port, from);
  const answer = answerOf(socket);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  return Number(/^HTTP\/1\.1 (\d+)/.exec(await answer)?.[1]);
}

describe(`HTTP connection caps on ${ENGINE}`, () => {
  let t: TestApp;
  let patronApi: http.Server;
  const ports: Record<string, number> = {};

  before(async () => {
    t = await createTestApp({
      CARREL_HTTP_MAX_CONNECTIONS: String(TOTAL),
      CARREL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
      CARREL_PATRONAPI_ALLOW: '127.0.0.0/8',
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    ports.main = (t.app.server.address() as AddressInfo).port;
    patronApi = servePatronApi(t.app, t.config);
    await new Promise<void>((resolve) => patronApi.listen(0, '127.0.0.1', () => resolve()));
    ports.patronApi = (patronApi.address() as AddressInfo).port;
  });
  after(async () => {
    patronApi?.closeAllConnections();
    await new Promise((resolve) => patronApi?.close(resolve));
    await t?.close();
  });

  for (const [name, path] of [
    ['main', '/api'],
    ['patronApi', '/PATRONAPI/0/dump'],
  ] as const) {
    it(`refuses a connection past its address's cap (429) and past the total (503) on the ${name} port`, async () => {
      const port = ports[name]!;
      const held: net.Socket[] = [];
      try {
        for (let i = 0; i < PER_ADDRESS; i++) held.push(await open(port, '127.0.0.2'));
        const fromSame = await open(port, '127.0.0.2');
        const refused = await answerOf(fromSame);
        assert.match(refused, /^HTTP\/1\.1 429 /);
        assert.match(refused, /\r\nRetry-After: 1\r\n/);
        assert.equal(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4)).code, 134);

        // Another address still gets in, up to the total.
        for (let i = held.length; i < TOTAL; i++) held.push(await open(port, '127.0.0.3'));
        const overTotal = await answerOf(await open(port, '127.0.0.4'));
        assert.match(overTotal, /^HTTP\/1\.1 503 /);

        // Clients that reset their connections free their places; the process goes on.
        for (const socket of held.splice(0)) socket.resetAndDestroy();
        for (;;) {
          const status = await statusOf(port, '127.0.0.2', path);
          if (status !== 503 && status !== 429) {
            assert.equal(status, 200);
            break;
          }
        }
      } finally {
        for (const socket of held) socket.destroy();
      }
    });
  }
});
