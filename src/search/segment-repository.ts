// The SQL of the keys' compressed list segments (search_segments, segments.ts): those the indexer
// rewrites, written back, and whole lists read for searches to evaluate in Node.
import type { Queryable } from '../db/types.ts';
import type { Segment } from './segments.ts';

export const SEGMENTS = 'search_segments';

/** Bytes sent as base64 text both ways: a bytea (or bytea[]) value is not sent or read alike by both engines' clients. */
const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/**
 * For each key and bib, the first segment of the key whose last bib is at or after the bib, and
 * each key's last segment: those a change of these bibs falls in (segments.ts, applyChanges).
 * Each segment once (a key's last segment may also be the first after one of its bibs).
 */
export async function segmentsAt(tx: Queryable, termIds: readonly number[], bibs: readonly number[]): Promise<Segment[]> {
  if (termIds.length === 0) return [];
  const rows = await tx.query<{ term_id: number; last_bib: number; postings: string }>(
    `select s.term_id, s.last_bib, encode(s.postings, 'base64') as postings
       from unnest($1::int[], $2::int[]) as k(term_id, bib)
       cross join lateral (select * from ${SEGMENTS} s where s.term_id = k.term_id and s.last_bib >= k.bib order by s.last_bib limit 1) s
     union all
     select s.term_id, s.last_bib, encode(s.postings, 'base64')
       from (select distinct unnest($1::int[]) as term_id) as k
       cross join lateral (select * from ${SEGMENTS} s where s.term_id = k.term_id order by s.last_bib desc limit 1) s`,
    [termIds, bibs],
  );
  const once = new Map(rows.map((r) => [`${r.term_id}:${r.last_bib}`, r]));
  return [...once.values()].map((r) => ({ termId: r.term_id, last: r.last_bib, postings: Buffer.from(r.postings, 'base64') }));
}

/** Deletes these segments, then writes these (the same name may be in both: the new one stays). */
export async function replaceSegments(
  tx: Queryable,
  deleted: readonly { termId: number; last: number }[],
  written: readonly Segment[],
  table = SEGMENTS,
): Promise<void> {
  if (deleted.length)
    await tx.query(
      `delete from ${table} s using unnest($1::int[], $2::int[]) as d(term_id, last_bib) where s.term_id = d.term_id and s.last_bib = d.last_bib`,
      [deleted.map((d) => d.termId), deleted.map((d) => d.last)],
    );
  if (written.length)
    await tx.query(
      `insert into ${table} (term_id, last_bib, postings) select t, l, decode(p, 'base64') from unnest($1::int[], $2::int[], $3::text[]) as u(t, l, p)`,
      [written.map((s) => s.termId), written.map((s) => s.last), written.map((s) => base64(s.postings))],
    );
}

/** A key's segments as read, with the key's version read in the same statement. */
export interface SegmentedList {
  termId: number;
  /** The key the id names now (a rebuild numbers the keys anew). */
  key: string;
  version: number;
  segments: Uint8Array[];
}

/**
 * The segments of these keys, each key with its version read in the same statement: a list is
 * never paired with a version other than its own. Keys that do not exist are left out; a key
 * without postings comes with no segments.
 */
export async function readSegmentedLists(db: Queryable, termIds: readonly number[]): Promise<SegmentedList[]> {
  // Each segment preceded by its length (int4send), a key's segments one bytea sent as base64 text:
  // Node decodes base64 natively, where the embedded engine turns a bytea column into bytes slowly.
  // (A version is a bigint, which both engines' clients send as text.)
  const rows = await db.query<{ term_id: number; key: string; version: string; segments: string | null }>(
    `select t.id as term_id, t.key, t.version, encode(s.segments, 'base64') as segments
       from search_terms t
       cross join lateral (
         select string_agg(int4send(length(s.postings)) || s.postings, ''::bytea order by s.last_bib) as segments
           from ${SEGMENTS} s where s.term_id = t.id) s
      where t.id = any($1::int[])`,
    [termIds],
  );
  return rows.map((row) => ({
    termId: row.term_id,
    key: row.key,
    version: Number(row.version),
    // Copied out of the decoded Buffer: a small one is a slice of Node's shared 8 KB pool, which a
    // kept list would hold whole while the cache counts only the list's bytes.
    segments: row.segments === null ? [] : split(new Uint8Array(Buffer.from(row.segments, 'base64'))),
  }));
}

/** Segments sent each after its length (4 bytes, big-endian). */
function split(bytes: Uint8Array): Uint8Array[] {
  const segments: Uint8Array[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at < bytes.length;) {
    const length = view.getUint32(at);
    segments.push(bytes.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return segments;
}
