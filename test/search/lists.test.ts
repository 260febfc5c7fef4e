// Keys' posting lists read from the index into Node (lists.ts over segment-repository.ts), compressed
// and kept per process (list-cache.ts), on the index of the shared real MARC records: each list is
// its key's postings in the bibs' documents, weights bit for bit, every key's list is kept, and a key whose
// bibs changed (counted or not), or a key of an index rebuilt since, is read afresh, not answered
// from the cache. Also prints what the compressed lists take, in Node and in search_segments.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import { isControlField } from '../../src/marc/record.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { ANY_FIELD, KIND } from '../../src/search/keys.ts';
import { ListCache, type KeptList } from '../../src/search/list-cache.ts';
import { KeysRenumbered, readLists } from '../../src/search/lists.ts';
import { END, type PostingList } from '../../src/search/posting-list.ts';
import { rebuildIndex } from '../../src/search/rebuild.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { documentPostings, type Rows } from '../helpers/document-postings.ts';
import { recording } from '../helpers/recording-db.ts';
import { importSharedRecords } from '../helpers/shared-data.ts';
import { installDocTermIds } from '../helpers/term-ids-sql.ts';

/** Keys' postings made afresh from the bibs' documents, weights as their float4 bits. */
const postingRows = (testDb: TestDb, termIds?: number[]): Promise<Map<number, Rows>> => documentPostings(testDb.db, termIds);

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

/** Keys' ids, keys and versions (bigints, sent as text), in id order. */
async function versions(testDb: TestDb, termIds?: number[]): Promise<{ id: number; key: string; version: number }[]> {
  const rows = await testDb.db.query<{ id: number; key: string; version: string }>(
    'select id, key, version from search_terms where $1::int[] is null or id = any($1::int[]) order by id',
    [termIds ?? null],
  );
  return rows.map((r) => ({ id: r.id, key: r.key, version: Number(r.version) }));
}

const NO_ROWS: Rows = { bibs: [], bits: [] };

describe(`posting lists read into Node, on ${ENGINE}`, () => {
  let testDb: TestDb;
  let bibs: BibService;
  before(async () => {
    testDb = await createTestDb();
    await installDocTermIds(testDb.db);
    await importSharedRecords(testDb.db);
    await drainQueue(testDb.db);
    bibs = new BibService(testDb.db, new ItemService(testDb.db));
  });
  after(() => testDb?.drop());

  it('reads every key’s list as its documents’ postings, weights bit for bit, in one statement for all', async (t) => {
    const rows = await postingRows(testDb);
    const terms = await versions(testDb);
    assert.ok(rows.size > 1000, `${rows.size} keys with postings`);
    const cache = new ListCache(1 << 30);
    const sent: string[] = [];
    const { lists, asRead } = await readLists(recording(testDb.db, sent), terms, cache);
    assert.ok(asRead);
    assert.equal(sent.length, 1);
    assert.equal(lists.size, terms.length);
    let postings = 0;
    let bytes = 0;
    for (const { id } of terms) {
      const list = lists.get(id) as KeptList;
      assert.deepEqual(walked(list), rows.get(id) ?? { bibs: [], bits: [] }, `key ${id}`);
      assert.equal(list.length, rows.get(id)?.bibs.length ?? 0);
      postings += list.length;
      bytes += list.bytes;
    }
    // What the lists take compressed (blocks and their headers), against their table with its index.
    const [size] = await testDb.db.query<{ bytes: string }>(`select pg_total_relation_size('search_segments')::text as bytes`);
    const table = Number(size!.bytes);
    t.diagnostic(
      `${terms.length} keys, ${postings} postings: compressed ${bytes} bytes (${(bytes / postings).toFixed(2)} a posting); ` +
        `search_segments with its index ${table} bytes (${(table / postings).toFixed(1)} a posting), ${(table / bytes).toFixed(1)}×`,
    );
    // The largest list's blocks alone, without the head and headers, per posting.
    const largest = [...lists.values()].reduce((a, b) => (a.length >= b.length ? a : b)) as KeptList;
    t.diagnostic(`largest list ${largest.length} postings, ${largest.bytes} bytes`);
    assert.equal(walked(largest).bibs.length, largest.length);
  });

  it('keeps every key’s list, counted or not, and reads a key whose bibs changed afresh', async () => {
    const [doc] = await testDb.db.query<{ bib_id: string; terms: number[]; counted: number[] }>(
      `select bib_id::text, terms, array(select t.id from search_terms t where t.id = any(terms) and t.key like '_~%' order by t.id) as counted
         from (select bib_id, doc_term_ids(term_ids) as terms from search_docs) d order by cardinality(terms) desc, bib_id limit 1`,
    );
    const bibId = Number(doc!.bib_id);
    const counted = new Set(doc!.counted);
    assert.ok(counted.size > 10 && counted.size < doc!.terms.length, `${counted.size} of the bib's ${doc!.terms.length} keys counted`);
    const before = await versions(testDb, doc!.terms);
    const cache = new ListCache(1 << 30);
    const { lists: first } = await readLists(testDb.db, before, cache);
    for (const { id } of before) assert.ok(walked(first.get(id)!).bibs.includes(bibId), `key ${id} holds the bib`);
    // Every list is kept: read again at the same versions, none is sent for.
    const sent: string[] = [];
    const { lists: again, asRead: keptAsRead } = await readLists(recording(testDb.db, sent), before, cache);
    assert.ok(keptAsRead);
    assert.deepEqual(sent, []);
    for (const { id } of before) assert.equal(again.get(id), first.get(id), `key ${id} answered from the cache`);

    await bibs.delete(doc!.bib_id);
    await drainQueue(testDb.db);
    const now = await versions(testDb, doc!.terms);
    for (const [i, { id, version }] of now.entries()) assert.ok(version > before[i]!.version, `key ${id}'s version rose`);
    const { lists: afresh, asRead: afreshAsRead } = await readLists(testDb.db, now, cache);
    assert.ok(afreshAsRead, 'read at the versions asked for');
    const rows = await postingRows(testDb, doc!.terms);
    for (const { id } of now) {
      assert.notEqual(afresh.get(id), first.get(id));
      assert.deepEqual(walked(afresh.get(id)!), rows.get(id) ?? NO_ROWS, `key ${id} read afresh`);
      assert.ok(!walked(afresh.get(id)!).bibs.includes(bibId), `key ${id} without the deleted bib`);
    }

    // A reader that read the versions before the change and finds nothing kept is given the lists
    // as they are now, kept under the versions they were read with.
    const late = new ListCache(1 << 30);
    const { lists, asRead } = await readLists(testDb.db, before, late);
    assert.equal(asRead, false, 'newer than the versions asked for');
    for (const { id, version } of now) {
      assert.ok(!walked(lists.get(id)!).bibs.includes(bibId), `key ${id} without the deleted bib, for the late reader`);
      assert.equal(late.get(id, version), lists.get(id), `key ${id} kept at its version now`);
    }
  });

  it('reads a title-start key’s list afresh once a bib joins it, though the key is not counted', async () => {
    // The longest list of a key of a title's first two words ("*=world history").
    const [start] = await testDb.db.query<{ id: number; bib_id: string }>(
      `select t.id, min(d.bib_id)::text as bib_id
         from search_docs d cross join unnest(doc_term_ids(d.term_ids)) as u(term_id) join search_terms t on t.id = u.term_id
        where t.key like $1 group by t.id order by count(*) desc, t.id limit 1`,
      [`${ANY_FIELD}${KIND.titleStart}%`],
    );
    const id = start!.id;
    const cache = new ListCache(1 << 30);
    const before = await versions(testDb, [id]);
    const first = walked((await readLists(testDb.db, before, cache)).lists.get(id)!);
    // A copy of one of its bibs joins it.
    const copy = Number(await bibs.create({ marc: await bibs.marc(start!.bib_id) }));
    await drainQueue(testDb.db);
    const now = await versions(testDb, [id]);
    assert.ok(now[0]!.version > before[0]!.version, 'its version rose');
    const afresh = walked((await readLists(testDb.db, now, cache)).lists.get(id)!);
    assert.deepEqual(afresh, (await postingRows(testDb, [id])).get(id));
    assert.deepEqual(
      afresh.bibs.filter((b) => !first.bibs.includes(b)),
      [copy],
      'the copy joined the list read',
    );
  });

  it('answers no list kept before a rebuild, whose keys are numbered anew, for a key of the new index', async () => {
    await rebuildIndex(testDb.db);
    // The indexer takes the first bib out of the built index (its keys' versions move on from the
    // build's); without it, the next build numbers nearly every key anew.
    const [first] = await testDb.db.query<{ id: string }>('select bib_id::text as id from search_docs order by bib_id limit 1');
    await bibs.delete(first!.id);
    await drainQueue(testDb.db);
    const built = await versions(testDb);
    const keysBefore = await keysById(testDb);
    const cache = new ListCache(1 << 30);
    await readLists(testDb.db, built, cache);
    assert.equal(cache.size.lists, built.length, 'every list kept');
    // Kept across the rebuild, not cleared, as another process's would be.
    await rebuildIndex(testDb.db);
    const rebuilt = await versions(testDb);
    const keysNow = await keysById(testDb);
    const renamed = rebuilt.filter(({ id }) => keysBefore.has(id) && keysBefore.get(id) !== keysNow.get(id)).length;
    // (The rebuild numbers keys in the order it meets them, the indexer in the order bibs came: many
    // ids then name another key, and one is enough for the refusal below.)
    assert.ok(renamed > 0, `${renamed} of ${rebuilt.length} key ids name another key`);
    // Keys read before the swap, their lists read after it: refused, since an id now names another key.
    await assert.rejects(readLists(testDb.db, built, new ListCache(1 << 30)), KeysRenumbered);
    const rows = await postingRows(testDb);
    const { lists } = await readLists(testDb.db, rebuilt, cache);
    for (const { id } of rebuilt) assert.deepEqual(walked(lists.get(id)!), rows.get(id) ?? NO_ROWS, `key ${id} as rebuilt`);
    // One version for the whole build, above every version before it.
    const highest = Math.max(...built.map((v) => v.version));
    assert.equal(new Set(rebuilt.map((v) => v.version)).size, 1);
    assert.ok(rebuilt[0]!.version > highest, `rebuilt at ${rebuilt[0]!.version}, after ${highest}`);
  });
  it('refuses ids read before a rebuild that name no key of the rebuilt index', async () => {
    // A bib with a word of its own, indexed after every other, so its keys' ids are the highest;
    // then deleted, its keys kept with no postings until a rebuild, which numbers only the keys of
    // live bibs (from 1: fewer than before).
    const [first] = await testDb.db.query<{ id: string }>('select bib_id::text as id from search_docs order by bib_id limit 1');
    const marc = await bibs.marc(first!.id);
    marc.fields = marc.fields.map((f) =>
      f.tag === '245' && !isControlField(f) ? { ...f, subfields: [{ code: 'a', value: 'Zyxquillonia' }] } : f,
    );
    const own = await bibs.create({ marc });
    await drainQueue(testDb.db);
    const ownKeys = await testDb.db.query<{ id: number }>(`select id from search_terms where key like '%zyxquillonia%' order by id`);
    assert.ok(ownKeys.length > 0, 'the word has keys');
    await bibs.delete(own);
    await drainQueue(testDb.db);
    const before = await versions(
      testDb,
      ownKeys.map((k) => k.id),
    );
    assert.equal(before.length, ownKeys.length, 'kept after the delete');
    await rebuildIndex(testDb.db);
    const [last] = await testDb.db.query<{ id: number }>('select max(id) as id from search_terms');
    assert.ok(
      before.every(({ id }) => id > last!.id),
      `ids ${before.map((b) => b.id).join(', ')} past the rebuilt index's last, ${last!.id}`,
    );
    // Read as a search that read its keys before the swap: not a list left out, a refusal the service answers by reading the keys again.
    await assert.rejects(readLists(testDb.db, before, new ListCache(1 << 30)), KeysRenumbered);
  });
});

/** The index's keys by id. */
async function keysById(testDb: TestDb): Promise<Map<number, string>> {
  return new Map((await testDb.db.query<{ id: number; key: string }>('select id, key from search_terms')).map((r) => [r.id, r.key]));
}
