// Check-out (POST /patrons/{id}/checkouts), the patron's checkouts, and check-in (POST /items/{id}/checkin).
import { Type } from 'typebox';
import { access } from '../http/access.ts';
import { fail } from '../shared/errors.ts';
import { apiBase } from '../http/links.ts';
import { pagingQuery } from '../http/params.ts';
import { parseRecordId } from '../shared/filters.ts';
import { instant } from '../shared/instant.ts';
import { errorRef, LinkAnswer } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import type { CirculationService } from './service.ts';

const PatronParams = Type.Object({ id: Type.String() });
const Checkout = Type.Object(
  {
    id: Type.String(),
    patron: Type.String(),
    item: Type.String(),
    barcode: Type.Optional(Type.String()),
    outDate: Type.String({ description: 'Instant.' }),
    dueDate: Type.String({ description: 'YYYY-MM-DD' }),
  },
  { additionalProperties: false },
);
const CheckoutBody = Type.Object(
  {
    itemBarcode: Type.Optional(Type.String()),
    itemId: Type.Optional(Type.String()),
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

const sec = { tags: ['circulation'], security: [{ bearer: [] }] };

export function circulationRoutes(app: App, circulation: CirculationService, publicBaseUrl: string | undefined): void {
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
        body: CheckoutBody,
        response: { 200: LinkAnswer, 404: errorRef, 409: errorRef },
      },
    },
    async (request) => {
      const { itemBarcode, itemId } = request.body;
      if ((itemBarcode === undefined) === (itemId === undefined)) throw fail.invalidInput('give itemBarcode or itemId');
      const id = await circulation.checkout(parseRecordId('id', request.params.id), {
        itemBarcode,
        itemId: itemId === undefined ? undefined : parseRecordId('itemId', itemId),
      });
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
        querystring: Type.Object({ ...pagingQuery }, { additionalProperties: false }),
        response: {
          200: Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Checkout) }),
          404: errorRef,
        },
      },
    },
    async (request) => {
      const offset = request.query.offset ?? 0;
      const rows = await circulation.checkouts(parseRecordId('id', request.params.id), request.query.limit ?? 50, offset);
      const base = apiBase(request, publicBaseUrl);
      return {
        total: rows.length,
        start: offset,
        entries: rows.map((r) => ({
          id: `${base}/patrons/checkouts/${r.id}`,
          patron: `${base}/patrons/${r.patron_id}`,
          item: `${base}/items/${r.item_id}`,
          ...(r.barcode ? { barcode: r.barcode } : {}),
          outDate: instant(r.out_date),
          dueDate: r.due_date,
        })),
      };
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
      const result = await circulation.checkin(parseRecordId('id', request.params.id), request.body?.location);
      const base = apiBase(request, publicBaseUrl);
      return {
        item: `${base}/items/${result.itemId}`,
        status: result.status,
        ...(result.holdId ? { hold: `${base}/patrons/holds/${result.holdId}` } : {}),
      };
    },
  );
}
