// A search whose matches are one list's bibs: a word (its stem's list holds its other forms' and
// its leading title word's bibs: SqlClause.cover) with nothing else that decides a match (no
// other clause, exclusion or phrase) and no title to compare, ranked by relevance. Its total is
// the list's length, or the count of its bibs that pass the filters; and only the bibs that can
// reach its page are scored. The list's runs (blocks) are taken from the most a bib in them can
// score down, as the title's boost takes its candidates (evaluate.ts boostedScores), and the
// scoring stops at the first run whose most is below the k-th best score found. A common word
// (265,000 matches at 1,000,000 bibs) had every match scored and ranked.
import { weightAt, type Entry } from './list-matches.ts';
import { EMPTY_LIST, END, type PostingList } from './posting-list.ts';
import { topMatches } from './top-matches.ts';
import type { SearchSql } from './types.ts';

/**
 * The most bibs the clause's other lists that add weight may hold together: they are scored
 * first (a word's leading title word: the bibs that rank first). A search with more (titles
 * starting with the word by the ten thousand) walks every match as other searches do.
 */
const SCORED_FIRST = 50_000;

/** The fewest runs scored at once; each batch twice the last. */
const FIRST_RUNS = 2;

export interface CoverMatches {
  total: number;
  /** The bibs scored (every bib that can be among the k best), in no order, with their scores. */
  bibs: number[];
  scores: number[];
  /** Every match, when asked for. */
  matched?: number[];
}

/** Whether the search's matches are one list's bibs, with nothing else to rank them by (see above). */
export function coveredByOneList(q: SearchSql, lists: ReadonlyMap<number, PostingList>): boolean {
  const [clause] = q.required;
  if (q.required.length !== 1 || clause!.cover === undefined) return false;
  let scoredFirst = 0;
  clause!.termIds.forEach((id, i) => {
    if (i !== clause!.cover && clause!.boosts[i]! > 0) scoredFirst += (lists.get(id) ?? EMPTY_LIST).length;
  });
  return (
    scoredFirst <= SCORED_FIRST &&
    q.optional.length + q.excluded.length + q.excludedStems.length === 0 &&
    q.phrases.length + q.phrasePairs.length + q.excludedPhrases.length === 0 &&
    q.title === null &&
    q.sort === 'relevance'
  );
}

/**
 * The total and every bib that can be among the k best, scored as listMatches scores them, of a
 * search coveredByOneList. `keep`: the filters' test; `everyMatch`: answer every match too.
 */
export function coverMatches(
  q: SearchSql,
  lists: ReadonlyMap<number, PostingList>,
  keep: ((bib: number) => boolean) | undefined,
  k: number,
  everyMatch: boolean,
): CoverMatches {
  const clause = q.required[0]!;
  const at = clause.cover!;
  const listOf = (id: number) => lists.get(id) ?? EMPTY_LIST;
  const cover = listOf(clause.termIds[at]!);
  const boosts = clause.boosts.map((b) => Math.fround(b));
  const out: CoverMatches = { total: cover.length, bibs: [], scores: [] };
  // Counting through filters, or answering every match, reads the list's bibs, no weight.
  if (keep || everyMatch) {
    let total = 0;
    const matched: number[] = [];
    for (const c = cover.cursor(); c.bib !== END; c.next())
      if (!keep || keep(c.bib)) {
        total++;
        if (everyMatch) matched.push(c.bib);
      }
    out.total = total;
    if (everyMatch) out.matched = matched;
  }
  if (k === 0 || out.total === 0) return out;

  // The clause's other lists that add weight have their bibs scored first (a word's leading title
  // word: the bibs that rank first), so a run's most is its own list's part alone.
  const first: number[] = [];
  for (let i = 0; i < boosts.length; i++)
    if (i !== at && boosts[i]! > 0) for (const c = listOf(clause.termIds[i]!).cursor(); c.bib !== END; c.next()) first.push(c.bib);
  const firstScored = new Set(first);
  /** Scores these bibs (ascending) but those filtered out, with cursors of their own. */
  const score = (bibs: Iterable<number>) => {
    const entries: Entry[] = clause.termIds.map((id, i) => ({ cursor: listOf(id).cursor(), boost: boosts[i]! }));
    const covering = entries[at]!.cursor;
    for (const bib of bibs) {
      if (keep && !keep(bib)) continue;
      // (A bib of a list scored first is in the cover's: the indexer puts it there. Checked, not assumed.)
      covering.seek(bib);
      if (covering.bib !== bib) continue;
      out.bibs.push(bib);
      out.scores.push(weightAt(bib, entries));
    }
  };
  score([...firstScored].sort((a, b) => a - b));

  const { lasts, maxes } = cover.runs();
  // A run's most: its largest weight times the cover's boost (the others' part is 0 or less for
  // a bib not scored first), a real product as weightAt's, so it bounds its bibs' scores to the bit.
  const most = Float64Array.from(maxes, (max) => Math.fround(max * boosts[at]!));
  // Highest first; a stable sort keeps equal runs in bib order.
  const order = Array.from(lasts, (_, r) => r).sort((a, b) => most[b]! - most[a]!);
  for (let read = 0, batch = FIRST_RUNS; read < order.length; read += batch, batch *= 2) {
    // A run that ranks below the k-th best score found (a lower most, or the same and only later
    // bibs: ties go by bib) cannot reach the page, nor can any after it. (Generated and real lists
    // alike have runs of one most, where only the bib decides.)
    const kth = topMatches(out.bibs, out.scores, k)[k - 1];
    const next = order[read]!;
    const firstBib = next === 0 ? 0 : lasts[next - 1]! + 1;
    if (kth !== undefined && (most[next]! < out.scores[kth]! || (most[next] === out.scores[kth] && firstBib > out.bibs[kth]!))) break;
    const runs = order.slice(read, read + batch).sort((a, b) => a - b);
    const bibs: number[] = [];
    const c = cover.cursor();
    for (const r of runs) {
      c.seek(r === 0 ? 0 : lasts[r - 1]! + 1);
      for (; c.bib <= lasts[r]!; c.next()) if (!firstScored.has(c.bib)) bibs.push(c.bib);
    }
    score(bibs);
  }
  return out;
}
