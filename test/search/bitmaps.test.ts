// The longer stem lists keep bitmaps (src/search/bitmaps.ts), which searches of several words read
// instead of probing the lists. A bitmap must hold exactly its list's bibs after every change the
// indexer makes, and after a rebuild; lists get and lose bitmaps as their lengths cross the
// threshold; and searches answer the same with or without them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '../../src/db/types.ts';
import { bitmapCte, bitmapHas, bitmapJoin, writeChunks } from '../../src/search/bitmap-repository.ts';
import { bitmapThreshold, chunksOf } from '../../src/search/bitmaps.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { ASSEMBLE_BITMAPS_FROM, planSearch, POOL_SIZE, readSearch } from '../../src/search/plan.ts';
import { countCommon, terms } from '../../src/search/ranking-repository.ts';
import { rebuildIndex } from '../../src/search/rebuild.ts';
import { SearchService } from '../../src/search/service.ts';
import { stem } from '../../src/search/text.ts';
import type { CountQuery } from '../../src/search/types.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { importGenerated } from '../helpers/generated.ts';

const BIBS = 600;

/** Every way the bitmaps can differ from the lists, as readable lines (none when they agree). */
async function differences(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ row: string }>(`
    with bits as (select b.term_id, b.chunk::bigint * 4096 + i as bib_id from search_bitmaps b cross join generate_series(0, 4095) as i where get_bit(b.bits, i) = 1),
    lists as (select p.term_id, p.bib_id from search_postings p join search_terms t on t.id = p.term_id where t.bitmap)
    select 'bit without entry ' || term_id || ' ' || bib_id as row from (select * from bits except select * from lists) x
    union all select 'entry without bit ' || term_id || ' ' || bib_id from (select * from lists except select * from bits) y
    union all select 'chunk of a key without bitmap ' || b.term_id from search_bitmaps b join search_terms t on t.id = b.term_id where not t.bitmap
    union all select 'empty chunk ' || term_id || ' ' || chunk from search_bitmaps where bits = decode(repeat('00', 512), 'hex')
    union all select 'bitmap of a key that is not a stem key ' || key from search_terms where bitmap and key not like '_~%'`);
  return rows.map((r) => r.row);
}

/** The stem keys with and without bitmaps, against the threshold of the catalogue as it is. */
async function coverage(db: Queryable): Promise<{ threshold: number; missing: string[]; kept: string[]; count: number }> {
  const [span] = await db.query<{ n: number }>('select (max(bib_id) - min(bib_id) + 1)::int as n from search_docs');
  const threshold = bitmapThreshold(span!.n);
  const missing = await db.query<{ key: string }>("select key from search_terms where key like '_~%' and df >= $1 and not bitmap", [
    threshold,
  ]);
  const kept = await db.query<{ key: string }>('select key from search_terms where bitmap and df < $1', [threshold / 2]);
  const [count] = await db.query<{ n: number }>('select count(*)::int as n from search_terms where bitmap');
  return { threshold, missing: missing.map((r) => r.key), kept: kept.map((r) => r.key), count: count!.n };
}

/** The bibs in every one of a count's lists whose words have its phrases, counted without the bitmaps or the count's own SQL. */
async function referenceCount(db: Queryable, c: CountQuery): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from search_docs d
     where (select count(distinct p.term_id) from search_postings p where p.bib_id = d.bib_id and p.term_id = any($1::int[])) = cardinality(array(select distinct unnest($1::int[])))
       and (select bool_and(strpos(d.words, phrase) > 0) from unnest($2::text[]) as phrase) is not false`,
    [c.termIds, c.phrases],
  );
  return row!.n;
}

/** The count a search of `text` plans (its lists rarest first, those with bitmaps, its phrases). */
async function countOf(db: Queryable, text: string): Promise<CountQuery> {
  const search = readSearch({ text, limit: 10, offset: 0 })!;
  const stats = await terms(db, search.keys);
  const plan = planSearch(
    search,
    { text, limit: 10, offset: 0 },
    { terms: stats.terms },
    { poolSize: POOL_SIZE, assembleBitmapsFrom: ASSEMBLE_BITMAPS_FROM },
  );
  assert.equal(plan.kind, 'pool', text);
  assert.equal(typeof plan.total, 'object', `${text}: counted`);
  return plan.total as CountQuery;
}

const QUERIES = [
  'history fiction',
  'history united states',
  'juvenile fiction',
  'new york',
  '"juvenile literature"',
  'love stories',
  'social life customs',
];

describe(`search bitmaps on ${ENGINE}`, () => {
  let t: TestDb;
  let search: SearchService;
  before(async () => {
    t = await createTestDb();
    await importGenerated(t.db, 11, BIBS);
    await drainQueue(t.db);
    search = new SearchService(t.db, 5);
  });
  after(() => t.drop());

  it('gives every list long enough a bitmap holding exactly its bibs', async () => {
    const { threshold, missing, kept, count } = await coverage(t.db);
    assert.equal(threshold, 16, 'a small catalogue takes the least threshold');
    assert.ok(count > 50, `many lists have bitmaps (${count})`);
    assert.deepEqual(missing, []);
    assert.deepEqual(kept, []);
    assert.deepEqual(await differences(t.db), []);
  });

  it('keeps them exact as bibs are changed, suppressed and deleted, and makes and drops them as lists cross the threshold', async () => {
    const ids = (await t.db.query<{ id: string }>('select id::text from bibs order by id')).map((r) => r.id);
    // A new word in 30 bibs: its list crosses the threshold (16) and gets a bitmap.
    const thirty = ids.filter((_, i) => i % 19 === 0).slice(0, 30);
    await t.db.query(
      `update bibs set marc = jsonb_set(marc::jsonb, '{fields}', (marc::jsonb->'fields') || '[{"500": {"ind1": " ", "ind2": " ", "subfields": [{"a": "Quizzaciously annotated."}]}}]'::jsonb)::json
      where id = any($1::bigint[])`,
      [thirty],
    );
    // Others change in other ways, in the same batches.
    await t.db.query('update bibs set suppressed = true where id = any($1::bigint[])', [ids.filter((_, i) => i % 7 === 3)]);
    await t.db.query('update bibs set deleted_date = now() where id = any($1::bigint[])', [ids.filter((_, i) => i % 11 === 5)]);
    await drainQueue(t.db);
    const searchable = async () =>
      (
        await t.db.query<{ n: number }>(
          'select count(*)::int as n from bibs where id = any($1::bigint[]) and deleted_date is null and not suppressed',
          [thirty],
        )
      )[0]!.n;
    const word = async () =>
      (
        await t.db.query<{ bitmap: boolean; df: number }>('select bitmap, df from search_terms where key = $1', [
          `*~${stem('quizzaciously')}`,
        ])
      )[0];
    assert.ok((await searchable()) >= 16);
    assert.deepEqual(await word(), { bitmap: true, df: await searchable() });
    assert.deepEqual(await differences(t.db), []);
    // Back in all that are not deleted; then the word taken out of all but 12 (at least half the
    // threshold: kept), then all but 5 (dropped).
    await t.db.query('update bibs set suppressed = false where id = any($1::bigint[])', [ids.filter((_, i) => i % 7 === 3)]);
    const present = (
      await t.db.query<{ id: string }>('select id::text from bibs where id = any($1::bigint[]) and deleted_date is null order by id', [
        thirty,
      ])
    ).map((r) => r.id);
    const strip = async (keep: number) => {
      await t.db.query(
        `update bibs set marc = jsonb_set(marc::jsonb, '{fields}',
          coalesce((select jsonb_agg(f) from jsonb_array_elements(marc::jsonb->'fields') as f where f::text not like '%Quizzaciously%'), '[]'))::json
        where id = any($1::bigint[])`,
        [present.slice(keep)],
      );
      await drainQueue(t.db);
      return word();
    };
    assert.deepEqual(await strip(12), { bitmap: true, df: 12 });
    assert.deepEqual(await differences(t.db), []);
    assert.deepEqual(await strip(5), { bitmap: false, df: 5 });
    assert.equal(
      (
        await t.db.query('select 1 from search_bitmaps b join search_terms t on t.id = b.term_id where t.key = $1', [
          `*~${stem('quizzaciously')}`,
        ])
      ).length,
      0,
    );
    assert.deepEqual(await differences(t.db), []);
  });

  it('answers searches of several words alike with and without bitmaps', async () => {
    const withBitmaps = await Promise.all(QUERIES.map((text) => search.search({ text, limit: 12, offset: 3 })));
    assert.ok(
      withBitmaps.some((r) => r.total > 20),
      'some queries match many bibs',
    );
    const exhaustive = await Promise.all(QUERIES.map((text) => search.search({ text, limit: 12, offset: 3, exhaustive: true })));
    assert.deepEqual(
      withBitmaps.map((r) => r.total),
      exhaustive.map((r) => r.total),
    );
    // Each bitmap assembled into one value (a large pool's way), then joined by chunk (a small one's).
    for (const [threshold, assembles] of [
      [0, true],
      [Number.MAX_SAFE_INTEGER, false],
    ] as const) {
      const statements: string[] = [];
      const reading = new SearchService(
        { ...t.db, query: (text, params, options) => (statements.push(text), t.db.query(text, params, options)) },
        5,
        threshold,
      );
      assert.deepEqual(
        await Promise.all(QUERIES.map((text) => reading.search({ text, limit: 12, offset: 3 }))),
        withBitmaps,
        `assembled from ${threshold}`,
      );
      assert.equal(
        statements.some((text) => text.includes('from search_bitmaps where term_id')),
        assembles,
        `assembled from ${threshold}`,
      );
      assert.equal(
        statements.some((text) => text.includes('join search_bitmaps')),
        !assembles,
        `joined below ${threshold}`,
      );
    }
    const kept = (await t.db.query<{ id: number }>('select id from search_terms where bitmap')).map((r) => r.id);
    await t.db.query('update search_terms set bitmap = false where id = any($1::int[])', [kept]);
    try {
      assert.deepEqual(await Promise.all(QUERIES.map((text) => search.search({ text, limit: 12, offset: 3 }))), withBitmaps);
    } finally {
      await t.db.query('update search_terms set bitmap = true where id = any($1::int[])', [kept]);
    }
  });

  it('counts several lists alike by their bitmaps, by bits and probes, and by probes alone', async () => {
    const texts = [...QUERIES, 'fiction stories juvenile', '"united states" history'];
    let bitmapOnly = 0;
    for (const text of texts) {
      const count = await countOf(t.db, text);
      const expected = await referenceCount(t.db, count);
      if (count.phrases.length === 0 && count.termIds.every((id) => count.bitmaps.includes(id))) bitmapOnly++;
      // Every list with a bitmap read by it, then each list in turn read by probes, then none by bitmap; each way assembled and joined.
      const ways = [count.bitmaps, ...count.bitmaps.map((id) => count.bitmaps.filter((other) => other !== id)), []];
      for (const bitmaps of ways) {
        for (const assembleBitmaps of [true, false]) {
          assert.equal(
            await countCommon(t.db, { ...count, bitmaps, assembleBitmaps }),
            expected,
            `${text}: bitmaps ${JSON.stringify(bitmaps)} of ${JSON.stringify(count.termIds)}, ${assembleBitmaps ? 'assembled' : 'joined'}`,
          );
        }
      }
      assert.ok(expected > 0, `${text} matches`);
    }
    assert.ok(bitmapOnly >= 3, 'several counts are of bitmaps alone');
    // Through the service, nothing kept: the totals of the full evaluation. Keeping a count
    // commits without waiting for the disk, for its own statement only.
    await t.db.query('truncate search_counts');
    const counted = await Promise.all(texts.map((text) => search.search({ text, limit: 5, offset: 0 })));
    const exhaustive = await Promise.all(texts.map((text) => search.search({ text, limit: 5, offset: 0, exhaustive: true })));
    assert.deepEqual(
      counted.map((r) => r.total),
      exhaustive.map((r) => r.total),
    );
    assert.equal((await t.db.query('select 1 from search_counts')).length, texts.length, 'each count kept');
    // (Left set, it would stay for every later statement of the session.)
    const [setting] = await t.db.query<{ kept: boolean }>(
      "select setting = reset_val as kept from pg_settings where name = 'synchronous_commit'",
    );
    assert.equal(setting?.kept, true, "the session's own setting is kept");
  });

  it('counts bitmaps whose chunks lie far apart, a chunk one list lacks holding no match', async () => {
    // Lists of their own over fifteen chunks (the catalogue's ids fall in one or two), with
    // their postings: each bit in some chunks of both, in chunks of one only, at chunk edges.
    // (d has no bitmap: its list is read by probes.)
    const [a, b, c, d] = [2_000_000_010, 2_000_000_011, 2_000_000_012, 2_000_000_013];
    const lists = new Map([
      [a, [5, 4095, 4096, 4096 * 2 + 7, 4096 * 2 + 8, 4096 * 5 + 1, 4096 * 9, 4096 * 14 + 4095]],
      [b, [5, 6, 4096, 4096 * 2 + 8, 4096 * 3, 4096 * 9, 4096 * 9 + 1, 4096 * 14 + 4095]],
      [c, [5, 4096, 4096 * 2 + 8, 4096 * 9 + 1, 4096 * 14 + 4095]],
      [d, [5, 4096, 4096 * 3, 4096 * 9, 4096 * 14 + 4095]],
    ]);
    try {
      for (const [termId, ids] of lists) {
        if (termId !== d)
          await writeChunks(
            t.db,
            [...chunksOf(ids)].map(([chunk, bits]) => ({ termId, chunk, bits })),
          );
        await t.db.query('insert into search_postings (term_id, bib_id, weight) select $1, unnest($2::int[]), 1', [termId, ids]);
      }
      const inAll = (terms: number[]) => lists.get(terms[0]!)!.filter((id) => terms.every((term) => lists.get(term)!.includes(id))).length;
      for (const termIds of [
        [a, b],
        [b, a],
        [c, a, b],
        [a, b, c],
        [d, a],
        [a, d, b],
        [c, b, d],
      ]) {
        const withBitmaps = termIds.filter((id) => id !== d);
        for (const bitmaps of [withBitmaps, withBitmaps.slice(1), []]) {
          for (const assembleBitmaps of [true, false]) {
            assert.equal(
              await countCommon(t.db, { termIds, bitmaps, assembleBitmaps, phrases: [] }),
              inAll(termIds),
              `${JSON.stringify(termIds)}, bitmaps ${JSON.stringify(bitmaps)}, ${assembleBitmaps ? 'assembled' : 'joined'}`,
            );
          }
        }
      }
      assert.equal(inAll([a, b]), 5, 'the lists share some bibs and not others');
      assert.equal(inAll([a, d, b]), 4);
    } finally {
      await t.db.query('delete from search_bitmaps where term_id = any($1::int[])', [[...lists.keys()]]);
      await t.db.query('delete from search_postings where term_id = any($1::int[])', [[...lists.keys()]]);
    }
  });

  it('reads the bits of a bitmap whose chunks lie far apart, the chunks not kept as zeros', async () => {
    // (The catalogue's bib ids all fall in one or two chunks: this one spans thirteen, most not kept.)
    const termId = 2_000_000_000;
    const set = [4096 * 2 + 5, 4096 * 3 - 1, 4096 * 3, 4096 * 6 + 7, 4096 * 6 + 8, 4096 * 14 + 4095];
    await writeChunks(
      t.db,
      [...chunksOf(set)].map(([chunk, bits]) => ({ termId, chunk, bits })),
    );
    const probed = [
      ...new Set([...set, ...set.map((id) => id + 1), ...set.map((id) => id - 1), 0, 4096 * 2, 4096 * 10, 4096 * 15, 4096 * 40]),
    ];
    // Read both ways: assembled into one value, and joined by chunk.
    const ways = {
      assembled: `with ${bitmapCte('bm', '$1')} select u.id::text from unnest($2::bigint[]) as u(id) cross join bm where ${bitmapHas('bm', 'u.id')} order by u.id`,
      joined: `select u.id::text from unnest($2::bigint[]) as u(id) ${bitmapJoin('bm', '$1', 'u.id')} order by u.id`,
    };
    try {
      for (const [way, sql] of Object.entries(ways)) {
        const hasBit = (term: number) => t.db.query<{ id: string }>(sql, [term, probed]);
        assert.deepEqual(
          (await hasBit(termId)).map((r) => Number(r.id)),
          [...set].sort((a, b) => a - b),
          way,
        );
        assert.deepEqual(
          (await hasBit(termId + 1)).map((r) => r.id),
          [],
          `${way}: a key without chunks has no bit set`,
        );
      }
    } finally {
      await t.db.query('delete from search_bitmaps where term_id = $1', [termId]);
    }
  });

  it('is rebuilt exact by a whole reindex, every list long enough with a bitmap', async () => {
    const before = await Promise.all(QUERIES.map((text) => search.search({ text, limit: 12, offset: 0 })));
    await rebuildIndex(t.db);
    const { missing, kept, count } = await coverage(t.db);
    assert.ok(count > 50);
    assert.deepEqual(missing, []);
    assert.deepEqual(kept, []);
    assert.deepEqual(await differences(t.db), []);
    assert.deepEqual(await Promise.all(QUERIES.map((text) => search.search({ text, limit: 12, offset: 0 }))), before);
  });
});
