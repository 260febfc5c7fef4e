// A connection of Carrel's own to PostgreSQL at the protocol level, for one client of the SQL door
// on PostgreSQL: the client's messages pass through it (session.ts) one at a time, each answered in
// full before the next is sent. Carrel's database user logs in (trust, password, MD5 or
// SCRAM-SHA-256; TLS when DATABASE_URL's sslmode asks for it); every batch then runs as the login's
// role, as on the embedded engine.
import crypto from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import type { RawSession } from '../../db/types.ts';
import { scramClientFinal } from '../../shared/scram.ts';
import { errorFields, message, messagesIn, Received } from './messages.ts';

/** The message types that end the answer to each frontend message (an ErrorResponse ends any). */
function ends(sent: Buffer): (type: string) => boolean {
  const type = String.fromCharCode(sent[0]!);
  switch (type) {
    case 'P':
      return (t) => t === '1';
    case 'B':
      return (t) => t === '2';
    case 'C':
      return (t) => t === '3';
    case 'D':
      return (t) => t === 'T' || t === 'n';
    case 'E':
      return (t) => t === 'C' || t === 's' || t === 'I';
    default: // Q, S
      return (t) => t === 'Z';
  }
}

class Incoming {
  private readonly received = new Received();
  private waiting: (() => void) | undefined;
  failed: Error | undefined;

  constructor(socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received.push(chunk);
      this.wake();
    });
    socket.on('close', () => {
      this.failed ??= new Error('the connection to PostgreSQL closed');
      this.wake();
    });
    socket.on('error', (error) => {
      this.failed = error;
      this.wake();
    });
  }

  private wake() {
    const wake = this.waiting;
    this.waiting = undefined;
    wake?.();
  }

  private more(): Promise<void> {
    if (this.failed) throw this.failed;
    return new Promise<void>((resolve) => (this.waiting = resolve));
  }

  /** Whole messages, up to and including the first that `last` accepts (or an ErrorResponse when errors end it). */
  async until(last: (type: string) => boolean, errorEnds = true): Promise<Buffer> {
    // Each message is taken once it is whole, so a long answer costs one copy of itself.
    const taken: Buffer[] = [];
    for (;;) {
      while (this.received.length >= 5) {
        const length = 1 + this.received.peek(5).readInt32BE(1);
        if (length < 5) throw (this.failed = new Error('PostgreSQL sent a message of an impossible length'));
        if (this.received.length < length) break;
        const m = this.received.take(length);
        taken.push(m);
        const type = String.fromCharCode(m[0]!);
        if (last(type) || (errorEnds && type === 'E')) return taken.length === 1 ? m : Buffer.concat(taken);
      }
      await this.more();
    }
  }
}

function startupPacket(params: Record<string, string>): Buffer {
  const body = Buffer.concat([
    Buffer.from([0, 3, 0, 0]),
    ...Object.entries(params).map(([k, v]) => Buffer.from(`${k}\0${v}\0`, 'utf8')),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(4);
  head.writeInt32BE(body.length + 4);
  return Buffer.concat([head, body]);
}

const socketDirOf = (url: URL) => url.searchParams.get('host');

async function open(url: URL, timeoutMs: number): Promise<net.Socket> {
  const socketDir = socketDirOf(url);
  const port = Number(url.port || 5432);
  const plain = socketDir
    ? net.connect({ path: `${socketDir}/.s.PGSQL.${port}` })
    : net.connect({ host: decodeURIComponent(url.hostname) || 'localhost', port, noDelay: true });
  // Until Carrel's user has logged in (connectRaw): a server that goes quiet fails the login, never hangs it.
  plain.setTimeout(timeoutMs, () => plain.destroy(new Error(`PostgreSQL did not answer within ${timeoutMs} ms`)));
  await new Promise<void>((resolve, reject) => {
    plain.once('connect', resolve);
    plain.once('error', reject);
  });
  const mode = url.searchParams.get('sslmode') ?? (url.searchParams.get('ssl') === 'true' ? 'require' : 'disable');
  if (socketDir || mode === 'disable') return plain;
  const request = Buffer.alloc(8);
  request.writeInt32BE(8);
  request.writeInt32BE(80877103, 4);
  plain.write(request);
  const answer = await new Promise<number>((resolve, reject) => {
    plain.once('data', (chunk: Buffer) => resolve(chunk[0]!));
    plain.once('error', reject);
  });
  if (answer !== 0x53) {
    if (mode === 'prefer' || mode === 'allow') return plain;
    throw new Error('PostgreSQL does not offer TLS, and DATABASE_URL asks for it');
  }
  const secure = tls.connect({
    socket: plain,
    servername: url.hostname,
    rejectUnauthorized: mode === 'verify-full' || mode === 'verify-ca',
  });
  await new Promise<void>((resolve, reject) => {
    secure.once('secureConnect', resolve);
    secure.once('error', reject);
  });
  // The time-out moves to the socket connectRaw holds, which clears it once logged in.
  plain.setTimeout(0);
  secure.setTimeout(timeoutMs, () => secure.destroy(new Error(`PostgreSQL did not answer within ${timeoutMs} ms`)));
  return secure;
}

/** Logs in as Carrel's user: answers to each authentication request until AuthenticationOk. */
async function authenticate(socket: net.Socket, incoming: Incoming, user: string, password: string): Promise<void> {
  let scram: { nonce: string; bare: string; serverSignature?: string } | undefined;
  for (;;) {
    const answer = await incoming.until((t) => t === 'R');
    const m = [...messagesIn(answer)].at(-1)!;
    if (m.type === 'E') throw new Error(`PostgreSQL refused Carrel's login for the SQL door: ${errorFields(m.body).text}`);
    const code = m.body.readInt32BE(0);
    if (code === 0) return;
    if (code === 3) socket.write(message('p', password));
    else if (code === 5) {
      const inner = crypto
        .createHash('md5')
        .update(password + user)
        .digest('hex');
      const outer = crypto
        .createHash('md5')
        .update(Buffer.concat([Buffer.from(inner), m.body.subarray(4, 8)]))
        .digest('hex');
      socket.write(message('p', `md5${outer}`));
    } else if (code === 10) {
      const nonce = crypto.randomBytes(18).toString('base64');
      scram = { nonce, bare: `n=*,r=${nonce}` };
      const first = Buffer.from(`n,,${scram.bare}`);
      const length = Buffer.alloc(4);
      length.writeInt32BE(first.length);
      socket.write(message('p', 'SCRAM-SHA-256', Buffer.concat([length, first])));
    } else if (code === 11 && scram) {
      const answer = scramClientFinal(password, scram.bare, m.body.subarray(4).toString('utf8'));
      if (!answer.serverNonce.startsWith(scram.nonce)) throw new Error('PostgreSQL answered SCRAM with a nonce not ours');
      scram.serverSignature = answer.serverSignature;
      socket.write(message('p', Buffer.from(answer.clientFinal)));
    } else if (code === 12 && scram?.serverSignature) {
      if (m.body.subarray(4).toString('utf8') !== scram.serverSignature) throw new Error('PostgreSQL’s SCRAM signature does not match');
    } else throw new Error(`PostgreSQL asks for an authentication Carrel's SQL door does not speak (${code})`);
  }
}

export interface PgRawConnection extends RawSession {
  close(): Promise<void>;
}

/**
 * A connection of Carrel's user to the database of DATABASE_URL, ready for queries; timeoutMs
 * bounds each wait for PostgreSQL until then (CARREL_DB_CONNECT_TIMEOUT).
 */
export async function connectRaw(databaseUrl: string, timeoutMs = 5000): Promise<PgRawConnection> {
  const url = new URL(databaseUrl);
  const user = decodeURIComponent(url.username) || 'postgres';
  const socket = await open(url, timeoutMs);
  const incoming = new Incoming(socket);
  socket.write(
    startupPacket({
      user,
      database: decodeURIComponent(url.pathname.slice(1)) || user,
      application_name: 'carrel sql door',
      client_encoding: 'UTF8',
    }),
  );
  await authenticate(socket, incoming, user, decodeURIComponent(url.password));
  const ready = await incoming.until((t) => t === 'Z');
  // A statement's wait is bounded by statement_timeout and the door's own cancel, not by this.
  socket.setTimeout(0);
  const refused = [...messagesIn(ready)].find((m) => m.type === 'E');
  if (refused) throw new Error(`PostgreSQL refused Carrel's login for the SQL door: ${errorFields(refused.body).text}`);
  // The key PostgreSQL gives for cancelling this connection's statement from another connection.
  const key = [...messagesIn(ready)].find((m) => m.type === 'K')?.body;
  let tail: Promise<unknown> = Promise.resolve();
  const send = async (bytes: Uint8Array): Promise<Uint8Array> => {
    const sent = Buffer.from(bytes);
    const type = String.fromCharCode(sent[0]!);
    // Answers to extended-protocol messages wait in PostgreSQL's buffer until a Flush.
    socket.write(type === 'S' || type === 'Q' ? sent : Buffer.concat([sent, message('H')]));
    return incoming.until(ends(sent), type !== 'S' && type !== 'Q');
  };
  return {
    turn<T>(fn: (s: typeof send) => Promise<T>): Promise<T> {
      const run = tail.then(() => fn(send));
      tail = run.catch(() => undefined);
      return run;
    },
    async cancel() {
      if (!key) return;
      const request = Buffer.alloc(16);
      request.writeInt32BE(16);
      request.writeInt32BE(80877102, 4);
      key.copy(request, 8, 0, 8);
      const other = net.connect(
        socketDirOf(url)
          ? { path: `${socketDirOf(url)}/.s.PGSQL.${Number(url.port || 5432)}` }
          : { host: decodeURIComponent(url.hostname) || 'localhost', port: Number(url.port || 5432) },
      );
      // PostgreSQL reads the request and closes the connection without an answer.
      await new Promise<void>((resolve) => {
        other.setTimeout(5000, () => other.destroy());
        other.on('error', () => resolve());
        other.on('close', () => resolve());
        other.on('connect', () => other.end(request));
      });
    },
    async close() {
      socket.end(message('X'));
      await new Promise<void>((resolve) => {
        if (socket.destroyed) resolve();
        else socket.once('close', () => resolve());
      });
    },
  };
}
