// /patrons/{id}/fines: what a patron owes; payments on it; manual charges.
import { Type, type TSchema } from 'typebox';
import { access } from '../http/access.ts';
import { apiBase } from '../http/links.ts';
import { pagingQuery, parseFields } from '../http/params.ts';
import { errorRef, LinkAnswer } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import { parseRecordId } from '../shared/filters.ts';
import { FINE_FIELDS, presentFine, type FineField } from './present.ts';
import { CHARGE_TYPES, PAYMENT_TYPES, type FineService } from './service.ts';

// A property for each of FINE_FIELDS (the `satisfies` checks it): Fastify drops from an answer any field its schema does not name.
export const Fine = Type.Object(
  {
    id: Type.String(),
    patron: Type.Optional(Type.String()),
    item: Type.Optional(Type.String()),
    assessedDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
    description: Type.Optional(Type.String()),
    chargeType: Type.Optional(
      Type.Object(
        { code: Type.String(), display: Type.String() },
        {
          description: `Sierra's charge types: ${Object.entries(CHARGE_TYPES)
            .map(([c, d]) => `${c} ${d}`)
            .join(', ')}.`,
        },
      ),
    ),
    itemCharge: Type.Optional(Type.Number()),
    processingFee: Type.Optional(Type.Number()),
    billingFee: Type.Optional(Type.Number()),
    paidAmount: Type.Optional(Type.Number()),
    location: Type.Optional(Type.Object({ code: Type.String(), name: Type.String() })),
    invoiceNumber: Type.Optional(Type.Integer({ description: 'What a payment names the fine by.' })),
  } satisfies Record<FineField, TSchema>,
  { additionalProperties: false },
);
const PatronParams = Type.Object({ id: Type.String() });
/** Payments on a patron's fines (REST's body, SOAP's PayFine). */
export const PaymentBody = Type.Object(
  {
    payments: Type.Array(
      Type.Object(
        {
          amount: Type.Integer({ description: 'In cents.' }),
          paymentType: Type.Integer({
            description: Object.entries(PAYMENT_TYPES)
              .map(([c, d]) => `${c} ${d}`)
              .join(', '),
          }),
          invoiceNumber: Type.String({ maxLength: 40, description: "The fine's invoiceNumber." }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 100 },
    ),
  },
  { additionalProperties: false },
);
/** A page of the fines a patron owes (REST and SOAP). */
export const FineList = Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Fine) });
const sec = { tags: ['fines'] };

export function fineRoutes(app: App, fines: FineService, publicBaseUrl: string | undefined): void {
  app.get(
    '/patrons/:id/fines',
    {
      config: { access: access.need('Patrons_Read') },
      schema: {
        summary: 'The fines a patron owes',
        ...sec,
        params: PatronParams,
        querystring: Type.Object(
          { ...pagingQuery, fields: Type.Optional(Type.String({ description: `Fields: ${FINE_FIELDS.all.join(', ')}, or default.` })) },
          { additionalProperties: false },
        ),
        response: { 200: FineList, 404: errorRef },
      },
    },
    async (request) => {
      const q = request.query;
      const fields = parseFields(q.fields, FINE_FIELDS);
      const offset = q.offset ?? 0;
      const rows = await fines.owed(parseRecordId('id', request.params.id), q.limit ?? 50, offset);
      const base = apiBase(request, publicBaseUrl);
      return { total: rows.length, start: offset, entries: rows.map((row) => presentFine(row, fields, base)) };
    },
  );

  app.get(
    '/patrons/fines/:id',
    {
      config: { access: access.need('Patrons_Read') },
      schema: {
        summary: 'A fine, owed or paid',
        ...sec,
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object({ fields: Type.Optional(Type.String()) }, { additionalProperties: false }),
        response: { 200: Fine, 404: errorRef },
      },
    },
    async (request) => {
      const fine = await fines.get(parseRecordId('id', request.params.id));
      return presentFine(fine, parseFields(request.query.fields, FINE_FIELDS), apiBase(request, publicBaseUrl));
    },
  );

  const pay = {
    config: { access: access.need('Patrons_Write') },
    schema: {
      summary: "Pay some of a patron's fines",
      description:
        "All or none: each payment names a fine the patron owes by its invoiceNumber and pays at most what is left of it. The patron's moneyOwed goes down by what is paid.",
      ...sec,
      params: PatronParams,
      body: PaymentBody,
      response: { 204: Type.Null(), 400: errorRef, 404: errorRef },
    },
  };
  for (const method of ['post', 'put'] as const) {
    app[method]('/patrons/:id/fines/payment', pay, async (request, reply) => {
      await fines.pay(parseRecordId('id', request.params.id), request.body.payments);
      return reply.code(204).send(null);
    });
  }

  app.post(
    '/patrons/:id/fines/charge',
    {
      config: { access: access.need('Patrons_Write') },
      schema: {
        summary: 'Charge a patron a manual fine',
        ...sec,
        params: PatronParams,
        body: Type.Object(
          {
            amount: Type.Integer({ description: 'In cents.' }),
            reason: Type.Optional(Type.String({ maxLength: 500 })),
            location: Type.Optional(Type.String({ maxLength: 20 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: LinkAnswer, 400: errorRef, 404: errorRef },
      },
    },
    async (request) => {
      const { amount, reason, location } = request.body;
      const id = await fines.charge(parseRecordId('id', request.params.id), {
        amount,
        reason: reason?.trim() || null,
        location: location ?? null,
      });
      return { link: `${apiBase(request, publicBaseUrl)}/patrons/fines/${id}` };
    },
  );
}
