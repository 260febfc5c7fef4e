// Check-out (POST /patrons/{id}/checkouts, or by barcodes: POST /patrons/checkout), the patron's
// checkouts, one checkout and its renewal, an item's checkout, and check-in (POST /items/{id}/checkin,
// or by barcode: DELETE /items/checkouts/{barcode}).
import { Type, type TSchema } from 'typebox';
import { access } from '../http/access.ts';
import { fail } from '../shared/errors.ts';
import { apiBase } from '../http/links.ts';
import { pagingQuery } from '../http/params.ts';
import { parseRecordId } from '../shared/filters.ts';
import { errorRef, LinkAnswer, StatGroup } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import type { FastifyRequest } from 'fastify';
import type { CirculationService } from './service.ts';
import type { ItemService } from '../items/service.ts';
import { ITEM_FIELDS, presentItem } from '../items/present.ts';
import { parseFields } from '../http/params.ts';
import { CHECKOUT_FIELDS, presentCheckout, type CheckoutField } from './present.ts';
import type { CheckoutRow } from './repository.ts';

const PatronParams = Type.Object({ id: Type.String() });
// A property for each of CHECKOUT_FIELDS (the `satisfies` checks it): Fastify drops from an answer any field its schema does not name.
export const Checkout = Type.Object(
  {
    id: Type.String(),
    patron: Type.Optional(Type.String()),
    item: Type.Optional(Type.Union([Type.String(), Type.Ref('Item')], { description: 'URL of the item; with expand=item, the item.' })),
    barcode: Type.Optional(Type.String()),
    dueDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
    callNumber: Type.Optional(Type.String()),
    numberOfRenewals: Type.Optional(Type.Integer()),
    outDate: Type.Optional(Type.String({ description: 'Instant.' })),
  } satisfies Record<CheckoutField, TSchema>,
  { additionalProperties: false },
);
/** A page of checkouts, as the lists answer it (REST and SOAP). */
export const CheckoutList = Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Checkout) });
const ReadQuery = {
  fields: Type.Optional(Type.String({ description: `Fields to return: ${CHECKOUT_FIELDS.all.join(', ')}, or default.` })),
  expand: Type.Optional(Type.String({ description: 'item: nest the item instead of its URL.' })),
};

const CheckoutBody = Type.Object(
  {
    itemBarcode: Type.Optional(Type.String()),
    itemId: Type.Optional(Type.String()),
    statgroup: StatGroup,
  },
  { additionalProperties: false, description: 'The item, by barcode or by id.' },
);
const CheckinBody = Type.Union([
  Type.Object(
    { location: Type.Optional(Type.String({ description: 'Where the item is checked in (default: its own location).' })) },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

const sec = { tags: ['circulation'] };

/** Which fields of a checkout to show, and whether to nest its item (expand=item). */
export interface CheckoutView {
  fields?: string;
  expand?: string;
}

/** Checkouts as the API shows them (REST and SOAP alike); `base` is the API's absolute base. */
export async function presentCheckouts(
  rows: CheckoutRow[],
  view: CheckoutView,
  base: string,
  items: ItemService,
): Promise<Record<string, unknown>[]> {
  const fields = parseFields(view.fields, CHECKOUT_FIELDS);
  if (view.expand !== undefined && view.expand !== 'item') throw fail.invalidParameter('expand: only item is supported');
  const nested = view.expand === 'item' ? new Map((await items.many(rows.map((r) => r.item_id))).map((i) => [i.id, i])) : undefined;
  return rows.map((row) => {
    const out = presentCheckout(row, fields, base);
    const item = nested?.get(row.item_id);
    if (item && 'item' in out) out.item = presentItem(item, ITEM_FIELDS.defaults);
    return out;
  });
}

/** What renewing shows: the whole checkout. */
export const RENEWED_VIEW: CheckoutView = { fields: CHECKOUT_FIELDS.all.join(',') };

/** A checkout's statistics group, given in its query (statgroup=N) or its body; both must agree. */
function oneStatGroup(inQuery: number | undefined, inBody: number | undefined): number | undefined {
  if (inQuery !== undefined && inBody !== undefined && inQuery !== inBody) {
    throw fail.invalidInput(`statgroup: ${inQuery} in the query and ${inBody} in the body`);
  }
  return inQuery ?? inBody;
}

export function circulationRoutes(app: App, circulation: CirculationService, items: ItemService, publicBaseUrl: string | undefined): void {
  /** Checkouts as the request asks for them: its fields, and with expand=item each item nested. */
  const present = (request: FastifyRequest, rows: CheckoutRow[], q: CheckoutView) =>
    presentCheckouts(rows, q, apiBase(request, publicBaseUrl), items);

  app.post(
    '/patrons/:id/checkouts',
    {
      config: { access: access.need('Patrons_Checkouts_Write') },
      schema: {
        summary: 'Check an item out to a patron',
        description:
          "Fills the patron's hold the item is trapped for; refused (409 code 132 specificCode 9) when it is held for another patron.",
        ...sec,
        params: PatronParams,
        querystring: Type.Object({ statgroup: StatGroup }, { additionalProperties: false }),
        body: CheckoutBody,
        response: { 200: LinkAnswer, 404: errorRef, 409: errorRef },
      },
    },
    async (request) => {
      const { itemBarcode, itemId } = request.body;
      if ((itemBarcode === undefined) === (itemId === undefined)) throw fail.invalidInput('give itemBarcode or itemId');
      const { id } = await circulation.checkout(
        parseRecordId('id', request.params.id),
        { itemBarcode, itemId: itemId === undefined ? undefined : parseRecordId('itemId', itemId) },
        oneStatGroup(request.query.statgroup, request.body.statgroup),
      );
      return { link: `${apiBase(request, publicBaseUrl)}/patrons/checkouts/${id}` };
    },
  );

  app.get(
    '/patrons/:id/checkouts',
    {
      config: { access: access.need('Patrons_Checkouts_Read') },
      schema: {
        summary: "A patron's checkouts",
        ...sec,
        params: PatronParams,
        querystring: Type.Object({ ...pagingQuery, ...ReadQuery }, { additionalProperties: false }),
        response: { 200: CheckoutList, 404: errorRef },
      },
    },
    async (request) => {
      const offset = request.query.offset ?? 0;
      const rows = await circulation.checkouts(parseRecordId('id', request.params.id), request.query.limit ?? 50, offset);
      return { total: rows.length, start: offset, entries: await present(request, rows, request.query) };
    },
  );

  app.get(
    '/patrons/checkouts/:id',
    {
      config: { access: access.need('Patrons_Checkouts_Read') },
      schema: {
        summary: 'A checkout',
        ...sec,
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object(ReadQuery, { additionalProperties: false }),
        response: { 200: Checkout, 404: errorRef },
      },
    },
    async (request) => (await present(request, [await circulation.loan(parseRecordId('id', request.params.id))], request.query))[0],
  );

  app.post(
    '/patrons/checkouts/:id/renewal',
    {
      config: { access: access.need('Patrons_Checkouts_Write') },
      schema: {
        summary: 'Renew a checkout',
        description:
          "Due again after its circulation rule's loan period from today. Refused (409 code 132) past the rule's renewals (specificCode 11), when a hold of another patron wants the item (12), or when the patron may not borrow (1 expired, 2 blocked).",
        ...sec,
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object({ statgroup: StatGroup }, { additionalProperties: false }),
        response: { 200: Checkout, 404: errorRef, 409: errorRef },
      },
    },
    async (request) => {
      const row = await circulation.renew(parseRecordId('id', request.params.id), request.query.statgroup);
      return (await present(request, [row], RENEWED_VIEW))[0];
    },
  );

  app.post(
    '/patrons/checkout',
    {
      config: { access: access.need('Patrons_Checkouts_Write') },
      schema: {
        summary: 'Check an item out to a patron, both by barcode',
        description: 'With patronPin, the PIN is checked first (counted against the same limits as POST /patrons/validate).',
        ...sec,
        querystring: Type.Object({ statgroup: StatGroup }, { additionalProperties: false }),
        body: Type.Object(
          {
            patronBarcode: Type.String({ minLength: 1, maxLength: 200 }),
            itemBarcode: Type.String({ minLength: 1, maxLength: 200 }),
            patronPin: Type.Optional(Type.String({ maxLength: 128 })),
            statgroup: StatGroup,
          },
          { additionalProperties: false },
        ),
        response: { 200: LinkAnswer, 400: errorRef, 404: errorRef, 409: errorRef },
      },
    },
    async (request) => {
      const { patronBarcode, itemBarcode, patronPin } = request.body;
      const { id } = await circulation.checkoutByBarcodes(
        patronBarcode.trim(),
        { itemBarcode: itemBarcode.trim() },
        patronPin,
        request.principal!.keyId,
        undefined,
        oneStatGroup(request.query.statgroup, request.body.statgroup),
      );
      return { link: `${apiBase(request, publicBaseUrl)}/patrons/checkouts/${id}` };
    },
  );

  app.get(
    '/items/:id/checkouts',
    {
      config: { access: access.need('Patrons_Checkouts_Read') },
      schema: {
        summary: "An item's checkout (a list of one, or none)",
        ...sec,
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object(ReadQuery, { additionalProperties: false }),
        response: { 200: CheckoutList, 404: errorRef },
      },
    },
    async (request) => {
      const rows = await circulation.checkoutsOfItem(parseRecordId('id', request.params.id));
      return { total: rows.length, start: 0, entries: await present(request, rows, request.query) };
    },
  );

  app.delete(
    '/items/checkouts/:barcode',
    {
      config: { access: access.need('Items_Write') },
      schema: {
        summary: 'Check an item in by its barcode',
        description: "As POST /items/{id}/checkin at the item's own location: traps it for the first hold it can fill.",
        ...sec,
        params: Type.Object({ barcode: Type.String({ minLength: 1, maxLength: 200 }) }),
        querystring: Type.Object({ statgroup: StatGroup }, { additionalProperties: false }),
        response: { 204: Type.Null(), 404: errorRef },
      },
    },
    async (request, reply) => {
      await circulation.checkinByBarcode(request.params.barcode.trim(), request.query.statgroup);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/items/:id/checkin',
    {
      config: { access: access.need('Items_Write') },
      schema: {
        summary: 'Check an item in',
        description:
          "Ends its checkout, and traps it for the first hold it can fill: ready (status !) at that hold's pickup location, else in transit (t).",
        ...sec,
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object({ statgroup: StatGroup }, { additionalProperties: false }),
        body: CheckinBody,
        response: {
          200: Type.Object({
            item: Type.String(),
            status: Type.String({ description: '! on the hold shelf, t in transit, - on the shelf.' }),
            hold: Type.Optional(Type.String()),
          }),
          404: errorRef,
        },
      },
    },
    async (request) => {
      const result = await circulation.checkin(parseRecordId('id', request.params.id), request.body?.location, request.query.statgroup);
      const base = apiBase(request, publicBaseUrl);
      return {
        item: `${base}/items/${result.itemId}`,
        status: result.status,
        ...(result.holdId ? { hold: `${base}/patrons/holds/${result.holdId}` } : {}),
      };
    },
  );
}
