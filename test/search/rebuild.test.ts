// `carrel search reindex` builds the index whole beside the one in use and swaps it in: the index
// it leaves must be the one the incremental indexer builds, in tables shaped as the migrations
// shape them, and it must not lose a bib written while it ran.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '../../src/db/types.ts';
import { DEFAULT_ITEM_MAP } from '../../src/items/from-marc.ts';
import { pairKeys } from '../../src/search/document.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { rebuildIndex, RebuildRunningError } from '../../src/search/rebuild.ts';
import { ListCache } from '../../src/search/list-cache.ts';
import { readSegmentedLists } from '../../src/search/segment-repository.ts';
import { joinSegments } from '../helpers/join-segments.ts';
import { SearchService } from '../../src/search/service.ts';
import { childDatabase, createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { importGenerated } from '../helpers/generated.ts';
import { carrel } from '../helpers/process.ts';
import { installDocTermIds } from '../helpers/term-ids-sql.ts';

const BIBS = 400;

const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The index's content by key (term ids differ between builds), sorted: the postings its segments
 * hold; docPostings: each document's keys (its key ids' and its words' pairs'), as postings rows
 * without their weights (they must be the postings' keys and bibs).
 */
async function content(db: Queryable) {
  await installDocTermIds(db);
  const keys = new Map((await db.query<{ id: number; key: string }>('select id, key from search_terms')).map((r) => [r.id, r.key]));
  const postings: string[] = [];
  const postingKeys: string[] = [];
  for (const list of await readSegmentedLists(db, [...keys.keys()])) {
    const { bibs, weights } = joinSegments(list.segments);
    bibs.forEach((bib, i) => {
      postings.push(`${list.key} ${bib} ${weights[i]}`);
      postingKeys.push(`${list.key} ${bib}`);
    });
  }
  // Sorted in Node, as docPostings is: the same order whatever the database's collation.
  postings.sort(byCodePoint);
  postingKeys.sort(byCodePoint);
  const docs = await db.query<{ row: string }>(
    `select concat_ws(' | ', d.bib_id, d.title, d.words, d.sort_title, d.year, d.material_type, d.lang,
       (select string_agg(t.key, ' ' order by t.key) from search_terms t where t.id = any(doc_term_ids(d.term_ids)))) as row from search_docs d order by d.bib_id`,
  );
  const docPostings = await db.query<{ row: string }>(
    `select t.key || ' ' || d.bib_id as row
     from search_docs d cross join unnest(doc_term_ids(d.term_ids)) as u(term_id) join search_terms t on t.id = u.term_id order by 1`,
  );
  const pairs = (await db.query<{ bib_id: string; words: string }>('select bib_id::text, words from search_docs')).flatMap((d) =>
    pairKeys(d.words).map((key) => `${key} ${d.bib_id}`),
  );
  const df = await db.query<{ row: string }>(`select key || ' ' || df as row from search_terms where df > 0 order by key`);
  return {
    postings,
    docs: docs.map((r) => r.row),
    docPostings: [...docPostings.map((r) => r.row), ...pairs].sort(byCodePoint),
    postingKeys,
    df: df.map((r) => r.row),
  };
}

/** The three tables' columns, constraints and indexes, as a migrated database has them. */
async function shape(db: Queryable) {
  const columns = await db.query<{ row: string }>(
    `select concat_ws(' ', table_name, column_name, data_type, is_nullable, column_default, is_identity, identity_generation) as row
     from information_schema.columns where table_name in ('search_terms', 'search_docs', 'search_segments') order by table_name, column_name`,
  );
  const indexes = await db.query<{ row: string }>(
    `select indexdef as row from pg_indexes where tablename in ('search_terms', 'search_docs', 'search_segments') order by indexname`,
  );
  const constraints = await db.query<{ row: string }>(
    `select conname || ' ' || pg_get_constraintdef(oid) as row from pg_constraint
     where conrelid in ('search_terms'::regclass, 'search_docs'::regclass, 'search_segments'::regclass) order by conname`,
  );
  return [...columns, ...indexes, ...constraints].map((r) => r.row);
}

describe(`search index rebuilt whole on ${ENGINE}`, () => {
  let t: TestDb;
  let search: SearchService;
  before(async () => {
    t = await createTestDb();
    await importGenerated(t.db, 7, BIBS, DEFAULT_ITEM_MAP);
    await t.db.query('update bibs set suppressed = true where id in (select id from bibs order by id limit 3)');
    await drainQueue(t.db);
    search = new SearchService(t.db, new ListCache(64 << 20));
  });
  after(() => t.drop());

  it('leaves the index the indexer builds, in tables shaped as migrated, and searches answer alike', async () => {
    const incremental = await content(t.db);
    assert.ok(incremental.postings.length > BIBS);
    assert.deepEqual(incremental.docPostings, incremental.postingKeys, "each document keeps its postings' keys");
    const migrated = await shape(t.db);
    const queries = ['history', 'history fiction', '"juvenile literature"', 'the'];
    const answers = await Promise.all(queries.map((text) => search.search({ text, limit: 20, offset: 0, facets: true })));
    const indexed = await rebuildIndex(t.db);
    assert.equal(indexed, BIBS - 3, 'suppressed bibs are not indexed');
    assert.deepEqual(await content(t.db), incremental);
    assert.deepEqual(await shape(t.db), migrated);
    assert.deepEqual(await Promise.all(queries.map((text) => search.search({ text, limit: 20, offset: 0, facets: true }))), answers);
    assert.equal((await t.db.query("select 1 from pg_class where relname like 'search_%_build'")).length, 0, 'no build table left');
  });

  it('leaves queued only a bib written while it runs, even once the indexer took it, and the indexer goes on after it', async () => {
    let written: string | undefined;
    // Queued before the build starts: the build reads it, so the swap takes it off the queue.
    await t.db.query('insert into search_queue (bib_id) select id from bibs order by id desc limit 5');
    await rebuildIndex(t.db, async (progress) => {
      // Only just before the swap is every page read: during the documents phase the next page is
      // already being read and, on PostgreSQL's pool, may or may not see a bib written meanwhile.
      if (progress.phase !== 'indexes' || progress.step !== 'swapping in' || written) return;
      // The build has read the catalogue without this bib; a running server's indexer then takes
      // it off the queue into the index being replaced.
      written = (
        await t.db.query<{ id: string }>(
          `insert into bibs (marc, title, created_date, updated_date) values ($1::json, 'Zyxwvut quarterly', now(), clock_timestamp()) returning id::text`,
          [{ leader: '00000nas a2200000 a 4500', fields: [{ '245': { ind1: '0', ind2: '0', subfields: [{ a: 'Zyxwvut quarterly' }] } }] }],
        )
      )[0]!.id;
      await drainQueue(t.db);
    });
    assert.ok(written);
    assert.equal((await search.search({ text: 'zyxwvut', limit: 5, offset: 0 })).total, 0);
    assert.deepEqual(
      (await t.db.query<{ bib_id: string }>('select bib_id::text from search_queue')).map((r) => r.bib_id),
      [written],
    );
    await drainQueue(t.db);
    const found = await search.search({ text: 'zyxwvut', limit: 5, offset: 0 });
    assert.deepEqual(
      found.hits.map((h) => h.id),
      [written],
    );
  });

  it('refuses a second rebuild while one runs, from another process too, and leaves the first to finish', async () => {
    // On PostgreSQL the second comes through a pool of its own, as another process's would.
    const other = t.url ? openPostgres(t.url, { max: 2, connectTimeoutSec: 10 }) : t.db;
    try {
      let refused: unknown;
      const indexed = await rebuildIndex(t.db, async (progress) => {
        if (progress.phase !== 'documents' || refused) return;
        refused = await rebuildIndex(other).then(
          () => 'ran',
          (error: unknown) => error,
        );
      });
      assert.ok(refused instanceof RebuildRunningError, String(refused));
      assert.ok(indexed > 0);
      assert.equal((await search.search({ text: 'history', limit: 1, offset: 0 })).total > 0, true);
      // Released: the next one runs.
      assert.equal(await rebuildIndex(other), indexed);
    } finally {
      if (other !== t.db) await other.close();
    }
  });

  it('has the indexer stop between batches when told to (a server shutting down does not wait for the queue)', async () => {
    await t.db.query('insert into search_queue (bib_id) select id from bibs order by id limit 5 on conflict do nothing');
    const queued = async () => (await t.db.query<{ n: number }>('select count(*)::int as n from search_queue'))[0]!.n;
    assert.equal(await queued(), 5);
    assert.equal(await drainQueue(t.db, undefined, 1, () => false), 0, 'told to stop before the first batch');
    assert.equal(await queued(), 5);
    let asked = 0;
    assert.equal(await drainQueue(t.db, undefined, 1, () => asked++ === 0), 5, 'one batch, then asked again and stopped');
    assert.equal(asked, 2);
    assert.equal(await queued(), 0);
  });
});

describe(`carrel search reindex as a command on ${ENGINE}`, () => {
  let child: Awaited<ReturnType<typeof childDatabase>>;
  before(async () => {
    child = await childDatabase();
  });
  after(() => child.remove());

  it('runs in a process of its own with a larger young generation, and answers as that process does', async () => {
    const generated = await carrel(['generate', '--bibs', '40', '--json'], child.env);
    assert.equal(generated.code, 0, generated.stderr);
    // The command runs again in a child started with --max-semi-space-size (src/cli/roomy-heap.ts);
    // its summary and exit code are the command's.
    const done = await carrel(['search', 'reindex', '--json'], child.env);
    assert.equal(done.code, 0, done.stderr);
    const summary = JSON.parse(done.stdout) as { indexed: number; peakMemoryMb: number };
    assert.equal(summary.indexed, 40);
    assert.ok(summary.peakMemoryMb > 0, 'its peak memory, for the budget of a rebuild');
  });

  it('runs a command again with the flag, once, and exits with its code', async () => {
    const run = promisify(execFile);
    const failed = await run(process.execPath, ['--import', 'tsx', 'test/helpers/roomy-heap-child.ts', '3']).then(
      () => assert.fail('exit code 3 expected'),
      (error: unknown) => error as { code: number; stdout: string },
    );
    assert.equal(failed.code, 3);
    assert.deepEqual(JSON.parse(failed.stdout), ['--max-semi-space-size=64']);
  });
});
