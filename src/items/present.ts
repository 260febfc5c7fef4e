// An item as the API shows it: the established platform's item object, fields chosen by `fields`.
import { RECORD_FIELDS, recordPresenter, type Presenter } from '../http/present.ts';
import { fixedFields, type FixedField } from '../shared/fixed-fields.ts';
import { instant } from '../shared/instant.ts';
import { fieldSet } from '../http/params.ts';
import type { ItemRow } from './repository.ts';

export const ITEM_FIELDS = fieldSet(
  [
    ...RECORD_FIELDS,
    'bibIds',
    'location',
    'status',
    'volumes',
    'barcode',
    'callNumber',
    'itemType',
    'transitInfo',
    'copyNo',
    'holdCount',
    'fixedFields',
    'varFields',
  ],
  ['deletedDate', 'volumes', 'transitInfo', 'copyNo', 'holdCount', 'fixedFields', 'varFields'],
);
export type ItemField = (typeof ITEM_FIELDS.all)[number];

/** The fields read from loans and holds: a read asking for one of them asks for the item's circulation. */
export const CIRCULATION_FIELDS: readonly ItemField[] = ['transitInfo', 'copyNo', 'holdCount', 'fixedFields'];

const at = (date: Date | null | undefined) => (date ? instant(date) : null);

/** Sierra's fixed-length fields of an item (src/shared/fixed-fields.ts), from a row read with its circulation. */
function itemFixedFields(row: ItemRow): Record<string, FixedField> {
  return fixedFields('item', {
    58: row.copy_no,
    // Item codes and messages are not kept: Sierra's value for none, which discovery layers read.
    60: '-',
    61: row.item_type ? { value: row.item_type, display: row.item_type_name } : null,
    63: at(row.out_date),
    65: at(row.due_date),
    68: at(row.last_checkin),
    76: row.checkouts_total,
    78: at(row.last_checkout),
    79: row.location_code ? { value: row.location_code, display: row.location_name } : null,
    80: 'i',
    81: row.id,
    83: instant(row.created_date),
    84: instant(row.updated_date),
    88: { value: row.status, display: row.status_display },
    97: '-',
    108: '-',
  });
}

/** Sierra's variable-length fields of an item: b barcode, c call number, m message. */
function itemVarFields(row: ItemRow): { fieldTag: string; content: string }[] {
  return [
    ...(row.barcode ? [{ fieldTag: 'b', content: row.barcode }] : []),
    ...(row.call_number ? [{ fieldTag: 'c', content: row.call_number }] : []),
    ...(row.message ? [{ fieldTag: 'm', content: row.message }] : []),
  ];
}

export const presentItem: Presenter<ItemRow, ItemField> = recordPresenter<ItemRow, ItemField>({
  bibIds: (row) => row.bib_ids,
  location: (row) => (row.location_code ? { code: row.location_code, name: row.location_name ?? row.location_code } : undefined),
  status: (row) => ({ code: row.status, display: row.status_display, ...(row.due_date ? { duedate: instant(row.due_date) } : {}) }),
  // Volume records are not kept: no item belongs to one.
  volumes: () => [],
  barcode: (row) => row.barcode ?? undefined,
  callNumber: (row) => row.call_number ?? undefined,
  itemType: (row) => row.item_type ?? undefined,
  transitInfo: (row) =>
    row.transit_to ? { to: { code: row.transit_to, name: row.transit_to_name ?? row.transit_to }, forHold: true } : undefined,
  copyNo: (row) => row.copy_no,
  holdCount: (row) => row.hold_count,
  fixedFields: itemFixedFields,
  varFields: itemVarFields,
});
