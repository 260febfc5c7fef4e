// GET /bibs/search: the search box as an API (docs/api-contract.md, "Search and the public catalogue"). The public catalogue
// page asks the same SearchService, so both give the same records in the same order.
import { Type, type TSchema } from 'typebox';
import { languageName } from '../bibs/codes.ts';
import { bibExtrasFor, presentBib, BIB_FIELDS } from '../bibs/present.ts';
import type { BibService } from '../bibs/service.ts';
import { access } from '../http/access.ts';
import { fail } from '../shared/errors.ts';
import { pagingQuery, parseFields } from '../http/params.ts';
import type { App } from '../http/types.ts';
import { SEARCH_INDEXES, SEARCH_SORTS, type SearchService } from './service.ts';

const SearchQuery = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: 1000, description: 'Words; "a phrase" in quotes; -word to exclude; word OR word.' }),
    index: Type.Optional(
      Type.Union(
        Object.keys(SEARCH_INDEXES).map((k) => Type.Literal(k)),
        { description: 'Search one field only (default: every indexed field).' },
      ),
    ),
    sort: Type.Optional(
      Type.Union(
        SEARCH_SORTS.map((s) => Type.Literal(s)),
        { description: 'relevance (default), title, or year (newest first).' },
      ),
    ),
    materialType: Type.Optional(Type.String({ maxLength: 500, description: 'Only these material types (codes, comma-separated).' })),
    language: Type.Optional(Type.String({ maxLength: 500, description: 'Only these languages (MARC codes, comma-separated).' })),
    decade: Type.Optional(
      Type.String({ maxLength: 500, description: 'Only records published in these decades (first years, comma-separated: 1990,2000).' }),
    ),
    facets: Type.Optional(Type.Boolean({ description: 'Also count the matches by material type, language and decade.' })),
    ...pagingQuery,
    fields: Type.Optional(Type.String({ description: `Bib fields to return: ${BIB_FIELDS.all.join(', ')}, or default.` })),
  },
  { additionalProperties: false },
);

function FacetValue<T extends TSchema>(value: T) {
  return Type.Object({ value, count: Type.Integer() });
}

const SearchAnswer = Type.Object({
  count: Type.Integer({ description: 'Entries on this page.' }),
  total: Type.Integer({ description: 'All matches.' }),
  start: Type.Integer(),
  entries: Type.Array(Type.Object({ relevance: Type.Number(), bib: Type.Ref('Bib') })),
  facets: Type.Optional(
    Type.Object(
      {
        materialType: Type.Array(FacetValue(Type.String())),
        language: Type.Array(
          Type.Object({
            value: Type.String(),
            count: Type.Integer(),
            name: Type.String({ description: 'The MARC list name; the code when unknown.' }),
          }),
        ),
        decade: Type.Array(FacetValue(Type.Integer())),
      },
      { description: 'With facets=true: how many matches have each value (the 20 most common; filters applied).' },
    ),
  ),
  suggestions: Type.Optional(
    Type.Array(
      Type.Object({
        text: Type.String({ description: 'The search text with its misspelt words corrected: search it as `text`.' }),
        total: Type.Integer({ description: 'All its matches, with the same index and filters.' }),
      }),
      {
        description:
          '"Did you mean": present only when the search found nothing and correcting its words not in the index finds something; best first, at most 3.',
      },
    ),
  ),
});

/** A comma-separated list parameter: its values, or a 400 naming the parameter. */
function listParam(name: string, raw: string | undefined, pattern: RegExp): string[] | undefined {
  if (raw === undefined) return undefined;
  const values = raw
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  const bad = values.find((v) => !pattern.test(v));
  if (bad !== undefined || values.length === 0)
    throw fail.invalidParameter(`${name} ${bad === undefined ? 'is empty' : `has an invalid value: ${JSON.stringify(bad)}`}`);
  return values;
}

export function searchRoutes(app: App, search: SearchService, bibs: BibService): void {
  app.get(
    '/bibs/search',
    {
      config: { access: access.need('Bibs_Read') },
      schema: {
        summary: 'Search bibs as the public catalogue does',
        tags: ['bibs'],
        querystring: SearchQuery,
        response: { 200: SearchAnswer },
      },
    },
    async (request) => {
      const q = request.query;
      const fields = parseFields(q.fields, BIB_FIELDS);
      const offset = q.offset ?? 0;
      const filters = {
        materialType: listParam('materialType', q.materialType, /^[\w-]{1,10}$/),
        language: listParam('language', q.language, /^[a-z]{3}$/),
        decade: listParam('decade', q.decade, /^\d{1,3}0$/)?.map(Number),
      };
      // The page's bibs come with it, read once it is ranked.
      const extras = bibExtrasFor(fields);
      const result = await search.search({
        text: q.text,
        index: q.index,
        sort: q.sort,
        filters,
        facets: q.facets,
        limit: q.limit ?? 50,
        offset,
        bibs: extras,
      });
      const items = fields.includes('items') ? await bibs.itemsOf(result.hits.map((h) => h.id)) : undefined;
      const entries = result.hits.flatMap((hit) =>
        hit.bib ? [{ relevance: hit.relevance, bib: presentBib(hit.bib, fields, { items }) }] : [],
      );
      // Languages come named, so that a client shows "Tagalog" for tgl and for the discontinued tag alike.
      const facets = result.facets && {
        ...result.facets,
        language: result.facets.language.map((f) => ({ ...f, name: languageName(f.value) })),
      };
      return {
        count: entries.length,
        total: result.total,
        start: offset,
        entries,
        ...(facets ? { facets } : {}),
        ...(result.suggestions ? { suggestions: result.suggestions } : {}),
      };
    },
  );
}
