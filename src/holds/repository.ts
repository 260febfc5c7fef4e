// SQL for holds and the locks that serialise each queue.
import type { Queryable } from '../db/types.ts';
import { STANDARD_ITEM_STATUSES } from '../items/statuses.ts';
import { ACTIVE_SQL, HOLD_STATE, TRAPPED_SQL, type FinishedState, type HoldState } from './states.ts';

export type { HoldState } from './states.ts';

export interface HoldRow {
  id: string;
  patron_id: string;
  record_type: 'b' | 'i';
  bib_id: string;
  item_id: string | null;
  pickup_location: string;
  pickup_name: string;
  state: HoldState;
  frozen: boolean;
  placed: string;
  not_wanted_before: string;
  not_needed_after: string;
  note: string;
  pickup_by: string | null;
  trapped_item_id: string | null;
  location_code: string | null;
  location_name: string | null;
  finished_reason: string | null;
  priority: number | null;
  queue_length: number | null;
}

// A hold's place in its queue and the queue's length, counted in one pass over the queue: a bib
// hold's queue is its bib's active bib holds (index holds_bib_queue_b), an item hold's its item's
// active holds (holds_item_queue; only item holds have an item_id). Both counts come from the index
// alone (migration 0012). Each kind has its own lateral subquery: one condition covering both would
// keep PostgreSQL from using either index; the other kind's subquery is skipped by a one-time filter.
const queue = (alias: string, kind: 'b' | 'i') => `left join lateral (
    select count(*) filter (where q.id <= h.id)::int as priority, count(*)::int as length from holds q
    where h.state in ${ACTIVE_SQL} and h.record_type = '${kind}'
      and ${kind === 'b' ? `q.bib_id = h.bib_id and q.record_type = 'b'` : 'q.item_id = h.item_id'} and q.state in ${ACTIVE_SQL}
  ) ${alias} on h.record_type = '${kind}'`;

const SELECT = `select h.id::text, h.patron_id::text, h.record_type, h.bib_id::text, h.item_id::text, h.pickup_location,
  pl.name as pickup_name, h.state, h.frozen, to_char(h.placed, 'YYYY-MM-DD') as placed,
  to_char(h.not_wanted_before, 'YYYY-MM-DD') as not_wanted_before, to_char(h.not_needed_after, 'YYYY-MM-DD') as not_needed_after,
  h.note, to_char(h.pickup_by, 'YYYY-MM-DD') as pickup_by, h.trapped_item_id::text, i.location_code, il.name as location_name,
  h.finished_reason,
  case when h.state in ${ACTIVE_SQL} then coalesce(bq.priority, iq.priority) end as priority,
  case when h.state in ${ACTIVE_SQL} then coalesce(bq.length, iq.length) end as queue_length
  from holds h join locations pl on pl.code = h.pickup_location
  left join items i on i.id = coalesce(h.trapped_item_id, h.item_id) left join locations il on il.code = i.location_code
  ${queue('bq', 'b')}
  ${queue('iq', 'i')}`;

export async function getHold(db: Queryable, id: string): Promise<HoldRow | undefined> {
  return (await db.query<HoldRow>(`${SELECT} where h.id = $1`, [id]))[0];
}

export interface HoldListFilter {
  /** Include expired, cancelled and filled holds. */
  inactive: boolean;
  limit: number;
  offset: number;
}

const stateFilter = (f: HoldListFilter) => (f.inactive ? 'true' : `h.state in ${ACTIVE_SQL}`);

export async function listHolds(db: Queryable, f: HoldListFilter): Promise<HoldRow[]> {
  return db.query<HoldRow>(`${SELECT} where ${stateFilter(f)} order by h.id limit $1 offset $2`, [f.limit, f.offset]);
}

/**
 * A page of a patron's holds; undefined when there is no such (live) patron. One statement: the
 * patron's existence rides along with the page (one row of nulls for a patron without holds),
 * which saves GET /patrons/{id}/holds a round trip.
 */
export async function listPatronHolds(db: Queryable, patronId: string, f: HoldListFilter): Promise<HoldRow[] | undefined> {
  const rows = await db.query<HoldRow>(
    `select page.* from patrons p left join lateral (
       ${SELECT} where h.patron_id = p.id and ${stateFilter(f)} order by h.id limit $1 offset $2
     ) page on true
     where p.id = $3 and p.deleted_date is null
     order by page.id::bigint`,
    [f.limit, f.offset, patronId],
  );
  if (rows.length === 0) return undefined;
  return rows[0]!.id === null ? [] : rows;
}

/** A hold as activeHoldsOfPatronJson lists it: what a list of the patron's own holds shows, and its bib's title. */
export type HoldSummary = Pick<
  HoldRow,
  'id' | 'bib_id' | 'state' | 'frozen' | 'pickup_location' | 'pickup_name' | 'pickup_by' | 'priority' | 'queue_length'
> & { title: string | null };

/**
 * A patron's active holds, oldest first, at most `limit`, as one json array of HoldSummary: for a
 * statement that reads them beside the patron's other lists in one round trip (the catalogue's
 * account page). Only these columns: turning all of HoldRow's into json cost a third more.
 * `patron` is an SQL expression of the patron's id.
 */
export function activeHoldsOfPatronJson(patron: string, limit: number): string {
  if (!Number.isInteger(limit)) throw new Error(`not a row count: ${limit}`);
  const fields = ['id', 'bib_id', 'state', 'frozen', 'pickup_location', 'pickup_name', 'pickup_by', 'priority', 'queue_length'];
  return `(select coalesce(json_agg(json_build_object(${fields.map((f) => `'${f}', page.${f}`).join(', ')}, 'title', b.title)
      order by page.id::bigint), '[]')
    from (${SELECT} where h.patron_id = ${patron} and h.state in ${ACTIVE_SQL} order by h.id limit ${limit}) page
    left join bibs b on b.id = page.bib_id::bigint)`;
}

// ---- locks. Order in every transaction: change clock, bibs (ascending), patron, item, holds.

/** Locks live bibs (ascending ids); answers those that exist. */
export async function lockBibs(tx: Queryable, ids: string[]): Promise<string[]> {
  return (
    await tx.query<{ id: string }>(
      'select id::text from bibs where id = any($1::bigint[]) and deleted_date is null order by id for update',
      [ids],
    )
  ).map((r) => r.id);
}

/** Locks an item's live bibs, in id order (lockBibs of bibsOfItem, in one statement). */
export async function lockBibsOfItem(tx: Queryable, itemId: string): Promise<string[]> {
  return (
    await tx.query<{ id: string }>(
      `select id::text from bibs where id in (select bib_id from item_bibs where item_id = $1) and deleted_date is null order by id for update`,
      [itemId],
    )
  ).map((r) => r.id);
}

export async function bibsOfItem(tx: Queryable, itemId: string): Promise<string[]> {
  return (await tx.query<{ bib_id: string }>('select bib_id::text from item_bibs where item_id = $1 order by bib_id', [itemId])).map(
    (r) => r.bib_id,
  );
}

export interface ItemState {
  id: string;
  status: string;
  location_code: string | null;
  item_type: string | null;
  suppressed: boolean;
}

export async function lockItem(tx: Queryable, id: string): Promise<ItemState | undefined> {
  return (
    await tx.query<ItemState>(
      'select id::text, status, location_code, item_type, suppressed from items where id = $1 and deleted_date is null for update',
      [id],
    )
  )[0];
}

/**
 * Sierra's standard statuses that can fill a hold (others: missing, lost, withdrawn, billed, claims
 * returned, damaged), for loaders of the generated catalogue, whose items have only those. Every
 * other rule reads `holdable` from the library's item statuses (HOLDABLE_STATUS_SQL).
 */
export const HOLDABLE_STATUSES: string[] = STANDARD_ITEM_STATUSES.filter((s) => s.holdable).map((s) => s.code);

/** True where the item `alias`'s status may fill a hold, as the library's profile defines it. */
const holdableStatus = (alias: string) => `exists (select 1 from item_statuses hs where hs.code = ${alias}.status and hs.holdable)`;

/**
 * How many of the bib's copies could fill a hold of a patron of this type (a holdable status, and
 * a circulation rule that says holdable), and the largest hold limit their rules give (a rule
 * without one: the library's, `libraryLimit`).
 */
export async function holdableItemsOfBib(
  tx: Queryable,
  bibId: string,
  patronType: number,
  libraryLimit: number,
): Promise<{ n: number; hold_limit: number }> {
  return (
    await tx.query<{ n: number; hold_limit: number }>(
      `select count(*)::int as n, coalesce(max(coalesce(r.hold_limit, $3)), $3)::int as hold_limit
       from items i join item_bibs ib on ib.item_id = i.id cross join lateral circulation_rule($2, i.item_type, i.location_code) r
       where ib.bib_id = $1 and i.deleted_date is null and not i.suppressed and ${holdableStatus('i')} and r.holdable`,
      [bibId, patronType, libraryLimit],
    )
  )[0]!;
}

export async function bibSuppressed(tx: Queryable, bibId: string): Promise<boolean> {
  return (await tx.query<{ suppressed: boolean }>('select suppressed from bibs where id = $1', [bibId]))[0]?.suppressed ?? false;
}

export interface PickupLocation {
  code: string;
  pickup: boolean;
  hold_shelf_days: number;
}

export async function getLocation(db: Queryable, code: string): Promise<PickupLocation | undefined> {
  return (await db.query<PickupLocation>('select code, pickup, hold_shelf_days from locations where code = $1', [code]))[0];
}

export async function countActiveHolds(tx: Queryable, patronId: string): Promise<number> {
  return (
    await tx.query<{ n: number }>(`select count(*)::int as n from holds where patron_id = $1 and state in ${ACTIVE_SQL}`, [patronId])
  )[0]!.n;
}

export async function hasActiveHold(tx: Queryable, patronId: string, recordType: 'b' | 'i', recordId: string): Promise<boolean> {
  const column = recordType === 'b' ? 'bib_id' : 'item_id';
  return (
    (
      await tx.query(`select 1 from holds where patron_id = $1 and record_type = $2 and ${column} = $3 and state in ${ACTIVE_SQL}`, [
        patronId,
        recordType,
        recordId,
      ])
    ).length > 0
  );
}

export interface NewHold {
  patronId: string;
  recordType: 'b' | 'i';
  bibId: string;
  itemId: string | null;
  pickupLocation: string;
  placed: string;
  notNeededAfter: string;
  note: string;
}

export async function insertHold(tx: Queryable, h: NewHold): Promise<string> {
  return (
    await tx.query<{ id: string }>(
      `insert into holds (patron_id, record_type, bib_id, item_id, pickup_location, placed, not_wanted_before, not_needed_after, note)
     values ($1, $2, $3, $4, $5, $6, $6, $7, $8) returning id::text`,
      [h.patronId, h.recordType, h.bibId, h.itemId, h.pickupLocation, h.placed, h.notNeededAfter, h.note],
    )
  )[0]!.id;
}

export interface LockedHold {
  id: string;
  patron_id: string;
  bib_id: string;
  item_id: string | null;
  state: HoldState;
  pickup_location: string;
  trapped_item_id: string | null;
  pickup_by: string | null;
}

const LOCKED = `id::text, patron_id::text, bib_id::text, item_id::text, state, pickup_location, trapped_item_id::text,
  to_char(pickup_by, 'YYYY-MM-DD') as pickup_by`;

/** The bib whose lock guards a hold's queue (it never changes). */
export async function queueBibOfHold(db: Queryable, id: string): Promise<{ bib_id: string; item_id: string | null } | undefined> {
  return (
    await db.query<{ bib_id: string; item_id: string | null }>('select bib_id::text, item_id::text from holds where id = $1', [id])
  )[0];
}

export async function lockHold(tx: Queryable, id: string): Promise<LockedHold | undefined> {
  return (await tx.query<LockedHold>(`select ${LOCKED} from holds where id = $1 for update`, [id]))[0];
}

/** Every bib whose queue an active hold of the patron is in (its bib, and its item's bibs), for locking first. */
export async function queueBibsOfPatron(db: Queryable, patronId: string): Promise<string[]> {
  return (
    await db.query<{ id: string }>(
      `select bib_id::text as id from holds where patron_id = $1 and state in ${ACTIVE_SQL}
     union select ib.bib_id::text from holds h join item_bibs ib on ib.item_id = h.item_id where h.patron_id = $1 and h.state in ${ACTIVE_SQL}`,
      [patronId],
    )
  ).map((r) => r.id);
}

/** Active holds of a patron, ids ascending (for cancelling them all). */
export async function activeHoldIds(db: Queryable, patronId: string): Promise<string[]> {
  return (
    await db.query<{ id: string }>(`select id::text from holds where patron_id = $1 and state in ${ACTIVE_SQL} order by id`, [patronId])
  ).map((r) => r.id);
}

/** The active hold an item is trapped for (in transit or on the shelf). */
export async function holdTrapping(tx: Queryable, itemId: string): Promise<LockedHold | undefined> {
  return (
    await tx.query<LockedHold>(`select ${LOCKED} from holds where trapped_item_id = $1 and state in ${TRAPPED_SQL} for update`, [itemId])
  )[0];
}

/** The first hold, in placement order, this item can fill today: not frozen, wanted already, of a patron whose circulation rule for the item says holdable. */
export async function nextHoldFor(tx: Queryable, itemId: string, bibIds: string[], today: string): Promise<LockedHold | undefined> {
  return (
    await tx.query<LockedHold>(
      `select ${LOCKED} from holds where state = '${HOLD_STATE.waiting}' and not frozen and not_wanted_before <= $3::date and not_needed_after >= $3::date
       and ((record_type = 'i' and item_id = $1) or (record_type = 'b' and bib_id = any($2::bigint[])))
       and exists (
         select 1 from patrons p, items i where p.id = holds.patron_id and p.deleted_date is null and i.id = $1
           and (select r.holdable from circulation_rule(p.patron_type, i.item_type, i.location_code) r)
       )
     order by id limit 1 for update`,
      [itemId, bibIds, today],
    )
  )[0];
}

/** The patron's waiting hold this item can fill (on its bib or on the item itself). */
export async function waitingHoldOfPatron(
  tx: Queryable,
  patronId: string,
  itemId: string,
  bibIds: string[],
): Promise<LockedHold | undefined> {
  return (
    await tx.query<LockedHold>(
      `select ${LOCKED} from holds where patron_id = $1 and state = '${HOLD_STATE.waiting}'
       and ((record_type = 'i' and item_id = $2) or (record_type = 'b' and bib_id = any($3::bigint[])))
     order by id limit 1 for update`,
      [patronId, itemId, bibIds],
    )
  )[0];
}

export async function trapHold(tx: Queryable, id: string, itemId: string, pickupBy: string | null): Promise<void> {
  await tx.query(`update holds set state = $3, trapped_item_id = $2, pickup_by = $4::date where id = $1`, [
    id,
    itemId,
    pickupBy ? HOLD_STATE.ready : HOLD_STATE.inTransit,
    pickupBy,
  ]);
}

export async function finishHold(tx: Queryable, id: string, state: FinishedState, reason: string): Promise<void> {
  await tx.query(
    `update holds set state = $2, finished_reason = $3, finished_date = clock_timestamp(), trapped_item_id = null, pickup_by = null where id = $1`,
    [id, state, reason],
  );
}

export async function updateHold(tx: Queryable, id: string, changes: { frozen?: boolean; pickupLocation?: string }): Promise<void> {
  await tx.query('update holds set frozen = coalesce($2, frozen), pickup_location = coalesce($3, pickup_location) where id = $1', [
    id,
    changes.frozen ?? null,
    changes.pickupLocation ?? null,
  ]);
}

/** Waiting holds past their not-needed-after date, and ready holds past their pickup-by date. */
export async function holdsToExpire(db: Queryable, today: string, limit: number): Promise<{ id: string; state: HoldState }[]> {
  return db.query<{ id: string; state: HoldState }>(
    `(select id::text, state from holds where state = '${HOLD_STATE.waiting}' and not_needed_after < $1::date)
     union all (select id::text, state from holds where state = '${HOLD_STATE.ready}' and pickup_by < $1::date)
     order by id limit $2`,
    [today, limit],
  );
}

/** Whether a waiting hold is still past its not-needed-after date (re-checked under its lock). */
export async function stillDue(tx: Queryable, id: string, today: string): Promise<boolean> {
  return (
    (await tx.query(`select 1 from holds where id = $1 and state = '${HOLD_STATE.waiting}' and not_needed_after < $2::date`, [id, today]))
      .length > 0
  );
}

/** An item's state, read (not locked) when its bibs are locked: placement needs no item lock. */
export async function lockItemForRead(tx: Queryable, id: string): Promise<(ItemState & { holdable: boolean }) | undefined> {
  return (
    await tx.query<ItemState & { holdable: boolean }>(
      `select id::text, status, location_code, item_type, suppressed, ${holdableStatus('items')} as holdable
       from items where id = $1 and deleted_date is null`,
      [id],
    )
  )[0];
}
