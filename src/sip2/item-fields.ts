// What SIP2 answers say of an item besides its barcode and title: its circulation status (Item
// Information's first fixed field), and the fields kiosks and sorters read to handle it — media
// type (CK), item properties (CH) and owner (BG).
import type { SipItem } from './context.ts';
import { FIELD } from './fields.ts';
import { field } from './messages.ts';

/**
 * SIP2's circulation status of an item (3M SIP2 2.00, Item Information Response): 04 charged while
 * on loan, whatever its status; otherwise the one the library's profile gives its status
 * (itemStatuses' sip2Status). Sierra's standard statuses have 03 available, 06 in process, 08
 * waiting on the hold shelf, 10 in transit, 11 claimed returned, 12 lost (lost, and billed whether
 * or not paid: Sierra bills a lost item), 13 missing, and 01 other for the rest (library use only,
 * withdrawn, damaged).
 */
export function circulationStatus(item: { status_sip2: string; due_date: Date | null }): string {
  return item.due_date !== null ? '04' : item.status_sip2;
}

/** The item as the profile extras read it (ItemExtras.profile): its type's media type, its branch's institution. */
type Described = Pick<SipItem, 'message' | 'sip2_media_type' | 'institution'>;

/**
 * CK, the media type of the item's type (when the profile gives its type one), and CH, the item's
 * properties: its message, what staff wrote on it for whoever handles it ("2 discs"), when it has one.
 */
export function mediaAndProperties(item: Described): string {
  return field(FIELD.mediaType, item.sip2_media_type) + field(FIELD.itemProperties, item.message || undefined);
}

/** BG, the institution that owns the item: its location's branch's, when the profile gives the branch one. */
export function owner(item: Described): string {
  return field(FIELD.owner, item.institution);
}
