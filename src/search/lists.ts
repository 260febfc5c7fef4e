// Keys' posting lists for a search to evaluate in Node: those this process keeps (list-cache.ts) at
// the versions asked for, the others read from their compressed segments (segments.ts) in one
// statement and kept. Only counted keys' lists (KEY.isCounted: stems and word pairs) are
// kept: the indexer moves a key's version when a bib joins or leaves it for those keys alone, so
// another key's list at the same version may differ, and is read every time.
import type { Queryable } from '../db/types.ts';
import type { ListCache } from './list-cache.ts';
import { readSegmentedLists } from './segment-repository.ts';
import { joinSegments } from './segments.ts';
import { BlockPostingList, encodePostings } from './posting-blocks.ts';
import type { PostingList } from './posting-list.ts';

/**
 * The lists of these keys, by key id, each at the version given (the caller's read of
 * search_terms.version) or, when it changed since, a newer one. A key that no longer exists has
 * no list in the answer.
 */
export async function readLists(
  db: Queryable,
  terms: readonly { id: number; version: number }[],
  cache: ListCache,
): Promise<Map<number, PostingList>> {
  const lists = new Map<number, PostingList>();
  const missing: number[] = [];
  for (const { id, version } of terms) {
    const list = cache.get(id, version);
    if (list) lists.set(id, list);
    else if (!lists.has(id)) missing.push(id);
  }
  if (missing.length === 0) return lists;
  for (const read of await readSegmentedLists(db, [...new Set(missing)])) {
    // Its segments made one buffer: a cursor then seeks across the whole list by its block headers.
    const whole = joinSegments(read.segments);
    const list = new BlockPostingList(encodePostings(whole.bibs, whole.weights));
    // Kept under the version read with the postings, which may be newer than the caller's.
    if (read.counted) cache.set(read.termId, read.version, list);
    lists.set(read.termId, list);
  }
  return lists;
}
