// SQL for the search index: the queue of bibs to index, the index itself, and the search query.
import { BIB_FROM, bibRowColumns, type BibExtras, type BibRow } from '../bibs/repository.ts';
import { copyText } from '../db/copy-text.ts';
import type { Queryable } from '../db/types.ts';
import type { MarcInJson } from '../marc/marc-in-json.ts';
import { bitmapCte, bitmapHas, bitmapJoin } from './bitmap-repository.ts';
import { updateBitmaps, type ChangedList } from './bitmap-upkeep.ts';
import type { SearchDocument } from './document.ts';

/** Takes up to `limit` bibs off the queue (others' claims skipped), in this transaction. */
export async function takeQueued(tx: Queryable, limit: number): Promise<string[]> {
  const rows = await tx.query<{ bib_id: string }>(
    `delete from search_queue where bib_id in (select bib_id from search_queue order by bib_id limit $1 for update skip locked)
     returning bib_id::text`,
    [limit],
  );
  return rows.map((r) => r.bib_id);
}

export interface IndexableBib {
  id: string;
  marc: MarcInJson | null;
  title: string | null;
  publish_year: number | null;
  material_type: string | null;
  lang: string | null;
  isbns: string[];
  issns: string[];
  searchable: boolean;
  call_numbers: string[];
}

/** A bib that search shows: neither deleted nor suppressed. */
export const SEARCHABLE = 'b.deleted_date is null and not b.suppressed';

/** What a bib's search document is made of (IndexableBib), from "bibs b"; the caller adds the where. */
export const INDEXABLE_SELECT = `select b.id::text, b.marc, b.title, b.publish_year, b.material_type, b.lang, b.isbns, b.issns,
    (${SEARCHABLE}) as searchable,
    array(select i.call_number from item_bibs ib join items i on i.id = ib.item_id
          where ib.bib_id = b.id and i.deleted_date is null and i.call_number is not null) as call_numbers
  from bibs b`;

export async function readIndexable(tx: Queryable, ids: string[]): Promise<IndexableBib[]> {
  return tx.query<IndexableBib>(`${INDEXABLE_SELECT} where b.id = any($1::bigint[])`, [ids]);
}

/** Replaces the index entries of these bibs with these documents (bibs without one leave the index). */
export async function writeIndex(tx: Queryable, bibIds: string[], docs: SearchDocument[]): Promise<void> {
  // A bib's postings are found through its doc's key list (an index of postings by bib would
  // cost every posting a third index entry). The stem keys' ("~") counts lose what goes, and
  // their bitmaps (bitmap-upkeep.ts) the bibs that go.
  const gone = await tx.query<{ term_id: number; bibs: string[] }>(
    `with g as (
       delete from search_postings p using (select unnest(terms) as term_id, bib_id from search_docs where bib_id = any($1::bigint[])) as d
       where p.term_id = d.term_id and p.bib_id = d.bib_id returning p.term_id, p.bib_id)
     select g.term_id, array_agg(g.bib_id) as bibs from g join search_terms t on t.id = g.term_id where t.key like '_~%' group by g.term_id`,
    [bibIds],
  );
  await tx.query('delete from search_docs where bib_id = any($1::bigint[])', [bibIds]);
  const counts = new Map(gone.map((r) => [r.term_id, -r.bibs.length]));
  const postings = docs.length > 0 ? await addDocs(tx, docs, counts) : undefined;
  // Every key whose bibs changed (even by as many in as out) gets a new version: the counts
  // cached for searches of it (search_counts) are then no longer read.
  const changed = [...counts].sort((a, b) => a[0] - b[0]);
  if (changed.length === 0) return;
  // Locked in id order first: indexers updating the same common keys at once then queue, never deadlock.
  await tx.query('select 1 from search_terms where id = any($1::int[]) order by id for update', [changed.map(([id]) => id)]);
  const lists = await tx.query<ChangedList>(
    'update search_terms t set df = t.df + d.n, version = t.version + 1 from unnest($1::int[], $2::int[]) as d(id, n) where t.id = d.id returning t.id, t.df, t.bitmap',
    [changed.map(([id]) => id), changed.map(([, n]) => n)]);
  await updateBitmaps(tx, lists, { removed: new Map(gone.map((r) => [r.term_id, r.bibs])), added: addedTo(lists, postings) });
}

/** The bibs added to the lists that keep a bitmap, by key id. */
function addedTo(lists: ChangedList[], postings: Postings | undefined): Map<number, string[]> {
  const added = new Map(lists.filter((l) => l.bitmap).map((l) => [l.id, [] as string[]]));
  if (!postings || added.size === 0) return added;
  for (let i = 0; i < postings.termIds.length; i++) added.get(postings.termIds[i]!)?.push(postings.bibIds[i]!);
  return added;
}

/** Writes the documents' postings and docs, adding to `counts` a bib for each stem ("~") key; answers the postings. */
async function addDocs(tx: Queryable, docs: SearchDocument[], counts: Map<number, number>): Promise<Postings> {
  // Sorted, so that indexers adding the same new keys at once take their locks in one order.
  const keys = [...new Set(docs.flatMap((d) => [...d.keys.keys()]))].sort();
  await tx.query('insert into search_terms (key) select unnest($1::text[]) order by 1 on conflict do nothing', [keys]);
  const ids = new Map((await tx.query<{ id: number; key: string }>('select id, key from search_terms where key = any($1::text[])', [keys])).map((r) => [r.key, r.id]));
  const rows = indexRows(docs, (key) => ids.get(key)!, (id) => counts.set(id, (counts.get(id) ?? 0) + 1));
  await writeIndexRows(tx, rows);
  return rows.postings;
}

type DocRow = [bibId: string, title: string, words: string, sortTitle: string, year: number | null, materialType: string | null, lang: string | null, terms: string, weights: string];
const DOC_COLUMNS = ['bib_id', 'title', 'words', 'sort_title', 'year', 'material_type', 'lang', 'terms', 'weights'];

/**
 * Postings as three columns: a rebuild makes about 90 of them a bib, and an array for each (and a
 * COPY line made by the general copyText) made a tenth of its time, and much of its garbage.
 */
export interface Postings {
  termIds: number[];
  bibIds: string[];
  weights: number[];
}

export interface IndexRows {
  postings: Postings;
  docs: DocRow[];
}

/**
 * The index rows of some documents, each key numbered by termId. counted is told the key id of each
 * stem ("~") key a document has: those keys' lengths are kept as their df.
 */
export function indexRows(docs: SearchDocument[], termId: (key: string) => number, counted: (id: number) => void): IndexRows {
  const rows: IndexRows = { postings: { termIds: [], bibIds: [], weights: [] }, docs: [] };
  const { termIds, bibIds, weights } = rows.postings;
  for (const doc of docs) {
    const first = termIds.length;
    for (const [key, weight] of doc.keys) {
      const id = termId(key);
      termIds.push(id);
      bibIds.push(doc.bibId);
      weights.push(Math.round(weight * 100) / 100);
      if (key[1] === '~') counted(id);
    }
    // The document keeps its postings' keys and weights, in the same order.
    const [terms, keyWeights] = [termIds.slice(first), weights.slice(first)];
    rows.docs.push([doc.bibId, doc.title, doc.words, doc.sortTitle, doc.year, doc.materialType, doc.lang, `{${terms.join(',')}}`, `{${keyWeights.join(',')}}`]);
  }
  return rows;
}

/** Postings as COPY text: numbers only, so nothing to escape. */
function postingsText({ termIds, bibIds, weights }: Postings): string {
  let out = '';
  for (let i = 0; i < termIds.length; i++) out += `${termIds[i]}\t${bibIds[i]}\t${weights[i]}\n`;
  return out;
}

/** Writes index rows into the index tables (or, for a rebuild, the tables it builds). */
export async function writeIndexRows(tx: Queryable, { postings, docs }: IndexRows, tables = { postings: 'search_postings', docs: 'search_docs' }): Promise<void> {
  if (tx.copyFrom) {
    // COPY: a batch's tens of thousands of postings without building and parsing arrays.
    await tx.copyFrom(tables.postings, ['term_id', 'bib_id', 'weight'], postingsText(postings));
    await tx.copyFrom(tables.docs, DOC_COLUMNS, copyText(docs));
    return;
  }
  await tx.query(`insert into ${tables.postings} (term_id, bib_id, weight) select * from unnest($1::int[], $2::bigint[], $3::real[])`,
    [postings.termIds, postings.bibIds, postings.weights]);
  await tx.query(
    `insert into ${tables.docs} (${DOC_COLUMNS.join(', ')})
     select b, t, w, s, y, m, l, k::int[], kw::real[] from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[]) as u(b, t, w, s, y, m, l, k, kw)`,
    DOC_COLUMNS.map((_, c) => docs.map((r) => r[c])),
  );
}

/**
 * A key of the index: its id, and for stem ("~") keys how many bibs it marks, how often they
 * changed, and whether its list has a bitmap (bitmaps.ts).
 */
export interface Term {
  id: number;
  df: number;
  version: number;
  bitmap: boolean;
}

/** A count of a search's matches kept (search_counts), and the versions of its lists it was counted at. */
export interface CachedCount {
  total: number;
  versions: number[];
}

/** These keys' terms, and what search_counts keeps for the search `counted` (in the same round trip) if any key is found. */
export async function terms(db: Queryable, keys: string[], counted: string | null = null): Promise<{ terms: Map<string, Term>; count?: CachedCount }> {
  if (keys.length === 0) return { terms: new Map() };
  // Planned once: planned for its values, it was planned afresh for every search (a short array
  // looks cheaper than the generic plan's guess), for the same plan.
  const rows = await db.query<Term & { key: string; total: number | null; versions: number[] | null }>(
    `select t.id, t.key, t.df, t.version, t.bitmap, c.total, c.versions
     from search_terms t left join search_counts c on c.search = $2 where t.key = any($1::text[])`, [keys, counted], { planOnce: true });
  const [first] = rows;
  return {
    terms: new Map(rows.map((r) => [r.key, { id: r.id, df: r.df, version: r.version, bitmap: r.bitmap }])),
    ...(first?.total != null && { count: { total: first.total, versions: first.versions! } }),
  };
}

/** A clause for the query: the terms (with how much each counts) any of which satisfies it. */
export interface SqlClause {
  termIds: number[];
  boosts: number[];
}

export interface SearchFilters {
  materialType?: string[];
  language?: string[];
  /** First years of decades: 1990 for 1990–1999. */
  decade?: number[];
}

export interface SearchSql {
  required: SqlClause[];
  optional: SqlClause[];
  /** Bibs with a posting in any of these lists are left out. */
  excluded: number[];
  /** Bibs with a word that is its own stem are left out: their stem list's weight exceeds their other forms'. */
  excludedStems: { stem: number; others: number | null }[];
  /** Folded phrases (" a b c ") every result's words must contain. */
  phrases: string[];
  excludedPhrases: string[];
  /** The query's words as a folded title (" a b "), for exact and leading title matches; null: none. */
  title: string | null;
  filters: SearchFilters;
  sort: 'relevance' | 'title' | 'year';
  limit: number;
  offset: number;
}

export interface SearchHit {
  id: string;
  score: number;
  total: number;
  /** The bib's row, when the statement was asked for it. */
  bib?: BibRow;
}

/**
 * The last select of a ranking statement whose CTE "page" holds the page (bib_id, score, total,
 * and the `extra` columns) in `order`: each hit with its bib's row when `bibs` asks for it, so the
 * page and its bibs come in one round trip. (A hit whose bib is missing is left out.)
 */
function pageSelect(order: string, bibs: BibExtras | undefined, extra: string[] = []): string {
  const hit = ['score', 'total', ...extra].map((column) => `page.${column}`).join(', ');
  return bibs
    ? `select ${hit}, ${bibRowColumns(bibs)} from page join ${BIB_FROM} on b.id = page.bib_id order by ${order}`
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
 * in (see MatchSql).
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

export interface PoolLists {
  termIds: number[];
  /** How far down the lists the pool reaches. */
  size: number;
  /** The sizes of the smaller pools before it: a bib's tier is how many of them it lies beyond. */
  tiers: number[];
}

/** The parameters of one statement: add() keeps a value and answers its placeholder. */
class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The best bibs of some keys' impact lists, each with its best place in them. */
function poolSql(pool: PoolLists, p: SqlParams): string {
  // (A list holds a bib once: only bibs from several lists need grouping.)
  return pool.termIds.length === 1 ? poolEntriesSql(pool, p) : `select bib_id, min(place) as place from (${poolEntriesSql(pool, p)}) as l group by bib_id`;
}

/**
 * The best entries of some keys' impact lists: bib, key, weight, and place in the key's list (0 in
 * a first pool, which has no tiers to place bibs in: numbering thousands of entries was a fifth of
 * reading them).
 */
function poolEntriesSql(pool: PoolLists, p: SqlParams): string {
  const size = p.add(pool.size);
  const place = pool.tiers.length ? 'row_number() over (order by x.weight desc, x.bib_id)' : '0::bigint';
  return pool.termIds.map((id) =>
    `(select x.bib_id, x.term_id, x.weight, ${place} as place
      from search_postings x where x.term_id = ${p.add(id)} order by x.weight desc, x.bib_id limit ${size})`).join(' union all ');
}

/** An exact title beats a leading one, which beats the words found anywhere in it in order. */
function titleBoost(title: string, p: SqlParams, column = 'd.title'): string {
  return `(case when ${column} = ${p.add(title)} then 60 when ${column} like ${p.add(`${title}%`)} then 25
                when ${column} like ${p.add(`%${title}%`)} then 10 else 0 end)`;
}

/** Conditions that the doc's words (d.words) contain each phrase, or (not) none of them. */
function phraseConditions(phrases: string[], p: SqlParams, not = false): string[] {
  return phrases.map((phrase) => `d.words ${not ? 'not ' : ''}like ${p.add(`%${phrase}%`)}`);
}

/** The clauses' terms and boosts as parallel arrays, with each term's clause (by index). */
function termArrays(clauses: SqlClause[]): { terms: number[]; boosts: number[]; clauses: number[] } {
  const out = { terms: [] as number[], boosts: [] as number[], clauses: [] as number[] };
  clauses.forEach((c, i) => c.termIds.forEach((id, j) => {
    out.terms.push(id);
    out.boosts.push(c.boosts[j]!);
    out.clauses.push(i);
  }));
  return out;
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
    // ties then broke differently from one page to the next (see rankPool).
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
      ...(q.excluded.length ? [`not exists (select 1 from search_postings x where x.bib_id = m.bib_id and x.term_id = any(${p.add(q.excluded)}::int[]))`] : []),
      ...q.excludedStems.map((e) => `not exists (select 1 from search_postings x where x.term_id = ${p.add(e.stem)} and x.bib_id = m.bib_id
        and x.weight > coalesce((select y.weight from search_postings y where y.term_id = ${p.add(e.others ?? 0)} and y.bib_id = m.bib_id), 0))`),
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
  const order = q.sort === 'title' ? 'd.sort_title, d.bib_id' : q.sort === 'year' ? 'd.year desc nulls last, d.bib_id' : 'score desc, d.bib_id';
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

/** A list's bitmap in a statement: its key id, the placeholder holding it, the name it is read as. */
interface Bitmap {
  id: number;
  param: string;
  name: string;
}

/**
 * How a statement reads the bitmap `b` for the bib `bib`: what the bib's row is joined to (from),
 * and the condition, if any, it must then meet (check).
 */
function bitmapRead(b: Bitmap, assembled: boolean, bib: string): { from: string; check?: string } {
  return assembled ? { from: `cross join ${b.name}`, check: bitmapHas(b.name, bib) } : { from: bitmapJoin(b.name, b.param, bib) };
}

/** A query of words only, every one required, ranked from the pool of its rarest word's best bibs. */
export interface PoolQuery {
  /** Each required word's terms with their boosts. */
  words: SqlClause[];
  optional: SqlClause[];
  pool: PoolLists;
  /**
   * Lists every match is in (the words' stem lists, the phrases' pair lists), but for those the
   * pool was drawn from (and the stem lists of a phrase's words when it has pair lists: the
   * phrase, checked in the text, says the bib has them), shortest first: a pool bib is looked up
   * in each, in this order, after `bitmaps`.
   */
  probes: number[];
  /** More such lists, that have bitmaps: a pool bib's bit is read in each, before any probe (a tenth of a probe's cost). */
  bitmaps: number[];
  /**
   * Each bitmap is assembled into one value, once, and every pool bib's bit read in it (bitmapCte:
   * a large pool's way); else each bib's row is joined to its chunk (bitmapJoin: a small pool's).
   */
  assembleBitmaps: boolean;
  /**
   * The pool holds the whole of its list (`list`, the rarest list: a word's stem list or a
   * phrase's pair list). Its bibs in `joined` (the first of probes or bitmaps) are found at once,
   * not a check each: by one pass over both lists in bib order, or by `joined`'s bits.
   */
  whole?: { list: number; joined: number };
  title: string | null;
  /** Folded phrases (" a b ") every result's words must contain. */
  phrases: string[];
  limit: number;
  offset: number;
  /** Also answer each hit's bib, with these extras. */
  bibs?: BibExtras;
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
function poolBibs(q: PoolQuery, p: SqlParams, scored: number[], bitmapOf: (id: number) => Bitmap | undefined): { ctes: string; known: boolean } {
  if (!q.whole) {
    // Kept only when every pool bib is checked in no other list (one word): a pool of thousands
    // drawn for words seldom found together costs more to keep than the few matches' probes it saves.
    const checksNone = q.probes.length === 0 && q.bitmaps.length === 0;
    if (!checksNone || !q.pool.termIds.some((id) => scored.includes(id))) return { ctes: `c as (${poolSql(q.pool, p)})`, known: false };
    return { ctes: `entries as materialized (${poolEntriesSql(q.pool, p)}),
      c as (select bib_id, min(place) as place from entries group by bib_id)`, known: true };
  }
  const joinedBits = bitmapOf(q.whole.joined);
  const read = joinedBits && bitmapRead(joinedBits, q.assembleBitmaps, 'a.bib_id');
  const both = read
    ? `in_both as materialized (select a.bib_id from search_postings a ${read.from}
      where ${[`a.term_id = ${p.add(q.whole.list)}`, ...(read.check ? [read.check] : [])].join(' and ')})`
    : `in_both as materialized (select a.bib_id from search_postings a
      join search_postings b on b.bib_id = a.bib_id and b.term_id = ${p.add(q.whole.joined)} where a.term_id = ${p.add(q.whole.list)})`;
  if (q.pool.tiers.length === 0) return { ctes: `${both}, c as (select bib_id, 0::bigint as place from in_both)`, known: false };
  return { ctes: `${both}, c as (select l.bib_id, l.place from (${poolSql(q.pool, p)}) as l join in_both on in_both.bib_id = l.bib_id)`, known: false };
}

/**
 * The matches in the pool, ranked exactly as search() ranks them, and how many there are: with
 * pool lists of a few hundred entries this reads a few thousand postings however common the words
 * (with a whole list, that list and the one joined to it).
 */
export async function rankPool(db: Queryable, q: PoolQuery): Promise<{ hits: SearchHit[]; pooled: number }> {
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
    ...probes.map((id) => `when not exists (select from search_postings y where y.term_id = ${p.add(id)} and y.bib_id = c.bib_id offset 0) then false`),
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
    ${pageSelect('page.tier, page.score desc, page.bib_id', q.bibs)}`;
  // Planned once: its plan follows from its text (how many lists, probes and phrases); planned
  // for its values, it was planned afresh for every search, the planning costing about as much as
  // ranking a rare word's pool.
  const rows = await db.query<PageRow>(sql, p.values, { planOnce: true });
  return { hits: hitsOf(rows, q.bibs), pooled: rows[0]?.total ?? 0 };
}

/**
 * A search whose pool is drawn from the lists of one word (or one number), given by key: the
 * statement looks the keys up itself, so the search takes one round trip where looking them up
 * first took two. The pool is the first one rankPool would rank for the word, and ranked the same.
 */
export interface KeyedPoolQuery {
  /** The word's keys with their boosts, the first its match list (a stem key, "~", or a number's). */
  keys: string[];
  boosts: number[];
  /** How far down each list with a positive boost the pool reaches. */
  size: number;
  title: string | null;
  limit: number;
  offset: number;
  /** Also answer each hit's bib, with these extras (its row for the page, in the same round trip). */
  bibs?: BibExtras;
}

/**
 * The page of a KeyedPoolQuery, how many matches the pool holds, and the first key's df (its
 * list's length if it is a stem key; null when it is not in the index).
 */
export async function rankKeyedPool(db: Queryable, q: KeyedPoolQuery): Promise<{ hits: SearchHit[]; pooled: number; listed: number | null }> {
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
    ${pageSelect('page.score desc, page.bib_id', q.bibs, ['listed'])}`;
  const rows = await db.query<PageRow>(sql, p.values, { planOnce: true });
  return { hits: hitsOf(rows, q.bibs), pooled: rows[0]?.total ?? 0, listed: rows[0]?.listed ?? null };
}

/** How many bibs are in every one of these lists (rarest first, so the join starts small). */
export async function countCommon(db: Queryable, termIds: number[], phrases: string[] = []): Promise<number> {
  const p = new SqlParams();
  const first = p.add(termIds[0]);
  const joins = termIds.slice(1).map((id, i) => `join search_postings p${i + 1} on p${i + 1}.term_id = ${p.add(id)} and p${i + 1}.bib_id = p0.bib_id`);
  const rows = await db.query<{ n: number }>(
    `select count(*)::int as n from search_postings p0 ${joins.join(' ')}
     ${phrases.length ? 'join search_docs d on d.bib_id = p0.bib_id' : ''}
     where ${[`p0.term_id = ${first}`, ...phraseConditions(phrases, p)].join(' and ')}`,
    p.values,
  );
  return rows[0]!.n;
}

export async function saveCount(db: Queryable, search: string, versions: number[], total: number): Promise<void> {
  await db.query(
    `insert into search_counts (search, versions, total, counted) values ($1, $2::int[], $3, now())
     on conflict (search) do update set versions = excluded.versions, total = excluded.total, counted = excluded.counted`,
    [search, versions, total],
  );
}
