// SQL for checkouts.
import type { Queryable } from '../db/types.ts';

export interface CheckoutRow {
  id: string;
  patron_id: string;
  item_id: string;
  barcode: string | null;
  call_number: string | null;
  out_date: Date;
  due_date: string;
  renewals: number;
}

const CHECKOUT = `select c.id::text, c.patron_id::text, c.item_id::text, i.barcode, i.call_number, c.out_date,
  to_char(c.due_date, 'YYYY-MM-DD') as due_date, c.renewals from checkouts c join items i on i.id = c.item_id`;

export async function activeCheckout(
  tx: Queryable,
  itemId: string,
): Promise<{ id: string; patron_id: string; due_date: string; renewals: number } | undefined> {
  return (
    await tx.query<{ id: string; patron_id: string; due_date: string; renewals: number }>(
      `select id::text, patron_id::text, to_char(due_date, 'YYYY-MM-DD') as due_date, renewals from checkouts
       where item_id = $1 and returned_date is null for update`,
      [itemId],
    )
  )[0];
}

/** A new checkout's id, taken before its row is written (so the writes that name it go together). */
export async function newCheckoutId(tx: Queryable): Promise<string> {
  return (await tx.query<{ id: string }>("select nextval('checkout_ids')::text as id"))[0]!.id;
}

export async function insertCheckout(tx: Queryable, id: string, patronId: string, itemId: string, dueDate: string): Promise<void> {
  await tx.query('insert into checkouts (id, patron_id, item_id, out_date, due_date) values ($1, $2, $3, clock_timestamp(), $4::date)', [
    id,
    patronId,
    itemId,
    dueDate,
  ]);
}

export async function returnCheckout(tx: Queryable, id: string): Promise<void> {
  await tx.query('update checkouts set returned_date = clock_timestamp() where id = $1', [id]);
}

export async function listCheckouts(db: Queryable, patronId: string, limit: number, offset: number): Promise<CheckoutRow[]> {
  return db.query<CheckoutRow>(`${CHECKOUT} where c.patron_id = $1 and c.returned_date is null order by c.id limit $2 offset $3`, [
    patronId,
    limit,
    offset,
  ]);
}

/** An open loan as activeLoansOfPatronJson lists it: its item's first bib (lowest id) and that bib's title. */
export interface LoanWithTitle {
  id: string;
  item_id: string;
  call_number: string | null;
  /** YYYY-MM-DD */
  due_date: string;
  bib_id: string | null;
  title: string | null;
}

/**
 * A patron's open loans, oldest first, at most `limit`, as one json array of LoanWithTitle: for a
 * statement that reads them beside the patron's other lists in one round trip (the catalogue's
 * account page). `patron` is an SQL expression of the patron's id.
 */
export function openLoansOfPatronJson(patron: string, limit: number): string {
  if (!Number.isInteger(limit)) throw new Error(`not a row count: ${limit}`);
  return `(select coalesce(json_agg(json_build_object('id', c.id::text, 'item_id', c.item_id::text, 'call_number', i.call_number,
      'due_date', to_char(c.due_date, 'YYYY-MM-DD'), 'bib_id', fb.bib_id::text, 'title', fb.title) order by c.id), '[]')
    from (select id, item_id, due_date from checkouts where patron_id = ${patron} and returned_date is null order by id limit ${limit}) c
    join items i on i.id = c.item_id
    left join lateral (select ib.bib_id, b.title from item_bibs ib left join bibs b on b.id = ib.bib_id
      where ib.item_id = c.item_id order by ib.bib_id limit 1) fb on true)`;
}

/** The open checkout of an item (a list of one or none, as Sierra answers it). */
export async function checkoutsOfItem(db: Queryable, itemId: string): Promise<CheckoutRow[]> {
  return db.query<CheckoutRow>(`${CHECKOUT} where c.item_id = $1 and c.returned_date is null`, [itemId]);
}

/** An open checkout by id. */
export async function getCheckout(db: Queryable, id: string): Promise<CheckoutRow | undefined> {
  return (await db.query<CheckoutRow>(`${CHECKOUT} where c.id = $1 and c.returned_date is null`, [id]))[0];
}

/** The item and patron of an open checkout, read before their locks are taken (then read again under them). */
export async function checkoutParties(db: Queryable, id: string): Promise<{ item_id: string; patron_id: string } | undefined> {
  return (
    await db.query<{ item_id: string; patron_id: string }>(
      'select item_id::text, patron_id::text from checkouts where id = $1 and returned_date is null',
      [id],
    )
  )[0];
}

/** Renews an open checkout: its new due date, one renewal more. */
export async function renewCheckout(tx: Queryable, id: string, due: string): Promise<void> {
  await tx.query('update checkouts set due_date = $2::date, renewals = renewals + 1 where id = $1', [id, due]);
}
