// `carrel status`, `carrel migrate` and `carrel maintenance`: running the service.
import type { Command } from 'commander';
import { CliError, milliseconds, print } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { readMaintenance, writeMaintenance } from './repository.ts';
import { checkStatus } from './status-check.ts';

export function operationCommands(program: Command, cli: Cli): void {
  program
    .command('status')
    .description('ask a running service for its health: prints "0 <version>" (exit 0) or "-1 <reason>" (exit 1)')
    .option('--url <url>', 'base URL of the service (default http://HOST:PORT from the environment)')
    .option('--timeout <ms>', 'give up after this many milliseconds', milliseconds, 5000)
    .action(async (opts: { url?: string; timeout: number }) => {
      const cfg = cli.config();
      const host = cfg.host === '0.0.0.0' || cfg.host === '::' ? '127.0.0.1' : cfg.host;
      const result = await checkStatus(opts.url ?? `http://${host.includes(':') ? `[${host}]` : host}:${cfg.port}`, opts.timeout);
      process.stdout.write(result.ok ? `0 ${result.version}\n` : `-1 ${result.reason}\n`);
      process.exitCode = result.ok ? 0 : 1;
    });

  program
    .command('migrate')
    .description('apply pending database migrations (the server also does this at start-up)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const applied = await cli.write(async (_deps, done) => done);
      const names = applied.map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`);
      print(!!opts.json, { applied: names }, names.length ? `applied ${names.join(', ')}` : 'the database is up to date');
    });

  program
    .command('maintenance')
    .description('switch the service off (GET /api answers 404, other calls 503) or back on, for every server process')
    .argument('<state>', 'on | off | status')
    .option('--json', 'print JSON')
    .action(async (wanted: string, opts: { json?: boolean }) => {
      if (!['on', 'off', 'status'].includes(wanted)) throw new CliError('maintenance takes on, off or status');
      const on = await (wanted === 'status'
        ? cli.read(({ db }) => readMaintenance(db))
        : cli.write(async ({ db }) => {
            await writeMaintenance(db, wanted === 'on');
            return readMaintenance(db);
          }));
      const poll = cli.config().statePollMs;
      const text = on
        ? `maintenance is on: the service answers 404 on GET /api (servers notice within ${poll} ms)`
        : 'maintenance is off: the service is serving';
      print(!!opts.json, { maintenance: on }, text);
    });
}
