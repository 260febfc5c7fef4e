// A hold as the API shows it (DESIGN.md section 3, "Holds"), fields chosen by `fields`.
import type { FieldSet } from '../http/params.ts';
import { pickFields } from '../http/present.ts';
import type { HoldRow } from './repository.ts';

export const HOLD_FIELDS = {
  all: ['id', 'record', 'patron', 'frozen', 'placed', 'notNeededAfterDate', 'notWantedBeforeDate', 'pickupByDate', 'location',
    'pickupLocation', 'status', 'recordType', 'priority', 'priorityQueueLength', 'canFreeze', 'note'] as const,
  defaults: ['id', 'record', 'patron', 'frozen', 'placed', 'notNeededAfterDate', 'notWantedBeforeDate', 'pickupByDate', 'location',
    'pickupLocation', 'status', 'recordType', 'priority', 'priorityQueueLength', 'canFreeze', 'note'] as const,
} satisfies FieldSet<string>;
export type HoldField = (typeof HOLD_FIELDS.all)[number];

/** The status a hold shows: DESIGN.md's codes, plus Carrel's x, c and f for holds that are over. */
export function holdStatus(row: Pick<HoldRow, 'state' | 'record_type'>): { code: string; name: string } {
  switch (row.state) {
    case '0': return { code: '0', name: 'On hold.' };
    case 't': return { code: 't', name: 'In transit.' };
    case 'r': return row.record_type === 'i' ? { code: 'i', name: 'Item hold ready for pickup.' } : { code: 'b', name: 'Bib hold ready for pickup.' };
    case 'x': return { code: 'x', name: 'Hold expired.' };
    case 'c': return { code: 'c', name: 'Hold cancelled.' };
    case 'f': return { code: 'f', name: 'Hold filled.' };
  }
}

/** `base`: the API's absolute base with its version, e.g. https://host/iii/sierra-api/v6. */
export function presentHold(row: HoldRow, fields: readonly HoldField[], base: string, record?: Record<string, unknown>): Record<string, unknown> {
  const recordUrl = row.record_type === 'b' ? `${base}/bibs/${row.bib_id}` : `${base}/items/${row.item_id}`;
  const all: Record<HoldField, unknown> = {
    id: `${base}/patrons/holds/${row.id}`,
    record: record ?? recordUrl,
    patron: `${base}/patrons/${row.patron_id}`,
    frozen: row.frozen,
    placed: row.placed,
    notNeededAfterDate: row.not_needed_after,
    notWantedBeforeDate: row.not_wanted_before,
    pickupByDate: row.state === 'r' && row.pickup_by ? `${row.pickup_by}T00:00:00Z` : undefined,
    location: row.location_code ? { code: row.location_code, name: row.location_name ?? row.location_code } : undefined,
    pickupLocation: { code: row.pickup_location, name: row.pickup_name },
    status: holdStatus(row),
    recordType: row.record_type,
    priority: row.priority ?? undefined,
    priorityQueueLength: row.queue_length ?? undefined,
    canFreeze: row.state === '0',
    note: row.note,
  };
  return pickFields(all, fields);
}
