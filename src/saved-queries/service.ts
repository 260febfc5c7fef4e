// Saved queries: SQL a library wrote against the sierra_view views, kept with a name and typed
// named parameters (`:name` in the statement), run by the SQL door's rules (src/sql: as the reader
// role, read-only, with the time-out and the row cap). A public one may be run by anyone, within
// the runs a process takes on at once and the runs a caller may make a minute (run-limits.ts).
import type { Db } from '../db/types.ts';
import { fail } from '../shared/errors.ts';
import { bindNames } from '../sql/named-parameters.ts';
import type { SqlAnswer, SqlService } from '../sql/service.ts';
import { bindValues, parseDefinitions, PG_TYPE, type ParameterInput } from './parameters.ts';
import * as repo from './repository.ts';
import { PublicRunCounts, RunGate, type RunLimits } from './run-limits.ts';

export type { SavedQueryRow } from './repository.ts';

export interface SavedQueryInput {
  name: string;
  description?: string;
  sql: string;
  parameters?: ParameterInput[];
  public?: boolean;
}

const MAX_SQL = 100_000;

/** Who runs a query: the client's address, its API key's id when it sent a token, and whether that key may read every query. */
export interface RunCaller {
  address: string;
  keyId: string | undefined;
  queriesRead: boolean;
}

export class SavedQueryService {
  private readonly gate: RunGate;
  private readonly publicRuns: PublicRunCounts;

  constructor(
    private readonly db: Db,
    private readonly sql: SqlService,
    limits: RunLimits,
  ) {
    this.gate = new RunGate(limits);
    this.publicRuns = new PublicRunCounts(limits.publicPerMinute);
  }

  /** Runs holding a turn now, and runs waiting for one. */
  get runs(): { running: number; waiting: number } {
    return this.gate.counts;
  }

  /** Saves a query once its statement is checked (one query, planned with its parameters); answers its id. */
  async create(input: SavedQueryInput): Promise<string> {
    const fields = await this.checked(input);
    return this.db.transaction((tx) => repo.insert(tx, fields));
  }

  /** Changes the given fields (the rest are kept), checked as a new query is. */
  async update(id: string, input: Partial<SavedQueryInput>): Promise<void> {
    const now = await this.get(id);
    const fields = await this.checked({
      name: input.name ?? now.name,
      description: input.description ?? now.description,
      sql: input.sql ?? now.statement,
      parameters: input.parameters ?? now.parameters,
      public: input.public ?? now.public,
    });
    if (!(await this.db.transaction((tx) => repo.update(tx, id, fields)))) throw fail.notFound(`no saved query ${id}`);
  }

  async get(id: string): Promise<repo.SavedQueryRow> {
    const row = await this.db.transaction((tx) => repo.find(tx, id));
    if (!row) throw fail.notFound(`no saved query ${id}`);
    return row;
  }

  list(page: { limit: number; offset: number }): Promise<repo.SavedQueryRow[]> {
    return this.db.transaction((tx) => repo.list(tx, page));
  }

  async remove(id: string): Promise<void> {
    if (!(await this.db.transaction((tx) => repo.remove(tx, id)))) throw fail.notFound(`no saved query ${id}`);
  }

  /**
   * Runs a saved query with the caller's parameter values (text, by name) and answers a page of
   * its rows. Anyone may run a public query; any other needs a caller with Queries_Read. A caller
   * without it can only run public queries: its runs are counted by its address and, with a token,
   * by its key too (a token does not lift the limit); refused past either, before anything is read.
   */
  async results(
    id: string,
    values: Readonly<Record<string, string>>,
    page: { offset: number; limit: number },
    caller: RunCaller,
  ): Promise<SqlAnswer> {
    if (!caller.queriesRead) {
      const callers = [{ id: `address ${caller.address}`, what: 'from one address' }];
      if (caller.keyId !== undefined) callers.push({ id: `key ${caller.keyId}`, what: 'with one API key' });
      this.publicRuns.take(callers);
    }
    return this.gate.run(() => this.run(id, values, page, caller));
  }

  private async run(
    id: string,
    values: Readonly<Record<string, string>>,
    page: { offset: number; limit: number },
    caller: RunCaller,
  ): Promise<SqlAnswer> {
    const row = await this.db.transaction((tx) => repo.find(tx, id));
    if (!row && caller.queriesRead) throw fail.notFound(`no saved query ${id}`);
    // Without Queries_Read, a query that is not there reads as one that is not public: which ids
    // exist is not told.
    if (!row || (!row.public && !caller.queriesRead)) {
      if (caller.keyId === undefined) throw fail.unauthenticated('this query is not public: call it with a token that has Queries_Read');
      throw fail.forbidden('this API key does not have the Queries_Read permission');
    }
    const params = bindValues(row.parameters, values);
    const statement = await bindNames(row.statement, this.declared(row.parameters));
    return this.sql.run(statement, { params, ...page });
  }

  private declared(defs: repo.SavedQueryRow['parameters']) {
    return defs.map((d) => ({ name: d.name, pgType: PG_TYPE[d.type] }));
  }

  private async checked(input: SavedQueryInput): Promise<repo.SavedQueryFields> {
    const name = input.name.trim();
    if (!name || name.length > 200) throw fail.invalidInput('name must have 1 to 200 characters');
    const description = (input.description ?? '').trim();
    if (description.length > 2000) throw fail.invalidInput('description: at most 2000 characters');
    if (!input.sql.trim() || input.sql.length > MAX_SQL) throw fail.invalidInput(`sql must have 1 to ${MAX_SQL} characters`);
    const parameters = parseDefinitions(input.parameters ?? []);
    const bound = await bindNames(input.sql, this.declared(parameters));
    await this.sql.check(bound, parameters.length);
    return { name, description, statement: input.sql.trim(), parameters, public: input.public ?? false };
  }
}
