// /patrons/{id}/holds, /patrons/holds: place, read, list, change and cancel holds.
import { Type, type TSchema } from 'typebox';
import type { BibService } from '../bibs/service.ts';
import { BIB_FIELDS, presentBib } from '../bibs/present.ts';
import { access } from '../http/access.ts';
import { fail } from '../shared/errors.ts';
import { apiBase } from '../http/links.ts';
import { pagingQuery, parseFields } from '../http/params.ts';
import { parseRecordId } from '../shared/filters.ts';
import { errorRef, StatGroup } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import type { ItemService } from '../items/service.ts';
import { ITEM_FIELDS, presentItem } from '../items/present.ts';
import { HOLD_FIELDS, presentHold, type HoldField } from './present.ts';
import type { HoldRow } from './repository.ts';
import type { HoldService } from './service.ts';

const Named = Type.Object({ code: Type.String(), name: Type.String() });
// A property for each of HOLD_FIELDS (the `satisfies` checks it): Fastify drops from an answer any field its schema does not name.
export const HoldSchema = Type.Object(
  {
    id: Type.String({ description: 'Absolute URL of the hold.' }),
    record: Type.Optional(
      Type.Union([Type.String(), Type.Object({}, { additionalProperties: true })], {
        description: 'URL of the bib or item; with expand=record, the record.',
      }),
    ),
    patron: Type.Optional(Type.String()),
    frozen: Type.Optional(Type.Boolean()),
    placed: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
    notNeededAfterDate: Type.Optional(Type.String()),
    notWantedBeforeDate: Type.Optional(Type.String()),
    pickupByDate: Type.Optional(Type.String({ description: 'Present exactly when the hold is ready for pickup (status b or i).' })),
    location: Type.Optional(Named),
    pickupLocation: Type.Optional(Named),
    status: Type.Optional(
      Type.Object(
        { code: Type.String(), name: Type.String() },
        { description: '0 on hold, t in transit, b/i ready for pickup; x expired, c cancelled, f filled.' },
      ),
    ),
    recordType: Type.Optional(Type.String()),
    priority: Type.Optional(Type.Integer({ description: 'Place in the queue (1 first); active holds only.' })),
    priorityQueueLength: Type.Optional(Type.Integer()),
    canFreeze: Type.Optional(Type.Boolean()),
    note: Type.Optional(Type.String()),
  } satisfies Record<HoldField, TSchema>,
  { $id: 'Hold', additionalProperties: false },
);
/** A page of holds, as the lists answer it (REST and SOAP). */
export const HoldList = Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Ref('Hold')) });

const PatronParams = Type.Object({ id: Type.String() });
const HoldParams = Type.Object({ holdId: Type.String() });
const ReadQuery = Type.Object(
  {
    fields: Type.Optional(Type.String({ description: `Fields: ${HOLD_FIELDS.all.join(', ')}, or default.` })),
    expand: Type.Optional(Type.String({ description: 'record: nest the bib or item instead of its URL.' })),
  },
  { additionalProperties: false },
);
const ListQuery = Type.Object(
  {
    ...pagingQuery,
    fields: ReadQuery.properties.fields,
    expand: ReadQuery.properties.expand,
    inactive: Type.Optional(Type.Boolean({ description: 'true: also expired, cancelled and filled holds (default false).' })),
  },
  { additionalProperties: false },
);
/** What placing a hold takes (REST's body, SOAP's PlaceHold). */
export const PlaceBody = Type.Object(
  {
    recordType: Type.String({ description: 'b (bib) or i (item).' }),
    recordNumber: Type.Union([Type.Integer(), Type.String()]),
    pickupLocation: Type.String({ description: 'A pickup location code (GET /branches/pickupLocations).' }),
    neededBy: Type.Optional(
      Type.String({
        description: 'YYYY-MM-DD: the hold expires unfilled after this day (default: in the library profile, holds.neededByMonths months).',
      }),
    ),
    note: Type.Optional(Type.String({ maxLength: 500 })),
    statgroup: StatGroup,
  },
  { additionalProperties: false },
);
const ChangeBody = Type.Object(
  {
    freeze: Type.Optional(Type.Boolean()),
    pickupLocation: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const sec = { tags: ['holds'] };

/** Which fields of a hold to show, and whether to nest its record (expand=record). */
export interface HoldView {
  fields?: string;
  expand?: string;
}

function parseExpand(raw: string | undefined): boolean {
  if (raw === undefined || raw === '') return false;
  if (raw !== 'record') throw fail.invalidParameter('expand: only record is supported');
  return true;
}

/** Holds as the API shows them (REST and SOAP alike); `base` is the API's absolute base. */
export async function presentHolds(
  rows: HoldRow[],
  view: HoldView,
  base: string,
  catalogue: { bibs: BibService; items: ItemService },
): Promise<Record<string, unknown>[]> {
  const fields = parseFields(view.fields, HOLD_FIELDS);
  if (!parseExpand(view.expand)) return rows.map((row) => presentHold(row, fields, base));
  // The page's records in one statement per kind, not one per hold.
  const bibIds = [...new Set(rows.filter((r) => r.record_type === 'b').map((r) => r.bib_id))];
  const itemIds = [...new Set(rows.flatMap((r) => (r.record_type === 'i' && r.item_id ? [r.item_id] : [])))];
  const [bibs, items] = await Promise.all([catalogue.bibs.byIds(bibIds, {}), catalogue.items.many(itemIds)]);
  const records = new Map<string, Record<string, unknown>>([
    ...[...bibs.values()].map((b) => [`b${b.id}`, presentBib(b, BIB_FIELDS.defaults, {})] as const),
    ...items.map((i) => [`i${i.id}`, presentItem(i, ITEM_FIELDS.defaults)] as const),
  ]);
  return rows.map((row) => presentHold(row, fields, base, records.get(row.record_type === 'b' ? `b${row.bib_id}` : `i${row.item_id}`)));
}

export function holdRoutes(
  app: App,
  holds: HoldService,
  catalogue: { bibs: BibService; items: ItemService },
  publicBaseUrl: string | undefined,
): void {
  const present = (rows: HoldRow[], q: HoldView, base: string) => presentHolds(rows, q, base, catalogue);
  const holdId = (raw: string) => parseRecordId('holdId', raw);

  app.get(
    '/patrons/holds',
    {
      config: { access: access.need('Patrons_Holds_Read'), xml: 'holds' },
      schema: { summary: 'List all holds', ...sec, querystring: ListQuery, response: { 200: HoldList } },
    },
    async (request) => {
      const q = request.query;
      const offset = q.offset ?? 0;
      const rows = await holds.list({ inactive: q.inactive ?? false, limit: q.limit ?? 50, offset });
      return { total: rows.length, start: offset, entries: await present(rows, q, apiBase(request, publicBaseUrl)) };
    },
  );

  app.get(
    '/patrons/holds/:holdId',
    {
      config: { access: access.need('Patrons_Holds_Read'), xml: 'hold' },
      schema: {
        summary: 'Get a hold, in any state',
        ...sec,
        params: HoldParams,
        querystring: ReadQuery,
        response: { 200: Type.Ref('Hold'), 404: errorRef },
      },
    },
    async (request) => {
      const row = await holds.get(holdId(request.params.holdId));
      return (await present([row], request.query, apiBase(request, publicBaseUrl)))[0];
    },
  );

  app.put(
    '/patrons/holds/:holdId',
    {
      config: { access: access.need('Patrons_Holds_Write') },
      schema: {
        summary: 'Freeze, unfreeze or move a hold',
        description: 'A hold ready for pickup (or in transit) cannot be frozen: 409 code 132 specificCode 8.',
        ...sec,
        params: HoldParams,
        body: ChangeBody,
        response: { 204: Type.Null(), 404: errorRef, 409: errorRef },
      },
    },
    async (request, reply) => {
      await holds.update(holdId(request.params.holdId), request.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/patrons/holds/:holdId',
    {
      config: { access: access.need('Patrons_Holds_Write') },
      schema: { summary: 'Cancel a hold', ...sec, params: HoldParams, response: { 204: Type.Null(), 404: errorRef } },
    },
    async (request, reply) => {
      await holds.cancel(holdId(request.params.holdId));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/patrons/:id/holds',
    {
      config: { access: access.need('Patrons_Holds_Read'), xml: 'holds' },
      schema: {
        summary: "List a patron's holds",
        ...sec,
        params: PatronParams,
        querystring: ListQuery,
        response: { 200: HoldList, 404: errorRef },
      },
    },
    async (request) => {
      const q = request.query;
      const offset = q.offset ?? 0;
      const rows = await holds.listOfPatron(parseRecordId('id', request.params.id), {
        inactive: q.inactive ?? false,
        limit: q.limit ?? 50,
        offset,
      });
      return { total: rows.length, start: offset, entries: await present(rows, q, apiBase(request, publicBaseUrl)) };
    },
  );

  app.post(
    '/patrons/:id/holds/requests',
    {
      config: { access: access.need('Patrons_Holds_Write') },
      schema: {
        summary: 'Place a hold',
        description: 'Refusals: 400/409 code 132 with a specificCode (README, "Holds and circulation").',
        ...sec,
        params: PatronParams,
        body: PlaceBody,
        response: { 204: Type.Null(), 404: errorRef, 409: errorRef },
      },
    },
    async (request, reply) => {
      await holds.place(parseRecordId('id', request.params.id), request.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/patrons/:id/holds',
    {
      config: { access: access.need('Patrons_Holds_Write') },
      schema: {
        summary: "Cancel all of a patron's holds",
        ...sec,
        params: PatronParams,
        response: { 204: Type.Null(), 404: errorRef },
      },
    },
    async (request, reply) => {
      await holds.cancelAll(parseRecordId('id', request.params.id));
      return reply.code(204).send(null);
    },
  );
}
