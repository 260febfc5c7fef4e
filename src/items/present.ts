// An item as the API shows it: the established platform's item object, fields chosen by `fields`.
import { tombstone } from '../http/record.ts';
import { pickFields } from '../http/present.ts';
import { instant } from '../shared/instant.ts';
import type { FieldSet } from '../http/params.ts';
import type { ItemRow } from './repository.ts';

export const ITEM_FIELDS = {
  all: ['id', 'updatedDate', 'createdDate', 'deletedDate', 'deleted', 'suppressed', 'bibIds', 'location', 'status', 'barcode', 'callNumber', 'itemType'] as const,
  defaults: ['id', 'updatedDate', 'createdDate', 'deleted', 'suppressed', 'bibIds', 'location', 'status', 'barcode', 'callNumber', 'itemType'] as const,
} satisfies FieldSet<string>;
export type ItemField = (typeof ITEM_FIELDS.all)[number];

export function presentItem(row: ItemRow, fields: readonly ItemField[]): Record<string, unknown> {
  const gone = tombstone(row);
  if (gone) return gone;
  const all: Record<ItemField, unknown> = {
    id: row.id,
    updatedDate: instant(row.updated_date),
    createdDate: instant(row.created_date),
    deletedDate: undefined,
    deleted: false,
    suppressed: row.suppressed,
    bibIds: row.bib_ids,
    location: row.location_code ? { code: row.location_code, name: row.location_name ?? row.location_code } : undefined,
    status: { code: row.status, display: row.status_display, ...(row.due_date ? { duedate: instant(row.due_date) } : {}) },
    barcode: row.barcode ?? undefined,
    callNumber: row.call_number ?? undefined,
    itemType: row.item_type ?? undefined,
  };
  return pickFields(all, fields);
}

