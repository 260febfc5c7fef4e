// A checkout as the API shows it: Sierra's checkout object, fields chosen by `fields`. Its id,
// patron and item are URLs under the API base the request came in on.
import { fieldSet } from '../http/params.ts';
import { presenter } from '../http/present.ts';
import { instant } from '../shared/instant.ts';
import type { CheckoutRow } from './repository.ts';

export const CHECKOUT_FIELDS = fieldSet(
  ['id', 'patron', 'item', 'barcode', 'dueDate', 'callNumber', 'numberOfRenewals', 'outDate'],
  ['callNumber', 'numberOfRenewals'],
);
export type CheckoutField = (typeof CHECKOUT_FIELDS.all)[number];

const present = presenter<CheckoutRow, CheckoutField, string>({
  id: (row, base) => `${base}/patrons/checkouts/${row.id}`,
  patron: (row, base) => `${base}/patrons/${row.patron_id}`,
  item: (row, base) => `${base}/items/${row.item_id}`,
  barcode: (row) => row.barcode ?? undefined,
  dueDate: (row) => row.due_date,
  callNumber: (row) => row.call_number ?? undefined,
  numberOfRenewals: (row) => row.renewals,
  outDate: (row) => instant(row.out_date),
});

export function presentCheckout(row: CheckoutRow, fields: readonly CheckoutField[], base: string): Record<string, unknown> {
  return present(row, fields, base);
}
