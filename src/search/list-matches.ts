// The bibs a query's posting lists let through, with their summed weights, found by walking the
// lists' cursors in bib order as the ranking statement's CTE m and its list conditions answer them
// (MatchSql, test/helpers/ranking-statement.ts): every required clause has one of its terms, no excluded list
// holds the bib, and no excluded stem outweighs its other forms; and the bib is in the lists of its
// phrases' word pairs, without which it cannot hold them. The doc's conditions (phrases,
// filters) are the evaluator's (evaluate.ts).
import { EMPTY_LIST, END, type PostingCursor, type PostingList } from './posting-list.ts';
import type { SearchSql, SqlClause } from './types.ts';

/** Required clauses beyond this many only rank, as in MatchSql (a bit each of a bigint). */
export const MAX_REQUIRED = 62;

/** The matches in bib order, each bib's summed weight at the same index. */
export interface ListMatches {
  bibs: number[];
  weights: number[];
}

/** A query term's cursor with its boost as the statement holds it (a real). */
export interface Entry {
  cursor: PostingCursor;
  boost: number;
}

/** A clause's cursors: a bib is in the clause when it is in any of them. */
class Clause {
  constructor(
    readonly entries: Entry[],
    public length: number,
  ) {}

  /** The clause's first bib at or after `target` (END when none). */
  seek(target: number): number {
    let bib = END;
    for (const { cursor } of this.entries) {
      cursor.seek(target);
      if (cursor.bib < bib) bib = cursor.bib;
    }
    return bib;
  }
}

/**
 * Drives from the rarest required clause (fewest postings), seeking every other clause to its bib:
 * a clause past it moves the target on, and the rarest clause is sought there in turn. A bib every
 * required clause holds is checked against the exclusions and scored.
 */
export function listMatches(q: SearchSql, lists: ReadonlyMap<number, PostingList>): ListMatches {
  const list = (id: number) => lists.get(id) ?? EMPTY_LIST;
  const required = Math.min(q.required.length, MAX_REQUIRED);
  const k = termArrays([...q.required, ...q.optional]);
  // One cursor per term of every clause, in the statement's order: they score every match.
  const entries: Entry[] = k.terms.map((id, i) => ({ cursor: list(id).cursor(), boost: Math.fround(k.boosts[i]!) }));
  const clauses = Array.from({ length: required }, () => new Clause([], 0));
  k.terms.forEach((id, i) => {
    const clause = clauses[k.clauses[i]!];
    if (clause) {
      clause.entries.push(entries[i]!);
      clause.length += list(id).length;
    }
  });
  // The phrases' pair lists narrow the matches as required clauses do, but score nothing (the
  // phrases themselves are checked on the texts: evaluate.ts). Often the shortest, they drive.
  const pairs = q.phrasePairs.map((id) => new Clause([{ cursor: list(id).cursor(), boost: 0 }], list(id).length));
  // With no required clause, any bib with a posting in any term matches (its bits are all none).
  const walked = required > 0 ? [...clauses, ...pairs].sort((a, b) => a.length - b.length) : [new Clause(entries, 0)];
  const excluded = q.excluded.map((id) => list(id).cursor());
  const stems = q.excludedStems.map((e) => ({
    stem: list(e.stem).cursor(),
    others: e.others === null ? EMPTY_LIST.cursor() : list(e.others).cursor(),
  }));

  const out: ListMatches = { bibs: [], weights: [] };
  const [driver, ...others] = walked;
  let target = driver!.seek(0);
  while (target !== END) {
    let agreed = true;
    for (const clause of others) {
      const bib = clause.seek(target);
      if (bib !== target) {
        target = bib === END ? END : driver!.seek(bib);
        agreed = false;
        break;
      }
    }
    if (!agreed) continue;
    if (!excludedAt(target, excluded, stems)) {
      out.bibs.push(target);
      out.weights.push(weightAt(target, entries));
    }
    target = driver!.seek(target + 1);
  }
  return out;
}

/** The bib's summed weight: each of its terms' weight times the term's boost, a real product, summed as doubles. */
export function weightAt(bib: number, entries: Entry[]): number {
  let sum = 0;
  for (const { cursor, boost } of entries) {
    cursor.seek(bib);
    if (cursor.bib === bib) sum += Math.fround(cursor.weight * boost);
  }
  return sum;
}

/** In an excluded list, or an excluded stem's weight above its other forms' (0 without them). */
function excludedAt(bib: number, excluded: PostingCursor[], stems: { stem: PostingCursor; others: PostingCursor }[]): boolean {
  for (const cursor of excluded) {
    cursor.seek(bib);
    if (cursor.bib === bib) return true;
  }
  for (const { stem, others } of stems) {
    stem.seek(bib);
    if (stem.bib !== bib) continue;
    others.seek(bib);
    if (stem.weight > (others.bib === bib ? others.weight : 0)) return true;
  }
  return false;
}

/** The clauses' terms and boosts as parallel arrays, with each term's clause (by index). */
export function termArrays(clauses: SqlClause[]): { terms: number[]; boosts: number[]; clauses: number[] } {
  const out = { terms: [] as number[], boosts: [] as number[], clauses: [] as number[] };
  clauses.forEach((c, i) =>
    c.termIds.forEach((id, j) => {
      out.terms.push(id);
      out.boosts.push(c.boosts[j]!);
      out.clauses.push(i);
    }),
  );
  return out;
}
