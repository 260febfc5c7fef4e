// The SQL door (issue 20): SQL a library writes against the Sierra-compatible views of schema
// sierra_view (src/db/migrations/0030_sierra_view.sql), run read-only, with a time-out and a row
// cap. `carrel sql` runs one statement; SQL logins and saved queries run theirs the same way.
import type { Db } from '../db/types.ts';
import { inAmbientScope, setReadFloor } from '../db/ambient.ts';
import { withinTime } from '../db/deadline.ts';
import { walPosition } from '../db/replicas.ts';
import type { SqlConfig } from '../config.ts';
import { fail } from '../shared/errors.ts';
import * as repo from './repository.ts';
import { ensureReader } from './roles-repository.ts';
import { checkStatement } from './statement-check.ts';

export interface SqlAnswer {
  /** Column names, in the statement's order (repeated names kept). */
  columns: string[];
  /** Each column's PostgreSQL type (its oid). */
  types: number[];
  rows: unknown[][];
  /** More rows than answered: past the page, or past the row cap. */
  truncated: boolean;
}

export interface RunOptions {
  /** Values of $1, $2 … as text (the statement casts them), or null. */
  params?: repo.Params;
  /** Rows to skip, and at most how many to answer; never any past the row cap. */
  offset?: number;
  limit?: number;
}

// A SQLSTATE of a statement's own failure (syntax, names, types, data, privileges, a time-out or a
// cancel), as opposed to the database being away (src/db/errors.ts).
const STATEMENT_FAILURE = /^(0A|21|22|23|25|2B|34|3F|42|44|54|55|57014|P0|XX000)/;

export class SqlService {
  private reader: Promise<{ role: string; madeAt: bigint }> | undefined;

  /** @param reads where the library's statements run: a read replica where there is one (Deps.reads) */
  constructor(
    private readonly db: Db,
    private readonly limits: Pick<SqlConfig, 'statementTimeoutMs' | 'rowCap'>,
    private readonly reads: Db = db,
  ) {}

  /** Runs one read-only statement; a statement PostgreSQL refuses fails with its message. */
  async run(statement: string, options: RunOptions = {}): Promise<SqlAnswer> {
    const text = await this.checked(statement);
    const { role: reader, madeAt } = await this.readerRole();
    // Not on a replica that has not yet replayed the role (made a moment ago on the primary).
    setReadFloor(madeAt);
    const offset = options.offset ?? 0;
    const limit = Math.max(0, Math.min(options.limit ?? this.limits.rowCap, this.limits.rowCap - offset));
    const table = await this.statementFailures(() =>
      this.reads.transaction((tx) =>
        withinTime(this.reads, this.limits.statementTimeoutMs, () =>
          repo.runStatement(tx, text, options.params ?? [], reader, this.limits, { offset, limit }),
        ),
      ),
    );
    const truncated = table.rows.length > limit;
    return {
      columns: table.columns.map((c) => c.name),
      types: table.columns.map((c) => c.typeOid),
      rows: truncated ? table.rows.slice(0, limit) : table.rows,
      truncated,
    };
  }

  /**
   * Checks a statement as run would run it, without running it: it must parse as one query, call
   * nothing refused, and plan (names, types, privileges) with its parameterCount parameters null.
   */
  async check(statement: string, parameterCount: number): Promise<void> {
    const text = await this.checked(statement);
    const { role: reader } = await this.readerRole();
    const params = Array.from({ length: parameterCount }, () => null);
    await this.statementFailures(() => this.db.transaction((tx) => repo.planStatement(tx, text, params, reader, this.limits)));
  }

  private async checked(statement: string): Promise<string> {
    const text = statement.trim().replace(/;\s*$/, '');
    if (!text) throw fail.invalidInput('the statement is empty');
    await checkStatement(text);
    return text;
  }

  /** A statement's own failure as queryFailed with PostgreSQL's message; the database being away as it is. */
  private async statementFailures<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (error instanceof Error && typeof code === 'string' && STATEMENT_FAILURE.test(code)) throw fail.queryFailed(error.message);
      throw error;
    }
  }

  /**
   * The reader role, made (or given the views added since) once per process, and the primary's WAL
   * position after. Made in a transaction of its own, committed before the position is read, even
   * when first asked for inside a request's transaction (an idempotent write's), which may yet be
   * rolled back: this process keeps using the role.
   */
  private readerRole(): Promise<{ role: string; madeAt: bigint }> {
    this.reader ??= inAmbientScope(async () => {
      const role = await this.db.transaction((tx) => ensureReader(tx));
      return { role, madeAt: await walPosition(this.db) };
    }).catch((error: unknown) => {
      this.reader = undefined;
      const code = (error as { code?: unknown }).code;
      // Another process made it at the same moment: it is there now.
      if (code === '42710' || code === '23505') return this.readerRole();
      if (code === '42501')
        throw fail.queryFailed(
          `Carrel's database user cannot create the role SQL readers act as (it needs CREATEROLE): ${String((error as Error).message)}`,
        );
      throw error;
    });
    return this.reader;
  }
}
