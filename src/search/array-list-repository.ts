// Posting lists read whole from search_postings into arrays (ArrayPostingList): what tests give the
// evaluator (evaluate.ts) to compare it with the ranking statements over the same index.
import type { Queryable } from '../db/types.ts';
import { ArrayPostingList } from './posting-list.ts';

/** These terms' lists, by term id (a term without postings has none). */
export async function readArrayLists(db: Queryable, termIds: readonly number[]): Promise<Map<number, ArrayPostingList>> {
  // Weights read as float8, which holds a real exactly: read as text, a real could come back as
  // the nearest double to its shortest decimal, not itself.
  const rows = await db.query<{ term: number; bibs: number[]; weights: number[] }>(
    `select term_id as term, array_agg(bib_id order by bib_id) as bibs, array_agg(weight::float8 order by bib_id) as weights
     from search_postings where term_id = any($1::int[]) group by term_id`,
    [[...new Set(termIds)]],
  );
  return new Map(rows.map((r) => [r.term, new ArrayPostingList(Int32Array.from(r.bibs), Float32Array.from(r.weights))]));
}
