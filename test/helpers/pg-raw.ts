// A raw client of the SQL door's wire protocol (src/sql/wire/door.ts), for what no client library
// sends: connections from a loopback address of the test's choosing (127.0.0.0/8 is all
// loopback), half-open ones, resets, floods, a start-up stopped half-way.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import net from 'node:net';
import { scramClientFinal } from '../../src/shared/scram.ts';
import { errorFields, message, messagesIn } from '../../src/sql/wire/messages.ts';

export const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 4, 210, 22, 47]);
export const GSS_REQUEST = Buffer.from([0, 0, 0, 8, 4, 210, 22, 48]);
/** A CancelRequest for backend 1, key 2. */
export const CANCEL_REQUEST = Buffer.from([0, 0, 0, 16, 4, 210, 22, 46, 0, 0, 0, 1, 0, 0, 0, 2]);
export const PROTOCOL_3 = 196608;

/** A raw client of the door, from a loopback address of its choosing. */
export interface RawClient {
  socket: net.Socket;
  data(): Buffer;
  /** Drops what was received so far. */
  forget(): void;
  /** Until the bytes received pass `check`. */
  until(check: (data: Buffer) => boolean): Promise<void>;
  closed: Promise<void>;
}

export async function rawClient(port: number, from = '127.0.0.1', allowHalfOpen = false): Promise<RawClient> {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from, allowHalfOpen });
  socket.on('error', () => undefined); // resets are what these clients are for
  const chunks: Buffer[] = [];
  let wake: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    wake?.();
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  void closed.then(() => wake?.());
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const data = () => Buffer.concat(chunks);
  return {
    socket,
    data,
    closed,
    forget: () => void chunks.splice(0),
    async until(check) {
      while (!check(data())) {
        if (socket.destroyed) throw new Error(`closed with ${JSON.stringify(data().toString('latin1'))}`);
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

/** The SQLSTATE a statement failed with. */
export async function pgError(call: Promise<unknown>): Promise<{ code: string }> {
  try {
    await call;
  } catch (error) {
    return { code: (error as { code?: string }).code ?? '' };
  }
  assert.fail('the statement ran');
}

/** The first ErrorResponse among bytes the door wrote. */
export function fatal(data: Buffer): { code: string; text: string } | undefined {
  const m = [...messagesIn(data)].find((x) => x.type === 'E');
  return m && errorFields(m.body);
}

/** A connection taken: it answers an SSLRequest with N (no TLS here). */
export async function admitted(client: RawClient): Promise<void> {
  client.socket.write(SSL_REQUEST);
  await client.until((d) => d.length > 0);
  assert.equal(client.data().toString('latin1'), 'N');
}

/** A connection turned away: an ErrorResponse, then the door closes it. */
export async function refused(client: RawClient): Promise<{ code: string; text: string }> {
  await client.until((d) => fatal(d) !== undefined);
  return fatal(client.data())!;
}

/** A start-up packet: its length, then the protocol's code and its parameters, each a name and a value. */
export function startup(code: number, params: Record<string, string>): Buffer {
  const pairs = Object.entries(params).map(([name, value]) => `${name}\0${value}\0`);
  const body = Buffer.from(`${pairs.join('')}\0`);
  const head = Buffer.alloc(8);
  head.writeInt32BE(body.length + 8);
  head.writeInt32BE(code, 4);
  return Buffer.concat([head, body]);
}

/** The start-up packet of a login to database carrel. */
export function startupPacket(user: string): Buffer {
  return startup(PROTOCOL_3, { user, database: 'carrel' });
}

/** Logs a raw client in by SCRAM-SHA-256, and forgets what the door wrote until it was ready. */
export async function logIn(client: RawClient, user: string, password: string): Promise<void> {
  client.socket.write(startupPacket(user));
  const count = (type: string) => [...messagesIn(client.data())].filter((m) => m.type === type);
  await client.until(() => count('R').length === 1);
  const nonce = crypto.randomBytes(18).toString('base64');
  const first = Buffer.from(`n,,n=,r=${nonce}`);
  const length = Buffer.alloc(4);
  length.writeInt32BE(first.length);
  client.socket.write(message('p', 'SCRAM-SHA-256', Buffer.concat([length, first])));
  await client.until(() => count('R').length === 2);
  const serverFirst = count('R')[1]!.body.subarray(4).toString();
  client.socket.write(message('p', Buffer.from(scramClientFinal(password, `n=,r=${nonce}`, serverFirst).clientFinal)));
  await client.until(() => count('Z').length === 1);
  client.forget();
}
