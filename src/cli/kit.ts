// The one way a `carrel` command reaches the database: through the same services the HTTP API
// uses, opened around the command's work. Commands that write migrate the database first; commands
// that only read never change it. Both refuse a database migrated by a newer Carrel.
import type { Command } from 'commander';
import type { Config } from '../config.ts';
import { DataDirBusyError } from '../db/embedded-lock.ts';
import { describeDbError, isDatabaseUnavailable } from '../db/errors.ts';
import { checkSchema, DatabaseTooNewError, DatabaseTooOldError, migrate, type Migration } from '../db/migrate.ts';
import { openClientDb } from '../db/open.ts';
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

export function makeCli(domains: readonly Domain[]): Cli {
  async function open<T>(fn: (deps: Deps) => Promise<T>, prepare: (deps: Deps) => Promise<void>): Promise<T> {
    const config = getConfig();
    let db;
    try {
      db = await openClientDb(config);
    } catch (error) {
      if (error instanceof DataDirBusyError) throw new CliError(`${error.message}; wait for it to finish and try again`);
      throw error;
    }
    try {
      const deps = buildDeps({ config, db, clock: systemClock }, domains);
      await prepare(deps);
      return await fn(deps);
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw new CliError(`cannot reach the database: ${describeDbError(error)}`);
      if (error instanceof DatabaseTooNewError || error instanceof DatabaseTooOldError) throw new CliError(error.message);
      // The services' refusals (a bad amount, an unknown code, a paid invoice) read the same here as over HTTP.
      if (error instanceof DomainError) throw new CliError(error.message);
      throw error;
    } finally {
      await db.close();
    }
  }
  return {
    write: (fn) => {
      let applied: Migration[] = [];
      return open(
        (deps) => fn(deps, applied),
        async ({ db }) => void (applied = await migrate(db)),
      );
    },
    read: (fn) => open(fn, async ({ db }) => void (await checkSchema(db, { older: false }))),
    config: getConfig,
  };
}

/** Adds every domain's commands to the program. */
export function addCommands(program: Command, domains: readonly Domain[]): void {
  const cli = makeCli(domains);
  for (const domain of domains) domain.commands?.(program, cli);
}
