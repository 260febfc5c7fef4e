// Orders as the API and the CLI show them: Sierra's order object (id, dates, accountingUnit,
// estimatedPrice, vendorRecordCode, orderDate, chargedFunds, vendorTitles, fixedFields,
// varFields) and Carrel's own members (bib, vendor, fund, copies, line reference, receiving,
// paying, encumbrance). Money is a decimal string with two places, in the fund's currency.
import { fieldSet } from '../../http/params.ts';
import { recordPresenter } from '../../http/present.ts';
import { fixedFields } from '../../shared/fixed-fields.ts';
import { instant } from '../../shared/instant.ts';
import { formatMoney } from '../../shared/money.ts';
import type { OrderRow } from './repository.ts';
import { ORDER_STATUSES } from './service.ts';

export const ORDER_FIELDS = fieldSet(
  [
    'id',
    'updatedDate',
    'createdDate',
    'deletedDate',
    'deleted',
    'suppressed',
    'accountingUnit',
    'estimatedPrice',
    'vendorRecordCode',
    'orderDate',
    'chargedFunds',
    'vendorTitles',
    'fixedFields',
    'varFields',
    'bibId',
    'vendor',
    'fund',
    'currency',
    'copies',
    'location',
    'lineReference',
    'status',
    'receivedDate',
    'receivedCopies',
    'paidCopies',
    'encumbrance',
    'vendorStatus',
    'cancelledDate',
    'note',
  ],
  ['deletedDate', 'fixedFields', 'varFields', 'vendorTitles'],
);
export type OrderField = (typeof ORDER_FIELDS.all)[number];

/** FIXED 2 LOCATION: the one location, or multi. */
const locationField = (row: OrderRow) => (row.locations.length === 1 ? row.locations[0]!.location_code : 'multi');

const present = recordPresenter<OrderRow, OrderField>({
  accountingUnit: (row) => row.accounting_unit,
  estimatedPrice: (row) => formatMoney(row.estimated_price),
  vendorRecordCode: (row) => row.vendor_code,
  orderDate: (row) => row.order_date,
  chargedFunds: (row) =>
    row.locations.map((l, i) => ({
      displayOrder: i,
      fund: row.fund_code,
      copies: l.copies,
      location: { code: l.location_code, name: l.location_name ?? l.location_code },
    })),
  vendorTitles: () => [],
  fixedFields: (row) =>
    fixedFields('order', {
      1: 'p',
      2: locationField(row),
      5: row.copies,
      13: row.order_date,
      17: row.received_date,
      20: { value: row.status, display: ORDER_STATUSES[row.status] },
      80: 'o',
      81: row.id,
      83: instant(row.created_date),
      84: instant(row.updated_date),
    }),
  varFields: () => [],
  bibId: (row) => row.bib_id,
  vendor: (row) => ({ id: row.vendor_id, code: row.vendor_code, name: row.vendor_name }),
  fund: (row) => ({ code: row.fund_code, name: row.fund_name }),
  currency: (row) => row.currency,
  copies: (row) => row.copies,
  location: (row) => row.locations.map((l) => ({ locationCode: l.location_code, copies: l.copies })),
  lineReference: (row) => row.line_reference,
  status: (row) => ({ code: row.status, name: ORDER_STATUSES[row.status] }),
  receivedDate: (row) => row.received_date ?? undefined,
  receivedCopies: (row) => row.received_copies,
  paidCopies: (row) => row.paid_copies,
  encumbrance: (row) => formatMoney(row.encumbrance),
  vendorStatus: (row) => row.vendor_status ?? undefined,
  cancelledDate: (row) => (row.cancelled_date ? instant(row.cancelled_date) : undefined),
  note: (row) => row.note ?? undefined,
});

export function presentOrder(row: OrderRow, fields: readonly OrderField[]): Record<string, unknown> {
  return present(row, fields);
}
