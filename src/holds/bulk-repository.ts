// SQL for placing holds in bulk (`carrel generate`): the rules placement checks one hold at a time
// (service.ts), applied to a batch in one statement, after the same queue locks.
import type { Queryable } from '../db/types.ts';
import { HOLDABLE_STATUSES } from './repository.ts';
import { ACTIVE_SQL } from './states.ts';

/** A hold to place in bulk (`carrel generate`), its patron, record and item named as a loader knows them. */
export interface BulkHold {
  /** Placement order within the batch: ids are drawn in this order. */
  k: number;
  patronBarcode: string;
  /** The bib held (its 001 and 003); for an item hold, the item's bib. */
  controlNumber: string;
  controlSource: string;
  /** For an item hold, the item held. */
  itemBarcode: string | null;
  pickupLocation: string;
  placed: string;
  notNeededAfter: string;
  frozen: boolean;
}

const BULK_ROWS = `select * from jsonb_to_recordset($1::jsonb) as r(k integer, patron_barcode text, control_number text,
  control_source text, item_barcode text, pickup_location text, placed date, not_needed_after date, frozen boolean)`;

/**
 * Locks, ascending, the bibs whose queues a batch of bulk holds joins (a bib hold's bib, an item
 * hold's item's bibs), as placement does before drawing a hold's id.
 */
export async function lockQueuesOfBulkHolds(tx: Queryable, rows: BulkHold[]): Promise<void> {
  await tx.query(
    `with r as (${BULK_ROWS})
     select b.id from bibs b where b.deleted_date is null and b.id in (
       select q.id from r join bibs q on q.control_number = r.control_number and coalesce(q.control_source, '') = r.control_source
         and q.deleted_date is null where r.item_barcode is null
       union select ib.bib_id from r join items i on i.barcode = r.item_barcode and i.deleted_date is null
         join item_bibs ib on ib.item_id = i.id)
     order by b.id for update`,
    [toJson(rows)],
  );
}

function toJson(rows: BulkHold[]) {
  return rows.map((h) => ({
    k: h.k,
    patron_barcode: h.patronBarcode,
    control_number: h.controlNumber,
    control_source: h.controlSource,
    item_barcode: h.itemBarcode,
    pickup_location: h.pickupLocation,
    placed: h.placed,
    not_needed_after: h.notNeededAfter,
    frozen: h.frozen,
  }));
}

/**
 * Places a batch of holds in k order (after lockQueuesOfBulkHolds, in the same transaction),
 * leaving out each that placement would refuse: an unknown, deleted, blocked patron or one
 * expired when it was placed; an unknown, deleted or suppressed bib, or one with no item that can
 * fill it; an item that cannot (status, suppression); a location that is no pickup location; a
 * patron at the hold limit. Also left out: a hold on a record the patron holds or has held, so
 * that loading the same holds again adds none. Answers how many were placed.
 */
export async function insertBulkHolds(tx: Queryable, rows: BulkHold[], holdLimit: number): Promise<number> {
  const placed = await tx.query<{ n: number }>(
    `with r as (${BULK_ROWS}),
     resolved as (
       select r.k, p.id as patron_id, case when r.item_barcode is null then 'b' else 'i' end as record_type,
         coalesce(i.queue_bib, b.id) as bib_id, i.id as item_id, r.pickup_location, r.placed, r.not_needed_after, r.frozen
       from r
       join patron_barcodes pb on pb.barcode = r.patron_barcode
       join patrons p on p.id = pb.patron_id and p.deleted_date is null and p.block_code = '-'
         and (p.expiration_date is null or p.expiration_date >= r.placed)
       join locations l on l.code = r.pickup_location and l.pickup
       left join bibs b on r.item_barcode is null and b.control_number = r.control_number
         and coalesce(b.control_source, '') = r.control_source and b.deleted_date is null and not b.suppressed
       left join lateral (
         select i.id, (select min(ib.bib_id) from item_bibs ib join bibs ob on ob.id = ib.bib_id and ob.deleted_date is null
                       where ib.item_id = i.id) as queue_bib
         from items i where i.barcode = r.item_barcode and i.deleted_date is null and not i.suppressed and i.status = any($2::text[])
       ) i on r.item_barcode is not null
       where (r.item_barcode is null and exists (
               select 1 from item_bibs ib join items hi on hi.id = ib.item_id
               where ib.bib_id = b.id and hi.deleted_date is null and not hi.suppressed and hi.status = any($2::text[])))
          or (r.item_barcode is not null and i.queue_bib is not null)
     ),
     fresh as (
       select x.*, row_number() over (partition by x.patron_id order by x.k)
         + (select count(*) from holds a where a.patron_id = x.patron_id and a.state in ${ACTIVE_SQL}) as nth
       from resolved x
       where not exists (select 1 from holds h where h.patron_id = x.patron_id and h.record_type = x.record_type
                           and coalesce(h.item_id, h.bib_id) = coalesce(x.item_id, x.bib_id))
     ),
     inserted as (
       insert into holds (patron_id, record_type, bib_id, item_id, pickup_location, placed, not_wanted_before, not_needed_after, frozen)
       select patron_id, record_type, bib_id, item_id, pickup_location, placed, placed, not_needed_after, frozen
       from fresh where nth <= $3 order by k
       returning 1)
     select count(*)::int as n from inserted`,
    [toJson(rows), HOLDABLE_STATUSES, holdLimit],
  );
  return placed[0]!.n;
}
