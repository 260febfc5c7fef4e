// Copies as a reader needs them: where each is, its call number, whether it can be borrowed now,
// and a one-line summary for a results list. Suppressed items are the library's business and are
// never shown.
import type { ItemRow } from '../items/service.ts';
import { ITEM_STATUS } from '../items/statuses.ts';

export type CopyState = 'available' | 'in-library' | 'unavailable';

export interface Copy {
  location: string;
  callNumber: string;
  status: string;
  state: CopyState;
  due?: Date;
}

export interface HoldingsSummary {
  state: CopyState | 'none';
  label: string;
  detail?: string;
}

// Readers' words for the item statuses (the staff display strings are terse capitals).
const STATUS_LABELS: Record<string, string> = {
  [ITEM_STATUS.available]: 'Available',
  [ITEM_STATUS.libraryUseOnly]: 'Library use only',
  [ITEM_STATUS.inTransit]: 'In transit',
  [ITEM_STATUS.missing]: 'Missing',
  [ITEM_STATUS.onHoldShelf]: 'On hold shelf',
  [ITEM_STATUS.inProcessing]: 'Being processed',
  [ITEM_STATUS.damaged]: 'Damaged',
  [ITEM_STATUS.lost]: 'Lost',
  [ITEM_STATUS.withdrawn]: 'Withdrawn',
  [ITEM_STATUS.billedNotPaid]: 'Unavailable',
  [ITEM_STATUS.billedPaid]: 'Unavailable',
  [ITEM_STATUS.claimsReturned]: 'Unavailable',
};

const dueFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

export function formatDue(due: Date): string {
  return dueFormat.format(due);
}

function copyOf(item: ItemRow): Copy {
  const location = item.location_name ?? item.location_code ?? 'Ask at the library';
  const callNumber = item.call_number ?? '';
  if (item.due_date)
    return { location, callNumber, status: `Checked out, due ${formatDue(item.due_date)}`, state: 'unavailable', due: item.due_date };
  const status = STATUS_LABELS[item.status] ?? item.status_display.charAt(0) + item.status_display.slice(1).toLowerCase();
  // As the library's profile defines the status: one that may be borrowed, else one on the shelf to read there.
  const state: CopyState = item.status_available ? 'available' : item.status_on_shelf ? 'in-library' : 'unavailable';
  return { location, callNumber, status, state };
}

/** The copies to show, available ones first, then by location. */
export function copiesOf(items: ItemRow[]): Copy[] {
  const order: Record<CopyState, number> = { available: 0, 'in-library': 1, unavailable: 2 };
  return items
    .filter((i) => !i.suppressed)
    .map(copyOf)
    .sort((a, b) => order[a.state] - order[b.state] || a.location.localeCompare(b.location));
}

function places(copies: Copy[]): string {
  return [...new Set(copies.map((c) => c.location))].join(', ');
}

export function summarize(copies: Copy[]): HoldingsSummary {
  if (copies.length === 0) return { state: 'none', label: 'No copies', detail: 'Ask a librarian' };
  const available = copies.filter((c) => c.state === 'available');
  if (available.length) {
    const of = copies.length > 1 ? `${available.length} of ${copies.length} copies` : '1 copy';
    return { state: 'available', label: 'Available', detail: `${of} at ${places(available)}` };
  }
  const inLibrary = copies.filter((c) => c.state === 'in-library');
  if (inLibrary.length) return { state: 'in-library', label: 'Library use only', detail: places(inLibrary) };
  const due = copies.flatMap((c) => c.due ?? []).sort((a, b) => a.getTime() - b.getTime());
  if (due.length === copies.length) {
    return {
      state: 'unavailable',
      label: copies.length > 1 ? 'All copies checked out' : 'Checked out',
      detail: `Due back ${formatDue(due[0]!)}`,
    };
  }
  return { state: 'unavailable', label: 'Not available now', detail: copies[0]!.status };
}
