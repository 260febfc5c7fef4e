// Refusals of checkouts and renewals, a specificCode per reason. They continue the numbering of the
// hold refusals (holds/refusals.ts: one series, README "Holds and circulation"), since a checkout
// is also refused for the patron's standing and for a hold of another patron, with those codes.
// The REST interface answers them as code 132 with 400 (refused) and 409 (conflict).
import { fail } from '../shared/errors.ts';
import { HOLD_SPECIFIC_CODES } from '../holds/refusals.ts';

export const LOAN_SPECIFIC_CODES = {
  /** The same as a hold's: the request names an item that does not exist. */
  itemNotFound: HOLD_SPECIFIC_CODES.recordNotFound,
  alreadyCheckedOut: 10,
  renewalLimit: 11,
  wantedByHold: 12,
} as const;
const c = LOAN_SPECIFIC_CODES;

export const refuseLoan = {
  itemNotFound: (what: string) => fail.refused(c.itemNotFound, `no ${what}`),
  alreadyCheckedOut: (item: string) => fail.conflict(c.alreadyCheckedOut, `item ${item} is already checked out`),
  renewalLimit: (limit: number) =>
    fail.conflict(
      c.renewalLimit,
      limit === 0
        ? 'this loan cannot be renewed: its circulation rule allows no renewals'
        : `this loan has been renewed ${limit} times, the most its circulation rule allows`,
    ),
  wantedByHold: (item: string) =>
    fail.conflict(c.wantedByHold, `item ${item} is wanted by a hold of another patron: the loan cannot be renewed`),
};
