// A hold's state, as holds.state stores it (migration 0008's check constraint lists the same six
// codes). The codes are Sierra's where Sierra has one ('0' on hold, 't' in transit); a ready hold
// is stored as 'r' and shown as Sierra's b or i (src/holds/present.ts), and the three finished
// states are Carrel's own.
//
// SQL text takes these constants by interpolation, as `state = '${HOLD_STATE.waiting}'` or
// `state in ${ACTIVE_SQL}`: they are fixed strings of this module, never client input, and the
// text they give is the same as the literals it replaces (the partial indexes of migrations 0008
// and 0012 are declared with `state in ('0', 't', 'r')`).

export const HOLD_STATE = {
  /** In its queue, no item trapped for it yet (Sierra's "on hold"). */
  waiting: '0',
  /** An item is trapped for it and on its way to the pickup location. */
  inTransit: 't',
  /** Its item waits on the hold shelf at the pickup location, until its pickup-by date. */
  ready: 'r',
  /** Over: not filled by its not-needed-after date, or not collected by its pickup-by date. */
  expired: 'x',
  /** Over: cancelled (by request, or with its patron's deletion). */
  cancelled: 'c',
  /** Over: its item was checked out to the patron. */
  filled: 'f',
} as const;

export type HoldState = (typeof HOLD_STATE)[keyof typeof HOLD_STATE];

/** The states of a hold still in its queue (counted in priorities, limits and queue lengths). */
export const ACTIVE_STATES: readonly HoldState[] = [HOLD_STATE.waiting, HOLD_STATE.inTransit, HOLD_STATE.ready];

/** The active states with an item trapped for the hold (holds.trapped_item_id set). */
export const TRAPPED_STATES: readonly HoldState[] = [HOLD_STATE.inTransit, HOLD_STATE.ready];

/** The states a hold ends in. */
export type FinishedState = typeof HOLD_STATE.expired | typeof HOLD_STATE.cancelled | typeof HOLD_STATE.filled;

export function isActive(state: HoldState): boolean {
  return ACTIVE_STATES.includes(state);
}

/** A list of states as SQL, for `state in …`: `('0', 't', 'r')`. */
const sqlList = (states: readonly HoldState[]) => `(${states.map((s) => `'${s}'`).join(', ')})`;

/** ACTIVE_STATES as SQL: `('0', 't', 'r')`. */
export const ACTIVE_SQL = sqlList(ACTIVE_STATES);

/** TRAPPED_STATES as SQL: `('t', 'r')`. */
export const TRAPPED_SQL = sqlList(TRAPPED_STATES);
