// Search: the search box's text to ranked bib ids, over the index in the database. One service
// for the API (GET /bibs/search) and the public catalogue pages (src/catalog/service.ts), so both
// give the same records in the same order. It reads the keys' statistics and lists the search
// needs (plan.ts says which) and evaluates it in this process (evaluate.ts).
import { bibRows, type BibExtras, type BibRow } from '../bibs/service.ts';
import type { Db } from '../db/types.ts';
import { changedDocsReader, docReader, type DocReader } from './doc-repository.ts';
import { evaluate } from './evaluate.ts';
import { FacetColumns, type ChangedDocsReader, type SearchFacets } from './facet-columns.ts';
import { ListCache } from './list-cache.ts';
import { KeysRenumbered, readLists } from './lists.ts';
import { listsOf, readSearch, searchSql } from './plan.ts';
import * as repo from './term-repository.ts';
import type { SearchOptions } from './request.ts';
import {
  alphabetOf,
  candidateKeys,
  candidates,
  correctable,
  correctedSets,
  correctedText,
  frequency,
  matchKey,
  MAX_CORRECTED_WORDS,
  ranked,
  TWO_EDITS_FROM,
  TWO_EDITS_UP_TO,
} from './spelling.ts';

export type { FacetValue, SearchFacets } from './facet-columns.ts';
export { SEARCH_INDEXES, SEARCH_SORTS, type SearchIndex, type SearchSort } from './request.ts';

export interface SearchRequest extends SearchOptions {
  /** Also answer the page's bibs (their rows, with these extras), read once the page is ranked. */
  bibs?: BibExtras;
}

/** A search's text with its misspelt words corrected, and how many bibs it finds (more than none). */
export interface Suggestion {
  text: string;
  total: number;
}

export interface SearchResult {
  total: number;
  /** bib: with SearchRequest.bibs (a hit whose bib cannot be read is left out). */
  hits: { id: string; relevance: number; bib?: BibRow }[];
  /** Present when asked for. */
  facets?: SearchFacets;
  /** "Did you mean": present when the search found nothing and a correction of its words finds something. */
  suggestions?: Suggestion[];
}

/** The most corrected searches run for a search that found nothing, and so the most suggestions. */
const MAX_CORRECTED_SEARCHES = 3;

/** The most values a facet lists. */
const FACET_VALUES = 20;

/** A ranked bib as the service answers it: relevance to two decimals. */
const toHit = (h: { id: string; score: number }): SearchResult['hits'][number] => ({
  id: h.id,
  relevance: Math.round(h.score * 100) / 100,
});

/** A search's ranked page, and every match's bib. */
interface Found {
  result: SearchResult;
  matched: readonly number[];
}

const nothing = (): Found => ({ result: { total: 0, hits: [] }, matched: [] });

export class SearchService {
  private readonly docs: DocReader;
  private readonly changedDocs: ChangedDocsReader;
  /** The facet values of every searchable bib, kept by this process (one service a process). */
  private readonly facets = new FacetColumns();

  /** @param lists the posting lists this process keeps (CARREL_SEARCH_LIST_CACHE_MB), shared by every search it runs */
  constructor(
    private readonly db: Db,
    private readonly lists: ListCache,
  ) {
    this.docs = docReader(db);
    this.changedDocs = changedDocsReader(db);
  }

  async search(request: SearchRequest): Promise<SearchResult> {
    const { result: found, matched } = await this.find(request);
    const read = request.bibs ? await this.withBibs(found, request.bibs) : found;
    // Corrections are looked for only when nothing was found: a search that finds something pays nothing for them.
    const suggestions = found.total === 0 ? await this.suggest(request) : [];
    const result = suggestions.length ? { ...read, suggestions } : read;
    if (!request.facets) return result;
    // Counted over the same matches, apart from the ranking: asking for facets changes no order.
    return { ...result, facets: this.facetsOf(matched) };
  }

  /**
   * "Did you mean": the search again with its misspelt words corrected, for a search that found
   * nothing. A word is misspelt when its list is empty (in the field searched); it is corrected to
   * the index's words one edit away (two for longer words, when one finds none), the nearer first,
   * then the commoner (spelling.ts). A search whose every word is in the index (found nothing for
   * another reason: words never together, filters) or that has more than MAX_CORRECTED_WORDS
   * unknown words is not corrected. Each corrected search is run as the same request, so its
   * total is what following the suggestion finds; one that finds nothing is not suggested.
   */
  private async suggest(request: SearchRequest): Promise<Suggestion[]> {
    const misspelt = correctable(request);
    if (!misspelt) return [];
    const { field, words } = misspelt;
    const lists = (await repo.terms(this.db, [...new Set(words.map((w) => matchKey(field, w)))])).terms;
    const unknown = words.filter((w) => !lists.get(matchKey(field, w))?.df);
    if (unknown.length === 0 || unknown.length > MAX_CORRECTED_WORDS) return [];
    // One edit for every unknown word, then two for a longer one one edit did not correct: a
    // statement each, of a few hundred keys a word for one edit, thousands for two. Two edits for
    // one word at most: two words each two edits off are not a slip, and each costs thousands of keys.
    const corrections = new Map<string, string[]>(unknown.map((w) => [w, []]));
    for (const edits of [1, 2] as const) {
      const uncorrected = unknown.filter((w) => corrections.get(w)!.length === 0);
      if (edits === 2 && uncorrected.length > 1) return [];
      const tried = new Map(
        uncorrected
          .filter((w) => edits === 1 || (w.length >= TWO_EDITS_FROM && w.length <= TWO_EDITS_UP_TO))
          .map((w) => [w, candidates(w, alphabetOf(w)!, edits)]),
      );
      if (tried.size === 0) continue;
      const keys = [...tried.values()].flatMap((set) => [...set].flatMap((c) => candidateKeys(field, c)));
      const terms = (await repo.terms(this.db, [...new Set(keys)])).terms;
      for (const [w, set] of tried) corrections.set(w, ranked([...set].map((c) => ({ word: c, edits, df: frequency(terms, field, c) }))));
    }
    if ([...corrections.values()].some((list) => list.length === 0)) return [];
    const suggestions: Suggestion[] = [];
    for (const set of correctedSets(corrections, MAX_CORRECTED_SEARCHES)) {
      const text = correctedText(request.text, set);
      const { result } = await this.find({ ...request, text, facets: false, bibs: undefined, limit: 1, offset: 0 });
      if (result.total > 0) suggestions.push({ text, total: result.total });
    }
    return suggestions;
  }

  /** The hits with their bibs read (those whose bib is not found left out). */
  private async withBibs(result: SearchResult, extras: BibExtras): Promise<SearchResult> {
    const rows = await bibRows.byIds(
      this.db,
      result.hits.map((h) => h.id),
      extras,
    );
    return {
      ...result,
      hits: result.hits.flatMap((h) => {
        const bib = rows.get(h.id);
        return bib ? [{ ...h, bib }] : [];
      }),
    };
  }

  /**
   * The search's keys' statistics read, then its lists (those this process does not keep at the
   * versions read), then evaluated in Node (evaluate.ts): every match found, ranked exactly.
   */
  private async find(request: SearchRequest): Promise<Found> {
    const search = readSearch(request);
    if (!search) return nothing();
    for (let tries = 1; ; tries++) {
      const stats = await repo.terms(this.db, search.keys);
      const sql = searchSql(search, request, stats);
      if (!sql) return nothing();
      try {
        const { lists, asRead } = await readLists(this.db, listsOf(sql, stats), this.lists);
        // The facet columns, which the filters are tested on and the facets counted from: brought up
        // to date once a search, after the lists, so as fresh as they.
        const { materialType, language, decade } = sql.filters;
        if (materialType?.length || language?.length || decade?.length || request.facets) await this.facets.refresh(this.changedDocs);
        const { total, hits, matched } = await evaluate(sql, lists, this.docs, this.facets.filterOf(sql.filters), {
          everyMatch: request.facets === true,
          oneState: asRead,
        });
        return { result: { total, hits: hits.map(toHit) }, matched };
      } catch (error) {
        // A rebuild swapped in between the two reads: once more, from keys read after it.
        if (!(error instanceof KeysRenumbered) || tries > 1) throw error;
      }
    }
  }

  /** How many matches have each material type, language and decade (the columns brought up to date by find). */
  private facetsOf(matched: readonly number[]): SearchFacets {
    return this.facets.count(matched, FACET_VALUES);
  }
}
