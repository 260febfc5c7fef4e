// The change clock (migrations 0002 and 0017): how harvesting clients see every change exactly once.
//
// A write transaction calls stamp() first. It holds the clock shared until it commits, and stamps
// its records with the time it got it. A harvest read calls horizon() first: it takes the clock
// alone, so it waits for every write in progress to commit, and the writes that start after it
// wait for it and stamp later. So every stamp earlier than the horizon is committed and visible
// to the read, and every later write stamps after it.
//
// Writes still take turns, except an import's batches (batchStamp), which run beside each other,
// and circulation (circulationStamp, migration 0040), whose writers lock their rows in one order:
// their stamps need not follow their commits' order, since no horizon falls between writes that
// overlap.
import { setReadFloor } from './ambient.ts';
import { parseLsn } from './replicas.ts';
import type { Queryable } from './types.ts';

export async function stamp(tx: Queryable): Promise<Date> {
  const rows = await tx.query<{ stamp: Date }>('select change_clock_stamp(false) as stamp');
  return rows[0]!.stamp;
}

/** stamp() for one of an import's batches, written beside its others, but never beside another writer. */
export async function batchStamp(tx: Queryable): Promise<Date> {
  const rows = await tx.query<{ stamp: Date }>('select change_clock_stamp(true) as stamp');
  return rows[0]!.stamp;
}

/**
 * stamp() for check-out, check-in and renewal, which lock their rows in one order: written beside
 * each other (never beside an import's batches, nor beside any other writer).
 */
export async function circulationStamp(tx: Queryable): Promise<Date> {
  const rows = await tx.query<{ stamp: Date }>('select change_clock_stamp_circulation() as stamp');
  return rows[0]!.stamp;
}

/** Called outside a transaction (it holds the clock until its own transaction ends). */
export async function horizon(db: Queryable): Promise<Date> {
  const rows = await db.query<{ now: Date }>('select change_clock_horizon() as now');
  return rows[0]!.now;
}

/**
 * horizon(), for a harvest read from a replica (Deps.reads): the request's reads then go only to a
 * replica that has replayed every write stamped before the horizon, or else to the primary, so
 * that no change is skipped. Those writes committed before the horizon took the clock, each with
 * its commit flushed (no writer commits asynchronously but the horizon itself, which stamps
 * nothing): the primary's flushed WAL position read after it has them all.
 */
export async function horizonForReads(db: Queryable): Promise<Date> {
  // The subquery comes first (OFFSET 0 keeps it apart): the position is read after the writes it waited for.
  const rows = await db.query<{ now: Date; lsn: string }>(
    'select now, pg_current_wal_flush_lsn()::text as lsn from (select change_clock_horizon() as now offset 0) horizon',
  );
  setReadFloor(parseLsn(rows[0]!.lsn));
  return rows[0]!.now;
}
