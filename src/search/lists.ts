// Keys' posting lists for a search to evaluate in Node: those this process keeps (list-cache.ts) at
// the versions asked for, the others read from their compressed segments (segments.ts) in one
// statement and kept. Every key's list is kept: its version (search_terms.version) is drawn anew
// from one sequence whenever its bibs change, and for every key a rebuild makes, so a key id at a
// version names one list only, whichever process read it.
import type { Queryable } from '../db/types.ts';
import type { ListCache } from './list-cache.ts';
import { readSegmentedLists } from './segment-repository.ts';
import { BlockPostingList } from './posting-blocks.ts';
import type { PostingList } from './posting-list.ts';
import { SegmentedPostingList } from './segmented-list.ts';

/**
 * The caller's read of the keys' ids is out of date: a rebuild swapped in since, and an id now
 * names another key, or none. Read the keys again.
 */
export class KeysRenumbered extends Error {
  constructor() {
    super('the search index was rebuilt since its keys were read');
    this.name = 'KeysRenumbered';
  }
}

export interface ListsRead {
  lists: Map<number, PostingList>;
  /**
   * Every list is at the version asked for: the lists are one state of the index. A list read
   * newer (its bibs changed between the caller's read and this one) may hold a bib another list,
   * kept, does not yet.
   */
  asRead: boolean;
}

/**
 * The lists of these keys, by key id, each at the version given (the caller's read of
 * search_terms.version) or, when it changed since, a newer one. Throws KeysRenumbered when an id
 * read names another key now, or none: keys are removed only by a rebuild, which numbers the keys
 * of its index anew (from 1, so ids read before it may be past its last).
 */
export async function readLists(
  db: Queryable,
  terms: readonly { id: number; key: string; version: number }[],
  cache: ListCache,
): Promise<ListsRead> {
  const lists = new Map<number, PostingList>();
  const missing: number[] = [];
  for (const { id, version } of terms) {
    const list = cache.get(id, version);
    if (list) lists.set(id, list);
    else if (!lists.has(id)) missing.push(id);
  }
  if (missing.length === 0) return { lists, asRead: true };
  const asked = new Map(terms.map((t) => [t.id, t]));
  let renumbered = false;
  let asRead = true;
  for (const read of await readSegmentedLists(db, [...new Set(missing)])) {
    // Its segments kept as they came (in bib order), each a list of its own that one cursor walks in turn.
    const segments = read.segments.map((segment) => new BlockPostingList(segment));
    const list = segments.length === 1 ? segments[0]! : new SegmentedPostingList(segments);
    // Kept under the version read with the postings, which may be newer than the caller's.
    cache.set(read.termId, read.version, list);
    lists.set(read.termId, list);
    const term = asked.get(read.termId);
    if (read.key !== term?.key) renumbered = true;
    if (read.version !== term?.version) asRead = false;
  }
  // (What was read is kept all the same: each list under its own id and version.)
  if (renumbered || lists.size < asked.size) throw new KeysRenumbered();
  return { lists, asRead };
}
