// An item as the API shows it: the established platform's item object, fields chosen by `fields`.
import { RECORD_FIELDS, recordPresenter, type Presenter } from '../http/present.ts';
import { instant } from '../shared/instant.ts';
import { fieldSet } from '../http/params.ts';
import type { ItemRow } from './repository.ts';

export const ITEM_FIELDS = fieldSet(
  [...RECORD_FIELDS, 'bibIds', 'location', 'status', 'barcode', 'callNumber', 'itemType'],
  ['deletedDate'],
);
export type ItemField = (typeof ITEM_FIELDS.all)[number];

export const presentItem: Presenter<ItemRow, ItemField> = recordPresenter<ItemRow, ItemField>({
  bibIds: (row) => row.bib_ids,
  location: (row) => (row.location_code ? { code: row.location_code, name: row.location_name ?? row.location_code } : undefined),
  status: (row) => ({ code: row.status, display: row.status_display, ...(row.due_date ? { duedate: instant(row.due_date) } : {}) }),
  barcode: (row) => row.barcode ?? undefined,
  callNumber: (row) => row.call_number ?? undefined,
  itemType: (row) => row.item_type ?? undefined,
});
