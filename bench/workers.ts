// `npm run bench:workers`: requests/s of one cheap authenticated read (GET /v6/branches with a
// token) from the server with CARREL_WORKERS=1 and with 2, in the same run. The two take turns,
// round after round, each a fresh server on the same database; the table gives the medians and
// the ratio, and the load average before and after (other work on the machine takes its cores).
// Options: --seconds N per run (default 5), --rounds N (default 3), --connections N (default 16),
// --workers N (the larger count, default 2), --database-url URL (an admin connection).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { benchDatabase, ROOT, startChild, stop } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    workers: { type: 'string', default: '2' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const MANY = Number(args.workers);
const ADMIN_URL = args['database-url'];
const BENCH_DB = 'carrel_bench_workers';
const RESULTS = path.join(ROOT, 'bench/results');
const PORT = 3941;
const URL = `http://127.0.0.1:${PORT}`;

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

async function main(): Promise<void> {
  fs.mkdirSync(RESULTS, { recursive: true });
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${BENCH_DB} with (force)`);
  await admin.unsafe(`create database ${BENCH_DB}`);
  const db = benchDatabase(ADMIN_URL, BENCH_DB);
  db.cli(['migrate']);
  const key = JSON.parse(db.cli(['keys', 'create', '--name', 'workers', '--roles', 'all', '--json'])) as { key: string; secret: string };
  const basic = Buffer.from(`${key.key}:${key.secret}`).toString('base64');
  const loadBefore = loadAverage();

  /** One run: a server with `workers` processes, a token from it, then the load. */
  async function run(workers: number): Promise<{ rps: number; errors: number; non2xx: number }> {
    // A limit the load cannot reach: the check still counts every request, as it does in service.
    const server = await startChild(
      ['dist/server.js'],
      {
        ...db.env,
        LOG_LEVEL: 'info',
        PORT: String(PORT),
        HOST: '127.0.0.1',
        CARREL_RATE_LIMIT: '100000000',
        CARREL_WORKERS: String(workers),
      },
      /is listening on/,
      path.join(RESULTS, `workers-${workers}.log`),
    );
    try {
      const issued = await fetch(`${URL}/v6/token`, { method: 'POST', headers: { authorization: `Basic ${basic}` } });
      const token = ((await issued.json()) as { access_token: string }).access_token;
      const result = await autocannon({
        url: `${URL}/v6/branches`,
        headers: { authorization: `Bearer ${token}` },
        connections: CONNECTIONS,
        duration: SECONDS,
      });
      return { rps: result.requests.average, errors: result.errors, non2xx: result.non2xx };
    } finally {
      await stop(server);
    }
  }

  const one: Awaited<ReturnType<typeof run>>[] = [];
  const many: Awaited<ReturnType<typeof run>>[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    process.stderr.write(`round ${round}/${ROUNDS}: 1 worker\n`);
    one.push(await run(1));
    process.stderr.write(`round ${round}/${ROUNDS}: ${MANY} workers\n`);
    many.push(await run(MANY));
  }
  const loadAfter = loadAverage();
  await admin.unsafe(`drop database if exists ${BENCH_DB} with (force)`);
  await admin.end();

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const base = median(one.map((r) => r.rps));
  const rows = [
    { workers: 1, runs: one },
    { workers: MANY, runs: many },
  ].map(({ workers, runs }) => ({
    workers,
    'req/s (median)': Math.round(median(runs.map((r) => r.rps))),
    'req/s (each round)': runs.map((r) => Math.round(r.rps)).join(', '),
    'against 1 worker': (median(runs.map((r) => r.rps)) / base).toFixed(2),
    'errors, non-2xx': runs.reduce((n, r) => n + r.errors + r.non2xx, 0),
  }));
  console.log(
    `\nGET /v6/branches with a token, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s each, taking turns; ` +
      `${os.availableParallelism()} cores, load average ${loadBefore} before and ${loadAfter} after; Node ${process.version}\n`,
  );
  console.table(rows);
  fs.writeFileSync(
    path.join(RESULTS, `workers-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ loadBefore, loadAfter, rows }, null, 2),
  );
}

await main();
