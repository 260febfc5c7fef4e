// "Did you mean …?": a word that is in no bib, corrected against the index's own words. Its
// candidates are the words within a small edit distance of it (a letter left out, added, changed,
// or two side by side swapped), made here and looked up by key, a statement for each distance:
// no extension, and nothing kept beside the index. The service (service.ts) asks only when a search found
// nothing, so a search that finds something never pays for it.
import { ANY_FIELD, FIELD_KEYS, KEY } from './keys.ts';
import { parseQuery } from './query.ts';
import { SEARCH_INDEXES, type SearchOptions } from './request.ts';
import { stem, STOP_WORDS, words } from './text.ts';
import type { Term } from './types.ts';

/** Shorter words are not corrected: one edit away from a two-letter word is half the dictionary. */
export const MIN_CORRECTED_LENGTH = 3;

/**
 * Longer words are not corrected. The candidates grow with the square of a word's length at two
 * edits (an 80-letter word has 640,000, 1.4 s of work before any lookup), and the search page is
 * open to anyone: so what one search that finds nothing may cost is bounded here. Few words a
 * reader types are longer.
 */
export const MAX_CORRECTED_LENGTH = 20;

/**
 * Words this long and longer are corrected by up to two edits, shorter ones by one: a short word
 * two edits away is more often another word than a slip. Two edits are tried only when one finds
 * nothing, and only the cheap kinds (see candidates), for words up to TWO_EDITS_UP_TO letters.
 */
export const TWO_EDITS_FROM = 5;

/** The longest word tried at two edits: about 18,000 candidates, a statement of some 20 ms. */
export const TWO_EDITS_UP_TO = 14;

/** The letters a changed or added letter may be, by script (folded: text.ts fold). */
const ALPHABETS: [RegExp, string][] = [
  [/^[a-z]+$/, 'abcdefghijklmnopqrstuvwxyz'],
  [/^[\u0430-\u044f\u0456\u0457\u0454\u0491\u045e]+$/, 'абвгдежзийклмнопрстуфхцчшщъыьэюяіїєґў'],
  [/^[\u03b1-\u03c9]+$/, 'αβγδεζηθικλμνξοπρστυφχψω'],
];

/** The alphabet a word's corrections draw on; undefined for a word that is not corrected (digits, mixed or other scripts, CJK pairs). */
export function alphabetOf(word: string): string | undefined {
  if (word.length < MIN_CORRECTED_LENGTH || word.length > MAX_CORRECTED_LENGTH || STOP_WORDS.has(word)) return undefined;
  return ALPHABETS.find(([pattern]) => pattern.test(word))?.[1];
}

/**
 * The words one edit from `word`: a letter deleted, two adjacent letters swapped, and unless
 * `cheapOnly`, a letter changed or added. (Every alphabet above is of single UTF-16 units, so
 * slicing the string by index is slicing it by letter.)
 */
export function oneEdit(word: string, alphabet: string, cheapOnly = false): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < word.length; i++) {
    out.add(word.slice(0, i) + word.slice(i + 1));
    if (i + 1 < word.length && word[i] !== word[i + 1]) out.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  if (!cheapOnly)
    for (let i = 0; i <= word.length; i++)
      for (const c of alphabet) {
        if (i < word.length && c !== word[i]) out.add(word.slice(0, i) + c + word.slice(i + 1));
        out.add(word.slice(0, i) + c + word.slice(i));
      }
  out.delete(word);
  return out;
}

/**
 * The candidates of a word at `edits` edits (1 or 2), stop words left out. At two: one edit of any
 * kind and one deletion or swap, in either order: 4,000 to 18,000 words for words of 7 to 14
 * letters (400 to 750 at one edit), where every pair of edits would be hundreds of times as many.
 * Two letters changed or added are not found.
 */
export function candidates(word: string, alphabet: string, edits: 1 | 2): Set<string> {
  const first = oneEdit(word, alphabet);
  if (edits === 1) return withoutStopWords(first);
  const second = new Set<string>();
  for (const near of first) for (const far of oneEdit(near, alphabet, true)) if (!first.has(far) && far !== word) second.add(far);
  // And a deletion or swap first, then any edit: not always the same words as the other order
  // (a letter added, then swapped with its neighbour).
  for (const near of oneEdit(word, alphabet, true))
    for (const far of oneEdit(near, alphabet)) if (!first.has(far) && far !== word) second.add(far);
  return withoutStopWords(second);
}

function withoutStopWords(words: Set<string>): Set<string> {
  for (const w of words) if (STOP_WORDS.has(w)) words.delete(w);
  return words;
}

/** The most words of one search corrected: a search of many unknown words is not a slip. */
export const MAX_CORRECTED_WORDS = 3;

/** The words a search that found nothing may have misspelt, and the field whose keys they are looked up by. */
export interface Correctable {
  field: string;
  /** Folded, each once: the words and alternatives (phrases' words too), not excluded words nor stop words. */
  words: string[];
}

/** What a search's text may have misspelt; undefined when none of it is corrected (a standard number, a number index, no words). */
export function correctable(request: SearchOptions): Correctable | undefined {
  const field: string = request.index ? SEARCH_INDEXES[request.index] : ANY_FIELD;
  if (field === FIELD_KEYS.number) return undefined;
  const query = parseQuery(request.text);
  // (Stop words, which alone are optional clauses, are never corrected: alphabetOf.)
  const found = query.clauses.flatMap((c) => c.alternatives.flat());
  const corrected = [...new Set(found)].filter((w) => alphabetOf(w) !== undefined);
  return corrected.length ? { field, words: corrected } : undefined;
}

/** The key whose list a word matches by (its stem's): a word is in the index when that list is not empty. */
export const matchKey = (field: string, word: string): string => KEY.stem(field, stem(word));

/**
 * The keys that say a candidate is itself one of the index's words: its own stem's list, or, for a
 * form that is not its own stem, that form's key (a plural the index never saw is not offered
 * because its singular is there).
 */
export function candidateKeys(field: string, word: string): string[] {
  const stemmed = stem(word);
  return stemmed === word ? [KEY.stem(field, word)] : [KEY.stem(field, stemmed), KEY.exact(field, word)];
}

/** Whether the index has a word (candidateKeys) and how many bibs its list holds; 0 when it has not. */
export function frequency(terms: Map<string, Term>, field: string, word: string): number {
  const keys = candidateKeys(field, word);
  if (!keys.every((k) => terms.has(k))) return 0;
  return terms.get(keys[0]!)!.df;
}

/**
 * A word's corrections, best first: the nearer (fewer edits) first, then the one in more bibs,
 * then in alphabetical order, so the same index always gives the same suggestion.
 */
export function ranked(found: { word: string; edits: number; df: number }[]): string[] {
  return found
    .filter((f) => f.df > 0)
    .sort((a, b) => a.edits - b.edits || b.df - a.df || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0))
    .map((f) => f.word);
}

/**
 * The corrected searches to try, best first: every misspelt word's best correction, then each
 * misspelt word's next ones with the others' best. `corrections` holds each misspelt word's
 * corrections, best first (none empty).
 */
export function correctedSets(corrections: Map<string, string[]>, most: number): Map<string, string>[] {
  const best = new Map([...corrections].map(([word, list]) => [word, list[0]!]));
  const sets = [best];
  for (let rank = 1; sets.length < most; rank++) {
    const more = [...corrections].filter(([, list]) => list.length > rank);
    if (more.length === 0) break;
    for (const [word, list] of more) sets.push(new Map(best).set(word, list[rank]!));
  }
  return sets.slice(0, most);
}

/**
 * The search's text with its misspelt words replaced, everything else (other words, quotes, minus
 * signs, OR, spacing) kept. A replacement takes the case of the word it replaces (TOLSTOJ →
 * TOLSTOY, Tolstoj → Tolstoy), otherwise the index's folded form.
 */
export function correctedText(text: string, corrections: Map<string, string>): string {
  // The same letters and digits words() reads as a word (marks kept with their letters).
  return text.normalize('NFC').replace(/[\p{L}\p{N}\p{M}]+/gu, (piece) => {
    const found = words(piece);
    const correction = found.length === 1 ? corrections.get(found[0]!) : undefined;
    if (correction === undefined) return piece;
    if (piece.length > 1 && piece === piece.toUpperCase() && piece !== piece.toLowerCase()) return correction.toUpperCase();
    if (piece[0] !== piece[0]!.toLowerCase()) return correction[0]!.toUpperCase() + correction.slice(1);
    return correction;
  });
}
