// `npm run bench`: GET /api under load on PostgreSQL, against baselines measured in the same run.
//
//   bare      a plain node:http server answering a fixed health-report body (no framework, no database)
//   db        the health check's query sent straight to PostgreSQL with postgres.js, same concurrency
//   carrel    the real server process, LOG_LEVEL=warn and LOG_LEVEL=info (one log line per request start and end)
//
// Prints a table with requests per second, latency, the ratio to the bare server, the server's
// peak resident memory (VmHWM) and how many database round trips served the requests.
// Options: --seconds N (default 10), --connections N (default 16), --database-url URL.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import postgres from 'postgres';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const ADMIN_URL = args['database-url'];
const BENCH_DB = 'carrel_bench';

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

function dbUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function startChild(command: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  const child = spawn(process.execPath, command, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${command.join(' ')} exited ${code}:\n${output}`)));
  });
  // Keep draining the pipes so a chatty server never blocks on a full pipe.
  child.stdout.resume();
  child.stderr.resume();
  return child;
}

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGINT');
  await exited;
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
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${BENCH_DB} with (force)`);
  await admin.unsafe(`create database ${BENCH_DB}`);
  const rows: Row[] = [];

  // Baseline 1: a bare node:http server with a fixed body of the same size.
  const sample = JSON.stringify({
    status: 'Healthy', totalDuration: '00:00:00.0041739',
    entries: {
      API: { data: { 'Carrel.Api': { version: '1.0.0.1', major: 1, minor: 0, build: 0, revision: 1 } }, duration: '00:00:00.0000312', status: 'Healthy', tags: [] },
      DatabaseServer: { data: { Database: { version: '15.19' } }, duration: '00:00:00.0039871', status: 'Healthy', tags: [] },
    },
  });
  const bareSource = `require('http').createServer((q,s)=>{s.writeHead(200,{'content-type':'application/json'});s.end(${JSON.stringify(sample)})}).listen(3901,'127.0.0.1',()=>console.log('ready'))`;
  const bare = await startChild(['-e', bareSource], {}, /ready/);
  rows.push({ name: 'bare node:http, fixed body', ...(await load('http://127.0.0.1:3901/api', (b) => b.includes('Healthy'))), peakRssMb: peakRssMb(bare.pid!) });
  await stop(bare);

  // Baseline 2: the check's query straight to PostgreSQL, same concurrency, same duration.
  const direct = postgres(dbUrl(BENCH_DB), { max: CONNECTIONS, onnotice: () => {} });
  let done = 0;
  const latencies: number[] = [];
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const t = performance.now();
        await direct.unsafe("select current_setting('server_version') as version", [], { prepare: true });
        latencies.push(performance.now() - t);
        done++;
      }
    }),
  );
  await direct.end();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => Math.round((latencies[Math.floor((latencies.length - 1) * p)] ?? 0) * 100) / 100;
  rows.push({ name: 'PostgreSQL direct, same query', rps: Math.round(done / SECONDS), p50: pct(0.5), p99: pct(0.99), errors: 0 });

  // Carrel, on PostgreSQL, with and without per-request info logging.
  for (const logLevel of ['warn', 'info']) {
    const server = await startChild(['--import', 'tsx', 'src/server.ts'], { DATABASE_URL: dbUrl(BENCH_DB), PORT: '3902', HOST: '127.0.0.1', LOG_LEVEL: logLevel }, /is listening on/);
    const before = await xactCommits(admin);
    const result = await load('http://127.0.0.1:3902/api', (b) => b.includes('"status":"Healthy"'));
    const trips = (await xactCommits(admin)) - before;
    rows.push({ name: `carrel GET /api (LOG_LEVEL=${logLevel})`, ...result, peakRssMb: peakRssMb(server.pid!), dbRoundTrips: trips });
    await stop(server);
  }
  await admin.unsafe(`drop database if exists ${BENCH_DB} with (force)`);
  await admin.end();

  const bareRps = rows[0]!.rps;
  console.log(`\nGET /api, ${CONNECTIONS} connections, ${SECONDS} s each, autocannon; Node ${process.version}\n`);
  console.table(
    rows.map((r) => ({
      run: r.name,
      'req/s': Math.round(r.rps),
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      'vs bare': (r.rps / bareRps).toFixed(2),
      'peak RSS MB': r.peakRssMb ?? '',
      'db round trips': r.dbRoundTrips ?? '',
      'requests/trip': r.dbRoundTrips ? ((r.requests ?? 0) / r.dbRoundTrips).toFixed(1) : '',
      errors: r.errors,
    })),
  );
  const carrel = rows.find((r) => r.name.includes('warn'))!;
  console.log(`\nbudget: carrel/bare >= 0.50 -> ${(carrel.rps / bareRps).toFixed(2)}; peak RSS <= 150 MB -> ${carrel.peakRssMb} MB`);
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, `bench/results/api-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(rows, null, 2));
}

await main();
