// SQL for reading history: a patron's switch (patrons.reading_history) and its rows.
import type { Queryable } from '../../db/types.ts';

export interface HistoryRow {
  id: string;
  patron_id: string;
  item_id: string;
  bib_id: string | null;
  out_date: Date;
}

/** Keeps the checkout in the patron's history, when the patron keeps one. */
export async function recordCheckout(tx: Queryable, patronId: string, itemId: string, bibId: string | null): Promise<void> {
  await tx.query(
    `insert into reading_history (patron_id, item_id, bib_id, out_date)
     select id, $2, $3, clock_timestamp() from patrons where id = $1 and reading_history`,
    [patronId, itemId, bibId],
  );
}

/** Whether the live patron keeps a history; undefined when there is no such patron. */
export async function historyActive(db: Queryable, patronId: string): Promise<boolean | undefined> {
  return (
    await db.query<{ on: boolean }>('select reading_history as on from patrons where id = $1 and deleted_date is null', [patronId])
  )[0]?.on;
}

/** A reading history entry as historyOfPatronJson lists it: the bib's title, and when it went out in ms since 1970. */
export interface HistoryWithTitle {
  bib_id: string | null;
  title: string | null;
  out_ms: number;
}

/**
 * A patron's reading history, newest first, at most `limit`, as one json array of
 * HistoryWithTitle: for a statement that reads it beside the patron's other lists in one round
 * trip (the catalogue's account page). `patron` is an SQL expression of the patron's id.
 */
export function historyOfPatronJson(patron: string, limit: number): string {
  if (!Number.isInteger(limit)) throw new Error(`not a row count: ${limit}`);
  return `(select coalesce(json_agg(json_build_object('bib_id', r.bib_id::text, 'title', b.title,
      'out_ms', floor(extract(epoch from r.out_date) * 1000)) order by r.out_date desc, r.id desc), '[]')
    from (select bib_id, out_date, id from reading_history where patron_id = ${patron} order by out_date desc, id desc limit ${limit}) r
    left join bibs b on b.id = r.bib_id)`;
}

/** Turns a live patron's history on or off; off deletes what it kept. False when there is no such patron. */
export async function setHistory(tx: Queryable, patronId: string, on: boolean): Promise<boolean> {
  const rows = await tx.query('update patrons set reading_history = $2 where id = $1 and deleted_date is null returning id', [
    patronId,
    on,
  ]);
  if (rows.length && !on) await tx.query('delete from reading_history where patron_id = $1', [patronId]);
  return rows.length > 0;
}

export async function listHistory(
  db: Queryable,
  patronId: string,
  newestFirst: boolean,
  limit: number,
  offset: number,
): Promise<HistoryRow[]> {
  const order = newestFirst ? 'out_date desc, id desc' : 'out_date, id';
  return db.query<HistoryRow>(
    `select id::text, patron_id::text, item_id::text, bib_id::text, out_date from reading_history where patron_id = $1
     order by ${order} limit $2 offset $3`,
    [patronId, limit, offset],
  );
}

/** Deletes one row of the patron's history, or all of it (`id` undefined); answers how many. */
export async function deleteHistory(db: Queryable, patronId: string, id?: string): Promise<number> {
  const rows =
    id === undefined
      ? await db.query('delete from reading_history where patron_id = $1 returning id', [patronId])
      : await db.query('delete from reading_history where patron_id = $1 and id = $2 returning id', [patronId, id]);
  return rows.length;
}
