// A fine as the API shows it: Sierra's fine object. Amounts are JSON numbers of the currency unit,
// exact to the cent (Sierra's form); its invoice number is its id.
import { fieldSet } from '../http/params.ts';
import { presenter } from '../http/present.ts';
import { CHARGE_TYPES, type FineRow } from './service.ts';

export const FINE_FIELDS = fieldSet([
  'id',
  'patron',
  'item',
  'assessedDate',
  'description',
  'chargeType',
  'itemCharge',
  'processingFee',
  'billingFee',
  'paidAmount',
  'location',
  'invoiceNumber',
]);
export type FineField = (typeof FINE_FIELDS.all)[number];

const present = presenter<FineRow, FineField, string>({
  id: (row, base) => `${base}/patrons/fines/${row.id}`,
  patron: (row, base) => `${base}/patrons/${row.patron_id}`,
  item: (row, base) => (row.item_id ? `${base}/items/${row.item_id}` : undefined),
  assessedDate: (row) => row.assessed_date.toISOString().slice(0, 10),
  description: (row) => row.description ?? undefined,
  chargeType: (row) => ({ code: row.charge_type, display: CHARGE_TYPES[row.charge_type] ?? row.charge_type }),
  itemCharge: (row) => Number(row.item_charge),
  processingFee: (row) => Number(row.processing_fee),
  billingFee: (row) => Number(row.billing_fee),
  paidAmount: (row) => Number(row.paid_amount),
  location: (row) => (row.location_code ? { code: row.location_code, name: row.location_name ?? row.location_code } : undefined),
  invoiceNumber: (row) => Number(row.id),
});

export function presentFine(row: FineRow, fields: readonly FineField[], base: string): Record<string, unknown> {
  return present(row, fields, base);
}
