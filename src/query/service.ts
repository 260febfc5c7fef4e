// Sierra's JSON queries (POST /{bibs,items,patrons}/query): a query checked, its shape within the
// limits, then run as one statement under a time limit, so a query that would read the whole
// catalogue for minutes is refused with a clear answer instead of holding a connection.
import type { QueryRecord } from './parse.ts';
import type { QueryLimits } from '../config.ts';
import type { Db } from '../db/types.ts';
import { fail } from '../shared/errors.ts';
import { parseQuery } from './parse.ts';
import * as repo from './repository.ts';

/** The longest a query may run. */
export const QUERY_TIMEOUT_MS = 30_000;

export class QueryService {
  constructor(
    private readonly db: Db,
    private readonly limits: QueryLimits,
  ) {}

  /** The ids of the live records of `record` the query (a request body) matches: one page, ascending. */
  async ids(record: QueryRecord, body: unknown, limit: number, offset: number): Promise<string[]> {
    const query = parseQuery(body, this.limits);
    try {
      return await this.db.transaction(async (tx) => {
        await tx.exec(`set local statement_timeout = ${QUERY_TIMEOUT_MS}`);
        return repo.queryIds(tx, record, query, limit, offset);
      });
    } catch (error) {
      if ((error as { code?: unknown }).code === '57014')
        throw fail.refused(0, `the query ran longer than ${QUERY_TIMEOUT_MS / 1000} s: narrow it (an indexed field, a date range)`);
      throw error;
    }
  }
}
