// SQL for the days a location is closed: weekdays (location_closed_days) and dates
// (location_closed_dates). Due dates and pickup-by dates move past them (shared/calendar.ts). The
// profile (repository.ts, upsertLocation) replaces a location's closed days whole; the
// `carrel locations closed` command adds and removes them one at a time, here.
import type { Queryable } from '../db/types.ts';
import type { ClosedDays } from '../shared/calendar.ts';

/** The closed days of a location (its code the SQL expression `location`), from $2 on. */
const closedDaysOf = (location: string) =>
  `select array(select weekday from location_closed_days where location_code = ${location} order by weekday) as weekdays,
     array(select to_char(closed_date, 'YYYY-MM-DD') from location_closed_dates where location_code = ${location} and closed_date >= $2::date
           order by closed_date) as dates`;

export async function closedDays(db: Queryable, code: string, from: string): Promise<ClosedDays> {
  return (await db.query<ClosedDays>(closedDaysOf('$1'), [code, from]))[0]!;
}

/** The closed days of an item's location (none when it has none). */
export async function closedDaysOfItem(db: Queryable, itemId: string, from: string): Promise<ClosedDays> {
  return (await db.query<ClosedDays>(closedDaysOf('(select location_code from items where id = $1)'), [itemId, from]))[0]!;
}

export async function locationExists(db: Queryable, code: string): Promise<boolean> {
  return (await db.query('select 1 from locations where code = $1', [code])).length > 0;
}

/** Replaces a location's closed weekdays (0 Sunday … 6 Saturday) and dates with these. */
export async function replaceClosedDays(tx: Queryable, code: string, weekdays: readonly number[], dates: readonly string[]): Promise<void> {
  await tx.query('delete from location_closed_days where location_code = $1', [code]);
  await tx.query('insert into location_closed_days (location_code, weekday) select $1, d from unnest($2::int[]) d', [code, weekdays]);
  await tx.query('delete from location_closed_dates where location_code = $1', [code]);
  await tx.query('insert into location_closed_dates (location_code, closed_date) select $1, d from unnest($2::date[]) d', [code, dates]);
}

export async function addClosedWeekday(tx: Queryable, code: string, weekday: number): Promise<void> {
  await tx.query('insert into location_closed_days (location_code, weekday) values ($1, $2) on conflict do nothing', [code, weekday]);
}

export async function addClosedDate(tx: Queryable, code: string, day: string): Promise<void> {
  await tx.query('insert into location_closed_dates (location_code, closed_date) values ($1, $2::date) on conflict do nothing', [
    code,
    day,
  ]);
}

export async function removeClosedWeekday(tx: Queryable, code: string, weekday: number): Promise<void> {
  await tx.query('delete from location_closed_days where location_code = $1 and weekday = $2', [code, weekday]);
}

export async function removeClosedDate(tx: Queryable, code: string, day: string): Promise<void> {
  await tx.query('delete from location_closed_dates where location_code = $1 and closed_date = $2::date', [code, day]);
}
