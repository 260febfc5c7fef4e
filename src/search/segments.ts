// Each key's posting list as the database keeps it: compressed (posting-blocks.ts), cut into
// segments of a few hundred postings in bib order, a row each (search_segments), so that indexing
// a bib rewrites one small segment of each of its keys, not a whole list, and a list is read in a
// few rows, not a row per posting. A segment is named by its key and its last bib: a bib belongs to
// the first segment whose last bib is at or after it, or to the key's last segment when it comes
// after them all.
import { decodePostings, encodePostings } from './posting-blocks.ts';

/** The most postings a segment holds: a few hundred keep one below a kilobyte or two, stored inline. */
export const SEGMENT_POSTINGS = 512;

export interface Segment {
  termId: number;
  /** Its last bib: with termId, its name. */
  last: number;
  /** Its postings, encoded (posting-blocks.ts). */
  postings: Uint8Array;
}

/** A key's list cut into segments of at most `size` postings. */
export function cutSegments(termId: number, bibs: Int32Array, weights: Float32Array, size = SEGMENT_POSTINGS): Segment[] {
  const segments: Segment[] = [];
  // Equal parts, none over `size`: a list one over the size makes two halves, not a full one and one of a single posting.
  const parts = Math.ceil(bibs.length / size);
  for (let p = 0; p < parts; p++) {
    const from = Math.floor((p * bibs.length) / parts);
    const to = Math.floor(((p + 1) * bibs.length) / parts);
    segments.push({ termId, last: bibs[to - 1]!, postings: encodePostings(bibs.subarray(from, to), weights.subarray(from, to)) });
  }
  return segments;
}

/** A key's changes: each bib's new weight, or null where the bib leaves the list. */
export type ListChanges = Map<number, number | null>;

/** The segments to delete (by last bib) and those to write, of one key. */
export interface SegmentWrites {
  deleted: { termId: number; last: number }[];
  written: Segment[];
}

/**
 * A key's segments after its changes. `read` must hold, for every bib changed, the first segment
 * whose last bib is at or after it, and the key's last segment (any others are left as they are).
 * Only the segments a change falls in are rewritten; one that grows past SEGMENT_POSTINGS is cut in
 * halves (room to grow again), one left empty is deleted.
 */
export function applyChanges(termId: number, read: readonly Segment[], changes: ListChanges): SegmentWrites {
  const segments = [...read].sort((a, b) => a.last - b.last);
  const byBib = [...changes].sort((a, b) => a[0] - b[0]);
  const into = new Map<number, [number, number | null][]>();
  let s = 0;
  for (const change of byBib) {
    while (s < segments.length - 1 && segments[s]!.last < change[0]) s++;
    const at = segments.length === 0 ? -1 : s;
    const list = into.get(at);
    if (list) list.push(change);
    else into.set(at, [change]);
  }
  const writes: SegmentWrites = { deleted: [], written: [] };
  for (const [at, list] of into) {
    const old = at < 0 ? { bibs: new Int32Array(0), weights: new Float32Array(0) } : decodePostings(segments[at]!.postings);
    if (at >= 0) writes.deleted.push({ termId, last: segments[at]!.last });
    const merged = merge(old.bibs, old.weights, list);
    if (merged.bibs.length === 0) continue;
    const size = merged.bibs.length > SEGMENT_POSTINGS ? SEGMENT_POSTINGS / 2 : SEGMENT_POSTINGS;
    writes.written.push(...cutSegments(termId, merged.bibs, merged.weights, size));
  }
  return writes;
}

/** A segment's postings with the changes (in bib order) made: a bib added, its weight changed, or left out. */
function merge(bibs: Int32Array, weights: Float32Array, changes: [number, number | null][]): { bibs: Int32Array; weights: Float32Array } {
  const outBibs = new Int32Array(bibs.length + changes.length);
  const outWeights = new Float32Array(outBibs.length);
  let n = 0;
  let i = 0;
  for (const [bib, weight] of changes) {
    for (; i < bibs.length && bibs[i]! < bib; i++, n++) {
      outBibs[n] = bibs[i]!;
      outWeights[n] = weights[i]!;
    }
    if (i < bibs.length && bibs[i] === bib) i++;
    if (weight === null) continue;
    outBibs[n] = bib;
    outWeights[n++] = weight;
  }
  for (; i < bibs.length; i++, n++) {
    outBibs[n] = bibs[i]!;
    outWeights[n] = weights[i]!;
  }
  return { bibs: outBibs.subarray(0, n), weights: outWeights.subarray(0, n) };
}
