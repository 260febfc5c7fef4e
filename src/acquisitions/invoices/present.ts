// Invoices and line items as the API shows them: the established platform's invoice object (id,
// invNum, invDate, paidDate, accountingUnit, status) with Carrel's exact money figures as decimal
// strings with two places. Fields chosen by `fields`.
import { tombstone } from '../../http/record.ts';
import { pickFields } from '../../http/present.ts';
import { instant } from '../../shared/instant.ts';
import type { FieldSet } from '../../http/params.ts';
import { formatMoney } from '../../shared/money.ts';
import type { InvoiceRow, LineRow } from './repository.ts';

export const INVOICE_STATUSES: Record<string, string> = { o: 'Open', s: 'Suspended', p: 'Paid' };

export const INVOICE_FIELDS = {
  all: ['id', 'updatedDate', 'createdDate', 'deletedDate', 'deleted', 'invNum', 'invDate', 'paidDate', 'status', 'vendor', 'accountingUnit',
    'currency', 'useTaxCode', 'useTaxRate', 'subtotal', 'useTaxAmount', 'shipping', 'discount', 'total', 'lineItemCount', 'note', 'lineItems'] as const,
  defaults: ['id', 'updatedDate', 'createdDate', 'deleted', 'invNum', 'invDate', 'paidDate', 'status', 'vendor', 'accountingUnit', 'currency',
    'useTaxCode', 'useTaxRate', 'subtotal', 'useTaxAmount', 'shipping', 'discount', 'total', 'lineItemCount', 'note'] as const,
} satisfies FieldSet<string>;
export type InvoiceField = (typeof INVOICE_FIELDS.all)[number];

export function presentLine(row: LineRow): Record<string, unknown> {
  return {
    id: row.id,
    invoiceId: row.invoice_id,
    lineNumber: row.line_number,
    fund: { code: row.fund_code, name: row.fund_name },
    amount: formatMoney(row.amount),
    quantity: row.quantity,
    subtotal: formatMoney(row.subtotal),
    useTax: row.use_tax,
    ...(row.use_tax_rate !== null ? { useTaxRate: row.use_tax_rate } : {}),
    useTaxAmount: formatMoney(row.use_tax_amount),
    shipping: formatMoney(row.shipping),
    discount: formatMoney(row.discount),
    total: formatMoney(row.total),
    ...(row.note !== null ? { note: row.note } : {}),
    ...(row.bib_id !== null ? { bibId: row.bib_id } : {}),
    ...(row.order_ref !== null ? { order: row.order_ref } : {}),
  };
}

/** `lines`: the invoice's line items, when `lineItems` is among the fields. */
export function presentInvoice(row: InvoiceRow, fields: readonly InvoiceField[], lines: readonly LineRow[] = []): Record<string, unknown> {
  const gone = tombstone(row);
  if (gone) return gone;
  const all: Record<InvoiceField, unknown> = {
    id: row.id,
    updatedDate: instant(row.updated_date),
    createdDate: instant(row.created_date),
    deletedDate: undefined,
    deleted: false,
    invNum: row.inv_num,
    invDate: row.inv_date,
    paidDate: row.paid_date ? instant(row.paid_date) : undefined,
    status: { code: row.status, name: INVOICE_STATUSES[row.status] ?? row.status },
    vendor: { id: row.vendor_id, code: row.vendor_code, name: row.vendor_name },
    accountingUnit: row.accounting_unit,
    currency: row.currency,
    useTaxCode: row.use_tax_code ?? undefined,
    useTaxRate: row.use_tax_rate ?? undefined,
    subtotal: formatMoney(row.subtotal),
    useTaxAmount: formatMoney(row.use_tax_amount),
    shipping: formatMoney(row.shipping),
    discount: formatMoney(row.discount),
    total: formatMoney(row.total),
    lineItemCount: row.line_count,
    note: row.note ?? undefined,
    lineItems: fields.includes('lineItems') ? lines.map(presentLine) : undefined,
  };
  return pickFields(all, fields);
}
