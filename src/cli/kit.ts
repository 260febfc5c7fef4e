// The one way a `carrel` command reaches the database: through the same services the HTTP API
// uses, opened around the command's work. Commands that write migrate the database first; commands
// that only read never change it. Both refuse a database migrated by a newer Carrel.
import type { Command } from 'commander';
import type { Config } from '../config.ts';
import { DataDirBusyError } from '../db/embedded-lock.ts';
import { describeDbError, isDatabaseUnavailable } from '../db/errors.ts';
import { checkSchema, DatabaseTooNewError, DatabaseTooOldError, migrate, type Migration } from '../db/migrate.ts';
import { inAmbientScope, setAmbientClient } from '../db/ambient.ts';
import { openClientDb, openReadReplicas } from '../db/open.ts';
import { ReadMarks } from '../db/read-marks.ts';
import { replicaReads } from '../db/read-routing.ts';
import type { Db } from '../db/types.ts';
import { buildDeps, type Deps, type Domain } from '../domain.ts';
import { DomainError } from '../shared/errors.ts';
import { systemClock } from '../shared/calendar.ts';
import { CliError, getConfig } from './common.ts';

export interface Cli {
  /** Runs fn on a migrated database (told which migrations this run applied): for commands that write. */
  write<T>(fn: (deps: Deps, applied: Migration[]) => Promise<T>): Promise<T>;
  /** Runs fn without migrating: for commands that only read. A database behind this code is refused. */
  read<T>(fn: (deps: Deps) => Promise<T>): Promise<T>;
  config(): Config;
}

/**
 * Every command is one client for read-your-writes (src/http/read-your-writes.ts): a command that
 * only reads, run after one that wrote, reads from a replica only once it has replayed that write.
 */
const COMMAND_CLIENT = 'command';

/** Readies a database for a command that only reads: it must be migrated as far as this code, and is not changed. */
async function readOnly(db: Db): Promise<Migration[]> {
  await checkSchema(db, { older: false });
  return [];
}

export function makeCli(domains: readonly Domain[]): Cli {
  /** Opens the database, readies its schema (answering the migrations applied), runs fn, closes. */
  async function open<T>(ready: (db: Db) => Promise<Migration[]>, fn: (deps: Deps, applied: Migration[]) => Promise<T>): Promise<T> {
    const config = getConfig();
    let db;
    try {
      db = await openClientDb(config);
    } catch (error) {
      if (error instanceof DataDirBusyError) throw new CliError(`${error.message}; wait for it to finish and try again`);
      throw error;
    }
    const writes = ready !== readOnly;
    // A command that only reads reads from a replica where there is one (DATABASE_READ_URLS).
    const replicas = writes ? undefined : await openReadReplicas(config, db);
    const marks = new ReadMarks(db);
    try {
      const applied = await ready(db);
      const reads = replicas ? replicaReads(db, replicas, marks) : db;
      return await inAmbientScope(async () => {
        setAmbientClient(COMMAND_CLIENT);
        const result = await fn(buildDeps({ config, db, reads, clock: systemClock }, domains), applied);
        if (writes && config.databaseReadUrls.length) await marks.record(COMMAND_CLIENT);
        return result;
      });
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw new CliError(`cannot reach the database: ${describeDbError(error)}`);
      if (error instanceof DatabaseTooNewError || error instanceof DatabaseTooOldError) throw new CliError(error.message);
      // The services' refusals (a bad amount, an unknown code, a paid invoice) read the same here as over HTTP.
      if (error instanceof DomainError) throw new CliError(error.message);
      throw error;
    } finally {
      await replicas?.stop();
      await db.close();
    }
  }
  return {
    // A new database starts from the starter profile, whichever command opens it first.
    write: (fn) =>
      open(migrate, async (deps, applied) => {
        await deps.services.library.startIfNew();
        return fn(deps, applied);
      }),
    read: (fn) => open(readOnly, fn),
    config: getConfig,
  };
}

/** Adds every domain's commands to the program. */
export function addCommands(program: Command, domains: readonly Domain[]): void {
  const cli = makeCli(domains);
  for (const domain of domains) domain.commands?.(program, cli);
}
