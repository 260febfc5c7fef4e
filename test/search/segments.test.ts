// Keys' lists kept compressed in segments (src/search/segments.ts, search_segments): the rules of
// rewriting a segment, against a plain model of the list; and on both engines, the segments the
// indexer keeps and a rebuild makes, on the shared real records as bibs are changed, suppressed,
// deleted and brought back, each key's segments holding exactly its postings in the bibs'
// documents (made afresh from the bibs), weights bit for bit, cut at the segment size, each named
// by its last bib, and each counted key's df its list's length.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importRecords } from '../../src/bibs/import.ts';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import type { MarcRecord } from '../../src/marc/record.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { KEY } from '../../src/search/keys.ts';
import { decodePostings } from '../../src/search/posting-blocks.ts';
import { rebuildIndex } from '../../src/search/rebuild.ts';
import { joinSegments } from '../helpers/join-segments.ts';
import { applyChanges, cutSegments, SEGMENT_POSTINGS, type ListChanges, type Segment } from '../../src/search/segments.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { documentPostings } from '../helpers/document-postings.ts';
import { seeded } from '../helpers/search-queries.ts';
import { importSharedRecords } from '../helpers/shared-data.ts';
import { df } from '../helpers/written-marc.ts';

/** A list as a model: weight by bib. */
type Model = Map<number, number>;

const f32 = (x: number) => Math.fround(x);

/** A key's segments after the changes, as the table would hold them: the read ones less the deleted, with the written. */
function applied(termId: number, segments: Segment[], changes: ListChanges): Segment[] {
  const { deleted, written } = applyChanges(termId, segments, changes);
  const gone = new Set(deleted.map((d) => d.last));
  assert.equal(gone.size, deleted.length, 'a segment deleted once');
  const kept = segments.filter((s) => !gone.has(s.last));
  const names = new Set(kept.map((s) => s.last));
  for (const s of written) assert.ok(!names.has(s.last), `segment ${s.last} written over one kept`);
  return [...kept, ...written].sort((a, b) => a.last - b.last);
}

/** The segments' rules: each one to SEGMENT_POSTINGS postings, named by its last bib, in order without overlap. */
function checkSegments(segments: Segment[]): void {
  let previous = -1;
  for (const s of segments) {
    const { bibs } = decodePostings(s.postings);
    assert.ok(bibs.length > 0 && bibs.length <= SEGMENT_POSTINGS, `segment of ${bibs.length} postings`);
    assert.equal(bibs[bibs.length - 1], s.last, 'named by its last bib');
    assert.ok(bibs[0]! > previous, 'after the segment before it');
    previous = s.last;
  }
}

function asModel(segments: Segment[]): Model {
  const { bibs, weights } = joinSegments(segments.map((s) => s.postings));
  return new Map([...bibs].map((bib, i) => [bib, weights[i]!]));
}

describe('segments of a list', () => {
  it('cuts a list into equal segments of at most the size, none of a single straggler', () => {
    const n = SEGMENT_POSTINGS + 1;
    const bibs = Int32Array.from({ length: n }, (_, i) => i * 3);
    const segments = cutSegments(7, bibs, new Float32Array(n).fill(1.5));
    assert.deepEqual(
      segments.map((s) => decodePostings(s.postings).bibs.length),
      [Math.floor(n / 2), Math.ceil(n / 2)],
    );
    checkSegments(segments);
    assert.deepEqual(cutSegments(7, new Int32Array(0), new Float32Array(0)), []);
  });

  it('puts a bib in the first segment ending at or after it, or the last, and rewrites only those', () => {
    const bibs = Int32Array.from({ length: 30 }, (_, i) => 10 + i * 10);
    const segments = cutSegments(1, bibs, new Float32Array(30).fill(2), 10); // lasts 100, 200, 300
    const { deleted, written } = applyChanges(
      1,
      segments,
      new Map([
        [105, 1],
        [500, 3],
      ]),
    );
    assert.deepEqual(
      deleted.map((d) => d.last),
      [200, 300],
    );
    assert.deepEqual(
      written.map((s) => [...decodePostings(s.postings).bibs]),
      [
        [105, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200],
        [210, 220, 230, 240, 250, 260, 270, 280, 290, 300, 500],
      ],
    );
    // A segment left empty is deleted, none written in its place.
    const emptied = applyChanges(1, segments, new Map(Array.from({ length: 10 }, (_, i) => [10 + i * 10, null])));
    assert.deepEqual(emptied, { deleted: [{ termId: 1, last: 100 }], written: [] });
  });

  it('keeps any list and any changes as a plain list would, weights bit for bit', () => {
    const rand = seeded(38);
    for (let round = 0; round < 200; round++) {
      const model: Model = new Map();
      const n = Math.floor(rand() * 3 * SEGMENT_POSTINGS);
      const span = 1 + Math.floor(rand() * 5 * n + 1);
      for (let i = 0; i < n; i++) model.set(Math.floor(rand() * span), f32(Math.round(rand() * 500) / 100));
      const sorted = [...model].sort((a, b) => a[0] - b[0]);
      let segments = cutSegments(round, Int32Array.from(sorted.map(([b]) => b)), Float32Array.from(sorted.map(([, w]) => w)));
      for (let step = 0; step < 4; step++) {
        const changes: ListChanges = new Map();
        const count = Math.floor(rand() * (rand() < 0.2 ? 2 * SEGMENT_POSTINGS : 20));
        const bibs = [...model.keys()];
        for (let c = 0; c < count; c++) {
          const roll = rand();
          // Some removed, some weighed anew, some added anywhere (and beyond the last).
          const bib = roll < 0.3 && bibs.length ? bibs[Math.floor(rand() * bibs.length)]! : Math.floor(rand() * span * 1.2);
          changes.set(bib, roll < 0.3 ? null : f32(Math.round(rand() * 500) / 100));
        }
        const read = segments.length ? segments : [];
        segments = applied(round, read, changes);
        for (const [bib, weight] of changes)
          if (weight === null) model.delete(bib);
          else model.set(bib, weight);
        checkSegments(segments);
        assert.deepEqual(asModel(segments), new Map([...model].sort((a, b) => a[0] - b[0])), `round ${round} step ${step}`);
      }
    }
  });
});

describe(`segments the index keeps, on ${ENGINE}`, () => {
  let testDb: TestDb;
  let bibs: BibService;

  /** Every key's segments against its postings in the bibs' documents. */
  async function checkIndex(): Promise<number> {
    const postings = new Map(
      [...(await documentPostings(testDb.db))].map(([id, rows]) => [id, rows.bibs.map((bib, i): [number, number] => [bib, rows.bits[i]!])]),
    );
    const stored = await testDb.db.query<{ term_id: number; last_bib: number; postings: string }>(
      `select term_id, last_bib, encode(postings, 'base64') as postings from search_segments order by term_id, last_bib`,
    );
    const segments = new Map<number, Segment[]>();
    for (const s of stored)
      (segments.get(s.term_id) ?? segments.set(s.term_id, []).get(s.term_id)!).push({
        termId: s.term_id,
        last: s.last_bib,
        postings: Buffer.from(s.postings, 'base64'),
      });
    // Compared key by key, a mismatch named by its first difference (a whole-index diff would take minutes to print).
    for (const termId of new Set([...segments.keys(), ...postings.keys()])) {
      const list = segments.get(termId) ?? [];
      checkSegments(list);
      // Bibs added after a key's last segment join it (until it is full): no run of small segments.
      const sizes = list.map((s) => decodePostings(s.postings).bibs.length);
      for (let i = 1; i < sizes.length; i++)
        assert.ok(sizes[i - 1]! + sizes[i]! > SEGMENT_POSTINGS / 2, `key ${termId}'s segments ${sizes.join(', ')}`);
      const { bibs: ids, weights } = joinSegments(list.map((s) => s.postings));
      const bits = new Uint32Array(weights.buffer);
      const want = postings.get(termId) ?? [];
      const at = want.findIndex(([bib, b], i) => ids[i] !== bib || bits[i] !== b);
      if (at >= 0 || ids.length !== want.length)
        assert.fail(
          `key ${termId}: ${ids.length} postings in segments, ${want.length} in the documents; first difference at ${at}: ${ids[at]}/${bits[at]}, ${String(want[at])}`,
        );
    }
    // A counted key's df is its list's length (a bib counted once); other keys keep none.
    const keys = await testDb.db.query<{ id: number; key: string; df: number }>('select id, key, df from search_terms order by id');
    const wrong = keys.filter((k) => k.df !== (KEY.isCounted(k.key) ? (postings.get(k.id)?.length ?? 0) : 0));
    if (wrong.length)
      assert.fail(
        `${wrong.length} keys' df wrong, first ${wrong[0]!.key}: ${wrong[0]!.df} for ${postings.get(wrong[0]!.id)?.length ?? 0} bibs`,
      );
    return stored.length;
  }

  before(async () => {
    testDb = await createTestDb();
    bibs = new BibService(testDb.db, new ItemService(testDb.db));
    await importSharedRecords(testDb.db);
    // Written records sharing a word, enough for its lists to take several segments.
    const written: MarcRecord[] = Array.from({ length: 2 * SEGMENT_POSTINGS + 40 }, (_, i) => ({
      leader: '00000nam a2200000 i 4500',
      fields: [{ tag: '001', value: `seg-${i}` }, df('245', ['a', `Quillon fens ${i % 2 ? 'north' : 'south'} volume ${i}`])],
    }));
    await importRecords(testDb.db, [{ name: 'written', records: written.map((record, i) => ({ position: `written ${i + 1}`, record })) }], {
      itemMap: null,
    });
    await drainQueue(testDb.db);
  });
  after(() => testDb?.drop());

  it('holds each key’s postings as bibs are changed, suppressed, deleted and brought back, and after a rebuild', async () => {
    const segments = await checkIndex();
    const [{ n }] = (await testDb.db.query<{ n: number }>(
      'select count(*)::int as n from search_terms t where (select count(*) from search_segments s where s.term_id = t.id) > 1',
    )) as [{ n: number }];
    assert.ok(n > 0, `${segments} segments, ${n} keys of more than one`);

    const ids = (await testDb.db.query<{ id: string }>('select id::text from bibs order by id')).map((r) => r.id);
    // Spread over all the bibs, the written ones among them.
    const every = (k: number, from: number) => ids.filter((_, i) => i % k === from);
    assert.ok(ids.length > 29 * 30, `${ids.length} bibs`);
    // Titles changed (new keys, weights moved), some bibs suppressed (they leave every list, from
    // the middle), some deleted.
    for (const id of every(29, 1)) {
      const marc = await bibs.marc(id);
      marc.fields = marc.fields.filter((f) => f.tag !== '245').concat(df('245', ['a', 'Segmented quillon atlas of history']));
      await bibs.replace(id, { marc });
    }
    for (const id of every(29, 3)) await bibs.replace(id, { marc: await bibs.marc(id), suppressed: true });
    for (const id of every(29, 5)) await bibs.delete(id);
    await drainQueue(testDb.db);
    await checkIndex();
    // Brought back: added again in the middle of their lists.
    for (const id of every(29, 3)) await bibs.replace(id, { marc: await bibs.marc(id), suppressed: false });
    await drainQueue(testDb.db);
    await checkIndex();

    await rebuildIndex(testDb.db);
    await checkIndex();
  });
});
