// Sierra's JSON queries (POST /{bibs,items,patrons}/query): a query checked, its shape within the
// limits, then run under a time limit (CARREL_QUERY_TIMEOUT_MS), so a query that would read the
// whole catalogue for minutes is refused with a clear answer instead of holding a connection, or,
// on the embedded engine, the one session every request shares. Relative dates (today, days_ago)
// count back from the library's today, in its time zone.
import type { QueryRecord } from './parse.ts';
import type { QueryLimits } from '../config.ts';
import { withinTime } from '../db/deadline.ts';
import type { Db } from '../db/types.ts';
import type { LibraryService } from '../library/service.ts';
import { fail } from '../shared/errors.ts';
import { parseQuery, patronFixedTargets, usesRelativeDates, withDefinedFields } from './parse.ts';
import * as repo from './repository.ts';

export class QueryService {
  constructor(
    private readonly db: Db,
    private readonly limits: QueryLimits,
    private readonly library: Pick<LibraryService, 'patronFixedFields' | 'today'>,
    /** Where the queries run: a read replica where there is one (Deps.reads). */
    private readonly reads: Db = db,
  ) {}

  /** The ids of the live records of `record` the query (a request body) matches: one page, ascending. */
  async ids(record: QueryRecord, body: unknown, limit: number, offset: number): Promise<string[]> {
    const parsed = parseQuery(body, this.limits);
    // Patron fixed fields beyond Carrel's own are searchable when the library defines them.
    const asked = patronFixedTargets(parsed).filter((id) => !repo.searchableFixed('patron', id));
    const query = asked.length
      ? withDefinedFields(parsed, new Set((await this.library.patronFixedFields(this.db, asked)).map((f) => f.number)))
      : parsed;
    try {
      const timeoutMs = this.limits.timeoutMs;
      return await this.reads.transaction((tx) =>
        withinTime(this.reads, timeoutMs, async () => {
          const today = usesRelativeDates(query) ? await this.library.today(tx) : undefined;
          return repo.queryIds(tx, record, query, limit, offset, timeoutMs, today);
        }),
      );
    } catch (error) {
      if ((error as { code?: unknown }).code === '57014')
        throw fail.refused(0, `the query ran longer than ${this.limits.timeoutMs / 1000} s: narrow it (an indexed field, a date range)`);
      throw error;
    }
  }
}
