// The catalogue's address bar: what a results page's query string means, and the links that change
// one part of it. The names are the API's (text, index, sort; materialType, language and decade as
// comma-separated codes) plus `page`, so a search reads the same in both; a page is PAGE_SIZE
// results, the API's offset (page - 1) * PAGE_SIZE.
import { SEARCH_INDEXES, SEARCH_SORTS, type SearchIndex, type SearchSort } from '../search/service.ts';

export const PAGE_SIZE = 20;
/** Deeper pages are refused: nobody reads 10,000 results, and each deeper page costs more to rank. */
export const MAX_PAGE = 500;
const MAX_TEXT = 1000;

export interface Filters {
  materialType: string[];
  language: string[];
  /** First years of decades: 1990 for 1990–1999. */
  decade: number[];
}
export type FacetName = keyof Filters;
export const FACET_NAMES: FacetName[] = ['materialType', 'language', 'decade'];
export const NO_FILTERS: Filters = { materialType: [], language: [], decade: [] };

export interface CatalogQuery {
  text: string;
  index?: SearchIndex;
  sort: SearchSort;
  page: number;
  filters: Filters;
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
  if (index !== undefined && !Object.hasOwn(SEARCH_INDEXES, index))
    throw new BadQuery('That is not one of the fields the catalogue can search.');
  const sort = single(raw, 'sort') || 'relevance';
  if (!(SEARCH_SORTS as readonly string[]).includes(sort)) throw new BadQuery('Results can be sorted by relevance, title or year only.');
  const pageText = single(raw, 'page') || '1';
  if (!/^\d{1,6}$/.test(pageText) || Number(pageText) < 1) throw new BadQuery('The page number must be a whole number, 1 or more.');
  const page = Number(pageText);
  if (page > MAX_PAGE) throw new BadQuery(`The catalogue shows the first ${MAX_PAGE} pages of results; try narrowing your search.`);
  const filters = {
    materialType: list(raw, 'materialType', /^[\w-]{1,10}$/),
    language: list(raw, 'language', /^[a-z]{3}$/),
    decade: list(raw, 'decade', /^\d{1,3}0$/).map(Number),
  };
  return { text, index: index as SearchIndex | undefined, sort: sort as SearchSort, page, filters };
}

// The codes the API accepts for the same parameters (GET /bibs/search), so a page and the API
// refuse the same addresses.
function list(raw: Raw, name: FacetName, pattern: RegExp): string[] {
  const value = single(raw, name);
  if (value === undefined || value === '') return [];
  const values = [
    ...new Set(
      value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
  if (values.length > 20 || values.some((v) => !pattern.test(v)))
    throw new BadQuery('The address asks for a filter the catalogue does not know.');
  return values;
}

/** The query with one filter value added (or taken away), back on the first page. */
export function withFilter(q: CatalogQuery, facet: FacetName, value: string | number, on: boolean): CatalogQuery {
  const current: (string | number)[] = q.filters[facet];
  const next = on ? [...current.filter((v) => v !== value), value] : current.filter((v) => v !== value);
  return { ...q, page: 1, filters: { ...q.filters, [facet]: next } };
}

/** The query string of a results page (defaults left out, so links stay short and shareable). */
export function queryString(q: CatalogQuery): string {
  const params = new URLSearchParams();
  if (q.text) params.set('text', q.text);
  if (q.index) params.set('index', q.index);
  if (q.sort !== 'relevance') params.set('sort', q.sort);
  for (const facet of FACET_NAMES) if (q.filters[facet].length) params.set(facet, q.filters[facet].join(','));
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
