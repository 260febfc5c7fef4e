// A SIP2 kiosk for the tests (test/sip2): sends messages with a sequence number and checksum and
// reads answers up to their CR, checking every answer's checksum, over TCP or TLS.
import assert from 'node:assert/strict';
import net from 'node:net';
import { pino } from 'pino';
import { checksum } from '../../src/sip2/messages.ts';
import { openSipDoor, type SipDoor } from '../../src/sip2/server.ts';
import type { TestApp } from './app.ts';

/** Evergreen's date pattern: YYYYMMDD, four spaces, HHMMSS. */
export const DATE = '\\d{8} {4}\\d{6}';

/** The SIP2 door on a free loopback port, answering for the test app's services, logging nothing. */
export function openTestDoor(t: TestApp): Promise<SipDoor> {
  return openSipDoor({
    services: t.services,
    libraryName: 'Carrel Test Library',
    host: '127.0.0.1',
    port: 0,
    log: pino({ level: 'silent' }),
  });
}

/** A kiosk: sends messages with AY (0–9, wrapping) and AZ, and reads answers up to their CR. */
export class Kiosk {
  private data = '';
  private waiting: (() => void) | undefined;
  private sequence = 0;
  readonly closed: Promise<void>;

  constructor(readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.data += chunk;
      this.waiting?.();
    });
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
  }

  static async connect(port: number): Promise<Kiosk> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    return new Kiosk(socket);
  }

  /** The message with its sequence number and checksum, as sent. */
  seal(text: string): string {
    const head = `${text}AY${this.sequence}AZ`;
    this.sequence = (this.sequence + 1) % 10;
    return `${head}${checksum(head)}`;
  }

  async send(raw: string): Promise<string> {
    this.socket.write(`${raw}\r`);
    return this.read();
  }

  ask(text: string): Promise<string> {
    return this.send(this.seal(text));
  }

  async read(): Promise<string> {
    for (;;) {
      const end = this.data.indexOf('\r');
      if (end >= 0) {
        const answer = this.data.slice(0, end);
        this.data = this.data.slice(end + 1);
        // Every answer's checksum holds (the sum of all its bytes, checksum included, is 0).
        const tail = /AZ([0-9A-F]{4})$/.exec(answer);
        assert.ok(tail, `an answer with a checksum: ${answer}`);
        assert.equal(checksum(answer.slice(0, -4)), tail[1], answer);
        return answer;
      }
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  end(): void {
    this.socket.end();
  }
}

/** The `XX…|` fields of an answer after its fixed part. */
export function fields(answer: string, fixed: number): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of answer
    .slice(fixed)
    .replace(/AY\dAZ[0-9A-F]{4}$/, '')
    .split('|')) {
    if (part.length >= 2) out.set(part.slice(0, 2), [...(out.get(part.slice(0, 2)) ?? []), part.slice(2)]);
  }
  return out;
}

/**
 * Branches for a profile (PUT /v6/library/profile): Main Library (mn, st) in institution CARREL,
 * Riverside (br) in `riverside`, or in none when it is not given. Every location a pickup location.
 */
export function mainAndRiverside(riverside?: string) {
  const location = (code: string, name: string) => ({ code, name, pickup: true });
  return [
    { id: 1, name: 'Main Library', institution: 'CARREL', locations: [location('mn', 'Main Library'), location('st', 'Main stacks')] },
    { id: 2, name: 'Riverside', ...(riverside ? { institution: riverside } : {}), locations: [location('br', 'Riverside')] },
  ];
}
