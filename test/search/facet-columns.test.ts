// The facet values each process keeps (src/search/facet-columns.ts): counted over the matches they
// are asked for, kept current as bibs are indexed again and when a rebuild swaps in new tables, and
// never missing a doc committed after a read (the docs' writing turn, index-repository.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import type { MarcRecord } from '../../src/marc/record.ts';
import { changedDocsReader } from '../../src/search/doc-repository.ts';
import { FacetColumns, type ChangedDocs, type DocFacets } from '../../src/search/facet-columns.ts';
import { readIndexable, writeIndex } from '../../src/search/index-repository.ts';
import { documentOf, drainQueue } from '../../src/search/indexer.ts';
import { ListCache } from '../../src/search/list-cache.ts';
import { rebuildIndex } from '../../src/search/rebuild.ts';
import { SearchService } from '../../src/search/service.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';

const record = (title: string, type: string, year: number, lang: string): MarcRecord => ({
  leader: `00000n${type}m a2200000 i 4500`,
  fields: [
    { tag: '008', value: `260101s${year}    xxu           000 0 ${lang} d` },
    { tag: '245', ind1: '0', ind2: '0', subfields: [{ code: 'a', value: title }] },
  ],
});

describe('facet columns, in memory', () => {
  /** Changes as a reader would answer them, from a list of docs with their versions. */
  const reader = (generation: string, docs: (DocFacets & { version: number })[]) => async (since: number) =>
    ({
      generation,
      docs: docs.filter((d) => d.version > since),
      version: Math.max(since, ...docs.map((d) => d.version)),
    }) satisfies ChangedDocs;
  const doc = (bib: number, materialType: string | null, lang: string | null, year: number | null, version: number) => ({
    bib,
    materialType,
    lang,
    year,
    version,
  });

  it('holds bibs above and below the first it saw, and counts most common first, ties by value', async () => {
    const columns = new FacetColumns();
    await columns.refresh(reader('1', [doc(1000, 'a', 'eng', 1999, 1)]));
    await columns.refresh(
      reader('1', [
        doc(1000, 'a', 'eng', 1999, 1),
        doc(5000, 'g', 'fre', 2004, 2),
        doc(10, 'a', 'spa', -5, 3),
        doc(70, null, null, null, 3),
      ]),
    );
    assert.deepEqual(columns.count([10, 70, 1000, 5000, 777], 20), {
      materialType: [
        { value: 'a', count: 2 },
        { value: 'g', count: 1 },
      ],
      language: [
        { value: 'eng', count: 1 },
        { value: 'fre', count: 1 },
        { value: 'spa', count: 1 },
      ],
      // PostgreSQL's (year / 10) * 10: -5 is in decade 0. "0" < "1990" < "2000" as text.
      decade: [
        { value: 0, count: 1 },
        { value: 1990, count: 1 },
        { value: 2000, count: 1 },
      ],
    });
    assert.deepEqual(columns.count([10, 1000, 1000], 1).materialType, [{ value: 'a', count: 3 }], 'perFacet values at most');
  });

  it('reads everything again when the generation changes, leaving out bibs the new tables do not hold', async () => {
    const columns = new FacetColumns();
    await columns.refresh(reader('1', [doc(1, 'a', 'eng', 2000, 5), doc(2, 'a', 'eng', 2000, 6)]));
    await columns.refresh(reader('2', [doc(1, 'g', 'fre', 1990, 0)]));
    assert.deepEqual(columns.count([1, 2], 20).materialType, [{ value: 'g', count: 1 }]);
  });
});

describe(`facet columns on ${ENGINE}`, () => {
  let testDb: TestDb;
  let bibs: BibService;
  let service: SearchService;
  const ids: string[] = [];
  before(async () => {
    testDb = await createTestDb();
    bibs = new BibService(testDb.db, new ItemService(testDb.db));
    for (const marc of [record('Marsh plants', 'a', 1994, 'eng'), record('Marsh plants of Wales', 'a', 2001, 'wel')])
      ids.push(await bibs.create({ marc }));
    await drainQueue(testDb.db);
    service = new SearchService(testDb.db, new ListCache(1 << 20));
  });
  after(() => testDb.drop());

  const facets = async () => (await service.search({ text: 'marsh plants', limit: 10, offset: 0, facets: true })).facets!;

  it('counts a bib by its values as last indexed, and as a rebuild read it', async () => {
    assert.deepEqual((await facets()).language, [
      { value: 'eng', count: 1 },
      { value: 'wel', count: 1 },
    ]);
    await bibs.replace(ids[1]!, { marc: record('Marsh plants of Wales', 'g', 2011, 'fre') });
    await drainQueue(testDb.db);
    // Filtered without facets: the filters read the columns as fresh as the lists.
    const filtered = await service.search({ text: 'marsh plants', limit: 10, offset: 0, filters: { materialType: ['g'], decade: [2010] } });
    assert.deepEqual(
      filtered.hits.map((h) => h.id),
      [ids[1]],
    );
    const indexed = await facets();
    assert.deepEqual(indexed.language, [
      { value: 'eng', count: 1 },
      { value: 'fre', count: 1 },
    ]);
    assert.deepEqual(indexed.materialType, [
      { value: 'a', count: 1 },
      { value: 'g', count: 1 },
    ]);
    // Changed, then read by a rebuild (not by the indexer): the rebuilt docs are all version 0.
    await bibs.replace(ids[1]!, { marc: record('Marsh plants of Wales', 'a', 2011, 'spa') });
    await rebuildIndex(testDb.db);
    assert.deepEqual((await facets()).language, [
      { value: 'eng', count: 1 },
      { value: 'spa', count: 1 },
    ]);
  });

  it(
    "never misses a doc committed after a read: a write waits for another's turn",
    { skip: ENGINE !== 'postgres' && 'one connection: transactions cannot overlap' },
    async () => {
      const db = testDb.db;
      // Two bibs with no word in common: their writes lock none of the same keys.
      const other = await bibs.create({ marc: record('Quasar optics', 'a', 1970, 'ger') });
      await drainQueue(db);
      const pair = [ids[0]!, other];
      const columns = new FacetColumns();
      const read = changedDocsReader(db);
      await columns.refresh(read);
      const [first, second] = await Promise.all(pair.map((id) => readIndexable(db, [id]).then((rows) => documentOf(rows[0]!))));
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));
      // The first write keeps its transaction open, its version drawn; the second comes after it.
      const one = db.transaction(async (tx) => {
        await writeIndex(tx, [pair[0]!], [{ ...first!, materialType: 'k' }]);
        wrote();
        await held;
      });
      await written;
      const two = db.transaction((tx) => writeIndex(tx, [pair[1]!], [{ ...second!, materialType: 'k' }]));
      // Either the second write waits for the first's turn, or (without the turn) commits first.
      let settled = false;
      const waiting = async () => {
        while (!settled) {
          const rows = await db.query<{ n: number }>(
            `select count(*)::int as n from pg_locks where not granted and database = (select oid from pg_database where datname = current_database())`,
          );
          if (rows[0]!.n > 0) return;
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      await Promise.race([two, waiting()]);
      settled = true;
      await columns.refresh(read);
      release();
      await Promise.all([one, two]);
      await columns.refresh(read);
      assert.deepEqual(columns.count(pair.map(Number), 20).materialType, [{ value: 'k', count: 2 }]);
    },
  );
});
