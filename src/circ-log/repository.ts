// SQL for the circulation transaction log (migration 0031).
import type { Queryable } from '../db/types.ts';

export type CircOp = 'o' | 'i' | 'r' | 'nb' | 'ni' | 'f' | 'x' | '$';

export interface CircEvent {
  op: CircOp;
  /** When it happened (the transaction's stamp); default: the transaction's start. */
  at?: Date;
  patronId?: string | null;
  itemId?: string | null;
  /** The bib, when the event is about one (a bib hold); else the item's first bib. */
  bibId?: string | null;
  /** YYYY-MM-DD: the loan's due date (checkouts and renewals). */
  due?: string | null;
  checkoutId?: string | null;
  holdId?: string | null;
  fineId?: string | null;
  /** The statistics group (terminal or desk) the request gave; null when none. */
  statGroup?: number | null;
}

/** One event, with the patron's and the item's codes read as they are now, in the same statement. */
export async function insertEvent(tx: Queryable, e: CircEvent): Promise<void> {
  await tx.query(
    `insert into circ_transactions (transaction_date, op_code, patron_id, item_id, bib_id, due_date, patron_type,
       patron_home_library, item_type, item_location, checkout_id, hold_id, fine_id, stat_group)
     select coalesce($1::timestamptz, now()), $2, $3::bigint, $4::bigint,
       coalesce($5::bigint, (select min(ib.bib_id) from item_bibs ib where ib.item_id = $4::bigint)), $6::date,
       p.patron_type, p.home_library_code, i.item_type, i.location_code, $7::bigint, $8::bigint, $9::bigint, $10::integer
     from (select 1) one
     left join patrons p on p.id = $3::bigint
     left join items i on i.id = $4::bigint`,
    [
      e.at ?? null,
      e.op,
      e.patronId ?? null,
      e.itemId ?? null,
      e.bibId ?? null,
      e.due ?? null,
      e.checkoutId ?? null,
      e.holdId ?? null,
      e.fineId ?? null,
      e.statGroup ?? null,
    ],
  );
}

/** Deletes the events before `before`; answers how many. */
export async function deleteBefore(db: Queryable, before: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with gone as (delete from circ_transactions where transaction_date < $1 returning 1) select count(*)::int as n from gone`,
    [before],
  );
  return rows[0]!.n;
}
