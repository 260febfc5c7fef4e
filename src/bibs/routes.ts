// /bibs: list and harvest, read, create, replace and delete bibliographic records.
import { Type, type TSchema } from 'typebox';
import { pageJson } from '../shared/json-bytes.ts';
import { access } from '../http/access.ts';
import { sendJson } from '../http/json-bytes.ts';
import { MetadataAnswer, metadataQuery, parseMetadataFields } from '../http/metadata.ts';
import { recordLink } from '../http/links.ts';
import { recordListQuery, parseCommonList, parseFields } from '../http/params.ts';
import { parseRecordId } from '../shared/filters.ts';
import { errorRef, fixedFieldsSchema, LinkAnswer, recordHeader } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import { BIB_FIELDS, bibExtrasFor, presentBib, type BibField } from './present.ts';
import { parseBibBody } from './body.ts';
import { METADATA_FIELDS, type BibService } from './service.ts';
import { writeIso2709 } from '../marc/iso2709.ts';
import { toMarcInJson } from '../marc/marc-in-json.ts';
import { toMarcXml } from '../marc/marcxml.ts';
import { marcProblem } from '../marc/validate.ts';
import { ApiError } from '../http/errors.ts';

const CodeName = Type.Object({ code: Type.String(), name: Type.String() });
const CodeValue = Type.Object({ code: Type.String(), value: Type.String() });
// A property for each of BIB_FIELDS (the `satisfies` checks it): Fastify drops from an answer any field its schema does not name.
export const BibSchema = Type.Object(
  {
    ...recordHeader,
    suppressed: Type.Optional(Type.Boolean()),
    available: Type.Optional(Type.Boolean({ description: 'An item is on the shelf: available, not checked out.' })),
    lang: Type.Optional(CodeName),
    title: Type.Optional(Type.String()),
    author: Type.Optional(Type.String()),
    materialType: Type.Optional(CodeValue),
    bibLevel: Type.Optional(CodeValue),
    publishYear: Type.Optional(Type.Integer()),
    catalogDate: Type.Optional(Type.String()),
    country: Type.Optional(CodeName),
    normTitle: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    normAuthor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    varFields: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
    orders: Type.Optional(
      Type.Array(
        Type.Object({
          orderId: Type.String(),
          location: Type.Object({ code: Type.String(), name: Type.String() }),
          copies: Type.Integer(),
          date: Type.String({ description: 'The order date, YYYY-MM-DD.' }),
        }),
        { description: 'Each location of each order of the bib that is not cancelled.' },
      ),
    ),
    locations: Type.Optional(Type.Array(CodeName, { description: "The locations of the bib's items." })),
    marc: Type.Optional(
      Type.Object(
        { leader: Type.String(), fields: Type.Array(Type.Object({}, { additionalProperties: true })) },
        { description: 'The MARC record in MARC-in-JSON.' },
      ),
    ),
    holdCount: Type.Optional(Type.Integer({ description: 'Active holds on the bib (not on its items).' })),
    fixedFields: fixedFieldsSchema('bib'),
    items: Type.Optional(Type.Array(Type.Ref('Item'), { description: "The bib's items (fields=…,items)." })),
  } satisfies Record<BibField, TSchema>,
  { $id: 'Bib', additionalProperties: false },
);
const BibList = Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Ref('Bib')) });

const ListQuery = Type.Object(
  {
    ...recordListQuery(BIB_FIELDS),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String() });
const FieldsQuery = Type.Object({ fields: Type.Optional(Type.String()) }, { additionalProperties: false });
const MarcBody = Type.Unknown({
  description:
    'One MARC-in-JSON record {"leader": …, "fields": […]}, or {"marc": <MARC-in-JSON>, "suppressed": false}; MARCXML or ISO 2709 by Content-Type. A body with more than one record is refused (400).',
});

export function bibRoutes(app: App, bibs: BibService, publicBaseUrl: string | undefined): void {
  app.get(
    '/bibs',
    {
      config: { access: access.need('Bibs_Read') },
      schema: {
        summary: 'List or harvest bibs',
        tags: ['bibs'],
        querystring: ListQuery,
        response: { 200: BibList },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const fields = parseFields(q.fields, BIB_FIELDS);
      const filter = parseCommonList(q);
      const extras = bibExtrasFor(fields);
      // A page with the MARC or the fixed fields (a harvest) is written as bytes (pageJson), the
      // MARC from its stored text (var-fields.ts): read as text, not parsed.
      const asText = extras.marc || fields.includes('fixedFields');
      const rows = await bibs.list({ ...filter, extras: { ...extras, marc: false, marcText: extras.marc } });
      const items = fields.includes('items') ? await bibs.itemsOf(rows.filter((r) => !r.deleted_date).map((r) => r.id)) : undefined;
      if (!asText) return { total: rows.length, start: filter.offset, entries: rows.map((row) => presentBib(row, fields, { items })) };
      // Each entry made as it is written (pageJson): 4 kB a bib, with its MARC.
      const entries = (function* () {
        for (const row of rows) yield presentBib(row, fields, { items, asText });
      })();
      return sendJson(reply, pageJson({ total: rows.length, start: filter.offset, entries }, rows.length * 4096));
    },
  );

  app.get(
    '/bibs/:id',
    {
      config: { access: access.need('Bibs_Read') },
      schema: {
        summary: 'Get a bib',
        tags: ['bibs'],
        params: IdParams,
        querystring: FieldsQuery,
        response: { 200: Type.Ref('Bib'), 404: errorRef },
      },
    },
    async (request) => {
      const fields = parseFields(request.query.fields, BIB_FIELDS);
      const row = await bibs.get(parseRecordId('id', request.params.id));
      return presentBib(row, fields, { items: fields.includes('items') && !row.deleted_date ? await bibs.itemsOf([row.id]) : undefined });
    },
  );

  app.get(
    '/bibs/metadata',
    {
      config: { access: access.need('Bibs_Read') },
      schema: {
        summary: 'Codes of the coded bib fields, with descriptions',
        tags: ['bibs'],
        querystring: metadataQuery(METADATA_FIELDS, 'Language of the descriptions (BCP 47, e.g. en, fr); default en.'),
        response: { 200: MetadataAnswer },
      },
    },
    async (request) => {
      const wanted = parseMetadataFields(request.query.fields, METADATA_FIELDS);
      return bibs.metadata(wanted, request.query.language ?? 'en');
    },
  );

  app.get(
    '/bibs/:id/marc',
    {
      config: { access: access.need('Bibs_Read') },
      schema: {
        summary: 'A bib’s MARC record',
        description:
          'By Accept: application/marc-in-json (default, also application/json), application/marc-xml (also application/xml), application/marc (ISO 2709, UTF-8).',
        tags: ['bibs'],
        params: IdParams,
      },
    },
    async (request, reply) => {
      const record = await bibs.marc(parseRecordId('id', request.params.id));
      const accept = request.headers.accept ?? '*/*';
      const wants = (type: string) => accept.split(',').some((part) => part.trim().split(';')[0] === type);
      if (wants('application/marc')) {
        // Every write checks this now; a record kept before it did may still not fit ISO 2709's
        // lengths, and is better refused than written with its lengths zeroed.
        const why = marcProblem(record);
        if (why !== undefined)
          throw new ApiError(
            108,
            406,
            'Invalid parameter',
            `this record cannot be written as ISO 2709 (${why}): ask for application/marc-xml or application/marc-in-json`,
          );
        return reply.type('application/marc').send(Buffer.from(writeIso2709(record)));
      }
      if (wants('application/marc-xml') || wants('application/xml') || wants('text/xml')) {
        return reply.type('application/marc-xml; charset=utf-8').send(`<?xml version="1.0" encoding="UTF-8"?>\n${toMarcXml(record)}\n`);
      }
      if (wants('application/marc-in-json') || wants('application/json') || wants('*/*') || wants('application/*')) {
        return reply
          .type(wants('application/marc-in-json') ? 'application/marc-in-json' : 'application/json; charset=utf-8')
          .send(JSON.stringify(toMarcInJson(record)));
      }
      throw new ApiError(
        108,
        406,
        'Invalid parameter',
        'Accept must be application/marc-in-json, application/marc-xml or application/marc',
      );
    },
  );

  app.post(
    '/bibs',
    {
      config: { access: access.need('Bibs_Write') },
      schema: {
        summary: 'Create a bib from MARC',
        tags: ['bibs'],
        body: MarcBody,
        response: { 200: LinkAnswer },
      },
    },
    async (request) => {
      const id = await bibs.create(await parseBibBody(request.body));
      return { link: recordLink(request, publicBaseUrl, 'bibs', id) };
    },
  );

  app.put(
    '/bibs/:id',
    {
      config: { access: access.need('Bibs_Write') },
      schema: {
        summary: 'Replace a bib’s MARC',
        tags: ['bibs'],
        params: IdParams,
        body: MarcBody,
        response: { 204: Type.Null(), 404: errorRef },
      },
    },
    async (request, reply) => {
      const id = parseRecordId('id', request.params.id);
      await bibs.replace(id, await parseBibBody(request.body));
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/bibs/:id',
    {
      config: { access: access.need('Bibs_Write') },
      schema: {
        summary: 'Delete a bib (leaves a tombstone)',
        tags: ['bibs'],
        params: IdParams,
        response: { 204: Type.Null(), 404: errorRef },
      },
    },
    async (request, reply) => {
      await bibs.delete(parseRecordId('id', request.params.id));
      return reply.code(204).send(null);
    },
  );
}
