// A vendor as the API and the CLI show it, fields chosen by `fields`.
import type { FieldSet } from '../../http/params.ts';
import { pickFields } from '../../http/present.ts';
import { instant } from '../../shared/instant.ts';
import type { VendorRow } from './service.ts';

export const VENDOR_FIELDS = {
  all: ['id', 'code', 'vendorName', 'accountingUnit', 'address1', 'address2', 'contact', 'email', 'phone', 'acctNum', 'createdDate', 'updatedDate'] as const,
  defaults: ['id', 'code', 'vendorName', 'accountingUnit', 'address1', 'address2', 'contact', 'email', 'phone', 'acctNum', 'createdDate', 'updatedDate'] as const,
} satisfies FieldSet<string>;
export type VendorField = (typeof VENDOR_FIELDS.all)[number];

export function presentVendor(row: VendorRow, fields: readonly VendorField[] = VENDOR_FIELDS.defaults): Record<string, unknown> {
  const all: Record<VendorField, unknown> = {
    id: row.id,
    code: row.code,
    vendorName: row.vendor_name,
    accountingUnit: row.accounting_unit,
    address1: row.address1 ?? undefined,
    address2: row.address2 ?? undefined,
    contact: row.contact ?? undefined,
    email: row.email ?? undefined,
    phone: row.phone ?? undefined,
    acctNum: row.acct_num ?? undefined,
    createdDate: instant(row.created_date),
    updatedDate: instant(row.updated_date),
  };
  return pickFields(all, fields);
}
