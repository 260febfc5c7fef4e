// SQL for purchase orders and the locations their copies go to. Money travels as text.
import { commonConditions, parameters, type CommonListFilter } from '../../db/list-filters.ts';
import type { Queryable } from '../../db/types.ts';

export interface OrderLocationRow {
  location_code: string;
  location_name: string | null;
  copies: number;
}

export interface OrderRow {
  id: string;
  bib_id: string;
  bib_title: string | null;
  bib_author: string | null;
  bib_isbns: string[];
  vendor_id: string;
  vendor_code: string;
  vendor_name: string;
  fund_id: number;
  fund_code: string;
  fund_name: string;
  currency: string;
  accounting_unit: number;
  copies: number;
  estimated_price: string;
  encumbrance: string;
  line_reference: string;
  status: OrderStatus;
  order_date: string;
  received_date: string | null;
  received_copies: number;
  paid_copies: number;
  vendor_status: string | null;
  vendor_status_date: Date | null;
  cancelled_date: Date | null;
  note: string | null;
  created_date: Date;
  updated_date: Date;
  deleted_date: Date | null;
  /** Carrel does not suppress orders: always false. */
  suppressed: boolean;
  locations: OrderLocationRow[];
}

export type OrderStatus = 'o' | '1' | 'q' | 'a' | 'z';

const ORDER_SELECT = `select o.id::text, o.bib_id::text, b.title as bib_title, b.author as bib_author, b.isbns as bib_isbns,
  o.vendor_id::text, v.code as vendor_code, v.vendor_name, o.fund_id, f.code as fund_code, f.fund_name, f.currency,
  f.accounting_unit, o.copies, o.estimated_price::text, o.encumbrance::text, o.line_reference, o.status,
  to_char(o.order_date, 'YYYY-MM-DD') as order_date, to_char(o.received_date, 'YYYY-MM-DD') as received_date,
  o.received_copies, o.paid_copies, o.vendor_status, o.vendor_status_date, o.cancelled_date, o.note,
  o.created_date, o.updated_date, o.deleted_date, false as suppressed,
  coalesce((select json_agg(json_build_object('location_code', ol.location_code, 'location_name', l.name, 'copies', ol.copies)
              order by ol.display_order)
            from order_locations ol left join locations l on l.code = ol.location_code where ol.order_id = o.id), '[]') as locations
  from orders o join bibs b on b.id = o.bib_id join vendors v on v.id = o.vendor_id join funds f on f.id = o.fund_id`;

export async function getOrder(db: Queryable, id: string): Promise<OrderRow | undefined> {
  return (await db.query<OrderRow>(`${ORDER_SELECT} where o.id = $1`, [id]))[0];
}

export interface OrderListFilter extends Omit<CommonListFilter, 'suppressed'> {
  status?: string[];
  bibId?: string;
  vendorId?: string;
  lineReference?: string;
  limit: number;
  offset: number;
}

export async function listOrders(db: Queryable, filter: OrderListFilter): Promise<OrderRow[]> {
  const { params, add } = parameters();
  const where = commonConditions('o', filter, add);
  if (filter.status) where.push(`o.status = any(${add(filter.status)}::text[])`);
  if (filter.bibId) where.push(`o.bib_id = ${add(filter.bibId)}::bigint`);
  if (filter.vendorId) where.push(`o.vendor_id = ${add(filter.vendorId)}::bigint`);
  if (filter.lineReference) where.push(`o.line_reference = ${add(filter.lineReference)}`);
  return db.query<OrderRow>(
    `${ORDER_SELECT} ${where.length ? `where ${where.join(' and ')}` : ''} order by o.id limit ${add(filter.limit)} offset ${add(filter.offset)}`,
    params,
  );
}

export interface NewOrder {
  bibId: string;
  vendorId: string;
  fundId: number;
  copies: number;
  estimatedPrice: string;
  encumbrance: string;
  /** Null: 'o' and the order's number. */
  lineReference: string | null;
  status: OrderStatus;
  orderDate: string;
  note: string | null;
  locations: { code: string; copies: number }[];
}

/** Inserts an order and its locations; answers its id. */
export async function insertOrder(tx: Queryable, order: NewOrder, at: Date): Promise<string> {
  const rows = await tx.query<{ id: string }>(
    `with n as (select nextval('order_ids') as id)
     insert into orders (id, bib_id, vendor_id, fund_id, copies, estimated_price, encumbrance, line_reference, status, order_date, note,
       created_date, updated_date)
     select n.id, $1, $2, $3, $4, $5, $6, coalesce($7, 'o' || n.id), $8, $9, $10, $11, $11 from n returning id::text`,
    [
      order.bibId,
      order.vendorId,
      order.fundId,
      order.copies,
      order.estimatedPrice,
      order.encumbrance,
      order.lineReference,
      order.status,
      order.orderDate,
      order.note,
      at,
    ],
  );
  const id = rows[0]!.id;
  await tx.query(
    `insert into order_locations (order_id, display_order, location_code, copies)
     select $1, l.n - 1, l.code, l.copies from unnest($2::text[], $3::int[]) with ordinality as l(code, copies, n)`,
    [id, order.locations.map((l) => l.code), order.locations.map((l) => l.copies)],
  );
  return id;
}

/** An order's own columns, locked for the rest of the transaction. */
export interface LockedOrder {
  id: string;
  bib_id: string;
  vendor_id: string;
  fund_id: number;
  copies: number;
  estimated_price: string;
  encumbrance: string;
  line_reference: string;
  status: OrderStatus;
  received_copies: number;
  paid_copies: number;
  deleted: boolean;
}

const LOCKED_COLUMNS = `id::text, bib_id::text, vendor_id::text, fund_id, copies, estimated_price::text, encumbrance::text, line_reference,
  status, received_copies, paid_copies, deleted_date is not null as deleted`;

export async function lockOrder(tx: Queryable, id: string): Promise<LockedOrder | undefined> {
  return (await tx.query<LockedOrder>(`select ${LOCKED_COLUMNS} from orders where id = $1 for update`, [id]))[0];
}

/** Locks these orders (those that exist) in id order, so concurrent writers take them alike. */
export async function lockOrders(tx: Queryable, ids: readonly string[]): Promise<LockedOrder[]> {
  return tx.query<LockedOrder>(`select ${LOCKED_COLUMNS} from orders where id = any($1::bigint[]) order by id for update`, [ids]);
}

/** The open (not fully paid, not cancelled) live order with this line reference, optionally of one vendor. */
export async function openOrderByLineReference(db: Queryable, lineReference: string, vendorId?: string): Promise<string | undefined> {
  return (
    await db.query<{ id: string }>(
      `select id::text from orders where line_reference = $1 and status not in ('a', 'z') and deleted_date is null
         and ($2::bigint is null or vendor_id = $2::bigint)`,
      [lineReference, vendorId ?? null],
    )
  )[0]?.id;
}

/** The live order with this id, optionally of one vendor. */
export async function liveOrderId(db: Queryable, id: string, vendorId?: string): Promise<string | undefined> {
  return (
    await db.query<{ id: string }>(
      'select id::text from orders where id = $1 and deleted_date is null and ($2::bigint is null or vendor_id = $2::bigint)',
      [id, vendorId ?? null],
    )
  )[0]?.id;
}

/** The open order other than `except` holding this line reference. */
export async function lineReferenceHolder(db: Queryable, lineReference: string, except?: string): Promise<string | undefined> {
  return (
    await db.query<{ id: string }>(
      `select id::text from orders where line_reference = $1 and status not in ('a', 'z') and deleted_date is null
         and id <> coalesce($2::bigint, 0)`,
      [lineReference, except ?? null],
    )
  )[0]?.id;
}

export interface OrderChanges {
  note?: string | null;
  lineReference?: string;
  status?: OrderStatus;
  encumbrance?: string;
  cancelled?: boolean;
  receivedCopies?: number;
  paidCopies?: number;
  vendorStatus?: string;
}

/** Writes the changes given; stamps updated_date (and the dates a change implies). */
export async function updateOrder(tx: Queryable, id: string, changes: OrderChanges, at: Date): Promise<void> {
  const { params, add } = parameters();
  const sets: string[] = [`updated_date = ${add(at)}`];
  if (changes.note !== undefined) sets.push(`note = ${add(changes.note)}`);
  if (changes.lineReference !== undefined) sets.push(`line_reference = ${add(changes.lineReference)}`);
  if (changes.status !== undefined) sets.push(`status = ${add(changes.status)}`);
  if (changes.encumbrance !== undefined) sets.push(`encumbrance = ${add(changes.encumbrance)}`);
  if (changes.cancelled) sets.push(`cancelled_date = ${add(at)}`);
  if (changes.receivedCopies !== undefined) {
    sets.push(`received_copies = ${add(changes.receivedCopies)}`);
    sets.push(`received_date = (${add(at)}::timestamptz at time zone 'UTC')::date`);
  }
  if (changes.paidCopies !== undefined) sets.push(`paid_copies = ${add(changes.paidCopies)}`);
  if (changes.vendorStatus !== undefined) {
    sets.push(`vendor_status = ${add(changes.vendorStatus)}`);
    sets.push(`vendor_status_date = ${add(at)}`);
  }
  await tx.query(`update orders set ${sets.join(', ')} where id = ${add(id)}`, params);
}

/** The order's locations and their copies, in display order. */
export async function orderLocations(db: Queryable, id: string): Promise<{ code: string; copies: number }[]> {
  return db.query<{ code: string; copies: number }>(
    'select location_code as code, copies from order_locations where order_id = $1 order by display_order',
    [id],
  );
}

/** Which of these codes name no location. */
export async function unknownLocations(db: Queryable, codes: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ code: string }>(
    'select c as code from unnest($1::text[]) c where not exists (select 1 from locations l where l.code = c)',
    [codes],
  );
  return rows.map((r) => r.code);
}

/** Whether a live bib has this id. */
export async function liveBib(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('select 1 from bibs where id = $1 and deleted_date is null', [id])).length > 0;
}

/** What an invoice line needs to know of the order it names. */
export async function orderLink(
  db: Queryable,
  id: string,
): Promise<{ id: string; fund_id: number; fund_code: string; status: OrderStatus }> {
  return (
    await db.query<{ id: string; fund_id: number; fund_code: string; status: OrderStatus }>(
      'select o.id::text, o.fund_id, f.code as fund_code, o.status from orders o join funds f on f.id = o.fund_id where o.id = $1',
      [id],
    )
  )[0]!;
}
