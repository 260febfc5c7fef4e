// /bibs: list and harvest, read, create, replace and delete bibliographic records.
import { Type } from 'typebox';
import { access } from '../http/access.ts';
import { recordLink } from '../http/links.ts';
import { pagingQuery, parseDateFilter, parseFields, parseIdFilter, parseRecordId } from '../http/params.ts';
import { errorRef, protectedErrors } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import { BIB_FIELDS, presentBib } from './present.ts';
import { parseBibBody, type BibService } from './service.ts';

const CodeName = Type.Object({ code: Type.String(), name: Type.String() });
const CodeValue = Type.Object({ code: Type.String(), value: Type.String() });
export const BibSchema = Type.Object(
  {
    id: Type.String(),
    updatedDate: Type.Optional(Type.String()),
    createdDate: Type.Optional(Type.String()),
    deletedDate: Type.Optional(Type.String({ description: 'Only on a deleted record (its tombstone).' })),
    deleted: Type.Optional(Type.Boolean()),
    suppressed: Type.Optional(Type.Boolean()),
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
  },
  { $id: 'Bib', additionalProperties: false },
);
const BibList = Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Ref('Bib')) });

const dateRange = (what: string) =>
  Type.Optional(Type.String({ description: `${what}: one ISO 8601 instant, or a range [from,to] (either end open). Whole seconds; the current second is shown once it is over.` }));

const ListQuery = Type.Object(
  {
    ...pagingQuery,
    id: Type.Optional(Type.String({ description: 'Ids: 1000001,1000007 or a range [1000001,1000050].' })),
    createdDate: dateRange('Created'),
    updatedDate: dateRange('Updated (also matches deletions)'),
    deletedDate: dateRange('Deleted'),
    deleted: Type.Optional(Type.Boolean()),
    suppressed: Type.Optional(Type.Boolean()),
    fields: Type.Optional(Type.String({ description: `Fields to return: ${BIB_FIELDS.all.join(', ')}, or default.` })),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String() });
const FieldsQuery = Type.Object({ fields: Type.Optional(Type.String()) }, { additionalProperties: false });
const MarcBody = Type.Unknown({
  description: 'A MARC-in-JSON record {"leader": …, "fields": […]}, or {"marc": <MARC-in-JSON>, "suppressed": false}.',
});

export function bibRoutes(app: App, bibs: BibService, publicBaseUrl: string | undefined): void {
  app.get('/bibs', {
    config: { access: access.need('Bibs_Read') },
    schema: { summary: 'List or harvest bibs', tags: ['bibs'], security: [{ bearer: [] }], querystring: ListQuery, response: { 200: BibList, ...protectedErrors } },
  }, async (request) => {
    const q = request.query;
    const fields = parseFields(q.fields, BIB_FIELDS);
    const offset = q.offset ?? 0;
    const rows = await bibs.list({
      id: q.id === undefined ? undefined : parseIdFilter('id', q.id),
      createdDate: q.createdDate === undefined ? undefined : parseDateFilter('createdDate', q.createdDate),
      updatedDate: q.updatedDate === undefined ? undefined : parseDateFilter('updatedDate', q.updatedDate),
      deletedDate: q.deletedDate === undefined ? undefined : parseDateFilter('deletedDate', q.deletedDate),
      deleted: q.deleted,
      suppressed: q.suppressed,
      limit: q.limit ?? 50,
      offset,
    });
    return { total: rows.length, start: offset, entries: rows.map((row) => presentBib(row, fields)) };
  });

  app.get('/bibs/:id', {
    config: { access: access.need('Bibs_Read') },
    schema: { summary: 'Get a bib', tags: ['bibs'], security: [{ bearer: [] }], params: IdParams, querystring: FieldsQuery, response: { 200: Type.Ref('Bib'), 404: errorRef, ...protectedErrors } },
  }, async (request) => {
    const fields = parseFields(request.query.fields, BIB_FIELDS);
    return presentBib(await bibs.get(parseRecordId('id', request.params.id)), fields);
  });

  app.post('/bibs', {
    config: { access: access.need('Bibs_Write') },
    schema: { summary: 'Create a bib from MARC', tags: ['bibs'], security: [{ bearer: [] }], body: MarcBody, response: { 200: Type.Object({ link: Type.String() }), ...protectedErrors } },
  }, async (request) => {
    const id = await bibs.create(parseBibBody(request.body));
    return { link: recordLink(request, publicBaseUrl, 'bibs', id) };
  });

  app.put('/bibs/:id', {
    config: { access: access.need('Bibs_Write') },
    schema: { summary: 'Replace a bib’s MARC', tags: ['bibs'], security: [{ bearer: [] }], params: IdParams, body: MarcBody, response: { 204: Type.Null(), 404: errorRef, ...protectedErrors } },
  }, async (request, reply) => {
    const id = parseRecordId('id', request.params.id);
    await bibs.replace(id, parseBibBody(request.body));
    return reply.code(204).send(null);
  });

  app.delete('/bibs/:id', {
    config: { access: access.need('Bibs_Write') },
    schema: { summary: 'Delete a bib (leaves a tombstone)', tags: ['bibs'], security: [{ bearer: [] }], params: IdParams, response: { 204: Type.Null(), 404: errorRef, ...protectedErrors } },
  }, async (request, reply) => {
    await bibs.delete(parseRecordId('id', request.params.id));
    return reply.code(204).send(null);
  });
}
