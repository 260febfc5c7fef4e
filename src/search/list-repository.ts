// The SQL that reads keys' whole posting lists out of search_postings row by row, and the binary
// form a list is sent in (parsePostings: a rebuild reads its lists back in it to cut them into
// segments). Searches read the compressed segments instead (segment-repository.ts).
import type { Queryable } from '../db/types.ts';

/** A key's list as read: its version (in the same snapshot as its postings), bibs ascending, weights. */
export interface ReadList {
  termId: number;
  version: number;
  bibs: Int32Array;
  weights: Float32Array;
}

/**
 * A key's postings (of rows s) as one bytea, int4send(bib) || float4send(weight) each, in bib order:
 * what parsePostings reads.
 */
export const POSTINGS_AGG = `string_agg(int4send(s.bib_id) || float4send(s.weight), ''::bytea order by s.bib_id)`;

/** Bytes of one posting as the statement sends it: its bib (int4send) then its weight (float4send). */
const POSTING_BYTES = 8;

/**
 * The lists of these keys, each with its version read in the same statement: a list is never
 * paired with a version other than its own. Keys that do not exist are left out; a key without
 * postings comes with empty arrays.
 */
export async function readPostingLists(db: Queryable, termIds: readonly number[]): Promise<ReadList[]> {
  // Each posting as 8 bytes of binary (big-endian), the list one bytea a key sent as base64 text:
  // Node decodes it natively and parses it without a value made per posting, and a weight arrives
  // with its float4 bits exactly. Of the forms measured for a 50,000-posting list (bench/list-read.ts,
  // figures in bench/README.md) it was the fastest or near it on both engines; the embedded engine
  // turns a bytea column into bytes far more slowly, and both read arrays or text of numbers slower.
  const rows = await db.query<{ term_id: number; version: string; postings: string | null }>(
    `select t.id as term_id, t.version, encode(p.postings, 'base64') as postings
       from search_terms t
       cross join lateral (
         select ${POSTINGS_AGG} as postings
           from search_postings s where s.term_id = t.id) p
      where t.id = any($1::int[])`,
    [termIds],
  );
  return rows.map((row) => ({
    termId: row.term_id,
    version: Number(row.version), // a bigint, sent as text (Term.version)
    ...parsePostings(row.postings === null ? null : Buffer.from(row.postings, 'base64')),
  }));
}

/** The bibs and weights of a list sent as int4send(bib) || float4send(weight) per posting. */
export function parsePostings(bytes: Uint8Array | null): { bibs: Int32Array; weights: Float32Array } {
  const length = bytes ? bytes.byteLength : 0;
  if (length % POSTING_BYTES !== 0) throw new Error(`a posting list of ${length} bytes is not whole postings`);
  const n = length / POSTING_BYTES;
  const bibs = new Int32Array(n);
  const weights = new Float32Array(n);
  if (!bytes) return { bibs, weights };
  const bits = new Uint32Array(weights.buffer);
  const view = new DataView(bytes.buffer, bytes.byteOffset, length);
  for (let i = 0, p = 0; i < n; i++, p += POSTING_BYTES) {
    bibs[i] = view.getInt32(p);
    bits[i] = view.getUint32(p + 4);
  }
  return { bibs, weights };
}
