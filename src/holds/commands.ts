// `carrel holds expire`: hold expiry on demand.
import { Command } from 'commander';
import { FixedClock, systemClock } from '../shared/calendar.ts';
import { CliError, print } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { parseDay } from '../shared/calendar.ts';
import { LibraryService } from '../library/service.ts';
import { HoldService } from './service.ts';

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
      const clock = opts.today ? new FixedClock(parseToday(opts.today)) : systemClock;
      const result = await cli.write(({ db, services }) =>
        new HoldService(db, new LibraryService(db, clock), services.circLog, services.items, services.patrons).expire(),
      );
      print(!!opts.json, result, `expired ${result.unfilled} unfilled hold(s) and ${result.uncollected} uncollected hold(s)`);
    });
}

function parseToday(raw: string): string {
  try {
    return parseDay('--today', raw)!;
  } catch {
    throw new CliError('--today takes a date YYYY-MM-DD');
  }
}
