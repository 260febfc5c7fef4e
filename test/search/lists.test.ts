// Keys' posting lists read from the index into Node (lists.ts over list-repository.ts), compressed
// and kept per process (list-cache.ts), on the index of the shared real MARC records: each list is
// search_postings' rows for its key, weights bit for bit, and a key whose bibs changed is read
// afresh, not answered from the cache. Also prints what the compressed lists take against the table.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { ListCache } from '../../src/search/list-cache.ts';
import { readLists } from '../../src/search/lists.ts';
import { BlockPostingList, decodePostings } from '../../src/search/posting-blocks.ts';
import { END, type PostingList } from '../../src/search/posting-list.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { recording } from '../helpers/recording-db.ts';
import { importSharedRecords } from '../helpers/shared-data.ts';

interface Rows {
  bibs: number[];
  /** Each weight's float4 bits, as PostgreSQL holds them. */
  bits: number[];
}

/** search_postings' rows by key id, weights as their float4 bits (read in binary, so exact). */
async function postingRows(testDb: TestDb, termIds?: number[]): Promise<Map<number, Rows>> {
  const rows = await testDb.db.query<{ term_id: number; bib_id: number; bits: number }>(
    `select term_id, bib_id, ('x' || encode(float4send(weight), 'hex'))::bit(32)::int as bits from search_postings
      where $1::int[] is null or term_id = any($1::int[]) order by term_id, bib_id`,
    [termIds ?? null],
  );
  const byTerm = new Map<number, Rows>();
  for (const row of rows) {
    let list = byTerm.get(row.term_id);
    if (!list) byTerm.set(row.term_id, (list = { bibs: [], bits: [] }));
    list.bibs.push(row.bib_id);
    list.bits.push(row.bits >>> 0);
  }
  return byTerm;
}

/** The list walked with its cursor, weights as their float4 bits. */
function walked(list: PostingList): Rows {
  const bibs: number[] = [];
  const bits: number[] = [];
  const scratch = new Float32Array(1);
  const scratchBits = new Uint32Array(scratch.buffer);
  for (const cursor = list.cursor(); cursor.bib !== END; cursor.next()) {
    bibs.push(cursor.bib);
    scratch[0] = cursor.weight;
    bits.push(scratchBits[0]!);
  }
  return { bibs, bits };
}

async function versions(testDb: TestDb, termIds?: number[]): Promise<{ id: number; version: number }[]> {
  return testDb.db.query<{ id: number; version: number }>(
    'select id, version from search_terms where $1::int[] is null or id = any($1::int[]) order by id',
    [termIds ?? null],
  );
}

describe(`posting lists read into Node, on ${ENGINE}`, () => {
  let testDb: TestDb;
  before(async () => {
    testDb = await createTestDb();
    await importSharedRecords(testDb.db);
    await drainQueue(testDb.db);
  });
  after(() => testDb?.drop());

  it('reads every key’s list as its rows, weights bit for bit, in one statement for all', async (t) => {
    const rows = await postingRows(testDb);
    const terms = await versions(testDb);
    assert.ok(rows.size > 1000, `${rows.size} keys with postings`);
    const cache = new ListCache(1 << 30);
    const sent: string[] = [];
    const lists = await readLists(recording(testDb.db, sent), terms, cache);
    assert.equal(sent.length, 1);
    assert.equal(lists.size, terms.length);
    let postings = 0;
    let bytes = 0;
    for (const { id } of terms) {
      const list = lists.get(id) as BlockPostingList;
      assert.deepEqual(walked(list), rows.get(id) ?? { bibs: [], bits: [] }, `key ${id}`);
      assert.equal(list.length, rows.get(id)?.bibs.length ?? 0);
      postings += list.length;
      bytes += list.buffer.byteLength;
    }
    // What the lists take compressed (blocks and their headers), against the table with its indexes.
    const [size] = await testDb.db.query<{ bytes: string }>(`select pg_total_relation_size('search_postings')::text as bytes`);
    const table = Number(size!.bytes);
    t.diagnostic(
      `${terms.length} keys, ${postings} postings: compressed ${bytes} bytes (${(bytes / postings).toFixed(2)} a posting); ` +
        `search_postings with its indexes ${table} bytes (${(table / postings).toFixed(1)} a posting), ${(table / bytes).toFixed(1)}×`,
    );
    // The largest list's blocks alone, without the head and headers, per posting.
    const largest = [...lists.values()].reduce((a, b) => (a.length >= b.length ? a : b)) as BlockPostingList;
    t.diagnostic(`largest list ${largest.length} postings, ${largest.buffer.byteLength} bytes`);
    assert.deepEqual(decodePostings(largest.buffer).bibs.length, largest.length);
  });

  it('answers kept lists without reading them again, and reads a key whose bibs changed afresh', async () => {
    const bibs = new BibService(testDb.db, new ItemService(testDb.db));
    const [doc] = await testDb.db.query<{ bib_id: string; terms: number[]; counted: number[] }>(
      `select bib_id::text, terms, array(select t.id from search_terms t where t.id = any(d.terms) and t.key like '_~%' order by t.id) as counted
         from search_docs d order by cardinality(terms) desc, bib_id limit 1`,
    );
    const bibId = Number(doc!.bib_id);
    const counted = new Set(doc!.counted);
    assert.ok(counted.size > 10 && counted.size < doc!.terms.length, `${counted.size} of the bib's ${doc!.terms.length} keys counted`);
    const before = await versions(testDb, doc!.terms);
    const cache = new ListCache(1 << 30);
    const first = await readLists(testDb.db, before, cache);
    for (const { id } of before) assert.ok(walked(first.get(id)!).bibs.includes(bibId), `key ${id} holds the bib`);
    // Counted keys' lists are kept; the others' are read again (their versions do not follow their bibs).
    const sent: string[] = [];
    const again = await readLists(recording(testDb.db, sent), before, cache);
    assert.equal(sent.length, 1);
    for (const { id } of before) {
      if (counted.has(id)) assert.equal(again.get(id), first.get(id), `key ${id} answered from the cache`);
      else assert.notEqual(again.get(id), first.get(id), `key ${id} read again`);
    }

    await bibs.delete(doc!.bib_id);
    await drainQueue(testDb.db);
    const now = await versions(testDb, doc!.terms);
    for (const [i, { id, version }] of now.entries())
      if (counted.has(id)) assert.ok(version > before[i]!.version, `key ${id}'s version moved`);
    const afresh = await readLists(testDb.db, now, cache);
    const rows = await postingRows(testDb, doc!.terms);
    for (const { id } of now) {
      assert.notEqual(afresh.get(id), first.get(id));
      assert.deepEqual(walked(afresh.get(id)!), rows.get(id) ?? { bibs: [], bits: [] }, `key ${id} read afresh`);
      assert.ok(!walked(afresh.get(id)!).bibs.includes(bibId), `key ${id} without the deleted bib`);
    }

    // A reader that read the versions before the change and finds nothing kept is given the lists
    // as they are now, kept under the versions they were read with.
    const late = new ListCache(1 << 30);
    const lists = await readLists(testDb.db, before, late);
    for (const { id, version } of now) {
      assert.ok(!walked(lists.get(id)!).bibs.includes(bibId), `key ${id} without the deleted bib, for the late reader`);
      if (counted.has(id)) assert.equal(late.get(id, version), lists.get(id), `key ${id} kept at its version now`);
    }
  });
});
