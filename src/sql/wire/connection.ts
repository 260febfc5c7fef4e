// One client connection of the SQL port (PostgreSQL's wire protocol), from its first byte to its
// close. What the connection can receive next depends on how far it has come, so it is one state
// field, and each step from one state to the next is one method:
//
//   negotiating ──start-up packet──▶ authenticating ──SCRAM proof──▶ ready ──socket closes──▶ closed
//
// - negotiating: before the start-up packet. A client may ask for TLS or GSS encryption (refused
//   with 'N': the port offers neither) or send a CancelRequest. Packets here have no type byte.
// - authenticating: the start-up packet named a user and SCRAM-SHA-256 was asked for; the client's
//   first SCRAM message is answered, then its proof is checked.
// - ready: logged in; every message goes to the login's session (session.ts).
// - closed: the socket has closed and what the connection held has been given back.
//
// A refusal on the way writes a FATAL error and ends the socket without changing the state: nothing
// more is read once the socket is ending, and its close is what moves the connection to closed.
// Messages are read whole from what was received and answered one at a time, in order.
import crypto from 'node:crypto';
import type net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { RawSession } from '../../db/types.ts';
import { drained, endSoon, type RefusalLog } from '../../shared/connection-gate.ts';
import { backend, FieldReader, messagesIn, Received, type Message } from './messages.ts';
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

/** Each login's connections, counted across the port so that one login cannot take every place. */
export interface LoginPlaces {
  /** Takes a place for one more connection of the login; false when it has none left. */
  take(user: string): boolean;
  /** Gives a place back; answers how many connections the login still has. */
  give(user: string): number;
}

/** What every connection of the port shares. */
export interface PortShared {
  /** A session for a new client: the embedded engine's one, or a connection of its own on PostgreSQL. */
  session(): Promise<ClientSession>;
  /** The stored SCRAM verifier of a SQL login, or undefined when there is no such login. */
  verifier(user: string): Promise<string | undefined>;
  /** What the server reports itself as (server_version, TimeZone …). */
  parameters: Record<string, string>;
  rowCap: number;
  statementTimeoutMs: number;
  /** How long a batch may hold the engine's session between two of its messages. */
  holdMs: number;
  /** A client that has not logged in this long after connecting is closed. */
  loginTimeoutMs: number;
  logins: LoginPlaces;
  refusals: RefusalLog;
  log: FastifyBaseLogger;
}

type Negotiating = { kind: 'negotiating'; negotiations: number };
/** exchanged: the client's first SCRAM message has been answered; its proof comes next. */
type Authenticating = { kind: 'authenticating'; user: string; scram: ScramExchange; exchanged: boolean };
type Ready = { kind: 'ready'; user: string; session: LoginSession; database: ClientSession };
type State = Negotiating | Authenticating | Ready | { kind: 'closed' };

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
/** A client may ask for TLS, then GSS encryption (libpq asks for both, in turn), before its start-up packet. */
const NEGOTIATIONS = 2;
/** While a message is being answered, the connection reads at most this much more before it stops reading. */
const READ_AHEAD = 64 * 1024;

export class WireConnection {
  private state: State = { kind: 'negotiating', negotiations: 0 };

  // The message loop's own bookkeeping, apart from the protocol's state.
  private readonly received = new Received();
  /** Whether the message loop is running. */
  private busy = false;
  /** Settles when the message being answered has been (the connection's session is closed after it). */
  private idle = Promise.resolve();

  private readonly log: FastifyBaseLogger;
  private readonly loginTimer: NodeJS.Timeout;

  /** Takes the socket: from here on the connection reads it, answers it, and cleans up when it closes. */
  constructor(
    private readonly socket: net.Socket,
    private readonly id: number,
    private readonly port: PortShared,
  ) {
    socket.setNoDelay(true);
    this.log = port.log.child({ sqlConnection: id, remote: socket.remoteAddress });
    // PostgreSQL's authentication_timeout: connections that never log in must not hold the port's places.
    this.loginTimer = setTimeout(() => this.loginTimedOut(), port.loginTimeoutMs);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('close', () => {
      clearTimeout(this.loginTimer);
      void this.idle.then(() => this.close());
    });
  }

  // ─── The transitions ───────────────────────────────────────────────────────────────────────────

  /** Negotiating: a packet without a type byte, an encryption request, a CancelRequest or the start-up packet. */
  private async negotiate(state: Negotiating, packet: Buffer): Promise<void> {
    const code = packet.readInt32BE(4);
    if (code === SSL_REQUEST || code === GSS_REQUEST) return this.refuseEncryption(state);
    if (code === CANCEL_REQUEST) return void endSoon(this.socket); // a statement on the embedded engine cannot be interrupted
    if (code !== PROTOCOL_3) return this.fatal('0A000', `unsupported frontend protocol ${code >> 16}.${code & 0xffff}`);
    return this.startUp(packet);
  }

  /** Negotiating → negotiating, one more request answered 'N', up to NEGOTIATIONS (a flood of them is cut short). */
  private refuseEncryption(state: Negotiating): void {
    const negotiations = state.negotiations + 1;
    if (negotiations > NEGOTIATIONS) return this.fatal('08P01', 'too many encryption requests before the start-up packet');
    this.state = { kind: 'negotiating', negotiations };
    this.write(Buffer.from('N'));
  }

  /** Negotiating → authenticating: the start-up packet names the user, and SCRAM-SHA-256 is asked for. */
  private async startUp(packet: Buffer): Promise<void> {
    const fields = new FieldReader(packet.subarray(8));
    const params: Record<string, string> = {};
    for (let key = fields.cstring(); key !== ''; key = fields.cstring()) params[key] = fields.cstring();
    const user = params.user;
    if (!user) return this.fatal('28000', 'no PostgreSQL user name specified in startup packet');
    const encoding = (params.client_encoding ?? 'UTF8').toUpperCase().replace(/[-_]/g, '');
    if (!['UTF8', 'UNICODE', 'SQLASCII', 'AUTO'].includes(encoding))
      return this.fatal('22023', `this server answers in UTF8 only, not ${params.client_encoding}`);
    // A user who is not there gets an exchange that runs the same way and fails, so that a client cannot tell.
    const scram = new ScramExchange(parseVerifier(await this.port.verifier(user)) ?? unmatchableVerifier(user));
    this.state = { kind: 'authenticating', user, scram, exchanged: false };
    this.write(backend.authentication(10, 'SCRAM-SHA-256\0\0'));
  }

  /** Authenticating → authenticating, exchanged: the client's first SCRAM message answered with the salt and a nonce. */
  private answerScramFirst(state: Authenticating, body: Buffer): void {
    const fields = new FieldReader(body);
    const mechanism = fields.cstring();
    const length = fields.int32();
    if (mechanism !== 'SCRAM-SHA-256') return this.fatal('28000', 'SCRAM-SHA-256 is the only authentication offered');
    let serverFirst: string;
    try {
      serverFirst = state.scram.first(fields.bytes(length).toString('utf8'));
    } catch {
      return this.fatal('08P01', 'malformed SCRAM message');
    }
    this.write(backend.authentication(11, serverFirst));
    this.state = { ...state, exchanged: true };
  }

  /**
   * Authenticating, exchanged → ready: the client's proof holds, the login has a place left, and a
   * database session is opened; then the client is told it is in, as PostgreSQL tells it.
   */
  private async logIn(state: Authenticating, body: Buffer): Promise<void> {
    const { user } = state;
    const final = state.scram.final(body.toString('utf8'));
    if (!final) {
      this.log.info({ user }, 'SQL login refused');
      return this.fatal('28P01', `password authentication failed for user "${user}"`);
    }
    if (!this.port.logins.take(user)) return this.fatal('53300', `too many connections for role "${user}"`);
    let database: ClientSession;
    try {
      database = await this.port.session();
    } catch (error) {
      this.port.logins.give(user);
      this.log.error({ err: error }, 'the SQL door could not open a database session');
      return this.fatal('08006', 'the database cannot be reached');
    }
    this.write(backend.authentication(12, final));
    this.write(backend.authentication(0));
    for (const [name, value] of Object.entries({
      ...this.port.parameters,
      session_authorization: user,
      is_superuser: 'off',
      application_name: '',
    }))
      this.write(backend.parameterStatus(name, value));
    this.write(backend.backendKeyData(this.id, crypto.randomInt(2 ** 31)));
    this.write(backend.ready('I'));
    clearTimeout(this.loginTimer);
    // Set even when the socket ended while the session was being opened: its close then gives both back.
    this.state = {
      kind: 'ready',
      user,
      database,
      session: new LoginSession({
        raw: database.raw,
        role: user,
        tag: `w${this.id}`,
        rowCap: this.port.rowCap,
        statementTimeoutMs: this.port.statementTimeoutMs,
        holdMs: this.port.holdMs,
        restore: database.restore,
        write: (bytes) => this.write(bytes),
        abort: (why, code = '57P01') => {
          this.log.warn({ user }, `SQL login connection ended: ${why}`);
          this.fatal(code, why);
          this.socket.destroy();
        },
      }),
    };
    this.log.info({ user }, 'SQL login connected');
  }

  /**
   * Any state → closed, once the socket has closed and its last message has been answered (so that
   * no statement of it still runs): a login gives back its place and its database session.
   */
  private async close(): Promise<void> {
    const was = this.state;
    this.state = { kind: 'closed' };
    if (was.kind !== 'ready') return;
    const left = this.port.logins.give(was.user);
    try {
      // On a shared session, the login's temporary tables go with its last connection.
      await was.session.close(was.database.shared ? left === 0 : undefined);
    } catch (error) {
      this.log.error({ err: error }, 'SQL login connection left things behind');
    }
    // Nothing waits on this close: a failure to end the session is logged, never left unhandled.
    await was.database
      .close()
      .catch((error: unknown) => this.log.error({ err: error }, 'SQL login connection could not close its session'));
    this.log.info({ user: was.user }, 'SQL login disconnected');
  }

  /** PostgreSQL's authentication_timeout: a client that has not logged in by now is closed. */
  private loginTimedOut(): void {
    if (this.state.kind === 'ready') return;
    this.port.refusals.note('SQL connection closed: not authenticated within CARREL_SQL_LOGIN_TIMEOUT_MS', {
      remote: this.socket.remoteAddress,
    });
    this.fatal('57014', 'canceling authentication due to timeout');
  }

  /** One whole message (a packet, while negotiating), to whichever step the state is at. */
  private async answer(bytes: Buffer): Promise<void> {
    const state = this.state;
    if (state.kind === 'negotiating') return this.negotiate(state, bytes);
    const m = firstMessage(bytes);
    if (!m) return;
    switch (state.kind) {
      case 'authenticating':
        if (m.type !== 'p') return this.fatal('08P01', `expected a password message, got ${JSON.stringify(m.type)}`);
        return state.exchanged ? this.logIn(state, m.body) : this.answerScramFirst(state, m.body);
      case 'ready':
        // false: the client said goodbye (Terminate).
        if (!(await state.session.handle(m))) endSoon(this.socket);
        return;
      case 'closed':
        return;
    }
  }

  // ─── The message loop ──────────────────────────────────────────────────────────────────────────

  private receive(chunk: Buffer): void {
    this.received.push(chunk);
    // Backpressure: a client sending faster than it is answered waits in its own buffers, not here.
    if (this.busy && this.received.length >= READ_AHEAD) this.socket.pause();
    this.answerReceived();
  }

  /** Answers the messages received, one at a time, each once the client has taken the answers before it. */
  private answerReceived(): void {
    if (this.busy) return;
    this.busy = true;
    this.idle = (async () => {
      try {
        for (let bytes = this.whole(); bytes && this.socket.writable; bytes = this.socket.writable ? this.whole() : undefined) {
          try {
            await this.answer(bytes);
          } catch (error) {
            this.log.error({ err: error }, 'SQL login connection failed');
            this.fatal('XX000', 'the connection failed; see the server log');
          }
          if (this.socket.writableNeedDrain) await drained(this.socket);
        }
      } finally {
        this.busy = false;
      }
      this.socket.resume();
    })();
  }

  /** The next whole message, or undefined until more has arrived (while negotiating, packets have no type byte). */
  private whole(): Buffer | undefined {
    const head = this.state.kind === 'negotiating' ? 0 : 1;
    if (this.received.length < head + 4) return undefined;
    const length = this.received.peek(head + 4).readInt32BE(head) + head;
    // Before the login a message is a start-up packet or a SCRAM message: small.
    const most = this.state.kind === 'ready' ? 64 * 1024 * 1024 : 16 * 1024;
    // A packet holds at least its code after its length; a typed message, its type and length.
    const least = head ? 5 : 8;
    if (length < least || length > most) {
      this.fatal('08P01', 'invalid message length');
      this.received.clear();
      return undefined;
    }
    if (this.received.length < length) return undefined;
    return this.received.take(length);
  }

  private write(bytes: Buffer): void {
    if (this.socket.writable) this.socket.write(bytes);
  }

  /** Refuses the client with PostgreSQL's FATAL error, and ends the connection once that has been sent. */
  private fatal(code: string, text: string): void {
    this.write(backend.error(code, text, 'FATAL'));
    endSoon(this.socket);
  }
}

/** The one typed message of a whole message's bytes. */
function firstMessage(bytes: Buffer): Message | undefined {
  const [m] = [...messagesIn(bytes)];
  return m;
}
