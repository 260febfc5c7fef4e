// The catalogue's address bar: what a results page's query string means, and the links that change
// one part of it. The names are the API's (text, index, sort) plus `page`, so a search reads the
// same in both; a page is PAGE_SIZE results, the API's offset (page - 1) * PAGE_SIZE.
import { SEARCH_INDEXES, SEARCH_SORTS, type SearchIndex, type SearchSort } from '../search/service.ts';

export const PAGE_SIZE = 20;
/** Deeper pages are refused: nobody reads 10,000 results, and each deeper page costs more to rank. */
export const MAX_PAGE = 500;
const MAX_TEXT = 1000;

export interface CatalogQuery {
  text: string;
  index?: SearchIndex;
  sort: SearchSort;
  page: number;
}

/** A query string the catalogue cannot read: the reason, in words for the reader. */
export class BadQuery extends Error {}

type Raw = Record<string, string | string[] | undefined>;

function single(raw: Raw, name: string): string | undefined {
  const value = raw[name];
  if (Array.isArray(value)) throw new BadQuery(`The address gives “${name}” more than once.`);
  return value;
}

export function parseCatalogQuery(raw: Raw): CatalogQuery {
  const text = (single(raw, 'text') ?? '').trim();
  if (text.length > MAX_TEXT) throw new BadQuery(`Searches can be at most ${MAX_TEXT} characters long.`);
  const index = single(raw, 'index') || undefined;
  if (index !== undefined && !Object.hasOwn(SEARCH_INDEXES, index)) throw new BadQuery('That is not one of the fields the catalogue can search.');
  const sort = single(raw, 'sort') || 'relevance';
  if (!(SEARCH_SORTS as readonly string[]).includes(sort)) throw new BadQuery('Results can be sorted by relevance, title or year only.');
  const pageText = single(raw, 'page') || '1';
  if (!/^\d{1,6}$/.test(pageText) || Number(pageText) < 1) throw new BadQuery('The page number must be a whole number, 1 or more.');
  const page = Number(pageText);
  if (page > MAX_PAGE) throw new BadQuery(`The catalogue shows the first ${MAX_PAGE} pages of results; try narrowing your search.`);
  return { text, index: index as SearchIndex | undefined, sort: sort as SearchSort, page };
}

/** The query string of a results page (defaults left out, so links stay short and shareable). */
export function queryString(q: CatalogQuery): string {
  const params = new URLSearchParams();
  if (q.text) params.set('text', q.text);
  if (q.index) params.set('index', q.index);
  if (q.sort !== 'relevance') params.set('sort', q.sort);
  if (q.page > 1) params.set('page', String(q.page));
  return params.toString();
}

export function resultsUrl(q: CatalogQuery): string {
  const qs = queryString(q);
  return qs ? `/catalog?${qs}` : '/catalog';
}

/** A record's page, remembering the results it was opened from (for "Back to results"). */
export function recordUrl(id: string, from?: CatalogQuery): string {
  const qs = from ? queryString(from) : '';
  return `/catalog/record/${id}${qs ? `?${qs}` : ''}`;
}
