// The longer stem lists keep bitmaps (src/search/bitmaps.ts). A bitmap must hold exactly its
// list's bibs after every change the indexer makes, and after a rebuild; lists get and lose
// bitmaps as their lengths cross the threshold.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '../../src/db/types.ts';
import { bitmapCte, bitmapHas, bitmapJoin, writeChunks } from '../../src/search/bitmap-repository.ts';
import { bitmapThreshold, chunksOf } from '../../src/search/bitmaps.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { rebuildIndex } from '../../src/search/rebuild.ts';
import { stem } from '../../src/search/text.ts';
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

describe(`search bitmaps on ${ENGINE}`, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
    await importGenerated(t.db, 11, BIBS);
    await drainQueue(t.db);
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
    await rebuildIndex(t.db);
    const { missing, kept, count } = await coverage(t.db);
    assert.ok(count > 50);
    assert.deepEqual(missing, []);
    assert.deepEqual(kept, []);
    assert.deepEqual(await differences(t.db), []);
  });
});
