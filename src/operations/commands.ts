// `carrel status`, `carrel migrate` and `carrel maintenance`: running the service.
import type { Command } from 'commander';
import { CliError, milliseconds, print } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { readMaintenance, writeMaintenance } from './repository.ts';
import type { Config } from '../config.ts';
import { openReadReplicas } from '../db/open.ts';
import type { ReplicaState } from '../db/replicas.ts';
import type { Db } from '../db/types.ts';
import { checkStatus } from './status-check.ts';

/** How long `carrel status` watches the replicas: a lag is told from several checks. */
const REPLICA_WATCH_MS = 1000;

/** The read replicas as a server sees them: checked for REPLICA_WATCH_MS, by the server's rules. */
async function watchReplicas(config: Config, primary: Db): Promise<ReplicaState[]> {
  const replicas = (await openReadReplicas(config, primary))!;
  try {
    await new Promise((resolve) => setTimeout(resolve, REPLICA_WATCH_MS));
    return replicas.states();
  } finally {
    await replicas.stop();
  }
}

export function operationCommands(program: Command, cli: Cli): void {
  program
    .command('status')
    .description(
      'ask a running service for its health: prints "0 <version>" (exit 0) or "-1 <reason>" (exit 1); with DATABASE_READ_URLS, then each read replica\'s state and lag, watched for a second',
    )
    .option('--url <url>', 'base URL of the service (default http://HOST:PORT from the environment)')
    .option('--timeout <ms>', 'give up after this many milliseconds', milliseconds, 5000)
    .option('--json', 'print JSON')
    .action(async (opts: { url?: string; timeout: number; json?: boolean }) => {
      const cfg = cli.config();
      const host = cfg.host === '0.0.0.0' || cfg.host === '::' ? '127.0.0.1' : cfg.host;
      const result = await checkStatus(opts.url ?? `http://${host.includes(':') ? `[${host}]` : host}:${cfg.port}`, opts.timeout);
      // The service's health is told whatever happens here: a primary that cannot be reached leaves the replicas untold.
      const watched = cfg.databaseReadUrls.length
        ? await cli
            .read(({ db }) => watchReplicas(cfg, db))
            .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
        : undefined;
      const replicas = watched instanceof Error ? undefined : watched;
      const lines = [result.ok ? `0 ${result.version}` : `-1 ${result.reason}`];
      if (watched instanceof Error) lines.push(`replicas not watched: ${watched.message}`);
      for (const replica of replicas ?? [])
        lines.push(
          replica.inRotation
            ? `replica ${replica.name}: in rotation, ${replica.lagMs} ms behind`
            : `replica ${replica.name}: out of rotation: ${replica.reason ?? 'unknown'}`,
        );
      const data = {
        status: result.ok ? 0 : -1,
        ...result,
        ...(replicas && { replicas }),
        ...(watched instanceof Error && { replicasNotWatched: watched.message }),
      };
      print(!!opts.json, data, lines.join('\n'));
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
