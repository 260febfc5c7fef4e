// What a search reads and runs, decided with no database at hand. readSearch reads a request's
// query and the keys it is looked up by; searchSql, given the keys' statistics, makes it the lists
// and conditions the evaluator (evaluate.ts) runs, and listsOf names the lists it reads. The
// service (service.ts) reads the statistics and the lists and evaluates the search.
import { EXACT_FACTOR, STEM_FACTOR } from './document.ts';
import { ANY_FIELD, FIELD_KEYS, KEY } from './keys.ts';
import { parseQuery, type Query } from './query.ts';
import { SEARCH_INDEXES, type SearchOptions } from './request.ts';
import { isbn13, stem } from './text.ts';
import type { SearchSql, SqlClause, TermStats } from './types.ts';

/** A search read from its request: the keys whose statistics it needs, and what else searchSql reads of it. */
export type Search = NumberSearch | WordSearch;

/** A standard number typed into the box: its one key (KEY.number, "i:…"). */
export interface NumberSearch {
  kind: 'number';
  keys: [string];
}

export interface WordSearch {
  kind: 'words';
  query: Query;
  /** The key prefix searched: one field's (index=), or ANY_FIELD's. */
  field: string;
  /** Every key the query's words and the title's are looked up by. */
  keys: string[];
  /** The words outside OR, in order: they are compared with the title. */
  titleWords: string[];
  /** Searching every field for one word, the key that says the title is or starts with it (KEY.leading, "*!war"). */
  leading?: string;
  /** The words as a folded title (" a b "), when the ranking compares the title with them. */
  title: string | null;
  /** With a title: its words' stem keys in the title field, the lists any bib whose title is boosted is in. */
  titleKeys: string[];
  /** With a title: the key of the titles that start with its first two words (KEY.titleStart), or with its one word (KEY.leading). */
  titleStart?: string;
  /** The words every match has, and its required phrases folded (" a b "). */
  requiredWords: string[];
  phrases: string[];
  /** The pair keys of the phrases' words (KEY.pairs): every match is in each one's list. */
  phrasePairs: string[];
  /** With a title of several words, their pair keys: a bib outside one's list cannot have the title. */
  titlePairs: string[];
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
  if (number) return { kind: 'number', keys: [number] };
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
  // The only bibs whose title can be the words or start with them: those whose title starts with
  // their first two (their first, for one word). Searching every field for one word compares no title.
  const titleStart = !comparesTitle
    ? undefined
    : titleWords.length > 1
      ? KEY.titleStart(titleWords[0]!, titleWords[1]!)
      : KEY.leading(titleWords[0]!);
  if (titleStart) keys.push(titleStart);
  // The words every match has, and the phrases it has in its text.
  const single = query.clauses.filter((c) => !c.optional && c.alternatives.length === 1).map((c) => c.alternatives[0]!);
  const requiredWords = single.flat();
  const phraseWords = single.filter((words) => words.length > 1);
  const phrases = phraseWords.map((words) => ` ${words.join(' ')} `);
  const phrasePairs = [...new Set(phraseWords.flatMap(KEY.pairs))];
  const titlePairs = comparesTitle ? KEY.pairs(titleWords) : [];
  keys.push(...phrasePairs, ...titlePairs);
  return {
    kind: 'words',
    query,
    field,
    keys: [...new Set(keys)],
    titleWords,
    leading,
    title: comparesTitle ? ` ${titleWords.join(' ')} ` : null,
    titleKeys,
    titleStart,
    requiredWords,
    phrases,
    phrasePairs,
    titlePairs,
  };
}

/**
 * The search as its lists and conditions, from its keys' statistics: what the evaluator
 * (evaluate.ts) and the ranking statement run. Undefined when nothing can match (a required word
 * in no bib, a number no bib has).
 */
export function searchSql(search: Search, request: SearchOptions, stats: TermStats): SearchSql | undefined {
  const ids = stats.terms;
  if (search.kind === 'number') {
    if (!ids.size) return undefined;
    return {
      required: [{ termIds: [...ids.values()].map((t) => t.id), boosts: [1] }],
      optional: [],
      excluded: [],
      excludedStems: [],
      phrases: [],
      phrasePairs: [],
      excludedPhrases: [],
      title: null,
      titleLists: [],
      titlePairs: [],
      ...page(request),
    };
  }
  const { query, field, phrases } = search;
  const clauseOf = (alternatives: string[][]): SqlClause => {
    const termIds: number[] = [];
    const boosts: number[] = [];
    const words = new Set(alternatives.flat());
    for (const word of words) {
      for (const [key, boost] of wordKeys(field, word)) {
        const id = ids.get(key)?.id;
        if (id !== undefined && !termIds.includes(id)) {
          termIds.push(id);
          boosts.push(boost);
        }
      }
    }
    // One word: its stem's list (wordKeys' first) holds its other keys' bibs.
    const [word] = words;
    const covered = words.size === 1 && termIds.length > 0 && termIds[0] === ids.get(KEY.stem(field, stem(word!)))?.id;
    return covered ? { termIds, boosts, cover: 0 } : { termIds, boosts };
  };
  // A phrase requires each of its words, and its words in order (checked on the folded text);
  // a clause with alternatives requires any one of them (words only: a phrase inside OR is read as words).
  const required = query.clauses
    .filter((c) => !c.optional)
    .flatMap((c) => (c.alternatives.length === 1 ? c.alternatives[0]!.map((word) => clauseOf([[word]])) : [clauseOf(c.alternatives)]));
  if (required.length === 0 || required.some((c) => c.termIds.length === 0)) return undefined;
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
  // A phrase's pair in no bib's text: no bib holds the phrase.
  const phrasePairs = search.phrasePairs.map((key) => ids.get(key)?.id);
  if (phrasePairs.some((id) => id === undefined)) return undefined;
  // A title word in no bib's title, or a pair of them in no bib's text: no title is boosted, as if
  // the search compared none.
  const titleLists = search.titleKeys.map((key) => ids.get(key)?.id);
  const titlePairs = search.titlePairs.map((key) => ids.get(key)?.id);
  const title = [...titleLists, ...titlePairs].every((id) => id !== undefined) ? search.title : null;
  return {
    required,
    optional,
    excluded,
    excludedStems,
    phrases,
    phrasePairs: phrasePairs as number[],
    excludedPhrases,
    title,
    titleLists: title === null ? [] : (titleLists as number[]),
    titlePairs: title === null ? [] : (titlePairs as number[]),
    ...(title !== null && search.titleStart && { titleStart: { list: ids.get(search.titleStart)?.id ?? null } }),
    ...page(request),
  };
}

function page(request: SearchOptions): Pick<SearchSql, 'filters' | 'sort' | 'limit' | 'offset'> {
  return { filters: request.filters ?? {}, sort: request.sort ?? 'relevance', limit: request.limit, offset: request.offset };
}

/** The lists a search reads (its clauses', exclusions' and title's), each with its key and the version its statistics were read at. */
export function listsOf(sql: SearchSql, stats: TermStats): { id: number; key: string; version: number }[] {
  const wanted = new Set([...sql.required, ...sql.optional].flatMap((c) => c.termIds));
  for (const id of [...sql.excluded, ...sql.titleLists, ...sql.phrasePairs, ...sql.titlePairs]) wanted.add(id);
  if (sql.titleStart?.list != null) wanted.add(sql.titleStart.list);
  for (const { stem, others } of sql.excludedStems) {
    wanted.add(stem);
    if (others !== null) wanted.add(others);
  }
  return [...stats.terms].filter(([, t]) => wanted.has(t.id)).map(([key, { id, version }]) => ({ id, key, version }));
}
