// SQL for vendors.
import type { Queryable } from '../../db/types.ts';
import { commonConditions, parameters } from '../../db/list-filters.ts';
import type { IdFilter } from '../../shared/filters.ts';

export interface VendorRow {
  id: string;
  code: string;
  vendor_name: string;
  accounting_unit: number;
  address1: string | null;
  address2: string | null;
  contact: string | null;
  email: string | null;
  phone: string | null;
  acct_num: string | null;
  created_date: Date;
  updated_date: Date;
}

/** The optional text fields, by API name and column. */
export const VENDOR_TEXT_FIELDS = {
  address1: 'address1',
  address2: 'address2',
  contact: 'contact',
  email: 'email',
  phone: 'phone',
  acctNum: 'acct_num',
} as const;
export type VendorTextField = keyof typeof VENDOR_TEXT_FIELDS;

const SELECT = `select id::text, code, vendor_name, accounting_unit, address1, address2, contact, email, phone, acct_num,
  created_date, updated_date from vendors v`;

export async function listVendors(db: Queryable, filter: { id?: IdFilter; limit: number; offset: number }): Promise<VendorRow[]> {
  const { params, add } = parameters();
  const where = commonConditions('v', { id: filter.id }, add);
  return db.query<VendorRow>(
    `${SELECT} ${where.length ? `where ${where.join(' and ')}` : ''} order by v.id limit ${add(filter.limit)} offset ${add(filter.offset)}`,
    params,
  );
}

export async function getVendor(db: Queryable, id: string): Promise<VendorRow | undefined> {
  return (await db.query<VendorRow>(`${SELECT} where v.id = $1`, [id]))[0];
}

export async function vendorByCode(db: Queryable, code: string): Promise<VendorRow | undefined> {
  return (await db.query<VendorRow>(`${SELECT} where v.code = $1`, [code]))[0];
}

export interface NewVendor extends Partial<Record<VendorTextField, string | null>> {
  code: string;
  vendorName: string;
  accountingUnit: number;
}

/** Inserts a vendor; undefined when the code is taken. */
export async function insertVendor(tx: Queryable, vendor: NewVendor, stamp: Date): Promise<string | undefined> {
  const rows = await tx.query<{ id: string }>(
    `insert into vendors (code, vendor_name, accounting_unit, address1, address2, contact, email, phone, acct_num, created_date, updated_date)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) on conflict (code) do nothing returning id::text`,
    [
      vendor.code,
      vendor.vendorName,
      vendor.accountingUnit,
      vendor.address1 ?? null,
      vendor.address2 ?? null,
      vendor.contact ?? null,
      vendor.email ?? null,
      vendor.phone ?? null,
      vendor.acctNum ?? null,
      stamp,
    ],
  );
  return rows[0]?.id;
}

export interface VendorChanges extends Partial<Record<VendorTextField, string | null>> {
  vendorName?: string;
  accountingUnit?: number;
}

/** Changes the given fields (null clears a text field); false when there is no such vendor. */
export async function updateVendor(tx: Queryable, id: string, changes: VendorChanges, stamp: Date): Promise<boolean> {
  const { params, add } = parameters();
  const sets = [`updated_date = ${add(stamp)}`];
  if (changes.vendorName !== undefined) sets.push(`vendor_name = ${add(changes.vendorName)}`);
  if (changes.accountingUnit !== undefined) sets.push(`accounting_unit = ${add(changes.accountingUnit)}`);
  for (const [field, column] of Object.entries(VENDOR_TEXT_FIELDS) as [VendorTextField, string][]) {
    if (changes[field] !== undefined) sets.push(`${column} = ${add(changes[field])}`);
  }
  const rows = await tx.query(`update vendors set ${sets.join(', ')} where id = ${add(id)} returning id`, params);
  return rows.length > 0;
}
