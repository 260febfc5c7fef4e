// What a search asks for: its text, the field it searches, its order, its filters and its page.
// The planner (plan.ts) reads it with no database at hand; the service (service.ts) answers it.
import { FIELD_KEYS } from './keys.ts';
import type { SearchFilters } from './types.ts';

/** The `index` choices, and the key prefix each searches. */
export const SEARCH_INDEXES = {
  title: FIELD_KEYS.title,
  author: FIELD_KEYS.author,
  subject: FIELD_KEYS.subject,
  note: FIELD_KEYS.note,
  series: FIELD_KEYS.series,
  isbn: FIELD_KEYS.number,
  issn: FIELD_KEYS.number,
  standardNumber: FIELD_KEYS.number,
  callNumber: FIELD_KEYS.callNumber,
} as const;
export type SearchIndex = keyof typeof SEARCH_INDEXES;
export const SEARCH_SORTS = ['relevance', 'title', 'year'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** A search's request but for its page's bibs (SearchRequest, service.ts), which change no plan. */
export interface SearchOptions {
  text: string;
  index?: SearchIndex;
  sort?: SearchSort;
  /** Only records with one of these material types, languages, or publication decades. */
  filters?: SearchFilters;
  /** Also count the matches by material type, language and decade. */
  facets?: boolean;
  limit: number;
  offset: number;
}
