// Calendar days (YYYY-MM-DD, UTC) for circulation: reading one, the service's clock, day arithmetic, and the
// pickup-by rule (today + the location's hold-shelf days, moved past the days it is closed).
import { fail } from './errors.ts';

/** A calendar date YYYY-MM-DD that exists, in years 0001 to 9999; null or an empty string clears. */
export function parseDay(field: string, raw: string | null): string | null {
  if (raw === null || raw === '') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const date = match ? new Date(`${raw}T00:00:00Z`) : undefined;
  // Year 0000 exists for JavaScript but not for PostgreSQL: years run 0001 to 9999.
  if (!match || match[1] === '0000' || !date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== raw) {
    throw fail.invalidInput(`${field} "${raw}" is not a calendar date such as 2027-06-30 (years 0001 to 9999)`);
  }
  return raw;
}

/** The service's idea of today. Injectable, so tests can move time forward without sleeping. */
export interface Clock {
  today(): string;
}

export const systemClock: Clock = { today: () => new Date().toISOString().slice(0, 10) };

/** A clock that answers a set day until moved: for tests and for `carrel holds expire --today`. */
export class FixedClock implements Clock {
  constructor(private day: string) {}
  today(): string {
    return this.day;
  }
  set(day: string): void {
    this.day = day;
  }
}

const ms = (day: string) => Date.parse(`${day}T00:00:00Z`);
const text = (t: number) => new Date(t).toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  return text(ms(day) + days * 86_400_000);
}

/** The same day of the month `months` later (clamped to the month's last day). */
export function addMonths(day: string, months: number): string {
  const d = new Date(ms(day));
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return text(target.getTime());
}

/** 0 Sunday … 6 Saturday. */
export const weekday = (day: string) => new Date(ms(day)).getUTCDay();

export interface ClosedDays {
  weekdays: number[];
  dates: string[];
}

/**
 * The last day to collect a hold that becomes ready today: today + shelfDays; when the location
 * is closed that day (a closed weekday or date), the next day it is open. A location closed every
 * day of the week keeps the plain date.
 */
export function pickupBy(today: string, shelfDays: number, closed: ClosedDays): string {
  let day = addDays(today, shelfDays);
  if (closed.weekdays.length >= 7) return day;
  const dates = new Set(closed.dates);
  for (let i = 0; i < 400 && (closed.weekdays.includes(weekday(day)) || dates.has(day)); i++) day = addDays(day, 1);
  return day;
}
