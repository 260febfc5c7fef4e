// SQL for the stem lists' bitmaps (bitmaps.ts, migration 0018).
import type { Queryable } from '../db/types.ts';
import { CHUNK_BITS, CHUNK_BYTES, isEmpty } from './bitmaps.ts';

/** The tables a bitmap's key, list and chunks are in: the index's own, or a rebuild's. */
export interface BitmapTables {
  terms: string;
  postings: string;
  docs: string;
  bitmaps: string;
}
export const INDEX_TABLES: BitmapTables = {
  terms: 'search_terms',
  postings: 'search_postings',
  docs: 'search_docs',
  bitmaps: 'search_bitmaps',
};

/** PostgreSQL answers bytea as a Buffer, the embedded engine as a Uint8Array. */
const buffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** How many bib ids the indexed bibs span (last - first + 1; 0 when none). */
export async function idSpan(db: Queryable, tables = INDEX_TABLES): Promise<number> {
  const [row] = await db.query<{ first: string | null; last: string | null }>(
    `select min(bib_id)::text as first, max(bib_id)::text as last from ${tables.docs}`,
  );
  return row?.first == null || row.last == null ? 0 : Number(row.last) - Number(row.first) + 1;
}

/**
 * The bib ids of these lists, packed (8 bytes each, in bib order: bitmaps.ts, bibIdsOf): a list of
 * 700,000 bibs as one value instead of 700,000 rows.
 */
export async function packedBibIds(db: Queryable, termIds: number[], tables = INDEX_TABLES): Promise<Map<number, Buffer>> {
  const rows = await db.query<{ term_id: number; ids: Uint8Array }>(
    `select term_id, string_agg(int8send(bib_id::bigint), ''::bytea order by bib_id) as ids from ${tables.postings}
     where term_id = any($1::int[]) group by term_id`,
    [termIds],
    { prepared: false },
  );
  return new Map(rows.map((r) => [r.term_id, buffer(r.ids)]));
}

export interface Chunk {
  termId: number;
  chunk: number;
  bits: Buffer;
}

export const chunkKey = (termId: number, chunk: number): string => `${termId}:${chunk}`;

/** These chunks as they are kept, by "termId:chunk" (a chunk not kept has no bit set). */
export async function readChunks(db: Queryable, wanted: { termId: number; chunk: number }[]): Promise<Map<string, Buffer>> {
  if (wanted.length === 0) return new Map();
  const rows = await db.query<{ term_id: number; chunk: number; bits: Uint8Array }>(
    `select b.term_id, b.chunk, b.bits from search_bitmaps b join unnest($1::int[], $2::int[]) as w(term_id, chunk)
       on b.term_id = w.term_id and b.chunk = w.chunk`,
    [wanted.map((w) => w.termId), wanted.map((w) => w.chunk)],
  );
  return new Map(rows.map((r) => [chunkKey(r.term_id, r.chunk), buffer(r.bits)]));
}

/** Keeps these chunks, replacing them where kept; a chunk with no bit set is deleted instead. */
export async function writeChunks(db: Queryable, chunks: Chunk[], tables = INDEX_TABLES): Promise<void> {
  const kept: Chunk[] = [];
  const empty: Chunk[] = [];
  for (const c of chunks) (isEmpty(c.bits) ? empty : kept).push(c);
  if (kept.length) {
    // Hex text: a bytea[] parameter is not sent alike by both engines' clients.
    await db.query(
      `insert into ${tables.bitmaps} (term_id, chunk, bits) select t, c, decode(h, 'hex') from unnest($1::int[], $2::int[], $3::text[]) as u(t, c, h)
       on conflict (term_id, chunk) do update set bits = excluded.bits`,
      [kept.map((c) => c.termId), kept.map((c) => c.chunk), kept.map((c) => c.bits.toString('hex'))],
    );
  }
  if (empty.length) {
    await db.query(
      `delete from ${tables.bitmaps} b using unnest($1::int[], $2::int[]) as e(term_id, chunk) where b.term_id = e.term_id and b.chunk = e.chunk`,
      [empty.map((c) => c.termId), empty.map((c) => c.chunk)],
    );
  }
}

/** Marks these keys' bitmaps as kept (their chunks written in the same transaction). */
export async function markBitmaps(db: Queryable, termIds: number[], tables = INDEX_TABLES): Promise<void> {
  if (termIds.length) await db.query(`update ${tables.terms} set bitmap = true where id = any($1::int[])`, [termIds]);
}

/** Drops these keys' bitmaps: searches probe their lists again. */
export async function dropBitmaps(db: Queryable, termIds: number[]): Promise<void> {
  if (termIds.length === 0) return;
  await db.query('delete from search_bitmaps where term_id = any($1::int[])', [termIds]);
  await db.query('update search_terms set bitmap = false where id = any($1::int[])', [termIds]);
}

/**
 * A key's whole bitmap as one value, for a search statement: a CTE (name) of one row, `first` (the
 * bib id of its first bit) and `bits`, or of none when the list is empty. Missing chunks are zeros.
 * The value is made once per statement and read in place (bitmapHas), however many bibs are checked:
 * for thousands of bibs the cheaper way. Assembling costs about 0.3 ms for a list of 245 chunks,
 * which is as much again as checking a few hundred bibs by bitmapJoin.
 */
export function bitmapCte(name: string, termParam: string): string {
  // The chunks are concatenated in the order the subquery reads them from the key's index, each
  // after the zeros of the chunks missing before it. (string_agg's own "order by" sorted the
  // chunks again, and filling the gaps by a join with every chunk number took as long again: 1.8
  // ms for a list of 245 chunks, against 0.4 ms.)
  return `${name} as materialized (
      select min(c.chunk)::bigint * ${CHUNK_BITS} as first,
        string_agg(case when c.chunk = c.previous + 1 then c.bits else decode(repeat('00', ${CHUNK_BYTES} * (c.chunk - c.previous - 1)), 'hex') || c.bits end, ''::bytea) as bits
      from (select chunk, bits, lag(chunk, 1, chunk - 1) over (order by chunk) as previous
            from search_bitmaps where term_id = ${termParam} order by chunk) as c
      having count(*) > 0)`;
}

/**
 * Whether the bib `bib` (an expression) has its bit set in the bitmap CTE `name`. (A CASE, since
 * PostgreSQL may reorder the conditions of a WHERE clause's AND, cheapest first, and read a bit
 * past the bitmap's end.)
 */
export function bitmapHas(name: string, bib: string): string {
  return `(case when ${bib} >= ${name}.first and ${bib} < ${name}.first + 8 * length(${name}.bits) then get_bit(${name}.bits, ${bib} - ${name}.first) = 1 else false end)`;
}

/**
 * A key's bitmap joined as `name` (the cheaper way for a few hundred bibs, see bitmapCte): the rows
 * whose bib `bib` (an expression) has its bit set in the key (`termParam`, a placeholder). Each row
 * meets its bib's chunk (a missing chunk has no bit set, so its bibs go) and reads the bit there;
 * PostgreSQL hashes the key's chunks, or looks each bib's up. (Every chunk is CHUNK_BYTES long, so
 * the bit read is always in it.)
 */
export function bitmapJoin(name: string, termParam: string, bib: string): string {
  return `join search_bitmaps ${name} on ${name}.term_id = ${termParam} and ${name}.chunk = (${bib} / ${CHUNK_BITS})::int
      and get_bit(${name}.bits, (${bib} % ${CHUNK_BITS})::int) = 1`;
}

/** A list's bitmap in a statement: its key id, the placeholder holding it, the name it is read as. */
export interface Bitmap {
  id: number;
  param: string;
  name: string;
}

/**
 * How a statement reads the bitmap `b` for the bib `bib`: what the bib's row is joined to (from),
 * and the condition, if any, it must then meet (check). Assembled, `b.name` must be a bitmapCte.
 */
export function bitmapRead(b: Bitmap, assembled: boolean, bib: string): { from: string; check?: string } {
  return assembled ? { from: `cross join ${b.name}`, check: bitmapHas(b.name, bib) } : { from: bitmapJoin(b.name, b.param, bib) };
}

/**
 * How many bib ids have their bit set in every one of these keys' bitmaps (`termParams`,
 * placeholders; the first the rarest): their chunks met by chunk number, AND-ed and their bits
 * counted, a chunk missing from one having no bit set. PostgreSQL has no AND of bytea, so each
 * chunk is read as a bit string through its hex text: about a microsecond a chunk, where the
 * bibs of those chunks cost one probe each.
 */
export function bitmapsCount(termParams: string[]): string {
  const bits = termParams.map((_, i) => `('x' || encode(b${i}.bits, 'hex'))::bit(${CHUNK_BITS})`);
  const joins = termParams
    .slice(1)
    .map((param, i) => `join search_bitmaps b${i + 1} on b${i + 1}.term_id = ${param} and b${i + 1}.chunk = b0.chunk`);
  return `select coalesce(sum(bit_count(${bits.join(' & ')})), 0)::int as n from search_bitmaps b0 ${joins.join(' ')} where b0.term_id = ${termParams[0]}`;
}
