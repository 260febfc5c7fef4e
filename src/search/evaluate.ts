// A search evaluated in Node over its terms' posting lists, answering exactly what the ranking
// statement does over the same index (search, test/helpers/ranking-statement.ts): the same matches, scores to
// the last bit, order, page and total. The lists' walk is list-matches.ts; the docs of the bibs
// it lets through are read only when the query needs them: ranked by relevance, its phrases are
// checked on them by id alone, and titles are read only while one can lift a match into the page.
import { coverMatches, coveredByOneList } from './cover-list.ts';
import type { Doc, DocReader } from './doc-repository.ts';
import { like, likePattern } from './like.ts';
import { listMatches, type ListMatches } from './list-matches.ts';
import { EMPTY_LIST, type PostingList } from './posting-list.ts';
import { topMatches } from './top-matches.ts';
import type { SearchSql } from './types.ts';

export interface Evaluated {
  /** Every match, not only the page's. */
  total: number;
  hits: { id: string; score: number }[];
  /** Every match's bib, in no particular order (what facets are counted over): with EvaluateOptions.everyMatch, else maybe none. */
  matched: readonly number[];
}

interface Match {
  bib: number;
  score: number;
  doc?: Doc;
  /** Its place in the docs' title order (title sort only). */
  place: number;
}

/** Whether the query needs every match's doc: for an order other than relevance. */
const ordersByDocs = (q: SearchSql) => q.sort !== 'relevance';

/** LIKE patterns of phrases: the docs' words hold them anywhere. */
const anywhere = (phrases: string[]) => phrases.map((phrase) => `%${phrase}%`);

/** A test of a bib against the query's filters (FacetColumns.filterOf); undefined when it has none. */
export type BibFilter = ((bib: number) => boolean) | undefined;

/** The matches, with their weights, that pass a test. */
function kept(matches: ListMatches, test: (bib: number) => boolean): ListMatches {
  const out: ListMatches = { bibs: [], weights: [] };
  matches.bibs.forEach((bib, i) => {
    if (!test(bib)) return;
    out.bibs.push(bib);
    out.weights.push(matches.weights[i]!);
  });
  return out;
}

/** The lists' matches that pass the filters. */
function filteredMatches(q: SearchSql, lists: ReadonlyMap<number, PostingList>, keep: BibFilter): ListMatches {
  const all = listMatches(q, lists);
  return keep ? kept(all, keep) : all;
}

/**
 * The matches whose docs hold the query's phrases and none of its unwanted ones (all of them, when
 * it has none), with their weights: only their ids are read, so a search ranked by relevance then
 * reads the titles of those that can reach its page alone (boostedScores), not every match's.
 */
async function withPhrases(q: SearchSql, matches: ListMatches, docs: DocReader): Promise<ListMatches> {
  if (matches.bibs.length === 0 || (q.phrases.length === 0 && q.excludedPhrases.length === 0)) return matches;
  const held = new Set(await docs.holding(matches.bibs, { phrases: anywhere(q.phrases), unwanted: anywhere(q.excludedPhrases) }));
  return kept(matches, (bib) => held.has(bib));
}

/**
 * The query's matches with their scores, for an order other than relevance: the lists' matches
 * that pass the filters, then (when it has any) the doc's conditions and the title's boost.
 */
async function matchesOf(q: SearchSql, lists: ReadonlyMap<number, PostingList>, docs: DocReader, keep: BibFilter): Promise<Match[]> {
  const { bibs, weights } = filteredMatches(q, lists, keep);
  if (bibs.length === 0) return [];
  const boost = q.title === null ? undefined : titleBoost(q.title);
  const weightOf = new Map(bibs.map((bib, i) => [bib, weights[i]!]));
  const read = await docs.read(bibs, {
    phrases: anywhere(q.phrases),
    unwanted: anywhere(q.excludedPhrases),
    titleOrder: q.sort === 'title',
  });
  const matches: Match[] = [];
  read.forEach((doc, place) => {
    const weight = weightOf.get(doc.bib)!;
    matches.push({ bib: doc.bib, score: boost ? weight + boost(doc.title) : weight, doc, place });
  });
  return matches;
}

/** The most a title adds (exact), and the most one that does not start with the search's words adds (the words inside it). */
const MOST_BOOST = 60;
const INSIDE_BOOST = 10;

/** The fewest docs read at once for the title's boost. */
const FIRST_TITLES = 64;

/**
 * The matches' scores, ranked by relevance with nothing else to check, exact for every match
 * that can be among the `k` best. Only a match in every title list and title pair list can have the title's boost,
 * and it is read only while its weight with the most its title could add (MOST_BOOST, or
 * INSIDE_BOOST when the title cannot start with the words) can still reach the k-th best score
 * known: candidates are read in batches from the highest ceiling down, each batch twice the last,
 * so a search of common words reads a few hundred titles, not every one that holds its words.
 */
async function boostedScores(
  q: SearchSql & { title: string },
  bibs: number[],
  weights: number[],
  lists: ReadonlyMap<number, PostingList>,
  k: number,
  docs: DocReader,
  firstTitles: number,
): Promise<number[]> {
  const boost = titleBoost(q.title);
  // A bib outside a title pair's list cannot have the words in order in its title: not a candidate.
  const cursors = [...q.titleLists, ...q.titlePairs].map((id) => (lists.get(id) ?? EMPTY_LIST).cursor());
  const starts = q.titleStart && (q.titleStart.list === null ? EMPTY_LIST : (lists.get(q.titleStart.list) ?? EMPTY_LIST)).cursor();
  const candidates: number[] = [];
  /** By place in bibs: the most a candidate can score. */
  const ceilings = new Float64Array(bibs.length);
  bibs.forEach((bib, i) => {
    for (const c of cursors) {
      c.seek(bib);
      if (c.bib !== bib) return;
    }
    let most = MOST_BOOST;
    if (starts) {
      starts.seek(bib);
      if (starts.bib !== bib) most = INSIDE_BOOST;
    }
    candidates.push(i);
    ceilings[i] = weights[i]! + most;
  });
  // Highest ceiling first; a stable sort keeps equal ceilings in bib order, as the ranking breaks ties.
  candidates.sort((a, b) => ceilings[b]! - ceilings[a]!);
  // Every score a floor until its title is read: an unread candidate scores at least its weight.
  const scores = weights.slice();
  for (let read = 0, batch = Math.max(firstTitles, k); read < candidates.length; read += batch, batch *= 2) {
    const top = topMatches(bibs, scores, k);
    // The k-th best of the floors ranks at most as the k-th best score: a candidate whose ceiling
    // ranks below it (a lower score, or the same with a later bib) cannot reach the page, nor can
    // any after it. (Titles of one word's weight often tie: the same ceiling, decided by bib.)
    const next = candidates[read]!;
    const kth = top[k - 1];
    if (kth !== undefined && (ceilings[next]! < scores[kth]! || (ceilings[next] === scores[kth] && bibs[next]! > bibs[kth]!))) break;
    const batchOf = candidates.slice(read, read + batch);
    const titles = await docs.read(
      batchOf.map((i) => bibs[i]!).sort((a, b) => a - b),
      { phrases: [], unwanted: [], titleOrder: false },
    );
    const titleOf = new Map(titles.map((d) => [d.bib, d.title]));
    for (const i of batchOf) {
      // (A bib whose doc went since its lists were read keeps its weight, as the lists had it.)
      const title = titleOf.get(bibs[i]!);
      if (title !== undefined) scores[i] = weights[i]! + boost(title);
    }
  }
  return scores;
}

/** The ranking statement's title boost (titleBoost, test/helpers/ranking-statement.ts): 60 for the exact title, 25 for a title it starts, 10 for one it is inside. */
function titleBoost(title: string): (docTitle: string) => number {
  const leading = likePattern(`${title}%`);
  const inside = likePattern(`%${title}%`);
  return (docTitle) => (docTitle === title ? 60 : like(docTitle, leading) ? 25 : like(docTitle, inside) ? 10 : 0);
}

/** The statement's orders: score (desc), the docs' title order, or year (desc, nulls last); then bib id. */
function compare(sort: SearchSql['sort']): (a: Match, b: Match) => number {
  if (sort === 'title') return (a, b) => a.place - b.place;
  if (sort === 'year')
    return (a, b) => {
      const ya = a.doc!.year;
      const yb = b.doc!.year;
      if (ya !== yb) return ya === null ? 1 : yb === null ? -1 : yb - ya;
      return a.bib - b.bib;
    };
  return (a, b) => (a.score > b.score ? -1 : a.score < b.score ? 1 : a.bib - b.bib);
}

/** How evaluate works, beyond the query. */
export interface EvaluateOptions {
  /** Answer every match (Evaluated.matched), which the facets are counted over. */
  everyMatch: boolean;
  /**
   * The lists are one state of the index (readLists' asRead). Only then is a search counted by
   * one list (cover-list.ts), which holds the other lists' bibs in any one state; lists of two
   * states are walked, as every other search is.
   */
  oneState: boolean;
  /** See FIRST_TITLES (tests make it small, to read titles in many batches). */
  firstTitles?: number;
}

/**
 * The query's page of hits and its total, as the ranking statement's search answers them.
 * @param keep the query's filters, tested on the facet columns (read, like the docs, from the
 *   bibs' docs): a filtered search of a common word then reads no doc for its filters
 */
export async function evaluate(
  q: SearchSql,
  lists: ReadonlyMap<number, PostingList>,
  docs: DocReader,
  keep: BibFilter,
  options: EvaluateOptions,
): Promise<Evaluated> {
  const firstTitles = options.firstTitles ?? FIRST_TITLES;
  const k = q.offset + q.limit;
  if (options.oneState && coveredByOneList(q, lists)) {
    const found = coverMatches(q, lists, keep, k, options.everyMatch);
    const page = topMatches(found.bibs, found.scores, k).slice(q.offset);
    return {
      total: found.total,
      hits: page.map((m) => ({ id: String(found.bibs[m]), score: found.scores[m]! })),
      matched: found.matched ?? [],
    };
  }
  if (!ordersByDocs(q)) {
    const { bibs, weights } = await withPhrases(q, filteredMatches(q, lists, keep), docs);
    const scores =
      q.title === null || bibs.length === 0
        ? weights
        : await boostedScores({ ...q, title: q.title }, bibs, weights, lists, k, docs, firstTitles);
    const page = topMatches(bibs, scores, k).slice(q.offset);
    return { total: bibs.length, hits: page.map((m) => ({ id: String(bibs[m]), score: scores[m]! })), matched: bibs };
  }
  const matches = await matchesOf(q, lists, docs, keep);
  const matched = matches.map((m) => m.bib);
  const page = matches.sort(compare(q.sort)).slice(q.offset, q.offset + q.limit);
  return { total: matches.length, hits: page.map((m) => ({ id: String(m.bib), score: m.score })), matched };
}
