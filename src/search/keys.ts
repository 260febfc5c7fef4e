// The search index's keys (search_terms.key), every kind built and recognised here only: the
// indexer (document.ts) stores them, the planner (plan.ts) looks them up, and a key one of them
// spelt differently would match nothing, silently. A key is a field's one character, a kind's
// mark, then its text ("t~histori"). The stored index holds these strings: changing how one is
// spelt means indexing every bib again (carrel search reindex).

/** The fields a search can be narrowed to (`index=`, request.ts SEARCH_INDEXES), as a key's first character. */
export const FIELD_KEYS = {
  title: 't',
  author: 'a',
  subject: 's',
  series: 'e',
  note: 'n',
  /** Edition, publication and extent: indexed (document.ts) but searched through ANY_FIELD's keys only. */
  other: 'o',
  /** Standard numbers (ISBN, ISSN): KEY.number only. */
  number: 'i',
  callNumber: 'c',
} as const;
export type FieldKey = (typeof FIELD_KEYS)[keyof typeof FIELD_KEYS];

/**
 * Every field at once: a search with no `index=` looks up these keys, and a bib's words are
 * indexed under them as well as under their own field's (document.ts, EXACT_FACTOR).
 */
export const ANY_FIELD = '*';

/** The marks after the field: what a key stands for. */
export const KIND = {
  /**
   * "~": the list of one stem ("t~histori": a form of it in the title; "*~histori": anywhere),
   * every bib with a form of the word, weighted by its places: the list a word's matches are
   * counted and ranked from (document.ts addWord, plan.ts wordKeys). Its length is kept as its df
   * (KEY.isCounted).
   */
  stem: '~',
  /**
   * ":": one form of a word that is not its own stem ("*:histories"), so that a search for that
   * form ranks it above the stem's other forms; also a standard number in the number field
   * (KEY.number).
   */
  exact: ':',
  /**
   * "^": the weight of a bib's forms of a stem that are not the stem itself ("*^histori"): a
   * search for the stem's own form subtracts part of it, so that form ranks above the others.
   */
  otherForms: '^',
  /**
   * "!": the main title's first word, searching every field ("*!war"): a one-word search adds it,
   * so that titles that are or start with the word rank first (document.ts LEADING_TITLE_WORD).
   * A title search (index=title) of one word reads it only for its bibs, as KIND.titleStart's.
   */
  leading: '!',
  /**
   * "=": the main title's first two words, searching every field ("*=world history"): only the
   * bibs in this list can have a title that is a search of several words or starts with it, so
   * the evaluator reads the titles of the others only while 10 could still lift them (evaluate.ts).
   */
  titleStart: '=',
} as const;

export const KEY = {
  /** A stem's list in a field (KIND.stem); `stemmed` is a word's stem (text.ts stem). */
  stem: (field: string, stemmed: string): string => `${field}${KIND.stem}${stemmed}`,
  /** A word's own form in a field (KIND.exact), for a word that is not its own stem. */
  exact: (field: string, word: string): string => `${field}${KIND.exact}${word}`,
  /** The weight of a stem's other forms in a field (KIND.otherForms); `stemmed` is a word's stem. */
  otherForms: (field: string, stemmed: string): string => `${field}${KIND.otherForms}${stemmed}`,
  /** The main title starts with this word (KIND.leading), searching every field. */
  leading: (word: string): string => `${ANY_FIELD}${KIND.leading}${word}`,
  /** The main title starts with these two words (KIND.titleStart), searching every field. */
  titleStart: (first: string, second: string): string => `${ANY_FIELD}${KIND.titleStart}${first} ${second}`,
  /** A standard number, normalised (ISBN as 13 digits, ISSN without its hyphen): "i:9780141439518". */
  number: (digits: string): string => `${FIELD_KEYS.number}${KIND.exact}${digits}`,
  /** Whether a key is a counted list's (a stem's): its length is kept as its df. */
  isCounted: (key: string): boolean => key[1] === KIND.stem,
} as const;

/** KEY.isCounted as a SQL LIKE pattern (every field is one character). */
export const COUNTED_KEY_LIKE = `_${KIND.stem}%`;
