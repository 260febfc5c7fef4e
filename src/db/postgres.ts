// PostgreSQL engine through postgres.js: one pool per process, sized by config.
import { finished } from 'node:stream/promises';
import postgres from 'postgres';
import type { Db, Queryable } from './types.ts';

export interface PostgresOptions {
  max: number;
  connectTimeoutSec: number;
}

type Sql = postgres.Sql | postgres.TransactionSql;

function queryable(sql: Sql, canCopy: boolean): Queryable {
  return {
    ...(canCopy && {
      async copyFrom(table: string, columns: readonly string[], text: string) {
        const stream = await sql.unsafe(`copy ${table} (${columns.join(', ')}) from stdin`).writable();
        stream.end(text);
        await finished(stream);
      },
    }),
    async query<T>(text: string, params: readonly unknown[] = []) {
      // Prepared statements are cached per connection: the hot queries are parsed once.
      const rows = await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
      return rows as unknown as T[];
    },
    async exec(text: string) {
      await sql.unsafe(text).simple();
    },
  };
}

/** target: a postgres:// URL, or the Unix socket of a running Carrel server's embedded database. */
export function openPostgres(target: string | { socketPath: string }, options: PostgresOptions): Db {
  const settings = {
    max: options.max,
    connect_timeout: options.connectTimeoutSec,
    idle_timeout: 60,
    onnotice: () => {},
    connection: { application_name: 'carrel' },
    // Same JS types as PGlite gives: int8 and numeric stay strings (exact), timestamps become Dates.
    types: {},
  };
  const sql =
    typeof target === 'string'
      ? postgres(target, settings)
      : postgres({ ...settings, path: target.socketPath, user: 'postgres', database: 'postgres' });
  // The embedded server's socket (pglite-socket) does not take COPY's streaming protocol.
  const canCopy = typeof target === 'string';
  return {
    engine: 'postgres',
    ...queryable(sql, canCopy),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return (await sql.begin((tx) => fn(queryable(tx, canCopy)))) as T;
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
