// GET /bibs/search: the search box as an API (DESIGN.md section 3, "Search"). The public catalogue
// page asks the same SearchService, so both give the same records in the same order.
import { Type } from 'typebox';
import { presentBib, BIB_FIELDS } from '../bibs/present.ts';
import type { BibService } from '../bibs/service.ts';
import { access } from '../http/access.ts';
import { pagingQuery, parseFields } from '../http/params.ts';
import { protectedErrors } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import { SEARCH_INDEXES, SEARCH_SORTS, type SearchService } from './service.ts';

const SearchQuery = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 1000, description: 'Words; "a phrase" in quotes; -word to exclude; word OR word.' }),
  index: Type.Optional(Type.Union(Object.keys(SEARCH_INDEXES).map((k) => Type.Literal(k)), { description: 'Search one field only (default: every indexed field).' })),
  sort: Type.Optional(Type.Union(SEARCH_SORTS.map((s) => Type.Literal(s)), { description: 'relevance (default), title, or year (newest first).' })),
  ...pagingQuery,
  fields: Type.Optional(Type.String({ description: `Bib fields to return: ${BIB_FIELDS.all.join(', ')}, or default.` })),
}, { additionalProperties: false });

const SearchAnswer = Type.Object({
  count: Type.Integer({ description: 'Entries on this page.' }),
  total: Type.Integer({ description: 'All matches.' }),
  start: Type.Integer(),
  entries: Type.Array(Type.Object({ relevance: Type.Number(), bib: Type.Ref('Bib') })),
});

export function searchRoutes(app: App, search: SearchService, bibs: BibService): void {
  app.get('/bibs/search', {
    config: { access: access.need('Bibs_Read') },
    schema: { summary: 'Search bibs as the public catalogue does', tags: ['bibs'], security: [{ bearer: [] }], querystring: SearchQuery, response: { 200: SearchAnswer, ...protectedErrors } },
  }, async (request) => {
    const q = request.query;
    const fields = parseFields(q.fields, BIB_FIELDS);
    const offset = q.offset ?? 0;
    const result = await search.search({ text: q.text, index: q.index, sort: q.sort, limit: q.limit ?? 50, offset });
    const rows = await bibs.byIds(result.hits.map((h) => h.id), { marc: fields.includes('varFields'), holdings: fields.includes('fixedFields') });
    const items = fields.includes('items') ? await bibs.itemsOf(result.hits.map((h) => h.id)) : undefined;
    const entries = result.hits.flatMap((hit) => {
      const row = rows.get(hit.id);
      return row ? [{ relevance: hit.relevance, bib: presentBib(row, fields, items) }] : [];
    });
    return { count: entries.length, total: result.total, start: offset, entries };
  });
}
