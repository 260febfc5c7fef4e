// What every `carrel` command's output shares: the configuration read once, errors a person can
// act on, output as text or JSON, a progress bar on long work. The database: src/cli/kit.ts.
import { Presets, SingleBar } from 'cli-progress';
import { InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config.ts';

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

export function print(json: boolean, data: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`);
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** An accounting unit: a whole number from 0 to 999. */
export function accountingUnit(value: string): number {
  if (!/^\d{1,3}$/.test(value)) throw new InvalidArgumentError('give a whole number from 0 to 999');
  return Number(value);
}

export function milliseconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('give a whole number of milliseconds, at least 1');
  return Number(value);
}

/** A progress bar on stderr when a person is watching (a terminal, no --json); otherwise none. */
export function progressBar(format: string, json: boolean | undefined): SingleBar | undefined {
  return process.stderr.isTTY && !json ? new SingleBar({ format, hideCursor: true }, Presets.shades_classic) : undefined;
}

/** All of standard input, less one final line break: a secret given as `--…-stdin`, never on the command line (where `ps` shows it). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
