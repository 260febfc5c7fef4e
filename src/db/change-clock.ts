// The change clock (migration 0002): how harvesting clients see every change exactly once.
//
// A write transaction calls stamp() first; it takes the clock row's lock, holds it until commit,
// and gives the transaction a timestamp later than every earlier stamp. So stamps follow commit
// order. A harvest read calls horizon() first: it waits for the transaction holding the clock (if
// any) to commit, so every stamp earlier than the horizon is committed and visible to the read,
// and every later write will stamp after it.
import type { Queryable } from './types.ts';

export async function stamp(tx: Queryable): Promise<Date> {
  const rows = await tx.query<{ stamp: Date }>(
    `update change_clock set stamped_date = greatest(clock_timestamp(), stamped_date + interval '1 microsecond')
     returning stamped_date as stamp`,
  );
  return rows[0]!.stamp;
}

export async function horizon(db: Queryable): Promise<Date> {
  const rows = await db.query<{ now: Date }>('select clock_timestamp() as now from change_clock for share');
  return rows[0]!.now;
}
