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
import { errors } from '../http/errors.ts';
import { negotiate } from '../http/negotiate.ts';
import { varyOnAccept } from '../http/xml-answers.ts';

const CodeName = Type.Object({ code: Type.String(), name: Type.String() });
const CodeValue = Type.Object({ code: Type.String(), value: Type.String() });
// The members a varField has (var-fields.ts writes them): named, so that the XML answer carries
// them as elements; a control field has content, a data field its indicators and subfields.
const BibVarField = Type.Object(
  {
    fieldTag: Type.String(),
    marcTag: Type.String(),
    ind1: Type.Optional(Type.String()),
    ind2: Type.Optional(Type.String()),
    content: Type.Optional(Type.String()),
    subfields: Type.Optional(Type.Array(Type.Object({ tag: Type.String(), content: Type.String() }, { additionalProperties: false }))),
  },
  { additionalProperties: false },
);
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
    varFields: Type.Optional(Type.Array(BibVarField)),
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
/** What GET /bibs/{id}/marc writes, the default first. */
const MARC_TYPES = [
  'application/json',
  'application/marc-in-json',
  'application/marc+xml',
  'application/marc-xml',
  'application/xml',
  'text/xml',
  'application/marc',
] as const;
const MarcBody = Type.Unknown({
  description:
    'One MARC-in-JSON record {"leader": …, "fields": […]}, or {"marc": <MARC-in-JSON>, "suppressed": false}; MARCXML or ISO 2709 by Content-Type. A body with more than one record is refused (400).',
});

export function bibRoutes(app: App, bibs: BibService, publicBaseUrl: string | undefined): void {
  app.get(
    '/bibs',
    {
      config: { access: access.need('Bibs_Read'), xml: 'bibs' },
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
      config: { access: access.need('Bibs_Read'), xml: 'bib' },
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
          'By Accept (q values and order respected): application/marc-in-json (default, also application/json), application/marc+xml (MARCXML; also application/marc-xml, application/xml, text/xml), application/marc (ISO 2709, UTF-8); 406 for anything else.',
        tags: ['bibs'],
        params: IdParams,
        produces: [...MARC_TYPES],
        response: { 200: Type.Unknown({ description: 'The record, in the format asked for.' }), 404: errorRef, 406: errorRef },
      },
    },
    async (request, reply) => {
      varyOnAccept(reply);
      const type = negotiate(request.headers.accept, MARC_TYPES);
      if (type === undefined) {
        throw errors.notAcceptable('Accept must allow application/marc-in-json, application/marc+xml or application/marc');
      }
      const record = await bibs.marc(parseRecordId('id', request.params.id));
      if (type === 'application/marc') {
        // Every write checks this now; a record kept before it did may still not fit ISO 2709's
        // lengths, and is better refused than written with its lengths zeroed.
        const why = marcProblem(record);
        if (why !== undefined) {
          throw errors.notAcceptable(
            `this record cannot be written as ISO 2709 (${why}): ask for application/marc+xml or application/marc-in-json`,
          );
        }
        return reply.type('application/marc').send(Buffer.from(writeIso2709(record)));
      }
      if (type === 'application/json' || type === 'application/marc-in-json') {
        return reply
          .type(type === 'application/json' ? 'application/json; charset=utf-8' : type)
          .send(JSON.stringify(toMarcInJson(record)));
      }
      return reply.type(`${type}; charset=utf-8`).send(`<?xml version="1.0" encoding="UTF-8"?>\n${toMarcXml(record)}\n`);
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
