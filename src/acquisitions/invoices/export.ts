// The export for accounting software: paid invoices, one row per line item, with the use tax of
// each line, as CSV (RFC 4180: a header row, CRLF line ends, fields quoted when they need it) or as
// a JSON array of the same rows. Money is a decimal string with two places; the rate as set.
import { csvField } from '../../shared/csv.ts';
import { instant } from '../../shared/instant.ts';
import { formatMoney } from '../../shared/money.ts';
import type { PaidLineRow } from './repository.ts';

export const EXPORT_COLUMNS = [
  'invoiceId',
  'invNum',
  'invDate',
  'paidDate',
  'vendorCode',
  'vendorName',
  'accountingUnit',
  'currency',
  'lineId',
  'lineNumber',
  'fundCode',
  'fundName',
  'amount',
  'quantity',
  'subtotal',
  'useTax',
  'useTaxCode',
  'useTaxRate',
  'useTaxAmount',
  'shipping',
  'tax',
  'discount',
  'lineTotal',
  'invoiceTotal',
  'bibId',
  'order',
  'note',
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];
export type ExportRow = Record<ExportColumn, string | number | boolean | null>;

export function exportRow(row: PaidLineRow): ExportRow {
  return {
    invoiceId: row.invoice_id,
    invNum: row.inv_num,
    invDate: row.inv_date,
    paidDate: instant(row.paid_date),
    vendorCode: row.vendor_code,
    vendorName: row.vendor_name,
    accountingUnit: row.accounting_unit,
    currency: row.currency,
    lineId: row.line_id,
    lineNumber: row.line_number,
    fundCode: row.fund_code,
    fundName: row.fund_name,
    amount: formatMoney(row.amount),
    quantity: row.quantity,
    subtotal: formatMoney(row.subtotal),
    useTax: row.use_tax,
    // The code and rate that applied to this line; empty on a line without use tax.
    useTaxCode: row.use_tax ? row.use_tax_code : null,
    useTaxRate: row.use_tax_rate,
    useTaxAmount: formatMoney(row.use_tax_amount),
    shipping: formatMoney(row.shipping),
    tax: formatMoney(row.tax),
    discount: formatMoney(row.discount),
    lineTotal: formatMoney(row.total),
    invoiceTotal: formatMoney(row.invoice_total),
    bibId: row.bib_id,
    order: row.order_ref,
    note: row.note,
  };
}

/** Columns of free text, where a spreadsheet could take a value for a formula. */
const TEXT_COLUMNS: ReadonlySet<ExportColumn> = new Set(['invNum', 'vendorCode', 'vendorName', 'fundCode', 'fundName', 'order', 'note']);

/**
 * A text cell a spreadsheet would run as a formula (starting =, +, -, @, tab or carriage return)
 * gets a leading apostrophe, so it is shown as text (OWASP's advice on CSV injection).
 */
export function neutralise(value: string | number | boolean | null): string | number | boolean | null {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function toCsv(rows: readonly ExportRow[]): string {
  const cell = (row: ExportRow, c: ExportColumn) => csvField(TEXT_COLUMNS.has(c) ? neutralise(row[c]) : row[c]);
  const lines = [EXPORT_COLUMNS.join(','), ...rows.map((row) => EXPORT_COLUMNS.map((c) => cell(row, c)).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

export function toJson(rows: readonly ExportRow[]): string {
  return `${JSON.stringify(rows, null, 2)}\n`;
}
