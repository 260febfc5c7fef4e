// /invoices: list and harvest, read, create, change, delete and pay invoices; their line items.
import { Type, type TSchema } from 'typebox';
import { access } from '../../http/access.ts';
import { recordLink } from '../../http/links.ts';
import { pagingQuery, parseCommonList, parseFields, commaList } from '../../http/params.ts';
import { parseDateFilter, parseRecordId } from '../../shared/filters.ts';
import { errorRef, LinkAnswer, recordHeader } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { INVOICE_FIELDS, presentInvoice, presentLine, type InvoiceField } from './present.ts';
import { MAX_LINE_ITEMS, MAX_QUANTITY, type InvoiceService, type LineRow } from './service.ts';
import { fail } from '../../shared/errors.ts';

const Money = (description: string) => Type.String({ description: `${description} Decimal string with two places, e.g. "12.30".` });

export const LineItemSchema = Type.Object(
  {
    id: Type.String(),
    invoiceId: Type.String(),
    lineNumber: Type.Integer(),
    fund: Type.Object({ code: Type.String(), name: Type.String() }),
    amount: Money('Unit price.'),
    quantity: Type.Integer(),
    subtotal: Money('amount × quantity.'),
    useTax: Type.Boolean(),
    useTaxRate: Type.Optional(
      Type.String({ description: 'The rate applied, percent, exactly as the code had it when the invoice was written.' }),
    ),
    useTaxAmount: Money('round(subtotal × rate / 100, 2), halves away from zero; 0.00 without use tax.'),
    shipping: Money('This line’s share of the invoice’s shipping.'),
    tax: Money('The vendor’s tax on this line: as the vendor stated it, else this line’s share of the invoice’s tax.'),
    discount: Money('This line’s share of the invoice’s discount.'),
    total: Money('subtotal + useTaxAmount + shipping + tax − discount.'),
    note: Type.Optional(Type.String()),
    bibId: Type.Optional(Type.String()),
    order: Type.Optional(Type.String()),
  },
  { $id: 'InvoiceLineItem', additionalProperties: false },
);

// A property for each of INVOICE_FIELDS (the `satisfies` checks it): Fastify drops from an answer any field its schema does not name.
export const InvoiceSchema = Type.Object(
  {
    ...recordHeader,
    invNum: Type.Optional(Type.String()),
    invDate: Type.Optional(Type.String({ description: 'Calendar date, YYYY-MM-DD.' })),
    paidDate: Type.Optional(
      Type.String({ description: 'When it was paid (the commit-ordered stamp of the payment); only on a paid invoice.' }),
    ),
    status: Type.Optional(Type.Object({ code: Type.String({ description: 'o open, s suspended, p paid.' }), name: Type.String() })),
    vendor: Type.Optional(Type.Object({ id: Type.String(), code: Type.String(), name: Type.String() })),
    accountingUnit: Type.Optional(Type.Integer()),
    currency: Type.Optional(Type.String()),
    useTaxCode: Type.Optional(Type.String()),
    useTaxRate: Type.Optional(Type.String()),
    subtotal: Type.Optional(Money('Sum of the lines’ subtotals.')),
    useTaxAmount: Type.Optional(Money('Sum of the lines’ use tax.')),
    shipping: Type.Optional(Money('Shipping (shared out to the lines).')),
    tax: Type.Optional(Money('Tax the vendor charges (VAT, GST, sales tax), on the lines (shared out unless given per line).')),
    discount: Type.Optional(Money('Discount (shared out to the lines).')),
    total: Type.Optional(Money('Sum of the lines’ totals = subtotal + useTaxAmount + shipping + tax − discount.')),
    lineItemCount: Type.Optional(Type.Integer()),
    note: Type.Optional(Type.String()),
    lineItems: Type.Optional(Type.Array(Type.Ref('InvoiceLineItem'))),
  } satisfies Record<InvoiceField, TSchema>,
  { $id: 'Invoice', additionalProperties: false },
);

const moneyInput = (what: string) =>
  Type.String({
    description: `${what}: a decimal string with at most two decimals, e.g. "12.30" (a JSON number is accepted; a string is exact).`,
  });

const LineItemInput = Type.Object(
  {
    fund: Type.String({ maxLength: 15, description: 'Fund code.' }),
    amount: moneyInput('Unit price'),
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_QUANTITY, description: 'Copies; default 1.' })),
    useTax: Type.Optional(Type.Boolean({ description: 'Use tax applies to this line; default: true when the invoice has a useTaxCode.' })),
    tax: Type.Optional(
      moneyInput(
        'The vendor’s tax on this line, when it states each line’s (a line without: 0); absent on every line: the invoice’s tax is shared out',
      ),
    ),
    note: Type.Optional(Type.String({ maxLength: 500 })),
    bibId: Type.Optional(Type.String({ maxLength: 20, description: 'The bib this line buys, when known.' })),
    order: Type.Optional(Type.String({ maxLength: 40, description: 'The order this line fills, as the library refers to it.' })),
  },
  { additionalProperties: false },
);

const headerInput = {
  status: Type.Optional(Type.String({ description: 'o open (default) or s suspended; p is set by paying.' })),
  accountingUnit: Type.Optional(Type.Integer({ minimum: 0, maximum: 999 })),
  currency: Type.Optional(Type.String({ maxLength: 3, description: 'ISO 4217; default: the currency the line items’ funds are kept in.' })),
  useTaxCode: Type.Optional(Type.String({ maxLength: 3, description: 'Use tax code; empty (or null) for none.' })),
  shipping: Type.Optional(moneyInput('Shipping')),
  tax: Type.Optional(moneyInput('Tax the vendor charges (VAT, GST, sales tax), shared out to the lines; with lines’ own tax, their sum')),
  discount: Type.Optional(moneyInput('Discount, at most the subtotal')),
  note: Type.Optional(Type.String({ maxLength: 1000 })),
  lineItems: Type.Optional(Type.Array(LineItemInput, { maxItems: MAX_LINE_ITEMS })),
};
/** POST /invoices's body; SubmitInvoice over SOAP takes the same members. */
export const InvoiceCreate = Type.Object(
  {
    invNum: Type.String({ maxLength: 40 }),
    invDate: Type.String({ description: 'YYYY-MM-DD.' }),
    vendorCode: Type.String({ maxLength: 15 }),
    ...headerInput,
  },
  { additionalProperties: false },
);
const InvoiceUpdate = Type.Object(
  {
    invNum: Type.Optional(Type.String({ maxLength: 40 })),
    invDate: Type.Optional(Type.String()),
    vendorCode: Type.Optional(Type.String({ maxLength: 15 })),
    ...headerInput,
  },
  { additionalProperties: false, description: 'The fields given change; lineItems, when given, replaces every line item (new line ids).' },
);

const dateRange = (what: string) =>
  Type.Optional(Type.String({ description: `${what}: one ISO 8601 instant, or a range [from,to] (either end open).` }));

const ListQuery = Type.Object(
  {
    ...pagingQuery,
    id: Type.Optional(Type.String({ description: 'Ids: 1000001,1000007 or a range [1000001,1000050].' })),
    createdDate: dateRange('Created'),
    updatedDate: dateRange('Updated (also matches deletions and payments); whole seconds, the current second shown once it is over'),
    deletedDate: dateRange('Deleted'),
    paidDate: dateRange('Paid; whole seconds, the current second shown once it is over'),
    invDate: dateRange('Invoice date (calendar days, e.g. [2026-01-01,2026-03-31])'),
    deleted: Type.Optional(Type.Boolean()),
    status: Type.Optional(Type.String({ description: 'Status codes, comma-separated: o, s, p.' })),
    statusCode: Type.Optional(Type.String({ description: 'Same as status (the established platform’s name).' })),
    invNum: Type.Optional(Type.String({ description: 'Invoice numbers, comma-separated; A-10* matches every number starting with A-10.' })),
    fields: Type.Optional(Type.String({ description: `Fields: ${INVOICE_FIELDS.all.join(', ')}, or default.` })),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String() });
const FieldsQuery = Type.Object({ fields: Type.Optional(Type.String()) }, { additionalProperties: false });
const BODY_LIMIT = 8 * 1024 * 1024; // room for MAX_LINE_ITEMS line items

export function invoiceRoutes(app: App, invoices: InvoiceService, publicBaseUrl: string | undefined): void {
  app.get(
    '/invoices',
    {
      config: { access: access.need('Invoices_Read'), xml: 'invoices' },
      schema: {
        summary: 'List or harvest invoices',
        tags: ['invoices'],
        querystring: ListQuery,
        response: {
          200: Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Ref('Invoice')) }),
        },
      },
    },
    async (request) => {
      const q = request.query;
      const fields = parseFields(q.fields, INVOICE_FIELDS);
      const common = parseCommonList(q);
      const status = commaList(q.status ?? q.statusCode);
      if (status?.some((s) => !['o', 's', 'p'].includes(s)))
        throw fail.invalidParameter('status: codes are o (open), s (suspended) and p (paid)');
      const rows = await invoices.list({
        ...common,
        paidDate: q.paidDate === undefined ? undefined : parseDateFilter('paidDate', q.paidDate),
        invDate: q.invDate === undefined ? undefined : parseDateFilter('invDate', q.invDate),
        status,
        invNum: commaList(q.invNum),
      });
      const linesByInvoice = new Map<string, LineRow[]>();
      if (fields.includes('lineItems')) {
        for (const line of await invoices.linesOf(rows.filter((r) => !r.deleted_date).map((r) => r.id))) {
          linesByInvoice.set(line.invoice_id, [...(linesByInvoice.get(line.invoice_id) ?? []), line]);
        }
      }
      return {
        total: rows.length,
        start: common.offset,
        entries: rows.map((row) => presentInvoice(row, fields, linesByInvoice.get(row.id))),
      };
    },
  );

  app.get(
    '/invoices/:id',
    {
      config: { access: access.need('Invoices_Read'), xml: 'invoice' },
      schema: {
        summary: 'Get an invoice',
        tags: ['invoices'],
        params: IdParams,
        querystring: FieldsQuery,
        response: { 200: Type.Ref('Invoice'), 404: errorRef },
      },
    },
    async (request) => {
      const fields = parseFields(request.query.fields, INVOICE_FIELDS);
      const row = await invoices.get(parseRecordId('id', request.params.id));
      const lines = fields.includes('lineItems') && !row.deleted_date ? await invoices.lines(row.id) : [];
      return presentInvoice(row, fields, lines);
    },
  );

  app.get(
    '/invoices/:id/lineItems',
    {
      config: { access: access.need('Invoices_Read'), xml: 'lineItems' },
      schema: {
        summary: 'An invoice’s line items, in line order',
        tags: ['invoices'],
        params: IdParams,
        querystring: Type.Object({ ...pagingQuery }, { additionalProperties: false }),
        response: {
          200: Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Ref('InvoiceLineItem')) }),
          404: errorRef,
        },
      },
    },
    async (request) => {
      const page = { limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 };
      const rows = await invoices.lines(parseRecordId('id', request.params.id), page);
      return { total: rows.length, start: page.offset, entries: rows.map(presentLine) };
    },
  );

  app.get(
    '/invoices/lineItems/:id',
    {
      config: { access: access.need('Invoices_Read'), xml: 'lineItem' },
      schema: {
        summary: 'Get a line item',
        tags: ['invoices'],
        params: IdParams,
        response: { 200: Type.Ref('InvoiceLineItem'), 404: errorRef },
      },
    },
    async (request) => presentLine(await invoices.line(parseRecordId('id', request.params.id))),
  );

  app.post(
    '/invoices',
    {
      config: { access: access.need('Invoices_Write') },
      bodyLimit: BODY_LIMIT,
      schema: {
        summary: 'Create an invoice with its line items',
        tags: ['invoices'],
        body: InvoiceCreate,
        response: { 200: LinkAnswer, 409: errorRef },
      },
    },
    async (request) => {
      const id = await invoices.create(request.body);
      return { link: recordLink(request, publicBaseUrl, 'invoices', id) };
    },
  );

  app.put(
    '/invoices/:id',
    {
      config: { access: access.need('Invoices_Write') },
      bodyLimit: BODY_LIMIT,
      schema: {
        summary: 'Change an unpaid invoice',
        tags: ['invoices'],
        params: IdParams,
        body: InvoiceUpdate,
        response: { 204: Type.Null(), 404: errorRef, 409: errorRef },
      },
    },
    async (request, reply) => {
      await invoices.update(parseRecordId('id', request.params.id), request.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/invoices/:id',
    {
      config: { access: access.need('Invoices_Write') },
      schema: {
        summary: 'Delete an unpaid invoice (leaves a tombstone)',
        tags: ['invoices'],
        params: IdParams,
        response: { 204: Type.Null(), 404: errorRef, 409: errorRef },
      },
    },
    async (request, reply) => {
      await invoices.delete(parseRecordId('id', request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/invoices/:id/pay',
    {
      config: { access: access.need('Invoices_Write') },
      schema: {
        summary: 'Pay an open invoice',
        description:
          'Sets status p and paidDate, and moves each line’s total from its fund’s encumbrance to its expenditure, in one transaction. Refused (409, code 132) when already paid, suspended, or without line items.',
        tags: ['invoices'],
        params: IdParams,
        response: { 204: Type.Null(), 404: errorRef, 409: errorRef },
      },
    },
    async (request, reply) => {
      await invoices.pay(parseRecordId('id', request.params.id));
      return reply.code(204).send(null);
    },
  );
}
