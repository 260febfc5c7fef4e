// The SIP2 door (CARREL_SIP2_PORT): one TCP connection per kiosk (TLS when the door has a
// certificate), messages ended by CR (a LF after it, which some kiosks send, is dropped). Each connection answers its messages in order; a kiosk
// that disconnects mid-message loses nothing but that message.
import crypto from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import type { SessionServices } from './context.ts';
import { SipSession } from './session.ts';

export interface SipDoor {
  port: number;
  close(): Promise<void>;
}

/** Longest message taken: SIP2 fields are at most 255 characters, and no message has many. */
const MAX_MESSAGE = 64 * 1024;

export async function openSipDoor(o: {
  services: SessionServices;
  libraryName: string;
  host: string;
  port: number;
  log: FastifyBaseLogger;
  /** A certificate and key (PEM): kiosks then connect with TLS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
}): Promise<SipDoor> {
  const sockets = new Set<net.Socket>();
  let serial = 0;
  const onConnection = (socket: net.Socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const log = o.log.child({ sipConnection: ++serial, remote: socket.remoteAddress });
    const session = new SipSession(o.services, o.libraryName);
    let buffered = '';
    let queue = Promise.resolve();
    /** One message answered, and one log line for it, as REST logs a request: its id, what it was, how long it took (never its fields: PINs, passwords). */
    const answer = async (raw: string) => {
      const requestId = crypto.randomUUID();
      const started = performance.now();
      try {
        const answered = await session.answer(raw, log.child({ requestId }));
        if (answered && !socket.destroyed) socket.write(answered);
        const responseTimeMs = Math.round((performance.now() - started) * 10) / 10;
        log.info({ requestId, message: raw.slice(0, 2), answer: answered?.slice(0, 2) ?? null, responseTimeMs }, 'SIP2 message');
      } catch (error) {
        log.error({ requestId, message: raw.slice(0, 2), err: error }, 'SIP2 message failed: connection closed');
        socket.destroy();
      }
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_MESSAGE && !buffered.includes('\r')) {
        log.warn('SIP2 message too long: connection closed');
        socket.destroy();
        return;
      }
      let end;
      while ((end = buffered.indexOf('\r')) >= 0) {
        const raw = buffered.slice(0, end).replace(/^\n/, '');
        buffered = buffered.slice(end + 1);
        if (!raw) continue;
        queue = queue.then(() => answer(raw));
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = o.tls
    ? tls.createServer({ cert: o.tls.cert, key: o.tls.key, minVersion: 'TLSv1.2' }, onConnection)
    : net.createServer(onConnection);
  // A kiosk whose handshake fails (plain TCP on a TLS port, an old protocol) is closed; it is logged, once.
  server.on('tlsClientError', (error: Error, socket: tls.TLSSocket) => {
    o.log.warn({ remote: socket.remoteAddress, reason: error.message }, 'SIP2 TLS handshake failed');
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
