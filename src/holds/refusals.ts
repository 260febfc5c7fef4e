// Refusals of hold placements, changes and checkouts: code 132 with a specificCode per reason
// (README, "Holds and circulation"). 400: the request names something that does not exist or
// cannot serve; 409: the state of the patron, the hold or the item forbids it.
import { errors } from '../http/errors.ts';

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
  alreadyCheckedOut: 10,
} as const;
const c = HOLD_SPECIFIC_CODES;

export const refuseHold = {
  patronExpired: (id: string, date: string) => errors.requestDenied(c.patronExpired, `patron ${id} expired on ${date}`, 409),
  patronBlocked: (id: string, code: string) => errors.requestDenied(c.patronBlocked, `patron ${id} is blocked (blockInfo ${code})`, 409),
  alreadyOnHold: (what: string) => errors.requestDenied(c.alreadyOnHold, `the patron already has a hold on ${what}`, 409),
  notHoldable: (what: string) => errors.requestDenied(c.notHoldable, `${what} cannot be held: no copy can fill a hold`, 409),
  notPickupLocation: (code: string) => errors.requestDenied(c.notPickupLocation, `pickupLocation: ${code} is not a pickup location`),
  recordNotFound: (what: string) => errors.requestDenied(c.recordNotFound, `no ${what}`),
  holdLimit: (limit: number) => errors.requestDenied(c.holdLimit, `the patron has reached the limit of ${limit} holds`, 409),
  holdReady: (id: string) => errors.requestDenied(c.holdReady, `hold ${id} is ready for pickup: it cannot be frozen or moved`, 409),
  heldForAnother: (item: string) => errors.requestDenied(c.heldForAnother, `item ${item} is held for another patron`, 409),
  alreadyCheckedOut: (item: string) => errors.requestDenied(c.alreadyCheckedOut, `item ${item} is already checked out`, 409),
};
