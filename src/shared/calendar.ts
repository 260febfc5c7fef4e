// Calendar days (YYYY-MM-DD, in the library's time zone) for circulation: reading one, the service's clock, day arithmetic, and the
// open-day rule for pickup-by and due dates (today + some days, moved past the days a location is closed).
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

/** The service's idea of today in a time zone. Injectable, so tests can move time forward without sleeping. */
export interface Clock {
  today(timeZone: string): string;
}

/** Formatters by time zone: building one costs more than the rest of a checkout's own work. A library has one zone (IANA has some 600). */
const formats = new Map<string, Intl.DateTimeFormat>();

/** An instant's date and time in an IANA time zone: year (four digits), month, day, hour (00–23), minute, second (two digits each). */
export function partsIn(instant: Date, timeZone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  // From the parts, not a locale's whole format: which order a locale writes them in has changed between ICU versions.
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return {
    year: String(parts.year).padStart(4, '0'),
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** The calendar day (YYYY-MM-DD) an instant falls on in an IANA time zone. */
export function dayIn(instant: Date, timeZone: string): string {
  const { year, month, day } = partsIn(instant, timeZone);
  return `${year}-${month}-${day}`;
}

export const systemClock: Clock = { today: (timeZone) => dayIn(new Date(), timeZone) };

/**
 * A clock stopped at a day (the same in every zone) or at an instant (whose day depends on the
 * zone): for tests and for `carrel holds expire --today`.
 */
export class FixedClock implements Clock {
  private instant: Date | undefined;
  constructor(private day: string) {}
  static at(instant: Date): FixedClock {
    const clock = new FixedClock(instant.toISOString().slice(0, 10));
    clock.instant = instant;
    return clock;
  }
  today(timeZone: string): string {
    return this.instant ? dayIn(this.instant, timeZone) : this.day;
  }
  set(day: string): void {
    this.day = day;
    this.instant = undefined;
  }
}

const ms = (day: string) => Date.parse(`${day}T00:00:00Z`);
const text = (t: number) => new Date(t).toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  return text(ms(day) + days * 86_400_000);
}

/** Days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((ms(to) - ms(from)) / 86_400_000);
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
 * `days` after today, or when the location is closed that day (a closed weekday or date) the next
 * day it is open: the last day to collect a hold ready today, the day a loan made today is due. A
 * location closed every day of the week keeps the plain date.
 */
export function openDayAfter(today: string, days: number, closed: ClosedDays): string {
  let day = addDays(today, days);
  if (closed.weekdays.length >= 7) return day;
  const dates = new Set(closed.dates);
  for (let i = 0; i < 400 && (closed.weekdays.includes(weekday(day)) || dates.has(day)); i++) day = addDays(day, 1);
  return day;
}
