// `npm run bench:harvest`: a harvester walking every bib of a large catalogue through
// GET /v6/bibs?limit=2000, against PostgreSQL answering the same pages directly in the same run.
//
// The catalogue comes from `carrel generate` (timed: that is the generate-and-load figure for
// issue 3); it is kept in the database carrel_bench_harvest and reused by the next run when it
// already holds the same number of generated bibs (--fresh to rebuild it).
// Options: --bibs N (default 1000000), --limit N (default 2000), --rounds N (default 2), --fresh,
// --database-url URL.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    bibs: { type: 'string', default: '1000000' },
    limit: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '2' },
    fresh: { type: 'boolean', default: false },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const BIBS = Number(args.bibs);
const LIMIT = Number(args.limit);
const ROUNDS = Number(args.rounds);
const DB = 'carrel_bench_harvest';
const PORT = 3911;

function dbUrl(name: string): string {
  const url = new URL(args['database-url']);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs a child to completion, sampling its peak RSS; answers its stdout, the seconds it took and that peak. */
async function run(command: string[], env: Record<string, string>): Promise<{ stdout: string; seconds: number; peakRssMb: number }> {
  const child = spawn(process.execPath, command, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  let peakKb = 0;
  const poll = setInterval(() => (peakKb = Math.max(peakKb, vmHwmKb(child.pid!))), 100);
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  if (code !== 0) throw new Error(`${command.join(' ')} exited ${code}: ${stdout}`);
  return { stdout, seconds: (performance.now() - started) / 1000, peakRssMb: Math.round(peakKb / 1024) };
}

function vmHwmKb(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // exited
  }
}

async function startServer(env: Record<string, string>): Promise<ChildProcess> {
  // The banner goes to stderr, the request log to stdout (discarded here: one line per page).
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: ROOT,
    env: { ...process.env, ...env, CARREL_WORKERS: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/is listening on/.test(out)) resolve();
    });
    child.on('exit', () => reject(new Error(`server exited:\n${out}`)));
  });
  return child;
}

interface Walk {
  records: number;
  pages: number;
  seconds: number;
}

/** Pages through every live bib by id range, as a harvester does: id=[last+1,] until a short page. */
async function walk(page: (after: string) => Promise<{ ids: string[] }>): Promise<Walk> {
  let after = '0';
  let records = 0;
  let pages = 0;
  const started = performance.now();
  for (;;) {
    const { ids } = await page(after);
    records += ids.length;
    pages++;
    if (ids.length < LIMIT) break;
    after = ids[ids.length - 1]!;
  }
  return { records, pages, seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  const exists = (await admin`select 1 from pg_database where datname = ${DB}`).length > 0;
  let generated: { seconds: number; peakRssMb: number } | undefined;
  let have = 0;
  if (exists && !args.fresh) {
    const sql = postgres(dbUrl(DB), { max: 1, onnotice: () => {} });
    have = Number(
      (await sql`select count(*) as n from bibs where control_source = 'CarrelGen' and deleted_date is null`.catch(() => [{ n: 0 }]))[0]!.n,
    );
    await sql.end();
  }
  const env = { DATABASE_URL: dbUrl(DB) };
  if (have !== BIBS) {
    await admin.unsafe(`drop database if exists ${DB} with (force)`);
    await admin.unsafe(`create database ${DB}`);
    process.stderr.write(`generating and loading ${BIBS} bibs (carrel generate)…\n`);
    generated = await run(['dist/cli.js', 'generate', '--bibs', String(BIBS), '--seed', '1', '--json'], env);
    // A library's server has its search index built: indexing the new catalogue in the background
    // would take the machine from the harvest measured.
    await run(['dist/cli.js', 'search', 'reindex'], env);
    const sql = postgres(dbUrl(DB), { max: 1, onnotice: () => {} });
    await sql`vacuum analyze`;
    await sql.end();
  } else process.stderr.write(`reusing the ${BIBS} bibs in ${DB} (--fresh to rebuild)\n`);
  await admin.end();

  const key = JSON.parse(
    (
      await run(
        ['dist/cli.js', 'keys', 'create', '--name', 'bench-harvest', '--roles', 'Bibs_Read', '--rate-limit', 'unlimited', '--json'],
        env,
      )
    ).stdout,
  ) as { key: string; secret: string };
  const server = await startServer({ ...env, PORT: String(PORT), HOST: '127.0.0.1' });
  const base = `http://127.0.0.1:${PORT}`;
  const tokenResponse = await fetch(`${base}/v6/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };

  const viaApi = (fields?: string) => async (after: string) => {
    const url = `${base}/v6/bibs?limit=${LIMIT}&id=[${BigInt(after) + 1n},]${fields ? `&fields=${fields}` : ''}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { entries: { id: string }[] };
    return { ids: body.entries.map((e) => e.id) };
  };
  // The baseline: the same pages, with the same columns, read straight from PostgreSQL.
  const direct = postgres(dbUrl(DB), { max: 1, onnotice: () => {} });
  const viaSql = (withMarc: boolean) => async (after: string) => {
    const rows = await direct.unsafe(
      `select id::text, title, author, publish_year, lang, country, bib_level, material_type, suppressed, catalog_date,
         created_date, updated_date, deleted_date${withMarc ? ', marc' : ''}
       from bibs where bibs.id > $1 order by bibs.id limit $2`,
      [after, LIMIT],
      { prepare: true },
    );
    return { ids: rows.map((r) => r.id as string) };
  };

  const runs = [
    { name: 'PostgreSQL direct, same pages (baseline)', go: () => walk(viaSql(false)) },
    { name: 'carrel GET /v6/bibs (default fields)', go: () => walk(viaApi()) },
    { name: 'PostgreSQL direct, pages with MARC', go: () => walk(viaSql(true)) },
    { name: 'carrel GET /v6/bibs fields=default,varFields', go: () => walk(viaApi('default,varFields')) },
    // What a harvester of Sierra takes whole (issue 19): the fixed fields read the bib's items too.
    { name: 'carrel GET /v6/bibs fields=default,fixedFields,varFields', go: () => walk(viaApi('default,fixedFields,varFields')) },
  ];
  const results: Walk[][] = runs.map(() => []);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, r] of runs.entries()) {
      process.stderr.write(`round ${round}/${ROUNDS}: ${r.name}\n`);
      results[i]!.push(await r.go());
    }
  }
  const serverPeak = Math.round(vmHwmKb(server.pid!) / 1024);
  server.kill('SIGINT');
  await direct.end();

  const best = (list: Walk[]) => list.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const rate = (w: Walk) => Math.round(w.records / w.seconds);
  console.log(`\n${BIBS} generated bibs; PostgreSQL; limit=${LIMIT}; best of ${ROUNDS} rounds; Node ${process.version}\n`);
  if (generated)
    console.log(
      `carrel generate --bibs ${BIBS} (generate and load, with items): ${generated.seconds.toFixed(0)} s, ${Math.round(BIBS / generated.seconds)} bibs/s, peak RSS ${generated.peakRssMb} MB\n`,
    );
  console.table(
    runs.map((r, i) => {
      const w = best(results[i]!);
      const baseline = best(results[i < 2 ? 0 : 2]!);
      return {
        run: r.name,
        records: w.records,
        pages: w.pages,
        seconds: w.seconds.toFixed(1),
        'records/s': rate(w),
        'vs direct': (rate(w) / rate(baseline)).toFixed(2),
      };
    }),
  );
  console.log(`server peak RSS ${serverPeak} MB`);
  console.log(`budget: harvest >= 20,000 records/s -> ${rate(best(results[1]!))}`);
  console.log(`budget: harvest with fixedFields and varFields >= 10,000 records/s -> ${rate(best(results[4]!))}`);
}

await main();
