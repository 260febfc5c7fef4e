// What every `carrel` command shares: the configuration read once, the database opened and
// migrated around the command's work, errors a person can act on, and output as text or JSON.
import { Presets, SingleBar } from 'cli-progress';
import { InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { DataDirBusyError } from '../db/embedded-lock.ts';
import { describeDbError, isDatabaseUnavailable } from '../db/errors.ts';
import { migrate, type Migration } from '../db/migrate.ts';
import { openClientDb } from '../db/open.ts';
import type { Db } from '../db/types.ts';
import { DomainError } from '../shared/errors.ts';

/** An error the command reports as one line, without a stack trace. */
export class CliError extends Error {}

let config: Config | undefined;
export function getConfig(): Config {
  try {
    config ??= loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
  return config;
}

/** Opens the database, migrates it, runs fn (told which migrations this run applied), closes it. */
export async function withDb<T>(fn: (db: Db, config: Config, applied: Migration[]) => Promise<T>): Promise<T> {
  const cfg = getConfig();
  let db: Db;
  try {
    db = await openClientDb(cfg);
  } catch (error) {
    if (error instanceof DataDirBusyError) throw new CliError(`${error.message}; wait for it to finish and try again`);
    throw error;
  }
  try {
    const applied = await migrate(db);
    return await fn(db, cfg, applied);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw new CliError(`cannot reach the database: ${describeDbError(error)}`);
    // The services' refusals (a bad amount, an unknown code, a paid invoice) read the same here as over HTTP.
    if (error instanceof DomainError) throw new CliError(error.message);
    throw error;
  } finally {
    await db.close();
  }
}

export function print(json: boolean, data: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`);
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

export function milliseconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('give a whole number of milliseconds, at least 1');
  return Number(value);
}


/** A progress bar on stderr when a person is watching (a terminal, no --json); otherwise none. */
export function progressBar(format: string, json: boolean | undefined): SingleBar | undefined {
  return process.stderr.isTTY && !json ? new SingleBar({ format, hideCursor: true }, Presets.shades_classic) : undefined;
}
