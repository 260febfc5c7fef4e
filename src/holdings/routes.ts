// /holdings: list (by bib, id, dates, flags) and read holdings records.
import { Type, type TSchema } from 'typebox';
import { access } from '../http/access.ts';
import { apiBase } from '../http/links.ts';
import { commaList, parseCommonList, parseFields, recordListQuery } from '../http/params.ts';
import { errorRef, fixedFieldsSchema, recordHeader } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import { parseRecordId } from '../shared/filters.ts';
import { HOLDING_FIELDS, presentHolding, type HoldingField } from './present.ts';
import type { HoldingsService } from './service.ts';

const VarField = Type.Object(
  {
    fieldTag: Type.String(),
    marcTag: Type.Optional(Type.String()),
    ind1: Type.Optional(Type.String()),
    ind2: Type.Optional(Type.String()),
    content: Type.Optional(Type.String()),
    subfields: Type.Optional(Type.Array(Type.Object({ tag: Type.String(), content: Type.String() }))),
  },
  { additionalProperties: false },
);

// A property for each of HOLDING_FIELDS (the `satisfies` checks it): Fastify drops from an answer any field its schema does not name.
export const HoldingSchema = Type.Object(
  {
    ...recordHeader,
    id: Type.Integer(),
    suppressed: Type.Optional(Type.Boolean()),
    bibIds: Type.Optional(Type.Array(Type.Integer())),
    bibIdLinks: Type.Optional(Type.Array(Type.String())),
    itemIds: Type.Optional(Type.Array(Type.Integer(), { description: 'Items are not linked to holdings records: always empty.' })),
    itemIdLinks: Type.Optional(Type.Array(Type.String())),
    inheritLocation: Type.Optional(Type.Boolean()),
    fixedFields: fixedFieldsSchema('holding'),
    varFields: Type.Optional(
      Type.Array(VarField, {
        description:
          'The leader (_) and the MARC holdings fields: 852 as c (location, call number), 863-868 as h (enumeration and textual holdings), 5XX as n, others y.',
      }),
    ),
  } satisfies Record<HoldingField, TSchema>,
  { $id: 'Holding', additionalProperties: false },
);

export function holdingRoutes(app: App, holdings: HoldingsService, publicBaseUrl: string | undefined): void {
  app.get(
    '/holdings',
    {
      config: { access: access.need('Bibs_Read') },
      schema: {
        summary: 'List holdings records',
        description:
          "Holdings records come from MARC holdings records loaded with `carrel import` (linked by their 004 to a bib's 001) and from the holdings fields a bib carries (852 followed by 853-868).",
        tags: ['holdings'],
        querystring: Type.Object(
          {
            ...recordListQuery(HOLDING_FIELDS),
            bibIds: Type.Optional(Type.String({ description: 'Holdings of these bibs: 1000001,1000002.' })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Ref('Holding')) }),
          400: errorRef,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const fields = parseFields(q.fields, HOLDING_FIELDS);
      const filter = parseCommonList(q);
      const bibIds = commaList(q.bibIds)?.map((id) => parseRecordId('bibIds', id));
      const rows = await holdings.list({ ...filter, bibIds });
      const ctx = { base: apiBase(request, publicBaseUrl) };
      return { total: rows.length, start: filter.offset, entries: rows.map((row) => presentHolding(row, fields, ctx)) };
    },
  );

  app.get(
    '/holdings/:id',
    {
      config: { access: access.need('Bibs_Read') },
      schema: {
        summary: 'Get a holdings record',
        tags: ['holdings'],
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object({ fields: Type.Optional(Type.String()) }, { additionalProperties: false }),
        response: { 200: Type.Ref('Holding'), 400: errorRef, 404: errorRef },
      },
    },
    async (request) => {
      const fields = parseFields(request.query.fields, HOLDING_FIELDS);
      const row = await holdings.get(parseRecordId('id', request.params.id));
      return presentHolding(row, fields, { base: apiBase(request, publicBaseUrl) });
    },
  );
}
