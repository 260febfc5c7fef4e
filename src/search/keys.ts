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
  /**
   * '"': two words one after the other in a bib's text: the key `*"1c7` holds the bibs with "civil
   * war", and those with any other pair in the same bucket (KEY.pairs). Only the bibs whose text has
   * a phrase's pairs can hold the phrase, and only those whose text has a title's pairs can have
   * that title: a phrase of common words is then checked on a few hundred texts, not on every bib
   * with its words (evaluate.ts).
   */
  pair: '"',
} as const;

/**
 * How many lists the word pairs are spread over. A pair's own list per pair made most of the keys
 * (540,000 of 877,000 at 100,000 bibs) and more than a third of the lists' bytes; a bucket holds
 * several pairs' bibs, which the phrase's text check sorts out, and the keys stay this many at any
 * size of catalogue (at 1,000,000 bibs about 2,000 bibs a bucket, a few of which a phrase of
 * common words checks in vain). 65,536 took 9 MB more at 100,000 bibs (keys and segments), and
 * phrases were checked no faster (300 fresh ones: 0.93 ms a query against 0.99–1.29).
 */
export const PAIR_BUCKETS = 16_384;

/**
 * The bucket of a pair of words: 32-bit FNV-1a of "first second" (UTF-16 units), modulo
 * PAIR_BUCKETS. Written out rather than taken from a library: the stored index depends on its
 * every bit, so it must never change with a dependency's version.
 */
function pairBucket(first: string, second: string): number {
  const text = `${first} ${second}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % PAIR_BUCKETS;
}

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
  /**
   * The pair keys (KIND.pair) of words in the order a text has them, each once: of each word and
   * the next. A text that holds `words` one after the other holds these keys' pairs, so its bib is
   * in every one of their lists. (Stop words too: "art war" is then told from "art of war".) A
   * doc keeps no ids of its pairs' keys: the indexer finds them again from its words with this
   * (document.ts pairKeys), so a change here must come with every bib indexed again.
   */
  pairs: (words: readonly string[]): string[] => {
    const keys = new Set<string>();
    for (let i = 1; i < words.length; i++) keys.add(`${ANY_FIELD}${KIND.pair}${pairBucket(words[i - 1]!, words[i]!).toString(36)}`);
    return [...keys];
  },
  /** Whether a key is a pair's (KIND.pair). */
  isPair: (key: string): boolean => key[1] === KIND.pair,
  /** Whether a key is a counted list's (a stem's): its length is kept as its df. */
  isCounted: (key: string): boolean => key[1] === KIND.stem,
} as const;

/** KEY.isCounted as a SQL LIKE pattern (every field is one character). */
export const COUNTED_KEY_LIKE = `_${KIND.stem}%`;
