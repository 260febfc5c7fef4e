// A hold as the API shows it (docs/api-contract.md, "The hold object"), fields chosen by `fields`.
import { fieldSet } from '../http/params.ts';
import { presenter } from '../http/present.ts';
import type { HoldRow } from './repository.ts';
import { HOLD_STATE } from './states.ts';

export const HOLD_FIELDS = fieldSet([
  'id',
  'record',
  'patron',
  'frozen',
  'placed',
  'notNeededAfterDate',
  'notWantedBeforeDate',
  'pickupByDate',
  'location',
  'pickupLocation',
  'status',
  'recordType',
  'priority',
  'priorityQueueLength',
  'canFreeze',
  'note',
]);
export type HoldField = (typeof HOLD_FIELDS.all)[number];

/** The status a hold shows: the contract's codes (docs/api-contract.md), plus Carrel's x, c and f for holds that are over. */
export function holdStatus(row: Pick<HoldRow, 'state' | 'record_type'>): { code: string; name: string } {
  switch (row.state) {
    case HOLD_STATE.waiting:
      return { code: '0', name: 'On hold.' };
    case HOLD_STATE.inTransit:
      return { code: 't', name: 'In transit.' };
    case HOLD_STATE.ready:
      return row.record_type === 'i'
        ? { code: 'i', name: 'Item hold ready for pickup.' }
        : { code: 'b', name: 'Bib hold ready for pickup.' };
    case HOLD_STATE.expired:
      return { code: 'x', name: 'Hold expired.' };
    case HOLD_STATE.cancelled:
      return { code: 'c', name: 'Hold cancelled.' };
    case HOLD_STATE.filled:
      return { code: 'f', name: 'Hold filled.' };
  }
}

interface HoldContext {
  /** The API's absolute base with its version, e.g. https://host/iii/sierra-api/v6. */
  base: string;
  /** The held record itself (expand=record), instead of its URL. */
  record: Record<string, unknown> | undefined;
}

const present = presenter<HoldRow, HoldField, HoldContext>({
  id: (row, { base }) => `${base}/patrons/holds/${row.id}`,
  record: (row, { base, record }) => record ?? (row.record_type === 'b' ? `${base}/bibs/${row.bib_id}` : `${base}/items/${row.item_id}`),
  patron: (row, { base }) => `${base}/patrons/${row.patron_id}`,
  frozen: (row) => row.frozen,
  placed: (row) => row.placed,
  notNeededAfterDate: (row) => row.not_needed_after,
  notWantedBeforeDate: (row) => row.not_wanted_before,
  pickupByDate: (row) => (row.state === HOLD_STATE.ready && row.pickup_by ? `${row.pickup_by}T00:00:00Z` : undefined),
  location: (row) => (row.location_code ? { code: row.location_code, name: row.location_name ?? row.location_code } : undefined),
  pickupLocation: (row) => ({ code: row.pickup_location, name: row.pickup_name }),
  status: holdStatus,
  recordType: (row) => row.record_type,
  priority: (row) => row.priority ?? undefined,
  priorityQueueLength: (row) => row.queue_length ?? undefined,
  canFreeze: (row) => row.state === HOLD_STATE.waiting,
  note: (row) => row.note,
});

/** `base`: the API's absolute base with its version, e.g. https://host/iii/sierra-api/v6. */
export function presentHold(
  row: HoldRow,
  fields: readonly HoldField[],
  base: string,
  record?: Record<string, unknown>,
): Record<string, unknown> {
  return present(row, fields, { base, record });
}
