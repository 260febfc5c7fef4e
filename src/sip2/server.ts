// The SIP2 door (CARREL_SIP2_PORT): one TCP connection per kiosk, messages ended by CR (a LF after
// it, which some kiosks send, is dropped). Each connection answers its messages in order; a kiosk
// that disconnects mid-message loses nothing but that message.
import net from 'node:net';
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
}): Promise<SipDoor> {
  const sockets = new Set<net.Socket>();
  let serial = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const log = o.log.child({ sipConnection: ++serial, remote: socket.remoteAddress });
    const session = new SipSession(o.services, o.libraryName, log);
    let buffered = '';
    let queue = Promise.resolve();
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
        queue = queue
          .then(async () => {
            const answer = await session.answer(raw);
            if (answer && !socket.destroyed) socket.write(answer);
          })
          .catch((error: unknown) => {
            log.error({ err: error }, 'SIP2 message failed');
            socket.destroy();
          });
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
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
