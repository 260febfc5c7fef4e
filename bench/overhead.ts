// `npm run bench:overhead`: what Carrel's own per-request work (HTTP hooks, the token, logging,
// the JSON) costs, against a bare Fastify server answering the same bodies, in the same run.
//
// For each request below, the bare server answers exactly what Carrel answered (status,
// Content-Type, body) from a table, with nothing else: no hooks, no logger, no database. The two
// take turns, round after round, and each ratio compares runs of the same round.
//   GET /api                          status report (Carrel asks the database at most every few seconds)
//   GET /v6/nope                      an unknown path: 404
//   GET /v6/info/token                a token already cached
//   GET /v6/branches                  a token, two small queries
//   GET /v6/bibs/search?text=<ISBN>   one bib
//   GET /v6/bibs/search?text=<rare>   a word in a few bibs
// Options: --seconds N per run (default 3), --rounds N (default 3), --connections N (default 8),
// --bibs N in the generated catalogue (default 2000), --database-url URL (an admin connection).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { benchDatabase, cpuMsOf, ROOT, startChild, stop } from './lib.ts';
import postgres from 'postgres';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    bibs: { type: 'string', default: '2000' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const ADMIN_URL = args['database-url'];
const BENCH_DB = 'carrel_bench_overhead';
const RESULTS = path.join(ROOT, 'bench/results');
const CARREL = 'http://127.0.0.1:3931';
const BARE = 'http://127.0.0.1:3932';

interface Answer {
  status: number;
  type: string;
  body: string;
}

async function load(url: string, headers: Record<string, string>, pid: number) {
  const cpu0 = cpuMsOf(pid);
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS });
  const cpu = cpuMsOf(pid) - cpu0;
  return { rps: result.requests.average, cpuPerRequest: cpu / Math.max(1, result.requests.total), errors: result.errors };
}

async function main(): Promise<void> {
  fs.mkdirSync(RESULTS, { recursive: true });
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${BENCH_DB} with (force)`);
  await admin.unsafe(`create database ${BENCH_DB}`);
  const db = benchDatabase(ADMIN_URL, BENCH_DB);
  db.cli(['migrate']);
  db.cli(['generate', '--bibs', args.bibs, '--seed', '1']);
  db.cli(['search', 'reindex']);
  const key = JSON.parse(db.cli(['keys', 'create', '--name', 'overhead', '--roles', 'all', '--json'])) as { key: string; secret: string };
  // A limit the load cannot reach: the check still counts every request, as it does in service.
  const carrel = await startChild(
    ['dist/server.js'],
    { ...db.env, LOG_LEVEL: 'info', PORT: '3931', HOST: '127.0.0.1', CARREL_RATE_LIMIT: '100000000', CARREL_WORKERS: '1' },
    /is listening on/,
    path.join(RESULTS, 'overhead-carrel.log'),
  );
  const basic = Buffer.from(`${key.key}:${key.secret}`).toString('base64');
  const issued = (await (await fetch(`${CARREL}/v6/token`, { method: 'POST', headers: { authorization: `Basic ${basic}` } })).json()) as {
    access_token: string;
  };
  const bearer = { authorization: `Bearer ${issued.access_token}` };
  const picks = await db.sql(async (sql) => {
    const [isbn] = await sql<{ isbn: string }[]>`select isbns[1] as isbn from bibs where isbns[1] is not null order by id limit 1`;
    const titles = await sql<{ title: string }[]>`select title from bibs order by id limit 200`;
    return { isbn: isbn!.isbn, words: [...new Set(titles.flatMap((t) => t.title.toLowerCase().match(/[a-z]{6,}/g) ?? []))] };
  });
  // A rare word: the first of the titles' words found in 2 to 20 bibs.
  let rare = '';
  for (const word of picks!.words) {
    const page = (await (await fetch(`${CARREL}/v6/bibs/search?text=${word}&limit=20`, { headers: bearer })).json()) as { total: number };
    if (page.total >= 2 && page.total <= 20) {
      rare = word;
      break;
    }
  }
  const requests = [
    { name: 'GET /api', path: '/api', headers: {} },
    { name: 'GET /v6/nope (404)', path: '/v6/nope', headers: {} },
    { name: 'GET /v6/info/token', path: '/v6/info/token', headers: bearer },
    { name: 'GET /v6/branches', path: '/v6/branches', headers: bearer },
    { name: 'search, an ISBN', path: `/v6/bibs/search?text=${picks!.isbn}&limit=20`, headers: bearer },
    { name: `search, a rare word`, path: `/v6/bibs/search?text=${rare}&limit=20`, headers: bearer },
  ];
  const answers: Record<string, Answer> = {};
  for (const r of requests) {
    const response = await fetch(`${CARREL}${r.path}`, { headers: r.headers });
    answers[r.path] = { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
  }
  const bareSource = `const answers = ${JSON.stringify(answers)};
const app = require('fastify')();
app.all('*', (request, reply) => { const a = answers[request.url]; reply.code(a.status).type(a.type).send(a.body); });
app.listen({ port: 3932, host: '127.0.0.1' }).then(() => console.log('ready'));`;
  const bare = await startChild(['-e', bareSource], {}, /ready/, path.join(RESULTS, 'overhead-bare.log'));

  const perRound = requests.map(() => [] as { carrel: Awaited<ReturnType<typeof load>>; bare: Awaited<ReturnType<typeof load>> }[]);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, r] of requests.entries()) {
      process.stderr.write(`round ${round}/${ROUNDS}: ${r.name}\n`);
      const bareRun = await load(`${BARE}${r.path}`, r.headers, bare.pid!);
      const carrelRun = await load(`${CARREL}${r.path}`, r.headers, carrel.pid!);
      perRound[i]!.push({ carrel: carrelRun, bare: bareRun });
    }
  }
  await Promise.all([stop(bare), stop(carrel)]);
  await admin.unsafe(`drop database if exists ${BENCH_DB} with (force)`);
  await admin.end();

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const rows = requests.map((r, i) => {
    const runs = perRound[i]!;
    return {
      request: r.name,
      status: answers[r.path]!.status,
      'carrel req/s': Math.round(median(runs.map((x) => x.carrel.rps))),
      'bare req/s': Math.round(median(runs.map((x) => x.bare.rps))),
      'carrel/bare': median(runs.map((x) => x.carrel.rps / x.bare.rps)).toFixed(2),
      'carrel CPU ms/req': median(runs.map((x) => x.carrel.cpuPerRequest)).toFixed(3),
      'bare CPU ms/req': median(runs.map((x) => x.bare.cpuPerRequest)).toFixed(3),
      errors: runs.reduce((sum, x) => sum + x.carrel.errors + x.bare.errors, 0),
    };
  });
  console.log(
    `\nCarrel against a bare Fastify route with the same answer, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s (medians), ${args.bibs} bibs; Node ${process.version}\n`,
  );
  console.table(rows);
  // Issue 40's budgets: the status report and an authenticated cheap read against the bare route.
  for (const [name, least] of [
    ['GET /api', 0.7],
    ['GET /v6/branches', 0.25],
  ] as const) {
    const i = requests.findIndex((r) => r.name === name);
    const ratio = median(perRound[i]!.map((x) => x.carrel.rps / x.bare.rps));
    const met = ratio >= least && rows[i]!.errors === 0;
    console.log(
      `budget: ${name} carrel/bare >= ${least}, no errors -> ${ratio.toFixed(3)}, ${rows[i]!.errors} errors: ${met ? 'met' : 'not met'}`,
    );
  }
  fs.writeFileSync(path.join(RESULTS, `overhead-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(rows, null, 2));
}

await main();
