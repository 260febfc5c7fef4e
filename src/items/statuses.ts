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
