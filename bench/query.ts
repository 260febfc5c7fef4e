// `npm run bench:query`: Sierra's JSON queries (POST /v6/bibs/query) over a generated catalogue on
// PostgreSQL, one class at a time, beside the same condition answered straight in SQL in the same
// run. Every request is a different query drawn from the catalogue itself (the same ones every run).
//
// Classes: a MARC field's equality (020 $a, as a cataloguer finds a record by its ISBN; 035 $a, as a
// load profile matches an OCLC number) and a fixed-field range (28, cataloguing date: a month of
// records, one page of them). A load stamps every bib's cataloguing date with its day; they are
// spread here once over ten years by record number, as a catalogue's are.
//
// The catalogue (carrel generate and carrel search reindex, timed when they run) is kept in carrel_bench_query
// (carrel_bench_query_N for other sizes) and reused while it holds the same number of bibs.
// Options: --bibs N (default 1000000), --seconds S per class (default 8), --connections N (16),
// --limit N (entries per page, default 50), --fresh, --database-url URL.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { dbUrl, peakRssMb, ROOT, startChild, stop, byHash, percentile } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    bibs: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16' },
    limit: { type: 'string', default: '50' },
    fresh: { type: 'boolean', default: false },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const BIBS = Number(args.bibs);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const LIMIT = Number(args.limit);
const DB = BIBS === 1_000_000 ? 'carrel_bench_query' : `carrel_bench_query_${BIBS}`;
const URL_OF = (name: string) => dbUrl(args['database-url'], name);
const PORT = 3941;
/** Distinct queries per class. */
const PER_CLASS = 2000;

interface Case {
  body: object;
  /** The same condition straight in SQL (the baseline): a statement and its parameters. */
  sql: [string, unknown[]];
  /** The condition as a library would write it without Carrel's index, reading every record's MARC. */
  naive?: [string, unknown[]];
}

const bibQuery = (target: object, op: string, operands: string[]) => ({
  target: { record: { type: 'bib' }, ...target },
  expr: { op, operands },
});
const page = `order by id limit ${LIMIT}`;

async function chooseCases(sql: postgres.Sql): Promise<Record<string, Case[]>> {
  // A sample spread over the whole catalogue: every (BIBS / PER_CLASS)th bib.
  const step = Math.max(1, Math.floor(BIBS / PER_CLASS));
  const sample = await sql<{ isbn: string | null; oclc: string | null }[]>`
    select (select s.value from json_array_elements(b.marc -> 'fields') fe, json_each(fe) f,
              json_array_elements(f.value -> 'subfields') sf, json_each_text(sf) s
            where f.key = '020' and s.key = 'a' limit 1) as isbn,
           (select s.value from json_array_elements(b.marc -> 'fields') fe, json_each(fe) f,
              json_array_elements(f.value -> 'subfields') sf, json_each_text(sf) s
            where f.key = '035' and s.key = 'a' limit 1) as oclc
    from bibs b where b.deleted_date is null and b.id % ${step} = 0 limit ${PER_CLASS}`;
  const isbns = byHash(
    sample.flatMap((r) => (r.isbn ? [r.isbn] : [])),
    (s) => s,
  );
  const oclcs = byHash(
    sample.flatMap((r) => (r.oclc ? [r.oclc] : [])),
    (s) => s,
  );
  // Straight in SQL on the index Carrel keeps (migration 0028), and the naive way: every record's MARC read.
  // (The condition planned on its own, "offset 0": under the page's "order by id limit" the planner
  // would walk the table in id order instead, as it cannot know how rare a key is.)
  const keyEquals = (tag: string) =>
    `select id from (select id from bibs where deleted_date is null and carrel_marc_keys(marc) && array['${tag}a:' || lower($1)] offset 0) k ${page}`;
  const marcEquals = (tag: string) =>
    `select id from bibs b where deleted_date is null and exists (
       select 1 from json_array_elements(b.marc -> 'fields') fe, json_each(fe) f where f.key = '${tag}'
       and lower(trim((select string_agg(s.value, ' ') from json_array_elements(f.value -> 'subfields') sf, json_each_text(sf) s where s.key = 'a'))) = lower($1)) ${page}`;
  const start = Date.UTC(2015, 0, 1);
  const months = Array.from({ length: PER_CLASS }, (_, i) => {
    const from = new Date(start + ((i * 7919) % 3600) * 86_400_000);
    const to = new Date(from.getTime() + 30 * 86_400_000);
    return [from, to].map((d) => d.toISOString().slice(0, 10)) as [string, string];
  });
  return {
    'MARC 020 $a equals (ISBN)': isbns.map((isbn) => ({
      body: bibQuery({ field: { marcTag: '020', subfields: 'a' } }, 'equals', [isbn]),
      sql: [keyEquals('020'), [isbn]],
      naive: [marcEquals('020'), [isbn]],
    })),
    'MARC 035 $a equals (OCLC no.)': oclcs.map((oclc) => ({
      body: bibQuery({ field: { marcTag: '035', subfields: 'a' } }, 'equals', [oclc]),
      sql: [keyEquals('035'), [oclc]],
      naive: [marcEquals('035'), [oclc]],
    })),
    'fixed field 28 between (a month)': months.map(([from, to]) => ({
      body: bibQuery({ id: 28 }, 'between', [from, to]),
      sql: [`select id from bibs where deleted_date is null and catalog_date between $1::date and $2::date ${page}`, [from, to]],
    })),
  };
}

interface Load {
  rps: number;
  latencies: number[];
  errors: number;
  matched: number;
}

async function loadClass(cases: Case[], auth: string): Promise<Load> {
  const latencies: number[] = [];
  let next = 0;
  let bad = 0;
  let matched = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path: `/v6/bibs/query?offset=0&limit=${LIMIT}`,
        headers: { authorization: auth, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: JSON.stringify(cases[next++ % cases.length]!.body) }),
      },
    ],
    setupClient: (client) =>
      client.on('response', (status: number, _bytes: number, ms: number) => {
        if (status !== 200) bad++;
        latencies.push(ms);
      }),
  });
  latencies.sort((a, b) => a - b);
  // Every answer is a page of matches: check one of each class's queries answered something.
  for (const c of cases.slice(0, 5)) {
    const response = await fetch(`http://127.0.0.1:${PORT}/v6/bibs/query?offset=0&limit=${LIMIT}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(c.body),
    });
    matched += ((await response.json()) as { total: number }).total;
  }
  return { rps: result.requests.average, latencies, errors: result.errors + bad, matched };
}

/** The same conditions straight in PostgreSQL, at the same concurrency, for as long. */
async function baselineClass(sql: postgres.Sql, cases: Case[]): Promise<Load> {
  const latencies: number[] = [];
  let next = 0;
  let done = 0;
  let matched = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const [statement, params] = cases[next++ % cases.length]!.sql;
        const started = performance.now();
        const rows = await sql.unsafe(statement, params as postgres.ParameterOrJSON<never>[], { prepare: true });
        latencies.push(performance.now() - started);
        if (done++ < 5) matched += rows.length;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rps: done / SECONDS, latencies, errors: 0, matched };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  const exists = (await admin`select 1 from pg_database where datname = ${DB}`).length > 0;
  let have = 0;
  if (exists && !args.fresh) {
    const sql = postgres(URL_OF(DB), { max: 1, onnotice: () => {} });
    have = Number((await sql`select count(*) as n from bibs where deleted_date is null`.catch(() => [{ n: 0 }]))[0]!.n);
    await sql.end();
  }
  const env = { DATABASE_URL: URL_OF(DB) };
  let generated: number | undefined;
  if (have !== BIBS) {
    await admin.unsafe(`drop database if exists ${DB} with (force)`);
    await admin.unsafe(`create database ${DB}`);
    process.stderr.write(`generating and loading ${BIBS} bibs (carrel generate)…\n`);
    const started = performance.now();
    execFileSync(process.execPath, ['dist/cli.js', 'generate', '--bibs', String(BIBS), '--seed', '1', '--json'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // A library's server has its search index built: indexing in the background would take the
    // machine from the queries measured.
    execFileSync(process.execPath, ['dist/cli.js', 'search', 'reindex'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    generated = (performance.now() - started) / 1000;
    const sql = postgres(URL_OF(DB), { max: 1, onnotice: () => {} });
    await sql`vacuum analyze bibs`;
    await sql.end();
  } else process.stderr.write(`reusing the ${BIBS} bibs in ${DB} (--fresh to rebuild)\n`);
  await admin.end();
  {
    // The generator and the import stamp every bib's cataloguing date with the day it was loaded;
    // a catalogue's span years. They are spread over ten years by record number, once.
    const sql = postgres(URL_OF(DB), { max: 1, onnotice: () => {} });
    const days = (await sql<{ days: number }[]>`select count(distinct catalog_date)::int as days from bibs`)[0]!.days;
    if (days < 1000) {
      process.stderr.write('spreading cataloguing dates over ten years…\n');
      // Cataloguing dates, set as a bulk load would: the table's indexes are dropped and built again
      // after (updated row by row, the MARC key index alone took most of an hour on two cores), and
      // the trigger that would queue every bib to be indexed for search again is skipped (the dates
      // are not searched; a superuser's session_replication_role).
      await sql.begin(async (tx) => {
        const indexes = await tx<{ name: string; def: string }[]>`
          select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as def from pg_index
          where indrelid = 'bibs'::regclass and not indisprimary and not indisunique`;
        for (const { name } of indexes) await tx.unsafe(`drop index ${name}`);
        await tx`set local session_replication_role = replica`;
        await tx`update bibs set catalog_date = date '2015-01-01' + ((id * 7919) % 3650)::int`;
        for (const { def } of indexes) await tx.unsafe(def);
      });
      await sql`vacuum analyze bibs`;
    }
    await sql.end();
  }

  const key = JSON.parse(
    execFileSync(
      process.execPath,
      [
        'dist/cli.js',
        'keys',
        'create',
        '--name',
        `bench-query-${Date.now()}`,
        '--roles',
        'Bibs_Read',
        '--rate-limit',
        'unlimited',
        '--json',
      ],
      { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' },
    ),
  ) as { key: string; secret: string };
  const server = await startChild(
    ['dist/server.js'],
    { ...env, PORT: String(PORT), HOST: '127.0.0.1' },
    /is listening on/,
    path.join(ROOT, 'bench/results/query-server.log'),
  );
  try {
    const tokenResponse = await fetch(`http://127.0.0.1:${PORT}/v6/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
    });
    const auth = `Bearer ${((await tokenResponse.json()) as { access_token: string }).access_token}`;
    const direct = postgres(URL_OF(DB), { max: CONNECTIONS, onnotice: () => {} });
    const classes = await chooseCases(direct);
    const rows: Record<string, string | number>[] = [];
    for (const [name, cases] of Object.entries(classes)) {
      process.stderr.write(`${name}: ${cases.length} distinct queries, ${SECONDS} s each way\n`);
      const carrel = await loadClass(cases, auth);
      const base = await baselineClass(direct, cases);
      let naive = 'n/a';
      const slow = cases[0]!.naive;
      if (slow) {
        // One of them: it reads the whole catalogue.
        const started = performance.now();
        await direct.unsafe(slow[0], slow[1] as postgres.ParameterOrJSON<never>[]);
        naive = (performance.now() - started).toFixed(0);
      }
      rows.push({
        class: name,
        'req/s': Math.round(carrel.rps),
        'p50 ms': percentile(carrel.latencies, 0.5),
        'p99 ms': percentile(carrel.latencies, 0.99),
        errors: carrel.errors,
        'SQL req/s': Math.round(base.rps),
        'SQL p50 ms': percentile(base.latencies, 0.5),
        'SQL p99 ms': percentile(base.latencies, 0.99),
        'p99 ratio': (percentile(carrel.latencies, 0.99) / percentile(base.latencies, 0.99)).toFixed(2),
        'matches (5 checked)': `${carrel.matched} / ${base.matched}`,
        'reading MARC, ms/query': naive,
      });
    }
    await direct.end();
    console.log(`\n${BIBS} generated bibs; PostgreSQL; ${CONNECTIONS} connections; limit=${LIMIT}; Node ${process.version}\n`);
    if (generated !== undefined) console.log(`carrel generate --bibs ${BIBS} and carrel search reindex: ${generated.toFixed(0)} s\n`);
    console.table(rows);
    const worst = Math.max(...rows.map((r) => Number(r['p99 ms'])));
    console.log(`worst class p99 ${worst} ms (budget <= 50 ms); server peak RSS ${peakRssMb(server.pid!)} MB`);
  } finally {
    await stop(server);
  }
}

await main();
