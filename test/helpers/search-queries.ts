// Searches for comparing two ways of answering them (test/search/evaluate.test.ts): the texts the
// other search tests type, and searches generated from a seed out of a catalogue's own words, of
// every kind the query language has (phrases, exclusions, OR, field indexes, filters, sorts, pages).
import fs from 'node:fs';
import path from 'node:path';
import { Random } from '../../src/generate/random.ts';
import { SEARCH_INDEXES, SEARCH_SORTS, type SearchIndex, type SearchOptions } from '../../src/search/request.ts';
import type { SearchFilters } from '../../src/search/types.ts';

/** A PRNG from a seed (the generator's own): the same searches on every run and engine. */
export function seeded(seed: number): () => number {
  const random = new Random(seed);
  return () => random.next();
}

/** The search texts written in test/search/*.test.ts: text=… in a URL, and text: '…' in an object. */
export function textsOfSearchTests(): string[] {
  const dir = path.resolve(import.meta.dirname, '../search');
  const texts = new Set<string>();
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.test.ts'))) {
    const source = fs.readFileSync(path.join(dir, name), 'utf8');
    for (const m of source.matchAll(/\btext=([^&'"`$)\s]+)/g)) texts.add(decodeURIComponent(m[1]!));
    for (const m of source.matchAll(/\btext: '([^'\\]+)'/g)) texts.add(m[1]!);
  }
  return [...texts].sort();
}

/** A doc of the catalogue, as searches are generated from it: its title's words and all its words, its facet values. */
export interface MaterialDoc {
  title: string[];
  words: string[];
  materialType: string | null;
  lang: string | null;
  year: number | null;
}

const STOP = ['the', 'of', 'and', 'a', 'to', 'in'];

/**
 * `count` searches from the seed, each mostly of one doc's words (so that many match): 1 to 4
 * parts (words, phrases of adjacent words, exclusions of another doc's words or phrases, OR,
 * hyphenated words), a field index now and then, filters (mostly the doc's own values), every
 * sort, pages past the first.
 */
export function generatedSearches(seed: number, count: number, docs: MaterialDoc[]): SearchOptions[] {
  const random = seeded(seed);
  const pick = <T>(from: readonly T[]): T => from[Math.floor(random() * from.length)]!;
  const chance = (p: number) => random() < p;
  const indexes = (Object.keys(SEARCH_INDEXES) as SearchIndex[]).filter((i) => i !== 'isbn' && i !== 'issn' && i !== 'standardNumber');
  const values = <T>(of: (d: MaterialDoc) => T | null) => [...new Set(docs.map(of).filter((v): v is T => v !== null))];
  const all = { materialType: values((d) => d.materialType), lang: values((d) => d.lang), decade: values((d) => decade(d.year)) };
  const searches: SearchOptions[] = [];
  for (let n = 0; n < count; n++) {
    const doc = pick(docs.filter((d) => d.words.length > 0));
    const other = pick(docs);
    const wordOf = (d: MaterialDoc) => (chance(0.5) && d.title.length ? pick(d.title) : chance(0.9) ? pick(d.words) : pick(STOP));
    const phraseOf = (d: MaterialDoc) => {
      const from = Math.floor(random() * Math.max(1, d.words.length - 2));
      return `"${d.words.slice(from, from + 2 + Math.floor(random() * 2)).join(' ')}"`;
    };
    const parts: string[] = [];
    const length = 1 + Math.floor(random() * 4);
    for (let i = 0; i < length; i++) {
      const r = random();
      if (i > 0 && r < 0.12) parts.push('OR');
      if (r < 0.55) parts.push(wordOf(chance(0.9) ? doc : other));
      else if (r < 0.72) parts.push(phraseOf(doc));
      else if (r < 0.9) parts.push(`-${chance(0.75) ? wordOf(chance(0.7) ? other : doc) : phraseOf(other)}`);
      else parts.push(`${wordOf(doc)}-${wordOf(doc)}`);
    }
    const own = <T>(value: T | null, from: T[]) => (value !== null && chance(0.7) ? value : pick(from));
    const filters: SearchFilters = {};
    if (chance(0.15)) filters.materialType = [own(doc.materialType, all.materialType), ...(chance(0.3) ? [pick(all.materialType)] : [])];
    if (chance(0.15)) filters.language = [own(doc.lang, all.lang)];
    if (chance(0.15)) filters.decade = [own(decade(doc.year), all.decade), ...(chance(0.3) ? [pick(all.decade)] : [])];
    searches.push({
      text: parts.join(' '),
      ...(chance(0.2) && { index: pick(indexes) }),
      sort: pick(SEARCH_SORTS),
      filters,
      limit: pick([1, 5, 10, 20, 50]),
      offset: chance(0.3) ? pick([5, 10, 20, 40]) : 0,
    });
  }
  return searches;
}

/** A year's decade as the filters read it (PostgreSQL's integer division truncates toward zero). */
const decade = (year: number | null) => (year === null ? null : Math.trunc(year / 10) * 10);
