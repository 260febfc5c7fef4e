// The shapes a search is read through: a key's statistics, and the search the evaluator
// (evaluate.ts) and the ranking statement (test/helpers/ranking-statement.ts) run, as plan.ts makes it.
// Nothing here reads the database.

/** A key of the index: its id, for stem ("~") keys how many bibs it marks, and the version of its list. */
export interface Term {
  id: number;
  df: number;
  /**
   * search_terms.version, drawn from a sequence whenever the key's bibs change: a bigint, which
   * both drivers send as text, made a number by the repositories (exact: it stays far below 2^53).
   */
  version: number;
}

/** Each key's statistics, by key. */
export interface TermStats {
  terms: Map<string, Term>;
}

/** A clause for the query: the terms (with how much each counts) any of which satisfies it. */
export interface SqlClause {
  termIds: number[];
  boosts: number[];
  /**
   * The place in termIds of a term whose list holds every bib the others' lists hold (a word's
   * stem list holds its forms' and its leading title word's: document.ts addWord), when the plan
   * knows one: the clause's matches are then that list's bibs.
   */
  cover?: number;
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
  /**
   * The lists of the phrases' word pairs (keys.ts KIND.pair): a bib outside one cannot hold its
   * phrase, so only the bibs in all of them are checked against the phrases. They add no weight.
   */
  phrasePairs: number[];
  excludedPhrases: string[];
  /** The query's words as a folded title (" a b "), for exact and leading title matches; null: none. */
  title: string | null;
  /**
   * With a title: the title field's stem lists of its words. Only a bib in every one can have its
   * title boosted, so a title need be compared for those bibs alone.
   */
  titleLists: number[];
  /**
   * With a title of several words: the lists of their pairs (KIND.pair). A bib outside one has no
   * text with the words in order, so its title is not compared: it cannot be boosted.
   */
  titlePairs: number[];
  /**
   * With a title: the list of the bibs whose titles start with its first two words, or with its
   * word when it has one (null when no title does). Only those can have a title exact or starting
   * with the words (60 or 25); any other one 10 at most. Absent: any title may.
   */
  titleStart?: { list: number | null };
  filters: SearchFilters;
  sort: 'relevance' | 'title' | 'year';
  limit: number;
  offset: number;
}
