// A doc's key ids as bytes (src/search/term-ids.ts): read back as written, malformed bytes refused,
// and the docs of an index made before the format converted by migration 0080 to what the indexer
// writes now, so an upgraded index needs no rebuild.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listMigrations, migrate } from '../../src/db/migrate.ts';
import { openPGlite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { decodeTermIds, encodeTermIds } from '../../src/search/term-ids.ts';
import { createEmptyPgDatabase, ENGINE, PG_URL } from '../helpers/db.ts';
import { installDocTermIds } from '../helpers/term-ids-sql.ts';

/** Sets of ids of every varint length, from 1 to the largest int4, in no order. */
function idSets(): number[][] {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const sets: number[][] = [[], [1], [2 ** 31 - 1], [1, 127, 128, 16383, 16384, 2 ** 21 - 1, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 2 ** 31 - 1]];
  for (let n = 0; n < 40; n++) {
    const set = new Set<number>();
    const range = [200, 20_000, 3_000_000, 2 ** 31 - 1][n % 4]!;
    for (let k = 0; k < 1 + n * 3; k++) set.add(1 + Math.floor(random() * range));
    sets.push([...set]);
  }
  return sets;
}

const ascending = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe('term ids as bytes', () => {
  it('read back as written, ascending, one to five bytes an id', () => {
    for (const ids of idSets()) assert.deepEqual(decodeTermIds(encodeTermIds(ids)), ascending(ids));
    assert.deepEqual([...encodeTermIds([300, 1, 2])], [1, 1, 0x80 | (298 & 0x7f), 298 >> 7]);
    assert.equal(encodeTermIds([2 ** 31 - 1]).length, 5);
  });

  it('refuse a repeated id, an id below 1, and truncated or overlong bytes', () => {
    assert.throws(() => encodeTermIds([5, 5]), RangeError);
    assert.throws(() => encodeTermIds([0]), RangeError);
    assert.throws(() => decodeTermIds(Uint8Array.of(1, 0x80)), /truncated/);
    assert.throws(() => decodeTermIds(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x07, 1)), /above 2147483647/);
    assert.throws(() => decodeTermIds(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 1)), /longer than 5 bytes/);
  });
});

describe(`migration 0080 on ${ENGINE}`, () => {
  it('converts every doc’s int[] of key ids to the bytes the indexer writes', async () => {
    const empty = PG_URL ? await createEmptyPgDatabase() : undefined;
    const db = empty ? openPostgres(empty.url, { max: 1, connectTimeoutSec: 5 }) : await openPGlite({});
    try {
      const all = listMigrations();
      await migrate(
        db,
        all.filter((m) => m.version < 80),
      );
      const sets = idSets();
      await db.query(
        `insert into search_docs (bib_id, title, words, sort_title, terms, version)
         select n, '', '', '', k::int[], 1 from unnest($1::text[]) with ordinality as u(k, n)`,
        [sets.map((ids) => `{${ids.join(',')}}`)],
      );
      await migrate(db, all);
      const docs = await db.query<{ bib_id: string; term_ids: Uint8Array }>(
        'select d.bib_id::text, d.term_ids from search_docs d order by d.bib_id',
      );
      assert.equal(docs.length, sets.length);
      for (const [i, doc] of docs.entries()) {
        assert.deepEqual([...doc.term_ids], [...encodeTermIds(sets[i]!)], `doc ${doc.bib_id}: the indexer's bytes`);
      }
      // The tests' SQL decoder reads them too.
      await installDocTermIds(db);
      const decoded = await db.query<{ ids: number[] }>('select doc_term_ids(term_ids) as ids from search_docs order by bib_id');
      assert.deepEqual(
        decoded.map((r) => r.ids),
        sets.map(ascending),
      );
    } finally {
      await db.close();
      await empty?.drop();
    }
  });
});
