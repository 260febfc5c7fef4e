// Invoices and line items as the API shows them: the established platform's invoice object (id,
// invNum, invDate, paidDate, accountingUnit, status) with Carrel's exact money figures as decimal
// strings with two places. Fields chosen by `fields`.
import { recordPresenter } from '../../http/present.ts';
import { instant } from '../../shared/instant.ts';
import { fieldSet } from '../../http/params.ts';
import { formatMoney } from '../../shared/money.ts';
import type { InvoiceRow, LineRow } from './repository.ts';

export const INVOICE_STATUSES: Record<string, string> = { o: 'Open', s: 'Suspended', p: 'Paid' };

export const INVOICE_FIELDS = fieldSet(
  [
    'id',
    'updatedDate',
    'createdDate',
    'deletedDate',
    'deleted',
    'invNum',
    'invDate',
    'paidDate',
    'status',
    'vendor',
    'accountingUnit',
    'currency',
    'useTaxCode',
    'useTaxRate',
    'subtotal',
    'useTaxAmount',
    'shipping',
    'tax',
    'discount',
    'total',
    'lineItemCount',
    'note',
    'lineItems',
  ],
  ['deletedDate', 'lineItems'],
);
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
    tax: formatMoney(row.tax),
    discount: formatMoney(row.discount),
    total: formatMoney(row.total),
    ...(row.note !== null ? { note: row.note } : {}),
    ...(row.bib_id !== null ? { bibId: row.bib_id } : {}),
    ...(row.order_ref !== null ? { order: row.order_ref } : {}),
  };
}

const present = recordPresenter<InvoiceRow, InvoiceField, readonly LineRow[]>({
  invNum: (row) => row.inv_num,
  invDate: (row) => row.inv_date,
  paidDate: (row) => (row.paid_date ? instant(row.paid_date) : undefined),
  status: (row) => ({ code: row.status, name: INVOICE_STATUSES[row.status] ?? row.status }),
  vendor: (row) => ({ id: row.vendor_id, code: row.vendor_code, name: row.vendor_name }),
  accountingUnit: (row) => row.accounting_unit,
  currency: (row) => row.currency,
  useTaxCode: (row) => row.use_tax_code ?? undefined,
  useTaxRate: (row) => row.use_tax_rate ?? undefined,
  subtotal: (row) => formatMoney(row.subtotal),
  useTaxAmount: (row) => formatMoney(row.use_tax_amount),
  shipping: (row) => formatMoney(row.shipping),
  tax: (row) => formatMoney(row.tax),
  discount: (row) => formatMoney(row.discount),
  total: (row) => formatMoney(row.total),
  lineItemCount: (row) => row.line_count,
  note: (row) => row.note ?? undefined,
  lineItems: (_row, lines) => lines.map(presentLine),
});

/** `lines`: the invoice's line items, when `lineItems` is among the fields. */
export function presentInvoice(row: InvoiceRow, fields: readonly InvoiceField[], lines: readonly LineRow[] = []): Record<string, unknown> {
  return present(row, fields, lines);
}
