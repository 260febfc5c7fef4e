// The engine-neutral database interface. Repositories write PostgreSQL SQL with $1… parameters
// against it; the same text runs on PostgreSQL (postgres.js) and on embedded PGlite.
export interface QueryOptions {
  /**
   * false: planned afresh for its values every time, never kept as a prepared statement (whose
   * generic plan takes every value for an average one), for a long statement whose best plan
   * depends on them. Default true: prepared once per connection. (The embedded engine plans every
   * statement for its values.)
   */
  prepared?: boolean;
  /**
   * true: planned once per connection, whatever its values (PostgreSQL's generic plan, forced), for
   * a hot statement whose best plan follows from its text alone. PostgreSQL otherwise plans such a
   * statement afresh every time its values look cheaper to it than the generic plan (the lists of a
   * search), and planning a search's statements cost a fifth of its PostgreSQL time. Ignored in a
   * transaction and by the embedded engine.
   */
  planOnce?: boolean;
}

export interface Table {
  columns: { name: string; typeOid: number }[];
  rows: unknown[][];
}

export interface Queryable {
  /** One parameterised statement; answers its rows. */
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[], options?: QueryOptions): Promise<T[]>;
  /**
   * One statement, answered as a table: its columns (names as the statement gives them, repeats
   * and all, and type oids) and its rows as arrays, for statements written by people (the SQL
   * door), whose columns are not known in advance.
   */
  queryTable(text: string, params?: readonly unknown[]): Promise<Table>;
  /** Several statements with no parameters (migrations). */
  exec(text: string): Promise<void>;
  /**
   * COPY rows (in COPY's text format, see copy-text.ts) into a table's columns; absent where the
   * connection cannot (a client of the embedded server's socket), and callers then INSERT.
   */
  copyFrom?(table: string, columns: readonly string[], text: string | Uint8Array): Promise<void>;
}

/**
 * The embedded engine's one session, for the SQL door's wire protocol (src/sql/wire): fn has the
 * session to itself, passing whole frontend messages and receiving PostgreSQL's answers, until
 * it resolves.
 */
export interface RawSession {
  turn<T>(fn: (send: (message: Uint8Array) => Promise<Uint8Array>) => Promise<T>): Promise<T>;
  /** Asks the server to cancel the statement running on this session; absent where a statement cannot be interrupted. */
  cancel?(): Promise<void>;
  /** Counts the session's restarts (the embedded engine's): what a client kept in it is gone after one. */
  generation?(): number;
}

export interface Db extends Queryable {
  readonly engine: 'postgres' | 'pglite';
  /**
   * Subscribes to a notification channel (PostgreSQL LISTEN; NOTIFY from any process reaches it).
   * onListen runs each time the subscription is (re)established: notifications sent while it was
   * down are lost. Absent where the engine cannot deliver them to this process (embedded PGlite).
   */
  listen?(channel: string, onNotify: () => void, onListen: () => void): Promise<void>;
  /**
   * Takes the advisory lock `key` on a session of its own, held until release is called or the
   * process ends (its session ends with it); answers null at once when another session holds it.
   * Clients of a running server's embedded database share its one session, so there the lock
   * tells no process from another: it is always given.
   */
  tryLock(key: number): Promise<(() => Promise<void>) | null>;
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** The embedded server's session at the protocol level; absent on PostgreSQL and in commands. */
  rawSession?: RawSession;
  /**
   * Ends the statement the embedded server's engine is running, which it cannot cancel, by
   * starting the engine again (the statement's transaction is rolled back; every session-level
   * thing of every client is gone). Absent on PostgreSQL, where statement_timeout ends a statement.
   */
  interrupt?(why: string): Promise<void>;
  close(): Promise<void>;
}
