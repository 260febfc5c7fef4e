// The circulation operations of /soap/patrons: a patron's holds, checkouts and fines, and placing,
// cancelling, renewing and paying. Each is its REST twin's handler over SOAP: the same body schema,
// the same permission, the same service call and the same presenter, so the answers are equal.
// Where REST answers 204 the operation answers something a SOAP client can read: the placed hold,
// or { cancelled: true } and { paid: true }.
import { Type, type Static, type TObject } from 'typebox';
import { CheckoutList, Checkout, presentCheckouts, RENEWED_VIEW } from '../circulation/routes.ts';
import { CHECKOUT_FIELDS } from '../circulation/present.ts';
import { FINE_FIELDS, presentFine } from '../fines/present.ts';
import { FineList, PaymentBody } from '../fines/routes.ts';
import { HOLD_FIELDS } from '../holds/present.ts';
import { HoldList, PlaceBody, presentHolds } from '../holds/routes.ts';
import { DEFAULT_LIMIT, pagingQuery, parseFields } from '../http/params.ts';
import { StatGroup } from '../http/schemas.ts';
import { parseRecordId } from '../shared/filters.ts';
import type { SoapCall, SoapOperation } from './operation.ts';

const recordId = (what: string) => Type.String({ maxLength: 20, description: `The ${what}'s record id (digits), as in its REST link.` });
const fieldsOf = (all: readonly string[]) => Type.Optional(Type.String({ description: `Fields: ${all.join(', ')}, or default.` }));

const PatronHoldsInput = Type.Object(
  {
    patronId: recordId('patron'),
    ...pagingQuery,
    fields: fieldsOf(HOLD_FIELDS.all),
    inactive: Type.Optional(Type.Boolean({ description: 'true: also expired, cancelled and filled holds (default false).' })),
  },
  { additionalProperties: false },
);
const PlaceHoldInput = Type.Object({ patronId: recordId('patron'), ...PlaceBody.properties }, { additionalProperties: false });
const CancelHoldInput = Type.Object({ holdId: recordId('hold') }, { additionalProperties: false });
const PatronCheckoutsInput = Type.Object(
  { patronId: recordId('patron'), ...pagingQuery, fields: fieldsOf(CHECKOUT_FIELDS.all) },
  { additionalProperties: false },
);
const RenewInput = Type.Object({ checkoutId: recordId('checkout'), statgroup: StatGroup }, { additionalProperties: false });
const PatronFinesInput = Type.Object(
  { patronId: recordId('patron'), ...pagingQuery, fields: fieldsOf(FINE_FIELDS.all) },
  { additionalProperties: false },
);
const PayFineInput = Type.Object({ patronId: recordId('patron'), ...PaymentBody.properties }, { additionalProperties: false });

/** A list operation's page, as REST's lists read their limit and offset. */
function page(args: { limit?: number; offset?: number }): { limit: number; offset: number } {
  return { limit: args.limit ?? DEFAULT_LIMIT, offset: args.offset ?? 0 };
}

/**
 * An operation whose arguments are what its input schema says: the door has checked them against
 * it before run is called.
 */
function operation<I extends TObject>(
  op: Omit<SoapOperation, 'input' | 'run'> & { input: I; run(args: Static<I>, call: SoapCall): Promise<unknown> },
): SoapOperation {
  return { ...op, run: (args, call) => op.run(args as Static<I>, call) };
}

export const PATRON_CIRCULATION_OPERATIONS: SoapOperation[] = [
  operation({
    name: 'PatronHolds',
    summary: "A patron's holds, as GET /v6/patrons/{id}/holds answers them.",
    input: PatronHoldsInput,
    output: HoldList,
    permission: 'Patrons_Holds_Read',
    run: async (args, { services, base }) => {
      const { limit, offset } = page(args);
      const rows = await services.holds.listOfPatron(parseRecordId('patronId', args.patronId), {
        inactive: args.inactive ?? false,
        limit,
        offset,
      });
      return { total: rows.length, start: offset, entries: await presentHolds(rows, { fields: args.fields }, base, services) };
    },
  }),
  operation({
    name: 'PlaceHold',
    summary: 'Places a hold, as POST /v6/patrons/{id}/holds/requests does; answers the placed hold.',
    input: PlaceHoldInput,
    output: Type.Ref('Hold'),
    permission: 'Patrons_Holds_Write',
    run: async ({ patronId, ...request }, { services, base }) => {
      const id = await services.holds.place(parseRecordId('patronId', patronId), request);
      return (await presentHolds([await services.holds.get(id)], {}, base, services))[0];
    },
  }),
  operation({
    name: 'CancelHold',
    summary: 'Cancels a hold, as DELETE /v6/patrons/holds/{id} does.',
    input: CancelHoldInput,
    output: Type.Object({ cancelled: Type.Boolean() }),
    permission: 'Patrons_Holds_Write',
    run: async (args, { services }) => {
      await services.holds.cancel(parseRecordId('holdId', args.holdId));
      return { cancelled: true };
    },
  }),
  operation({
    name: 'PatronCheckouts',
    summary: "A patron's checkouts, as GET /v6/patrons/{id}/checkouts answers them.",
    input: PatronCheckoutsInput,
    output: CheckoutList,
    permission: 'Patrons_Checkouts_Read',
    run: async (args, { services, base }) => {
      const { limit, offset } = page(args);
      const rows = await services.circulation.checkouts(parseRecordId('patronId', args.patronId), limit, offset);
      return { total: rows.length, start: offset, entries: await presentCheckouts(rows, { fields: args.fields }, base, services.items) };
    },
  }),
  operation({
    name: 'Renew',
    summary: 'Renews a checkout, as POST /v6/patrons/checkouts/{id}/renewal does; answers the renewed checkout.',
    input: RenewInput,
    output: Checkout,
    permission: 'Patrons_Checkouts_Write',
    run: async (args, { services, base }) => {
      const row = await services.circulation.renew(parseRecordId('checkoutId', args.checkoutId), args.statgroup);
      return (await presentCheckouts([row], RENEWED_VIEW, base, services.items))[0];
    },
  }),
  operation({
    name: 'PatronFines',
    summary: 'The fines a patron owes, as GET /v6/patrons/{id}/fines answers them.',
    input: PatronFinesInput,
    output: FineList,
    permission: 'Patrons_Read',
    run: async (args, { services, base }) => {
      const fields = parseFields(args.fields, FINE_FIELDS);
      const { limit, offset } = page(args);
      const rows = await services.fines.owed(parseRecordId('patronId', args.patronId), limit, offset);
      return { total: rows.length, start: offset, entries: rows.map((row) => presentFine(row, fields, base)) };
    },
  }),
  operation({
    name: 'PayFine',
    summary: "Pays some of a patron's fines, all or none, as POST /v6/patrons/{id}/fines/payment does.",
    input: PayFineInput,
    output: Type.Object({ paid: Type.Boolean() }),
    permission: 'Patrons_Write',
    run: async (args, { services }) => {
      await services.fines.pay(parseRecordId('patronId', args.patronId), args.payments);
      return { paid: true };
    },
  }),
];
