// SQL for invoices and their line items. Money travels as text (NUMERIC in, NUMERIC::text out).
import { commonConditions, dateConditions, parameters, type CommonListFilter } from '../../db/list-filters.ts';
import type { Queryable } from '../../db/types.ts';
import type { DateFilter } from '../../shared/filters.ts';

export interface InvoiceRow {
  id: string;
  inv_num: string;
  inv_date: string;
  status: 'o' | 's' | 'p';
  vendor_id: string;
  vendor_code: string;
  vendor_name: string;
  accounting_unit: number;
  currency: string;
  use_tax_code: string | null;
  use_tax_rate: string | null;
  shipping: string;
  /** The tax the vendor charges (VAT, GST, sales tax): the lines' shares add up to it. */
  tax: string;
  discount: string;
  note: string | null;
  paid_date: Date | null;
  created_date: Date;
  updated_date: Date;
  deleted_date: Date | null;
  /** Sums over the line items. */
  subtotal: string;
  use_tax_amount: string;
  total: string;
  line_count: number;
}

export interface LineRow {
  id: string;
  invoice_id: string;
  line_number: number;
  fund_id: number;
  fund_code: string;
  fund_name: string;
  amount: string;
  quantity: number;
  subtotal: string;
  use_tax: boolean;
  use_tax_rate: string | null;
  use_tax_amount: string;
  shipping: string;
  tax: string;
  discount: string;
  total: string;
  note: string | null;
  bib_id: string | null;
  order_ref: string | null;
  /** The order the line pays, when its reference names one. */
  order_id: string | null;
}

const INVOICE_SELECT = `select i.id::text, i.inv_num, to_char(i.inv_date, 'YYYY-MM-DD') as inv_date, i.status, i.vendor_id::text,
  v.code as vendor_code, v.vendor_name, i.accounting_unit, i.currency, i.use_tax_code, i.use_tax_rate::text, i.shipping::text,
  i.tax::text, i.discount::text, i.note, i.paid_date, i.created_date, i.updated_date, i.deleted_date,
  t.subtotal::text, t.use_tax_amount::text, t.total::text, t.line_count
  from invoices i join vendors v on v.id = i.vendor_id
  cross join lateral (select coalesce(sum(l.subtotal), 0) as subtotal, coalesce(sum(l.use_tax_amount), 0) as use_tax_amount,
    coalesce(sum(l.total), 0) as total, count(*)::int as line_count from invoice_lines l where l.invoice_id = i.id) t`;

const LINE_SELECT = `select l.id::text, l.invoice_id::text, l.line_number, l.fund_id, f.code as fund_code, f.fund_name, l.amount::text,
  l.quantity, l.subtotal::text, l.use_tax, l.use_tax_rate::text, l.use_tax_amount::text, l.shipping::text, l.tax::text,
  l.discount::text, l.total::text, l.note, l.bib_id::text, l.order_ref, l.order_id::text
  from invoice_lines l join funds f on f.id = l.fund_id`;

export async function getInvoice(db: Queryable, id: string): Promise<InvoiceRow | undefined> {
  return (await db.query<InvoiceRow>(`${INVOICE_SELECT} where i.id = $1`, [id]))[0];
}

export interface InvoiceListFilter extends Omit<CommonListFilter, 'suppressed'> {
  invDate?: DateFilter;
  paidDate?: DateFilter;
  status?: string[];
  /** Invoice numbers; one ending in * matches every number that starts with the rest. */
  invNum?: string[];
  limit: number;
  offset: number;
}

const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listInvoices(db: Queryable, filter: InvoiceListFilter): Promise<InvoiceRow[]> {
  const { params, add } = parameters();
  const where = commonConditions('i', filter, add);
  if (filter.paidDate) where.push(...dateConditions('i.paid_date', filter.paidDate, filter.horizon, add));
  if (filter.invDate) {
    // A calendar date: compared by the UTC day of each end.
    const from = filter.invDate.kind === 'at' ? filter.invDate.at : filter.invDate.from;
    const to = filter.invDate.kind === 'at' ? filter.invDate.at : filter.invDate.to;
    if (from) where.push(`i.inv_date >= (${add(from)}::timestamptz at time zone 'UTC')::date`);
    if (to) where.push(`i.inv_date <= (${add(to)}::timestamptz at time zone 'UTC')::date`);
  }
  if (filter.status) where.push(`i.status = any(${add(filter.status)}::text[])`);
  if (filter.invNum) {
    const exact = filter.invNum.filter((n) => !n.endsWith('*'));
    const prefixes = filter.invNum.filter((n) => n.endsWith('*')).map((n) => likePrefix(n.slice(0, -1)));
    where.push(`(i.inv_num = any(${add(exact)}::text[]) or i.inv_num like any(${add(prefixes)}::text[]))`);
  }
  return db.query<InvoiceRow>(
    `${INVOICE_SELECT} ${where.length ? `where ${where.join(' and ')}` : ''} order by i.id limit ${add(filter.limit)} offset ${add(filter.offset)}`,
    params,
  );
}

/** An invoice's own columns, locked for the rest of the transaction; undefined when there is none. */
export interface LockedInvoice {
  id: string;
  inv_num: string;
  inv_date: string;
  status: 'o' | 's' | 'p';
  vendor_id: string;
  vendor_code: string;
  accounting_unit: number;
  currency: string;
  use_tax_code: string | null;
  shipping: string;
  tax: string;
  discount: string;
  note: string | null;
  deleted: boolean;
}

export async function lockInvoice(tx: Queryable, id: string): Promise<LockedInvoice | undefined> {
  const rows = await tx.query<LockedInvoice>(
    `select i.id::text, i.inv_num, to_char(i.inv_date, 'YYYY-MM-DD') as inv_date, i.status, i.vendor_id::text, v.code as vendor_code,
       i.accounting_unit, i.currency, i.use_tax_code, i.shipping::text, i.tax::text, i.discount::text, i.note,
       i.deleted_date is not null as deleted
     from invoices i join vendors v on v.id = i.vendor_id where i.id = $1 for update of i`,
    [id],
  );
  return rows[0];
}

/** The live invoice of this vendor with this number, other than `exceptId`. */
export async function findInvoiceNumber(
  tx: Queryable,
  vendorId: string,
  invNum: string,
  exceptId: string | undefined,
): Promise<string | undefined> {
  const rows = await tx.query<{ id: string }>(
    'select id::text from invoices where vendor_id = $1 and inv_num = $2 and deleted_date is null and id <> coalesce($3::bigint, 0)',
    [vendorId, invNum, exceptId ?? null],
  );
  return rows[0]?.id;
}

export interface InvoiceHeader {
  invNum: string;
  invDate: string;
  status: 'o' | 's';
  vendorId: string;
  accountingUnit: number;
  currency: string;
  useTaxCode: string | null;
  useTaxRate: string | null;
  shipping: string;
  tax: string;
  discount: string;
  note: string | null;
}

function headerParams(h: InvoiceHeader): unknown[] {
  return [
    h.invNum,
    h.invDate,
    h.status,
    h.vendorId,
    h.accountingUnit,
    h.currency,
    h.useTaxCode,
    h.useTaxRate,
    h.shipping,
    h.discount,
    h.note,
    h.tax,
  ];
}

export async function insertInvoice(tx: Queryable, header: InvoiceHeader, stamp: Date): Promise<string> {
  const rows = await tx.query<{ id: string }>(
    `insert into invoices (inv_num, inv_date, status, vendor_id, accounting_unit, currency, use_tax_code, use_tax_rate, shipping, discount,
       note, tax, created_date, updated_date)
     values ($1, $2::date, $3, $4, $5, $6, $7, $8::numeric, $9::numeric, $10::numeric, $11, $12::numeric, $13, $13) returning id::text`,
    [...headerParams(header), stamp],
  );
  return rows[0]!.id;
}

export async function updateInvoice(tx: Queryable, id: string, header: InvoiceHeader, stamp: Date): Promise<void> {
  await tx.query(
    `update invoices set inv_num = $1, inv_date = $2::date, status = $3, vendor_id = $4, accounting_unit = $5, currency = $6,
       use_tax_code = $7, use_tax_rate = $8::numeric, shipping = $9::numeric, discount = $10::numeric, note = $11,
       tax = $12::numeric, updated_date = $13
     where id = $14`,
    [...headerParams(header), stamp, id],
  );
}

export interface LineRecord {
  /** Kept from before when the line items were not replaced; absent: a new id. */
  id?: string;
  lineNumber: number;
  fundId: number;
  amount: string;
  quantity: number;
  subtotal: string;
  useTax: boolean;
  useTaxRate: string | null;
  useTaxAmount: string;
  shipping: string;
  tax: string;
  discount: string;
  total: string;
  note: string | null;
  bibId: string | null;
  order: string | null;
  orderId: string | null;
}

/** Replaces an invoice's line items (one statement for all of them, however many). */
export async function replaceLines(tx: Queryable, invoiceId: string, lines: readonly LineRecord[]): Promise<void> {
  await tx.query('delete from invoice_lines where invoice_id = $1', [invoiceId]);
  if (lines.length === 0) return;
  const doc = lines.map((l) => ({
    id: l.id ?? null,
    line_number: l.lineNumber,
    fund_id: l.fundId,
    amount: l.amount,
    quantity: l.quantity,
    subtotal: l.subtotal,
    use_tax: l.useTax,
    use_tax_rate: l.useTaxRate,
    use_tax_amount: l.useTaxAmount,
    shipping: l.shipping,
    tax: l.tax,
    discount: l.discount,
    total: l.total,
    note: l.note,
    bib_id: l.bibId,
    order_ref: l.order,
    order_id: l.orderId,
  }));
  await tx.query(
    `insert into invoice_lines (id, invoice_id, line_number, fund_id, amount, quantity, subtotal, use_tax, use_tax_rate, use_tax_amount,
       shipping, tax, discount, total, note, bib_id, order_ref, order_id)
     select coalesce(r.id, nextval('invoice_line_ids')), $2, r.line_number, r.fund_id, r.amount, r.quantity, r.subtotal, r.use_tax,
       r.use_tax_rate, r.use_tax_amount, r.shipping, r.tax, r.discount, r.total, r.note, r.bib_id, r.order_ref, r.order_id
     from jsonb_to_recordset($1::jsonb) as r(id bigint, line_number integer, fund_id integer, amount numeric, quantity integer,
       subtotal numeric, use_tax boolean, use_tax_rate numeric, use_tax_amount numeric, shipping numeric, tax numeric, discount numeric,
       total numeric, note text, bib_id bigint, order_ref text, order_id bigint)
     order by r.line_number`,
    [doc, invoiceId],
  );
}

/** Deletes an unpaid invoice, leaving its tombstone; its line items go. */
export async function tombstoneInvoice(tx: Queryable, id: string, stamp: Date): Promise<void> {
  await tx.query('delete from invoice_lines where invoice_id = $1', [id]);
  await tx.query('update invoices set use_tax_code = null, use_tax_rate = null, deleted_date = $2, updated_date = $2 where id = $1', [
    id,
    stamp,
  ]);
}

export async function markPaid(tx: Queryable, id: string, stamp: Date): Promise<void> {
  await tx.query("update invoices set status = 'p', paid_date = $2, updated_date = $2 where id = $1", [id, stamp]);
}

export async function invoiceLines(db: Queryable, invoiceId: string, page?: { limit: number; offset: number }): Promise<LineRow[]> {
  if (!page) return db.query<LineRow>(`${LINE_SELECT} where l.invoice_id = $1 order by l.line_number`, [invoiceId]);
  return db.query<LineRow>(`${LINE_SELECT} where l.invoice_id = $1 order by l.line_number limit $2 offset $3`, [
    invoiceId,
    page.limit,
    page.offset,
  ]);
}

export async function linesOfInvoices(db: Queryable, invoiceIds: readonly string[]): Promise<LineRow[]> {
  if (invoiceIds.length === 0) return [];
  return db.query<LineRow>(`${LINE_SELECT} where l.invoice_id = any($1::bigint[]) order by l.invoice_id, l.line_number`, [invoiceIds]);
}

export async function getLine(db: Queryable, id: string): Promise<LineRow | undefined> {
  return (await db.query<LineRow>(`${LINE_SELECT} where l.id = $1`, [id]))[0];
}

/** Which of these bib ids are live bibs. */
export async function liveBibIds(db: Queryable, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<{ id: string }>('select id::text from bibs where id = any($1::bigint[]) and deleted_date is null', [ids]);
  return rows.map((r) => r.id);
}

export interface PaidLineRow {
  invoice_id: string;
  inv_num: string;
  inv_date: string;
  paid_date: Date;
  vendor_code: string;
  vendor_name: string;
  accounting_unit: number;
  currency: string;
  use_tax_code: string | null;
  invoice_total: string;
  line_id: string;
  line_number: number;
  fund_code: string;
  fund_name: string;
  amount: string;
  quantity: number;
  subtotal: string;
  use_tax: boolean;
  use_tax_rate: string | null;
  use_tax_amount: string;
  shipping: string;
  tax: string;
  discount: string;
  total: string;
  note: string | null;
  bib_id: string | null;
  order_ref: string | null;
}

/** The line items of invoices paid in [since, before), in payment order. */
export async function paidLines(db: Queryable, since: Date, before: Date): Promise<PaidLineRow[]> {
  return db.query<PaidLineRow>(
    `select i.id::text as invoice_id, i.inv_num, to_char(i.inv_date, 'YYYY-MM-DD') as inv_date, i.paid_date, v.code as vendor_code,
       v.vendor_name, i.accounting_unit, i.currency, i.use_tax_code, (sum(l.total) over (partition by i.id))::text as invoice_total,
       l.id::text as line_id, l.line_number, f.code as fund_code, f.fund_name, l.amount::text, l.quantity, l.subtotal::text, l.use_tax,
       l.use_tax_rate::text, l.use_tax_amount::text, l.shipping::text, l.tax::text, l.discount::text, l.total::text, l.note,
       l.bib_id::text, l.order_ref
     from invoices i join vendors v on v.id = i.vendor_id join invoice_lines l on l.invoice_id = i.id join funds f on f.id = l.fund_id
     where i.status = 'p' and i.paid_date >= $1 and i.paid_date < $2
     order by i.paid_date, i.id, l.line_number`,
    [since, before],
  );
}
