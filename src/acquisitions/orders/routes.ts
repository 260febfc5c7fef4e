// /orders: list and harvest, read, place and change purchase orders.
import { Type, type TSchema } from 'typebox';
import { access } from '../../http/access.ts';
import { recordLink } from '../../http/links.ts';
import { commaList, parseCommonList, parseFields, recordListQuery } from '../../http/params.ts';
import { errorRef, fixedFieldsSchema, LinkAnswer, recordHeader } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { fail } from '../../shared/errors.ts';
import { parseRecordId } from '../../shared/filters.ts';
import { ORDER_FIELDS, presentOrder, type OrderField } from './present.ts';
import { MAX_COPIES, MAX_LOCATIONS, ORDER_STATUSES, type OrderService } from './service.ts';

const Money = (description: string) => Type.String({ description: `${description} Decimal string with two places, e.g. "12.99".` });
const CodeName = Type.Object({ code: Type.String(), name: Type.String() });

// A property for each of ORDER_FIELDS (the `satisfies` checks it): Fastify drops from an answer any field its schema does not name.
export const OrderSchema = Type.Object(
  {
    ...recordHeader,
    suppressed: Type.Optional(Type.Boolean()),
    accountingUnit: Type.Optional(Type.Integer({ description: 'The fund’s accounting unit.' })),
    estimatedPrice: Type.Optional(Money('Price of one copy, in the fund’s currency.')),
    vendorRecordCode: Type.Optional(Type.String({ description: 'The vendor’s code.' })),
    orderDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD.' })),
    chargedFunds: Type.Optional(
      Type.Array(Type.Object({ displayOrder: Type.Integer(), fund: Type.String(), copies: Type.Integer(), location: CodeName }), {
        description: 'The fund charged for each location’s copies.',
      }),
    ),
    vendorTitles: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'Not kept: always empty.' })),
    fixedFields: fixedFieldsSchema('order'),
    varFields: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'Not kept: always empty.' })),
    bibId: Type.Optional(Type.String()),
    vendor: Type.Optional(Type.Object({ id: Type.String(), code: Type.String(), name: Type.String() })),
    fund: Type.Optional(CodeName),
    currency: Type.Optional(Type.String({ description: 'The fund’s currency: every amount of the order is in it.' })),
    copies: Type.Optional(Type.Integer()),
    location: Type.Optional(Type.Array(Type.Object({ locationCode: Type.String(), copies: Type.Integer() }))),
    lineReference: Type.Optional(Type.String({ description: 'Unique among open orders; default o and the order’s id.' })),
    status: Type.Optional(
      Type.Object({
        code: Type.String({
          description: Object.entries(ORDER_STATUSES)
            .map(([c, n]) => `${c} ${n}`)
            .join(', '),
        }),
        name: Type.String(),
      }),
    ),
    receivedDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD of the last receipt; only once a copy is received.' })),
    receivedCopies: Type.Optional(Type.Integer()),
    paidCopies: Type.Optional(Type.Integer({ description: 'Copies paid by paid invoice lines naming the order.' })),
    encumbrance: Type.Optional(Money('What the order still encumbers on its fund.')),
    vendorStatus: Type.Optional(Type.String({ description: 'The vendor’s last answer about the order line.' })),
    cancelledDate: Type.Optional(Type.String()),
    note: Type.Optional(Type.String()),
  } satisfies Record<OrderField, TSchema>,
  { $id: 'Order', additionalProperties: false },
);

const OrderCreate = Type.Object(
  {
    bibId: Type.String({ maxLength: 20, description: 'The bib ordered.' }),
    vendor: Type.String({ maxLength: 15, description: 'Vendor code.' }),
    fund: Type.String({ maxLength: 15, description: 'Fund code: encumbered with copies × estimatedPrice.' }),
    copies: Type.Integer({ minimum: 1, maximum: MAX_COPIES }),
    location: Type.Array(
      Type.Object(
        { locationCode: Type.String({ maxLength: 20 }), copies: Type.Integer({ minimum: 1, maximum: MAX_COPIES }) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_LOCATIONS, description: 'Where the copies go; their copies add up to copies.' },
    ),
    estimatedPrice: Type.Union([Type.String(), Type.Number()], {
      description: 'Price of one copy, more than 0, at most two decimals (a string is exact).',
    }),
    currency: Type.Optional(Type.String({ maxLength: 3, description: 'Given: must be the fund’s currency.' })),
    lineReference: Type.Optional(Type.String({ maxLength: 40, description: 'Unique among open orders; default o and the id.' })),
    orderDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD; default today (UTC).' })),
    status: Type.Optional(Type.String({ description: 'o on order (default) or 1 selection list.' })),
    note: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);

const OrderUpdate = Type.Object(
  {
    note: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
    lineReference: Type.Optional(Type.String({ maxLength: 40 })),
    status: Type.Optional(Type.String({ description: 'z cancels the order (releasing its encumbrance); no other status is set here.' })),
    receive: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: MAX_COPIES }), Type.Literal('all')], {
        description: 'Receive this many copies (or all not yet received): new items of the bib at the order’s locations.',
      }),
    ),
  },
  { additionalProperties: false, description: 'The members given change, in one transaction.' },
);

const ListQuery = Type.Object(
  {
    ...recordListQuery(ORDER_FIELDS),
    status: Type.Optional(Type.String({ description: 'Status codes, comma-separated: o, 1, q, a, z.' })),
    bibId: Type.Optional(Type.String({ description: 'The orders of this bib.' })),
    lineReference: Type.Optional(Type.String({ maxLength: 40, description: 'Orders with this line reference.' })),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String() });
const FieldsQuery = Type.Object({ fields: Type.Optional(Type.String()) }, { additionalProperties: false });

export function orderRoutes(app: App, orders: OrderService, publicBaseUrl: string | undefined): void {
  app.get(
    '/orders',
    {
      config: { access: access.need('Acquisitions_Read') },
      schema: {
        summary: 'List or harvest orders',
        tags: ['orders'],
        querystring: ListQuery,
        response: { 200: Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Ref('Order')) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const fields = parseFields(q.fields, ORDER_FIELDS);
      // Orders are never suppressed: the filter is taken (as every list takes it) and matches all or none.
      const { suppressed, ...common } = parseCommonList(q);
      const status = commaList(q.status);
      if (status?.some((s) => !Object.hasOwn(ORDER_STATUSES, s))) throw fail.invalidParameter('status: codes are o, 1, q, a and z');
      const rows = suppressed
        ? []
        : await orders.list({
            ...common,
            status,
            bibId: q.bibId === undefined ? undefined : parseRecordId('bibId', q.bibId),
            lineReference: q.lineReference,
          });
      return { total: rows.length, start: common.offset, entries: rows.map((row) => presentOrder(row, fields)) };
    },
  );

  app.get(
    '/orders/:id',
    {
      config: { access: access.need('Acquisitions_Read') },
      schema: {
        summary: 'Get an order',
        tags: ['orders'],
        params: IdParams,
        querystring: FieldsQuery,
        response: { 200: Type.Ref('Order'), 404: errorRef },
      },
    },
    async (request) =>
      presentOrder(await orders.get(parseRecordId('id', request.params.id)), parseFields(request.query.fields, ORDER_FIELDS)),
  );

  app.post(
    '/orders',
    {
      config: { access: access.need('Acquisitions_Write') },
      schema: {
        summary: 'Place an order',
        description:
          'Encumbers the fund with copies × estimatedPrice in one transaction. Refused (400) naming the member: unknown bib, vendor, fund or location, copies not matching the locations’, a price of 0; 409 when the line reference is an open order’s.',
        tags: ['orders'],
        body: OrderCreate,
        response: { 200: LinkAnswer, 400: errorRef, 409: errorRef },
      },
    },
    async (request) => {
      const id = await orders.create(request.body);
      return { link: recordLink(request, publicBaseUrl, 'orders', id) };
    },
  );

  app.put(
    '/orders/:id',
    {
      config: { access: access.need('Acquisitions_Write') },
      schema: {
        summary: 'Change, cancel or receive an order',
        description:
          '{"note": …, "lineReference": …} change them; {"status": "z"} cancels (releasing the encumbrance; refused once a copy is received or paid); {"receive": 2} or {"receive": "all"} adds the copies as items at the order’s locations (in processing) and sets the received date; the encumbrance stays until an invoice line pays the order.',
        tags: ['orders'],
        params: IdParams,
        body: OrderUpdate,
        response: { 204: Type.Null(), 400: errorRef, 404: errorRef, 409: errorRef },
      },
    },
    async (request, reply) => {
      await orders.update(parseRecordId('id', request.params.id), request.body);
      return reply.code(204).send(null);
    },
  );
}
