// SQL for orders sent as EDIFACT interchanges and files fetched from vendors' servers.
import type { Queryable } from '../../db/types.ts';

export interface InterchangeRow {
  id: string;
  vendor_id: string;
  control_reference: string;
  file_name: string;
  status: 'prepared' | 'sent';
  content: Uint8Array;
}

/** Vendors with orders to send: placed (status o), not deleted, in no interchange yet; one vendor when given. */
export function vendorsWithPending(db: Queryable, vendorId?: string): Promise<{ id: string; code: string }[]> {
  return db.query<{ id: string; code: string }>(
    `select v.id::text, v.code from vendors v
     where ($1::bigint is null or v.id = $1)
       and exists (select 1 from orders o where o.vendor_id = v.id and o.status = 'o' and o.deleted_date is null
                   and not exists (select 1 from edi_order_sends s where s.order_id = o.id))
     order by v.code`,
    [vendorId ?? null],
  );
}

/** Vendors whose server Carrel reaches (a connection is set); one vendor when given. */
export function vendorsWithConnection(db: Queryable, vendorId?: string): Promise<{ id: string; code: string }[]> {
  return db.query<{ id: string; code: string }>(
    `select v.id::text, v.code from vendors v join vendor_edi e on e.vendor_id = v.id
     where e.protocol is not null and ($1::bigint is null or v.id = $1) order by v.code`,
    [vendorId ?? null],
  );
}

/** Vendors whose orders have a way out: a server Carrel reaches, or collection from the door; one vendor when given. */
export function vendorsWithRoute(db: Queryable, vendorId?: string): Promise<{ id: string; code: string }[]> {
  return db.query<{ id: string; code: string }>(
    `select v.id::text, v.code from vendors v join vendor_edi e on e.vendor_id = v.id
     where (e.protocol is not null or e.orders_pickup) and ($1::bigint is null or v.id = $1) order by v.code`,
    [vendorId ?? null],
  );
}

/** The ids of a vendor's orders not sent yet, oldest first, at most `limit`. */
export async function pendingOrderIds(db: Queryable, vendorId: string, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `select o.id::text from orders o
     where o.vendor_id = $1 and o.status = 'o' and o.deleted_date is null
       and not exists (select 1 from edi_order_sends s where s.order_id = o.id)
     order by o.id limit $2`,
    [vendorId, limit],
  );
  return rows.map((r) => r.id);
}

export async function nextControlReference(tx: Queryable): Promise<string> {
  const [row] = await tx.query<{ n: string }>(`select nextval('edi_control_references')::text as n`);
  return row!.n;
}

/**
 * Records an interchange as prepared with its orders; answers its id, or undefined when one of
 * the orders is already in an interchange (another run took it first): nothing is then recorded.
 */
export async function insertPrepared(
  tx: Queryable,
  row: { vendorId: string; controlReference: string; fileName: string; content: Uint8Array; orderIds: string[]; pickup: boolean },
  at: Date,
): Promise<string | undefined> {
  const [interchange] = await tx.query<{ id: string }>(
    `insert into edi_interchanges (vendor_id, control_reference, file_name, status, prepared_date, content, pickup)
     values ($1, $2, $3, 'prepared', $4, $5, $6) returning id::text`,
    [row.vendorId, row.controlReference, row.fileName, at, row.content, row.pickup],
  );
  const taken = await tx.query<{ order_id: string }>(
    `insert into edi_order_sends (order_id, interchange_id) select unnest($1::bigint[]), $2
     on conflict (order_id) do nothing returning order_id::text`,
    [row.orderIds, interchange!.id],
  );
  return taken.length === row.orderIds.length ? interchange!.id : undefined;
}

/**
 * Interchanges of a vendor recorded for upload but not known to have arrived (a run that failed or
 * died); those waiting for the vendor to collect them are not among them.
 */
export function preparedInterchanges(db: Queryable, vendorId: string): Promise<InterchangeRow[]> {
  return db.query<InterchangeRow>(
    `select id::text, vendor_id::text, control_reference, file_name, status, content from edi_interchanges
     where vendor_id = $1 and status = 'prepared' and not pickup order by id`,
    [vendorId],
  );
}

export interface WaitingRow {
  id: string;
  file_name: string;
  size: number;
  prepared_date: Date;
}

/** A vendor's interchanges waiting for it to collect them, oldest first, at most `limit`. */
export function waitingForPickup(db: Queryable, vendorId: string, limit: number): Promise<WaitingRow[]> {
  return db.query<WaitingRow>(
    `select id::text, file_name, octet_length(content) as size, prepared_date from edi_interchanges
     where vendor_id = $1 and pickup and status = 'prepared' order by id limit $2`,
    [vendorId, limit],
  );
}

/** One interchange of the vendor waiting for collection, by its file name, with its bytes. */
export async function waitingByName(
  db: Queryable,
  vendorId: string,
  fileName: string,
): Promise<(WaitingRow & { content: Uint8Array }) | undefined> {
  const [row] = await db.query<WaitingRow & { content: Uint8Array }>(
    `select id::text, file_name, octet_length(content) as size, prepared_date, content from edi_interchanges
     where vendor_id = $1 and file_name = $2 and pickup and status = 'prepared'`,
    [vendorId, fileName],
  );
  return row;
}

export async function markSent(db: Queryable, id: string, deliveredTo: string | null, at: Date): Promise<void> {
  await db.query(`update edi_interchanges set status = 'sent', sent_date = $2, delivered_to = $3 where id = $1 and status = 'prepared'`, [
    id,
    at,
    deliveredTo,
  ]);
}

/** Forgets a prepared interchange that surely did not arrive: its orders are pending again. */
export async function dropPrepared(db: Queryable, id: string): Promise<void> {
  await db.query(`delete from edi_interchanges where id = $1 and status = 'prepared'`, [id]);
}

export async function interchangeOrderIds(db: Queryable, id: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'select order_id::text as id from edi_order_sends where interchange_id = $1 order by order_id',
    [id],
  );
  return rows.map((r) => r.id);
}

/** Of the files listed, those fetched before (same name, size and modification time). */
export async function fetchedBefore(db: Queryable, vendorId: string, names: string[]): Promise<Set<string>> {
  const rows = await db.query<{ key: string }>(
    `select name || '/' || size || '/' || mtime as key from edi_fetched where vendor_id = $1 and name = any($2::text[])`,
    [vendorId, names],
  );
  return new Set(rows.map((r) => r.key));
}

export async function recordFetched(
  tx: Queryable,
  row: { vendorId: string; name: string; size: number; mtime: number; fileId: string },
): Promise<void> {
  await tx.query(`insert into edi_fetched (vendor_id, name, size, mtime, file_id) values ($1, $2, $3, $4, $5)`, [
    row.vendorId,
    row.name,
    row.size,
    row.mtime,
    row.fileId,
  ]);
}

export interface InterchangeListRow {
  vendor_code: string;
  control_reference: string;
  file_name: string;
  status: 'prepared' | 'sent';
  prepared_date: Date;
  sent_date: Date | null;
  delivered_to: string | null;
  orders: string[];
}

export function listInterchanges(db: Queryable, o: { vendorId?: string; limit: number }): Promise<InterchangeListRow[]> {
  return db.query<InterchangeListRow>(
    `select v.code as vendor_code, i.control_reference, i.file_name, i.status, i.prepared_date, i.sent_date, i.delivered_to,
       coalesce((select array_agg(s.order_id::text order by s.order_id) from edi_order_sends s where s.interchange_id = i.id), '{}') as orders
     from edi_interchanges i join vendors v on v.id = i.vendor_id
     where ($1::bigint is null or i.vendor_id = $1) order by i.id desc limit $2`,
    [o.vendorId ?? null, o.limit],
  );
}

export async function interchangeContent(db: Queryable, controlReference: string): Promise<Uint8Array | undefined> {
  const [row] = await db.query<{ content: Uint8Array }>('select content from edi_interchanges where control_reference = $1', [
    controlReference,
  ]);
  return row?.content;
}
