// `npm run bench:patrons`: the patron calls integrations make all day, under load on PostgreSQL
// with 100,000 patrons and 300,000 holds, each beside a bare node:http server in the same run:
// GET /v6/patrons/{id}/holds (a discovery layer's "my holds"), POST /v6/patrons/validate (PC
// reservation and print systems at every login) and the Patron API's GET /PATRONAPI/{barcode}/{pin}/pintest
// (proxy servers and e-book platforms at every login), with the PIN hash's own cost on one core.
// The data comes from `carrel generate` (seed 1): patrons, and holds placed by the hold rules on
// Zipf-popular bibs (queues from one to hundreds). It is kept in the database carrel_bench_patrons
// and reused by the next run when it holds the same numbers (--fresh to rebuild it).
// Besides rate and latency, each run reports the CPU time per request of the server, of its
// PostgreSQL backends and of the load generator (autocannon, in this process), and the database
// round trips per request: figures that hold still on a shared machine when latencies do not.
// Options: --patrons N (default 100000), --holds N (default 300000), --bibs N (default 100000),
// --seconds N (default 10), --connections N (default 32), --fresh, --database-url URL.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { GENERATED_PIN, patronBarcode } from '../src/generate/patrons.ts';
import { hashPin, PIN_PARAMS, verifyPin } from '../src/patrons/pin.ts';
import { costPer, dbUrl, peakRssMb, ROOT, startChild, stop } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    patrons: { type: 'string', default: '100000' },
    holds: { type: 'string', default: '300000' },
    bibs: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    fresh: { type: 'boolean', default: false },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const PATRONS = Number(args.patrons);
const HOLDS = Number(args.holds);
const BIBS = Number(args.bibs);
const SECONDS = Number(args.seconds);
/** Each of the four turns of the pintest/validate ratio. */
const TURN_SECONDS = Math.max(2, Math.round(SECONDS / 2));
const CONNECTIONS = Number(args.connections);
const SEED = 1;
const DB = 'carrel_bench_patrons';
const RESULTS = path.join(ROOT, 'bench/results');

let firstPatronId = 0;
const randomPatron = () => 1 + Math.floor(Math.random() * PATRONS);
/** The Patron API's answer to the right PIN: RETCOD=0 and no error line. */
const pinOk = (body: string) => /\nRETCOD=0<BR>\n/.test(body) && !body.includes('ERRNUM');
/** Answers to pintest: how many were checked, and the first few that were not RETCOD=0. */
const pintestBodies = { checked: 0, ok: 0, wrong: [] as string[] };

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  /** Per request, in microseconds, and database round trips per request (Carrel runs only). */
  serverUs?: number;
  postgresUs?: number;
  loadUs?: number;
  trips?: number;
}

async function load(
  url: string,
  headers: Record<string, string>,
  expect: number,
  kind: 'validate' | 'holds' | 'pintest',
  seconds = SECONDS,
): Promise<Run> {
  let bad = 0;
  const request: autocannon.Request = {
    validate: {
      method: 'POST' as const,
      headers: { ...headers, 'content-type': 'application/json' },
      setupRequest: (request: autocannon.Request) => ({
        ...request,
        body: JSON.stringify({ barcode: patronBarcode(SEED, randomPatron()), pin: GENERATED_PIN }),
      }),
    },
    holds: {
      method: 'GET' as const,
      headers,
      setupRequest: (request: autocannon.Request) => ({ ...request, path: `/v6/patrons/${firstPatronId - 1 + randomPatron()}/holds` }),
    },
    // The same random barcodes as validate's, with the right PIN; no token. Every answer's body is
    // read: anything but RETCOD=0 is an error (a wrong PIN would count against the limits).
    pintest: {
      method: 'GET' as const,
      headers,
      setupRequest: (request: autocannon.Request) => ({
        ...request,
        path: `/PATRONAPI/${patronBarcode(SEED, randomPatron())}/${encodeURIComponent(GENERATED_PIN)}/pintest`,
      }),
      onResponse: (status: number, body: string) => {
        if (status !== expect) return; // counted below
        pintestBodies.checked++;
        if (pinOk(body)) pintestBodies.ok++;
        else {
          bad++;
          if (pintestBodies.wrong.length < 3) pintestBodies.wrong.push(body);
        }
      },
    },
  }[kind];
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [request],
    setupClient: (client) => client.on('response', (status: number) => status !== expect && bad++),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + bad,
    requests: result.requests.total,
  };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  const env = { DATABASE_URL: dbUrl(args['database-url'], DB), LOG_LEVEL: 'warn' };
  const cli = (command: string[]) =>
    execFileSync(process.execPath, ['dist/cli.js', ...command], { cwd: ROOT, env: { ...process.env, ...env } }).toString();
  const counts = async () => {
    const sql = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql`select (select count(*) from patrons)::int as patrons, (select count(*) from holds)::int as holds,
        (select count(*) from bibs where control_source = 'CarrelGen')::int as bibs`;
      return row as { patrons: number; holds: number; bibs: number };
    } catch {
      return undefined;
    } finally {
      await sql.end();
    }
  };
  const exists = (await admin`select 1 from pg_database where datname = ${DB}`).length > 0;
  const have = exists && !args.fresh ? await counts() : undefined;
  let generateSeconds: number | undefined;
  let holdsPlaced = have?.holds ?? 0;
  if (have?.patrons !== PATRONS || have.bibs !== BIBS || have.holds === 0) {
    await admin.unsafe(`drop database if exists ${DB} with (force)`);
    await admin.unsafe(`create database ${DB}`);
    process.stderr.write(`carrel generate --bibs ${BIBS} --patrons ${PATRONS} --holds ${HOLDS}…\n`);
    const started = performance.now();
    const summary = JSON.parse(
      cli(['generate', '--bibs', String(BIBS), '--patrons', String(PATRONS), '--holds', String(HOLDS), '--seed', String(SEED), '--json']),
    ) as { holds: { created: number } };
    generateSeconds = (performance.now() - started) / 1000;
    holdsPlaced = summary.holds.created;
    const sql = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
    await sql`vacuum analyze`;
    await sql.end();
  } else process.stderr.write(`reusing ${DB}: ${have.bibs} bibs, ${have.patrons} patrons, ${have.holds} holds (--fresh to rebuild)\n`);
  cli(['migrate']);
  {
    const sql = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
    firstPatronId = Number((await sql`select min(id)::text as id from patrons`)[0]!.id);
    // New bibs wait in the search queue, and a server indexes them as soon as it starts: not while it is measured.
    const [queue] = await sql`select count(*)::int as n from search_queue`;
    if (queue!.n > 0) {
      process.stderr.write(`carrel search reindex (${queue!.n} bibs waiting to be indexed)…\n`);
      cli(['search', 'reindex']);
      await sql`vacuum analyze`;
    }
    await sql.end();
  }

  // The hash alone, one core: what each attempt must cost (budget: at least 5 ms).
  const hash = await hashPin(GENERATED_PIN);
  const t0 = performance.now();
  for (let i = 0; i < 20; i++) await verifyPin(GENERATED_PIN, hash);
  const hashMs = (performance.now() - t0) / 20;

  const key = JSON.parse(cli(['keys', 'create', '--name', 'bench', '--roles', 'all', '--rate-limit', 'unlimited', '--json'])) as {
    key: string;
    secret: string;
  };
  const server = await startChild(
    ['dist/server.js'],
    { ...env, PORT: '3922', HOST: '127.0.0.1', CARREL_WORKERS: '1' },
    /is listening on/,
    path.join(RESULTS, 'patrons-carrel.log'),
  );
  const token = (await (
    await fetch('http://127.0.0.1:3922/v6/token', {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
    })
  ).json()) as { access_token: string };
  const auth = { authorization: `Bearer ${token.access_token}` };
  // The bare server answers a POST with 204, a GET with a real page of three holds, as Carrel gives it,
  // and a pintest with Carrel's RETCOD=0 page. A sample of pintest answers is checked first.
  let okPage = '';
  for (let i = 0; i < 5; i++) {
    const barcode = patronBarcode(SEED, randomPatron());
    const response = await fetch(`http://127.0.0.1:3922/PATRONAPI/${barcode}/${encodeURIComponent(GENERATED_PIN)}/pintest`);
    const body = await response.text();
    if (response.status !== 200 || !pinOk(body)) throw new Error(`pintest of ${barcode}: ${response.status} ${JSON.stringify(body)}`);
    okPage = body;
  }
  let page = '';
  for (let n = 1; n <= PATRONS && !page; n++) {
    const body = await (await fetch(`http://127.0.0.1:3922/v6/patrons/${firstPatronId - 1 + n}/holds`, { headers: auth })).text();
    if ((JSON.parse(body) as { total: number }).total === 3) page = body.replaceAll(':3922/', ':3921/');
  }
  const bare = await startChild(
    [
      '-e',
      `require('http').createServer((q,s)=>{q.resume();q.on('end',()=>{if(q.url.startsWith('/PATRONAPI/')){s.writeHead(200,{'content-type':'text/html; charset=UTF-8'});s.end(${JSON.stringify(okPage)})}else if(q.method==='GET'){s.writeHead(200,{'content-type':'application/json'});s.end(${JSON.stringify(page)})}else{s.writeHead(204);s.end()}})}).listen(3921,'127.0.0.1',()=>console.log('ready'))`,
    ],
    {},
    /ready/,
    path.join(RESULTS, 'patrons-bare.log'),
  );

  /** A run against Carrel, with what each request cost the server, PostgreSQL and the load generator. */
  async function measured(go: () => Promise<Run>): Promise<Run> {
    const { result, cost } = await costPer(admin, DB, server.pid!, go, (run) => run.requests);
    return { ...result, serverUs: cost.serverUs, postgresUs: cost.postgresUs, loadUs: cost.selfUs, trips: cost.trips };
  }

  process.stderr.write('warming up…\n');
  await load('http://127.0.0.1:3922', auth, 200, 'holds', 3); // the pool opens, statements are prepared, pages come into memory
  process.stderr.write('bare node:http, GET…\n');
  const bareHolds = await load('http://127.0.0.1:3921', {}, 200, 'holds');
  process.stderr.write('carrel GET /v6/patrons/{id}/holds…\n');
  const holds = await measured(() => load('http://127.0.0.1:3922', auth, 200, 'holds'));
  process.stderr.write('bare node:http, POST…\n');
  const bareResult = await load('http://127.0.0.1:3921/v6/patrons/validate', {}, 204, 'validate');
  process.stderr.write('bare node:http, RETCOD=0 page…\n');
  const barePintest = await load('http://127.0.0.1:3921', {}, 200, 'pintest');
  Object.assign(pintestBodies, { checked: 0, ok: 0, wrong: [] });
  // validate and pintest back to back, so that the ratio of their rates sees the same machine.
  process.stderr.write('carrel POST /v6/patrons/validate…\n');
  const validate = await measured(() => load('http://127.0.0.1:3922/v6/patrons/validate', auth, 204, 'validate'));
  process.stderr.write('carrel GET /PATRONAPI/{barcode}/{pin}/pintest…\n');
  const pintest = await measured(() => load('http://127.0.0.1:3922', {}, 200, 'pintest'));
  // The ratio of the two rates, in turns (validate, pintest, pintest, validate) so that neither
  // always runs first or last: the rates wander with the machine by more than they differ.
  process.stderr.write('validate and pintest in turns…\n');
  const turns = { validate: 0, pintest: 0 };
  for (const kind of ['validate', 'pintest', 'pintest', 'validate'] as const) {
    const run =
      kind === 'validate'
        ? await load('http://127.0.0.1:3922/v6/patrons/validate', auth, 204, kind, TURN_SECONDS)
        : await load('http://127.0.0.1:3922', {}, 200, kind, TURN_SECONDS);
    turns[kind] += run.requests;
  }
  const serverPeak = peakRssMb(server.pid!);
  await Promise.all([stop(bare), stop(server)]);
  await admin.end();

  console.log(
    `\n${PATRONS} patrons, ${holdsPlaced} holds on ${BIBS} bibs (carrel generate, seed ${SEED}); PostgreSQL; ${CONNECTIONS} connections, ${SECONDS} s per run; Node ${process.version}`,
  );
  if (generateSeconds !== undefined) console.log(`generated and loaded in ${generateSeconds.toFixed(0)} s`);
  console.log(`PIN hash: scrypt N=${PIN_PARAMS.N} r=${PIN_PARAMS.r} p=${PIN_PARAMS.p}, ${hashMs.toFixed(1)} ms per check on one core\n`);
  const row = (run: string, r: Run, bareRps: number, digits: number) => ({
    run,
    'req/s': Math.round(r.rps),
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    'vs bare': (r.rps / bareRps).toFixed(digits),
    errors: r.errors,
    'server µs/req': r.serverUs ?? '',
    'postgres µs/req': r.postgresUs ?? '',
    'autocannon µs/req': r.loadUs ?? '',
    'db trips/req': r.trips?.toFixed(2) ?? '',
  });
  console.table([
    row('bare node:http, fixed holds page', bareHolds, bareHolds.rps, 2),
    row('carrel GET /v6/patrons/{id}/holds', holds, bareHolds.rps, 2),
    row('bare node:http, 204', bareResult, bareResult.rps, 2),
    row('carrel POST /v6/patrons/validate', validate, bareResult.rps, 3),
    row('bare node:http, RETCOD=0 page', barePintest, barePintest.rps, 2),
    row('carrel GET /PATRONAPI/{barcode}/{pin}/pintest', pintest, barePintest.rps, 3),
  ]);
  console.log(`server peak RSS ${serverPeak} MB`);
  console.log(`budget: holds p99 <= 10 ms -> ${holds.p99} ms`);
  console.log(`budget: validate >= 200/s with a hash of >= 5 ms -> ${Math.round(validate.rps)}/s, ${hashMs.toFixed(1)} ms`);
  const cpu = (r: Run) => (r.serverUs ?? 0) + (r.postgresUs ?? 0);
  console.log(
    `pintest answers: ${pintestBodies.ok} of ${pintestBodies.checked} bodies RETCOD=0` +
      (pintestBodies.wrong.length ? `; others, e.g. ${JSON.stringify(pintestBodies.wrong)}` : ''),
  );
  console.log(
    `pintest rate / validate rate, one run each: ${(pintest.rps / validate.rps).toFixed(2)} (${Math.round(pintest.rps)}/s against ${Math.round(validate.rps)}/s; ` +
      `server + postgres CPU ${cpu(pintest)} against ${cpu(validate)} µs/req, ${pintest.trips?.toFixed(2)} against ${validate.trips?.toFixed(2)} db trips/req)`,
  );
  console.log(
    `budget: pintest rate / validate rate >= 1.0 -> ${(turns.pintest / turns.validate).toFixed(2)} ` +
      `(in turns of ${TURN_SECONDS} s, validate pintest pintest validate: ${turns.pintest} against ${turns.validate} requests)`,
  );
}

await main();
