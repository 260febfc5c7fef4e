// The ranking statement: a query's full evaluation in one SQL pass over the index's postings,
// every match ranked, and its facets counted, as the evaluator in Node (src/search/evaluate.ts,
// list-matches.ts) must answer them exactly. The service no longer runs it; the tests compare the
// evaluator and the service with it.
//
// It reads the postings from ranking_postings, a row per posting that fillPostings writes from
// the index's compressed segments (decoded by src/search/segments.ts): the search_postings table
// it once read is gone. It stays an independent reference for what it is compared on: the
// matching (required clauses, exclusions, excluded stems), the ranking, the ties, the paging, the
// filters and the facets are worked out here in SQL, by none of the evaluator's code. That the
// segments hold exactly each document's postings is checked against the documents themselves, in
// test/search/segments.test.ts and lists.test.ts.
import type { Queryable } from '../../src/db/types.ts';
import { termArrays } from '../../src/search/list-matches.ts';
import { ArrayPostingList } from '../../src/search/posting-list.ts';
import { readSegmentedLists } from '../../src/search/segment-repository.ts';
import { joinSegments } from './join-segments.ts';
import type { SearchSql } from '../../src/search/types.ts';

/** The index's state that ranking_postings was last written from, by database. */
const written = new WeakMap<Queryable, string>();

/**
 * ranking_postings written again from search_segments when the index changed since it was last
 * written: every key whose list changes gets a new version (search_terms.version), drawn from one
 * sequence, so the highest version and the number of keys tell.
 */
export async function fillPostings(db: Queryable): Promise<void> {
  const [state] = await db.query<{ state: string }>(`select coalesce(max(version), 0)::text || ' ' || count(*) as state from search_terms`);
  if (written.get(db) === state!.state) return;
  await db.exec(`drop table if exists ranking_postings;
    create table ranking_postings (term_id integer not null, bib_id integer not null, weight real not null,
      primary key (term_id, bib_id) include (weight));`);
  const ids = (await db.query<{ id: number }>('select id from search_terms order by id')).map((r) => r.id);
  for (let at = 0; at < ids.length; at += 5000) {
    const rows = { terms: [] as number[], bibs: [] as number[], weights: [] as number[] };
    for (const list of await readSegmentedLists(db, ids.slice(at, at + 5000))) {
      const { bibs, weights } = joinSegments(list.segments);
      for (let i = 0; i < bibs.length; i++) {
        rows.terms.push(list.termId);
        rows.bibs.push(bibs[i]!);
        rows.weights.push(weights[i]!);
      }
    }
    // Weights sent as float8, which holds each float4 exactly: the column keeps the segment's bits.
    await db.query('insert into ranking_postings select * from unnest($1::int[], $2::int[], $3::float8[])', [
      rows.terms,
      rows.bibs,
      rows.weights,
    ]);
  }
  await db.exec('analyze ranking_postings');
  written.set(db, state!.state);
}

/** These terms' whole lists, from the index's segments, as arrays (a term without postings has none). */
export async function readArrayLists(db: Queryable, termIds: readonly number[]): Promise<Map<number, ArrayPostingList>> {
  const lists = new Map<number, ArrayPostingList>();
  for (const list of await readSegmentedLists(db, [...new Set(termIds)])) {
    if (list.segments.length === 0) continue;
    const { bibs, weights } = joinSegments(list.segments);
    lists.set(list.termId, new ArrayPostingList(bibs, weights));
  }
  return lists;
}

/** The parameters of one statement: add() keeps a value and answers its placeholder. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** An exact title beats a leading one, which beats the words found anywhere in it in order. */
export function titleBoost(title: string, p: SqlParams, column = 'd.title'): string {
  return `(case when ${column} = ${p.add(title)} then 60 when ${column} like ${p.add(`${title}%`)} then 25
                when ${column} like ${p.add(`%${title}%`)} then 10 else 0 end)`;
}

/** Conditions that the doc's words (d.words) contain each phrase, or (not) none of them. */
export function phraseConditions(phrases: string[], p: SqlParams, not = false): string[] {
  return phrases.map((phrase) => `d.words ${not ? 'not ' : ''}like ${p.add(`%${phrase}%`)}`);
}

export interface SearchHit {
  id: string;
  score: number;
  total: number;
}

/** Required clauses beyond this many (each a bit of a bigint) only rank. */
const MAX_REQUIRED = 62;

/** Builds the SQL of a query's matches: a CTE m (each matching bib's summed weight), the from-clause (m and search_docs as d), the conditions, the score. */
class MatchSql {
  readonly params = new SqlParams();
  readonly cte: string;
  readonly from = 'm join search_docs d on d.bib_id = m.bib_id';
  readonly where: string;

  constructor(private readonly q: SearchSql) {
    // One pass over every term's postings, summed per bib, with a bit per required clause: a bib
    // matches when it has them all. (A join of one aggregate per clause could be planned as a
    // nested loop over large lists.) Clauses past the 62nd only rank. Weights are summed in
    // float8, where a few float4 values add exactly in any order: summed as float4, a bib's score
    // differed in its last bit with the order its weights came in, which a plan may change, and
    // ties then broke differently from one page to the next.
    const required = Math.min(q.required.length, MAX_REQUIRED);
    const k = termArrays([...q.required, ...q.optional]);
    const bits = k.clauses.map((i) => (i < required ? String(1n << BigInt(i)) : '0'));
    const p = this.params;
    this.cte = `m as (select x.bib_id, sum((x.weight * k.boost)::float8) as w, bit_or(k.bit) as bits
      from unnest(${p.add(k.terms)}::int[], ${p.add(k.boosts)}::real[], ${p.add(bits)}::bigint[]) as k(term_id, boost, bit)
      join ranking_postings x on x.term_id = k.term_id group by x.bib_id)`;
    const f = q.filters;
    this.where = `where ${[
      `m.bits = ${p.add(String((1n << BigInt(required)) - 1n))}::bigint`,
      ...phraseConditions(q.phrases, p),
      ...phraseConditions(q.excludedPhrases, p, true),
      ...(q.excluded.length
        ? [`not exists (select 1 from ranking_postings x where x.bib_id = m.bib_id and x.term_id = any(${p.add(q.excluded)}::int[]))`]
        : []),
      ...q.excludedStems.map(
        (e) => `not exists (select 1 from ranking_postings x where x.term_id = ${p.add(e.stem)} and x.bib_id = m.bib_id
        and x.weight > coalesce((select y.weight from ranking_postings y where y.term_id = ${p.add(e.others ?? 0)} and y.bib_id = m.bib_id), 0))`,
      ),
      ...(f.materialType?.length ? [`d.material_type = any(${p.add(f.materialType)}::text[])`] : []),
      ...(f.language?.length ? [`d.lang = any(${p.add(f.language)}::text[])`] : []),
      ...(f.decade?.length ? [`(d.year / 10) * 10 = any(${p.add(f.decade)}::int[])`] : []),
    ].join(' and ')}`;
  }

  /** The relevance of a match (adds the title's parameters, so only for queries that rank). */
  score(): string {
    return this.q.title === null ? 'm.w' : `m.w + ${titleBoost(this.q.title, this.params)}`;
  }
}

export async function search(db: Queryable, q: SearchSql): Promise<SearchHit[]> {
  await fillPostings(db);
  const m = new MatchSql(q);
  const order =
    q.sort === 'title' ? 'd.sort_title, d.bib_id' : q.sort === 'year' ? 'd.year desc nulls last, d.bib_id' : 'score desc, d.bib_id';
  const sql = `with ${m.cte}
    select d.bib_id::text as id, (${m.score()})::float8 as score, count(*) over ()::int as total
    from ${m.from} ${m.where}
    order by ${order} limit ${m.params.add(q.limit)} offset ${m.params.add(q.offset)}`;
  return db.query<SearchHit>(sql, m.params.values);
}

/** A facet's value and how many of a search's matches have it. */
export type FacetName = 'materialType' | 'language' | 'decade';
export interface FacetCount {
  facet: FacetName;
  value: string;
  count: number;
}

/** How many of a query's matches have each material type, language and decade (the most common first). */
export async function facetCounts(db: Queryable, q: SearchSql, perFacet: number): Promise<FacetCount[]> {
  await fillPostings(db);
  const m = new MatchSql(q);
  const p = m.params;
  const sql = `with ${m.cte}, matched as materialized (select d.material_type, d.lang, d.year from ${m.from} ${m.where}),
    counted as (
      select 'materialType' as facet, material_type as value, count(*)::int as count from matched where material_type is not null group by material_type
      union all
      select 'language', lang, count(*)::int from matched where lang is not null group by lang
      union all
      select 'decade', ((year / 10) * 10)::text, count(*)::int from matched where year is not null group by (year / 10) * 10),
    ranked as (select *, row_number() over (partition by facet order by count desc, value) as n from counted)
    select facet, value, count from ranked where n <= ${p.add(perFacet)} order by facet, n`;
  return db.query<FacetCount>(sql, p.values);
}
