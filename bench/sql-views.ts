// `npm run bench:sql`: a library's report SQL through Sierra's views (schema sierra_view, the SQL
// door of issue 20) against the same report written on Carrel's own tables, in the same run.
//
// The report: a location's items in one status with their bibs' titles, ordered by title (a shelf
// list of what is available there, or what is missing, in transit, in processing … there). Two
// statements that answer the same rows (checked first, for a few requests of each class; the run
// stops when they differ): (a) as a library writes it on sierra_view (item_record, record_metadata,
// item_record_property, bib_record_item_record_link, bib_record_property, location, location_name,
// item_status_property_myuser), run as the SQL door runs a library's statement; (b) the same report
// on Carrel's tables (items, item_bibs, bibs, locations, item_statuses), as Carrel's own user.
//
// What users meet is a stream of different requests: each request is a location and a status (the
// same ones every run), each run once a round by both statements, in turns (a, b, then b, a for the
// next) so that neither finds the other's pages cached more often, for several rounds.
//
// The catalogue comes from `carrel generate` (no patrons) and is kept in carrel_bench_sqlviews
// (carrel_bench_sqlviews_N for other sizes), reused while it holds the same number of bibs. The
// generator puts every item at one of three locations; a library has many, so the items are spread
// once over 50 branches of four collections each (200 locations), keeping their statuses.
// Options: --bibs N (default 1000000), --cases N (requests per class, default 30), --rounds N
// (default 3), --fresh, --database-url URL.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { openPostgres } from '../src/db/postgres.ts';
import type { Db, Table } from '../src/db/types.ts';
import { ensureReader } from '../src/sql/roles-repository.ts';
import { byHash, dbUrl, percentile, ROOT } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    bibs: { type: 'string', default: '1000000' },
    cases: { type: 'string', default: '30' },
    rounds: { type: 'string', default: '3' },
    fresh: { type: 'boolean', default: false },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const BIBS = Number(args.bibs);
const CASES = Number(args.cases);
const ROUNDS = Number(args.rounds);
const DB = BIBS === 1_000_000 ? 'carrel_bench_sqlviews' : `carrel_bench_sqlviews_${BIBS}`;
const URL_OF = (name: string) => dbUrl(args['database-url'], name);
const RESULTS = path.join(ROOT, 'bench/results');
/** The SQL door's defaults (src/config.ts: CARREL_SQL_ROW_CAP, CARREL_SQL_TIMEOUT_MS). */
const ROW_CAP = 100_000;
const TIMEOUT_MS = 30_000;
const BUDGET = 1.2;

const BRANCHES = 50;
/** A branch's collections and the share of its items in each (per cent, cumulative bounds below). */
const COLLECTIONS = [
  { code: 'a', name: 'Adult', share: 55 },
  { code: 'j', name: "Children's", share: 25 },
  { code: 'r', name: 'Reference', share: 10 },
  { code: 'n', name: 'New books', share: 10 },
];

// (a) The report as a library writes it against Sierra's views.
const VIEWS = `select 'i' || rm.record_num || 'a' as item_number, ip.barcode, ip.call_number, brp.best_title,
  ln.name as location_name, st.name as status_name
from sierra_view.item_record i
  join sierra_view.record_metadata rm on rm.id = i.id
  join sierra_view.item_record_property ip on ip.item_record_id = i.id
  join sierra_view.bib_record_item_record_link l on l.item_record_id = i.id
  join sierra_view.bib_record_property brp on brp.bib_record_id = l.bib_record_id
  join sierra_view.location loc on loc.code = i.location_code
  join sierra_view.location_name ln on ln.location_id = loc.id and ln.iii_language_id = 1
  join sierra_view.item_status_property_myuser st on st.code = i.item_status_code
where i.location_code = $1 and i.item_status_code = $2
order by brp.best_title, rm.record_num`;

// (b) The same report on Carrel's tables.
const BASE = `select 'i' || i.id || 'a' as item_number, i.barcode, i.call_number, b.title as best_title,
  l.name as location_name, s.display as status_name
from items i
  join item_bibs ib on ib.item_id = i.id
  join bibs b on b.id = ib.bib_id
  join locations l on l.code = i.location_code
  join item_statuses s on s.code = i.status
where i.location_code = $1 and i.status = $2 and i.deleted_date is null and b.deleted_date is null
order by b.title, i.id`;

interface Case {
  klass: string;
  params: [string, string];
}

/** Loads the catalogue with `carrel generate` unless the database holds it; answers the seconds it took, if it ran. */
async function prepare(): Promise<number | undefined> {
  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  const exists = (await admin`select 1 from pg_database where datname = ${DB}`).length > 0;
  let have = 0;
  if (exists && !args.fresh) {
    const sql = postgres(URL_OF(DB), { max: 1, onnotice: () => {} });
    have = Number(
      (await sql`select count(*) as n from bibs where control_source = 'CarrelGen' and deleted_date is null`.catch(() => [{ n: 0 }]))[0]!.n,
    );
    await sql.end();
  }
  let generated: number | undefined;
  if (have !== BIBS) {
    await admin.unsafe(`drop database if exists ${DB} with (force)`);
    await admin.unsafe(`create database ${DB}`);
    process.stderr.write(`generating and loading ${BIBS} bibs (carrel generate)…\n`);
    const started = performance.now();
    execFileSync(process.execPath, ['dist/cli.js', 'generate', '--bibs', String(BIBS), '--seed', '1', '--patrons', '0', '--json'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: URL_OF(DB) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    generated = (performance.now() - started) / 1000;
  } else process.stderr.write(`reusing the ${BIBS} bibs in ${DB} (--fresh to rebuild)\n`);
  await admin.end();
  // A catalogue kept from an earlier run is given the migrations added since: the views measured are the checkout's.
  execFileSync(process.execPath, ['dist/cli.js', 'migrate', '--json'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: URL_OF(DB) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });

  const sql = postgres(URL_OF(DB), { max: 1, onnotice: () => {} });
  const spread = (
    await sql<{ done: boolean }[]>`
    select exists (select from locations where code = 'b01a')
      and not exists (select from items where location_code in ('mn', 'ea', 'mnref')) as done`
  )[0]!.done;
  if (!spread) {
    process.stderr.write(`spreading the items over ${BRANCHES * COLLECTIONS.length} locations…\n`);
    const collections = COLLECTIONS.map((c) => `('${c.code}', '${c.name.replace(/'/g, "''")}')`).join(', ');
    let bound = 0;
    const pick = COLLECTIONS.map((c) => `when abs(hashint8extended(id, 2) % 100) < ${(bound += c.share)} then '${c.code}'`).join(' ');
    // Set as a bulk load would (as bench/query.ts sets cataloguing dates): the items' indexes dropped
    // and built again after, the per-statement reference triggers skipped (the locations are made
    // first), with a superuser's session_replication_role.
    await sql.begin(async (tx) => {
      await tx.unsafe(`insert into branches (name, address)
        select format('Branch %s', lpad(n::text, 2, '0')), format('%s High Street', n) from generate_series(1, ${BRANCHES}) n`);
      await tx.unsafe(`insert into locations (code, name, branch_id, pickup)
        select format('b%s%s', lpad(n::text, 2, '0'), c.code), format('Branch %s %s', lpad(n::text, 2, '0'), c.name), br.id, c.code = 'a'
        from generate_series(1, ${BRANCHES}) n join branches br on br.name = format('Branch %s', lpad(n::text, 2, '0'))
          cross join (values ${collections}) c(code, name)`);
      const indexes = await tx<{ name: string; def: string }[]>`
        select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as def from pg_index
        where indrelid = 'items'::regclass and not indisprimary and not indisunique`;
      for (const { name } of indexes) await tx.unsafe(`drop index ${name}`);
      await tx`set local session_replication_role = replica`;
      await tx.unsafe(`update items set location_code =
        format('b%s', lpad((1 + abs(hashint8extended(id, 1) % ${BRANCHES}))::text, 2, '0')) || case ${pick} end`);
      for (const { def } of indexes) await tx.unsafe(def);
    });
    await sql`vacuum analyze items`;
    await sql`analyze locations`;
  }
  await sql.end();
  return generated;
}

/** The requests: shelf lists (status '-') of different locations, and other statuses at others. */
async function chooseCases(db: Db): Promise<Case[]> {
  const rows = await db.query<{ code: string }>(`select code from locations where code ~ '^b[0-9]{2}[a-z]$' order by code`);
  const codes = byHash(
    rows.map((r) => r.code),
    (c) => c,
  );
  const others = ['m', 't', 'p', 'd', 'o'];
  const cases: Case[] = [];
  for (let k = 0; k < CASES; k++) {
    cases.push({ klass: "shelf list: status '-' (available)", params: [codes[k % codes.length]!, '-'] });
    cases.push({
      klass: 'other statuses: m, t, p, d, o',
      params: [codes[(codes.length - 1 - k + codes.length) % codes.length]!, others[k % others.length]!],
    });
  }
  return cases;
}

/** (a) As the SQL door runs a library's statement (src/sql/repository.ts, runStatement): read-only, as the reader role, the views first on the search path, through a cursor. */
function viaViews(db: Db, reader: string) {
  const setRole = `set local role "${reader.replace(/"/g, '""')}"`;
  return (params: string[]): Promise<Table> =>
    db.transaction(async (tx) => {
      await tx.query('set transaction read only');
      await tx.query(setRole, [], { prepared: false });
      await tx.query(
        `select set_config('statement_timeout', $1, true), set_config('search_path', 'sierra_view, pg_catalog, pg_temp', true)`,
        [`${TIMEOUT_MS}ms`],
      );
      await tx.queryTable(`declare carrel_sql no scroll cursor for ${VIEWS}`, params);
      return tx.queryTable(`fetch forward ${ROW_CAP + 1} from carrel_sql`);
    });
}

/** (b) As Carrel's own user, its own search path, in the same read-only transaction and cursor (so planned the same way). */
function viaBase(db: Db) {
  return (params: string[]): Promise<Table> =>
    db.transaction(async (tx) => {
      await tx.query('set transaction read only');
      await tx.query(`select set_config('statement_timeout', $1, true)`, [`${TIMEOUT_MS}ms`]);
      await tx.queryTable(`declare carrel_sql no scroll cursor for ${BASE}`, params);
      return tx.queryTable(`fetch forward ${ROW_CAP + 1} from carrel_sql`);
    });
}

const rowSet = (table: Table) => table.rows.map((r) => JSON.stringify(r)).sort();

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const generated = await prepare();
  // Carrel's own connections (jit off, as the server's), one at a time.
  const db = openPostgres(URL_OF(DB), { max: 1, connectTimeoutSec: 10 });
  try {
    const reader = await db.transaction((tx) => ensureReader(tx));
    const [who] = await db.query<{ user: string; items: number; loans: number }>(
      `select current_user as user, (select count(*)::int from items where deleted_date is null) as items,
         (select count(*)::int from circ_transactions) as loans`,
    );
    const views = viaViews(db, reader);
    const base = viaBase(db);
    const cases = await chooseCases(db);

    // The two statements must answer the same rows: a few requests of each class, checked.
    let checked = 0;
    for (const c of cases.slice(0, 6)) {
      const [a, b] = [await views(c.params), await base(c.params)];
      const [sa, sb] = [rowSet(a), rowSet(b)];
      if (sa.length !== sb.length || sa.some((r, i) => r !== sb[i]))
        throw new Error(
          `the statements differ for ${JSON.stringify(c.params)}: ${sa.length} rows through the views, ${sb.length} on the tables`,
        );
      checked += sa.length;
      process.stderr.write(`checked ${JSON.stringify(c.params)}: the same ${sa.length} rows both ways\n`);
    }
    if (checked === 0) throw new Error('the requests checked found no rows: the catalogue is not what the bench expects');

    const times = new Map<string, { views: number[]; base: number[]; rows: number[] }>();
    for (let round = 1; round <= ROUNDS; round++) {
      process.stderr.write(`round ${round}/${ROUNDS}: ${cases.length} requests, each both ways\n`);
      for (const [k, c] of cases.entries()) {
        const t = times.get(c.klass) ?? { views: [], base: [], rows: [] };
        times.set(c.klass, t);
        const order = (k + round) % 2 === 0 ? (['views', 'base'] as const) : (['base', 'views'] as const);
        for (const which of order) {
          const started = performance.now();
          const table = await (which === 'views' ? views : base)(c.params);
          t[which].push(performance.now() - started);
          if (which === 'views') t.rows.push(table.rows.length);
        }
      }
    }

    const table: Record<string, string | number>[] = [];
    const verdicts: string[] = [];
    for (const [klass, t] of times) {
      const [v, b] = [[...t.views].sort((x, y) => x - y), [...t.base].sort((x, y) => x - y)];
      const rows = Math.round(t.rows.reduce((s, n) => s + n, 0) / t.rows.length);
      const ratio = percentile(v, 0.5) / percentile(b, 0.5);
      const ratioP95 = percentile(v, 0.95) / percentile(b, 0.95);
      for (const [name, sorted] of [
        ['(b) base tables, Carrel user (baseline)', b],
        ['(a) sierra_view, reader role', v],
      ] as const) {
        table.push({
          report: klass,
          statement: name,
          requests: sorted.length,
          'rows/query': rows,
          'median ms': percentile(sorted, 0.5),
          'p95 ms': percentile(sorted, 0.95),
          'views/base median': sorted === v ? ratio.toFixed(2) : '1.00',
          'views/base p95': sorted === v ? ratioP95.toFixed(2) : '1.00',
        });
      }
      verdicts.push(
        `${klass}: views/base ${ratio.toFixed(2)} at the median (budget <= ${BUDGET.toFixed(2)}: ${ratio <= BUDGET ? 'met' : 'NOT met'})`,
      );
    }

    console.log(
      `\n${BIBS} generated bibs, ${who!.items} items at ${BRANCHES * COLLECTIONS.length} locations; PostgreSQL; ${ROUNDS} rounds of ${cases.length} distinct requests; Node ${process.version}\n`,
    );
    if (generated !== undefined) console.log(`carrel generate --bibs ${BIBS} --patrons 0: ${generated.toFixed(0)} s\n`);
    console.log(
      `(a) runs as the SQL door runs a library's statement: read-only transaction, SET LOCAL ROLE ${reader}, search_path sierra_view, pg_catalog, pg_temp, DECLARE CURSOR + FETCH ${ROW_CAP + 1}`,
    );
    console.log(
      `(b) runs as Carrel's own user (${who!.user}), its search path, in the same read-only transaction and cursor; both on Carrel's connections (jit off), one at a time, planned for each request\n`,
    );
    console.table(table);
    for (const line of verdicts) console.log(line);
    if (who!.loans === 0)
      console.log('circulation by patron type (circ_trans against circ_transactions): skipped, carrel generate makes no loans');
    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(
      path.join(RESULTS, `sql-views-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
      JSON.stringify({ bibs: BIBS, rounds: ROUNDS, cases, table, views: VIEWS, base: BASE }, null, 2),
    );
  } finally {
    await db.close();
  }
}

await main();
