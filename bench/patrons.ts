// `npm run bench:patrons`: the two patron calls integrations make all day, under load on PostgreSQL
// with 100,000 patrons and 300,000 holds, each beside a bare node:http server in the same run:
// GET /v6/patrons/{id}/holds (a discovery layer's "my holds"), and POST /v6/patrons/validate (PC
// reservation and print systems at every login), with the PIN hash's own cost on one core.
// Options: --patrons N (default 100000), --holds-per-patron N (default 3), --seconds N (default 10),
// --connections N (default 32), --database-url URL.
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
    'holds-per-patron': { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const PATRONS = Number(args.patrons);
const HOLDS_PER_PATRON = Number(args['holds-per-patron']);
const BIBS = 20_000;
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const DB = 'carrel_bench_patrons';
const RESULTS = path.join(ROOT, 'bench/results');
const PIN = '4821';
const barcode = (i: number) => `2${String(i).padStart(9, '0')}`;

const randomPatron = () => 1 + Math.floor(Math.random() * PATRONS);

async function load(url: string, headers: Record<string, string>, expect: number, kind: 'validate' | 'holds') {
  let bad = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [kind === 'validate' ? {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      setupRequest: (request) => ({ ...request, body: JSON.stringify({ barcode: barcode(randomPatron()), pin: PIN }) }),
    } : {
      method: 'GET',
      headers,
      setupRequest: (request) => ({ ...request, path: `/v6/patrons/${1000000 + randomPatron()}/holds` }),
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
  // Holds on a catalogue of plain bibs at the Main Library: each patron holds a few different
  // bibs, so each bib has a queue of about fifteen.
  await sql.unsafe(
    `with b as (insert into branches (name) values ('Main Library') returning id)
     insert into locations (code, name, branch_id, pickup, hold_shelf_days) select 'mn', 'Main Library', id, true, 7 from b`,
  );
  await sql.unsafe("insert into bibs (title, created_date, updated_date) select 'Title ' || i, now(), now() from generate_series(1, $1) i", [BIBS]);
  await sql.unsafe(
    `insert into holds (patron_id, record_type, bib_id, pickup_location, placed, not_wanted_before, not_needed_after)
     select 1000000 + p, 'b', 1000000 + 1 + ((p * 7 + k * 13) % $2), 'mn', current_date, current_date, current_date + 90
     from generate_series(1, $1) p, generate_series(0, $3 - 1) k order by p, k`,
    [PATRONS, BIBS, HOLDS_PER_PATRON],
  );
  await sql.unsafe('vacuum analyze');
  await sql.end();

  // The hash alone, one core: what each attempt must cost (budget: at least 5 ms).
  const t0 = performance.now();
  for (let i = 0; i < 20; i++) await verifyPin(PIN, hash);
  const hashMs = (performance.now() - t0) / 20;

  const key = JSON.parse(execFileSync(process.execPath, ['dist/cli.js', 'keys', 'create', '--name', 'bench', '--roles', 'all', '--json'], { cwd: ROOT, env: { ...process.env, ...env } }).toString()) as { key: string; secret: string };
  // The bare server answers a POST with 204 and a GET with a fixed body the size of a page of holds.
  const holdsBody = JSON.stringify({ total: 3, start: 0, entries: Array.from({ length: HOLDS_PER_PATRON }, (_, i) => ({ id: `http://127.0.0.1:3922/v6/patrons/holds/${406001 + i}`, record: 'http://127.0.0.1:3922/v6/bibs/1000001', patron: 'http://127.0.0.1:3922/v6/patrons/1000001', frozen: false, placed: '2026-11-22', notNeededAfterDate: '2027-02-20', notWantedBeforeDate: '2026-11-22', location: { code: 'mn', name: 'Main Library' }, pickupLocation: { code: 'mn', name: 'Main Library' }, status: { code: '0', name: 'On hold.' }, recordType: 'b', priority: 3, priorityQueueLength: 15, canFreeze: true, note: '' })) });
  const bare = await startChild(['-e', `require('http').createServer((q,s)=>{q.resume();q.on('end',()=>{if(q.method==='GET'){s.writeHead(200,{'content-type':'application/json'});s.end(${JSON.stringify(holdsBody)})}else{s.writeHead(204);s.end()}})}).listen(3921,'127.0.0.1',()=>console.log('ready'))`], {}, /ready/, path.join(RESULTS, 'patrons-bare.log'));
  const server = await startChild(['dist/server.js'], { ...env, PORT: '3922', HOST: '127.0.0.1' }, /is listening on/, path.join(RESULTS, 'patrons-carrel.log'));
  const token = (await (await fetch('http://127.0.0.1:3922/v6/token', { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` } })).json()) as { access_token: string };

  const auth = { authorization: `Bearer ${token.access_token}` };
  process.stderr.write('bare node:http, GET…\n');
  const bareHolds = await load('http://127.0.0.1:3921', {}, 200, 'holds');
  process.stderr.write('carrel GET /v6/patrons/{id}/holds…\n');
  const holds = await load('http://127.0.0.1:3922', auth, 200, 'holds');
  process.stderr.write('bare node:http, POST…\n');
  const bareResult = await load('http://127.0.0.1:3921/v6/patrons/validate', {}, 204, 'validate');
  process.stderr.write('carrel POST /v6/patrons/validate…\n');
  const validate = await load('http://127.0.0.1:3922/v6/patrons/validate', auth, 204, 'validate');
  const serverPeak = peakRssMb(server.pid!);
  await Promise.all([stop(bare), stop(server)]);
  await admin.unsafe(`drop database if exists ${DB} with (force)`);
  await admin.end();

  console.log(`\n${PATRONS} patrons, ${PATRONS * HOLDS_PER_PATRON} holds on ${BIBS} bibs; PostgreSQL; ${CONNECTIONS} connections, ${SECONDS} s per run; Node ${process.version}`);
  console.log(`PIN hash: scrypt N=${PIN_PARAMS.N} r=${PIN_PARAMS.r} p=${PIN_PARAMS.p}, ${hashMs.toFixed(1)} ms per check on one core\n`);
  console.table([
    { run: 'bare node:http, fixed holds page', 'req/s': Math.round(bareHolds.rps), 'p50 ms': bareHolds.p50, 'p99 ms': bareHolds.p99, 'vs bare': '1.00', errors: bareHolds.errors },
    { run: 'carrel GET /v6/patrons/{id}/holds', 'req/s': Math.round(holds.rps), 'p50 ms': holds.p50, 'p99 ms': holds.p99, 'vs bare': (holds.rps / bareHolds.rps).toFixed(2), errors: holds.errors },
    { run: 'bare node:http, 204', 'req/s': Math.round(bareResult.rps), 'p50 ms': bareResult.p50, 'p99 ms': bareResult.p99, 'vs bare': '1.00', errors: bareResult.errors },
    { run: 'carrel POST /v6/patrons/validate', 'req/s': Math.round(validate.rps), 'p50 ms': validate.p50, 'p99 ms': validate.p99, 'vs bare': (validate.rps / bareResult.rps).toFixed(3), errors: validate.errors, 'peak RSS MB': serverPeak },
  ]);
  console.log(`budget: holds p99 <= 10 ms -> ${holds.p99} ms`);
  console.log(`budget: validate >= 200/s with a hash of >= 5 ms -> ${Math.round(validate.rps)}/s, ${hashMs.toFixed(1)} ms`);
}

await main();
