// What an overdue loan costs, by its circulation rule: the fine per day for each day late past
// the grace days (then every late day counts), at most the rule's maximum. Days are the library's
// calendar days, the day it comes back not counted as late if it was due that day.
import { daysBetween } from '../shared/calendar.ts';
import { Decimal, ZERO } from '../shared/money.ts';

export interface FineRule {
  finePerDay: string;
  maxFine: string | null;
  graceDays: number;
}

/** The fine for a loan due on `due` (YYYY-MM-DD) that ends on `today`; zero when none is due. */
export function overdueFine(due: string, today: string, rule: FineRule): Decimal {
  const late = daysBetween(due, today);
  if (late <= rule.graceDays) return ZERO;
  const fine = new Decimal(rule.finePerDay).times(late);
  return rule.maxFine !== null && fine.greaterThan(rule.maxFine) ? new Decimal(rule.maxFine) : fine;
}
