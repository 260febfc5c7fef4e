// /queries: saved SQL queries over the sierra_view views (README, "Saved queries"). Saving and
// deleting need Queries_Write, reading and running Queries_Read; a public query's results are
// open to anyone, at a rate per client address and per key (the service counts them).
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { access } from '../http/access.ts';
import { recordLink } from '../http/links.ts';
import { DEFAULT_LIMIT, pagingQuery } from '../http/params.ts';
import { errorRef, LinkAnswer } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import { parseRecordId } from '../shared/filters.ts';
import { csvText, jsonRows } from '../sql/present.ts';
import { PARAMETER_TYPES } from './parameters.ts';
import { presentSavedQuery } from './present.ts';
import type { SavedQueryService } from './service.ts';

const ParameterSchema = Type.Object(
  {
    name: Type.String({ description: 'How the statement names it (:name) and the results URL takes it (?name=…).' }),
    type: Type.Union(
      PARAMETER_TYPES.map((t) => Type.Literal(t)),
      { description: 'text, integer, number, date (YYYY-MM-DD) or boolean' },
    ),
    required: Type.Optional(Type.Boolean({ description: 'Default true, unless a default is given.' })),
    default: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const SavedQuerySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    sql: Type.String(),
    parameters: Type.Array(ParameterSchema),
    public: Type.Boolean(),
    results: Type.String({ description: 'The URL of its results.' }),
    createdDate: Type.String(),
    updatedDate: Type.String(),
  },
  { $id: 'SavedQuery', additionalProperties: false },
);

const body = {
  name: Type.String({ maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  sql: Type.String({
    maxLength: 100_000,
    description: 'One SELECT (or WITH … SELECT) over the sierra_view views; parameters written :name.',
  }),
  parameters: Type.Optional(Type.Array(ParameterSchema, { maxItems: 20 })),
  public: Type.Optional(Type.Boolean({ description: 'Its results may be read without a token. Default false.' })),
};
const SavedQueryCreate = Type.Object(body, { additionalProperties: false });
const SavedQueryUpdate = Type.Object(
  {
    name: Type.Optional(body.name),
    description: body.description,
    sql: Type.Optional(body.sql),
    parameters: body.parameters,
    public: body.public,
  },
  { additionalProperties: false, description: 'Given fields change; the rest stay.' },
);
const IdParams = Type.Object({ id: Type.String() });
const ResultsQuery = Type.Object(
  {
    ...pagingQuery,
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'Overrides Accept.' })),
  },
  { additionalProperties: Type.String(), description: 'Also the query’s parameters by name: ?since=2026-11-01.' },
);

/** CSV when asked for by format=csv or an Accept naming text/csv; JSON otherwise. */
function wantsCsv(request: FastifyRequest, format: string | undefined): boolean {
  if (format) return format === 'csv';
  const accept = request.headers.accept ?? '';
  return accept.split(',').some((part) => part.trim().split(';')[0]!.trim().toLowerCase() === 'text/csv');
}

export function savedQueryRoutes(app: App, queries: SavedQueryService, publicBaseUrl: string | undefined): void {
  const link = (request: FastifyRequest, id: string) => recordLink(request, publicBaseUrl, 'queries', id);

  app.get(
    '/queries',
    {
      config: { access: access.need('Queries_Read') },
      schema: {
        summary: 'List saved queries',
        tags: ['queries'],
        querystring: Type.Object(pagingQuery, { additionalProperties: false }),
        response: { 200: Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Ref('SavedQuery')) }) },
      },
    },
    async (request) => {
      const offset = request.query.offset ?? 0;
      const rows = await queries.list({ limit: request.query.limit ?? DEFAULT_LIMIT, offset });
      return { total: rows.length, start: offset, entries: rows.map((row) => presentSavedQuery(row, link(request, row.id))) };
    },
  );

  app.get(
    '/queries/:id',
    {
      config: { access: access.need('Queries_Read') },
      schema: {
        summary: 'Get a saved query',
        tags: ['queries'],
        params: IdParams,
        response: { 200: Type.Ref('SavedQuery'), 404: errorRef },
      },
    },
    async (request) => {
      const row = await queries.get(parseRecordId('id', request.params.id));
      return presentSavedQuery(row, link(request, row.id));
    },
  );

  app.post(
    '/queries',
    {
      config: { access: access.need('Queries_Write') },
      schema: {
        summary: 'Save a query',
        description:
          'The statement is checked before it is kept: one query, over the views the reader role can read, planned with its parameters.',
        tags: ['queries'],
        body: SavedQueryCreate,
        response: { 200: LinkAnswer },
      },
    },
    async (request) => ({ link: link(request, await queries.create(request.body)) }),
  );

  app.put(
    '/queries/:id',
    {
      config: { access: access.need('Queries_Write') },
      schema: {
        summary: 'Change a saved query',
        tags: ['queries'],
        params: IdParams,
        body: SavedQueryUpdate,
        response: { 204: Type.Null(), 404: errorRef },
      },
    },
    async (request, reply) => {
      await queries.update(parseRecordId('id', request.params.id), request.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/queries/:id',
    {
      config: { access: access.need('Queries_Write') },
      schema: {
        summary: 'Delete a saved query',
        tags: ['queries'],
        params: IdParams,
        response: { 204: Type.Null(), 404: errorRef },
      },
    },
    async (request, reply) => {
      await queries.remove(parseRecordId('id', request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/queries/:id/results',
    {
      config: { access: access.optionalToken },
      schema: {
        summary: 'Run a saved query',
        description:
          'A page of its rows: JSON {total, start, entries} (entries are objects by column; total counts this page), or CSV (RFC 4180, a header line; text cells a spreadsheet would run as a formula start with an apostrophe) by Accept: text/csv or format=csv. JSON pages hold 50 rows by default and at most 2000; CSV holds every row up to the row cap unless limit is given. No token is needed for a public query.',
        tags: ['queries'],
        params: IdParams,
        querystring: ResultsQuery,
        response: { 404: errorRef },
      },
    },
    async (request, reply) => {
      const { limit, offset, format, ...values } = request.query as Record<string, string | number | undefined> & {
        limit?: number;
        offset?: number;
        format?: 'json' | 'csv';
      };
      const csv = wantsCsv(request, format);
      const answer = await queries.results(
        parseRecordId('id', request.params.id),
        values as Record<string, string>,
        { offset: offset ?? 0, limit: limit ?? (csv ? Number.MAX_SAFE_INTEGER : DEFAULT_LIMIT) },
        {
          address: request.ip,
          keyId: request.principal?.keyRowId,
          queriesRead: request.principal?.permissions.has('Queries_Read') ?? false,
        },
      );
      if (csv) return reply.type('text/csv; charset=utf-8').send(csvText(answer));
      return { total: answer.rows.length, start: offset ?? 0, entries: jsonRows(answer) };
    },
  );
}
