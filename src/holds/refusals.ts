// Refusals of hold placements and changes, a specificCode per reason (README, "Holds and
// circulation"): refused when the request names something that does not exist or cannot serve,
// conflict when the state of the patron, the hold or the item forbids it. The patron's standing and
// a hold of another patron refuse checkouts too; checkouts' own refusals continue the numbering in
// circulation/refusals.ts. The REST interface answers them as code 132 with 400 and 409.
import { fail } from '../shared/errors.ts';

export const HOLD_SPECIFIC_CODES = {
  patronExpired: 1,
  patronBlocked: 2,
  alreadyOnHold: 3,
  notHoldable: 4,
  notPickupLocation: 5,
  recordNotFound: 6,
  holdLimit: 7,
  holdReady: 8,
  heldForAnother: 9,
} as const;
const c = HOLD_SPECIFIC_CODES;

/**
 * The refusals for the patron's standing (a card expired; blocked by a block, by money owed over
 * the limit or by overdue items): they refuse every hold and every renewal of the patron alike.
 */
export const STANDING_CODES: ReadonlySet<number> = new Set([c.patronExpired, c.patronBlocked]);

export const refuseHold = {
  patronExpired: (id: string, date: string) => fail.conflict(c.patronExpired, `patron ${id} expired on ${date}`),
  patronBlocked: (id: string, code: string) => fail.conflict(c.patronBlocked, `patron ${id} is blocked (blockInfo ${code})`),
  owesTooMuch: (id: string, owed: string, limit: string) =>
    fail.conflict(c.patronBlocked, `patron ${id} is blocked: owes ${owed}, more than the library's limit of ${limit}`),
  tooManyOverdue: (id: string, overdue: number, limit: number) =>
    fail.conflict(c.patronBlocked, `patron ${id} is blocked: ${overdue} overdue items, the library's limit is ${limit}`),
  alreadyOnHold: (what: string) => fail.conflict(c.alreadyOnHold, `the patron already has a hold on ${what}`),
  notHoldable: (what: string) => fail.conflict(c.notHoldable, `${what} cannot be held: no copy can fill a hold`),
  notPickupLocation: (code: string) => fail.refused(c.notPickupLocation, `pickupLocation: ${code} is not a pickup location`),
  recordNotFound: (what: string) => fail.refused(c.recordNotFound, `no ${what}`),
  holdLimit: (limit: number) => fail.conflict(c.holdLimit, `the patron has reached the limit of ${limit} holds`),
  holdReady: (id: string) => fail.conflict(c.holdReady, `hold ${id} is ready for pickup: it cannot be frozen or moved`),
  heldForAnother: (item: string) => fail.conflict(c.heldForAnother, `item ${item} is held for another patron`),
};
