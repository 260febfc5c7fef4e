// `npm run bench:search`: GET /v6/bibs/search over a generated catalogue on PostgreSQL, one query
// class at a time at 16 connections, every request a query not yet searched in the run, beside two
// baselines given the same queries: the naive way in PostgreSQL (every match ranked by ts_rank) and
// Xapian (BM25 over the same words with the same weights, exact counts, in its own process).
//
// The catalogue (carrel generate, then carrel search reindex: both timed when they run) is kept in
// the database carrel_bench_search (carrel_bench_search_N for other sizes) and reused while it holds the same number of indexed bibs
// (--fresh rebuilds it); the Xapian database is kept beside the results and rebuilt with it.
// Options: --bibs N (default 1000000), --seconds S per class (default 8), --connections N (16),
// --limit N (results per page, default 20), --queries N (distinct queries drawn per class, default
// 20000), --first N (of them timed first, one at a time, default 200), --baseline N (ts_rank
// queries per class, default 48), --xapian N (Xapian queries per class, default 2000; 0: none),
// --seed N (which queries are drawn, default 1), --fresh, --database-url URL, --socket DIR (the
// server reaches PostgreSQL through its Unix socket in DIR, as a server on the database's machine
// would: ?host=DIR in its DATABASE_URL), --class NAME (only this class; repeat it for more),
// --cpu-prof DIR (the server's CPU profile, node --cpu-prof, written there when it stops).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { loadConfig } from '../src/config.ts';
import type { MarcInJson } from '../src/marc/marc-in-json.ts';
import { indexedFields } from '../src/search/document.ts';
import { isbn13, stem, STOP_WORDS, words as wordsOf } from '../src/search/text.ts';
import { cpuDuring, dbUrl, getOn, loadStream, peakRssMb, ROOT, startChild, stop, percentile } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    bibs: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16' },
    limit: { type: 'string', default: '20' },
    queries: { type: 'string', default: '20000' },
    first: { type: 'string', default: '200' },
    baseline: { type: 'string', default: '48' },
    xapian: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '1' },
    fresh: { type: 'boolean', default: false },
    socket: { type: 'string' },
    class: { type: 'string', multiple: true },
    'cpu-prof': { type: 'string' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const BIBS = Number(args.bibs);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const LIMIT = Number(args.limit);
const PER_CLASS = Number(args.queries);
const FIRST = Number(args.first);
const BASELINE_QUERIES = Number(args.baseline);
const XAPIAN_QUERIES = Number(args.xapian);
const SEED = Number(args.seed);
// A smaller trial run keeps its own database, leaving the million-bib one alone.
const DB = BIBS === 1_000_000 ? 'carrel_bench_search' : `carrel_bench_search_${BIBS}`;
const PORT = 3931;
const RESULTS = path.join(ROOT, 'bench/results');
const XAPIAN_DIR = path.join(RESULTS, `xapian-${DB}`);
const PYTHON = '/usr/bin/python3';

interface Query {
  /** The query string of GET /v6/bibs/search, without limit. */
  params: Record<string, string>;
  /** The query as the baselines read it: folded words, in order for a phrase, in one field for an index, or an ISBN-13. */
  words: string[];
  phrase?: boolean;
  index?: 'title' | 'author';
  isbn?: string;
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

/** `carrel search reindex`: its time and its peak memory, as its summary says. */
function reindex(env: Record<string, string>): { seconds: number; peakMemoryMb: number } {
  const started = performance.now();
  const out = execFileSync(process.execPath, ['dist/cli.js', 'search', 'reindex', '--json'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return {
    seconds: (performance.now() - started) / 1000,
    peakMemoryMb: (JSON.parse(out.toString()) as { peakMemoryMb: number }).peakMemoryMb,
  };
}

/** A seeded pseudo-random number generator (mulberry32): the same seed draws the same queries. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Items whose key has not been seen, in order, at most n. */
function distinct<T>(items: Iterable<T>, key: (t: T) => string, n: number): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
    if (out.length === n) break;
  }
  return out;
}

const contentWord = (w: string) => w.length > 2 && !STOP_WORDS.has(w) && /^\p{L}+$/u.test(w);
const wordQuery = (words: string[]): Query => ({ params: { text: words.join(' ') }, words });

/**
 * Each class's stream of distinct queries, drawn from the catalogue with the seed: rare words,
 * common words, several common words of one record, phrases of its title, its title or author
 * through index=, its ISBN. Two queries that would count the same lists (the same words in
 * another order) are one query: the second would find the first's count kept.
 */
async function chooseQueries(sql: postgres.Sql): Promise<Classes> {
  const rand = random(SEED);
  const [range] = await sql<{ lo: string; hi: string }[]>`select min(bib_id)::text as lo, max(bib_id)::text as hi from search_docs`;
  const lo = Number(range!.lo);
  const span = Number(range!.hi) - lo + 1;
  const ids = Array.from({ length: Math.min(2 * PER_CLASS, span) }, () => lo + Math.floor(rand() * span));
  const docsById = new Map(
    (
      await sql<
        { id: string; title: string; words: string }[]
      >`select bib_id::text as id, title, words from search_docs where bib_id = any(${ids}::bigint[])`
    ).map((d) => [Number(d.id), d]),
  );
  const bibsById = new Map(
    (
      await sql<
        { id: string; author: string | null; isbn: string | null }[]
      >`select id::text, author, isbns[1] as isbn from bibs where id = any(${ids}::bigint[])`
    ).map((b) => [Number(b.id), b]),
  );
  const docs = ids.flatMap((id) => docsById.get(id) ?? []);
  const bibs = ids.flatMap((id) => bibsById.get(id) ?? []);

  // Words as the records spell them ("histories", not the stem "history"), by how many bibs have a form of them.
  const formsByStem = new Map<string, Set<string>>();
  for (const d of docs)
    for (const w of d.words.trim().split(' ').filter(contentWord)) formsByStem.set(stem(w), (formsByStem.get(stem(w)) ?? new Set()).add(w));
  const dfRows = await sql<
    { key: string; df: number }[]
  >`select key, df from search_terms where key = any(${[...formsByStem.keys()].map((s) => `*~${s}`)}::text[])`;
  const df = new Map(dfRows.map((r) => [r.key.slice(2), r.df]));
  const wordsWith = (min: number, max: number) =>
    [...formsByStem].filter(([s]) => (df.get(s) ?? 0) >= min && (df.get(s) ?? 0) <= max).flatMap(([, forms]) => [...forms]);
  const rare = shuffled(wordsWith(2, 50), rand).slice(0, PER_CLASS);
  // Every stem in a tenth of the bibs, as the sampled records spell it (the stem itself when they do not).
  const commonStems = await sql<
    { key: string }[]
  >`select key from search_terms where key like '*~%' and key not like '% %' and df >= ${Math.ceil(BIBS * 0.1)} order by key`;
  const common = shuffled(
    [...new Set(commonStems.map((r) => r.key.slice(2)).flatMap((s) => [...(formsByStem.get(s) ?? (contentWord(s) ? [s] : []))]))],
    rand,
  ).slice(0, PER_CLASS);
  const fairlyCommon = new Set(wordsWith(Math.ceil(BIBS * 0.01), BIBS));

  const multi = docs.flatMap((d) => {
    const own = shuffled(
      [
        ...new Set(
          d.words
            .trim()
            .split(' ')
            .filter((w) => fairlyCommon.has(w)),
        ),
      ],
      rand,
    );
    const n = rand() < 0.5 ? 2 : 3;
    return own.length >= n ? [own.slice(0, n)] : [];
  });
  // Phrases of content words, as people quote them ("civil war"), from the catalogue's titles.
  const phrases = docs.flatMap((d) => {
    const t = d.title.trim().split(' ').filter(Boolean);
    const n = rand() < 0.5 ? 2 : 3;
    const starts = t.flatMap((_, j) => (j + n <= t.length && t.slice(j, j + n).every(contentWord) ? [j] : []));
    if (!starts.length) return [];
    const at = starts[Math.floor(rand() * starts.length)]!;
    return [t.slice(at, at + n)];
  });
  const titles = docs.flatMap((d) => {
    const t = d.title
      .trim()
      .split(' ')
      .filter((w) => w && !STOP_WORDS.has(w))
      .slice(0, 2);
    return t.length ? [t] : [];
  });
  const surnames = bibs.flatMap((b) => (b.author ? [wordsOf(b.author.split(',')[0]!)] : [])).filter((w) => w.length > 0);
  const byIndex = (index: 'title' | 'author') => (words: string[]) => ({
    ...wordQuery(words),
    params: { text: words.join(' '), index },
    index,
  });
  const titleQueries = distinct(titles, (t) => t.join(' '), PER_CLASS).map(byIndex('title'));
  const authorQueries = distinct(surnames, (s) => s.join(' '), PER_CLASS).map(byIndex('author'));
  const fielded: Query[] = [];
  for (let i = 0; fielded.length < PER_CLASS && (i < titleQueries.length || i < authorQueries.length); i++)
    fielded.push(...[titleQueries[i], authorQueries[i]].filter((q) => q !== undefined));

  const isbns = distinct(
    bibs.flatMap((b) => (b.isbn && isbn13(b.isbn) ? [{ raw: b.isbn, isbn: isbn13(b.isbn)! }] : [])),
    (b) => b.isbn,
    PER_CLASS,
  );
  return {
    'rare word': rare.map((w) => wordQuery([w])),
    'common word (>=10%)': common.map((w) => wordQuery([w])),
    '2-3 common words': distinct(multi, (ws) => ws.map(stem).sort().join(' '), PER_CLASS).map(wordQuery),
    phrase: distinct(phrases, (p) => p.join(' '), PER_CLASS).map((p) => ({ params: { text: `"${p.join(' ')}"` }, words: p, phrase: true })),
    'title / author index': fielded.slice(0, PER_CLASS),
    // Half of them hyphenated, as people paste them.
    ISBN: isbns.map(({ raw, isbn }, i) => ({
      params: { text: i % 2 ? `${raw.slice(0, 3)}-${raw.slice(3, 4)}-${raw.slice(4, 9)}-${raw.slice(9)}` : raw },
      words: [],
      isbn,
    })),
  };
}

const searchPath = (q: Query) => `/v6/bibs/search?${new URLSearchParams({ ...q.params, limit: String(LIMIT) })}`;

const get = (agent: http.Agent, url: string, auth: string) => getOn(PORT, agent, url, auth);

/** Queries one at a time on a quiet connection: what each costs the first time it is searched. */
async function firstTime(queries: Query[], auth: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  const totals: number[] = [];
  let errors = 0;
  for (const q of queries) {
    const t0 = performance.now();
    const res = await get(agent, searchPath(q), auth);
    latencies.push(performance.now() - t0);
    if (res.status !== 200) errors++;
    totals.push(res.status === 200 ? (JSON.parse(res.body) as { total: number }).total : -1);
  }
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { latencies, errors, totals };
}

/** The stream at CONNECTIONS connections for SECONDS (loadStream): no query is sent twice. */
const loadClass = (queries: Query[], auth: string) => loadStream(PORT, queries.map(searchPath), auth, CONNECTIONS, SECONDS);

/** The naive way: every match ranked by ts_rank, straight in PostgreSQL, at the same concurrency. */
async function baselineClass(sql: postgres.Sql, queries: Query[]) {
  const usable = queries.filter((q) => q.words.length > 0).slice(0, BASELINE_QUERIES);
  if (!usable.length) return null;
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let i = next++; i < usable.length; i = next++) {
        const q = usable[i]!;
        const t0 = performance.now();
        await sql.unsafe(
          `select bib_id, ts_rank(tsv, q) as rank, count(*) over () as total
         from bench_fts, ${q.phrase ? 'phraseto_tsquery' : 'plainto_tsquery'}('simple', $1) q
         where tsv @@ q order by rank desc, bib_id limit ${LIMIT}`,
          [q.words.join(' ')],
        );
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / ((performance.now() - started) / 1000), latencies };
}

/**
 * The catalogue as Xapian is given it (xapian_baseline.py): each searchable bib's indexed fields
 * with their words and weights exactly as Carrel indexes them, its call numbers and its ISBNs.
 */
/** Words, then a tab and their stems by Carrel's stemmer: Xapian joins the forms Carrel joins. */
const withStems = (words: string[]): string => `${words.join(' ')}\t${words.map(stem).join(' ')}`;

async function exportCatalogue(sql: postgres.Sql, file: string): Promise<void> {
  const out = fs.createWriteStream(file);
  await sql<{ id: string; marc: MarcInJson; isbns: string[]; call_numbers: string[] }[]>`
    select b.id::text as id, b.marc, b.isbns,
      array(select i.call_number from item_bibs ib join items i on i.id = ib.item_id
            where ib.bib_id = b.id and i.deleted_date is null and i.call_number is not null) as call_numbers
    from bibs b where b.deleted_date is null and not b.suppressed order by b.id`.cursor(2000, async (rows) => {
    const lines: string[] = [];
    for (const b of rows) {
      for (const f of indexedFields(b.marc)) if (f.words.length) lines.push(`${b.id}\t${f.field}\t${f.weight}\t${withStems(f.words)}`);
      for (const c of b.call_numbers) lines.push(`${b.id}\tc\t1\t${withStems(wordsOf(c))}`);
      for (const isbn of b.isbns.flatMap((i) => isbn13(i) ?? [])) lines.push(`${b.id}\ti\t8\t${isbn}`);
    }
    if (!out.write(`${lines.join('\n')}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  });
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

interface XapianClass {
  queries: number;
  p50: number;
  p99: number;
  cpuMsPerQuery: number;
  /** Each query's number of matches, in the order given. */
  totals: number[];
}
interface XapianRun {
  version: string;
  built: { seconds: number; cpuSeconds: number; documents: number; stems?: string } | null;
  bytes: number;
  classes: Record<string, XapianClass>;
}

/** Xapian's answers to the same queries, building its database first when the catalogue is new. */
async function xapian(sql: postgres.Sql, streams: Record<string, Query[]>, rebuild: boolean) {
  const meta = path.join(XAPIAN_DIR, 'built.json');
  const kept = !rebuild && fs.existsSync(meta) ? (JSON.parse(fs.readFileSync(meta, 'utf8')) as XapianRun['built']) : null;
  const build =
    kept?.stems !== 'carrel' || kept.documents !== (await sql<{ n: number }[]>`select count(*)::int as n from search_docs`)[0]!.n;
  fs.mkdirSync(XAPIAN_DIR, { recursive: true });
  const exported = path.join(XAPIAN_DIR, 'catalogue.tsv');
  if (build) {
    process.stderr.write('xapian: exporting the catalogue, then building its database…\n');
    await exportCatalogue(sql, exported);
  }
  const queriesFile = path.join(XAPIAN_DIR, 'queries.json');
  fs.writeFileSync(
    queriesFile,
    JSON.stringify(
      Object.fromEntries(
        Object.entries(streams).map(([name, qs]) => [
          name,
          qs.map((q) => ({
            words: q.words,
            stems: q.words.map(stem),
            phrase: q.phrase ?? false,
            index: q.index ?? null,
            isbn: q.isbn ?? null,
          })),
        ]),
      ),
    ),
  );
  process.stderr.write('xapian: answering the same queries, one at a time…\n');
  const out = execFileSync(
    PYTHON,
    [
      path.join(ROOT, 'bench/xapian_baseline.py'),
      '--db',
      path.join(XAPIAN_DIR, 'db'),
      '--queries',
      queriesFile,
      '--limit',
      String(LIMIT),
      ...(build ? ['--export', exported] : []),
    ],
    { maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'inherit'] },
  ).toString();
  const result = JSON.parse(out) as XapianRun;
  if (build) {
    fs.writeFileSync(meta, JSON.stringify({ ...result.built, stems: 'carrel' }));
    fs.rmSync(exported);
  }
  return { ...result, built: result.built ?? kept, reused: !build };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  const env = { DATABASE_URL: dbUrl(args['database-url'], DB), LOG_LEVEL: 'warn' };
  const exists = (await admin`select 1 from pg_database where datname = ${DB}`).length > 0;
  let indexed = 0;
  let queued = 0;
  if (exists && !args.fresh) {
    // Migrated first: a migration of this version may queue bibs whose documents it changes, and a
    // catalogue searched while the server indexes them again would answer from a half-old index.
    run(['dist/cli.js', 'migrate'], env);
    const probe = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
    indexed = (await probe<{ n: number }[]>`select (select count(*) from search_docs)::int as n`.catch(() => [{ n: 0 }]))[0]!.n;
    queued = (await probe<{ n: number }[]>`select count(*)::int as n from search_queue`.catch(() => [{ n: 0 }]))[0]!.n;
    await probe.end();
  }
  let built: { generate?: number; reindex: { seconds: number; peakMemoryMb: number } } | undefined;
  if (indexed !== BIBS) {
    await admin.unsafe(`drop database if exists ${DB} with (force)`);
    await admin.unsafe(`create database ${DB}`);
    process.stderr.write(`generating ${BIBS} bibs, then indexing them (carrel generate; carrel search reindex)…\n`);
    const generate = run(['dist/cli.js', 'generate', '--bibs', String(BIBS), '--seed', '1', '--patrons', '0', '--json'], env);
    built = { generate, reindex: reindex(env) };
  } else if (queued > 0) {
    process.stderr.write(`${queued} of the ${BIBS} bibs in ${DB} are queued for indexing again: carrel search reindex…\n`);
    built = { reindex: reindex(env) };
    fs.rmSync(XAPIAN_DIR, { recursive: true, force: true });
  } else process.stderr.write(`reusing the ${BIBS} indexed bibs in ${DB} (--fresh to rebuild)\n`);

  const sql = postgres(env.DATABASE_URL, { max: CONNECTIONS, onnotice: () => {} });
  if ((await sql`select to_regclass('bench_fts') as t`)[0]!.t === null) {
    process.stderr.write('building the baseline: a tsvector of every indexed bib with a GIN index…\n');
    await sql.unsafe("create table bench_fts as select bib_id, to_tsvector('simple', words) as tsv from search_docs");
    await sql.unsafe('create index on bench_fts using gin (tsv)');
  }
  await sql.unsafe('vacuum analyze');
  const classes = await chooseQueries(sql);
  // Carrel's index, every search_* table with its indexes and TOAST (bench_fts is the ts_rank baseline's).
  const carrelBytes = Number(
    (
      await sql<{ bytes: string }[]>`
    select sum(pg_total_relation_size(c.oid))::text as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and c.relname like 'search\\_%' and n.nspname = current_schema()`
    )[0]!.bytes,
  );

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
  // One worker: the bench reads its CPU and memory from the one process it starts.
  const serverEnv = { ...env, DATABASE_URL: serverUrl.toString(), PORT: String(PORT), HOST: '127.0.0.1', CARREL_WORKERS: '1' };
  const profile = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'])}`] : [];
  const server = await startChild([...profile, 'dist/server.js'], serverEnv, /is listening on/, path.join(RESULTS, 'search-carrel.log'));
  const token = (await (
    await fetch(`http://127.0.0.1:${PORT}/v6/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
    })
  ).json()) as { access_token: string };
  const auth = `Bearer ${token.access_token}`;
  const backends = async () =>
    (await sql<{ pid: number }[]>`select pid from pg_stat_activity where application_name = 'carrel'`).map((r) => r.pid);

  const runs: {
    name: string;
    drawn: number;
    first: Awaited<ReturnType<typeof firstTime>>;
    load: Awaited<ReturnType<typeof loadClass>>;
    cpu: { server: number; postgres: number; self: number };
    base: Awaited<ReturnType<typeof baselineClass>>;
  }[] = [];
  const sent: Record<string, Query[]> = {};
  for (const [name, queries] of Object.entries(classes).filter(([name]) => !args.class || args.class.includes(name))) {
    // The server keeps the posting lists it has read, as a running server does, and PostgreSQL
    // its own cache: each class's queries are new, but their common words' lists may be read.
    // A class with few distinct queries (there are only so many common words) keeps most for the load.
    const firstCount = Math.min(FIRST, Math.ceil(queries.length / 5));
    process.stderr.write(`${name}: ${queries.length} queries; ${firstCount} first, one at a time…\n`);
    const first = await firstTime(queries.slice(0, firstCount), auth);
    process.stderr.write(`${name}: carrel at ${CONNECTIONS} connections…\n`);
    const stream = queries.slice(firstCount);
    const { result: load, cpu } = await cpuDuring(server.pid!, backends, () => loadClass(stream, auth));
    sent[name] = queries.slice(0, firstCount + load.sent);
    process.stderr.write(`${name}: ts_rank…\n`);
    const base = await baselineClass(sql, stream.slice(0, load.sent));
    runs.push({ name, drawn: queries.length, first, load, cpu, base });
  }
  const serverPeak = peakRssMb(server.pid!);
  await stop(server);
  const xapianRun =
    XAPIAN_QUERIES > 0
      ? await xapian(
          sql,
          Object.fromEntries(Object.entries(sent).map(([name, qs]) => [name, qs.slice(0, XAPIAN_QUERIES)])),
          built !== undefined,
        )
      : undefined;
  await sql.end();
  await admin.end();

  const mean = (ns: number[]) => Math.round(ns.reduce((a, b) => a + b, 0) / Math.max(ns.length, 1));
  const ms = (n: number) => Math.round(n * 1000) / 1000;
  const rows = runs.map(({ name, drawn, first, load, cpu, base }) => {
    const per = (total: number) => ms(total / Math.max(load.latencies.length, 1));
    const x = xapianRun?.classes[name];
    const carrelCpu = per(cpu.server + cpu.postgres);
    return {
      class: name,
      drawn,
      'first n': first.latencies.length,
      'first p50 ms': percentile(first.latencies, 0.5),
      'first p99 ms': percentile(first.latencies, 0.99),
      'mean matches': mean(first.totals),
      sent: load.latencies.length,
      'req/s': Math.round(load.rps),
      'p50 ms': percentile(load.latencies, 0.5),
      'p99 ms': percentile(load.latencies, 0.99),
      errors: load.errors + first.errors,
      'server CPU ms/q': per(cpu.server),
      'PG CPU ms/q': per(cpu.postgres),
      'carrel CPU ms/q': carrelCpu,
      'load gen CPU ms/q': per(cpu.self),
      'xapian n': x?.queries ?? 'n/a',
      'xapian p50 ms': x?.p50 ?? 'n/a',
      'xapian p99 ms': x?.p99 ?? 'n/a',
      'xapian CPU ms/q': x?.cpuMsPerQuery ?? 'n/a',
      'xapian matches': x ? mean(x.totals.slice(0, first.totals.length)) : 'n/a',
      // Both engines count the same matches: of the queries timed one at a time, how many counts agree.
      'same count': x ? `${first.totals.filter((t, i) => t === x.totals[i]).length}/${first.totals.length}` : 'n/a',
      'CPU carrel/xapian': x ? Number((carrelCpu / Math.max(x.cpuMsPerQuery, 0.001)).toFixed(2)) : 'n/a',
      'ts_rank p50 ms': base ? percentile(base.latencies, 0.5) : 'n/a',
      'ts_rank p99 ms': base ? percentile(base.latencies, 0.99) : 'n/a',
      'ts_rank req/s': base ? Number(base.rps.toFixed(1)) : 'n/a',
      ranOut: load.ranOut ? `after ${load.seconds.toFixed(2)} s` : '',
    };
  });
  // The queries whose counts differ between the engines, for a look at why.
  const disagreements = runs.flatMap(({ name, first }) =>
    first.totals.flatMap((carrel, i) => {
      const x = xapianRun?.classes[name]?.totals[i];
      return x === undefined || x === carrel ? [] : [{ class: name, query: sent[name]![i]!.params, carrel, xapian: x }];
    }),
  );
  const xapianSizes = xapianRun && { version: xapianRun.version, built: xapianRun.built, bytes: xapianRun.bytes };
  const all = runs.flatMap((r) => r.load.latencies).sort((a, b) => a - b);
  console.log(
    `\n${BIBS} generated bibs; PostgreSQL${args.socket ? ' through its Unix socket' : ' over TCP'}; the server's search pool ${loadConfig({ ...process.env, ...serverEnv }).dbSearchPoolMax} connections (CARREL_DB_SEARCH_POOL_MAX); ${CONNECTIONS} connections, ${SECONDS} s per class, limit=${LIMIT}; queries drawn with seed ${SEED}, none sent twice, the server's kept lists kept across classes; ts_rank: the first ${BASELINE_QUERIES} of each class's load at ${CONNECTIONS} connections; Xapian ${xapianRun?.version ?? '(not run)'}: the first ${XAPIAN_QUERIES} of each class's queries, one at a time; Node ${process.version}`,
  );
  if (built)
    console.log(
      `${built.generate === undefined ? '' : `carrel generate: ${built.generate.toFixed(0)} s; `}carrel search reindex (full): ${built.reindex.seconds.toFixed(0)} s (budget 600 s), peak memory ${built.reindex.peakMemoryMb} MB (budget 1,024 MB)`,
    );
  const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
  console.log(
    `index size: carrel search_* tables ${mb(carrelBytes)}` +
      (xapianRun
        ? `; xapian ${mb(xapianRun.bytes)}, built in ${xapianRun.built?.seconds} s (${xapianRun.built?.cpuSeconds} s CPU)${xapianRun.reused ? ' in an earlier run' : ''}`
        : ''),
  );
  console.table(
    rows.map((r) =>
      Object.fromEntries(
        Object.entries(r).filter(([k]) => !k.startsWith('xapian') && !k.startsWith('ts_rank') && k !== 'CPU carrel/xapian'),
      ),
    ),
  );
  console.table(
    rows.map((r) =>
      Object.fromEntries(
        Object.entries(r).filter(
          ([k]) =>
            ['class', 'p50 ms', 'p99 ms', 'carrel CPU ms/q', 'CPU carrel/xapian'].includes(k) ||
            k.startsWith('xapian') ||
            k.startsWith('ts_rank'),
        ),
      ),
    ),
  );
  for (const r of rows.filter((r) => r.ranOut))
    console.log(`${r.class}: the class ran out of distinct queries (${r.drawn}) ${r.ranOut}, and stopped there`);
  const cpuOver = rows.filter((r) => typeof r['CPU carrel/xapian'] === 'number' && r['CPU carrel/xapian'] > 1).map((r) => r.class);
  console.log(
    `overall p50 ${percentile(all, 0.5)} ms (budget <= 5 ms); worst class p99 ${Math.max(...rows.map((r) => Number(r['p99 ms'])))} ms (budget <= 50 ms); ` +
      (xapianRun ? `CPU per query above Xapian's in ${cpuOver.length ? cpuOver.join(', ') : 'no class'} (budget: in no class); ` : '') +
      `server peak RSS ${serverPeak} MB (budget < 512 MB)`,
  );
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(
    path.join(RESULTS, `search-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ bibs: BIBS, seed: SEED, built, carrelBytes, xapian: xapianSizes, rows, disagreements, serverPeak }, null, 2),
  );
}

await main();
