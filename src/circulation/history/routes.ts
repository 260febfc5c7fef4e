// /patrons/{id}/checkouts/history: a patron's reading history, its switch, and deleting from it.
import { Type } from 'typebox';
import { access } from '../../http/access.ts';
import { apiBase } from '../../http/links.ts';
import { pagingQuery } from '../../http/params.ts';
import { errorRef } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { fail } from '../../shared/errors.ts';
import { parseRecordId } from '../../shared/filters.ts';
import { instant } from '../../shared/instant.ts';
import type { ReadingHistoryService } from './service.ts';

const PatronParams = Type.Object({ id: Type.String() });
const Entry = Type.Object(
  { id: Type.String(), patron: Type.String(), item: Type.String(), bib: Type.Optional(Type.String()), outDate: Type.String() },
  { additionalProperties: false },
);
const Activation = Type.Object({ readingHistoryActivation: Type.Boolean() }, { additionalProperties: false });
const sec = { tags: ['circulation'] };
const off = 'A patron who has not turned it on keeps none: 400 code 146.';

export function historyRoutes(app: App, history: ReadingHistoryService, publicBaseUrl: string | undefined): void {
  app.get(
    '/patrons/:id/checkouts/history',
    {
      config: { access: access.need('Patrons_Checkouts_Read') },
      schema: {
        summary: "A patron's reading history (newest first by default)",
        description: off,
        ...sec,
        params: PatronParams,
        querystring: Type.Object(
          {
            ...pagingQuery,
            sortField: Type.Optional(Type.Literal('outDate')),
            sortOrder: Type.Optional(Type.Union([Type.Literal('desc'), Type.Literal('asc')])),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Entry) }),
          400: errorRef,
          404: errorRef,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const patronId = parseRecordId('id', request.params.id);
      const offset = q.offset ?? 0;
      const rows = await history.list(patronId, q.sortOrder !== 'asc', q.limit ?? 50, offset);
      const base = apiBase(request, publicBaseUrl);
      return {
        total: rows.length,
        start: offset,
        entries: rows.map((r) => ({
          id: `${base}/patrons/checkouts/history/${r.id}`,
          patron: `${base}/patrons/${r.patron_id}`,
          item: `${base}/items/${r.item_id}`,
          ...(r.bib_id ? { bib: `${base}/bibs/${r.bib_id}` } : {}),
          outDate: instant(r.out_date),
        })),
      };
    },
  );

  app.get(
    '/patrons/:id/checkouts/history/activationStatus',
    {
      config: { access: access.need('Patrons_Checkouts_Read') },
      schema: {
        summary: 'Whether a patron keeps a reading history',
        ...sec,
        params: PatronParams,
        response: { 200: Activation, 404: errorRef },
      },
    },
    async (request) => ({ readingHistoryActivation: await history.active(parseRecordId('id', request.params.id)) }),
  );

  app.post(
    '/patrons/:id/checkouts/history/activationStatus',
    {
      config: { access: access.need('Patrons_Checkouts_Write') },
      schema: {
        summary: "Turn a patron's reading history on or off (off deletes it)",
        ...sec,
        params: PatronParams,
        body: Activation,
        response: { 204: Type.Null(), 404: errorRef },
      },
    },
    async (request, reply) => {
      await history.activate(parseRecordId('id', request.params.id), request.body.readingHistoryActivation);
      return reply.code(204).send(null);
    },
  );

  const removal = (summary: string, params: typeof PatronParams | ReturnType<typeof Type.Object>) => ({
    config: { access: access.need('Patrons_Checkouts_Write') },
    schema: { summary, description: off, ...sec, params, response: { 204: Type.Null(), 400: errorRef, 404: errorRef } },
  });
  app.delete('/patrons/:id/checkouts/history', removal("Delete a patron's whole reading history", PatronParams), async (request, reply) => {
    await history.delete(parseRecordId('id', (request.params as { id: string }).id));
    return reply.code(204).send(null);
  });
  app.delete(
    '/patrons/:id/checkouts/history/:entry',
    removal("Delete one entry of a patron's reading history", Type.Object({ id: Type.String(), entry: Type.String() })),
    async (request, reply) => {
      const { id, entry } = request.params as { id: string; entry: string };
      if (!/^\d{1,18}$/.test(entry)) throw fail.invalidArgument(`entry: "${entry}" is not an entry id`);
      await history.delete(parseRecordId('id', id), entry);
      return reply.code(204).send(null);
    },
  );
}
