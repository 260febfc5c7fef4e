// `npm run bench:search`: GET /v6/bibs/search over a generated catalogue on PostgreSQL, one query
// class at a time at 16 connections, beside the naive baseline in the same run: the same words
// ranked by ts_rank over all their matches, straight in PostgreSQL.
//
// The catalogue (carrel generate, then carrel search reindex: both timed when they run) is kept in
// the database carrel_bench_search (carrel_bench_search_N for other sizes) and reused while it holds the same number of indexed bibs
// (--fresh rebuilds it). Queries are drawn from the catalogue itself, the same ones every run.
// Options: --bibs N (default 1000000), --seconds S per class (default 8), --connections N (16),
// --limit N (results per page, default 20), --baseline N (baseline queries per class, default 48),
// --fresh, --database-url URL, --socket DIR (the server reaches PostgreSQL through its Unix socket
// in DIR, as a server on the database's machine would: ?host=DIR in its DATABASE_URL), --class NAME
// (only this class; repeat it for more).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { loadConfig } from '../src/config.ts';
import { fold, stem, STOP_WORDS } from '../src/search/text.ts';
import { cpuDuring, dbUrl, peakRssMb, ROOT, startChild, stop, byHash, percentile } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    bibs: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16' },
    limit: { type: 'string', default: '20' },
    baseline: { type: 'string', default: '48' },
    fresh: { type: 'boolean', default: false },
    socket: { type: 'string' },
    class: { type: 'string', multiple: true },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const BIBS = Number(args.bibs);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const LIMIT = Number(args.limit);
const BASELINE_QUERIES = Number(args.baseline);
// A smaller trial run keeps its own database, leaving the million-bib one alone.
const DB = BIBS === 1_000_000 ? 'carrel_bench_search' : `carrel_bench_search_${BIBS}`;
const PORT = 3931;
const RESULTS = path.join(ROOT, 'bench/results');
const PER_CLASS = 40;

interface Query {
  /** The query string of GET /v6/bibs/search, without limit. */
  params: Record<string, string>;
  /** What the baseline searches: folded words, as a phrase or not (null: no baseline for it). */
  baseline: { words: string; phrase: boolean } | null;
}
/** The query classes, in the order they run. */
const CLASS_NAMES = ['rare word', 'common word (>=10%)', '2-3 common words', 'phrase', 'title / author index', 'ISBN'] as const;
type Classes = Record<(typeof CLASS_NAMES)[number], Query[]>;
// --class: checked before the catalogue is built, which can take minutes.
const unknownClass = args.class?.find((name) => !(CLASS_NAMES as readonly string[]).includes(name));
if (unknownClass !== undefined) {
  console.error(
    `bench:search: no class ${JSON.stringify(unknownClass)}; the classes are ${CLASS_NAMES.map((n) => JSON.stringify(n)).join(', ')}`,
  );
  process.exit(2);
}

function run(command: string[], env: Record<string, string>): number {
  const started = performance.now();
  execFileSync(process.execPath, command, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return (performance.now() - started) / 1000;
}

/** The query classes, drawn from a sample of the catalogue's own words, titles, authors and ISBNs. */
async function chooseQueries(sql: postgres.Sql): Promise<Classes> {
  const docs = await sql<
    { title: string; words: string }[]
  >`select title, words from search_docs where bib_id % 487 = 0 order by bib_id limit 2000`;
  const candidates = [...new Set(docs.flatMap((d) => d.words.trim().split(' ')))].filter(
    (w) => w.length > 2 && !STOP_WORDS.has(w) && !/\d/.test(w),
  );
  const dfRows = await sql<
    { key: string; df: number }[]
  >`select key, df from search_terms where key = any(${candidates.map((w) => `*~${stem(w)}`)})`;
  const df = new Map(dfRows.map((r) => [r.key, r.df]));
  const dfOf = (w: string) => df.get(`*~${stem(w)}`) ?? 0;
  const words = (q: string) => ({ params: { text: q }, baseline: { words: q, phrase: false } });
  const rare = byHash(
    candidates.filter((w) => dfOf(w) >= 2 && dfOf(w) <= 50),
    (w) => w,
  ).slice(0, PER_CLASS);
  const commonWords = candidates.filter((w) => dfOf(w) >= BIBS * 0.1);
  const fairlyCommon = new Set(candidates.filter((w) => dfOf(w) >= BIBS * 0.01));
  const multi: string[] = [];
  for (const [i, d] of byHash(docs, (d) => d.words).entries()) {
    const own = [
      ...new Set(
        d.words
          .trim()
          .split(' ')
          .filter((w) => fairlyCommon.has(w)),
      ),
    ];
    const n = i % 2 === 0 ? 2 : 3;
    if (own.length >= n)
      multi.push(
        byHash(own, (w) => `${w}${i}`)
          .slice(0, n)
          .join(' '),
      );
    if (multi.length === PER_CLASS) break;
  }
  // Phrases of content words, as people quote them ("civil war"), from the catalogue's titles.
  const phrases: string[] = [];
  for (const [i, d] of byHash(docs, (d) => d.title).entries()) {
    const t = d.title.trim().split(' ').filter(Boolean);
    const n = i % 2 === 0 ? 2 : 3;
    const at = t.findIndex(
      (_, j) => j + n <= t.length && t.slice(j, j + n).every((w) => w.length > 2 && !STOP_WORDS.has(w) && !/\d/.test(w)),
    );
    if (at >= 0) phrases.push(t.slice(at, at + n).join(' '));
    if (phrases.length === PER_CLASS) break;
  }
  const authors = await sql<
    { author: string }[]
  >`select author from bibs where author is not null and id % 491 = 0 order by id limit ${PER_CLASS / 2}`;
  const isbns = await sql<
    { isbn: string }[]
  >`select isbns[1] as isbn from bibs where cardinality(isbns) > 0 and id % 499 = 0 order by id limit ${PER_CLASS}`;
  return {
    'rare word': rare.map(words),
    'common word (>=10%)': byHash(commonWords, (w) => w)
      .slice(0, PER_CLASS)
      .map(words),
    '2-3 common words': multi.map(words),
    phrase: phrases.map((p) => ({ params: { text: `"${p}"` }, baseline: { words: p, phrase: true } })),
    'title / author index': [
      ...byHash(docs, (d) => d.title)
        .slice(0, PER_CLASS / 2)
        .map((d) => {
          const t = d.title
            .trim()
            .split(' ')
            .filter((w) => !STOP_WORDS.has(w))
            .slice(0, 2)
            .join(' ');
          return { params: { text: t, index: 'title' }, baseline: { words: t, phrase: false } };
        }),
      ...authors.map(({ author }) => {
        const surname = fold(author.split(',')[0]!);
        return { params: { text: surname, index: 'author' }, baseline: { words: surname, phrase: false } };
      }),
    ],
    ISBN: isbns.map(({ isbn }, i) => ({
      params: { text: i % 2 ? `${isbn.slice(0, 3)}-${isbn.slice(3, 4)}-${isbn.slice(4, 9)}-${isbn.slice(9)}` : isbn },
      baseline: null,
    })),
  };
}

async function loadClass(queries: Query[], auth: string) {
  const latencies: number[] = [];
  let next = 0;
  let bad = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'GET',
        headers: { authorization: auth },
        setupRequest: (request) => {
          const q = queries[next++ % queries.length]!;
          return { ...request, path: `/v6/bibs/search?${new URLSearchParams({ ...q.params, limit: String(LIMIT) })}` };
        },
      },
    ],
    setupClient: (client) =>
      client.on('response', (status: number, _bytes: number, ms: number) => {
        if (status !== 200) bad++;
        latencies.push(ms);
      }),
  });
  latencies.sort((a, b) => a - b);
  return { rps: result.requests.average, latencies, errors: result.errors + bad };
}

/** The naive way: every match ranked by ts_rank, straight in PostgreSQL, at the same concurrency. */
async function baselineClass(sql: postgres.Sql, queries: Query[]) {
  const usable = queries.filter((q) => q.baseline);
  if (!usable.length) return null;
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let i = next++; i < BASELINE_QUERIES; i = next++) {
        const q = usable[i % usable.length]!.baseline!;
        const t0 = performance.now();
        await sql.unsafe(
          `select bib_id, ts_rank(tsv, q) as rank, count(*) over () as total
         from bench_fts, ${q.phrase ? 'phraseto_tsquery' : 'plainto_tsquery'}('simple', $1) q
         where tsv @@ q order by rank desc, bib_id limit ${LIMIT}`,
          [q.words],
        );
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / ((performance.now() - started) / 1000), latencies };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  const env = { DATABASE_URL: dbUrl(args['database-url'], DB), LOG_LEVEL: 'warn' };
  const exists = (await admin`select 1 from pg_database where datname = ${DB}`).length > 0;
  let indexed = 0;
  if (exists && !args.fresh) {
    const probe = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
    indexed = (await probe<{ n: number }[]>`select (select count(*) from search_docs)::int as n`.catch(() => [{ n: 0 }]))[0]!.n;
    const queued = (await probe<{ n: number }[]>`select count(*)::int as n from search_queue`.catch(() => [{ n: 1 }]))[0]!.n;
    await probe.end();
    if (queued > 0) indexed = 0;
  }
  let built: { generate: number; reindex: number } | undefined;
  if (indexed !== BIBS) {
    await admin.unsafe(`drop database if exists ${DB} with (force)`);
    await admin.unsafe(`create database ${DB}`);
    process.stderr.write(`generating ${BIBS} bibs, then indexing them (carrel generate; carrel search reindex)…\n`);
    const generate = run(['dist/cli.js', 'generate', '--bibs', String(BIBS), '--seed', '1', '--patrons', '0', '--json'], env);
    const reindex = run(['dist/cli.js', 'search', 'reindex', '--json'], env);
    built = { generate, reindex };
  } else process.stderr.write(`reusing the ${BIBS} indexed bibs in ${DB} (--fresh to rebuild)\n`);

  const sql = postgres(env.DATABASE_URL, { max: CONNECTIONS, onnotice: () => {} });
  if ((await sql`select to_regclass('bench_fts') as t`)[0]!.t === null) {
    process.stderr.write('building the baseline: a tsvector of every indexed bib with a GIN index…\n');
    await sql.unsafe("create table bench_fts as select bib_id, to_tsvector('simple', words) as tsv from search_docs");
    await sql.unsafe('create index on bench_fts using gin (tsv)');
  }
  await sql.unsafe('vacuum analyze');
  const classes = await chooseQueries(sql);

  const key = JSON.parse(
    execFileSync(
      process.execPath,
      ['dist/cli.js', 'keys', 'create', '--name', 'bench-search', '--roles', 'Bibs_Read', '--rate-limit', 'unlimited', '--json'],
      {
        cwd: ROOT,
        env: { ...process.env, ...env },
      },
    ).toString(),
  ) as { key: string; secret: string };
  const serverUrl = new URL(env.DATABASE_URL);
  if (args.socket) serverUrl.searchParams.set('host', args.socket);
  const server = await startChild(
    ['dist/server.js'],
    { ...env, DATABASE_URL: serverUrl.toString(), PORT: String(PORT), HOST: '127.0.0.1' },
    /is listening on/,
    path.join(RESULTS, 'search-carrel.log'),
  );
  const token = (await (
    await fetch(`http://127.0.0.1:${PORT}/v6/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
    })
  ).json()) as { access_token: string };
  const auth = `Bearer ${token.access_token}`;

  const rows: Record<string, string | number>[] = [];
  const all: number[] = [];
  for (const [name, queries] of Object.entries(classes).filter(([name]) => !args.class || args.class.includes(name))) {
    // One pass first: it warms the caches, and says how many records the class's queries match.
    let matched = 0;
    const passStarted = performance.now();
    for (const q of queries) {
      const res = await fetch(`http://127.0.0.1:${PORT}/v6/bibs/search?${new URLSearchParams({ ...q.params, limit: String(LIMIT) })}`, {
        headers: { authorization: auth },
      });
      matched += ((await res.json()) as { total: number }).total;
    }
    // One request at a time, caches cold: what a combination of words costs the first time it is searched.
    const firstPass = performance.now() - passStarted;
    process.stderr.write(`${name}: carrel…\n`);
    const backends = async () =>
      (await sql<{ pid: number }[]>`select pid from pg_stat_activity where application_name = 'carrel'`).map((r) => r.pid);
    const { result: carrel, cpu } = await cpuDuring(server.pid!, backends, () => loadClass(queries, auth));
    const perRequest = (ms: number) => Math.round((1000 * ms) / Math.max(carrel.latencies.length, 1));
    all.push(...carrel.latencies);
    process.stderr.write(`${name}: baseline…\n`);
    const base = await baselineClass(sql, queries);
    rows.push({
      class: name,
      queries: queries.length,
      'mean matches': Math.round(matched / queries.length),
      'req/s': Math.round(carrel.rps),
      'p50 ms': percentile(carrel.latencies, 0.5),
      'p95 ms': percentile(carrel.latencies, 0.95),
      'p99 ms': percentile(carrel.latencies, 0.99),
      errors: carrel.errors,
      'ts_rank req/s': base ? Number(base.rps.toFixed(1)) : 'n/a',
      'ts_rank p50 ms': base ? Math.round(percentile(base.latencies, 0.5)) : 'n/a',
      'ts_rank p99 ms': base ? Math.round(percentile(base.latencies, 0.99)) : 'n/a',
      'server µs/req': perRequest(cpu.server),
      'postgres µs/req': perRequest(cpu.postgres),
      'autocannon µs/req': perRequest(cpu.self),
      'first pass ms (mean)': Math.round((firstPass / queries.length) * 10) / 10,
      'speed-up (p50)': base ? Math.round(percentile(base.latencies, 0.5) / Math.max(percentile(carrel.latencies, 0.5), 0.5)) : 'n/a',
    });
  }
  const serverPeak = peakRssMb(server.pid!);
  await stop(server);
  await sql.end();
  await admin.end();

  all.sort((a, b) => a - b);
  console.log(
    `\n${BIBS} generated bibs; PostgreSQL${args.socket ? ' through its Unix socket' : ' over TCP'}; the server's search pool ${loadConfig({ ...process.env, ...env }).dbSearchPoolMax} connections (CARREL_DB_SEARCH_POOL_MAX); ${CONNECTIONS} connections, ${SECONDS} s per class, limit=${LIMIT}; baseline: ${BASELINE_QUERIES} queries per class at ${CONNECTIONS} connections; Node ${process.version}`,
  );
  if (built)
    console.log(
      `carrel generate: ${built.generate.toFixed(0)} s; carrel search reindex (full): ${built.reindex.toFixed(0)} s (budget 600 s)`,
    );
  console.table(rows);
  console.log(
    `overall p50 ${percentile(all, 0.5)} ms (budget <= 5 ms); worst class p99 ${Math.max(...rows.map((r) => Number(r['p99 ms'])))} ms (budget <= 50 ms); server peak RSS ${serverPeak} MB (budget < 512 MB)`,
  );
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(
    path.join(RESULTS, `search-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ bibs: BIBS, built, rows, serverPeak, classes }, null, 2),
  );
}

await main();
