// The SQL door's PostgreSQL wire protocol on the embedded engine (CARREL_SQL_PORT): psql, Metabase
// or a script connect with a SQL login's URL, authenticate by SCRAM-SHA-256 against the login's
// role, and run statements as that role (session.ts). TLS is not offered: listen on loopback, or
// put a TLS proxy in front. Connections are capped per client address and in all, must
// authenticate within loginTimeoutMs, and have their messages read no faster than they are answered.
import crypto from 'node:crypto';
import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { SQL_CONNECTION_LIMITS } from '../../config.ts';
import type { RawSession } from '../../db/types.ts';
import { ConnectionGate, drained, endSoon, RefusalLog } from '../../shared/connection-gate.ts';
import { backend, FieldReader, messagesIn, Received } from './messages.ts';
import { parseVerifier, ScramExchange, unmatchableVerifier } from './scram-server.ts';
import { LoginSession } from './session.ts';

/** The database session a client's statements run on. */
export interface ClientSession {
  raw: RawSession;
  /** Shared with Carrel and other clients (the embedded engine): what a client leaves there is removed when it goes. */
  shared: boolean;
  /** Carrel's own settings of the session, put back after each of the client's batches. */
  restore: readonly (readonly [name: string, value: string])[];
  close(): Promise<void>;
}

export interface DoorOptions {
  /** A session for a new client: the embedded engine's one, or a connection of its own on PostgreSQL. */
  session(): Promise<ClientSession>;
  host: string;
  port: number;
  rowCap: number;
  statementTimeoutMs: number;
  /** The stored SCRAM verifier of a SQL login, or undefined when there is no such login. */
  verifier(user: string): Promise<string | undefined>;
  /** What the server reports itself as (server_version, TimeZone …). */
  parameters: Record<string, string>;
  log: FastifyBaseLogger;
  /** How long a batch may hold the engine's session between two of its messages. */
  holdMs?: number;
  /** Connections per login, per client address, and in all. */
  perLogin?: number;
  perAddress?: number;
  total?: number;
  /** A client that has not authenticated this long after connecting is closed. */
  loginTimeoutMs?: number;
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
/** A client may ask for TLS, then GSS encryption (libpq asks for both, in turn), before its start-up packet. */
const NEGOTIATIONS = 2;
/** While a message is being answered, the door reads at most this much more before it stops reading. */
const READ_AHEAD = 64 * 1024;

export interface WireDoor {
  port: number;
  close(): Promise<void>;
}

export async function openWireDoor(o: DoorOptions): Promise<WireDoor> {
  const perLogin = o.perLogin ?? 10;
  const loginTimeoutMs = o.loginTimeoutMs ?? SQL_CONNECTION_LIMITS.loginTimeoutMs;
  const open = new Map<string, number>();
  let serial = 0;
  const refusals = new RefusalLog(o.log);
  // As PostgreSQL answers past max_connections: a FATAL 53300 before the start-up packet is read.
  const gate = new ConnectionGate(
    {
      maxConnections: o.total ?? SQL_CONNECTION_LIMITS.maxConnections,
      maxConnectionsPerAddress: o.perAddress ?? SQL_CONNECTION_LIMITS.maxConnectionsPerAddress,
    },
    (socket, why, address) => {
      refusals.note(`SQL connection refused: ${why}`, { remote: address });
      const text = why === 'too many' ? 'sorry, too many clients already' : `too many connections from ${address}`;
      endSoon(socket, backend.error('53300', text, 'FATAL'));
    },
  );

  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    const id = ++serial;
    const log = o.log.child({ sqlConnection: id, remote: socket.remoteAddress });
    const received = new Received();
    let busy = false;
    /** Settles when the message being answered has been (the connection's session is closed after it). */
    let idle = Promise.resolve();
    let negotiations = 0;
    let started = false;
    let user: string | undefined;
    let scram: ScramExchange | undefined;
    let exchanged = false;
    let session: LoginSession | undefined;
    let database: ClientSession | undefined;
    const write = (bytes: Buffer) => {
      if (socket.writable) socket.write(bytes);
    };
    const fatal = (code: string, text: string) => {
      write(backend.error(code, text, 'FATAL'));
      endSoon(socket);
    };
    // PostgreSQL's authentication_timeout: connections that never log in must not hold the door's places.
    const loginTimer = setTimeout(() => {
      if (session) return;
      refusals.note('SQL connection closed: not authenticated within CARREL_SQL_LOGIN_TIMEOUT_MS', { remote: socket.remoteAddress });
      fatal('57014', 'canceling authentication due to timeout');
    }, loginTimeoutMs);

    async function startup(packet: Buffer): Promise<void> {
      const code = packet.readInt32BE(4);
      if (code === SSL_REQUEST || code === GSS_REQUEST) {
        if (++negotiations > NEGOTIATIONS) return fatal('08P01', 'too many encryption requests before the start-up packet');
        return void write(Buffer.from('N'));
      }
      if (code === CANCEL_REQUEST) return void endSoon(socket); // a statement on the embedded engine cannot be interrupted
      if (code !== PROTOCOL_3) return fatal('0A000', `unsupported frontend protocol ${code >> 16}.${code & 0xffff}`);
      const fields = new FieldReader(packet.subarray(8));
      const params: Record<string, string> = {};
      for (let key = fields.cstring(); key !== ''; key = fields.cstring()) params[key] = fields.cstring();
      started = true;
      user = params.user;
      if (!user) return fatal('28000', 'no PostgreSQL user name specified in startup packet');
      const encoding = (params.client_encoding ?? 'UTF8').toUpperCase().replace(/[-_]/g, '');
      if (!['UTF8', 'UNICODE', 'SQLASCII', 'AUTO'].includes(encoding))
        return fatal('22023', `this server answers in UTF8 only, not ${params.client_encoding}`);
      scram = new ScramExchange(parseVerifier(await o.verifier(user)) ?? unmatchableVerifier(user));
      write(backend.authentication(10, 'SCRAM-SHA-256\0\0'));
    }

    async function authenticate(body: Buffer): Promise<void> {
      const fields = new FieldReader(body);
      if (!scram) return fatal('08P01', 'no authentication was asked for');
      if (!exchanged) {
        const mechanism = fields.cstring();
        const length = fields.int32();
        if (mechanism !== 'SCRAM-SHA-256') return fatal('28000', 'SCRAM-SHA-256 is the only authentication offered');
        try {
          write(backend.authentication(11, scram.first(fields.bytes(length).toString('utf8'))));
          exchanged = true;
        } catch {
          fatal('08P01', 'malformed SCRAM message');
        }
        return;
      }
      const final = scram?.final(fields.rest().toString('utf8'));
      if (!final || !user) {
        log.info({ user }, 'SQL login refused');
        return fatal('28P01', `password authentication failed for user "${user ?? ''}"`);
      }
      if ((open.get(user) ?? 0) >= perLogin) return fatal('53300', `too many connections for role "${user}"`);
      open.set(user, (open.get(user) ?? 0) + 1);
      try {
        database = await o.session();
      } catch (error) {
        open.set(user, (open.get(user) ?? 1) - 1);
        log.error({ err: error }, 'the SQL door could not open a database session');
        return fatal('08006', 'the database cannot be reached');
      }
      write(backend.authentication(12, final));
      write(backend.authentication(0));
      for (const [name, value] of Object.entries({
        ...o.parameters,
        session_authorization: user,
        is_superuser: 'off',
        application_name: '',
      }))
        write(backend.parameterStatus(name, value));
      write(backend.backendKeyData(id, crypto.randomInt(2 ** 31)));
      write(backend.ready('I'));
      clearTimeout(loginTimer);
      session = new LoginSession({
        raw: database.raw,
        role: user,
        tag: `w${id}`,
        rowCap: o.rowCap,
        statementTimeoutMs: o.statementTimeoutMs,
        holdMs: o.holdMs ?? 5000,
        restore: database.restore,
        write,
        abort: (why, code = '57P01') => {
          log.warn({ user }, `SQL login connection ended: ${why}`);
          fatal(code, why);
          socket.destroy();
        },
      });
      log.info({ user }, 'SQL login connected');
    }

    async function next(bytes: Buffer): Promise<void> {
      if (!started || (!session && !scram)) return startup(bytes);
      const [m] = [...messagesIn(bytes)];
      if (!m) return;
      if (!session) {
        if (m.type !== 'p') return fatal('08P01', `expected a password message, got ${JSON.stringify(m.type)}`);
        return authenticate(m.body);
      }
      if (!(await session.handle(m))) endSoon(socket);
    }

    /** The next whole message, or undefined until more has arrived (the start-up packet has no type byte). */
    function whole(): Buffer | undefined {
      const head = started ? 1 : 0;
      if (received.length < head + 4) return undefined;
      const length = received.peek(head + 4).readInt32BE(head) + head;
      // Before authentication a message is a start-up packet or a SCRAM message: small.
      const most = session ? 64 * 1024 * 1024 : 16 * 1024;
      // A start-up packet holds at least its code after its length, which is read before it is answered.
      const least = started ? head + 4 : 8;
      if (length < least || length > most) {
        fatal('08P01', 'invalid message length');
        received.clear();
        return undefined;
      }
      if (received.length < length) return undefined;
      const bytes = received.take(length);
      if (!started) started = bytes.readInt32BE(4) === PROTOCOL_3 || started;
      return bytes;
    }

    /** Answers the messages received, one at a time, each once the client has taken the answers before it. */
    function answerReceived(): void {
      if (busy) return;
      busy = true;
      idle = (async () => {
        try {
          for (let bytes = whole(); bytes && socket.writable; bytes = socket.writable ? whole() : undefined) {
            try {
              await next(bytes);
            } catch (error) {
              log.error({ err: error }, 'SQL login connection failed');
              fatal('XX000', 'the connection failed; see the server log');
            }
            if (socket.writableNeedDrain) await drained(socket);
          }
        } finally {
          busy = false;
        }
        socket.resume();
      })();
    }

    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      // Backpressure: a client sending faster than it is answered waits in its own buffers, not here.
      if (busy && received.length >= READ_AHEAD) socket.pause();
      answerReceived();
    });
    socket.on('close', () => {
      clearTimeout(loginTimer);
      void idle.then(async () => {
        if (!session || !user) return;
        const left = (open.get(user) ?? 1) - 1;
        if (left > 0) open.set(user, left);
        else open.delete(user);
        try {
          await session.close(database?.shared ? left === 0 : undefined);
        } catch (error) {
          log.error({ err: error }, 'SQL login connection left things behind');
        } finally {
          await database?.close();
        }
        log.info({ user }, 'SQL login disconnected');
      });
    });
  });

  gate.guard(server);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    async close() {
      gate.destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
