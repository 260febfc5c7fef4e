// The shapes a search is read through: a key's statistics, and the queries the ranking statements
// take (ranking-repository.ts, pool-repository.ts), as the planner (plan.ts) makes them. Nothing
// here reads the database.

/**
 * A key of the index: its id, for stem ("~") keys how many bibs it marks, the version of its list,
 * and whether its list has a bitmap (bitmaps.ts).
 */
export interface Term {
  id: number;
  df: number;
  /**
   * search_terms.version, drawn from a sequence whenever the key's bibs change: a bigint, which
   * both drivers send as text, made a number by the repositories (exact: it stays far below 2^53).
   */
  version: number;
  bitmap: boolean;
}

/** A count of a search's matches kept (search_counts), and the versions of its lists it was counted at. */
export interface CachedCount {
  total: number;
  versions: number[];
}

/** Each key's statistics (by key) and, when any key is found, the count kept for the search asked about. */
export interface TermStats {
  terms: Map<string, Term>;
  count?: CachedCount;
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
  /**
   * With a title: the title field's stem lists of its words. Only a bib in every one can have its
   * title boosted, so a title need be compared for those bibs alone.
   */
  titleLists: number[];
  filters: SearchFilters;
  sort: 'relevance' | 'title' | 'year';
  limit: number;
  offset: number;
}

/** A count of the bibs in every one of some lists whose text has these phrases. */
export interface CountQuery {
  /** The lists, rarest first. */
  termIds: number[];
  /** Those of termIds whose lists have bitmaps: read a bit a bib, or AND-ed chunk by chunk when every list has one. */
  bitmaps: number[];
  /** Read each bitmap assembled into one value (bitmapCte), as a pool of the rarest list's length would. */
  assembleBitmaps: boolean;
  /** Folded phrases (" a b ") every bib counted has in its words. */
  phrases: string[];
}

export interface PoolLists {
  termIds: number[];
  /** How far down the lists the pool reaches. */
  size: number;
  /** The sizes of the smaller pools before it: a bib's tier is how many of them it lies beyond. */
  tiers: number[];
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
  /**
   * Searching every field for several words, the list of titles that start with the first two
   * (KEY.titleStart, `list`): its bibs in the pools' source list (`within`, the rarest: every
   * other list is checked for every pool bib), the only ones whose title can be the search or
   * start with it, join every pool, so such a title is never left beyond it.
   */
  titled?: { list: number; within: number };
  /** Folded phrases (" a b ") every result's words must contain. */
  phrases: string[];
  limit: number;
  offset: number;
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
}
