// The ranking repository's SQL for reading the index: the query's keys, the full evaluation of a
// query (every match ranked in one pass), its facets, and the kept counts of its matches. The
// pools' rankings are in pool-repository.ts.
import type { BibRow } from '../bibs/service.ts';
import type { Queryable } from '../db/types.ts';
import { bitmapCte, bitmapRead, bitmapsCount, type Bitmap } from './bitmap-repository.ts';
import { phraseConditions, SqlParams, termArrays, titleBoost } from './ranking-sql.ts';
import type { CountQuery, SearchSql, Term, TermStats } from './types.ts';

/** These keys' terms, and what search_counts keeps for the search `counted` (in the same round trip) if any key is found. */
export async function terms(db: Queryable, keys: string[], counted: string | null = null): Promise<TermStats> {
  if (keys.length === 0) return { terms: new Map() };
  // Planned once: planned for its values, it was planned afresh for every search (a short array
  // looks cheaper than the generic plan's guess), for the same plan.
  const rows = await db.query<Omit<Term, 'version'> & { key: string; version: string; total: number | null; versions: string[] | null }>(
    `select t.id, t.key, t.df, t.version, t.bitmap, c.total, c.versions
     from search_terms t left join search_counts c on c.search = $2 where t.key = any($1::text[])`,
    [keys, counted],
    { planOnce: true },
  );
  const [first] = rows;
  return {
    terms: new Map(rows.map((r) => [r.key, { id: r.id, df: r.df, version: Number(r.version), bitmap: r.bitmap }])),
    ...(first?.total != null && { count: { total: first.total, versions: first.versions!.map(Number) } }),
  };
}

export interface SearchHit {
  id: string;
  score: number;
  total: number;
  /** The bib's row, when the statement was asked for it. */
  bib?: BibRow;
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
    // ties then broke differently from one page to the next (see rankPool, pool-repository.ts).
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

/** The statement of countCommon: its one row's n. */
function countSql(c: CountQuery, p: SqlParams): string {
  const [rarest, ...others] = c.termIds;
  if (c.phrases.length === 0 && c.termIds.every((id) => c.bitmaps.includes(id))) {
    return bitmapsCount(c.termIds.map((id) => p.add(id)));
  }
  const first = p.add(rarest);
  const bitmaps: Bitmap[] = [...new Set(others.filter((id) => c.bitmaps.includes(id)))].map((id, i) => ({
    id,
    param: p.add(id),
    name: `bm${i}`,
  }));
  const reads = bitmaps.map((b) => bitmapRead(b, c.assembleBitmaps, 'p0.bib_id'));
  // The lists without bitmaps after every bit, each bib probed in them only once it has passed
  // those (one CASE, in this order: see rankPool).
  const checks = [
    ...reads.flatMap((r) => (r.check ? [`when not ${r.check} then false`] : [])),
    ...others
      .filter((id) => !c.bitmaps.includes(id))
      .map(
        (id) =>
          `when not exists (select from search_postings y where y.term_id = ${p.add(id)} and y.bib_id = p0.bib_id offset 0) then false`,
      ),
  ];
  const ctes = c.assembleBitmaps && bitmaps.length ? `with ${bitmaps.map((b) => bitmapCte(b.name, b.param)).join(', ')} ` : '';
  return `${ctes}select count(*)::int as n from search_postings p0 ${reads.map((r) => r.from).join(' ')}
     ${c.phrases.length ? 'join search_docs d on d.bib_id = p0.bib_id' : ''}
     where ${[`p0.term_id = ${first}`, ...(checks.length ? [`case ${checks.join(' ')} else true end`] : []), ...phraseConditions(c.phrases, p)].join(' and ')}`;
}

/**
 * How many bibs are in every one of a count's lists and have its phrases. When every list has a
 * bitmap and there are no phrases, the bitmaps' chunks are AND-ed and their bits counted: a few
 * hundred chunks at a million bibs, where each bib of the rarest list cost a probe of every other
 * list (about 1.5 µs each: 150 ms for 100,000 bibs). Otherwise the rarest list is read, each bib
 * checked by a bit of every other list with a bitmap (as a pool's bibs are, pool-repository.ts),
 * then by a probe of each list without, and by its text for the phrases.
 */
export async function countCommon(db: Queryable, c: CountQuery): Promise<number> {
  const p = new SqlParams();
  const rows = await db.query<{ n: number }>(countSql(c, p), p.values);
  return rows[0]!.n;
}

/**
 * countCommon, the count kept (search_counts) as `search` at these versions of its lists, in the
 * same statement. Its commit does not wait for the disk (synchronous_commit off for its
 * transaction alone): that wait was as long as the count itself (about 3.5 ms a search on the
 * bench's machine), and a count lost in a crash is only counted again. (Searches run outside any
 * transaction of their own: inside one, the setting would last to that transaction's commit.)
 */
export async function countAndKeep(db: Queryable, c: CountQuery, search: string, versions: number[]): Promise<number> {
  const p = new SqlParams();
  const counted = countSql(c, p);
  const rows = await db.query<{ n: number }>(
    `with counted as (${counted}),
     kept as (insert into search_counts (search, versions, total, counted)
       select ${p.add(search)}, ${p.add(versions)}::bigint[], counted.n, now() from counted, (select set_config('synchronous_commit', 'off', true)) as lazy
       on conflict (search) do update set versions = excluded.versions, total = excluded.total, counted = excluded.counted)
     select n from counted`,
    p.values,
    // Planned once, as the pools' statements are: its plan follows from its text (how many lists,
    // which with bitmaps, how many phrases), and planning it for its values cost as much as running it.
    { planOnce: true },
  );
  return rows[0]!.n;
}
