// The pools' rankings: a query's matches ranked from the pool of its rarest list's best bibs
// (rankPool), or, for one word or number, from its lists found by key in the same statement
// (rankKeyedPool), each page with its bibs' rows when asked for.
import { bibRows, type BibExtras, type BibRow } from '../bibs/service.ts';
import type { Queryable } from '../db/types.ts';
import { bitmapCte, bitmapRead, type Bitmap } from './bitmap-repository.ts';
import type { SearchHit } from './ranking-repository.ts';
import { phraseConditions, SqlParams, termArrays, titleBoost } from './ranking-sql.ts';
import type { KeyedPoolQuery, PoolLists, PoolQuery } from './types.ts';

/**
 * The last select of a ranking statement whose CTE "page" holds the page (bib_id, score, total,
 * and the `extra` columns) in `order`: each hit with its bib's row when `bibs` asks for it, so the
 * page and its bibs come in one round trip. (A hit whose bib is missing is left out.)
 */
function pageSelect(order: string, bibs: BibExtras | undefined, extra: string[] = []): string {
  const hit = ['score', 'total', ...extra].map((column) => `page.${column}`).join(', ');
  return bibs
    ? `select ${hit}, ${bibRows.columns(bibs)} from page join ${bibRows.from} on b.id = page.bib_id order by ${order}`
    : `select ${hit}, page.bib_id::text as id from page order by ${order}`;
}

/** A row of a statement ending with pageSelect: the hit's columns, then its bib's (and a keyed pool's list length). */
type PageRow = SearchHit & Partial<BibRow> & { listed?: number | null };

/** A query term's (k.term_id) weight for the bib `bib` (an expression), probed in its list. */
const weightProbe = (bib: string) => `(select y.weight from search_postings y where y.term_id = k.term_id and y.bib_id = ${bib})`;

/**
 * A pool bib's score (m.bib_id; k: its query's terms with their boosts) from the pool's own entries
 * (e, joined on bib and term), or for a term they lack by a probe of the term's list: each term's
 * weight for it times the term's boost, summed in float8, the same sum whatever order the plan adds
 * in (see MatchSql, ranking-repository.ts).
 */
function entriesScore(): string {
  return `sum((coalesce(e.weight, ${weightProbe('m.bib_id')}) * k.boost)::float8)`;
}

/**
 * A match's score from its document (d), the same sum as entriesScore: each term's weight found in
 * the document's weights at the term's place in its keys. A document indexed before its weights
 * were kept (none) has each term's list probed for it instead (migration 0020).
 */
function documentScore(): string {
  return `(select sum((coalesce(d.weights[array_position(d.terms, k.term_id)],
    case when cardinality(d.weights) = 0 then ${weightProbe('d.bib_id')} end) * k.boost)::float8) from k)`;
}

/** The hits of a statement ending with pageSelect. */
function hitsOf(rows: PageRow[], bibs: BibExtras | undefined): SearchHit[] {
  return rows.map(({ score, total, listed: _listed, ...bib }) => ({ id: bib.id, score, total, ...(bibs && { bib: bib as BibRow }) }));
}

/** The best bibs of some keys' impact lists, each with its best place in them. */
function poolSql(pool: PoolLists, p: SqlParams): string {
  // (A list holds a bib once: only bibs from several lists need grouping.)
  return pool.termIds.length === 1
    ? poolEntriesSql(pool, p)
    : `select bib_id, min(place) as place from (${poolEntriesSql(pool, p)}) as l group by bib_id`;
}

/**
 * The best entries of some keys' impact lists: bib, key, weight, and place in the key's list (0 in
 * a first pool, which has no tiers to place bibs in: numbering thousands of entries was a fifth of
 * reading them).
 */
function poolEntriesSql(pool: PoolLists, p: SqlParams): string {
  const size = p.add(pool.size);
  const place = pool.tiers.length ? 'row_number() over (order by x.weight desc, x.bib_id)' : '0::bigint';
  return pool.termIds
    .map(
      (id) =>
        `(select x.bib_id, x.term_id, x.weight, ${place} as place
      from search_postings x where x.term_id = ${p.add(id)} order by x.weight desc, x.bib_id limit ${size})`,
    )
    .join(' union all ');
}

/**
 * A pool's bibs (bib_id, place) with the bibs whose titles start with the search's first two words
 * (PoolQuery.titled) at its first tier, each once with its best place. Those are looked up in the
 * pools' source list: a pool bib is checked in every other list, never in that one.
 */
function withTitled(q: PoolQuery, pool: string, p: SqlParams): string {
  if (!q.titled) return pool;
  return `select bib_id, min(place) as place
    from (select bib_id, place from (${pool}) as pooled
          union all select t.bib_id, 0::bigint from search_postings t
            where t.term_id = ${p.add(q.titled.list)}
              and exists (select from search_postings w where w.term_id = ${p.add(q.titled.within)} and w.bib_id = t.bib_id)) as titled
    group by bib_id`;
}

/**
 * The pool's bibs, as CTEs ending with c (bib_id, place), from one of:
 * - the best of the pool's lists, each bib with its best place in them. When they are lists of the
 *   words scored (`known`), their entries are kept (CTE entries): a pool bib's weight in a list it
 *   was drawn from is then known without a probe, which for one common word is most of them;
 * - with the whole list, and no smaller pool before it (places rank nothing then), just the bibs in
 *   both it and the joined list, found by one pass over each in bib order;
 * - with the whole list after smaller pools, those of the first that are in the second.
 * (In the last two the probes come after the join: PostgreSQL checks a condition as soon as it
 * can, and one on the whole list's bibs would be checked on every one of them.)
 */
function poolBibs(
  q: PoolQuery,
  p: SqlParams,
  scored: number[],
  bitmapOf: (id: number) => Bitmap | undefined,
): { ctes: string; known: boolean } {
  if (!q.whole) {
    // Kept only when every pool bib is checked in no other list (one word): a pool of thousands
    // drawn for words seldom found together costs more to keep than the few matches' probes it saves.
    const checksNone = q.probes.length === 0 && q.bitmaps.length === 0;
    if (!checksNone || !q.pool.termIds.some((id) => scored.includes(id)))
      return { ctes: `c as (${withTitled(q, poolSql(q.pool, p), p)})`, known: false };
    return {
      ctes: `entries as materialized (${poolEntriesSql(q.pool, p)}),
      c as (${withTitled(q, 'select bib_id, min(place) as place from entries group by bib_id', p)})`,
      known: true,
    };
  }
  const joinedBits = bitmapOf(q.whole.joined);
  const read = joinedBits && bitmapRead(joinedBits, q.assembleBitmaps, 'a.bib_id');
  const both = read
    ? `in_both as materialized (select a.bib_id from search_postings a ${read.from}
      where ${[`a.term_id = ${p.add(q.whole.list)}`, ...(read.check ? [read.check] : [])].join(' and ')})`
    : `in_both as materialized (select a.bib_id from search_postings a
      join search_postings b on b.bib_id = a.bib_id and b.term_id = ${p.add(q.whole.joined)} where a.term_id = ${p.add(q.whole.list)})`;
  if (q.pool.tiers.length === 0) return { ctes: `${both}, c as (select bib_id, 0::bigint as place from in_both)`, known: false };
  return {
    ctes: `${both}, c as (select l.bib_id, l.place from (${withTitled(q, poolSql(q.pool, p), p)}) as l join in_both on in_both.bib_id = l.bib_id)`,
    known: false,
  };
}

/**
 * The matches in the pool, ranked exactly as search() (ranking-repository.ts) ranks them, and how
 * many there are: with pool lists of a few hundred entries this reads a few thousand postings
 * however common the words (with a whole list, that list and the one joined to it). With `bibs`,
 * each hit comes with its bib's row, with these extras.
 */
export async function rankPool(db: Queryable, q: PoolQuery, bibs?: BibExtras): Promise<{ hits: SearchHit[]; pooled: number }> {
  const p = new SqlParams();
  const k = termArrays([...q.words, ...q.optional]);
  // The pool's matches first: each bib is looked up in each list of probes (one index probe each:
  // EXISTS stops at the first entry; the shortest list, which most bibs fail, first), and its text
  // checked for the phrases; only they are scored (from their documents, below). Most of a large
  // pool of words seldom found together fails the first probe. ("offset 0" keeps each EXISTS a
  // probe per bib: without it PostgreSQL may make it a join, and a prepared statement's generic plan, which
  // takes every list for a few thousand entries, then hashes a common word's whole list, 90,000
  // entries, to check a pool of 200.)
  // The lists are tried in the order given, through one CASE: as separate conditions PostgreSQL
  // orders them by its own guesses, and tried a common word's list, which nearly every bib passes,
  // before the pair list that most fail.
  // The lists with bitmaps are read first, a pool bib not in one of them gone before any probe:
  // joined to their chunks, or each assembled once, as a CTE of one row (none for an empty list,
  // which then leaves no match), joined to every pool bib (q.assembleBitmaps).
  const bitmaps: Bitmap[] = q.bitmaps.map((id, i) => ({ id, name: `bm${i}`, param: p.add(id) }));
  const { ctes: pool, known } = poolBibs(q, p, k.terms, (id) => bitmaps.find((b) => b.id === id));
  const reads = bitmaps.filter((b) => b.id !== q.whole?.joined).map((b) => bitmapRead(b, q.assembleBitmaps, 'c.bib_id'));
  const probes = q.whole ? q.probes.filter((id) => id !== q.whole!.joined) : q.probes;
  const checks = [
    ...reads.flatMap((r) => (r.check ? [`when not ${r.check} then false`] : [])),
    ...probes.map(
      (id) => `when not exists (select from search_postings y where y.term_id = ${p.add(id)} and y.bib_id = c.bib_id offset 0) then false`,
    ),
  ];
  const inEvery = checks.length === 0 ? 'true' : `case ${checks.join(' ')} else true end`;
  const poolFrom = ['c', ...reads.map((r) => r.from)].join(' ');
  // A match is scored from its document (documentScore: the weights are kept there), which also
  // gives its title for the title's boost: one read a match, where a probe of each term's list
  // took one a term. A pool of one word's entries (known) scores from them instead, reading the
  // titles from the documents its phrases' check reads, or else those of its matches. (A match of
  // a phrase has its document read twice, for the check and the score: carried through m, its
  // keys and weights would be copied for every match.)
  const titleFromDoc = known && q.title !== null && q.phrases.length === 0;
  const tier = `(select count(*) from unnest(${p.add(q.pool.tiers)}::int[]) as t(size) where m.place > t.size)`;
  const scored = known
    ? `select m.bib_id, m.title, ${tier} as tier, ${entriesScore()} as w
      from m cross join k left join entries e on e.bib_id = m.bib_id and e.term_id = k.term_id
      group by m.bib_id, m.place, m.title`
    : `select m.bib_id, d.title, ${tier} as tier, ${documentScore()} as w from m join search_docs d on d.bib_id = m.bib_id`;
  const knownTitle = !known ? '' : q.phrases.length ? ', d.title' : ', null::text as title';
  const sql = `with ${[...(q.assembleBitmaps ? bitmaps.map((b) => bitmapCte(b.name, b.param)) : []), pool].join(', ')},
    m as materialized (
      select c.bib_id, c.place${knownTitle} from ${poolFrom}${q.phrases.length ? ' join search_docs d on d.bib_id = c.bib_id' : ''}
      where ${[inEvery, ...phraseConditions(q.phrases, p)].join(' and ')}),
    k as (select * from unnest(${p.add(k.terms)}::int[], ${p.add(k.boosts)}::real[]) as k(term_id, boost)),
    scored as (${scored}),
    page as (
      select s.bib_id, s.tier, (s.w${q.title === null ? '' : ` + ${titleBoost(q.title, p, titleFromDoc ? 'd.title' : 's.title')}`})::float8 as score, count(*) over ()::int as total
      from scored s${titleFromDoc ? ' join search_docs d on d.bib_id = s.bib_id' : ''}
      order by s.tier, score desc, s.bib_id limit ${p.add(q.limit)} offset ${p.add(q.offset)})
    ${pageSelect('page.tier, page.score desc, page.bib_id', bibs)}`;
  // Planned once: its plan follows from its text (how many lists, probes and phrases); planned
  // for its values, it was planned afresh for every search, the planning costing about as much as
  // ranking a rare word's pool.
  const rows = await db.query<PageRow>(sql, p.values, { planOnce: true });
  return { hits: hitsOf(rows, bibs), pooled: rows[0]?.total ?? 0 };
}

/**
 * The page of a KeyedPoolQuery, how many matches the pool holds, and the first key's df (its
 * list's length if it is a stem key; null when it is not in the index). With `bibs`, each hit
 * comes with its bib's row, with these extras, in the same round trip.
 */
export async function rankKeyedPool(
  db: Queryable,
  q: KeyedPoolQuery,
  bibs?: BibExtras,
): Promise<{ hits: SearchHit[]; pooled: number; listed: number | null }> {
  const p = new SqlParams();
  // As rankPool with a pool of one word (and its entries known), the lists found by key: each
  // pooled list's best entries by a lateral read of its impact order.
  const sql = `with k as materialized (
      select s.id as term_id, u.boost, s.df, u.n from unnest(${p.add(q.keys)}::text[], ${p.add(q.boosts)}::real[]) with ordinality as u(key, boost, n)
      join search_terms s on s.key = u.key),
    entries as materialized (
      select x.bib_id, x.term_id, x.weight from k cross join lateral (
        select x.bib_id, x.term_id, x.weight from search_postings x where x.term_id = k.term_id
        order by x.weight desc, x.bib_id limit ${p.add(q.size)}) as x
      where k.boost > 0),
    scored as (
      select m.bib_id, ${entriesScore()} as w
      from (select distinct bib_id from entries) as m cross join k left join entries e on e.bib_id = m.bib_id and e.term_id = k.term_id
      group by m.bib_id),
    page as (
      select s.bib_id, (s.w${q.title === null ? '' : ` + ${titleBoost(q.title, p)}`})::float8 as score, count(*) over ()::int as total,
        (select k.df from k where k.n = 1) as listed
      from scored s${q.title === null ? '' : ' join search_docs d on d.bib_id = s.bib_id'}
      order by score desc, s.bib_id limit ${p.add(q.limit)} offset ${p.add(q.offset)})
    ${pageSelect('page.score desc, page.bib_id', bibs, ['listed'])}`;
  const rows = await db.query<PageRow>(sql, p.values, { planOnce: true });
  return { hits: hitsOf(rows, bibs), pooled: rows[0]?.total ?? 0, listed: rows[0]?.listed ?? null };
}
