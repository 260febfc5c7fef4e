// PostgreSQL engine through postgres.js: one pool per process, sized by config (and one of its own
// for statements planned once, when asked for: QueryOptions.planOnce).
import net from 'node:net';
import { finished } from 'node:stream/promises';
import postgres from 'postgres';
import { fromDriver } from './errors.ts';
import { PoolGate } from './pool-gate.ts';
import { Reachability } from './reachability.ts';
import type { Db, Queryable, QueryOptions } from './types.ts';

export interface PostgresOptions {
  max: number;
  /** Connections of the pool for statements planned once (QueryOptions.planOnce); default: max. */
  planOnceMax?: number;
  connectTimeoutSec: number;
  /** The longest a statement waits for a free connection before failing (default: connectTimeoutSec). */
  poolWaitSec?: number;
}

type Sql = postgres.Sql | postgres.TransactionSql;

/** How a statement reaches its pool: through its gate (pool-gate.ts), or directly in a transaction. */
type Through = <T>(fn: () => Promise<T>, pool?: 'planOnce') => Promise<T>;
const direct: Through = async (fn) => {
  try {
    return await fn();
  } catch (error) {
    throw fromDriver(error);
  }
};

/** planOnce: the pool for statements planned once (QueryOptions.planOnce), where there is one. */
function queryable(sql: Sql, canCopy: boolean, through: Through, planOnce?: () => postgres.Sql): Queryable {
  const raw: Queryable = {
    ...(canCopy && {
      async copyFrom(table: string, columns: readonly string[], text: string | Uint8Array) {
        const query = sql.unsafe(`copy ${table} (${columns.join(', ')}) from stdin`);
        // postgres.js 3.4.9 loses an error that comes after the data's end (a constraint, a
        // trigger; porsager/postgres#1173): the stream never finishes, and the error goes to the
        // query's reject, spent once the query resolved to the stream. It is caught there.
        const spent = query as unknown as { reject: (error: unknown) => void };
        const reject = spent.reject;
        const failed = new Promise<never>((_, fail) => {
          spent.reject = (error) => {
            fail(error instanceof Error ? error : new Error(String(error)));
            reject(error);
          };
        });
        failed.catch(() => {}); // an error before the stream opens is thrown by writable() below
        const stream = await query.writable();
        stream.end(text);
        await Promise.race([finished(stream), failed]);
      },
    }),
    async query<T>(text: string, params: readonly unknown[] = [], options: QueryOptions = {}) {
      // Prepared statements are cached per connection: the hot queries are parsed once.
      const on = options.planOnce && planOnce ? planOnce() : sql;
      const rows = await on.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: options.prepared ?? true });
      return rows as unknown as T[];
    },
    async queryTable(text: string, params: readonly unknown[] = []) {
      // Not prepared (a person's statement is run once), but sent as one (the extended protocol,
      // which takes one statement: postgres.js would send a text with no parameters as it is).
      const rows = await sql
        .unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: false, simple: false } as postgres.UnsafeQueryOptions)
        .values();
      // A statement that returns no rows (DECLARE, SET) has no columns.
      return { columns: (rows.columns ?? []).map((c) => ({ name: c.name, typeOid: c.type })), rows: [...(rows as unknown as unknown[][])] };
    },
    async exec(text: string) {
      await sql.unsafe(text).simple();
    },
  };
  return {
    ...(canCopy && { copyFrom: (table, columns, text) => through(() => raw.copyFrom!(table, columns, text)) }),
    query: (text, params, options = {}) => through(() => raw.query(text, params, options), options.planOnce ? 'planOnce' : undefined),
    queryTable: (text, params) => through(() => raw.queryTable(text, params)),
    exec: (text) => through(() => raw.exec(text)),
  };
}

interface SocketOptions {
  host: string[];
  port: number[];
  path?: string;
}

/**
 * Opens the connection's socket, with Nagle's algorithm off. postgres.js leaves it on, and then a
 * small message written after a large one (a COPY's end after its data, an Execute after a big
 * Bind) waits for the server's delayed ACK, 40 ms each time: it made imports three times slower.
 * The socket is handed over still connecting (writes wait in its buffer), so a refused or lost
 * connection reaches postgres.js as the same error and close events as its own socket's would.
 * (Only the first host of a multi-host URL is used.)
 */
function connectWithoutDelay(timeoutSec: number) {
  return (o: SocketOptions): net.Socket => {
    const socket = o.path
      ? net.connect({ path: o.path })
      : net.connect({ host: o.host[0] ?? 'localhost', port: o.port[0] ?? 5432, noDelay: true });
    const timer = setTimeout(
      () => socket.destroy(new Error(`connect ETIMEDOUT ${o.path ?? `${o.host[0]}:${o.port[0]}`}`)),
      timeoutSec * 1000,
    );
    socket.once('connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
    return socket;
  };
}

/**
 * libpq's form for a Unix socket, `postgres:///carrel?host=/var/run/postgresql`: postgres.js reads
 * a socket directory only as the URL's host, and would send `host` to the server as a setting.
 * (On one machine a socket costs both sides about a fifth less CPU a query than loopback TCP.)
 */
export function socketDirectory(url: string): { url: string; host?: string } {
  // A URL the WHATWG parser refuses (postgres.js's several hosts, h1:5432,h2:5433) has no such parameter to take.
  if (!URL.canParse(url)) return { url };
  const parsed = new URL(url);
  const host = parsed.searchParams.get('host');
  if (!host?.startsWith('/')) return { url };
  parsed.searchParams.delete('host');
  return { url: parsed.toString(), host };
}

/** target: a postgres:// URL, or the Unix socket of a running Carrel server's embedded database. */
export function openPostgres(target: string | { socketPath: string }, options: PostgresOptions): Db {
  const settings = {
    max: options.max,
    connect_timeout: options.connectTimeoutSec,
    idle_timeout: 60,
    // A connection lost with statements waiting is made again after this many seconds: at most half
    // a second (postgres.js's own waits grow to 20 s, and statements waited all that time).
    backoff: (retries: number) => Math.min(0.5, 0.05 * 2 ** retries),
    onnotice: () => {},
    // No JIT compilation: Carrel's statements are short, and where the planner overestimates one
    // (a search's pool, whose size it cannot know) it spent 100-250 ms compiling a statement that
    // runs in 10 ms (bench/HISTORY.md, 2026-11-23, search, fifth session).
    // Commits wait for their WAL to be flushed, whatever the server's or the role's default: with
    // read replicas, a client's last write and a harvest's horizon are positions in the flushed WAL
    // (src/db/replicas.ts walPosition), which an asynchronous commit may not yet have reached.
    connection: { application_name: 'carrel', jit: 'off', synchronous_commit: 'on' },
    // Same JS types as PGlite gives: int8 and numeric stay strings (exact), timestamps become Dates.
    types: {},
  };
  // `socket` is a postgres.js option its type declarations do not list.
  const withSocket = { ...settings, socket: connectWithoutDelay(options.connectTimeoutSec) };
  let sql: postgres.Sql;
  // Statements planned once (QueryOptions.planOnce) have a pool of their own, opened when first
  // asked for, whose sessions force generic plans: a setting per session, not per statement.
  let planOnceSql: postgres.Sql | undefined;
  let closed = false;
  let planOnce: (() => postgres.Sql) | undefined;
  if (typeof target === 'string') {
    const { url, host } = socketDirectory(target);
    const connect = host ? { ...withSocket, host } : withSocket;
    sql = postgres(url, connect);
    // (After close, the closed main pool answers, refusing, rather than a new pool nothing closes.)
    planOnce = () =>
      closed
        ? sql
        : (planOnceSql ??= postgres(url, {
            ...connect,
            max: options.planOnceMax ?? options.max,
            connection: { ...settings.connection, plan_cache_mode: 'force_generic_plan' },
          }));
  } else sql = postgres({ ...settings, path: target.socketPath, user: 'postgres', database: 'postgres' });
  // The embedded server's socket (pglite-socket) does not take COPY's streaming protocol.
  const canCopy = typeof target === 'string';
  const waitMs = (options.poolWaitSec ?? options.connectTimeoutSec) * 1000;
  const gates = { main: new PoolGate(options.max, waitMs), planOnce: new PoolGate(options.planOnceMax ?? options.max, waitMs) };
  const reachability = new Reachability();
  /** Work on the database, admitted while it can be reached; its failures as the database layer's. */
  const admitted = async <T>(fn: () => Promise<T>): Promise<T> => {
    const probe = reachability.admit();
    let failure: unknown;
    try {
      return await fn();
    } catch (error) {
      failure = error;
      throw fromDriver(error);
    } finally {
      reachability.settled(probe, failure);
    }
  };
  /** A statement (or a transaction) outside a transaction: admitted, then given its turn on its pool. */
  const through: Through = (fn, pool) => admitted(() => gates[pool === 'planOnce' && planOnce && !closed ? 'planOnce' : 'main'].run(fn));
  return {
    engine: 'postgres',
    ...queryable(sql, canCopy, through, planOnce),
    ...(typeof target === 'string' && {
      async listen(channel: string, onNotify: () => void, onListen: () => void) {
        // postgres.js keeps a connection of its own for this, and listens again after reconnecting.
        await sql.listen(channel, onNotify, onListen);
      },
    }),
    async tryLock(key: number) {
      // The embedded server's socket: every client shares its one session (see Db.tryLock).
      if (typeof target !== 'string') return async () => {};
      // A connection of its own for as long as the lock is held: the pool's others keep working.
      await gates.main.acquire();
      let session: postgres.ReservedSql;
      try {
        session = await admitted(() => sql.reserve());
      } catch (error) {
        gates.main.release();
        throw error;
      }
      let held = false;
      const done = () => {
        session.release();
        gates.main.release();
      };
      try {
        held = (await session.unsafe<{ held: boolean }[]>('select pg_try_advisory_lock($1) as held', [key]))[0]!.held;
      } catch (error) {
        throw fromDriver(error);
      } finally {
        if (!held) done();
      }
      if (!held) return null;
      return async () => {
        try {
          await session.unsafe('select pg_advisory_unlock($1)', [key]);
        } catch (error) {
          throw fromDriver(error);
        } finally {
          done();
        }
      };
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return through(async () => {
        let committing = false;
        try {
          return (await sql.begin(async (tx) => {
            const value = await fn(queryable(tx, canCopy, direct));
            committing = true; // postgres.js sends COMMIT once fn resolves
            return value;
          })) as T;
        } catch (error) {
          throw committing ? fromDriver(error, true) : error;
        }
      });
    },
    async close() {
      closed = true;
      await Promise.all([sql.end({ timeout: 5 }), planOnceSql?.end({ timeout: 5 })]);
    },
  };
}
