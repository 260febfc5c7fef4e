// `carrel profile apply|export|schema`: the library profile from and to a file, through the same
// service as PUT /v6/library/profile; and `carrel locations closed …`: the days a location is
// closed (due dates and pickup-by dates move past them), listed, added and removed one at a time.
import fs from 'node:fs';
import { Command } from 'commander';
import { CliError, print, table } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { formatProfile, parseProfile, ProfileSchema, WEEKDAYS } from './profile.ts';
import { parseDay } from '../shared/calendar.ts';
import { describePlan } from './service.ts';

function readFile(file: string): string {
  try {
    return file === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
}

export function profileCommands(program: Command, cli: Cli): void {
  const profile = program
    .command('profile')
    .description("the library's profile: branches, locations, item and patron types, circulation rules, holds, blocks, time zone");
  profile
    .command('apply')
    .description('make the library what the file says, in one transaction, printing each change (README, "Your own library")')
    .argument('<file>', 'a profile in YAML or JSON (- reads standard input)')
    .option('--dry-run', 'print what would change, change nothing')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { dryRun?: boolean; json?: boolean }) => {
      const wanted = parseProfile(readFile(file), file);
      const result = await cli.write(({ services }) => services.library.apply(wanted, { dryRun: opts.dryRun }));
      print(!!opts.json, { dryRun: !!opts.dryRun, ...result }, describePlan(result, !!opts.dryRun));
    });
  profile
    .command('export')
    .description("write the library's profile as it is now (YAML; JSON when the file name ends .json or with --json)")
    .option('--output <file>', 'write to this file (default: standard output)')
    .option('--json', 'write JSON')
    .action(async (opts: { output?: string; json?: boolean }) => {
      const current = await cli.read(({ services }) => services.library.profile());
      const text = formatProfile(current, opts.json || opts.output?.endsWith('.json') ? 'json' : 'yaml');
      if (opts.output) {
        fs.writeFileSync(opts.output, text);
        process.stderr.write(`wrote ${opts.output}\n`);
      } else process.stdout.write(text);
    });
  profile
    .command('schema')
    .description('print the JSON Schema a profile is checked against (for an editor)')
    .action(() => print(true, ProfileSchema, ''));
}

const DAYS: readonly string[] = WEEKDAYS;

/** A weekday (sun … sat, or 0 … 6 from Sunday) or a date YYYY-MM-DD. */
function parseClosed(raw: string): { weekday: number } | { date: string } {
  const lower = raw.toLowerCase();
  const named = DAYS.findIndex((d) => lower.startsWith(d));
  if (named >= 0 && lower.length >= 3) return { weekday: named };
  if (/^[0-6]$/.test(raw)) return { weekday: Number(raw) };
  try {
    return { date: parseDay('date', raw)! };
  } catch {
    throw new CliError(`"${raw}" is neither a weekday (sun … sat, 0 … 6) nor a date YYYY-MM-DD`);
  }
}

export function locationCommands(program: Command, cli: Cli): void {
  const locations = program.command('locations').description('branch locations');
  const closed = locations.command('closed').description('days a location is closed: pickup-by dates move past them');
  closed
    .command('list')
    .argument('<location>', 'location code')
    .option('--json', 'print JSON')
    .action(async (code: string, opts: { json?: boolean }) => {
      const days = await cli.read(({ services }) => services.library.closedDays(code));
      const rows = [['CLOSED'], ...days.weekdays.map((w) => [`every ${DAYS[w]}`]), ...days.dates.map((d) => [d])];
      print(!!opts.json, { weekdays: days.weekdays, dates: days.dates }, rows.length > 1 ? table(rows) : `${code} is open every day`);
    });
  for (const [name, adding] of [
    ['add', true],
    ['remove', false],
  ] as const) {
    closed
      .command(name)
      .description(`${adding ? 'close' : 'reopen'} a location on a weekday (sun … sat) or a date (YYYY-MM-DD)`)
      .argument('<location>', 'location code')
      .argument('<days...>', 'weekdays and dates')
      .option('--json', 'print JSON')
      .action(async (code: string, days: string[], opts: { json?: boolean }) => {
        const parsed = days.map(parseClosed);
        await cli.write(({ services }) => services.library.setClosed(code, parsed, adding));
        print(
          !!opts.json,
          { location: code, [adding ? 'closed' : 'reopened']: days },
          `${code}: ${adding ? 'closed' : 'reopened'} on ${days.join(', ')}`,
        );
      });
  }
}
