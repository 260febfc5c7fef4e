// `npm run bench`: GET /api under load on PostgreSQL, against baselines measured in the same run.
//
//   bare      a plain node:http server answering a fixed health-report body (no framework, no database)
//   db        the health check's query sent straight to PostgreSQL with postgres.js, same concurrency
//   carrel    the real server process as `npm start` runs it (dist/), logging to a file,
//             LOG_LEVEL=warn and LOG_LEVEL=info (a log line at the start and end of each request)
//
// Prints a table with requests per second, latency, the ratio to the bare server, the server's
// peak resident memory (VmHWM) and how many database round trips served the requests.
// Options: --seconds N per run (default 5), --rounds N (default 3), --connections N (default 16), --database-url URL.
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { dbUrl, peakRssMb, startChild, stop } from './lib.ts';
import postgres from 'postgres';

const ROOT = path.resolve(import.meta.dirname, '..'); // as in lib.ts
const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const ROUNDS = Number(args.rounds);
const ADMIN_URL = args['database-url'];
const BENCH_DB = 'carrel_bench';
const RESULTS = path.join(ROOT, 'bench/results');

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  peakRssMb?: number;
  dbRoundTrips?: number;
  requests?: number;
}

async function load(url: string, check: (body: string) => boolean): Promise<Omit<Row, 'name'>> {
  let bad = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    setupClient: (client) => {
      client.on('body', (body: Buffer) => {
        if (!check(body.toString())) bad++;
      });
    },
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + bad,
    requests: result.requests.total,
  };
}

async function xactCommits(sql: postgres.Sql): Promise<number> {
  const [row] = await sql`select xact_commit::bigint as n from pg_stat_database where datname = ${BENCH_DB}`;
  await sql`select pg_stat_clear_snapshot()`;
  return Number(row?.n ?? 0);
}

async function main(): Promise<void> {
  fs.mkdirSync(RESULTS, { recursive: true });
  // The server runs as `npm start` runs it: compiled to dist/.
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${BENCH_DB} with (force)`);
  await admin.unsafe(`create database ${BENCH_DB}`);
  const rows: Row[] = [];

  // Baseline 1: a bare node:http server with a fixed body of the same size.
  const sample = JSON.stringify({
    status: 'Healthy',
    totalDuration: '00:00:00.0041739',
    entries: {
      API: {
        data: { 'Carrel.Api': { version: '1.0.0.1', major: 1, minor: 0, build: 0, revision: 1 } },
        duration: '00:00:00.0000312',
        status: 'Healthy',
        tags: [],
      },
      DatabaseServer: { data: { Database: { version: '15.19' } }, duration: '00:00:00.0039871', status: 'Healthy', tags: [] },
    },
  });
  const bareSource = `require('http').createServer((q,s)=>{s.writeHead(200,{'content-type':'application/json'});s.end(${JSON.stringify(sample)})}).listen(3901,'127.0.0.1',()=>console.log('ready'))`;
  const bare = await startChild(['-e', bareSource], {}, /ready/, path.join(RESULTS, 'bare.log'));
  const servers: Record<string, ChildProcess> = {};
  for (const [logLevel, port] of [
    ['warn', 3902],
    ['info', 3903],
  ] as const) {
    servers[logLevel] = await startChild(
      ['dist/server.js'],
      { DATABASE_URL: dbUrl(ADMIN_URL, BENCH_DB), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: logLevel, CARREL_WORKERS: '1' },
      /is listening on/,
      path.join(RESULTS, `carrel-${logLevel}.log`),
    );
  }
  const runs = [
    { name: 'bare node:http, fixed body', go: () => load('http://127.0.0.1:3901/api', (b) => b.includes('Healthy')) },
    { name: 'PostgreSQL direct, same query', go: () => direct() },
    {
      name: 'carrel GET /api (LOG_LEVEL=warn)',
      go: () => withTrips(() => load('http://127.0.0.1:3902/api', (b) => b.includes('"status":"Healthy"'))),
    },
    {
      name: 'carrel GET /api (LOG_LEVEL=info)',
      go: () => withTrips(() => load('http://127.0.0.1:3903/api', (b) => b.includes('"status":"Healthy"'))),
    },
  ];
  // Shared machines drift from minute to minute: the runs take turns, round after round, and each
  // ratio compares runs of the same round.
  const perRound: Omit<Row, 'name'>[][] = runs.map(() => []);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, run] of runs.entries()) {
      process.stderr.write(`round ${round}/${ROUNDS}: ${run.name}\n`);
      perRound[i]!.push(await run.go());
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const ratios = perRound.map((results) => median(results.map((r, round) => r.rps / perRound[0]![round]!.rps)));
  runs.forEach((run, i) => {
    const results = perRound[i]!;
    const sum = (f: (r: Omit<Row, 'name'>) => number | undefined) => results.reduce((acc, r) => acc + (f(r) ?? 0), 0);
    rows.push({
      name: run.name,
      rps: median(results.map((r) => r.rps)),
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      errors: sum((r) => r.errors),
      requests: sum((r) => r.requests),
      dbRoundTrips: results[0]!.dbRoundTrips === undefined ? undefined : sum((r) => r.dbRoundTrips),
    });
  });
  rows[0]!.peakRssMb = peakRssMb(bare.pid!);
  rows[2]!.peakRssMb = peakRssMb(servers.warn!.pid!);
  rows[3]!.peakRssMb = peakRssMb(servers.info!.pid!);
  await Promise.all([bare, ...Object.values(servers)].map(stop));
  await admin.unsafe(`drop database if exists ${BENCH_DB} with (force)`);
  await admin.end();

  async function withTrips(go: () => Promise<Omit<Row, 'name'>>): Promise<Omit<Row, 'name'>> {
    const before = await xactCommits(admin);
    const result = await go();
    return { ...result, dbRoundTrips: (await xactCommits(admin)) - before };
  }

  // Baseline 2: the check's query straight to PostgreSQL, same concurrency, same duration.
  async function direct(): Promise<Omit<Row, 'name'>> {
    const sql = postgres(dbUrl(ADMIN_URL, BENCH_DB), { max: CONNECTIONS, onnotice: () => {} });
    let done = 0;
    const latencies: number[] = [];
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < until) {
          const t = performance.now();
          await sql.unsafe("select current_setting('server_version') as version", [], { prepare: true });
          latencies.push(performance.now() - t);
          done++;
        }
      }),
    );
    await sql.end();
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => Math.round((latencies[Math.floor((latencies.length - 1) * p)] ?? 0) * 100) / 100;
    return { rps: Math.round(done / SECONDS), p50: pct(0.5), p99: pct(0.99), errors: 0, requests: done };
  }

  console.log(
    `\nGET /api, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per run (medians), autocannon; Node ${process.version}\n`,
  );
  console.table(
    rows.map((r) => ({
      run: r.name,
      'req/s': Math.round(r.rps),
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      'vs bare': ratios[rows.indexOf(r)]!.toFixed(2),
      'peak RSS MB': r.peakRssMb ?? '',
      'db round trips': r.dbRoundTrips ?? '',
      'requests/trip': r.dbRoundTrips ? ((r.requests ?? 0) / r.dbRoundTrips).toFixed(1) : '',
      errors: r.errors,
    })),
  );
  console.log(
    `\nbudget: carrel/bare >= 0.50 -> ${ratios[2]!.toFixed(2)} (info logging: ${ratios[3]!.toFixed(2)}); peak RSS <= 150 MB -> ${Math.max(rows[2]!.peakRssMb, rows[3]!.peakRssMb)} MB`,
  );
  fs.writeFileSync(path.join(RESULTS, `api-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(rows, null, 2));
}

await main();
