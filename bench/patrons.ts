// `npm run bench:patrons`: POST /v6/patrons/validate — the call PC reservation and print systems
// make at every login — under load on PostgreSQL with 100,000 patrons, beside a bare node:http
// server answering 204 in the same run, and the PIN hash's own cost on one core.
// Options: --patrons N (default 100000), --seconds N (default 10), --connections N (default 32),
// --database-url URL.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { hashPin, PIN_PARAMS, verifyPin } from '../src/patrons/pin.ts';
import { dbUrl, peakRssMb, ROOT, startChild, stop } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    patrons: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const PATRONS = Number(args.patrons);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const DB = 'carrel_bench_patrons';
const RESULTS = path.join(ROOT, 'bench/results');
const PIN = '4821';
const barcode = (i: number) => `2${String(i).padStart(9, '0')}`;

async function load(url: string, headers: Record<string, string>, expect: number) {
  let bad = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      setupRequest: (request) => ({ ...request, body: JSON.stringify({ barcode: barcode(1 + Math.floor(Math.random() * PATRONS)), pin: PIN }) }),
    }],
    setupClient: (client) => client.on('response', (status: number) => status !== expect && bad++),
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + bad, requests: result.requests.total };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${DB} with (force)`);
  await admin.unsafe(`create database ${DB}`);
  const env = { DATABASE_URL: dbUrl(args['database-url'], DB), LOG_LEVEL: 'warn' };
  execFileSync(process.execPath, ['dist/cli.js', 'migrate'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' });

  // Every patron gets the same PIN hash: hashing 100,000 PINs would take minutes, and a check
  // costs the same whatever the salt.
  const hash = await hashPin(PIN);
  const sql = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
  await sql.unsafe(
    `with p as (insert into patrons (names, pin_hash, expiration_date, created_date, updated_date)
                select array['Patron ' || i], $1, current_date + 365, now(), now() from generate_series(1, $2) i returning id)
     insert into patron_barcodes (barcode, patron_id, position) select '2' || lpad((id - 1000000)::text, 9, '0'), id, 0 from p`,
    [hash, PATRONS],
  );
  await sql.unsafe('vacuum analyze');
  await sql.end();

  // The hash alone, one core: what each attempt must cost (budget: at least 5 ms).
  const t0 = performance.now();
  for (let i = 0; i < 20; i++) await verifyPin(PIN, hash);
  const hashMs = (performance.now() - t0) / 20;

  const key = JSON.parse(execFileSync(process.execPath, ['dist/cli.js', 'keys', 'create', '--name', 'bench', '--roles', 'all', '--json'], { cwd: ROOT, env: { ...process.env, ...env } }).toString()) as { key: string; secret: string };
  const bare = await startChild(['-e', "require('http').createServer((q,s)=>{q.resume();q.on('end',()=>{s.writeHead(204);s.end()})}).listen(3921,'127.0.0.1',()=>console.log('ready'))"], {}, /ready/, path.join(RESULTS, 'patrons-bare.log'));
  const server = await startChild(['dist/server.js'], { ...env, PORT: '3922', HOST: '127.0.0.1' }, /is listening on/, path.join(RESULTS, 'patrons-carrel.log'));
  const token = (await (await fetch('http://127.0.0.1:3922/v6/token', { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` } })).json()) as { access_token: string };

  process.stderr.write('bare node:http…\n');
  const bareResult = await load('http://127.0.0.1:3921/v6/patrons/validate', {}, 204);
  process.stderr.write('carrel POST /v6/patrons/validate…\n');
  const validate = await load('http://127.0.0.1:3922/v6/patrons/validate', { authorization: `Bearer ${token.access_token}` }, 204);
  const serverPeak = peakRssMb(server.pid!);
  await Promise.all([stop(bare), stop(server)]);
  await admin.unsafe(`drop database if exists ${DB} with (force)`);
  await admin.end();

  console.log(`\n${PATRONS} patrons; PostgreSQL; ${CONNECTIONS} connections, ${SECONDS} s per run; Node ${process.version}`);
  console.log(`PIN hash: scrypt N=${PIN_PARAMS.N} r=${PIN_PARAMS.r} p=${PIN_PARAMS.p}, ${hashMs.toFixed(1)} ms per check on one core\n`);
  console.table([
    { run: 'bare node:http, 204', 'req/s': Math.round(bareResult.rps), 'p50 ms': bareResult.p50, 'p99 ms': bareResult.p99, 'vs bare': '1.00', errors: bareResult.errors },
    { run: 'carrel POST /v6/patrons/validate', 'req/s': Math.round(validate.rps), 'p50 ms': validate.p50, 'p99 ms': validate.p99, 'vs bare': (validate.rps / bareResult.rps).toFixed(3), errors: validate.errors, 'peak RSS MB': serverPeak },
  ]);
  console.log(`budget: validate >= 200/s with a hash of >= 5 ms -> ${Math.round(validate.rps)}/s, ${hashMs.toFixed(1)} ms`);
}

await main();
