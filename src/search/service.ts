// Search: the search box's text to ranked bib ids, over the index in the database. One service
// for the API and (next) the public catalogue pages, so both give the same records in the same order.
import { bibsById, type BibExtras, type BibRow } from '../bibs/repository.ts';
import type { Db } from '../db/types.ts';
import { ANY_FIELD, EXACT_FACTOR, FIELD_KEYS, pairKeys, STEM_FACTOR } from './document.ts';
import { parseQuery } from './query.ts';
import { rankKeyedPool, rankPool } from './pool-repository.ts';
import * as repo from './ranking-repository.ts';
import { isbn13, stem } from './text.ts';
import type { CachedCount, PoolQuery, SearchFilters, SearchSql, SqlClause, Term } from './types.ts';

/** The `index` choices, and the key prefix each searches. */
export const SEARCH_INDEXES = {
  title: FIELD_KEYS.title,
  author: FIELD_KEYS.author,
  subject: FIELD_KEYS.subject,
  note: FIELD_KEYS.note,
  series: FIELD_KEYS.series,
  isbn: FIELD_KEYS.number,
  issn: FIELD_KEYS.number,
  standardNumber: FIELD_KEYS.number,
  callNumber: FIELD_KEYS.callNumber,
} as const;
export type SearchIndex = keyof typeof SEARCH_INDEXES;
export const SEARCH_SORTS = ['relevance', 'title', 'year'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export interface SearchRequest {
  text: string;
  index?: SearchIndex;
  sort?: SearchSort;
  /** Only records with one of these material types, languages, or publication decades. */
  filters?: SearchFilters;
  /** Also count the matches by material type, language and decade. */
  facets?: boolean;
  /** Rank every match, never from the pool (not offered by the API: tests compare the two). */
  exhaustive?: boolean;
  limit: number;
  offset: number;
  /** Also answer the page's bibs (their rows, with these extras): read with the ranking where it can, else after it. */
  bibs?: BibExtras;
}

export interface FacetValue<T> {
  value: T;
  count: number;
}

export interface SearchFacets {
  materialType: FacetValue<string>[];
  language: FacetValue<string>[];
  decade: FacetValue<number>[];
}

export interface SearchResult {
  total: number;
  /** bib: with SearchRequest.bibs (a hit whose bib cannot be read is left out). */
  hits: { id: string; relevance: number; bib?: BibRow }[];
  /** Present when asked for. */
  facets?: SearchFacets;
}

/**
 * How many of its best bibs each list of the rarest word contributes to the pool ranked first (at
 * least: a search of several words takes more when they seldom appear together, FIRST_POOL_MATCHES).
 * The trade: a bib outside the pool ranks after the pool's bibs even if its score is higher, which
 * takes a bib that is weak in every one of the word's lists (see README "Search"). Searches of
 * several words take twice as many, since fewer of the rarest word's best bibs have all the others
 * (unless the pool comes from a phrase's pair list, most of whose bibs have the whole phrase).
 */
const POOL_SIZE = 100;

/**
 * The first pool of a search of several words is sized to hold this share of POOL_SIZE in matches
 * (40), as the words' rate of appearing together predicts.
 */
const FIRST_POOL_MATCHES = 0.4;

/**
 * How many times over a pool grows when it holds too few matches for the page. The first pool is
 * sized by the words' rate of appearing together, so it misses by less than this when it misses
 * (their matches are not spread evenly down the rarest list); eight, when the first pool was a
 * fixed 200, made the bench's slowest search of several words take 15 ms where four take 6.
 */
const POOL_GROWTH = 4;

/**
 * How many list entries PostgreSQL reads in order (a join of two whole lists) for the cost of one
 * probe of a list for a bib: about 0.15 against 1.5 µs on the bench's machine.
 */
const ENTRIES_PER_PROBE = 8;

/**
 * A pool of more bibs than this reads each bitmap it checks assembled into one value (about 0.3 ms
 * for the 245 chunks of a million ids, then a bit read per bib); a smaller one joins the bitmaps'
 * chunks (dearer per bib, nothing to assemble): PoolQuery.assembleBitmaps. On the bench's
 * searches of several words, pools of a few hundred bibs took 10-30% less joined, and pools of
 * 4,600 and 10,000 bibs 15-20% more.
 */
const ASSEMBLE_BITMAPS_FROM = 2000;

function hasFilters(filters: SearchFilters): boolean {
  return !!(filters.materialType?.length || filters.language?.length || filters.decade?.length);
}

/** The most values a facet lists. */
const FACET_VALUES = 20;

/** A standard number typed into the box (ISBN with or without hyphens, ISSN): its index key. */
function numberKey(text: string): string | undefined {
  const compact = text.trim().replace(/[\s-]/g, '').toLowerCase();
  const isbn = isbn13(compact);
  if (isbn) return `i:${isbn}`;
  if (/^\d{7}[\dx]$/.test(compact)) return `i:${compact}`;
  if (/^\d{8,}$/.test(compact)) return `i:${compact}`;
  return undefined;
}

/** A ranked bib as the service answers it: relevance to two decimals. */
const toHit = (h: repo.SearchHit): SearchResult['hits'][number] => ({ id: h.id, relevance: Math.round(h.score * 100) / 100, ...(h.bib && { bib: h.bib }) });

export class SearchService {
  /**
   * @param poolSize see POOL_SIZE (tests make it small, to page past the pool in a small catalogue)
   * @param assembleBitmapsFrom see ASSEMBLE_BITMAPS_FROM (tests read the bitmaps both ways)
   */
  constructor(private readonly db: Db, private readonly poolSize = POOL_SIZE, private readonly assembleBitmapsFrom = ASSEMBLE_BITMAPS_FROM) {}

  async search(request: SearchRequest): Promise<SearchResult> {
    const { result: found, sql, list } = await this.find(request);
    // (Unless the ranking statement read them.)
    const result = request.bibs && found.hits.some((h) => !h.bib) ? await this.withBibs(found, request.bibs) : found;
    if (!request.facets) return result;
    // Counted over the same matches, apart from the ranking: asking for facets changes no order.
    return { ...result, facets: sql ? await this.facetsOf(sql, list) : { materialType: [], language: [], decade: [] } };
  }

  /** The hits with their bibs read (those whose bib is not found left out). */
  private async withBibs(result: SearchResult, extras: BibExtras): Promise<SearchResult> {
    const rows = await bibsById(this.db, result.hits.map((h) => h.id), extras);
    return { ...result, hits: result.hits.flatMap((h) => { const bib = rows.get(h.id); return bib ? [{ ...h, bib }] : []; }) };
  }

  /**
   * The ranked page, and the query it ran (absent when nothing can match), with the one list that
   * holds exactly its matches when there is one (a single word's, without filters).
   */
  private async find(request: SearchRequest): Promise<{ result: SearchResult; sql?: SearchSql; list?: number }> {
    const field: string = request.index ? SEARCH_INDEXES[request.index] : ANY_FIELD;
    const number = !request.index || field === FIELD_KEYS.number ? numberKey(request.text) : undefined;
    if (number || field === FIELD_KEYS.number) {
      if (!number) return { result: { total: 0, hits: [] } };
      const keyed = await this.keyedPool(request, [[number, 1]], null, false);
      if (keyed) return { result: keyed };
      const { terms: ids } = await repo.terms(this.db, [number]);
      if (!ids.size) return { result: { total: 0, hits: [] } };
      const sql: SearchSql = { required: [{ termIds: [...ids.values()].map((t) => t.id), boosts: [1] }], optional: [], excluded: [], excludedStems: [], phrases: [], excludedPhrases: [], title: null, ...this.page(request) };
      return { result: await this.run(sql), sql };
    }

    const query = parseQuery(request.text);
    if (query.clauses.length === 0) return { result: { total: 0, hits: [] } };
    // Each word: its exact form counts fully, other forms with the same stem STEM_FACTOR ("history"
    // finds "histories" and "histories" "history"): S - EXACT_FACTOR * O, or STEM_FACTOR * S +
    // EXACT_FACTOR * E from the field's "~", "^" and ":" keys (see ANY_FIELD in document.ts).
    const wordKeys = (word: string): [string, number][] => {
      const stemmed = stem(word);
      return stemmed === word
        ? [[`${field}~${stemmed}`, 1], [`${field}^${stemmed}`, -EXACT_FACTOR]]
        : [[`${field}~${stemmed}`, STEM_FACTOR], [`${field}:${word}`, EXACT_FACTOR]];
    };
    const titleWords = query.clauses.flatMap((c) => c.alternatives.length === 1 ? c.alternatives[0]! : []);
    // Searching every field for one word, the title's first word ("*!") says whether the title is
    // or starts with it; longer searches compare the whole title when ranking.
    const leading = !request.index && titleWords.length === 1 && query.clauses.length === 1 ? `${ANY_FIELD}!${titleWords[0]}` : undefined;
    const comparesTitle = request.index ? field === FIELD_KEYS.title && titleWords.length > 0 : titleWords.length > 1;
    const [only] = query.clauses;
    if (query.clauses.length === 1 && query.excluded.length === 0 && only!.alternatives.length === 1 && only!.alternatives[0]!.length === 1) {
      const keyed = await this.keyedPool(request, [...wordKeys(titleWords[0]!), ...(leading ? [[leading, 1] as [string, number]] : [])],
        comparesTitle ? ` ${titleWords[0]} ` : null, true);
      if (keyed) return { result: keyed };
    }
    const allKeys = [...query.clauses.flatMap((c) => c.alternatives.flat()), ...query.excluded.flat()].flatMap((w) => wordKeys(w).map(([k]) => k));
    if (leading) allKeys.push(leading);
    // The pairs of the required phrases, searching every field (document.ts, pairKey).
    const requiredPhrases = field === ANY_FIELD ? query.clauses.filter((c) => !c.optional && c.alternatives.length === 1 && c.alternatives[0]!.length > 1).map((c) => c.alternatives[0]!) : [];
    const pairs = requiredPhrases.flatMap((words) => pairKeys(words));
    allKeys.push(...pairs);
    // The words every match has, and the phrases it has in its text; the count of their matches is
    // kept by their lists' keys and the phrases (countAll), and looked up with the keys.
    const single = query.clauses.filter((c) => !c.optional && c.alternatives.length === 1).map((c) => c.alternatives[0]!);
    const requiredWords = single.flat();
    const phrases = single.filter((words) => words.length > 1).map((words) => ` ${words.join(' ')} `);
    const countedKeys = [...new Set([...requiredWords.map((word) => `${field}~${stem(word)}`), ...pairs])].sort();
    const countedSearch = JSON.stringify({ keys: countedKeys, phrases });
    const { terms: ids, count: cachedCount } = await repo.terms(this.db, [...new Set(allKeys)], countedSearch);
    const clauseOf = (alternatives: string[][]): SqlClause => {
      const termIds: number[] = [];
      const boosts: number[] = [];
      for (const word of new Set(alternatives.flat())) {
        for (const [key, boost] of wordKeys(word)) {
          const id = ids.get(key)?.id;
          if (id !== undefined && !termIds.includes(id)) {
            termIds.push(id);
            boosts.push(boost);
          }
        }
      }
      return { termIds, boosts };
    };
    // A phrase requires each of its words, and its words in order (checked on the folded text);
    // a clause with alternatives requires any one of them (words only: a phrase inside OR is read as words).
    const required = query.clauses.filter((c) => !c.optional)
      .flatMap((c) => (c.alternatives.length === 1 ? c.alternatives[0]!.map((word) => clauseOf([[word]])) : [clauseOf(c.alternatives)]));
    if (required.length === 0 || required.some((c) => c.termIds.length === 0)) return { result: { total: 0, hits: [] } };
    const optional = query.clauses.filter((c) => c.optional).map((c) => clauseOf(c.alternatives)).filter((c) => c.termIds.length);
    // An excluded word excludes its exact form only: "-war" should not also drop "wars".
    const excluded: number[] = [];
    const excludedStems: SearchSql['excludedStems'] = [];
    for (const [word] of query.excluded.filter((e) => e.length === 1)) {
      const stemmed = stem(word!);
      if (stemmed === word) {
        const stemTerm = ids.get(`${field}~${stemmed}`);
        if (stemTerm) excludedStems.push({ stem: stemTerm.id, others: ids.get(`${field}^${stemmed}`)?.id ?? null });
      } else {
        const exact = ids.get(`${field}:${word}`);
        if (exact) excluded.push(exact.id);
      }
    }
    const excludedPhrases = query.excluded.filter((e) => e.length > 1).map((e) => ` ${e.join(' ')} `);
    const leadingTerm = leading ? ids.get(leading) : undefined;
    if (leadingTerm) {
      required[0]!.termIds.push(leadingTerm.id);
      required[0]!.boosts.push(1);
    }
    const sql: SearchSql = {
      required, optional, excluded, excludedStems, phrases, excludedPhrases,
      title: comparesTitle ? ` ${titleWords.join(' ')} ` : null,
      ...this.page(request),
    };
    const simple = this.ranksByPool(request) && excluded.length === 0 && excludedStems.length === 0
      && excludedPhrases.length === 0 && query.clauses.every((c) => c.optional || c.alternatives.length === 1);
    if (!simple) return { result: await this.run(sql), sql };
    // Words only, every one required, ranked by relevance: the pool of the rarest word's best bibs
    // is ranked first, which answers the first pages without reading the words' whole lists.
    const stems = requiredWords.map((word) => ids.get(`${field}~${stem(word)}`)!);
    // A phrase's pairs join its words as lists every match is in, shortest first; the pool comes from the shortest.
    // (A pair no bib has yet is left out: bibs indexed before pairs existed lack them until indexed again.)
    const pairTerms = pairs.flatMap((key) => ids.get(key) ?? []);
    const lists = [...stems, ...pairTerms].sort((a, b) => a.df - b.df);
    const rarest = lists[0]!;
    const source = stems.indexOf(rarest);
    const rarestClause = required[source];
    const termIds = rarestClause ? rarestClause.termIds.filter((_, i) => rarestClause.boosts[i]! > 0) : [rarest.id];
    // Every pool bib is in the rarest list: it is looked up in the others. Not in the stem lists of
    // a phrase's words when the phrase has pair lists: those lists, then the phrase found in the
    // bib's text, already say it has the words (a probe of each stem list was a fifth of a phrase's time).
    const checkedByPairs = new Set(requiredPhrases.filter((words) => pairKeys(words).some((key) => ids.has(key)))
      .flat().map((word) => ids.get(`${field}~${stem(word)}`)?.id));
    const checked = [...new Map(lists.map((t) => [t.id, t])).values()].filter((t) => t.id !== rarest.id && !checkedByPairs.has(t.id));
    // Lists with bitmaps are checked first, by a bit each; the rest by a probe each, shortest first.
    const bitmaps = checked.filter((t) => t.bitmap).map((t) => t.id);
    const probes = checked.filter((t) => !t.bitmap).map((t) => t.id);
    const page = { words: required, optional, title: sql.title, phrases, probes, bitmaps, limit: sql.limit, offset: sql.offset };
    const total = lists.length === 1 ? rarest.df : await this.countAll(lists, phrases, {
      search: countedSearch, versions: countedKeys.map((key) => ids.get(key)?.version ?? -1), cached: cachedCount });
    if (total === 0) return { result: { total, hits: [] }, sql };
    // The first pool is as large as the words' rate of appearing together predicts it must be to
    // hold FIRST_POOL_MATCHES × poolSize matches: words seldom found together then take one pool
    // of the size they need, not three growing ones. It then grows POOL_GROWTH times over until it
    // holds the page or the rarest word's every bib. A bib's tier is the smallest pool that holds
    // it; tiers rank in order, and depend on the query and the index only, never the page, so the
    // order is the same whichever pool a page was read from, and pages never overlap or skip.
    const tiers: number[] = [];
    // (A pool drawn from a phrase's pair list takes one word's size: nearly all its bibs have the phrase.)
    const base = requiredWords.length > 1 && source >= 0 ? 2 * this.poolSize : this.poolSize;
    const size = Math.max(base, Math.ceil((FIRST_POOL_MATCHES * this.poolSize * rarest.df) / total));
    // A pool whose probes would cost more than reading the rarest list and the next shortest whole
    // takes all of the rarest list instead, and finds which of its bibs are in the other by one
    // pass over both in bib order (PoolQuery.whole), or by the other's bits when it has a
    // bitmap. (Chosen from the lists' lengths alone, as before bitmaps: they change no result.)
    const next = checked[0];
    const poolOf = (wanted: number): PoolQuery => {
      const whole = next && rarest.df + next.df <= ENTRIES_PER_PROBE * Math.min(wanted, rarest.df) ? { list: rarest.id, joined: next.id } : undefined;
      const size = whole ? Math.max(wanted, rarest.df) : wanted;
      return { ...page, whole, pool: { termIds, size, tiers }, assembleBitmaps: size * termIds.length > this.assembleBitmapsFrom };
    };
    let poolQuery = poolOf(size);
    let ranked = await rankPool(this.db, poolQuery, request.bibs);
    while (ranked.hits.length < sql.limit && ranked.pooled < total && poolQuery.pool.size < rarest.df) {
      tiers.push(poolQuery.pool.size);
      poolQuery = poolOf(poolQuery.pool.size * POOL_GROWTH);
      ranked = await rankPool(this.db, poolQuery, request.bibs);
    }
    // One word: every bib in its stem list matches (its other lists are parts of it).
    const list = lists.length === 1 ? rarest.id : undefined;
    return { result: { total, hits: ranked.hits.map(toHit) }, sql, list };
  }

  /**
   * The search of one list (one word's, one number's) when the first pool holds its page: its keys
   * looked up by the ranking statement itself, one round trip instead of two. Nothing on the first
   * page means nothing matches (the word or number is in no bib). Undefined when that cannot
   * answer: another sort, filters or facets, a page past the first pool, or an empty page past the
   * first (whose total the general path then gives).
   * @param counted the first key is a stem key, whose kept length (df) is the total; a number's
   *   list is not counted, and its total is known when the pool holds all of it
   */
  private async keyedPool(request: SearchRequest, keys: [string, number][], title: string | null, counted: boolean): Promise<SearchResult | undefined> {
    const { limit, offset } = request;
    if (!this.ranksByPool(request) || request.facets || offset + limit > this.poolSize) return undefined;
    const ranked = await rankKeyedPool(this.db, { keys: keys.map(([key]) => key), boosts: keys.map(([, boost]) => boost), size: this.poolSize, title, limit, offset }, request.bibs);
    if (ranked.hits.length === 0) return offset === 0 ? { total: 0, hits: [] } : undefined;
    const total = counted ? ranked.listed : ranked.pooled < this.poolSize ? ranked.pooled : null;
    if (total === null) return undefined;
    return { total, hits: ranked.hits.map(toHit) };
  }

  /**
   * How many bibs have all these words (and phrases). Counting common words means reading long
   * lists, so the count is kept (search_counts) until one of the words' lists changes: `kept` is
   * what was kept for this search (by its keys and phrases), and the versions its lists have now
   * (-1 for a key not in the index), which must be those it was counted at.
   */
  private async countAll(rarestFirst: Term[], phrases: string[], kept: { search: string; versions: number[]; cached?: CachedCount }): Promise<number> {
    const { search, versions, cached } = kept;
    if (cached && cached.versions.length === versions.length && cached.versions.every((v, i) => v === versions[i])) return cached.total;
    const total = await repo.countCommon(this.db, rarestFirst.map((t) => t.id), phrases);
    await repo.saveCount(this.db, search, versions, total);
    return total;
  }

  /** Whether the request's order can come from a pool (ranked by relevance, nothing filtered, not exhaustive), if its query allows. */
  private ranksByPool(request: SearchRequest): boolean {
    return !request.exhaustive && (request.sort ?? 'relevance') === 'relevance' && !hasFilters(request.filters ?? {});
  }

  private page(request: SearchRequest): Pick<SearchSql, 'filters' | 'sort' | 'limit' | 'offset'> {
    return { filters: request.filters ?? {}, sort: request.sort ?? 'relevance', limit: request.limit, offset: request.offset };
  }

  private async run(sql: SearchSql): Promise<SearchResult> {
    const hits = await repo.search(this.db, sql);
    let total = hits[0]?.total ?? 0;
    if (hits.length === 0 && sql.offset > 0) total = (await repo.search(this.db, { ...sql, limit: 1, offset: 0 }))[0]?.total ?? 0;
    return { total, hits: hits.map(toHit) };
  }

  private async facetsOf(sql: SearchSql, list?: number): Promise<SearchFacets> {
    const facets: SearchFacets = { materialType: [], language: [], decade: [] };
    for (const row of await repo.facetCounts(this.db, sql, FACET_VALUES, list)) {
      if (row.facet === 'decade') facets.decade.push({ value: Number(row.value), count: row.count });
      else facets[row.facet].push({ value: row.value, count: row.count });
    }
    return facets;
  }
}

