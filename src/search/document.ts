// What the search index holds for one bib: weighted, field-scoped keys for its words and numbers,
// and the folded text that phrases and title matches are checked against.
import type { MarcInJson } from '../marc/marc-in-json.ts';
import { ANY_FIELD, FIELD_KEYS, KEY, type FieldKey } from './keys.ts';
import { isbn13, stem, words } from './text.ts';

interface Place {
  field: FieldKey;
  weight: number;
  /** The subfields whose words it holds. */
  codes: RegExp;
  /** Its words that the main title holds add no weight: they name the same thing again. */
  beyondTitle?: boolean;
}

/**
 * How much a word in each place says about a bib: the main title most, then authors and subjects,
 * series and notes far less, everything else least (the weighting good open catalogues use). A
 * field with `works` names works the bib holds, or is related to, by their titles: see placed.
 */
type Rule = Place & { tags: RegExp; works?: Place; relatedWorks?: Place };
const MAIN_TITLE: Rule = { tags: /^245$/, field: FIELD_KEYS.title, weight: 10, codes: /[abnp]/ };
const TAGS: Rule[] = [
  MAIN_TITLE,
  { tags: /^(130|240|246|730|740)$/, field: FIELD_KEYS.title, weight: 4, codes: /[a-z]/ },
  { tags: /^1(00|10|11)$/, field: FIELD_KEYS.author, weight: 6, codes: /[abcdq]/ },
  // A name-title added entry ("Austen, Jane. $t Emma"): the work's title, from $t on with its number,
  // part, form, language and version, is a title; the name stays an added author. An analytical
  // entry (second indicator 2: the bib contains the work, as collected novels contain Emma) weighs as
  // a 730's title. Any other names a related work (the novel a retelling or film adapts): the bib is
  // not that work, so it weighs as a note naming the work would, and adds nothing where the main
  // title names it already: a retelling named as the novel must not rank above the novel's editions.
  {
    tags: /^7(00|10|11)$/,
    field: FIELD_KEYS.author,
    weight: 4,
    codes: /[abcdq]/,
    works: { field: FIELD_KEYS.title, weight: 4, codes: /[fklmnoprst]/ },
    relatedWorks: { field: FIELD_KEYS.title, weight: 1, codes: /[fklmnoprst]/, beyondTitle: true },
  },
  { tags: /^6\d\d$/, field: FIELD_KEYS.subject, weight: 5, codes: /[a-z]/ },
  { tags: /^(440|490|800|810|830)$/, field: FIELD_KEYS.series, weight: 2, codes: /[a-z]/ },
  // A contents note's $t names a work in the bib: a title (found by index=title), weighed above a
  // note's prose but below an added entry's title, since the cataloguer chose those works to be
  // access points while a contents list names every piece, dozens at times. Its $r and $g stay notes.
  {
    tags: /^505$/,
    field: FIELD_KEYS.note,
    weight: 1,
    codes: /[a-z]/,
    works: { field: FIELD_KEYS.title, weight: 2, codes: /t/ },
  },
  { tags: /^5\d\d$/, field: FIELD_KEYS.note, weight: 1, codes: /[a-z]/ },
  { tags: /^(250|260|264|300)$/, field: FIELD_KEYS.other, weight: 0.5, codes: /[a-z]/ },
];
/**
 * The tag an 880 field (the same field in its original script: Hebrew, Cyrillic, Chinese, …) stands
 * for: its $6 starts with the linked field's tag, then "-" and the link's number ("245-01/(N").
 * Undefined when the 880 has no such $6.
 */
function linkedTag(subfields: Record<string, string>[]): string | undefined {
  const link = subfields.find((sf) => Object.keys(sf)[0] === '6');
  return link && /^(\d{3})-\d{2}/.exec(Object.values(link)[0]!)?.[1];
}

/**
 * Which rule a field's words follow: an 880 follows the field it links to, with that field's
 * weights and subfields, so a title is found by its original script as by its romanisation.
 */
function ruleOf(tag: string, subfields: Record<string, string>[]): Rule | undefined {
  const indexed = tag === '880' ? linkedTag(subfields) : tag;
  return indexed === undefined ? undefined : TAGS.find((t) => t.tags.test(indexed));
}

/**
 * Each indexed subfield's text and place, in the field's order. From the first $t on, a subfield
 * whose code the rule's works place takes goes there (before it, a 711's $n numbers a meeting, not
 * a work), or to its related works place unless the second indicator says the bib contains the
 * work; any other subfield goes to the field's place if that takes it.
 */
function placed(rule: Rule, ind2: string, subfields: Record<string, string>[]): { place: Place; text: string }[] {
  const works = rule.relatedWorks && ind2 !== '2' ? rule.relatedWorks : rule.works;
  const out: { place: Place; text: string }[] = [];
  let inWork = false;
  for (const subfield of subfields) {
    const [code, text] = Object.entries(subfield)[0]!;
    if (code === 't') inWork = true;
    const place = works && inWork && works.codes.test(code) ? works : rule.codes.test(code) ? rule : undefined;
    if (place) out.push({ place, text });
  }
  return out;
}

/** A stemmed match counts this much of an exact one. */
export const STEM_FACTOR = 0.6;
/**
 * Word keys (keys.ts), per field ("t~histori" for index=title) and for searches of every field
 * ("*~histori", described here; a field's keys work alike). "*~histori" holds every form of a word
 * with that stem in any field ("history", "histories"), its weight their field weights summed: all
 * of the word's matches in one list, whose length is its match count and whose impact order gives
 * its best records without reading the rest. The exact form must still outrank another form, so a form that is not
 * its own stem also has "*:histories", and the weight of such forms is kept again under
 * "*^histori": a search for "history" scores S - EXACT_FACTOR * O from the "*~" and "*^" weights,
 * one for "histories" STEM_FACTOR * S + EXACT_FACTOR * E with E its "*:" weight, so the exact form
 * counts fully and another STEM_FACTOR, as in a one-field search. (Most words are their own stem:
 * this costs one posting per word and bib, where a key per form and one per stem would cost two.)
 */
export const EXACT_FACTOR = 1 - STEM_FACTOR;

/**
 * The weights of "*!war": the main title starts with "war" (more when it is the whole title). A
 * one-word search adds it, so exact and leading title matches come first however common the word;
 * longer searches compare the whole title instead.
 */
const LEADING_TITLE_WORD = 25;
const WHOLE_TITLE_WORD = 60;

const NUMBER_WEIGHT = 8;

export interface SearchDocumentInput {
  id: string;
  marc: MarcInJson;
  isbns: string[];
  issns: string[];
  callNumbers: string[];
  title: string | null;
  publishYear: number | null;
  materialType: string | null;
  lang: string | null;
}

export interface SearchDocument {
  bibId: string;
  /** key → weight */
  keys: Map<string, number>;
  title: string;
  words: string;
  sortTitle: string;
  year: number | null;
  materialType: string | null;
  lang: string | null;
}

function add(keys: Map<string, number>, key: string, weight: number): void {
  // A repeat adds less than the first mention: ten "war"s are not ten times as much about war.
  const had = keys.get(key);
  keys.set(key, had === undefined ? weight : had + weight * 0.3);
}

/** A word's keys in one field, or in ANY_FIELD's (see EXACT_FACTOR). */
function addWord(keys: Map<string, number>, field: string, word: string, weight: number): void {
  const stemmed = stem(word);
  add(keys, KEY.stem(field, stemmed), weight);
  if (stemmed !== word) {
    add(keys, KEY.exact(field, word), weight);
    add(keys, KEY.otherForms(field, stemmed), weight);
  }
}

/** The words of the first 245 that has any: the main title. */
function mainTitle(marc: MarcInJson): string[] {
  for (const field of marc.fields) {
    const value = field['245'];
    if (value === undefined || typeof value === 'string') continue;
    const found = placed(MAIN_TITLE, value.ind2, value.subfields).flatMap((part) => words(part.text));
    if (found.length > 0) return found;
  }
  return [];
}

const NONE = new Set<string>();

/**
 * The indexed parts of a record's fields, in order: each one's tag, the field its words are
 * searched in, its weight, its words, and those of them that add no weight (a related work's words
 * the main title has: see Place.beyondTitle). The benchmark's other engine (bench/search.ts)
 * indexes these same words with these same weights, so both rank the same text.
 */
export function* indexedFields(
  marc: MarcInJson,
): Generator<{ tag: string; field: FieldKey; weight: number; words: string[]; weightless: ReadonlySet<string> }> {
  const titleWords = new Set(mainTitle(marc));
  for (const field of marc.fields) {
    const [tag, value] = Object.entries(field)[0]!;
    if (typeof value === 'string') continue;
    const rule = ruleOf(tag, value.subfields);
    if (!rule) continue;
    for (const { place, text } of placed(rule, value.ind2, value.subfields)) {
      yield { tag, field: place.field, weight: place.weight, words: words(text), weightless: place.beyondTitle ? titleWords : NONE };
    }
  }
}

/**
 * The pair keys (KEY.pairs) of a document's `words`: its pairs are a function of them, so a doc
 * stores its words and not its pairs' key ids (index-repository.ts removeDocs).
 */
export function pairKeys(docWords: string): string[] {
  return KEY.pairs(docWords.split(' ').filter(Boolean));
}

export function searchDocument(input: SearchDocumentInput): SearchDocument {
  const keys = new Map<string, number>();
  const all: string[] = [];
  const title = mainTitle(input.marc);
  for (const place of indexedFields(input.marc)) {
    all.push(...place.words);
    for (const word of place.words) {
      if (!place.weightless.has(word)) {
        // Fields no index= names (edition, publication, extent) are searched through "*" keys only.
        if (place.field !== FIELD_KEYS.other) addWord(keys, place.field, word, place.weight);
        addWord(keys, ANY_FIELD, word, place.weight);
      }
    }
  }
  if (title.length > 0) {
    keys.set(KEY.leading(title[0]!), title.length === 1 ? WHOLE_TITLE_WORD : LEADING_TITLE_WORD);
  }
  // (Their weights rank nothing: the lists are only read for their bibs.)
  if (title.length > 1) keys.set(KEY.titleStart(title[0]!, title[1]!), 1);
  // Of the words in the order `words` holds them, as phrases are checked against it: the main
  // title's words are one run of them, so a bib whose title holds a search's words has their pairs.
  const text = ` ${all.join(' ')} `;
  for (const key of pairKeys(text)) keys.set(key, 1);
  for (const isbn of input.isbns) {
    const normal = isbn13(isbn);
    if (normal) add(keys, KEY.number(normal), NUMBER_WEIGHT);
  }
  for (const issn of input.issns) add(keys, KEY.number(issn.replace('-', '').toLowerCase()), NUMBER_WEIGHT);
  for (const callNumber of input.callNumbers) {
    for (const word of words(callNumber)) {
      addWord(keys, FIELD_KEYS.callNumber, word, 1);
      addWord(keys, ANY_FIELD, word, 1);
    }
  }
  const sortTitle = (input.title ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/^(the|a|an|le|la|les|der|die|das|el) /, '');
  return {
    bibId: input.id,
    keys,
    title: ` ${title.join(' ')} `,
    words: text,
    sortTitle,
    year: input.publishYear,
    materialType: input.materialType,
    lang: input.lang,
  };
}
