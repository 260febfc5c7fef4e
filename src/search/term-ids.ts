// A document's key ids (search_docs.term_ids): the keys its postings were written under, kept so that
// when the bib changes its old postings can be found and taken out of their lists (the lists are
// only in compressed segments, not searchable by bib). Stored as bytes, the ids ascending, each as
// its difference from the one before (the first from 0) in unsigned LEB128, 7 bits a byte, lowest
// first: about 90 bytes for a bib's 70 keys, where an int[] took 305 (21 MB less at 100,000 bibs).
import { writeVarint } from './varint.ts';

/** The largest id: search_terms.id is an integer. */
const MAX_ID = 2 ** 31 - 1;

/** The ids (distinct, 1 to 2^31 - 1, in any order) as bytes. */
export function encodeTermIds(ids: readonly number[]): Uint8Array {
  const sorted = Int32Array.from(ids).sort();
  const out = new Uint8Array(sorted.length * 5);
  let p = 0;
  let previous = 0;
  for (const id of sorted) {
    if (id <= previous) throw new RangeError(`key id ${id} is repeated or not above 0`);
    if (id > MAX_ID) throw new RangeError(`key id ${id} is above ${MAX_ID}`);
    p = writeVarint(out, p, id - previous);
    previous = id;
  }
  return out.subarray(0, p);
}

/** The ids, ascending, from the bytes encodeTermIds made. */
export function decodeTermIds(bytes: Uint8Array): number[] {
  const ids: number[] = [];
  let previous = 0;
  let delta = 0;
  let shift = 1;
  for (const byte of bytes) {
    delta += (byte & 0x7f) * shift;
    if (byte & 0x80) {
      shift *= 0x80;
      if (shift > 2 ** 28) throw new RangeError('malformed term ids: a varint longer than 5 bytes');
      continue;
    }
    previous += delta;
    if (previous > MAX_ID) throw new RangeError(`malformed term ids: ${previous} is above ${MAX_ID}`);
    ids.push(previous);
    delta = 0;
    shift = 1;
  }
  if (shift !== 1) throw new RangeError('malformed term ids: truncated');
  return ids;
}

/** The ids as a bytea literal ('\x…'), for COPY text or a text parameter cast to bytea. */
export function termIdsLiteral(ids: readonly number[]): string {
  return `\\x${Buffer.from(encodeTermIds(ids)).toString('hex')}`;
}
