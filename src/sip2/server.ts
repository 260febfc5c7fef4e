// The SIP2 door (CARREL_SIP2_PORT): one TCP connection per kiosk (TLS when the door has a
// certificate), messages ended by CR (a LF after it, which some kiosks send, is dropped). Each connection answers its messages in order; a kiosk
// that disconnects mid-message loses nothing but that message.
//
// What a connection is allowed (README, "SIP2"): connections are capped per client address and in
// all; a kiosk logs in (93) within loginTimeoutMs of connecting and sends at most
// PRE_LOGIN_MESSAGES other messages before it has, and is closed when idle past idleTimeoutMs; a message
// is at most MAX_MESSAGE characters; messages are read no faster than they are answered and the
// kiosk takes its answers, so a flood waits in the kiosk's buffers, not the server's. Connections
// closed or refused by these limits are logged sampled, a few lines a minute.
import crypto from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import { SIP2_LIMITS, type Sip2Limits } from '../config.ts';
import { ConnectionGate, drained, RefusalLog } from '../shared/connection-gate.ts';
import type { SessionServices } from './context.ts';
import { SipSession } from './session.ts';
import { listen } from '../shared/listen.ts';

export interface SipDoor {
  port: number;
  close(): Promise<void>;
}

/** Longest message taken: SIP2 fields are at most 255 characters, and no message has many. */
const MAX_MESSAGE = 16 * 1024;

/**
 * Messages other than logins a connection may send before it has logged in: a kiosk sends an SC
 * Status or two. Logins themselves are limited by their failures (src/auth/logins.ts).
 */
const PRE_LOGIN_MESSAGES = 10;

export async function openSipDoor(o: {
  services: SessionServices;
  libraryName: string;
  host: string;
  port: number;
  log: FastifyBaseLogger;
  /** A certificate and key (PEM): kiosks then connect with TLS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** CARREL_SIP2_LOGIN_TIMEOUT_MS and the others; SIP2_LIMITS where not given. */
  limits?: Partial<Sip2Limits>;
}): Promise<SipDoor> {
  const limits = { ...SIP2_LIMITS, ...o.limits };
  const refusals = new RefusalLog(o.log);
  // SIP2 has no message for "not now": a connection refused is closed unanswered.
  const gate = new ConnectionGate(limits, (socket, why, address) => {
    refusals.note(`SIP2 connection refused: ${why}`, { remote: address });
    socket.destroy();
  });
  let serial = 0;
  const onConnection = (socket: net.Socket) => {
    socket.on('error', () => undefined);
    socket.setNoDelay(true);
    const log = o.log.child({ sipConnection: ++serial, remote: socket.remoteAddress });
    const session = new SipSession(o.services, o.libraryName);
    let buffered = '';
    let busy = false;
    let loggedIn = false;
    let beforeLogin = 0;
    const close = (why: string) => {
      if (socket.destroyed) return;
      refusals.note(`SIP2 connection closed: ${why}`, { remote: socket.remoteAddress });
      socket.destroy();
    };
    const loginTimer = setTimeout(() => close('no login within CARREL_SIP2_LOGIN_TIMEOUT_MS'), limits.loginTimeoutMs);
    socket.setTimeout(limits.idleTimeoutMs, () => close('idle past CARREL_SIP2_IDLE_TIMEOUT_MS'));
    socket.on('close', () => clearTimeout(loginTimer));

    /** One message answered, and one log line for it, as REST logs a request: its id, what it was, how long it took (never its fields: PINs, passwords). */
    const answer = async (raw: string) => {
      const requestId = crypto.randomUUID();
      const started = performance.now();
      try {
        const answered = await session.answer(raw, log.child({ requestId }));
        if (answered && !socket.destroyed) socket.write(answered);
        const code = raw.slice(0, 2);
        if (code === '93') loggedIn = answered?.startsWith('941') ?? false;
        if (loggedIn) clearTimeout(loginTimer);
        const responseTimeMs = Math.round((performance.now() - started) * 10) / 10;
        const line = { requestId, message: code, answer: answered?.slice(0, 2) ?? null, responseTimeMs };
        // Before a login (a failed one, a status or resend, a refusal) anyone may send: sampled. A
        // logged-in kiosk's messages are each logged.
        if (!loggedIn) refusals.note('SIP2 message before a login', line);
        else log.info(line, 'SIP2 message');
      } catch (error) {
        log.error({ requestId, message: raw.slice(0, 2), err: error }, 'SIP2 message failed: connection closed');
        socket.destroy();
      }
    };

    /** The next whole message, or undefined until more has arrived; a message too long closes the connection. */
    const whole = (): string | undefined => {
      for (;;) {
        const end = buffered.indexOf('\r');
        if (end > MAX_MESSAGE || (end < 0 && buffered.length > MAX_MESSAGE)) {
          buffered = '';
          close('message too long');
          return undefined;
        }
        if (end < 0) return undefined;
        const raw = buffered.slice(0, end).replace(/^\n/, '');
        buffered = buffered.slice(end + 1);
        if (raw) return raw;
      }
    };

    /** Answers the messages received, one at a time, each once the kiosk has taken the answers before it. */
    const answerReceived = async () => {
      if (busy) return;
      busy = true;
      try {
        for (let raw = whole(); raw !== undefined && !socket.destroyed; raw = socket.destroyed ? undefined : whole()) {
          if (!loggedIn && !raw.startsWith('93') && ++beforeLogin > PRE_LOGIN_MESSAGES) return close('too many messages before a login');
          await answer(raw);
          if (socket.writableNeedDrain) await drained(socket);
        }
      } finally {
        busy = false;
      }
      socket.resume();
    };

    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      // Backpressure: nothing more is read while this is being answered.
      socket.pause();
      void answerReceived();
    });
  };
  const server = o.tls
    ? tls.createServer(
        // The handshake is part of the time a kiosk has to log in.
        { cert: o.tls.cert, key: o.tls.key, minVersion: 'TLSv1.2', handshakeTimeout: limits.loginTimeoutMs },
        onConnection,
      )
    : net.createServer(onConnection);
  // A kiosk whose handshake fails (plain TCP on a TLS port, an old protocol) is closed; it is logged, sampled.
  server.on('tlsClientError', (error: Error, socket: tls.TLSSocket) => {
    refusals.note('SIP2 TLS handshake failed', { remote: socket.remoteAddress, reason: error.message });
    socket.destroy();
  });
  gate.guard(server);
  const port = await listen(server, o.port, o.host);
  return {
    port,
    async close() {
      gate.destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
