// SQL for checkouts.
import type { Queryable } from '../db/types.ts';

export interface CheckoutRow {
  id: string;
  patron_id: string;
  item_id: string;
  barcode: string | null;
  out_date: Date;
  due_date: string;
}

export async function activeCheckout(tx: Queryable, itemId: string): Promise<{ id: string; patron_id: string } | undefined> {
  return (
    await tx.query<{ id: string; patron_id: string }>(
      'select id::text, patron_id::text from checkouts where item_id = $1 and returned_date is null for update',
      [itemId],
    )
  )[0];
}

export async function insertCheckout(tx: Queryable, patronId: string, itemId: string, dueDate: string): Promise<string> {
  return (
    await tx.query<{ id: string }>(
      'insert into checkouts (patron_id, item_id, out_date, due_date) values ($1, $2, clock_timestamp(), $3::date) returning id::text',
      [patronId, itemId, dueDate],
    )
  )[0]!.id;
}

export async function returnCheckout(tx: Queryable, id: string): Promise<void> {
  await tx.query('update checkouts set returned_date = clock_timestamp() where id = $1', [id]);
}

export async function listCheckouts(db: Queryable, patronId: string, limit: number, offset: number): Promise<CheckoutRow[]> {
  return db.query<CheckoutRow>(
    `select c.id::text, c.patron_id::text, c.item_id::text, i.barcode, c.out_date, to_char(c.due_date, 'YYYY-MM-DD') as due_date
     from checkouts c join items i on i.id = c.item_id where c.patron_id = $1 and c.returned_date is null
     order by c.id limit $2 offset $3`,
    [patronId, limit, offset],
  );
}
