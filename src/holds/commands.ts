// `carrel holds expire` and `carrel locations closed …`: hold expiry on demand, and the days a
// pickup location is closed (they move pickup-by dates).
import { Command } from 'commander';
import { FixedClock, systemClock } from '../shared/calendar.ts';
import { CliError, print, table } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { parseDay } from '../shared/calendar.ts';
import { WEEKDAYS } from '../library/profile.ts';
import { LibraryService } from '../library/service.ts';
import { HoldService } from './service.ts';

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

export function holdCommands(program: Command, cli: Cli): void {
  const holds = program.command('holds').description('patron holds (GET /v6/patrons/holds)');
  holds
    .command('expire')
    .description(
      'expire holds past their not-needed-after date and ready holds not collected by their pickup-by date (the server also does this every CARREL_HOLD_EXPIRY_MS)',
    )
    .option('--today <date>', 'take this day as today (YYYY-MM-DD), to catch up or to test')
    .option('--json', 'print JSON')
    .action(async (opts: { today?: string; json?: boolean }) => {
      const clock = opts.today ? new FixedClock(parseClosedDate(opts.today)) : systemClock;
      const result = await cli.write(({ db, services }) => new HoldService(db, new LibraryService(db, clock), services.circLog).expire());
      print(!!opts.json, result, `expired ${result.unfilled} unfilled hold(s) and ${result.uncollected} uncollected hold(s)`);
    });

  const locations = program.command('locations').description('branch locations');
  const closed = locations.command('closed').description('days a location is closed: pickup-by dates move past them');
  closed
    .command('list')
    .argument('<location>', 'location code')
    .option('--json', 'print JSON')
    .action(async (code: string, opts: { json?: boolean }) => {
      const days = await cli.read(({ services }) => services.holds.closedDays(code));
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
        await cli.write(({ services }) => services.holds.setClosed(code, parsed, adding));
        print(
          !!opts.json,
          { location: code, [adding ? 'closed' : 'reopened']: days },
          `${code}: ${adding ? 'closed' : 'reopened'} on ${days.join(', ')}`,
        );
      });
  }
}

function parseClosedDate(raw: string): string {
  const d = parseClosed(raw);
  if (!('date' in d)) throw new CliError('--today takes a date YYYY-MM-DD');
  return d.date;
}
