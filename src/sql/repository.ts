// SQL for the SQL door: a statement a library wrote, run read-only over the sierra_view views.
import type { Queryable, Table } from '../db/types.ts';

export interface Limits {
  statementTimeoutMs: number;
}

/** Values of the statement's $1, $2 …, as text (the statement casts them), or null. */
export type Params = readonly (string | null)[];

export interface Page {
  offset: number;
  limit: number;
}

/**
 * Runs one SELECT (or VALUES, or WITH … SELECT) in the open transaction, read-only, as the reader
 * role (which reads the sierra_view views and nothing else), with those views first on the search
 * path, and answers the page's rows and one more when there are more. The statement is a cursor's
 * query: PostgreSQL takes nothing else there (no second statement, no write, no utility command),
 * and the read-only transaction refuses any write a function might try.
 */
export async function runStatement(
  tx: Queryable,
  statement: string,
  params: Params,
  reader: string,
  limits: Limits,
  page: Page,
): Promise<Table> {
  await openCursor(tx, statement, params, reader, limits);
  if (page.offset > 0) await tx.queryTable(`move forward ${page.offset} in carrel_sql`);
  return tx.queryTable(`fetch forward ${page.limit + 1} from carrel_sql`);
}

/** Plans the statement as runStatement would run it, and runs none of it (its names, types and privileges are checked). */
export async function planStatement(tx: Queryable, statement: string, params: Params, reader: string, limits: Limits): Promise<void> {
  await openCursor(tx, statement, params, reader, limits);
}

async function openCursor(tx: Queryable, statement: string, params: Params, reader: string, limits: Limits): Promise<void> {
  await tx.query('set transaction read only');
  const [role] = await tx.query<{ text: string }>('select format($1, $2::text) as text', ['set local role %I', reader]);
  await tx.query(role!.text, [], { prepared: false });
  await tx.query(`select set_config('statement_timeout', $1, true), set_config('search_path', 'sierra_view, pg_catalog, pg_temp', true)`, [
    `${limits.statementTimeoutMs}ms`,
  ]);
  await tx.queryTable(`declare carrel_sql no scroll cursor for ${statement}`, params);
}
