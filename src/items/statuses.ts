// The item status codes Carrel's rules write or compare, as items.status stores them: Sierra's
// codes, rows of the item_statuses table (migration 0003, which gives each its display name, shown
// here in capitals). The table may hold more codes than these; a status is any of its codes.
//
// SQL text takes these constants by interpolation, as `'${ITEM_STATUS.available}'`: they are fixed
// strings of this module, never client input.

export const ITEM_STATUS = {
  /** AVAILABLE: on the shelf, or on loan (a loan is its due date, not a status). */
  available: '-',
  /** IN TRANSIT: on its way to the pickup location of the hold it is trapped for. */
  inTransit: 't',
  /** ON HOLDSHELF: waiting for the patron of the hold it is trapped for. */
  onHoldShelf: '!',
  /** LIB USE ONLY. */
  libraryUseOnly: 'o',
  /** IN PROCESSING. */
  inProcessing: 'p',
  /** MISSING. */
  missing: 'm',
  /** LOST. */
  lost: 'l',
  /** WITHDRAWN. */
  withdrawn: 'w',
  /** DAMAGED. */
  damaged: 'd',
  /** CLMS RETD: the patron claims to have returned it. */
  claimsReturned: 'z',
  /** BILLED NOTPAID. */
  billedNotPaid: 'n',
  /** BILLED PAID. */
  billedPaid: '$',
} as const;

export type ItemStatus = (typeof ITEM_STATUS)[keyof typeof ITEM_STATUS];

/** What an item status means to circulation, as the library profile defines it (`itemStatuses`). */
export interface ItemStatusSpec {
  /** One character. */
  code: string;
  name: string;
  /** An item in it may be checked out. */
  available: boolean;
  /** It may fill a hold. */
  holdable: boolean;
  /** A patron could find it on the shelf. */
  onShelf: boolean;
  /** The SIP2 circulation status (Item Information's field 18, 01 to 13) a kiosk is told. */
  sip2Status: string;
}

/** A status's SIP2 circulation status when the profile names none: 03 available for one that is, else 01 other. */
export const defaultSip2Status = (s: Pick<ItemStatusSpec, 'available'>): string => (s.available ? '03' : '01');

const standard = (code: ItemStatus, name: string, meaning: Partial<Omit<ItemStatusSpec, 'code' | 'name'>> = {}): ItemStatusSpec => {
  const flags = { available: false, holdable: false, onShelf: false, ...meaning };
  return { code, name, ...flags, sip2Status: meaning.sip2Status ?? defaultSip2Status(flags) };
};

/**
 * Sierra's standard statuses, which a library profile without `itemStatuses` has (migration 0044
 * gives the database the same): holdable are those that may still reach a patron's hands
 * (on the shelf, in transit, on the hold shelf, library use only, in processing).
 */
export const STANDARD_ITEM_STATUSES: readonly ItemStatusSpec[] = [
  // In code order ("C" collation), as a profile lists them.
  standard(ITEM_STATUS.onHoldShelf, 'ON HOLDSHELF', { holdable: true, sip2Status: '08' }),
  standard(ITEM_STATUS.billedPaid, 'BILLED PAID', { sip2Status: '12' }),
  standard(ITEM_STATUS.available, 'AVAILABLE', { available: true, holdable: true, onShelf: true }),
  standard(ITEM_STATUS.damaged, 'DAMAGED'),
  standard(ITEM_STATUS.lost, 'LOST', { sip2Status: '12' }),
  standard(ITEM_STATUS.missing, 'MISSING', { sip2Status: '13' }),
  standard(ITEM_STATUS.billedNotPaid, 'BILLED NOTPAID', { sip2Status: '12' }),
  standard(ITEM_STATUS.libraryUseOnly, 'LIB USE ONLY', { holdable: true, onShelf: true }),
  standard(ITEM_STATUS.inProcessing, 'IN PROCESSING', { holdable: true, sip2Status: '06' }),
  standard(ITEM_STATUS.inTransit, 'IN TRANSIT', { holdable: true, sip2Status: '10' }),
  standard(ITEM_STATUS.withdrawn, 'WITHDRAWN'),
  standard(ITEM_STATUS.claimsReturned, 'CLMS RETD', { sip2Status: '11' }),
];

/** The statuses Carrel's circulation sets itself: every library keeps them. */
export const CIRCULATION_STATUSES: readonly string[] = [ITEM_STATUS.available, ITEM_STATUS.inTransit, ITEM_STATUS.onHoldShelf];
