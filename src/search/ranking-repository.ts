// The ranking repository's SQL for reading the index: the query's keys, the full evaluation of a
// query (every match ranked in one pass, which the evaluator in Node, evaluate.ts, answers
// exactly), and its facets.
import type { Queryable } from '../db/types.ts';
import { phraseConditions, SqlParams, termArrays, titleBoost } from './ranking-sql.ts';
import type { SearchSql, Term, TermStats } from './types.ts';

/** These keys' terms. */
export async function terms(db: Queryable, keys: string[]): Promise<TermStats> {
  if (keys.length === 0) return { terms: new Map() };
  // Planned once: planned for its values, it was planned afresh for every search (a short array
  // looks cheaper than the generic plan's guess), for the same plan.
  const rows = await db.query<Omit<Term, 'version'> & { key: string; version: string }>(
    `select t.id, t.key, t.df, t.version from search_terms t where t.key = any($1::text[])`,
    [keys],
    { planOnce: true },
  );
  return { terms: new Map(rows.map((r) => [r.key, { id: r.id, df: r.df, version: Number(r.version) }])) };
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
      join search_postings x on x.term_id = k.term_id group by x.bib_id)`;
    const f = q.filters;
    this.where = `where ${[
      `m.bits = ${p.add(String((1n << BigInt(required)) - 1n))}::bigint`,
      ...phraseConditions(q.phrases, p),
      ...phraseConditions(q.excludedPhrases, p, true),
      ...(q.excluded.length
        ? [`not exists (select 1 from search_postings x where x.bib_id = m.bib_id and x.term_id = any(${p.add(q.excluded)}::int[]))`]
        : []),
      ...q.excludedStems.map(
        (e) => `not exists (select 1 from search_postings x where x.term_id = ${p.add(e.stem)} and x.bib_id = m.bib_id
        and x.weight > coalesce((select y.weight from search_postings y where y.term_id = ${p.add(e.others ?? 0)} and y.bib_id = m.bib_id), 0))`,
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
  const m = new MatchSql(q);
  const order =
    q.sort === 'title' ? 'd.sort_title, d.bib_id' : q.sort === 'year' ? 'd.year desc nulls last, d.bib_id' : 'score desc, d.bib_id';
  const sql = `with ${m.cte}
    select d.bib_id::text as id, (${m.score()})::float8 as score, count(*) over ()::int as total
    from ${m.from} ${m.where}
    order by ${order} limit ${m.params.add(q.limit)} offset ${m.params.add(q.offset)}`;
  return db.query<SearchHit>(sql, m.params.values);
}

export type FacetName = 'materialType' | 'language' | 'decade';
export interface FacetCount {
  facet: FacetName;
  value: string;
  count: number;
}

/**
 * How many of a query's matches have each material type, language and decade (the most common
 * first). `list`: a list that holds exactly the matches (a single word's stem list, no filters),
 * read alone.
 */
export async function facetCounts(db: Queryable, q: SearchSql, perFacet: number, list?: number): Promise<FacetCount[]> {
  // A common word's list holds most of the catalogue: planned for its length (not as a prepared
  // statement, whose generic plan takes every list for a few thousand bibs), PostgreSQL joins it
  // to the documents in one pass instead of looking 700,000 bibs up one by one.
  let matched: string;
  let p: SqlParams;
  if (list === undefined) {
    const m = new MatchSql(q);
    matched = `with ${m.cte}, matched as materialized (select d.material_type, d.lang, d.year from ${m.from} ${m.where})`;
    p = m.params;
  } else {
    p = new SqlParams();
    matched = `with matched as materialized (select d.material_type, d.lang, d.year
      from search_postings x join search_docs d on d.bib_id = x.bib_id where x.term_id = ${p.add(list)})`;
  }
  const sql = `${matched},
    counted as (
      select 'materialType' as facet, material_type as value, count(*)::int as count from matched where material_type is not null group by material_type
      union all
      select 'language', lang, count(*)::int from matched where lang is not null group by lang
      union all
      select 'decade', ((year / 10) * 10)::text, count(*)::int from matched where year is not null group by (year / 10) * 10),
    ranked as (select *, row_number() over (partition by facet order by count desc, value) as n from counted)
    select facet, value, count from ranked where n <= ${p.add(perFacet)} order by facet, n`;
  return db.query<FacetCount>(sql, p.values, { prepared: list === undefined });
}
