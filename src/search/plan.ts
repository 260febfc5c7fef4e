// How a search is executed, decided with no database at hand. readSearch reads a request's query
// and the keys it is looked up by; planKeyed says whether one word or number may be answered by a
// single statement that looks its keys up itself (before any statistics are read); planSearch,
// given the keys' statistics, chooses nothing at all, every match ranked in one pass, or a ranking
// from pools of the rarest list's best bibs, whose sizes firstPool and nextPool choose. The
// service (service.ts) reads the statistics and executes the plan; README "Search" says why.
import { EXACT_FACTOR, pairKeys, STEM_FACTOR } from './document.ts';
import { ANY_FIELD, FIELD_KEYS, KEY } from './keys.ts';
import { parseQuery, type Query } from './query.ts';
import { SEARCH_INDEXES, type SearchOptions } from './request.ts';
import { isbn13, stem } from './text.ts';
import type { CachedCount, CountQuery, KeyedPoolQuery, PoolQuery, SearchFilters, SearchSql, SqlClause, Term, TermStats } from './types.ts';

/**
 * How many of its best bibs each list of the rarest word contributes to the pool ranked first (at
 * least: a search of several words takes more when they seldom appear together, FIRST_POOL_MATCHES).
 * The trade: a bib outside the pool ranks after the pool's bibs even if its score is higher, which
 * takes a bib that is weak in every one of the word's lists (see README "Search"). Searches of
 * several words take twice as many, since fewer of the rarest word's best bibs have all the others
 * (unless the pool comes from a phrase's pair list, most of whose bibs have the whole phrase).
 */
export const POOL_SIZE = 100;

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
export const ASSEMBLE_BITMAPS_FROM = 2000;

/** The sizes a plan is made with: POOL_SIZE and ASSEMBLE_BITMAPS_FROM, or smaller ones in tests. */
export interface PlanLimits {
  poolSize: number;
  assembleBitmapsFrom: number;
}

/** A search read from its request: the keys whose statistics its plan needs, and what else the plan reads of it. */
export type Search = NumberSearch | WordSearch;

/** A standard number typed into the box: its one key (KEY.number, "i:…"). */
export interface NumberSearch {
  kind: 'number';
  keys: [string];
  counted: null;
}

export interface WordSearch {
  kind: 'words';
  query: Query;
  /** The key prefix searched: one field's (index=), or ANY_FIELD's. */
  field: string;
  /** Every key the query's words, the title's first word and the phrases' pairs are looked up by. */
  keys: string[];
  /** The search the count of the required words' and phrases' matches is kept as (search_counts), by countedKeys. */
  counted: string;
  countedKeys: string[];
  /** The words outside OR, in order: they are compared with the title. */
  titleWords: string[];
  /** Searching every field for one word, the key that says the title is or starts with it (KEY.leading, "*!war"). */
  leading?: string;
  /** The words as a folded title (" a b "), when the ranking compares the title with them. */
  title: string | null;
  /** With a title: its words' stem keys in the title field, the lists any bib whose title is boosted is in. */
  titleKeys: string[];
  /** Searching every field for several words: the key of titles that start with the first two (KEY.titleStart). */
  titleStart?: string;
  /** The words every match has, and its required phrases: as words (those searching every field) and folded (" a b "). */
  requiredWords: string[];
  requiredPhrases: string[][];
  phrases: string[];
  /** The required phrases' pair keys (KEY.pair, document.ts pairKeys). */
  pairs: string[];
}

/** A standard number typed into the box (ISBN with or without hyphens, ISSN): its index key. */
function numberKey(text: string): string | undefined {
  const compact = text.trim().replace(/[\s-]/g, '').toLowerCase();
  const isbn = isbn13(compact);
  if (isbn) return KEY.number(isbn);
  if (/^\d{7}[\dx]$/.test(compact)) return KEY.number(compact);
  if (/^\d{8,}$/.test(compact)) return KEY.number(compact);
  return undefined;
}

/**
 * A word's keys in a field, with their boosts. Its exact form counts fully, other forms with the
 * same stem STEM_FACTOR ("history" finds "histories" and "histories" "history"): S - EXACT_FACTOR
 * * O, or STEM_FACTOR * S + EXACT_FACTOR * E from the field's "~", "^" and ":" keys (KEY.stem,
 * KEY.otherForms, KEY.exact; see EXACT_FACTOR in document.ts).
 */
function wordKeys(field: string, word: string): [string, number][] {
  const stemmed = stem(word);
  return stemmed === word
    ? [
        [KEY.stem(field, stemmed), 1],
        [KEY.otherForms(field, stemmed), -EXACT_FACTOR],
      ]
    : [
        [KEY.stem(field, stemmed), STEM_FACTOR],
        [KEY.exact(field, word), EXACT_FACTOR],
      ];
}

/** The search a request asks for; undefined when nothing can match (no words; no number in a number index). */
export function readSearch(request: SearchOptions): Search | undefined {
  const field: string = request.index ? SEARCH_INDEXES[request.index] : ANY_FIELD;
  const number = !request.index || field === FIELD_KEYS.number ? numberKey(request.text) : undefined;
  if (number) return { kind: 'number', keys: [number], counted: null };
  if (field === FIELD_KEYS.number) return undefined;
  const query = parseQuery(request.text);
  if (query.clauses.length === 0) return undefined;
  const titleWords = query.clauses.flatMap((c) => (c.alternatives.length === 1 ? c.alternatives[0]! : []));
  // Searching every field for one word, the title's first word ("*!") says whether the title is
  // or starts with it; longer searches compare the whole title when ranking.
  const leading = !request.index && titleWords.length === 1 && query.clauses.length === 1 ? KEY.leading(titleWords[0]!) : undefined;
  const comparesTitle = request.index ? field === FIELD_KEYS.title && titleWords.length > 0 : titleWords.length > 1;
  const keys = [...query.clauses.flatMap((c) => c.alternatives.flat()), ...query.excluded.flat()].flatMap((w) =>
    wordKeys(field, w).map(([k]) => k),
  );
  if (leading) keys.push(leading);
  // A boosted title holds each of the title's words whole (the boost compares " a b " with the
  // main title's words), and the indexer puts each of those in the title field's stem list.
  const titleKeys = comparesTitle ? [...new Set(titleWords.map((word) => KEY.stem(FIELD_KEYS.title, stem(word))))] : [];
  keys.push(...titleKeys);
  const titleStart = !request.index && titleWords.length > 1 ? KEY.titleStart(titleWords[0]!, titleWords[1]!) : undefined;
  if (titleStart) keys.push(titleStart);
  // The pairs of the required phrases, searching every field (KEY.pair, document.ts pairKeys).
  const requiredPhrases =
    field === ANY_FIELD
      ? query.clauses
          .filter((c) => !c.optional && c.alternatives.length === 1 && c.alternatives[0]!.length > 1)
          .map((c) => c.alternatives[0]!)
      : [];
  const pairs = requiredPhrases.flatMap((words) => pairKeys(words));
  keys.push(...pairs);
  // The words every match has, and the phrases it has in its text; the count of their matches is
  // kept by their lists' keys and the phrases, and looked up with the keys.
  const single = query.clauses.filter((c) => !c.optional && c.alternatives.length === 1).map((c) => c.alternatives[0]!);
  const requiredWords = single.flat();
  const phrases = single.filter((words) => words.length > 1).map((words) => ` ${words.join(' ')} `);
  const countedKeys = [...new Set([...requiredWords.map((word) => KEY.stem(field, stem(word))), ...pairs])].sort();
  return {
    kind: 'words',
    query,
    field,
    keys: [...new Set(keys)],
    counted: JSON.stringify({ keys: countedKeys, phrases }),
    countedKeys,
    titleWords,
    leading,
    title: comparesTitle ? ` ${titleWords.join(' ')} ` : null,
    titleKeys,
    titleStart,
    requiredWords,
    requiredPhrases,
    phrases,
    pairs,
  };
}

/** Whether the request's order can come from a pool (ranked by relevance, nothing filtered, not exhaustive), if its query allows. */
function ranksByPool(request: SearchOptions): boolean {
  return !request.exhaustive && (request.sort ?? 'relevance') === 'relevance' && !hasFilters(request.filters ?? {});
}

function hasFilters(filters: SearchFilters): boolean {
  return !!(filters.materialType?.length || filters.language?.length || filters.decade?.length);
}

/**
 * The search of one list (one word's, one number's) in one statement that looks its keys up itself:
 * one round trip instead of two, when the first pool holds its page.
 */
export interface KeyedPlan {
  kind: 'keyed';
  query: KeyedPoolQuery;
  /**
   * The first key is a stem key, whose kept length (df) is the total; a number's list is not
   * counted, and its total is known when the pool holds all of it.
   */
  counted: boolean;
}

/**
 * The keyed plan of one word or one number, tried before any statistics are read; undefined when
 * it cannot answer: several words, another sort, filters or facets, or a page past the first pool.
 */
export function planKeyed(search: Search, request: SearchOptions, { poolSize }: PlanLimits): KeyedPlan | undefined {
  const { limit, offset } = request;
  if (!ranksByPool(request) || request.facets || offset + limit > poolSize) return undefined;
  const keyed = (keys: [string, number][], title: string | null, counted: boolean): KeyedPlan => ({
    kind: 'keyed',
    query: { keys: keys.map(([key]) => key), boosts: keys.map(([, boost]) => boost), size: poolSize, title, limit, offset },
    counted,
  });
  if (search.kind === 'number') return keyed([[search.keys[0], 1]], null, false);
  const { query, field, titleWords, leading } = search;
  const [only] = query.clauses;
  const oneWord =
    query.clauses.length === 1 && query.excluded.length === 0 && only!.alternatives.length === 1 && only!.alternatives[0]!.length === 1;
  if (!oneWord) return undefined;
  return keyed([...wordKeys(field, titleWords[0]!), ...(leading ? [[leading, 1] as [string, number]] : [])], search.title, true);
}

/** A search executed after its keys' statistics are read. */
export type Plan = { kind: 'nothing' } | ExhaustivePlan | PoolPlan;

/** Every match found and ranked in one pass over the words' lists (search(), ranking-repository.ts): exact, whatever the query. */
export interface ExhaustivePlan {
  kind: 'exhaustive';
  sql: SearchSql;
}

/**
 * Words only, every one required, ranked by relevance: the pool of the rarest list's best bibs is
 * ranked first, which answers the first pages without reading the words' whole lists.
 */
export interface PoolPlan {
  kind: 'pool';
  /** The same search as the full evaluation runs it: the facets are counted from it. */
  sql: SearchSql;
  /** The one list that holds exactly the matches (one word's: its other lists are parts of it): the facets are counted from it alone. */
  list?: number;
  /** How many bibs match, when known (one list's length, or a count kept at its lists' versions), else how to count them. */
  total: number | CountPlan;
  /** What every pool's query holds but its lists and sizes. */
  page: Omit<PoolQuery, 'pool' | 'whole' | 'assembleBitmaps'>;
  /** The rarest list, the pools' source; and the next shortest every match is in, which a pool may join whole. */
  rarest: Term;
  next?: Term;
  /** The keys whose lists the pools are drawn from: the rarest word's with a positive boost, or the rarest pair's. */
  termIds: number[];
  /** The first pool's least size. */
  base: number;
}

/** A count of a search's matches (CountQuery), to keep as `search` at these versions of its lists. */
export interface CountPlan extends CountQuery {
  search: string;
  versions: number[];
}

/** The plan of a search, from its keys' statistics. */
export function planSearch(search: Search, request: SearchOptions, stats: TermStats, limits: PlanLimits): Plan {
  const ids = stats.terms;
  if (search.kind === 'number') {
    if (!ids.size) return { kind: 'nothing' };
    return {
      kind: 'exhaustive',
      sql: {
        required: [{ termIds: [...ids.values()].map((t) => t.id), boosts: [1] }],
        optional: [],
        excluded: [],
        excludedStems: [],
        phrases: [],
        excludedPhrases: [],
        title: null,
        titleLists: [],
        ...page(request),
      },
    };
  }
  const { query, field, phrases } = search;
  const clauseOf = (alternatives: string[][]): SqlClause => {
    const termIds: number[] = [];
    const boosts: number[] = [];
    for (const word of new Set(alternatives.flat())) {
      for (const [key, boost] of wordKeys(field, word)) {
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
  const required = query.clauses
    .filter((c) => !c.optional)
    .flatMap((c) => (c.alternatives.length === 1 ? c.alternatives[0]!.map((word) => clauseOf([[word]])) : [clauseOf(c.alternatives)]));
  if (required.length === 0 || required.some((c) => c.termIds.length === 0)) return { kind: 'nothing' };
  const optional = query.clauses
    .filter((c) => c.optional)
    .map((c) => clauseOf(c.alternatives))
    .filter((c) => c.termIds.length);
  // An excluded word excludes its exact form only: "-war" should not also drop "wars".
  const excluded: number[] = [];
  const excludedStems: SearchSql['excludedStems'] = [];
  for (const [word] of query.excluded.filter((e) => e.length === 1)) {
    const stemmed = stem(word!);
    if (stemmed === word) {
      const stemTerm = ids.get(KEY.stem(field, stemmed));
      if (stemTerm) excludedStems.push({ stem: stemTerm.id, others: ids.get(KEY.otherForms(field, stemmed))?.id ?? null });
    } else {
      const exact = ids.get(KEY.exact(field, word!));
      if (exact) excluded.push(exact.id);
    }
  }
  const excludedPhrases = query.excluded.filter((e) => e.length > 1).map((e) => ` ${e.join(' ')} `);
  const leadingTerm = search.leading ? ids.get(search.leading) : undefined;
  if (leadingTerm) {
    required[0]!.termIds.push(leadingTerm.id);
    required[0]!.boosts.push(1);
  }
  // A title word in no bib's title: no title is boosted, as if the search compared none.
  const titleLists = search.titleKeys.map((key) => ids.get(key)?.id);
  const title = titleLists.every((id) => id !== undefined) ? search.title : null;
  const sql: SearchSql = {
    required,
    optional,
    excluded,
    excludedStems,
    phrases,
    excludedPhrases,
    title,
    titleLists: title === null ? [] : (titleLists as number[]),
    ...page(request),
  };
  const simple =
    ranksByPool(request) &&
    excluded.length === 0 &&
    excludedStems.length === 0 &&
    excludedPhrases.length === 0 &&
    query.clauses.every((c) => c.optional || c.alternatives.length === 1);
  if (!simple) return { kind: 'exhaustive', sql };
  return poolPlan(search, stats, sql, limits);
}

/** The pool plan of words only, every one required (sql: their full evaluation). */
function poolPlan(search: WordSearch, { terms: ids, count: kept }: TermStats, sql: SearchSql, limits: PlanLimits): PoolPlan {
  const { field, requiredWords, requiredPhrases, pairs, phrases } = search;
  const stems = requiredWords.map((word) => ids.get(KEY.stem(field, stem(word)))!);
  // A phrase's pairs join its words as lists every match is in, shortest first; the pool comes from the shortest.
  // (A pair no bib has yet is left out: bibs indexed before pairs existed lack them until indexed again.)
  const pairTerms = pairs.flatMap((key) => ids.get(key) ?? []);
  const lists = [...stems, ...pairTerms].sort((a, b) => a.df - b.df);
  const rarest = lists[0]!;
  const source = stems.indexOf(rarest);
  const rarestClause = sql.required[source];
  const termIds = rarestClause ? rarestClause.termIds.filter((_, i) => rarestClause.boosts[i]! > 0) : [rarest.id];
  // Every pool bib is in the rarest list: it is looked up in the others. Not in the stem lists of
  // a phrase's words when the phrase has pair lists: those lists, then the phrase found in the
  // bib's text, already say it has the words (a probe of each stem list was a fifth of a phrase's time).
  const checkedByPairs = new Set(
    requiredPhrases
      .filter((words) => pairKeys(words).some((key) => ids.has(key)))
      .flat()
      .map((word) => ids.get(KEY.stem(field, stem(word)))?.id),
  );
  const checked = [...new Map(lists.map((t) => [t.id, t])).values()].filter((t) => t.id !== rarest.id && !checkedByPairs.has(t.id));
  // Lists with bitmaps are checked first, by a bit each; the rest by a probe each, shortest first.
  const bitmaps = checked.filter((t) => t.bitmap).map((t) => t.id);
  const probes = checked.filter((t) => !t.bitmap).map((t) => t.id);
  // The count of several lists' matches is kept until one of them changes (its version moves).
  const versions = search.countedKeys.map((key) => ids.get(key)?.version ?? -1);
  const total =
    lists.length === 1
      ? rarest.df
      : (keptCount(kept, versions) ?? {
          termIds: lists.map((t) => t.id),
          bitmaps: lists.filter((t) => t.bitmap).map((t) => t.id),
          assembleBitmaps: rarest.df > limits.assembleBitmapsFrom,
          phrases,
          search: search.counted,
          versions,
        });
  return {
    kind: 'pool',
    sql,
    total,
    rarest,
    next: checked[0],
    termIds,
    page: {
      words: sql.required,
      optional: sql.optional,
      title: sql.title,
      titled: titledOf(search, sql, ids, rarest),
      phrases,
      probes,
      bitmaps,
      limit: sql.limit,
      offset: sql.offset,
    },
    // (A pool drawn from a phrase's pair list takes one word's size: nearly all its bibs have the phrase.)
    base: requiredWords.length > 1 && source >= 0 ? 2 * limits.poolSize : limits.poolSize,
    // One word: every bib in its stem list matches (its other lists are parts of it).
    ...(lists.length === 1 && { list: rarest.id }),
  };
}

/** PoolQuery.titled: the list of titles that start with the search's first two words, when any does. */
function titledOf(search: WordSearch, sql: SearchSql, ids: TermStats['terms'], rarest: Term): PoolQuery['titled'] {
  const list = sql.title !== null && search.titleStart ? ids.get(search.titleStart) : undefined;
  return list && { list: list.id, within: rarest.id };
}

/** The count kept for a search, if it was counted at the versions its lists have now (-1: a key not in the index). */
function keptCount(kept: CachedCount | undefined, versions: number[]): number | undefined {
  return kept && kept.versions.length === versions.length && kept.versions.every((v, i) => v === versions[i]) ? kept.total : undefined;
}

/**
 * The first pool of a pool plan that matches `total` bibs. It is as large as the words' rate of
 * appearing together predicts it must be to hold FIRST_POOL_MATCHES × poolSize matches: words
 * seldom found together then take one pool of the size they need, not three growing ones.
 */
export function firstPool(plan: PoolPlan, total: number, limits: PlanLimits): PoolQuery {
  return poolOf(plan, Math.max(plan.base, Math.ceil((FIRST_POOL_MATCHES * limits.poolSize * plan.rarest.df) / total)), [], limits);
}

/**
 * The pool after `last`, POOL_GROWTH times over, when `last` held too few matches for the page and
 * neither all `total` matches nor all of the rarest list; else undefined. A bib's tier is the
 * smallest pool that holds it; tiers rank in order, and depend on the query and the index only,
 * never the page, so the order is the same whichever pool a page was read from, and pages never
 * overlap or skip.
 */
export function nextPool(
  plan: PoolPlan,
  last: PoolQuery,
  ranked: { hits: readonly unknown[]; pooled: number },
  total: number,
  limits: PlanLimits,
): PoolQuery | undefined {
  if (ranked.hits.length >= last.limit || ranked.pooled >= total || last.pool.size >= plan.rarest.df) return undefined;
  return poolOf(plan, last.pool.size * POOL_GROWTH, [...last.pool.tiers, last.pool.size], limits);
}

/**
 * A pool of `wanted` bibs of each of the plan's lists, after pools of the sizes `tiers`. A pool
 * whose probes would cost more than reading the rarest list and the next shortest whole takes all
 * of the rarest list instead, and finds which of its bibs are in the other by one pass over both
 * in bib order (PoolQuery.whole), or by the other's bits when it has a bitmap. (Chosen from the
 * lists' lengths alone, as before bitmaps: they change no result.)
 */
function poolOf(plan: PoolPlan, wanted: number, tiers: number[], limits: PlanLimits): PoolQuery {
  const { rarest, next, termIds } = plan;
  const whole =
    next && rarest.df + next.df <= ENTRIES_PER_PROBE * Math.min(wanted, rarest.df) ? { list: rarest.id, joined: next.id } : undefined;
  const size = whole ? Math.max(wanted, rarest.df) : wanted;
  return { ...plan.page, whole, pool: { termIds, size, tiers }, assembleBitmaps: size * termIds.length > limits.assembleBitmapsFrom };
}

function page(request: SearchOptions): Pick<SearchSql, 'filters' | 'sort' | 'limit' | 'offset'> {
  return { filters: request.filters ?? {}, sort: request.sort ?? 'relevance', limit: request.limit, offset: request.offset };
}
