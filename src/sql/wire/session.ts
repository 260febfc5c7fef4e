// One SQL login's connection to the embedded engine, after it has authenticated. Its messages run
// on the engine's one session (shared with Carrel) a batch at a time: from its first message to
// its Sync (or one simple Query), the session is its own, inside a transaction opened here as the
// login's role, with its settings applied as SET LOCAL; then that transaction ends and the session
// goes back to Carrel. What the client believes of its transaction (BEGIN … COMMIT) is kept here.
// Its named statements and portals are renamed so that no two connections' names meet. Every row
// past the row cap is held back, with a notice.
import type { RawSession } from '../../db/types.ts';
import { backend, errorFields, FieldReader, message, messagesIn, type Message, type TransactionStatus } from './messages.ts';
import { classify, type Statement } from './statements.ts';

type Send = (message: Uint8Array) => Promise<Uint8Array>;

export interface SessionOptions {
  raw: RawSession;
  /** The login's role. */
  role: string;
  /** A name of this connection's own, for its statements and portals. */
  tag: string;
  rowCap: number;
  /** Each batch's statement time-out (where the engine can interrupt a statement). */
  statementTimeoutMs: number;
  /** How long a batch may hold the engine's session waiting for the client's next message. */
  holdMs: number;
  /** Carrel's own settings of the session, put back after every batch (a shared session's search path). */
  restore: readonly (readonly [name: string, value: string])[];
  /** Writes to the client. */
  write(bytes: Buffer): void;
  /** Ends the connection with a FATAL error (57P01 unless code says otherwise). */
  abort(why: string, code?: string): void;
}

/** Settings whose changes a client is told of (ParameterStatus), as PostgreSQL does. */
const REPORTED: Record<string, string> = {
  application_name: 'application_name',
  datestyle: 'DateStyle',
  intervalstyle: 'IntervalStyle',
  timezone: 'TimeZone',
  client_encoding: 'client_encoding',
  standard_conforming_strings: 'standard_conforming_strings',
};

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Time past the statement time-out before the door asks the server to cancel a statement itself. */
const CANCEL_GRACE_MS = 1000;

/** A text array parameter in PostgreSQL's text form. */
function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;
}

/** The first column of each DataRow of an answer, as text. */
function firstColumns(answer: Uint8Array): string[] {
  const out: string[] = [];
  for (const m of messagesIn(answer)) {
    if (m.type !== 'D') continue;
    const fields = new FieldReader(m.body);
    if (fields.int16() < 1) continue;
    const length = fields.int32();
    out.push(length < 0 ? '' : fields.bytes(length).toString('utf8'));
  }
  return out;
}

function failure(answer: Uint8Array): { code: string; text: string } | undefined {
  for (const m of messagesIn(answer)) if (m.type === 'E') return errorFields(m.body);
  return undefined;
}

/** Thrown once the connection has been ended with its client told why: nothing more to say or log. */
class SessionEnded extends Error {}

export class LoginSession {
  /** The client's transaction, as it believes it to be. */
  private status: TransactionStatus = 'I';
  /** The client's settings, by name, as the server read them back: applied as parameters in each of its transactions. */
  private readonly settings = new Map<string, string>();
  /** Statements and portals the door answers itself (BEGIN, SET …), by the client's name. */
  private readonly emulated = { statements: new Map<string, Statement>(), portals: new Map<string, Statement>() };
  /** This connection's prepared statements on the session, by their names there. */
  private readonly prepared = new Set<string>();
  /** After an error in a batch, messages are skipped until its Sync, as PostgreSQL does. */
  private skipping = false;
  /** Rows each portal has given the client in this batch, against the row cap. */
  private readonly portalRows = new Map<string, number>();
  private turn: { send: Send; release: () => void; ended: Promise<void> } | undefined;
  /** Runs while a batch holds the session and waits for the client: the client's idle time, never a statement's. */
  private idleTimer: NodeJS.Timeout | undefined;

  /** The session's start this connection began in: after the engine restarts, its temporary tables and statements are gone. */
  private readonly generation: number | undefined;

  constructor(private readonly o: SessionOptions) {
    this.generation = o.raw.generation?.();
  }

  /** Whether the session was started again since this connection began (the embedded engine ended a statement). */
  private restarted(): boolean {
    return this.o.raw.generation?.() !== this.generation;
  }

  /** Handles one frontend message; answers false once the client has said goodbye. */
  async handle(m: Message): Promise<boolean> {
    clearTimeout(this.idleTimer);
    try {
      const more = await this.dispatch(m);
      if (this.turn)
        this.idleTimer = setTimeout(() => this.o.abort('the client held the database past its time between messages'), this.o.holdMs);
      return more;
    } catch (error) {
      // The shared session is never left inside this client's transaction, as its role.
      await this.endTurn().catch(() => undefined);
      if (error instanceof SessionEnded) return false;
      throw error;
    }
  }

  private async dispatch(m: Message): Promise<boolean> {
    switch (m.type) {
      case 'X':
        return false;
      case 'Q':
        await this.simpleQuery(new FieldReader(m.body).cstring());
        return true;
      case 'S':
        await this.sync();
        return true;
      case 'H':
        return true; // every answer is written as soon as it is made
      case 'P':
      case 'B':
      case 'D':
      case 'E':
      case 'C':
        await this.extended(m);
        return true;
      default:
        await this.inBatch(() => this.fail('0A000', `message ${JSON.stringify(m.type)} is not available to SQL logins`));
        return true;
    }
  }

  /**
   * Ends an unfinished batch and, on a shared session, removes what the connection left there
   * (lastOfLogin: its login's temporary tables too). A session of its own (undefined) ends with
   * everything on it.
   */
  async close(lastOfLogin: boolean | undefined): Promise<void> {
    if (this.turn) await this.endTurn().catch(() => undefined);
    if (lastOfLogin === undefined || this.restarted()) return;
    const prepared = [...this.prepared].map((name) => `DEALLOCATE ${quoteIdent(name)}`);
    await this.o.raw.turn(async (send) => {
      if (prepared.length) await send(message('Q', prepared.join('; ')));
      if (!lastOfLogin) return;
      // Its temporary tables: a later connection of the login would find them, and Carrel's session keeps them.
      const owned = firstColumns(
        await send(
          message(
            'Q',
            `select format('drop table if exists %I.%I cascade', n.nspname, c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where c.relpersistence = 't' and c.relkind in ('r', 'p') and c.relowner = (select oid from pg_roles where rolname = ${quoteLiteral(this.o.role)})`,
          ),
        ),
      );
      if (owned.length) await send(message('Q', owned.join('; ')));
    });
  }

  private async simpleQuery(text: string): Promise<void> {
    await this.openTurn();
    const statements = await classify(text);
    for (const statement of statements) {
      if (this.status === 'E' && !(statement.kind === 'transaction' && statement.op !== 'begin')) {
        this.aborted();
        break;
      }
      if (statement.kind === 'run') {
        if (!(await this.writesOwnTables(statement))) {
          if (this.status === 'T') this.status = 'E';
          break;
        }
        const answer = await this.runSimple(statement.text);
        if (answer.failed) {
          if (this.status === 'T') this.status = 'E';
          break;
        }
      } else if (!(await this.answerEmulated(statement))) break;
    }
    // A simple Query is its own batch: nothing after it is skipped.
    this.skipping = false;
    await this.endTurn();
    this.o.write(backend.ready(this.status));
  }

  /** One statement of a simple Query, run as an unnamed portal so that its rows can be capped. */
  private async runSimple(text: string): Promise<{ failed: boolean }> {
    const send = this.turn!.send;
    const steps = [
      message('P', '', text, { int16: 0 }),
      message('B', '', '', { int16: 0 }, { int16: 0 }, { int16: 0 }),
      message('D', Buffer.from('P'), ''),
      message('E', '', { int32: this.o.rowCap + 1 }),
    ];
    for (const step of steps) {
      const answer = await this.watched(send, step);
      const kept = this.capRows(answer, this.o.rowCap).filter((m) => !['1', '2', 'n'].includes(String.fromCharCode(m[0]!)));
      for (const bytes of kept) this.o.write(bytes);
      // After an error PostgreSQL answers nothing until a Sync: send no more.
      if (failure(answer)) return { failed: true };
    }
    return { failed: false };
  }

  private async extended(m: Message): Promise<void> {
    await this.inBatch(async () => {
      if (this.skipping) return;
      const fields = new FieldReader(m.body);
      if (m.type === 'P') await this.parse(fields);
      else if (m.type === 'B') await this.bind(fields);
      else if (m.type === 'D') await this.describe(fields);
      else if (m.type === 'E') await this.execute(fields);
      else await this.closeStatement(fields);
    });
  }

  private async parse(fields: FieldReader): Promise<void> {
    const name = fields.cstring();
    const text = fields.cstring();
    const types = fields.rest();
    const statements = await classify(text);
    if (statements.length > 1) return this.fail('42601', 'cannot insert multiple commands into a prepared statement');
    const statement = statements[0]!;
    if (statement.kind === 'refused') return this.fail(statement.code, statement.why);
    if (statement.kind === 'run') {
      if (!(await this.writesOwnTables(statement))) return;
      this.emulated.statements.delete(name);
      const own = this.rename(name);
      const answer = await this.forward(message('P', own, statement.text, types));
      if (own && !failure(answer)) this.prepared.add(own);
      return;
    }
    this.emulated.statements.set(name, statement);
    this.o.write(backend.parseComplete());
  }

  private async bind(fields: FieldReader): Promise<void> {
    const portal = fields.cstring();
    const name = fields.cstring();
    const statement = this.emulated.statements.get(name);
    if (statement) {
      this.emulated.portals.set(portal, statement);
      this.o.write(backend.bindComplete());
      return;
    }
    this.emulated.portals.delete(portal);
    this.portalRows.delete(portal);
    await this.forward(message('B', this.rename(portal), this.rename(name), fields.rest()));
  }

  private async describe(fields: FieldReader): Promise<void> {
    const what = String.fromCharCode(fields.byte());
    const name = fields.cstring();
    if ((what === 'S' ? this.emulated.statements : this.emulated.portals).has(name)) {
      if (what === 'S') this.o.write(backend.noParameters());
      this.o.write(backend.noData());
      return;
    }
    await this.forward(message('D', Buffer.from(what, 'latin1'), this.rename(name)));
  }

  private async execute(fields: FieldReader): Promise<void> {
    const portal = fields.cstring();
    const maxRows = fields.int32();
    const statement = this.emulated.portals.get(portal);
    if (statement) {
      if (this.status === 'E' && !(statement.kind === 'transaction' && statement.op !== 'begin')) return this.aborted();
      await this.answerEmulated(statement);
      return;
    }
    if (this.status === 'E') return this.aborted();
    // The cap holds for the portal, however many Executes the client reads it in.
    const left = this.o.rowCap - (this.portalRows.get(portal) ?? 0);
    if (left <= 0) {
      this.o.write(backend.commandComplete('SELECT 0'));
      return;
    }
    const answer = await this.forward(
      message('E', this.rename(portal), { int32: maxRows > 0 && maxRows <= left ? maxRows : left + 1 }),
      left,
    );
    const rows = [...messagesIn(answer)].filter((m) => m.type === 'D').length;
    this.portalRows.set(portal, (this.portalRows.get(portal) ?? 0) + Math.min(rows, left));
  }

  private async closeStatement(fields: FieldReader): Promise<void> {
    const what = String.fromCharCode(fields.byte());
    const name = fields.cstring();
    const emulated = what === 'S' ? this.emulated.statements : this.emulated.portals;
    if (emulated.delete(name)) {
      this.o.write(backend.closeComplete());
      return;
    }
    const own = this.rename(name);
    if (what === 'S') this.prepared.delete(own);
    await this.forward(message('C', Buffer.from(what, 'latin1'), own));
  }

  private async sync(): Promise<void> {
    await this.endTurn();
    this.skipping = false;
    this.o.write(backend.ready(this.status));
  }

  /** Passes a message to the session and its answer to the client (rows past the cap held back). */
  private async forward(bytes: Buffer, rowLimit = this.o.rowCap): Promise<Uint8Array> {
    const answer = await this.watched(this.turn!.send, bytes);
    for (const part of this.capRows(answer, rowLimit)) this.o.write(part);
    if (failure(answer)) {
      this.skipping = true;
      if (this.status === 'T') this.status = 'E';
    }
    return answer;
  }

  /**
   * The answer's messages, with rows past the cap held back: Execute asks for one row more than
   * the rows left under the cap (limit), and that row, if it comes, is dropped and the portal's
   * suspension told as the end of the rows, with a notice. A suspension the client asked for
   * (fewer rows) passes as it is.
   */
  private capRows(answer: Uint8Array, limit: number): Buffer[] {
    const out: Buffer[] = [];
    let rows = 0;
    for (const m of messagesIn(answer)) {
      if (m.type === 'D' && ++rows > limit) continue;
      if (m.type === 's' && rows > limit) {
        out.push(
          backend.notice('01000', `the answer is cut at the row cap: ${this.o.rowCap} rows (CARREL_SQL_ROW_CAP)`, 'WARNING'),
          backend.commandComplete(`SELECT ${limit}`),
        );
        continue;
      }
      out.push(Buffer.from(m.whole));
    }
    return out;
  }

  /** Answers a statement the door handles itself; false when it is refused. */
  private async answerEmulated(statement: Statement): Promise<boolean> {
    switch (statement.kind) {
      case 'empty':
        this.o.write(message('I'));
        return true;
      case 'refused':
        this.fail(statement.code, statement.why);
        return false;
      case 'transaction':
        if (statement.op === 'begin' && this.status !== 'I')
          this.o.write(backend.notice('25001', 'there is already a transaction in progress', 'WARNING'));
        if (statement.op !== 'begin' && this.status === 'I')
          this.o.write(backend.notice('25P01', 'there is no transaction in progress', 'WARNING'));
        this.o.write(backend.commandComplete(statement.op === 'commit' && this.status === 'E' ? 'ROLLBACK' : statement.tag));
        this.status = statement.op === 'begin' ? 'T' : 'I';
        return true;
      case 'set':
        return this.applySetting(statement);
      case 'run':
        return true;
    }
  }

  /**
   * Runs the client's SET as SET LOCAL on its own (the server checks the value), then keeps the
   * value the server reads back: later transactions apply it by set_config with parameters, so no
   * text of the client's is ever joined to the door's own statements.
   */
  private async applySetting(statement: Extract<Statement, { kind: 'set' }>): Promise<boolean> {
    const send = this.turn!.send;
    if (statement.local === null) {
      if (statement.name) this.settings.delete(statement.name);
      else this.settings.clear();
      this.o.write(backend.commandComplete(statement.tag));
      return true;
    }
    const answer = await this.withParameters(send, `select current_setting($1)`, [statement.name], async () => {
      const error = failure(await this.watched(send, message('P', '', statement.local!, { int16: 0 })));
      if (error) return error;
      for (const step of [message('B', '', '', { int16: 0 }, { int16: 0 }, { int16: 0 }), message('E', '', { int32: 0 })]) {
        const failed = failure(await send(step));
        if (failed) return failed;
      }
      return undefined;
    });
    if ('failed' in answer) {
      this.fail(answer.failed.code, answer.failed.text);
      return false;
    }
    const value = answer.values[0] ?? '';
    this.settings.set(statement.name, value);
    this.o.write(backend.commandComplete(statement.tag));
    const reported = REPORTED[statement.name];
    if (reported) this.o.write(backend.parameterStatus(reported, value));
    return true;
  }

  /**
   * Runs `before` (messages of the door's own, answered to the door), then one statement with text
   * parameters as a statement of the door's own name; answers the first column of its rows, or
   * the first failure. After a failure the session is synchronised again (the batch's
   * transaction is then aborted).
   */
  private async withParameters(
    send: Send,
    text: string,
    params: readonly string[],
    before: () => Promise<{ code: string; text: string } | undefined> = () => Promise.resolve(undefined),
  ): Promise<{ values: string[] } | { failed: { code: string; text: string } }> {
    const name = `carrel_${this.o.tag}_door`;
    const steps = [
      message('P', name, text, { int16: 0 }),
      message(
        'B',
        name,
        name,
        { int16: 0 },
        { int16: params.length },
        ...params.flatMap((p) => [{ int32: Buffer.byteLength(p) }, Buffer.from(p, 'utf8')]),
        { int16: 0 },
      ),
      message('E', name, { int32: 0 }),
      message('C', Buffer.from('P'), name),
      message('C', Buffer.from('S'), name),
    ];
    let failed = await before();
    const values: string[] = [];
    for (const step of failed ? [] : steps) {
      const answer = await this.watched(send, step);
      values.push(...firstColumns(answer));
      failed = failure(answer);
      if (failed) break;
    }
    if (!failed) return { values };
    // PostgreSQL skips messages after a failure until a Sync; then the statement may be closed.
    await send(message('S'));
    await send(message('C', Buffer.from('S'), name));
    await send(message('S'));
    return { failed };
  }

  /**
   * Whether every relation the statement writes is a temporary table (or index) of the login's
   * own, as the server resolves its name now, under the login's role and search path; refuses it
   * to the client otherwise. A name that resolves to nothing is left to the statement to fail on.
   */
  private async writesOwnTables(statement: Extract<Statement, { kind: 'run' }>): Promise<boolean> {
    if (statement.writes.length === 0) return true;
    const answer = await this.withParameters(
      this.turn!.send,
      `select n from unnest($1::text[]) n
       join pg_catalog.pg_class c on c.oid = pg_catalog.to_regclass(n)
       where c.relpersistence <> 't' or c.relowner <> (select oid from pg_catalog.pg_roles where rolname = current_user)`,
      [textArray(statement.writes)],
    );
    if ('failed' in answer) {
      this.fail(answer.failed.code, answer.failed.text);
      return false;
    }
    if (answer.values.length === 0) return true;
    this.fail('42501', `SQL logins write only their own temporary tables, not ${answer.values[0]}`);
    return false;
  }

  /**
   * Sends a message of the client's batch; on PostgreSQL, a statement still running past the
   * time-out (which a statement may have lifted by means the door cannot see) is cancelled by the
   * door itself.
   */
  private async watched(send: Send, bytes: Uint8Array): Promise<Uint8Array> {
    const raw = this.o.raw;
    if (!raw.cancel) return send(bytes);
    let cancelled = false;
    const timer = setTimeout(() => {
      cancelled = true;
      void raw.cancel?.().catch(() => undefined);
    }, this.o.statementTimeoutMs + CANCEL_GRACE_MS);
    try {
      return await send(bytes);
    } catch (error) {
      // The embedded engine ends a statement by starting again: the session, and this connection, are gone.
      if (!cancelled || !this.restarted()) throw error;
      this.o.abort('canceling statement due to statement timeout', '57014');
      throw new SessionEnded();
    } finally {
      clearTimeout(timer);
    }
  }

  private fail(code: string, text: string): void {
    this.o.write(backend.error(code, text));
    this.skipping = true;
    if (this.status === 'T') this.status = 'E';
  }

  private aborted(): void {
    this.o.write(backend.error('25P02', 'current transaction is aborted, commands ignored until end of transaction block'));
    this.skipping = true;
  }

  private rename(name: string): string {
    return name ? `carrel_${this.o.tag}_${name}` : '';
  }

  private async inBatch(work: () => Promise<void> | void): Promise<void> {
    await this.openTurn();
    await work();
  }

  /**
   * Takes the engine's session for a batch (once), and opens the login's transaction on it: its
   * role, the views first on its search path, its settings.
   */
  private async openTurn(): Promise<void> {
    if (this.turn) return;
    if (this.restarted()) {
      this.o.abort(
        'the database session was started again (a statement ran past its time-out): this connection’s temporary tables and prepared statements are gone',
      );
      throw new SessionEnded();
    }
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let send!: Send;
    let started!: () => void;
    const ready = new Promise<void>((resolve) => (started = resolve));
    const ended = this.o.raw.turn(async (s) => {
      send = s;
      started();
      await released;
    });
    // A turn that fails before it starts (the engine could not start again, say) ends the wait too.
    await Promise.race([ready, ended]);
    this.turn = { send, release, ended };
    const opening = [
      'BEGIN',
      `SET LOCAL ROLE ${quoteIdent(this.o.role)}`,
      'SET LOCAL search_path = sierra_view, pg_catalog, pg_temp',
      `SET LOCAL statement_timeout = ${Math.trunc(this.o.statementTimeoutMs)}`,
    ].join('; ');
    const error = failure(await send(message('Q', opening)));
    if (error) throw new Error(`the SQL login's transaction could not be opened: ${error.text}`);
    if (this.settings.size === 0) return;
    const applied = await this.withParameters(
      send,
      'select pg_catalog.set_config(n, v, true) from unnest($1::text[], $2::text[]) s(n, v)',
      [textArray([...this.settings.keys()]), textArray([...this.settings.values()])],
    );
    if (!('failed' in applied)) return;
    // Its settings no longer apply (a time zone gone, say): it starts again from none.
    this.settings.clear();
    await send(message('Q', 'ROLLBACK'));
    const again = failure(await send(message('Q', opening)));
    if (again) throw new Error(`the SQL login's transaction could not be opened: ${again.text}`);
    this.o.write(backend.notice('01000', `settings set earlier were dropped: ${applied.failed.text}`, 'WARNING'));
  }

  /**
   * Ends the login's transaction (whatever it did is kept, unless it failed), puts the session's
   * settings, role and authorization back as Carrel keeps them (whatever a statement changed
   * beyond its transaction), and gives the session back.
   */
  private async endTurn(): Promise<void> {
    const turn = this.turn;
    if (!turn) return;
    this.turn = undefined;
    clearTimeout(this.idleTimer);
    this.portalRows.clear();
    try {
      // PostgreSQL skips every message after an error until a Sync: the COMMIT must not be skipped.
      await turn.send(message('S'));
      await turn.send(message('Q', 'COMMIT; RESET ALL; RESET SESSION AUTHORIZATION; RESET ROLE'));
      if (this.o.restore.length) {
        const restored = await this.withParameters(
          turn.send,
          'select pg_catalog.set_config(n, v, false) from unnest($1::text[], $2::text[]) s(n, v)',
          [textArray(this.o.restore.map(([name]) => name)), textArray(this.o.restore.map(([, value]) => value))],
        );
        if ('failed' in restored) throw new Error(`Carrel's settings could not be put back: ${restored.failed.text}`);
        await turn.send(message('S'));
      }
    } finally {
      turn.release();
      await turn.ended;
    }
  }
}
