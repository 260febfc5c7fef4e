// SQL for the SQL door: a statement a library wrote, run read-only over the sierra_view views.
import type { Queryable, Table } from '../db/types.ts';

export interface Limits {
  statementTimeoutMs: number;
  rowCap: number;
}

/**
 * Runs one SELECT (or VALUES, or WITH … SELECT) in the open transaction, read-only, as the reader
 * role (which reads the sierra_view views and nothing else), with those views first on the search
 * path, and answers at most rowCap + 1 rows (one more says
 * there were more). The statement is a cursor's query: PostgreSQL takes nothing else there (no
 * second statement, no write, no utility command), and the read-only transaction refuses any
 * write a function might try.
 */
export async function runStatement(tx: Queryable, statement: string, reader: string, limits: Limits): Promise<Table> {
  await tx.query('set transaction read only');
  const [role] = await tx.query<{ text: string }>('select format($1, $2::text) as text', ['set local role %I', reader]);
  await tx.query(role!.text, [], { prepared: false });
  await tx.query(`select set_config('statement_timeout', $1, true), set_config('search_path', 'sierra_view, pg_catalog, pg_temp', true)`, [
    `${limits.statementTimeoutMs}ms`,
  ]);
  await tx.queryTable(`declare carrel_sql no scroll cursor for ${statement}`);
  return tx.queryTable(`fetch forward ${limits.rowCap + 1} from carrel_sql`);
}
