// `npm run bench:query`: Sierra's JSON queries (POST /v6/bibs/query) over a generated catalogue on
// PostgreSQL, one class at a time, beside the same condition answered straight in SQL in the same
// run. Every request is a different query drawn from the catalogue itself (the same ones every run).
//
// Classes: a MARC field's equality (020 $a, as a cataloguer finds a record by its ISBN; 035 $a, as a
// load profile matches an OCLC number), a fixed-field range (28, cataloguing date: a month of
// records, one page of them), and a review file's query as Create Lists exports it: twelve
// conditions (a month of cataloguing, MARC fields that must not hold a vendor's name, a field group
// by its bare tag, the items' locations, suppression, material types, language, a group as a plain
// array with a title word or a subject without a word), whose baseline is the same question written
// by hand in SQL (jsonpath over the MARC parsed once per record). A load stamps every bib's
// cataloguing date with its day; they are spread here once over ten years by record number, as a
// catalogue's are.
//
// The catalogue (carrel generate and carrel search reindex, timed when they run) is kept in carrel_bench_query
// (carrel_bench_query_N for other sizes) and reused while it holds the same number of bibs.
// Options: --bibs N (default 1000000), --seconds S per class (default 8), --connections N (16),
// --limit N (entries per page, default 50), --fresh, --database-url URL, --classes TEXT (only the
// classes whose name holds TEXT, e.g. --classes review).
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
    classes: { type: 'string' },
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
/** Each class's p99 budget (issue 19: 50 ms; issue 35: a review file's query of 10+ conditions, 100 ms). */
const BUDGET_MS: Record<string, number> = { 'Create Lists review file, 12 conditions': 100 };

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
  const sample = await sql<{ isbn: string | null; oclc: string | null; title: string | null; lang: string | null }[]>`
    select (select s.value from json_array_elements(b.marc -> 'fields') fe, json_each(fe) f,
              json_array_elements(f.value -> 'subfields') sf, json_each_text(sf) s
            where f.key = '020' and s.key = 'a' limit 1) as isbn,
           (select s.value from json_array_elements(b.marc -> 'fields') fe, json_each(fe) f,
              json_array_elements(f.value -> 'subfields') sf, json_each_text(sf) s
            where f.key = '035' and s.key = 'a' limit 1) as oclc,
           (select s.value from json_array_elements(b.marc -> 'fields') fe, json_each(fe) f,
              json_array_elements(f.value -> 'subfields') sf, json_each_text(sf) s
            where f.key = '245' and s.key = 'a' limit 1) as title,
           b.lang
    from bibs b where b.deleted_date is null and b.id % ${step} = 0 limit ${PER_CLASS}`;
  const types = (await sql<{ t: string }[]>`select distinct material_type as t from bibs where material_type is not null order by 1`).map(
    (r) => r.t,
  );
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
  // A word of a title (letters only, so it means the same in a jsonpath regex as in a "has"), a
  // language to leave out, half the material types: different in each query.
  const reviews = sample.map((r, i) => {
    const words = (r.title ?? '').toLowerCase().match(/\p{L}{4,}/gu) ?? ['the'];
    return {
      month: months[i]!,
      word: words[i % words.length]!,
      lang: r.lang ?? 'und',
      types: types.filter((_, k) => (k + i) % 2 === 0),
      location: `z${i % 10}`,
    };
  });
  const bib = (what: object, op: string, operands: string[]) => bibQuery(what, op, operands);
  const reviewFile = (r: (typeof reviews)[number]) => ({
    queries: [
      bib({ id: 28 }, 'between', r.month),
      'and',
      bib({ field: { marcTag: '910' } }, 'all_fields_not_have', ['backstage', '']),
      'and',
      bib({ field: { marcTag: '856' } }, 'all_fields_not_have', ['ebrary', '']),
      'and',
      bib({ tag: 'a' }, 'all_fields_not_have', ['gobi sciences dda', '']),
      'and',
      bib({ id: 26 }, 'all_fields_not_have', [r.location, '']),
      'and',
      bib({ id: 31 }, 'not_equal', ['n', '']),
      'and',
      bib({ field: { marcTag: '001' } }, 'all_fields_not_have', ['asp', '']),
      'and',
      bib({ id: 30 }, 'in', r.types),
      'and',
      bib({ id: 24 }, 'not_equal', [r.lang, '']),
      'and',
      [
        bib({ field: { marcTag: '245', ind1: '?', ind2: '?', subfields: 'a' } }, 'has', [r.word, '']),
        'or',
        bib({ tag: 'd' }, 'at_least_one_field_not_have', ['fiction', '']),
      ],
      'and',
      bib({ field: { marcTag: '035' } }, 'all_fields_not_have', ['(ocolc)0', '']),
      'and',
      bib({ id: 84 }, 'not_within', ['01-01-1990', '12-31-1999']),
    ],
  });
  // By hand: the MARC parsed once per record, each MARC condition a jsonpath over it (the words are
  // letters, so a regex of them is the word itself); a subject lacking "fiction" as a 6XX whose
  // subfields' text lacks it.
  const lacks = (path: string, word: string) => `not jsonb_path_exists(m.j, '${path} ? (@ like_regex "${word}" flag "i")')`;
  const reviewSql = `select b.id from bibs b cross join lateral (select b.marc::jsonb as j offset 0) m
    where b.deleted_date is null and b.catalog_date between $1::date and $2::date
      and ${lacks('$.fields[*]."910".subfields[*].*', 'backstage')}
      and ${lacks('$.fields[*]."856".subfields[*].*', 'ebrary')}
      and not exists (select 1 from jsonb_array_elements(m.j -> 'fields') fe, jsonb_each(fe) f
        where f.key in ('100', '110', '111', '700', '710', '711') and f.value ->> 'subfields' ilike '%gobi sciences dda%')
      and not exists (select 1 from item_bibs ib join items i on i.id = ib.item_id
        where ib.bib_id = b.id and i.deleted_date is null and i.location_code ilike '%' || $3 || '%')
      and not b.suppressed
      and not jsonb_path_exists(m.j, '$.fields[*]."001" ? (@ like_regex "asp" flag "i")')
      and b.material_type = any($4::text[])
      and b.lang is distinct from $5
      and (jsonb_path_exists(m.j, $6::jsonpath)
        or exists (select 1 from jsonb_array_elements(m.j -> 'fields') fe, jsonb_each(fe) f
          where f.key like '6__' and f.value ->> 'subfields' not ilike '%fiction%'))
      and not exists (select 1 from jsonb_array_elements(m.j -> 'fields') fe, jsonb_each(fe) f
        where f.key = '035' and f.value ->> 'subfields' ilike '%(ocolc)0%')
      and not (b.updated_date >= date '1990-01-01' and b.updated_date < date '2000-01-01')
    ${page}`;
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
    'Create Lists review file, 12 conditions': reviews.map((r) => ({
      body: reviewFile(r),
      sql: [
        reviewSql,
        [r.month[0], r.month[1], r.location, r.types, r.lang, `$.fields[*]."245".subfields[*].a ? (@ like_regex "${r.word}" flag "i")`],
      ],
    })),
  };
}

interface Load {
  rps: number;
  latencies: number[];
  errors: number;
}

/** How many of the first `n` queries Carrel and the baseline answer with the same page, and the matches in those pages. */
async function sameAnswers(cases: Case[], auth: string, sql: postgres.Sql, n = 20): Promise<{ same: number; of: number; matches: number }> {
  let same = 0;
  let matches = 0;
  const checked = cases.slice(0, n);
  for (const c of checked) {
    const response = await fetch(`http://127.0.0.1:${PORT}/v6/bibs/query?offset=0&limit=${LIMIT}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(c.body),
    });
    const carrel = ((await response.json()) as { entries: { link: string }[] }).entries.map((e) => e.link.split('/').pop()!);
    const base = (await sql.unsafe(c.sql[0], c.sql[1] as postgres.ParameterOrJSON<never>[])).map((r) => String(r.id));
    if (carrel.join() === base.join()) same++;
    matches += carrel.length;
  }
  return { same, of: checked.length, matches };
}

async function loadClass(cases: Case[], auth: string): Promise<Load> {
  const latencies: number[] = [];
  let next = 0;
  let bad = 0;
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
  return { rps: result.requests.average, latencies, errors: result.errors + bad };
}

/** The same conditions straight in PostgreSQL, at the same concurrency, for as long. */
async function baselineClass(sql: postgres.Sql, cases: Case[]): Promise<Load> {
  const latencies: number[] = [];
  let next = 0;
  let done = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const [statement, params] = cases[next++ % cases.length]!.sql;
        const started = performance.now();
        await sql.unsafe(statement, params as postgres.ParameterOrJSON<never>[], { prepare: true });
        latencies.push(performance.now() - started);
        done++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rps: done / SECONDS, latencies, errors: 0 };
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
    { ...env, PORT: String(PORT), HOST: '127.0.0.1', CARREL_WORKERS: '1' },
    /is listening on/,
    path.join(ROOT, 'bench/results/query-server.log'),
  );
  try {
    const tokenResponse = await fetch(`http://127.0.0.1:${PORT}/v6/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
    });
    const auth = `Bearer ${((await tokenResponse.json()) as { access_token: string }).access_token}`;
    // JIT off, as Carrel runs its queries: the estimates of functions over the MARC are far above
    // their cost, and compiling a statement of many conditions takes seconds where it runs in milliseconds.
    const direct = postgres(URL_OF(DB), { max: CONNECTIONS, onnotice: () => {}, connection: { jit: 'off' } });
    const classes = await chooseCases(direct);
    const rows: Record<string, string | number>[] = [];
    for (const [name, cases] of Object.entries(classes)) {
      if (args.classes && !name.toLowerCase().includes(args.classes.toLowerCase())) continue;
      process.stderr.write(`${name}: ${cases.length} distinct queries, ${SECONDS} s each way\n`);
      const answers = await sameAnswers(cases, auth, direct);
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
        'same answer as SQL': `${answers.same}/${answers.of} (${answers.matches} matches)`,
        'reading MARC, ms/query': naive,
      });
    }
    await direct.end();
    console.log(`\n${BIBS} generated bibs; PostgreSQL; ${CONNECTIONS} connections; limit=${LIMIT}; Node ${process.version}\n`);
    if (generated !== undefined) console.log(`carrel generate --bibs ${BIBS} and carrel search reindex: ${generated.toFixed(0)} s\n`);
    console.table(rows);
    for (const r of rows) {
      const budget = BUDGET_MS[String(r.class)] ?? 50;
      console.log(
        `${String(r.class)}: p99 ${r['p99 ms']} ms (budget <= ${budget} ms): ${Number(r['p99 ms']) <= budget ? 'met' : 'NOT met'}`,
      );
    }
    console.log(`server peak RSS ${peakRssMb(server.pid!)} MB`);
  } finally {
    await stop(server);
  }
}

await main();
