// The acquisitions service's operations (/soap/acquisitions), for finance systems that speak SOAP:
// each calls the same service as its REST twin, with the same permission, and presents the record
// with the same function, so a SOAP answer is the REST answer written as XML.
import { Type, type Static } from 'typebox';
import { parseFundCode } from '../acquisitions/funds/service.ts';
import { FUND_FIELDS, presentFund } from '../acquisitions/funds/present.ts';
import { INVOICE_FIELDS, presentInvoice, type InvoiceField } from '../acquisitions/invoices/present.ts';
import { InvoiceCreate } from '../acquisitions/invoices/routes.ts';
import { ORDER_FIELDS, presentOrder } from '../acquisitions/orders/present.ts';
import { parseFields } from '../http/params.ts';
import { parseRecordId } from '../shared/filters.ts';
import type { SoapCall, SoapOperation } from './operation.ts';

const recordId = (what: string) => Type.String({ maxLength: 20, description: `The ${what}'s record id (digits), as in its REST link.` });

const InvoiceStatusInput = Type.Object({ invoiceId: recordId('invoice') }, { additionalProperties: false });
const OrderStatusInput = Type.Object({ orderId: recordId('order') }, { additionalProperties: false });
const FundBalanceInput = Type.Object(
  {
    fundCode: Type.String({
      maxLength: 15,
      description: 'The fund’s code (1 to 15 lower-case letters or digits), as in /v6/funds/{code}.',
    }),
  },
  { additionalProperties: false },
);

// The created invoice as GET /v6/invoices/{id}?fields=default,lineItems shows it: the figures each line was priced at.
const SUBMITTED_FIELDS = parseFields('default,lineItems', INVOICE_FIELDS);

/** The invoice as GET /v6/invoices/{id} with these fields answers it. */
async function invoiceAnswer(call: SoapCall, id: string, fields: readonly InvoiceField[]) {
  const row = await call.services.invoices.get(id);
  const lines = fields.includes('lineItems') && !row.deleted_date ? await call.services.invoices.lines(row.id) : [];
  return presentInvoice(row, fields, lines);
}

export const ACQUISITIONS_OPERATIONS: SoapOperation[] = [
  {
    name: 'SubmitInvoice',
    summary:
      'Creates an invoice with its line items and use tax, in one transaction (POST /v6/invoices): a refused line writes nothing. Answers the invoice with its priced line items.',
    input: InvoiceCreate,
    output: Type.Ref('Invoice'),
    permission: 'Invoices_Write',
    async run(args, call) {
      const id = await call.services.invoices.create(args);
      return invoiceAnswer(call, id, SUBMITTED_FIELDS);
    },
  },
  {
    name: 'InvoiceStatus',
    summary: 'An invoice with its status, paid date and totals (GET /v6/invoices/{id}).',
    input: InvoiceStatusInput,
    output: Type.Ref('Invoice'),
    permission: 'Invoices_Read',
    async run(args, call) {
      const { invoiceId } = args as Static<typeof InvoiceStatusInput>;
      return invoiceAnswer(call, parseRecordId('invoiceId', invoiceId), INVOICE_FIELDS.defaults);
    },
  },
  {
    name: 'OrderStatus',
    summary: 'An order with its status, received and paid copies and encumbrance (GET /v6/orders/{id}).',
    input: OrderStatusInput,
    output: Type.Ref('Order'),
    permission: 'Acquisitions_Read',
    async run(args, call) {
      const { orderId } = args as Static<typeof OrderStatusInput>;
      return presentOrder(await call.services.orders.get(parseRecordId('orderId', orderId)), ORDER_FIELDS.defaults);
    },
  },
  {
    name: 'FundBalance',
    summary: 'A fund with its appropriation, expenditure, encumbrance and free balance (GET /v6/funds/{code}).',
    input: FundBalanceInput,
    output: Type.Ref('Fund'),
    permission: 'Acquisitions_Read',
    async run(args, call) {
      const { fundCode } = args as Static<typeof FundBalanceInput>;
      return presentFund(await call.services.funds.get(parseFundCode('fundCode', fundCode)), FUND_FIELDS.defaults);
    },
  },
];
