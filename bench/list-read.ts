// `npx tsx bench/list-read.ts`: how long reading one key's whole posting list from search_postings
// takes, in the form list-repository.ts reads it (8 bytes of binary a posting, one bytea sent as base64) against
// the other forms a statement could send it in, on the embedded engine and on PostgreSQL.
// Each form: the statement and the parsing into an Int32Array and a Float32Array, in Node.
// Options: --postings N in the list (default 50,000), --runs N a form (default 30),
// --database-url URL (an admin connection; a database carrel_bench_lists is made on that server),
// --engine pglite|postgres|both (default both).
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { migrate } from '../src/db/migrate.ts';
import { openPGlite } from '../src/db/pglite.ts';
import { openPostgres } from '../src/db/postgres.ts';
import type { Db } from '../src/db/types.ts';
import { parsePostings, readPostingLists } from '../src/search/list-repository.ts';
import { dbUrl } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    postings: { type: 'string', default: '50000' },
    runs: { type: 'string', default: '30' },
    engine: { type: 'string', default: 'both' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const POSTINGS = Number(args.postings);
const RUNS = Number(args.runs);

type Form = (db: Db, termId: number) => Promise<{ bibs: Int32Array; weights: Float32Array }>;

const FORMS: Record<string, Form> = {
  'bytea as base64 text (list-repository.ts)': async (db, termId) => (await readPostingLists(db, [termId]))[0]!,
  'bytea, one aggregate': async (db, termId) => {
    const [row] = await db.query<{ postings: Uint8Array }>(
      `select string_agg(int4send(bib_id) || float4send(weight), ''::bytea order by bib_id) as postings from search_postings where term_id = $1`,
      [termId],
    );
    return parsePostings(row!.postings);
  },
  'bytea as hex text': async (db, termId) => {
    const [row] = await db.query<{ postings: string }>(
      `select encode(string_agg(int4send(bib_id) || float4send(weight), ''::bytea order by bib_id), 'hex') as postings
         from search_postings where term_id = $1`,
      [termId],
    );
    return parsePostings(Buffer.from(row!.postings, 'hex'));
  },
  'bytea, two aggregates': async (db, termId) => {
    const [row] = await db.query<{ bibs: Uint8Array; weights: Uint8Array }>(
      `select string_agg(int4send(bib_id), ''::bytea order by bib_id) as bibs, string_agg(float4send(weight), ''::bytea order by bib_id) as weights
         from search_postings where term_id = $1`,
      [termId],
    );
    const bibs = new Int32Array(row!.bibs.length / 4);
    const weights = new Float32Array(bibs.length);
    const bits = new Uint32Array(weights.buffer);
    const b = new DataView(row!.bibs.buffer, row!.bibs.byteOffset, row!.bibs.length);
    const w = new DataView(row!.weights.buffer, row!.weights.byteOffset, row!.weights.length);
    for (let i = 0; i < bibs.length; i++) {
      bibs[i] = b.getInt32(4 * i);
      bits[i] = w.getUint32(4 * i);
    }
    return { bibs, weights };
  },
  'arrays (array_agg)': async (db, termId) => {
    const [row] = await db.query<{ bibs: number[]; weights: number[] }>(
      'select array_agg(bib_id order by bib_id) as bibs, array_agg(weight order by bib_id) as weights from search_postings where term_id = $1',
      [termId],
    );
    return { bibs: Int32Array.from(row!.bibs), weights: Float32Array.from(row!.weights) };
  },
  'text (string_agg of numbers)': async (db, termId) => {
    const [row] = await db.query<{ postings: string }>(
      `select string_agg(bib_id::text || ' ' || weight::text, ' ' order by bib_id) as postings from search_postings where term_id = $1`,
      [termId],
    );
    const text = row!.postings;
    const n = POSTINGS;
    const bibs = new Int32Array(n);
    const weights = new Float32Array(n);
    let p = 0;
    for (let i = 0; i < n; i++) {
      let bib = 0;
      for (let c = text.charCodeAt(p); c !== 32; c = text.charCodeAt(++p)) bib = bib * 10 + c - 48;
      bibs[i] = bib;
      const end = text.indexOf(' ', ++p);
      weights[i] = Number(text.slice(p, end < 0 ? text.length : end));
      p = end + 1;
    }
    return { bibs, weights };
  },
  'rows, one a posting': async (db, termId) => {
    const rows = await db.query<{ bib_id: number; weight: number }>(
      'select bib_id, weight from search_postings where term_id = $1 order by bib_id',
      [termId],
    );
    return { bibs: Int32Array.from(rows, (r) => r.bib_id), weights: Float32Array.from(rows, (r) => r.weight) };
  },
};

async function fill(db: Db): Promise<{ termId: number }> {
  await db.query('delete from search_postings');
  const [term] = await db.query<{ id: number }>(
    `insert into search_terms (key) values ('w:benchlist') on conflict (key) do update set version = nextval('search_versions') returning id`,
  );
  // Gaps of 1 to 40 (a word in about one bib in twenty), weights a few distinct values, as real lists have.
  await db.query(
    `insert into search_postings (term_id, bib_id, weight)
     select $1, 1000000 + sum(1 + (i * 7919) % 40) over (order by i), ((i * 31) % 4 + 1) * 1.5::real
       from generate_series(1, $2) i`,
    [term!.id, POSTINGS],
  );
  await db.query('analyze search_postings');
  return { termId: term!.id };
}

async function measure(name: string, db: Db): Promise<void> {
  const { termId } = await fill(db);
  const reference = await FORMS['rows, one a posting']!(db, termId);
  console.log(`\n${name}: one list of ${POSTINGS} postings, ${RUNS} runs a form (median, fastest), in ms`);
  for (const [form, read] of Object.entries(FORMS)) {
    const got = await read(db, termId); // warms it up, and checks it reads the same list
    if (
      got.bibs.length !== POSTINGS ||
      got.bibs.some((b, i) => b !== reference.bibs[i]) ||
      got.weights.some((w, i) => w !== reference.weights[i])
    )
      throw new Error(`${form} read another list`);
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const start = process.hrtime.bigint();
      await read(db, termId);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    console.log(`  ${form.padEnd(44)} ${times[times.length >> 1]!.toFixed(1).padStart(7)} ${times[0]!.toFixed(1).padStart(7)}`);
  }
}

if (args.engine !== 'postgres') {
  const db = await openPGlite({});
  await migrate(db);
  await measure('embedded engine (PGlite)', db);
  await db.close();
}
if (args.engine !== 'pglite') {
  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  await admin.unsafe('drop database if exists carrel_bench_lists');
  await admin.unsafe('create database carrel_bench_lists');
  const db = openPostgres(dbUrl(args['database-url'], 'carrel_bench_lists'), { max: 2, connectTimeoutSec: 5 });
  try {
    await migrate(db);
    await measure('PostgreSQL', db);
  } finally {
    await db.close();
    await admin.unsafe('drop database if exists carrel_bench_lists');
    await admin.end();
  }
}
